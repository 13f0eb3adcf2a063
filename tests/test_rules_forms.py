"""The rules engine's boards and text forms, and properties over random games; positions are
drawn as in ``tests/teeko_pictures.py``.
"""

from __future__ import annotations

import doctest
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from autograder.games.pack import MoveError
from autograder.games.teeko import rules
from autograder.games.teeko.rules import (
    BLACK,
    RED,
    BoardError,
    Move,
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
    parse_position,
    parse_square,
    play,
    position_text,
    read_student_move,
    render,
    square,
    square_col,
    square_name,
    square_row,
    start,
    to_board,
    winner,
)
from autograder.games.teeko.variants import Variant, find_variant
from tests.teeko_pictures import (
    DROP,
    MOVE,
    NAMES,
    PLY_CAP,
    POSITIONS,
    adjacent,
    pic,
)

# ---- board conversion and text forms -----------------------------------------------------------


def test_board_round_trip() -> None:
    pos = pic(MOVE, RED)
    board = to_board(pos)
    assert board[0] == ["b", " ", " ", " ", "b"] and board[1][2] == "r"
    assert from_board(board, pos.variant, RED) == pos
    board[0][0] = "x"  # a fresh board each time: changing it changes nothing else
    assert to_board(pos)[0][0] == "b"
    assert from_board(tuple(tuple(row) for row in to_board(pos)), pos.variant, RED) == pos


def test_from_board_infers_the_turn_in_the_drop_phase() -> None:
    assert pic(DROP).turn == RED
    assert pic("..... ..... ..... ..... .....").turn == BLACK


@pytest.mark.parametrize(
    ("board", "turn", "match"),
    [
        pytest.param([[" "] * 5] * 4, None, "a board is 5 rows of 5 cells", id="four-rows"),
        pytest.param("b" * 25, None, "a board is 5 rows", id="string"),
        pytest.param(
            [[" "] * 5, [" "] * 5, [" "] * 4, [" "] * 5, [" "] * 5],
            None,
            "row 2 should hold 5 cells",
            id="short-row",
        ),
        pytest.param([[" "] * 5] * 3 + ["     "] * 2, None, "row 3 should hold", id="row-string"),
        pytest.param(
            [[" "] * 5, [" ", " ", " ", "x", " "]] + [[" "] * 5] * 3,
            None,
            r"cell \(1, 3\) holds 'x'",
            id="bad-cell",
        ),
        pytest.param([["B"] + [" "] * 4] + [[" "] * 5] * 4, None, "'B'", id="upper-case"),
        pytest.param([[None] * 5] * 5, None, r"cell \(0, 0\) holds None", id="none-cell"),
        pytest.param(
            [["b"] * 5] + [["r"] * 4 + [" "]] + [[" "] * 5] * 3,
            None,
            "each side has 4 markers",
            id="five-black",
        ),
        pytest.param(
            [["b", "b", " ", " ", " "]] + [[" "] * 5] * 4,
            None,
            "2 black and 0 red markers cannot occur",
            id="black-two-ahead",
        ),
        pytest.param(
            [["r", " ", " ", " ", " "]] + [[" "] * 5] * 4,
            None,
            "0 black and 1 red",
            id="red-first",
        ),
        pytest.param(
            [["b"] * 4 + [" "], ["r"] * 4 + [" "]] + [[" "] * 5] * 3,
            None,
            "in the move phase the side to move must be given",
            id="move-phase-no-turn",
        ),
        pytest.param(
            [["b"] + [" "] * 4] + [[" "] * 5] * 4, BLACK, "it is 'r' to move", id="wrong-turn"
        ),
        pytest.param([[" "] * 5] * 5, "x", "'b' or 'r', got 'x'", id="bad-turn"),
    ],
)
def test_from_board_errors(board: Any, turn: str | None, match: str) -> None:
    with pytest.raises(BoardError, match=match):
        from_board(board, find_variant("teeko"), turn)


def course_print_board(board: list[list[str]]) -> str:
    """The course starter's ``print_board``, collecting lines instead of printing them."""
    lines = []
    for row in range(len(board)):
        line = str(row) + ": "
        for cell in board[row]:
            line += cell + " "
        lines.append(line)
    lines.append("   A B C D E")
    return "\n".join(lines)


def test_render() -> None:
    pos = pic("b...r ..... ..b.. ..... r....")
    assert render(pos).split("\n") == [
        "0: b       r ",
        "1:           ",
        "2:     b     ",
        "3:           ",
        "4: r         ",
        "   A B C D E",
    ]
    assert render(pos) == course_print_board(to_board(pos))


def test_position_text_round_trip() -> None:
    pos = pic(MOVE, RED, "teeko2")
    assert position_text(pos) == "b...b..r...r.r...r..b...b r"
    assert parse_position(position_text(pos), "teeko2") == pos
    assert parse_position(position_text(pos), find_variant("teeko2")) == pos
    assert eval(repr(pos)) == pos  # repr promises text you can paste


@pytest.mark.parametrize(
    ("text", "match"),
    [
        pytest.param("b...b", "is not a position", id="short"),
        pytest.param("." * 25, "is not a position", id="no-turn"),
        pytest.param("." * 25 + " b extra", "is not a position", id="extra"),
        pytest.param("x" + "." * 24 + " b", "character 1 of the position is 'x'", id="bad-char"),
        pytest.param("." * 25 + " r", "it is 'b' to move", id="wrong-turn"),
        pytest.param("bbbb." + "rrrr." + "." * 15 + " x", "'b' or 'r'", id="bad-turn"),
    ],
)
def test_parse_position_errors(text: str, match: str) -> None:
    with pytest.raises(BoardError, match=match):
        parse_position(text, "teeko")


