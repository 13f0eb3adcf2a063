"""The Othello rules (autograder/games/othello/rules.py): perft counts, passes, the end of a
game, reading the student's move and board, the probes and the pack's drawing."""

from __future__ import annotations

import random

import pytest

from autograder.games import find_assignment
from autograder.games.grid import BoardError
from autograder.games.othello import PACK
from autograder.games.othello.probes import probe_positions
from autograder.games.othello.rules import (
    BLACK,
    PASS,
    WHITE,
    Position,
    format_problem,
    from_board,
    is_over,
    legal_moves,
    opponent,
    outcome,
    parse_position,
    perft,
    play,
    position_text,
    read_student_move,
    render,
    result,
    start,
    to_board,
)
from autograder.games.othello.variants import find_variant
from autograder.games.pack import DRAW, IllegalMoveError, MalformedMoveError, Outcome

STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]


# ---- a plain reference: lists of rows, square by square -------------------------------------


def _flipped(board: list[list[str]], row: int, col: int, piece: str) -> list[tuple[int, int]]:
    size, other = len(board), opponent(piece)
    if board[row][col] != " ":
        return []
    turned: list[tuple[int, int]] = []
    for dr, dc in STEPS:
        line, r, c = [], row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and board[r][c] == piece:
            turned += line
    return turned


def _reference_moves(board: list[list[str]], piece: str) -> list[tuple[int, int]]:
    size = len(board)
    return [(r, c) for r in range(size) for c in range(size) if _flipped(board, r, c, piece)]


def _reference_perft(board: list[list[str]], piece: str, depth: int) -> int:
    """Perft on lists of rows: a pass is a ply, a game over ends the count."""
    if depth == 0:
        return 1
    moves = _reference_moves(board, piece)
    other = opponent(piece)
    if not moves:
        if not _reference_moves(board, other):
            return 0
        return _reference_perft(board, other, depth - 1)
    total = 0
    for r, c in moves:
        after = [row[:] for row in board]
        for fr, fc in _flipped(board, r, c, piece):
            after[fr][fc] = piece
        after[r][c] = piece
        total += _reference_perft(after, other, depth - 1)
    return total


# ---- perft ---------------------------------------------------------------------------------


def test_perft_on_the_standard_board_matches_the_published_counts() -> None:
    pos = start(find_variant("othello-8x8"))
    assert [perft(pos, depth) for depth in range(1, 7)] == [4, 12, 56, 244, 1396, 8200]


def test_perft_on_the_smaller_boards() -> None:
    """Pinned counts for the smaller boards (the plain implementation below agrees): a
    smaller board has fewer squares to play from depth 3 on 4×4 and depth 5 on 6×6."""
    assert [perft(start(find_variant("othello")), d) for d in range(1, 7)] == [
        4,
        12,
        56,
        244,
        1364,
        7604,
    ]
    assert [perft(start(find_variant("othello-4x4")), d) for d in range(1, 10)] == [
        4,
        12,
        44,
        128,
        424,
        1256,
        3624,
        9112,
        20032,
    ]


@pytest.mark.parametrize(
    ("name", "depth"),
    [("othello", 6), ("othello-4x4", 7), pytest.param("othello-4x4", 9, marks=pytest.mark.slow)],
)
def test_perft_agrees_with_a_plain_list_implementation(name: str, depth: int) -> None:
    """Bitboards and lists of rows count the same move sequences, passes included (4×4 games
    pass and end within nine plies)."""
    pos = start(find_variant(name))
    assert perft(pos, depth) == _reference_perft(to_board(pos), BLACK, depth)


def test_random_games_agree_with_the_plain_implementation_move_by_move() -> None:
    """Every position of seeded random games on each board: the same squares, the same
    passes, the same end."""
    rng = random.Random(7)
    for name in ("othello-4x4", "othello", "othello-8x8"):
        for _ in range(4):
            pos = start(find_variant(name))
            while True:
                board = to_board(pos)
                mine = _reference_moves(board, pos.turn)
                theirs = _reference_moves(board, opponent(pos.turn))
                expected = mine or ([PASS] if theirs else [])
                assert legal_moves(pos) == expected, render(pos)
                assert is_over(pos) == (not mine and not theirs)
                if not expected:
                    break
                pos = play(pos, rng.choice(expected))


def _negamax(pos: Position, alpha: int, beta: int) -> int:
    """The final disc difference for the side to move under perfect play."""
    moves = legal_moves(pos)
    if not moves:
        return pos.discs(pos.turn).bit_count() - pos.discs(opponent(pos.turn)).bit_count()
    best = -99
    for move in moves:
        best = max(best, -_negamax(play(pos, move), -beta, -alpha))
        alpha = max(alpha, best)
        if alpha >= beta:
            break
    return best


def test_the_4x4_board_is_a_white_win_by_eight_discs() -> None:
    """Solved: with perfect play white wins 4×4 Othello 11 discs to 3."""
    assert _negamax(start(find_variant("othello-4x4")), -99, 99) == -8


# ---- passes and the end of a game ----------------------------------------------------------

# Black to move has no square: white's discs lie on the bottom edge, below black's.
MUST_PASS = "..../bbb./.bb./.www b"


