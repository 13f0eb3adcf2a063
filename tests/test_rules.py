"""The rules engine: counts from KIT_SPEC §2, hand-drawn positions (``tests/teeko_pictures.py``)
and the student format.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Any

import pytest

from autograder.games.pack import IllegalMoveError, MalformedMoveError, MoveError
from autograder.games.teeko import rules
from autograder.games.teeko.rules import (
    BB_NEIGHBOURS,
    BLACK,
    RED,
    Move,
    Outcome,
    Position,
    Termination,
    check_move,
    format_problem,
    from_board,
    has_goal,
    is_drop_phase,
    is_legal,
    legal_moves,
    outcome,
    play,
    read_student_move,
    square_name,
    start,
    winner,
)
from autograder.games.teeko.variants import VARIANTS, Goal, Variant, find_variant
from tests.teeko_pictures import (
    NAMES,
    PLY_CAP,
    POSITIONS,
    adjacent,
    mask,
    pic,
    sq,
    swap,
)

# ---- counts from KIT_SPEC §2 -----------------------------------------------------------------

DROP_PHASE_COUNTS = [1, 25, 600, 6_900, 75_900, 531_300, 3_542_000, 16_824_500]


def test_move_phase_placements() -> None:
    blacks = list(combinations(range(25), 4))
    reds = list(combinations([s for s in range(25) if s not in blacks[0]], 4))
    assert (len(blacks), len(reds)) == (12_650, 5_985)
    assert len(blacks) * len(reds) == comb(25, 4) * comb(21, 4) == 75_710_250


@pytest.mark.parametrize(
    ("name", "goal_sets", "expected"),
    [
        pytest.param("teeko", 44, 263_340, id="teeko-263340"),
        pytest.param("teeko2", 37, 211_185, id="teeko2-211185"),
        pytest.param("teeko2-diamond", 37, 211_185, id="diamond-211185"),
    ],
)
def test_move_phase_placements_where_black_has_a_goal(
    name: str, goal_sets: int, expected: int
) -> None:
    """Counted exactly with ``has_goal``, enumerating only the black placements that can win.

    Black has exactly four markers, so black holds a goal only when its placement is a goal set;
    red markers can take a goal away (by filling a centre) but never give one, so a placement
    without a goal on an otherwise empty board has none against any red placement.
    """
    variant = find_variant(name)
    total = candidates = 0
    for blacks in combinations(range(25), 4):
        black = sum(1 << s for s in blacks)
        if not has_goal(Position(black, 0, RED, variant), BLACK):
            continue
        candidates += 1
        free = [s for s in range(25) if not black >> s & 1]
        for reds in combinations(free, 4):
            red = sum(1 << s for s in reds)
            total += has_goal(Position(black, red, RED, variant), BLACK)
    assert candidates == goal_sets
    assert total == expected


def test_drop_phase_counts_by_formula() -> None:
    # k markers: black has placed ceil(k/2), red floor(k/2).
    counts = [comb(25, (k + 1) // 2) * comb(25 - (k + 1) // 2, k // 2) for k in range(8)]
    assert counts == DROP_PHASE_COUNTS
    assert sum(counts) == 20_981_226


@pytest.mark.parametrize("name", NAMES)
def test_drop_phase_counts_by_expansion(name: str) -> None:
    """Breadth-first from the start with ``legal_moves``/``play``: distinct positions per ply."""
    level = {(0, 0, BLACK): start(find_variant(name))}
    for k in range(1, 5):
        following: dict[tuple[int, int, str], Position] = {}
        for pos in level.values():
            assert outcome(pos) is None
            for move in legal_moves(pos):
                new = play(pos, move)
                following[(new.black, new.red, new.turn)] = new
        level = following
        assert len(level) == DROP_PHASE_COUNTS[k], f"after {k} plies"
        assert {(p.black.bit_count(), p.red.bit_count()) for p in level.values()} == {
            ((k + 1) // 2, k // 2)
        }


# ---- goals -----------------------------------------------------------------------------------

# (picture with black holding the shape, winner under teeko, teeko2, teeko2-diamond)
GOAL_PICTURES = [
    pytest.param("bbbb. r.r.r ..... ..... r....", "bbb", id="row-top-left"),
    pytest.param(".bbbb r.r.r ..... ..... r....", "bbb", id="row-top-right"),
    pytest.param("r.r.r ..... bbbb. ..... ....r", "bbb", id="row-middle"),
    pytest.param("r.r.r ..... ..... ....r bbbb.", "bbb", id="row-bottom-left"),
    pytest.param("r.r.r ..... ..... r.... .bbbb", "bbb", id="row-bottom-right"),
    pytest.param("b.r.. b.... b...r b.... ..r.r", "bbb", id="column-left-top"),
    pytest.param("..r.r b.... b...r b.... b.r..", "bbb", id="column-left-bottom"),
    pytest.param("r.r.b ....b r...b ....b r....", "bbb", id="column-right-top"),
    pytest.param("r.r.. ....b r...b ....b r...b", "bbb", id="column-right-bottom"),
    pytest.param("b...r .b... ..b.r r..b. ....r", "bbb", id="diagonal-A0-D3"),
    pytest.param(".b..r ..b.. r..b. ....b r...r", "bbb", id="diagonal-B0-E3"),
    pytest.param("r...r b.... .b..r ..b.. r..b.", "bbb", id="diagonal-A1-D4"),
    pytest.param("r...r .b... r.b.. ...b. r...b", "bbb", id="diagonal-B1-E4"),
    pytest.param("r..b. ..b.. .b... b...r r...r", "bbb", id="antidiagonal-D0-A3"),
    pytest.param("r...b ...b. ..b.. .b... r.r.r", "bbb", id="antidiagonal-E0-B3"),
    pytest.param("r.r.r ...b. ..b.. .b... b...r", "bbb", id="antidiagonal-D1-A4"),
    pytest.param("r.r.r ....b ...b. ..b.. .b..r", "bbb", id="antidiagonal-E1-B4"),
    pytest.param("bb..r bb..r ..... ..... r...r", "b..", id="box-top-left"),
    pytest.param("r..bb r..bb ..... ..... r...r", "b..", id="box-top-right"),
    pytest.param("r...r ..... ..... bb... bb.rr", "b..", id="box-bottom-left"),
    pytest.param("r...r ..... ..... ...bb rr.bb", "b..", id="box-bottom-right"),
    pytest.param("r...r .bb.. .bb.. ..... r...r", "b..", id="box-centre"),
    pytest.param("b.b.. ..... b.b.. ....r r.r.r", ".b.", id="corners-around-B1"),
    pytest.param(".b.b. ..... .b.b. ....r r.r.r", ".b.", id="corners-around-C1"),
    pytest.param("..b.b ..... ..b.b r.... r.r.r", ".b.", id="corners-around-D1"),
    pytest.param("r...r b.b.. ..... b.b.. r...r", ".b.", id="corners-around-B2"),
    pytest.param("r...r .b.b. ..... .b.b. r...r", ".b.", id="corners-around-C2"),
    pytest.param("r...r ..b.b ..... ..b.b r...r", ".b.", id="corners-around-D2"),
    pytest.param("r.r.r ....r b.b.. ..... b.b..", ".b.", id="corners-around-B3"),
    pytest.param("r.r.r r.... .b.b. ..... .b.b.", ".b.", id="corners-around-C3"),
    pytest.param("r.r.r r.... ..b.b ..... ..b.b", ".b.", id="corners-around-D3"),
    pytest.param(".b... b.b.. .b... ....r r.r.r", "..b", id="diamond-around-B1"),
    pytest.param("..b.. .b.b. ..b.. ....r r.r.r", "..b", id="diamond-around-C1"),
    pytest.param("...b. ..b.b ...b. r.... r.r.r", "..b", id="diamond-around-D1"),
    pytest.param("r...r .b... b.b.. .b... r...r", "..b", id="diamond-around-B2"),
    pytest.param("r...r ..b.. .b.b. ..b.. r...r", "..b", id="diamond-around-C2"),
    pytest.param("r...r ...b. ..b.b ...b. r...r", "..b", id="diamond-around-D2"),
    pytest.param("r.r.r ....r .b... b.b.. .b...", "..b", id="diamond-around-B3"),
    pytest.param("r.r.r r.... ..b.. .b.b. ..b..", "..b", id="diamond-around-C3"),
    pytest.param("r.r.r r.... ...b. ..b.b ...b.", "..b", id="diamond-around-D3"),
    # near misses: shapes that wrap round an edge, or almost make a goal
    pytest.param("...bb bb... ..... r.r.r ....r", "...", id="row-wrapping-D0-B1"),
    pytest.param("r..b. ....b r.r.r b.... .b...", "...", id="diagonal-wrapping-D0-B4"),
    pytest.param("b...b ...b. ..b.. ....r r.r.r", "...", id="antidiagonal-wrapping-A0-C2"),
    pytest.param("r...b b...b b.... ..... r.r.r", "...", id="box-wrapping-E0-A2"),
    pytest.param("bbb.b r.r.r ..... ..... r....", "...", id="three-and-a-gap"),
    pytest.param("b..b. ..... ..r.. b..b. r.r.r", "...", id="corners-of-4x4"),
    pytest.param("b...b ..... .rrr. ..r.. b...b", "...", id="corners-of-5x5"),
]
COLOURS = [pytest.param(False, id="black-holds"), pytest.param(True, id="red-holds")]


@pytest.mark.parametrize("swapped", COLOURS)
@pytest.mark.parametrize(("picture", "winners"), GOAL_PICTURES)
def test_goal_pictures(picture: str, winners: str, swapped: bool) -> None:
    for name, expected in zip(NAMES, winners, strict=True):
        pos = pic(picture, RED, name)
        assert (pos.black.bit_count(), pos.red.bit_count()) == (4, 4)
        if swapped:
            pos = swap(pos)
        holder = RED if swapped else BLACK
        side = holder if expected == "b" else None
        assert has_goal(pos, holder) is (side is not None), name
        assert not has_goal(pos, rules.opponent(holder)), name
        assert winner(pos) == side, name
        assert outcome(pos) == (None if side is None else Outcome(Termination.GOAL, side)), name


def _goal_id(name: str, goal: Goal) -> str:
    squares = "-".join(square_name(s) for s in range(25) if goal.squares >> s & 1)
    around = f"-empty-{square_name(goal.empty.bit_length() - 1)}" if goal.empty else ""
    return f"{name}-{squares}{around}"


EVERY_GOAL = [
    pytest.param(VARIANTS[name], goal, id=_goal_id(name, goal))
    for name in NAMES
    for goal in VARIANTS[name].goals
]
CONDITIONAL_GOALS = [param for param in EVERY_GOAL if param.values[1].empty]


def _filler(
    variant: Variant, avoid: int, include: int = 0, away_from: int | None = None
) -> Iterator[int]:
    """Four-marker placements holding ``include``, missing ``avoid``, that are no goal set.

    With ``away_from``, squares not adjacent to that square are tried first.
    """
    goal_sets = {g.squares for g in variant.goals}
    free = [s for s in range(25) if not (avoid | include) >> s & 1]
    if away_from is not None:
        free.sort(key=lambda s: adjacent(s, away_from))
    for extra in combinations(free, 4 - include.bit_count()):
        placement = include | sum(1 << s for s in extra)
        if placement not in goal_sets:
            yield placement


@pytest.mark.parametrize("swapped", COLOURS)
@pytest.mark.parametrize(("variant", "goal"), EVERY_GOAL)
def test_every_goal_wins(variant: Variant, goal: Goal, swapped: bool) -> None:
    other = next(_filler(variant, avoid=goal.squares | goal.empty))
    for turn in (BLACK, RED):
        pos = Position(goal.squares, other, turn, variant)
        pos = swap(pos) if swapped else pos
        holder = RED if swapped else BLACK
        assert has_goal(pos, holder)
        assert not has_goal(pos, rules.opponent(holder))
        assert winner(pos) == holder


@pytest.mark.parametrize("swapped", COLOURS)
@pytest.mark.parametrize(("variant", "goal"), CONDITIONAL_GOALS)
def test_occupied_centre_is_no_goal(variant: Variant, goal: Goal, swapped: bool) -> None:
    other = next(_filler(variant, avoid=goal.squares, include=goal.empty))
    pos = Position(goal.squares, other, RED, variant)
    pos = swap(pos) if swapped else pos
    assert not has_goal(pos, BLACK) and not has_goal(pos, RED)
    assert winner(pos) is None and outcome(pos) is None


@pytest.mark.parametrize("swapped", COLOURS)
@pytest.mark.parametrize(("variant", "goal"), CONDITIONAL_GOALS)
def test_vacating_a_centre_completes_the_opponents_goal(
    variant: Variant, goal: Goal, swapped: bool
) -> None:
    """The mover slides off the centre of the opponent's shape without winning: it loses."""
    centre = goal.empty.bit_length() - 1
    goal_sets = {g.squares for g in variant.goals}
    for mover in _filler(variant, avoid=goal.squares, include=goal.empty, away_from=centre):
        targets = [
            t
            for t in range(25)
            if adjacent(t, centre)
            and not (goal.squares | mover) >> t & 1
            and (mover & ~goal.empty | 1 << t) not in goal_sets
        ]
        if targets:
            break
    pos = Position(mover, goal.squares, BLACK, variant)
    pos = swap(pos) if swapped else pos
    move = Move(targets[0], centre)
    assert winner(pos) is None
    assert is_legal(pos, move)
    after = play(pos, move)
    holder = BLACK if swapped else RED
    assert after.turn == holder  # the holder did not move, yet wins
    assert winner(after) == holder
    assert outcome(after, plies=50, ply_cap=PLY_CAP) == Outcome(Termination.GOAL, holder)


