"""The Connect Four solver (autograder/oracle/connect4.py) against a naive minimax.

The reference below knows nothing of bitboards: a board is a list of columns, each a list of
discs from the bottom, and it tries every move to the end of the game, remembering positions
it has seen (a plain dict). Both must agree on the value and on the plies to the end (the
winner taking the quickest way, the loser the slowest), for the position and for each move.
"""

from __future__ import annotations

import contextlib

import pytest

from autograder.games.connect4.rules import (
    Position,
    Variant,
    legal_moves,
    parse_position,
    play,
    start,
    to_board,
)
from autograder.games.connect4.solver import NODE_LIMIT, REACH, Solver, positions_with_empty
from autograder.games.connect4.variants import find_variant
from autograder.games.perfect import OracleError
from autograder.games.teeko.solved.codes import Verdict

Outcome = tuple[str, int | None]

# ---- the naive reference ----------------------------------------------------------------------


def _columns(pos: Position) -> list[list[str]]:
    """The discs of each column, bottom first, read from the course's board (row 0 on top)."""
    board = to_board(pos)
    rows = len(board)
    return [
        [board[r][c] for r in reversed(range(rows)) if board[r][c] != " "]
        for c in range(len(board[0]))
    ]


def _makes_line(cols: list[list[str]], col: int, connect: int) -> bool:
    """Whether the top disc of ``col`` completes a line of ``connect``."""
    row = len(cols[col]) - 1
    piece = cols[col][row]

    def same(c: int, r: int) -> bool:
        return 0 <= c < len(cols) and 0 <= r < len(cols[c]) and cols[c][r] == piece

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while same(c, r):
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= connect:
            return True
    return False


def _best(outcomes: list[Outcome]) -> Outcome:
    wins = [p for v, p in outcomes if v == "win" and p is not None]
    if wins:
        return ("win", min(wins))
    if any(v == "draw" for v, _ in outcomes):
        return ("draw", None)
    return ("loss", max(p for _, p in outcomes if p is not None))


class Naive:
    """Plain minimax to the end of the game over lists, with a memo of seen positions."""

    def __init__(self, rows: int, connect: int) -> None:
        self.rows, self.connect = rows, connect
        self.memo: dict[tuple[tuple[str, ...], ...], Outcome] = {}

    def moves(self, cols: list[list[str]], turn: str) -> list[tuple[int, Outcome]]:
        """Each column that is not full, with its outcome for the side dropping into it."""
        other = "y" if turn == "r" else "r"
        rated = []
        for col in range(len(cols)):
            if len(cols[col]) == self.rows:
                continue
            cols[col].append(turn)
            if _makes_line(cols, col, self.connect):
                outcome: Outcome = ("win", 1)
            else:
                value, plies = self.value(cols, other)
                if value == "draw" or plies is None:
                    outcome = ("draw", None)
                else:
                    outcome = ("win" if value == "loss" else "loss", plies + 1)
            cols[col].pop()
            rated.append((col, outcome))
        return rated

    def value(self, cols: list[list[str]], turn: str) -> Outcome:
        """For a game going on (no line yet), the side to move being ``turn``."""
        key = tuple(tuple(c) for c in cols)
        if key not in self.memo:
            rated = self.moves(cols, turn)
            self.memo[key] = _best([o for _, o in rated]) if rated else ("draw", None)
        return self.memo[key]


def _naive(pos: Position, naive: Naive) -> tuple[Outcome, list[tuple[int, Outcome]]]:
    cols = _columns(pos)
    return naive.value(cols, pos.turn), naive.moves(cols, pos.turn)


def _check_against_naive(solver: Solver, positions: list[Position]) -> list[Verdict]:
    """Assert value, move values and best moves against the reference; return the values."""
    variant = solver.variant
    naive = Naive(variant.rows, variant.connect)
    values = []
    for pos in positions:
        expected, expected_moves = _naive(pos, naive)
        value = solver.value(pos)
        assert value == expected, pos
        assert solver.move_values(pos) == expected_moves, pos
        best = [col for col, outcome in expected_moves if outcome == expected]
        assert solver.best_moves(pos) == best, pos
        values.append(value)
    return values


