"""The folded table: board symmetries, canonical placements and lookups through them.

The premise (a symmetry that keeps the goals keeps every value) is checked on solved small
games position by position; the folding's indexing on the real 5x5 layout with property tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.games.teeko.solved import Oracle, build, load
from autograder.games.teeko.solved.game import Game, game_for, slide_goals
from autograder.games.teeko.solved.layout import Layout
from autograder.games.teeko.solved.symmetry import Folding, symmetries, transform
from autograder.games.teeko.variants import VARIANTS, find_variant

np = pytest.importorskip("numpy")
from autograder.games.teeko.solved.solver import Solver  # noqa: E402

ROW = (((0, 0), (0, 1), (0, 2)), None)
COLUMN = (((0, 0), (1, 0), (2, 0)), None)
DIAGONAL = (((0, 0), (1, 1), (2, 2)), None)
ANTI = (((0, 2), (1, 1), (2, 0)), None)
TEE = (((0, 1), (1, 0), (1, 2)), (1, 1))  # one orientation only: mirrored left-right, itself
CORNERS = (((0, 0), (0, 2), (2, 0)), (1, 1))  # an L of corners around an empty centre
ROWS = Game("rows", 3, 3, slide_goals(3, [ROW]))
LINES = Game("lines", 3, 3, slide_goals(3, [ROW, COLUMN, DIAGONAL, ANTI]))
TEES = Game("tees", 3, 3, slide_goals(3, [ROW, COLUMN, DIAGONAL, ANTI, TEE]))
SMALL = [ROWS, LINES, TEES]

TEEKO = game_for(find_variant("teeko"))
FOLDING = Folding(Layout(TEEKO))


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_variant_keeps_its_goals_under_all_eight_symmetries(name: str) -> None:
    game = game_for(find_variant(name))
    assert len(symmetries(game)) == 8
    folding = Folding(Layout(game))
    assert [len(c) for c in folding.canonical] == [1, 6, 49, 319, 1666]
    assert folding.total == 12_765_414


def test_a_game_folds_by_the_symmetries_it_has() -> None:
    # Rows only: turns by 90 degrees and the diagonal mirrors make them columns.
    assert len(symmetries(ROWS)) == 4
    assert len(symmetries(LINES)) == 8
    assert len(symmetries(TEES)) == 2  # the identity and the left-right mirror
    assert symmetries(TEES)[0] == tuple(range(9))


def test_orbits_cover_every_placement_once() -> None:
    layout = FOLDING.layout
    for k, (_, b) in enumerate(layout.sides):
        assert sum(FOLDING.orbit[b]) * layout.stride[k] == layout.sizes[k]
    assert sum(FOLDING.weight(FOLDING.offsets[k]) for k in range(layout.levels)) == sum(
        FOLDING.orbit[b][0] for _, b in layout.sides
    )


def _solved(game: Game) -> tuple[Layout, np.ndarray]:  # type: ignore[name-defined]
    solver = Solver(game, symmetric=False)  # the full table, in Layout order
    for _ in solver.run():
        pass
    return solver.layout, solver.table


@pytest.mark.parametrize("game", SMALL, ids=lambda g: g.name)
def test_a_symmetry_keeps_every_value(game: Game) -> None:
    """The premise of folding, on the full table of a solved game."""
    layout, table = _solved(game)
    for index in range(layout.total):
        mover, other = layout.position(index)
        for perm in symmetries(game):
            turned = layout.index(transform(mover, perm), transform(other, perm))
            assert table[turned] == table[index], (game.name, mover, other, perm)


@pytest.mark.parametrize("game", SMALL, ids=lambda g: g.name)
def test_the_folded_table_answers_every_position_as_the_full_one(
    game: Game, tmp_path: Path
) -> None:
    layout, table = _solved(game)
    path = tmp_path / f"{game.name}.oracle"
    for _ in build(game, path):
        pass
    oracle = load(game, path)
    for index in range(layout.total):
        mover, other = layout.position(index)
        turn = "b" if mover.bit_count() == other.bit_count() else "r"
        black, red = (mover, other) if turn == "b" else (other, mover)
        assert oracle.code(black, red, turn) == table[index], (game.name, mover, other)


positions_5x5 = st.lists(st.integers(0, 24), min_size=0, max_size=8, unique=True).map(
    lambda squares: (sum(1 << s for s in squares[1::2]), sum(1 << s for s in squares[::2]))
)


def _images(mover: int, other: int) -> set[tuple[int, int]]:
    return {(transform(mover, p), transform(other, p)) for p in FOLDING.perms}


@settings(max_examples=300, deadline=None)
@given(positions_5x5, st.integers(0, 7))
def test_a_position_is_read_from_a_turned_copy_of_itself(position: tuple[int, int], g: int) -> None:
    """Its entry stores an image of it whose other side is canonical; so does its turned
    copy's (the same entry unless the canonical placement is itself symmetric, such as one
    marker in a corner: then the copies that turn into each other by that symmetry are
    stored apart, and the build gave them equal values)."""
    mover, other = position
    perm = FOLDING.perms[g]
    index = FOLDING.index(mover, other)
    stored = FOLDING.position(index)
    assert FOLDING.index(*stored) == index
    assert stored[1] == FOLDING.canonical[other.bit_count()][FOLDING.frame[other][0]]
    assert stored in _images(mover, other)
    turned = FOLDING.position(FOLDING.index(transform(mover, perm), transform(other, perm)))
    assert turned in _images(mover, other)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, FOLDING.total - 1))
def test_stored_positions_round_trip(index: int) -> None:
    mover, other = FOLDING.position(index)
    assert FOLDING.index(mover, other) == index
    assert FOLDING.weight(index) == FOLDING.orbit[other.bit_count()][FOLDING.frame[other][0]]


# A 5x5 oracle whose code at folded index i is i % 128: checks the index its lookup reads.
NUMBERED = Oracle(FOLDING, (bytes(range(128)) * (FOLDING.total // 128 + 1))[: FOLDING.total])


@settings(max_examples=300, deadline=None)
@given(positions_5x5)
def test_the_fast_lookup_reads_the_folded_index(position: tuple[int, int]) -> None:
    mover, other = position
    assert NUMBERED.code(other, mover, "r") == FOLDING.index(mover, other) % 128