# (variant, picture before the move with black to move, source, target, sides with a goal
# after the move, winner)
CENTRE_MOVES = [
    pytest.param(
        "teeko2", "b...b .r.r. ..b.. .r.r. ..b..", "C2", "B2", "r", "r", id="teeko2-vacate-C2"
    ),
    pytest.param(
        "teeko2-diamond",
        "b...b ..r.. .rbr. ..r.. ....b",
        "C2",
        "B1",
        "r",
        "r",
        id="diamond-vacate-C2",
    ),
    pytest.param(
        "teeko2", ".r.r. .bb.. .r.r. ...b. ....b", "C1", "C2", "br", "b", id="teeko2-both-goals"
    ),
    pytest.param(
        "teeko2-diamond",
        ".r... rbrb. .r... .b... b....",
        "B1",
        "C2",
        "br",
        "b",
        id="diamond-both-goals",
    ),
    pytest.param(
        "teeko2", ".r.r. .bb.. .r.r. ...b. ....b", "C1", "D1", "r", "r", id="teeko2-vacate-C1"
    ),
]


SWAP_COLOURS = str.maketrans("br", "rb")


@pytest.mark.parametrize("swapped", COLOURS)
@pytest.mark.parametrize(("name", "picture", "source", "to", "goals", "side"), CENTRE_MOVES)
def test_centre_moves(
    name: str, picture: str, source: str, to: str, goals: str, side: str, swapped: bool
) -> None:
    pos = pic(picture, BLACK, name)
    if swapped:
        pos, goals, side = swap(pos), goals.translate(SWAP_COLOURS), rules.opponent(side)
    assert winner(pos) is None
    move = Move(sq(to), sq(source))
    check_move(pos, move)
    after = play(pos, move)
    assert {p for p in (BLACK, RED) if has_goal(after, p)} == set(goals)
    assert winner(after) == side
    assert outcome(after) == Outcome(Termination.GOAL, side)