# ---- agreement with the reference -------------------------------------------------------------


@pytest.mark.parametrize("empty", range(1, 11))
def test_standard_board_near_the_end_agrees_with_naive_minimax(empty):
    solver = Solver("connect4")
    positions = positions_with_empty("connect4", 100 + empty, empty, 12)
    positions += positions_with_empty("connect4", 200 + empty, empty, 6, quiet=True)
    values = _check_against_naive(solver, positions)
    assert len(values) == 18


def test_the_samples_are_not_all_won_at_once():
    """The agreement above means something only if the samples hold every kind of verdict."""
    solver = Solver("connect4")
    seen = set()
    for empty in (6, 8, 10):
        for pos in positions_with_empty("connect4", 200 + empty, empty, 6, quiet=True):
            v = solver.value(pos)
            seen.add(v.value)
            assert v.plies is None or v.plies >= 2  # quiet: nobody completes a line next
    assert seen == {"win", "draw", "loss"}


@pytest.mark.parametrize("empty", [4, 6, 8, 10, 12])
def test_small_board_from_various_depths_agrees_with_naive_minimax(empty):
    solver = Solver("connect4-4x4")
    positions = positions_with_empty("connect4-4x4", empty, empty, 10)
    positions += positions_with_empty("connect4-4x4", 50 + empty, empty, 5, quiet=True)
    _check_against_naive(solver, positions)


@pytest.mark.slow
def test_small_board_from_the_start_agrees_with_naive_minimax():
    solver = Solver("connect4-4x4")
    pos = start(find_variant("connect4-4x4"))
    _check_against_naive(solver, [pos, play(pos, 0), play(pos, 1), play(play(pos, 1), 2)])


def test_five_by_four_near_the_end_agrees_with_naive_minimax():
    solver = Solver("connect4-5x4")
    _check_against_naive(solver, positions_with_empty("connect4-5x4", 7, 10, 10, quiet=True))


def test_another_line_length_agrees_with_naive_minimax():
    """Three in a line: the solver's general threat test, not its four-in-a-line one."""
    variant = Variant("connect3-5x4", 5, 4, connect=3)
    solver = Solver(variant)
    positions = positions_with_empty(variant, 3, 10, 8) + positions_with_empty(variant, 4, 12, 4)
    _check_against_naive(solver, positions)


# ---- known facts ------------------------------------------------------------------------------


def test_the_empty_small_boards_are_draws():
    four = Solver("connect4-4x4")
    assert four.value(start(four.variant)) == Verdict("draw", None)
    assert four.best_moves(start(four.variant)) == [0, 1, 2, 3]
    five = Solver("connect4-5x4")
    assert five.value(start(five.variant)) == Verdict("draw", None)


def test_win_in_one_and_its_move():
    # Red to move, three in the bottom row with column 3 open: red wins by dropping there.
    pos = parse_position("...../...../yy.../rrr.y", "connect4-5x4")
    solver = Solver("connect4-5x4")
    assert pos.turn == "r"
    assert solver.value(pos) == Verdict("win", 1)
    assert solver.best_moves(pos) == [3]
    rated = dict(solver.move_values(pos))
    assert rated[3] == Verdict("win", 1)
    assert all(v != Verdict("win", 1) for col, v in rated.items() if col != 3)


def test_two_threats_lose_in_two():
    # Yellow to move; red holds both open ends of the bottom row: whichever yellow blocks,
    # red takes the other.
    pos = parse_position("...../...../.yy../.rrr.", "connect4-5x4")
    solver = Solver("connect4-5x4")
    assert pos.turn == "y"
    assert solver.value(pos) == Verdict("loss", 2)
    assert all(v == Verdict("loss", 2) for _, v in solver.move_values(pos))
    assert solver.best_moves(pos) == legal_moves(pos)


def test_a_forced_block():
    # Yellow to move must block column 4 (red's three in the bottom row); anything else loses
    # at once.
    pos = parse_position("...../...../y..../yrrr.", "connect4-5x4")
    solver = Solver("connect4-5x4")
    assert pos.turn == "y"
    rated = dict(solver.move_values(pos))
    assert all(rated[col] == Verdict("loss", 2) for col in (0, 1, 2, 3))
    assert rated[4] != Verdict("loss", 2)
    assert solver.best_moves(pos) == [4]
    assert solver.value(pos) == rated[4]


