"""The variant registry: goal sets as data, checked against sets built here from coordinates."""

from __future__ import annotations

import pytest

from autograder.games.teeko.variants import (
    VARIANTS,
    Goal,
    UnknownVariantError,
    Variant,
    find_variant,
)

SIZE = 5
ON_BOARD = range(SIZE)


def _mask(cells: list[tuple[int, int]]) -> int:
    return sum(1 << (r * SIZE + c) for r, c in cells)


def _cells(mask: int) -> list[tuple[int, int]]:
    return [divmod(sq, SIZE) for sq in range(SIZE * SIZE) if mask >> sq & 1]


# Expected goal sets, written from the rules in KIT_SPEC §2 rather than from variants.py's shapes:
# a line is four steps of one direction from a start square, all on the board.
def _lines() -> set[tuple[int, int]]:
    lines = set()
    for r in ON_BOARD:
        for c in ON_BOARD:
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(4)]
                if all(0 <= rr < SIZE and 0 <= cc < SIZE for rr, cc in cells):
                    lines.add((_mask(cells), 0))
    return lines


def _boxes() -> set[tuple[int, int]]:
    return {
        (_mask([(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]), 0)
        for r in range(SIZE - 1)
        for c in range(SIZE - 1)
    }


def _around(offsets: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The four squares at ``offsets`` from each centre that keeps them on the board."""
    return {
        (_mask([(r + dr, c + dc) for dr, dc in offsets]), _mask([(r, c)]))
        for r in range(1, SIZE - 1)
        for c in range(1, SIZE - 1)
    }


CORNERS = _around([(-1, -1), (-1, 1), (1, -1), (1, 1)])
DIAMOND = _around([(-1, 0), (0, -1), (0, 1), (1, 0)])
EXPECTED = {
    "teeko": _lines() | _boxes(),
    "teeko2": _lines() | CORNERS,
    "teeko2-diamond": _lines() | DIAMOND,
}
NAMES = sorted(EXPECTED)


def test_expected_sets_have_the_sizes_the_spec_gives() -> None:
    """Guards the hand-built sets themselves, so the comparisons below mean something."""
    assert len(_lines()) == 28
    assert len(_boxes()) == 16
    assert len(CORNERS) == len(DIAMOND) == 9


def test_registry_holds_exactly_the_three_variants() -> None:
    assert sorted(VARIANTS) == NAMES
    for name, variant in VARIANTS.items():
        assert variant.name == name


@pytest.mark.parametrize(
    ("name", "lines", "unconditional", "conditional"),
    [
        pytest.param("teeko", 28, 44, 0, id="teeko-28-lines-16-boxes"),
        pytest.param("teeko2", 28, 28, 9, id="teeko2-28-lines-9-corners"),
        pytest.param("teeko2-diamond", 28, 28, 9, id="diamond-28-lines-9-diamonds"),
    ],
)
def test_goal_counts(name: str, lines: int, unconditional: int, conditional: int) -> None:
    goals = find_variant(name).goals
    assert len(goals) == unconditional + conditional
    assert sum(1 for g in goals if g.empty == 0) == unconditional
    assert sum(1 for g in goals if g.empty != 0) == conditional
    assert len({(g.squares, g.empty) for g in goals} & _lines()) == lines


@pytest.mark.parametrize("name", NAMES)
def test_goal_sets_are_exactly_the_rules(name: str) -> None:
    got = {(g.squares, g.empty) for g in find_variant(name).goals}
    missing = [_cells(s) for s, _ in EXPECTED[name] - got]
    extra = [_cells(s) for s, _ in got - EXPECTED[name]]
    assert not missing and not extra, f"missing {missing}, unexpected {extra}"


@pytest.mark.parametrize("name", NAMES)
def test_goals_are_four_distinct_squares(name: str) -> None:
    goals = find_variant(name).goals
    for goal in goals:
        assert goal.squares.bit_count() == 4, _cells(goal.squares)
        assert 0 < goal.squares < 1 << 25
    assert len({g.squares for g in goals}) == len(goals), "two goals share the same squares"


@pytest.mark.parametrize("name", ["teeko2", "teeko2-diamond"])
def test_conditional_goal_empty_square_is_the_centre(name: str) -> None:
    for goal in find_variant(name).goals:
        if not goal.empty:
            continue
        assert goal.empty.bit_count() == 1
        assert not goal.empty & goal.squares
        cells = _cells(goal.squares)
        centre = (sum(r for r, _ in cells) / 4, sum(c for _, c in cells) / 4)
        assert _cells(goal.empty) == [centre]
        assert all(max(abs(r - centre[0]), abs(c - centre[1])) == 1 for r, c in cells)


@pytest.mark.parametrize(
    ("own", "occupied", "held"),
    [
        pytest.param(0b1111, 0b1111, True, id="exact"),
        pytest.param(0b11111, 0b11111, True, id="superset"),
        pytest.param(0b0111, 0b0111, False, id="three-of-four"),
        pytest.param(0b1111, 0b1111 | 1 << 12, False, id="centre-occupied"),
        pytest.param(0b1111 | 1 << 12, 0b1111 | 1 << 12, False, id="centre-own-marker"),
    ],
)
def test_goal_holds(own: int, occupied: int, held: bool) -> None:
    goal = Goal(0b1111, empty=1 << 12)
    plain = Goal(0b1111)
    assert goal.holds(own, occupied) is held
    assert plain.holds(own, occupied) is (own & 0b1111 == 0b1111)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        pytest.param("teeko", "teeko", id="teeko"),
        pytest.param("TEEKO", "teeko", id="upper-case"),
        pytest.param(" Teeko ", "teeko", id="padded"),
        pytest.param("Teeko1", "teeko", id="alias-teeko1"),
        pytest.param("teeko2", "teeko2", id="teeko2"),
        pytest.param("Teeko-2", "teeko2", id="alias-teeko-2"),
        pytest.param("teeko2-diamond", "teeko2-diamond", id="teeko2-diamond"),
        pytest.param("TEEKO2-DIAMOND", "teeko2-diamond", id="diamond-upper-case"),
        pytest.param("Diamond", "teeko2-diamond", id="alias-diamond"),
        pytest.param("teeko2_diamond", "teeko2-diamond", id="alias-underscore"),
    ],
)
def test_find_variant(text: str, name: str) -> None:
    assert find_variant(text) is VARIANTS[name]


@pytest.mark.parametrize("text", ["teeko3", "", "chess", "teeko 2", "box"])
def test_unknown_variant_names_the_known_ones(text: str) -> None:
    with pytest.raises(UnknownVariantError, match="teeko, teeko2, teeko2-diamond") as info:
        find_variant(text)
    assert repr(text) in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("name", "player_class"),
    [("teeko", "TeekoPlayer"), ("teeko2", "Teeko2Player"), ("teeko2-diamond", "Teeko2Player")],
)
def test_player_class_names(name: str, player_class: str) -> None:
    assert find_variant(name).player_class == player_class


@pytest.mark.parametrize("name", NAMES)
def test_repr_can_be_pasted(name: str) -> None:
    variant = find_variant(name)
    assert eval(repr(variant)) is variant  # repr promises text you can paste


@pytest.mark.parametrize("name", NAMES)
def test_masks_mirror_goals(name: str) -> None:
    """``masks`` is the hot-loop copy of ``goals``; a stale copy would change who wins."""
    variant = find_variant(name)
    assert variant.masks == tuple((g.squares, g.empty) for g in variant.goals)


def test_a_new_variant_is_data_only() -> None:
    """A course can add a variant without touching the engine: here one goal, the four corners."""
    from autograder.games.teeko import rules

    corner = Goal(_mask([(0, 0), (0, 4), (4, 0), (4, 4)]))
    variant = Variant("corners", "CornerPlayer", (corner,))
    assert variant.masks == ((corner.squares, 0),)
    pos = rules.Position(corner.squares, _mask([(2, 0), (2, 1), (2, 2), (2, 3)]), "r", variant)
    assert rules.winner(pos) == "b"  # red's row is no goal in this variant