@pytest.mark.parametrize(
    ("plies", "cap", "expected"),
    [
        pytest.param(0, None, None, id="no-cap"),
        pytest.param(10**6, None, None, id="no-cap-long-game"),
        pytest.param(199, 200, None, id="one-below-cap"),
        pytest.param(200, 200, Outcome(Termination.PLY_CAP, None), id="at-cap"),
        pytest.param(250, 200, Outcome(Termination.PLY_CAP, None), id="past-cap"),
        pytest.param(8, 8, Outcome(Termination.PLY_CAP, None), id="small-cap"),
    ],
)
def test_ply_cap_is_a_draw(plies: int, cap: int | None, expected: Outcome | None) -> None:
    pos = pic("b...b ..r.. .r.r. ..r.. b...b", BLACK)
    assert outcome(pos, plies, cap) == expected


def test_a_goal_on_the_capping_ply_still_wins() -> None:
    pos = pic("bbbb. r.r.r ..... ..... r....", RED)
    assert outcome(pos, 200, 200) == Outcome(Termination.GOAL, BLACK)


def test_termination_values() -> None:
    assert [t.value for t in Termination] == ["goal", "ply cap"]


# ---- legal moves -----------------------------------------------------------------------------


def test_start_drops_everywhere_in_square_order() -> None:
    pos = start(find_variant("teeko"))
    assert pos.turn == BLACK and is_drop_phase(pos)
    assert list(legal_moves(pos)) == [Move(s) for s in range(25)]
    after = play(pos, Move(sq("C2")))
    assert [m for m in legal_moves(after) if m.to == sq("C2")] == []
    assert len(list(legal_moves(after))) == 24


