"""The Connect Four rules engine: perft counts, a naive engine as a second opinion, the
course's board, and every way a returned value can fail to be a move."""

from __future__ import annotations

import random

import pytest

from autograder.games import find_assignment
from autograder.games.connect4.rules import (
    RED,
    YELLOW,
    Position,
    Variant,
    format_problem,
    from_board,
    legal_moves,
    lines,
    parse_position,
    perft,
    play,
    position_text,
    random_position,
    read_student_move,
    render,
    result,
    start,
    to_board,
    winner,
    winning_moves,
)
from autograder.games.connect4.variants import VARIANTS, find_variant, parse_variant
from autograder.games.grid import BoardError
from autograder.games.pack import DRAW, IllegalMoveError, MalformedMoveError, UnknownAssignmentError
from autograder.play.protocol import decode, encode

C4 = find_variant("connect4")


# ---- perft: every move sequence counted ---------------------------------------------------------


@pytest.mark.parametrize(
    ("depth", "count"),
    # No game can end before ply 7, so depth d counts 7^d sequences until a column can overflow:
    # at depth 7 the 7 sequences putting all seven discs in one column are impossible.
    [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649), (7, 823536)],
)
def test_perft_from_the_empty_standard_board(depth, count):
    assert perft(start(C4), depth) == count


def test_perft_counts_games_that_end_on_the_way():
    """Red holds three in the bottom row with both ends open: of red's 7 moves, two win and
    end the game, so only 5 continue to a yellow reply."""
    pos = parse_position("......./......./......./......./......./.rrr.yy", C4)
    pos = play(pos, 6)  # yellow's third disc goes on top of its own in column 6
    assert pos.turn == RED
    assert perft(pos, 1) == 7
    assert perft(pos, 2) == 5 * 7


# ---- a second opinion: a naive engine on lists --------------------------------------------------


def _naive_winner(board: list[list[str]]) -> str | None:
    rows, cols = len(board), len(board[0])
    for r in range(rows):
        for c in range(cols):
            piece = board[r][c]
            if piece == " ":
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + k * dr, c + k * dc) for k in range(4)]
                if all(0 <= y < rows and 0 <= x < cols and board[y][x] == piece for y, x in cells):
                    return piece
    return None


def _naive_play(board: list[list[str]], col: int, piece: str) -> list[list[str]]:
    after = [row[:] for row in board]
    row = max(r for r in range(len(board)) if board[r][col] == " ")
    after[row][col] = piece
    return after


@pytest.mark.parametrize("name", ["connect4", "connect4-8x6", "connect4-5x4", "connect4-4x4"])
def test_the_engine_agrees_with_a_naive_one_over_random_games(name):
    variant = find_variant(name)
    rng = random.Random(name)
    for _ in range(300):
        pos, board = start(variant), to_board(start(variant))
        while True:
            assert to_board(pos) == board
            free = [c for c in range(variant.columns) if board[0][c] == " "]
            assert legal_moves(pos) == free
            assert winner(pos) == _naive_winner(board)
            if winner(pos) is not None:
                assert result(pos) == winner(pos)
                break
            if not free:
                assert result(pos) == DRAW
                break
            assert result(pos) is None
            col = rng.choice(free)
            board = _naive_play(board, col, pos.turn)
            pos = play(pos, col)


def test_lines_in_every_direction_win_and_a_full_board_draws():
    across = parse_position("......./......./......./......./......./rrrryyy", C4)
    up = parse_position("......./......./r....../ry...../ry...../ry.....", C4)
    rising = parse_position("......./......./...r.../..ry.../.rry.../ryyr.y.", C4)
    falling = parse_position("......./......./r....../yr...../yyr..../yrrr.y.", C4)
    for pos in (across, up, rising, falling):
        assert winner(pos) == RED, render(pos)
    full = Variant("4x4", 4, 4)
    drawn = parse_position("rryy/yyrr/rryy/yyrr", full)
    assert winner(drawn) is None and result(drawn) == DRAW and legal_moves(drawn) == []


@pytest.mark.parametrize(
    ("columns", "rows", "connect", "count"),
    [(7, 6, 4, 69), (8, 6, 4, 84), (4, 4, 4, 10), (5, 4, 3, 34)],
)
def test_lines_lists_every_winning_line_once_and_each_wins(columns, rows, connect, count):
    variant = Variant("v", columns, rows, connect)
    found = lines(variant)
    naive = set()  # every run of ``connect`` cells in the four directions, counted by hand
    for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for c in range(columns):
            for r in range(rows):
                cells = [(c + dc * t, r + dr * t) for t in range(connect)]
                if all(0 <= x < columns and 0 <= y < rows for x, y in cells):
                    naive.add(sum(variant.cell(rows - 1 - y, x) for x, y in cells))
    assert len(found) == len(set(found)) == count and set(found) == naive
    for mask in found:  # the line alone wins for whoever holds it; one cell short does not
        assert winner(Position(mask, 0, YELLOW, variant)) == RED
        assert winner(Position(mask & (mask - 1), 0, YELLOW, variant)) is None