def test_a_side_without_a_square_passes_and_the_other_moves_again() -> None:
    pos = parse_position(MUST_PASS, "othello-4x4")
    assert legal_moves(pos) == [PASS]
    assert not is_over(pos) and result(pos) is None
    passed = play(pos, PASS)
    assert (passed.black, passed.white, passed.turn) == (pos.black, pos.white, WHITE)
    assert legal_moves(passed) != [PASS]
    assert read_student_move("pass", pos) == PASS
    assert format_problem("pass", pos) is None
    with pytest.raises(MalformedMoveError, match="got None"):
        read_student_move(None, pos)  # a forced pass is the referee's: None is no move
    with pytest.raises(IllegalMoveError, match="passed, but it has a square"):
        read_student_move("pass", passed)


def test_the_game_ends_when_neither_side_can_move_and_more_discs_win() -> None:
    over = parse_position("bbbb/bbbb/bbww/bbww w", "othello-4x4")
    assert legal_moves(over) == [] and is_over(over)
    assert result(over) == BLACK
    assert outcome(over) == Outcome(BLACK, "more discs: 12 to 4")
    level = parse_position("bbbb/bbbb/wwww/wwww b", "othello-4x4")
    assert result(level) == DRAW
    assert outcome(level) == Outcome(None, "equal discs: 8 to 8")
    assert outcome(start(find_variant("othello"))) is None


def test_the_pack_declares_its_pass_and_its_outcome() -> None:
    assert PACK.pass_move == PASS
    assert PACK.outcome is outcome
    assert PACK.read_move(PACK.student_move(PASS), parse_position(MUST_PASS, "othello-4x4"))
    pos = start(find_variant("othello"))
    for move in legal_moves(pos):
        assert PACK.read_move(PACK.student_move(move), pos) == move


# ---- the student's move and board ----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "error", "message"),
    [
        ((1, 2), None, None),
        ([1, 2], None, None),
        (True, MalformedMoveError, r"a tuple of two ints, got True \(a bool\)"),
        ((True, 2), MalformedMoveError, "two ints"),
        ((1, 2, 3), MalformedMoveError, "a tuple of two ints"),
        ("1 2", MalformedMoveError, "a tuple of two ints"),
        ((6, 0), IllegalMoveError, r"\(6, 0\) is off the board \(rows and columns are 0-5\)"),
        ((2, 2), IllegalMoveError, r"\(2, 2\) already holds a disc"),
        ((0, 0), IllegalMoveError, r"\(0, 0\) outflanks no disc"),
    ],
)
def test_read_student_move(raw: object, error: type[Exception] | None, message: str) -> None:
    pos = start(find_variant("othello"))
    if error is None:
        assert read_student_move(raw, pos) == (1, 2)
    else:
        with pytest.raises(error, match=message):
            read_student_move(raw, pos)


def test_only_a_tuple_of_two_plain_ints_has_the_exact_format() -> None:
    pos = start(find_variant("othello"))
    assert format_problem((1, 2), pos) is None
    assert format_problem(PASS, pos) is None
    assert "a tuple of two plain ints" in (format_problem([1, 2], pos) or "")


def test_the_start_and_the_board_round_trip() -> None:
    pos = start(find_variant("othello"))
    assert position_text(pos) == "....../....../..wb../..bw../....../...... b"
    assert parse_position(position_text(pos), "othello") == pos
    assert render(pos).splitlines()[0] == "   0 1 2 3 4 5"
    assert render(pos).splitlines()[3] == "2 | | |w|b| | |"
    with pytest.raises(BoardError, match="row 1, column 0 holds 'x': use ' ', 'b' or 'w'"):
        from_board([["x"] * 6 if r == 1 else [" "] * 6 for r in range(6)], pos.variant, BLACK)
    with pytest.raises(BoardError, match="centre squares"):
        from_board([[" "] * 6 for _ in range(6)], pos.variant, BLACK)


# ---- probes, variants, drawing -------------------------------------------------------------


@pytest.mark.parametrize("name", ["othello", "othello-8x8", "othello-4x4"])
def test_probes_are_playable_and_a_third_come_right_after_a_pass(name: str) -> None:
    variant = find_variant(name)
    probes = probe_positions(variant, 3, {"play": 12})
    assert len(probes) == 12
    assert probe_positions(variant, 3, {"play": 12}) == probes
    for index, pos in enumerate(probes):
        assert legal_moves(pos) not in ([], [PASS]), render(pos)
        if index % 3 == 0:  # the side that is not to move has just passed
            assert legal_moves(pos._replace(turn=opponent(pos.turn))) == [PASS], render(pos)
    assert {pos.turn for pos in probes} == {BLACK, WHITE}


def test_the_assignments_and_their_boards() -> None:
    assert find_assignment("othello").variant.size == 6
    assert find_assignment("reversi").variant.name == "othello"
    assert find_assignment("othello-8x8").variant.size == 8
    assert find_assignment("othello-4x4").variant.size == 4


def test_marks_draw_a_legal_square_a_refused_one_and_nothing_for_a_pass() -> None:
    pos = start(find_variant("othello"))
    assert PACK.marks(pos, (1, 2)) == [(1, 2, "to")]
    assert PACK.marks(pos, (0, 0)) == [(0, 0, "bad")]
    assert PACK.marks(pos, PASS) == []
    assert PACK.marks(pos, (9, 9)) == []
    assert PACK.marks(pos, object()) == []
    assert PACK.clicks(pos, [(1, 2)]) == (1, 2)