def test_legal_moves_is_a_generator() -> None:
    moves = legal_moves(start(find_variant("teeko")))
    assert iter(moves) is moves


def test_red_still_drops_after_seven_plies() -> None:
    pos = pic("bbb.. rr... .b..r ..... .....")
    assert pos.turn == RED and is_drop_phase(pos)
    moves = list(legal_moves(pos))
    assert len(moves) == 18 and all(m.source is None for m in moves)
    after = play(pos, Move(sq("E4")))
    assert after.turn == BLACK and not is_drop_phase(after)
    assert all(m.source is not None for m in legal_moves(after))


@pytest.mark.parametrize(
    ("picture", "turn", "expected"),
    [
        pytest.param(
            "b...b ..r.. .r.r. ..r.. b...b",
            BLACK,
            {
                "A0": {"B0", "A1", "B1"},
                "E0": {"D0", "D1", "E1"},
                "A4": {"A3", "B3", "B4"},
                "E4": {"D3", "E3", "D4"},
            },
            id="corners-12",
        ),
        pytest.param(
            "b...b ..r.. .r.r. ..r.. b...b",
            RED,
            {
                "C1": {"B0", "C0", "D0", "B1", "D1", "C2"},
                "B2": {"A1", "B1", "A2", "C2", "A3", "B3"},
                "D2": {"D1", "E1", "C2", "E2", "D3", "E3"},
                "C3": {"C2", "B3", "D3", "B4", "C4", "D4"},
            },
            id="diamond-24",
        ),
        pytest.param(
            "br... rr... ..... ...rb ...bb",
            BLACK,
            {"A0": set(), "E3": {"D2", "E2"}, "D4": {"C3", "C4"}, "E4": set()},
            id="hemmed-in-4",
        ),
    ],
)
def test_move_phase_moves(picture: str, turn: str, expected: dict[str, set[str]]) -> None:
    pos = pic(picture, turn)
    got: dict[str, set[str]] = {name: set() for name in expected}
    for move in legal_moves(pos):
        assert move.source is not None
        got[square_name(move.source)].add(square_name(move.to))
    assert got == expected
    assert len(list(legal_moves(pos))) == sum(len(t) for t in expected.values())