def test_square_names() -> None:
    names = [square_name(s) for s in range(25)]
    assert names[:6] == ["A0", "B0", "C0", "D0", "E0", "A1"]
    assert square_name(square(3, 1)) == "B3"  # KIT_SPEC §2: B3 is row 3, column 1
    assert len(set(names)) == 25
    for s, name in enumerate(names):
        assert parse_square(name) == s
        assert parse_square(name.lower()) == s
        assert square(square_row(s), square_col(s)) == s
        assert (square_row(s), square_col(s)) == divmod(s, 5)


@pytest.mark.parametrize("text", ["", "B", "B33", "3B", "F0", "A5", "AA", "00", "B-1", "B 3"])
def test_parse_square_rejects(text: str) -> None:
    with pytest.raises(ValueError, match="is not a square"):
        parse_square(text)


@pytest.mark.slow
@given(st.text(max_size=4))
def test_parse_square_raises_only_value_error(text: str) -> None:
    try:
        s = parse_square(text)
    except ValueError as error:
        assert str(error)
    else:
        assert square_name(s) == text.strip().upper()


# ---- properties over random games ---------------------------------------------------------------


# A whole random game hangs on one seed: drawing each move from Hypothesis would make an input
# of hundreds of choices, too large for it to shrink usefully.
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def _random_positions(variant: Variant, rng: random.Random) -> Iterator[tuple[int, Position]]:
    """Each position of a random game up to its end, with the number of plies played."""
    pos = start(variant)
    plies = 0
    while True:
        yield plies, pos
        if outcome(pos, plies, PLY_CAP) is not None:
            return
        moves = list(legal_moves(pos))
        assert moves  # four markers always have a free neighbour: no side is ever stuck
        pos = play(pos, rng.choice(moves))
        plies += 1


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(name=st.sampled_from(NAMES), seed=SEEDS)
def test_random_games_follow_the_rules(name: str, seed: int) -> None:
    variant = find_variant(name)
    for plies, pos in _random_positions(variant, random.Random(seed)):
        assert pos.black.bit_count() == min(4, (plies + 1) // 2)
        assert pos.red.bit_count() == min(4, plies // 2)
        assert not pos.black & pos.red
        assert pos.turn == (BLACK if plies % 2 == 0 else RED)
        assert is_drop_phase(pos) is (plies < 8)
        assert from_board(to_board(pos), variant, pos.turn) == pos
        assert parse_position(position_text(pos), variant) == pos
        assert render(pos) == course_print_board(to_board(pos))
        ended = outcome(pos, plies, PLY_CAP)
        if ended is not None:
            if ended.termination is Termination.GOAL:
                assert ended.winner is not None and has_goal(pos, ended.winner)
            else:
                assert plies == PLY_CAP and winner(pos) is None
            break
        saved, board = Position(*pos), to_board(pos)
        for move in legal_moves(pos):
            check_move(pos, move)
            assert is_legal(pos, move)
            assert read_student_move(move.student(), pos) == move
            assert format_problem(move.student(), pos) is None
            assert (move.source is None) is is_drop_phase(pos)
            assert move.source is None or adjacent(move.source, move.to)
            play(pos, move)
        assert pos == saved and to_board(pos) == board
        with pytest.raises(AttributeError):
            pos.black = 0  # type: ignore[misc]


def _garbage(rng: random.Random) -> list[tuple[int, int]]:
    def cell() -> tuple[int, int]:
        return (rng.randint(-1, 5), rng.randint(-1, 5))

    return [cell() for _ in range(rng.choice((1, 1, 2, 2, 2, 3)))]


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(name=st.sampled_from(NAMES), seed=SEEDS)
def test_garbage_moves_are_legal_or_explained(name: str, seed: int) -> None:
    rng = random.Random(seed)
    for _, pos in _random_positions(find_variant(name), rng):
        legal = set(legal_moves(pos))
        for _ in range(20):
            raw = _garbage(rng)
            try:
                move = read_student_move(raw, pos)
            except MoveError as error:
                assert str(error).strip()
                if len(raw) <= 2 and all(0 <= v < 5 for cell in raw for v in cell):
                    squares = [square(*cell) for cell in raw]
                    assert Move(*squares) not in legal
            else:
                assert move in legal
                assert move.student() == raw
            to = rng.randint(-1, 25)
            source = rng.choice((None, rng.randint(-1, 25)))
            candidate = Move(to, source)
            assert is_legal(pos, candidate) is (candidate in legal)


def test_is_legal_agrees_with_generation_everywhere() -> None:
    """Every drop and every (source, target) pair in a few positions of each phase."""
    for picture, turn in (POSITIONS["drop"], POSITIONS["move"], (MOVE, RED)):
        pos = pic(picture, turn)
        legal = set(legal_moves(pos))
        candidates = [Move(t) for t in range(25)]
        candidates += [Move(t, s) for t in range(25) for s in range(25)]
        assert {m for m in candidates if is_legal(pos, m)} == legal


def test_module_doctests() -> None:
    result = doctest.testmod(rules)
    assert result.attempted > 0 and result.failed == 0