def test_another_connect_length_counts_its_own_lines():
    three = Variant("connect3", 5, 4, connect=3)
    pos = parse_position("...../...../...../rr.yy", three)
    assert winner(pos) is None
    assert winning_moves(pos) == [2]  # red's turn: r r _ completes three


def test_winning_moves_finds_each_column_that_completes_a_line():
    pos = parse_position("......./......./......./......./......./.rrr.yy", C4)
    assert pos.turn == YELLOW  # 3 red discs and 2 yellow
    pos = play(pos, 6)
    assert winning_moves(pos) == [0, 4]


# ---- the course's board ------------------------------------------------------------------------


def test_the_course_board_has_row_0_on_top_and_discs_fall_to_the_bottom():
    pos = play(play(play(start(C4), 3), 3), 0)
    board = to_board(pos)
    assert board[5][3] == RED and board[4][3] == YELLOW and board[5][0] == RED
    assert all(cell == " " for cell in board[0])
    assert from_board(board, C4) == pos
    assert render(pos).splitlines()[-2:] == ["|r| | |r| | | |", " 0 1 2 3 4 5 6"]
    assert parse_position(position_text(pos), C4) == pos


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("......./......./......./......./...r.../.......", "column 3 has a disc above an empty"),
        ("......./......./......./......./......./rr.....", "red has 2 discs and yellow 0"),
        ("......./......./......./......./......./y......", "red has 0 discs and yellow 1"),
        ("......./......./......./......./......./x......", "row 5, column 0 holds 'x'"),
        ("....../....../....../....../....../......", "row 0 should hold 7 cells"),
        ("......./......./......./......./yyyy.../rrrr.r.", "both sides hold a line"),
        ("......./......./y....../y....../yr...../yrr.rr.", "y holds a line and is to move"),
    ],
)
def test_impossible_boards_are_refused_with_the_reason(text, message):
    with pytest.raises(BoardError, match=message):
        parse_position(text, C4)


def test_a_board_with_the_wrong_turn_is_refused():
    with pytest.raises(BoardError, match="it is y to move"):
        from_board(to_board(play(start(C4), 0)), C4, turn=RED)


# ---- what make_move returned --------------------------------------------------------------------


def _full_column_position() -> object:
    pos = start(C4)
    for _ in range(6):
        pos = play(pos, 2)
    return pos


@pytest.mark.parametrize(
    ("raw", "error", "message"),
    [
        (True, MalformedMoveError, "a bool: return the column, an int"),
        ("3", MalformedMoveError, "should return a column number, an int, got '3' (a str)"),
        ([3], MalformedMoveError, "not a list"),
        ((3,), MalformedMoveError, "not a list"),
        (None, MalformedMoveError, "got None"),
        (3.0, MalformedMoveError, "got 3.0 (a float)"),
        (7, IllegalMoveError, "column 7 is off the board (columns are 0-6)"),
        (-1, IllegalMoveError, "column -1 is off the board"),
        (2, IllegalMoveError, "column 2 is full: all 6 of its rows hold a disc"),
    ],
)
def test_a_returned_value_that_is_no_move_says_why(raw, error, message):
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_student_move(raw, _full_column_position())


def test_a_numpy_like_integer_is_a_move_but_costs_the_format():
    stand_in = decode(encode(3))
    assert read_student_move(stand_in, start(C4)) == 3 and format_problem(3, start(C4)) is None

    Int64 = type("Int64", (int,), {"__module__": "numpy"})
    value = decode(encode(Int64(3)))
    assert read_student_move(value, start(C4)) == 3
    assert format_problem(value, start(C4)) == (
        "make_move should return a plain int, got 3 (a numpy.Int64)"
    )


# ---- variants ------------------------------------------------------------------------------------


def test_boards_are_found_by_name_alias_or_size():
    assert find_variant("Connect-Four") is VARIANTS["connect4"]
    assert find_variant("connect4-8x6") is VARIANTS["connect4-8x6"]
    assert find_variant("connect4-7x6") is VARIANTS["connect4"]
    sized = find_variant("connect4-9x7")
    assert (sized.columns, sized.rows, sized.connect) == (9, 7, 4)
    assert parse_variant("connect4-3x9") is None and parse_variant("connect4-11x6") is None
    assert find_assignment("connect4-10x10").variant.columns == 10
    with pytest.raises(UnknownAssignmentError, match="connect4-<C>x<R> with 4 to 10"):
        find_variant("connect5")


def test_random_positions_are_reachable_and_unfinished():
    rng = random.Random(4)
    for plies in range(0, 40, 3):
        pos = random_position(C4, rng, plies)
        if pos is not None:
            assert result(pos) is None and pos.plies == plies