def test_neighbour_masks_match_coordinates() -> None:
    for a in range(25):
        assert BB_NEIGHBOURS[a] == sum(1 << b for b in range(25) if adjacent(a, b)), square_name(a)
    degrees = sorted(BB_NEIGHBOURS[a].bit_count() for a in range(25))
    assert degrees == [3] * 4 + [5] * 12 + [8] * 9


# Each pair is one naive index step (+-1, +-4, +-6) that crosses the left or right edge.
WRAPS = [("E0", "A1"), ("A1", "E0"), ("E0", "A2"), ("A2", "E0"), ("A1", "E1"), ("E1", "A1")]
WRAPS += [("E3", "A4"), ("A4", "E3"), ("E2", "A4"), ("A3", "E3")]


@pytest.mark.parametrize(("source", "to"), WRAPS, ids=[f"{s}-{t}" for s, t in WRAPS])
def test_no_wrap_around(source: str, to: str) -> None:
    variant = find_variant("teeko")
    reds = next(_filler(variant, avoid=mask(source, to)))
    blacks = next(_filler(variant, avoid=reds | mask(to), include=mask(source)))
    pos = Position(blacks, reds, BLACK, variant)
    move = Move(sq(to), sq(source))
    assert move not in set(legal_moves(pos))
    assert not is_legal(pos, move)
    wrapped = r"is not adjacent to .*\(a step off one side of the board does not come back"
    with pytest.raises(IllegalMoveError, match=wrapped):
        check_move(pos, move)
    with pytest.raises(IllegalMoveError, match=wrapped):
        read_student_move(move.student(), pos)