def test_finished_games():
    solver = Solver("connect4")
    won = parse_position("......./......./......./......./yyy..../rrrr...", "connect4")
    assert won.turn == "y"
    assert solver.value(won) == Verdict("loss", 0)
    assert solver.move_values(won) == []
    assert solver.best_moves(won) == []
    small = Solver("connect4-4x4")
    full = parse_position("yyrr/yyrr/rryy/yyrr", "connect4-4x4")
    assert small.value(full) == Verdict("draw", None)
    assert small.move_values(full) == []
    assert small.best_moves(full) == []


def test_one_move_from_the_end():
    # The last cell of a 4x4 board: yellow fills it, no line, a draw.
    pos = parse_position(".yrr/yyrr/rryy/yyrr", "connect4-4x4")
    solver = Solver("connect4-4x4")
    assert solver.value(pos) == Verdict("draw", None)
    assert solver.move_values(pos) == [(0, Verdict("draw", None))]


# ---- the interface ----------------------------------------------------------------------------


@pytest.mark.parametrize("empty", [12, 16])
def test_move_values_and_best_moves_are_consistent(empty):
    solver = Solver("connect4")
    for pos in positions_with_empty("connect4", 300 + empty, empty, 6, quiet=True):
        value = solver.value(pos)
        rated = solver.move_values(pos)
        assert [col for col, _ in rated] == legal_moves(pos)
        for col, v in rated:
            assert v == solver.value(play(pos, col)).after_move()
        best = solver.best_moves(pos)
        assert best == [col for col, v in rated if v == value]
        assert best == sorted(best) and best
        # Every other move is worse for the mover than the value.
        assert all(v != value for col, v in rated if col not in best)


def test_too_big_a_position_raises_oracle_error():
    solver = Solver("connect4", node_limit=1_000)
    empty = start(solver.variant)
    with pytest.raises(OracleError) as caught:
        solver.value(empty)
    message = str(caught.value)
    assert message == (
        "this position of 'connect4' (42 empty cells) is too big to solve exactly within "
        "1,000 nodes"
    )
    assert solver.nodes == 1_000
    with pytest.raises(OracleError, match="too big"):
        solver.move_values(empty)
    with pytest.raises(OracleError, match="too big"):
        solver.best_moves(empty)


def test_an_interrupted_search_leaves_correct_answers():
    """What the table keeps when a search runs out of nodes is still true."""
    positions = positions_with_empty("connect4", 9, 20, 4, quiet=True)
    fresh = [Solver("connect4").value(pos) for pos in positions]
    solver = Solver("connect4", node_limit=300)
    for pos in positions:
        with contextlib.suppress(OracleError):
            solver.value(pos)
    solver.node_limit = NODE_LIMIT
    assert [solver.value(pos) for pos in positions] == fresh


def test_a_position_of_another_board_is_refused():
    with pytest.raises(OracleError, match="'connect4-4x4'.* solver of 'connect4'"):
        Solver("connect4").value(start(find_variant("connect4-4x4")))
    with pytest.raises(OracleError, match="unknown Connect Four board"):
        Solver("connect5")


def test_solvable_guesses():
    solver = Solver("connect4")
    assert not solver.solvable(start(solver.variant))
    assert solver.solvable(positions_with_empty("connect4", 1, REACH, 1)[0])
    assert not solver.solvable(positions_with_empty("connect4", 1, REACH + 1, 1)[0])
    small = Solver("connect4-5x4")
    assert small.solvable(start(small.variant))


def test_positions_with_empty():
    first = positions_with_empty("connect4", 5, 10, 20)
    assert first == positions_with_empty("connect4", 5, 10, 20)
    assert first != positions_with_empty("connect4", 6, 10, 20)
    solver = Solver("connect4")
    for pos in first:
        assert 42 - pos.occupied.bit_count() == 10
        assert solver.move_values(pos)  # a game going on
    with pytest.raises(ValueError, match="cannot leave 43 empty"):
        positions_with_empty("connect4", 1, 43, 1)