def test_a_move_given_marker_first_is_told_the_other_way_round_is_legal() -> None:
    board = [list(row) for row in ("b b r", " r   ", "b    ", "   r ", "r   b")]
    pos = from_board(board, find_variant("teeko"), BLACK)
    with pytest.raises(IllegalMoveError) as caught:
        read_student_move([(0, 0), (1, 0)], pos)
    assert str(caught.value) == (
        "(1, 0) is not one of your markers (it is empty); the other way round, (0, 0) to "
        "(1, 0), is legal: a move names the square to move to first, then the marker's square"
    )


# ---- the student move format ------------------------------------------------------------------


class Index:
    """A numpy-like integer: usable as an index, not an ``int``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


@pytest.mark.parametrize(
    ("raw", "where", "expected"),
    [
        pytest.param([(1, 1)], "drop", Move(6), id="drop"),
        pytest.param([[1, 1]], "drop", Move(6), id="drop-as-list"),
        pytest.param(((1, 1),), "drop", Move(6), id="drop-in-tuple"),
        pytest.param([(Index(1), Index(1))], "drop", Move(6), id="drop-index-ints"),
        pytest.param([(0, 1), (0, 0)], "move", Move(1, 0), id="slide"),
        pytest.param([[4, 3], [4, 4]], "move", Move(23, 24), id="slide-as-lists"),
        pytest.param(((1, 1), (0, 0)), "move", Move(6, 0), id="slide-in-tuple"),
    ],
)
def test_read_student_move_accepts(raw: Any, where: str, expected: Move) -> None:
    pos = pic(*POSITIONS[where])
    assert read_student_move(raw, pos) == expected


@pytest.mark.parametrize(
    ("raw", "where", "error", "match"),
    [
        pytest.param(None, "drop", MalformedMoveError, r"must return a list.*None", id="none"),
        pytest.param("B3", "drop", MalformedMoveError, r"'B3' \(a str\)", id="string"),
        pytest.param(7, "drop", MalformedMoveError, r"got 7 \(a int\)", id="int"),
        pytest.param({(1, 1)}, "drop", MalformedMoveError, "a set", id="set"),
        pytest.param([], "drop", MalformedMoveError, "list of 0 items", id="empty-list"),
        pytest.param(
            [(0, 0), (0, 1), (1, 0)], "move", MalformedMoveError, "list of 3 items", id="three"
        ),
        pytest.param([(1,)], "drop", MalformedMoveError, r"\(row, col\) pair", id="one-number"),
        pytest.param([(1, 1, 1)], "drop", MalformedMoveError, r"\(row, col\) pair", id="triple"),
        pytest.param(
            [(0, 1), None], "move", MalformedMoveError, "the source should be", id="source-none"
        ),
        pytest.param(["B3"], "drop", MalformedMoveError, "pair", id="square-name"),
        pytest.param(
            [(True, 0)], "drop", MalformedMoveError, "booleans are not integers", id="bool-row"
        ),
        pytest.param(
            [(0, False)], "drop", MalformedMoveError, "booleans are not integers", id="bool-col"
        ),
        pytest.param(
            [(1.0, 1)], "drop", MalformedMoveError, r"should be an int, got 1.0", id="float"
        ),
        pytest.param([("1", 1)], "drop", MalformedMoveError, "should be an int", id="str-row"),
        pytest.param([(7, 0)], "drop", IllegalMoveError, "row 7 is off the board", id="row-7"),
        pytest.param([(-1, 0)], "drop", IllegalMoveError, "row -1 is off the board", id="row-neg"),
        pytest.param([(0, 5)], "drop", IllegalMoveError, "column 5 is off the board", id="col-5"),
        pytest.param(
            [(0, 1), (0, 9)], "move", IllegalMoveError, "column 9 is off", id="source-off"
        ),
        pytest.param([(2, 2)], "drop", IllegalMoveError, r"\(2, 2\) is occupied", id="occupied"),
        pytest.param(
            [(0, 0), (0, 4)], "move", IllegalMoveError, r"\(0, 0\) is occupied", id="slide-onto-own"
        ),
        pytest.param(
            [(1, 1), (1, 2)],
            "move",
            IllegalMoveError,
            r"\(1, 2\) is not one of your markers \(it is the opponent's marker\)",
            id="source-opponents",
        ),
        pytest.param(
            [(1, 1), (2, 2)],
            "move",
            IllegalMoveError,
            r"\(2, 2\) is not one of your markers \(it is empty\)",
            id="source-empty",
        ),
        pytest.param(
            [(2, 2), (0, 0)],
            "move",
            IllegalMoveError,
            r"\(2, 2\) is not adjacent to \(0, 0\)",
            id="not-adjacent",
        ),
        pytest.param(
            [(2, 2)], "move", IllegalMoveError, "this is the move phase", id="drop-in-move-phase"
        ),
        pytest.param(
            [(1, 1), (2, 2)],
            "drop",
            IllegalMoveError,
            "the drop phase takes exactly one",
            id="slide-in-drop-phase",
        ),
    ],
)
def test_read_student_move_rejects(
    raw: Any, where: str, error: type[MoveError], match: str
) -> None:
    pos = pic(*POSITIONS[where])
    with pytest.raises(error, match=match) as info:
        read_student_move(raw, pos)
    assert type(info.value) is error
    assert isinstance(info.value, MoveError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("raw", "where", "match"),
    [
        pytest.param([(1, 1)], "drop", None, id="exact-drop"),
        pytest.param([(0, 1), (0, 0)], "move", None, id="exact-slide"),
        pytest.param(((1, 1),), "drop", "should return a list", id="tuple-outside"),
        pytest.param([[1, 1]], "drop", "should be a tuple", id="list-inside"),
        pytest.param([(0, 1), [0, 0]], "move", "should be a tuple", id="source-list"),
        pytest.param([(Index(1), Index(1))], "drop", "tuple of two ints", id="index-ints"),
        pytest.param([(True, 1)], "drop", "tuple of two ints", id="bool"),
        pytest.param(
            [(1, 1), (0, 0)],
            "drop",
            r"drop phase move should be \[\(row, col\)\]",
            id="two-in-drop",
        ),
        pytest.param([(1, 1)], "move", "move phase move should be", id="one-in-move"),
    ],
)
def test_format_problem(raw: Any, where: str, match: str | None) -> None:
    problem = format_problem(raw, pic(*POSITIONS[where]))
    if match is None:
        assert problem is None
    else:
        assert problem is not None and re.search(match, problem), problem
