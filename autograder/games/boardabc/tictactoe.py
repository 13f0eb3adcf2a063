"""Tic-tac-toe, exactly: the rules on the book's squares 0-8, and every position's value.

The book's board numbers its squares row by row (0 1 2 / 3 4 5 / 6 7 8); X moves first. A
position here is the nine cells as a string of ``'X'``, ``'O'`` and ``' '`` and the side to
move. The game is small enough (5,478 positions reachable from the empty board) to solve
whole, once, with a memo: :func:`value` is exact for every reachable position.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import NamedTuple

__all__ = [
    "TicTacToe",
    "LINES",
    "start",
    "legal_moves",
    "play",
    "winner",
    "is_draw",
    "value",
    "reachable",
    "winning_moves",
    "empty_squares",
    "sample",
    "other",
    "render",
]

CROSS, NOUGHT, EMPTY = "X", "O", " "
LINES = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


class TicTacToe(NamedTuple):
    cells: str  # nine of 'X', 'O', ' ', square 0 first
    turn: str  # 'X' or 'O'


def other(side: str) -> str:
    return NOUGHT if side == CROSS else CROSS


def start() -> TicTacToe:
    return TicTacToe(EMPTY * 9, CROSS)


def winner(pos: TicTacToe) -> str | None:
    """The side holding a line, or None (a reachable position has at most one)."""
    for a, b, c in LINES:
        if pos.cells[a] != EMPTY and pos.cells[a] == pos.cells[b] == pos.cells[c]:
            return pos.cells[a]
    return None


def legal_moves(pos: TicTacToe) -> list[int]:
    """The empty squares, in order; none once the game is won (the book's boards list them
    anyway: see :func:`empty_squares`)."""
    return [] if winner(pos) else empty_squares(pos)


def empty_squares(pos: TicTacToe) -> list[int]:
    return [square for square, cell in enumerate(pos.cells) if cell == EMPTY]


def play(pos: TicTacToe, square: int) -> TicTacToe:
    cells = pos.cells[:square] + pos.turn + pos.cells[square + 1 :]
    return TicTacToe(cells, other(pos.turn))


def is_draw(pos: TicTacToe) -> bool:
    """The book's ``is_draw``: no line and no empty square."""
    return winner(pos) is None and EMPTY not in pos.cells


@functools.cache
def value(pos: TicTacToe) -> int:
    """1 when the side to move wins with best play, 0 for a draw, -1 when it loses."""
    if winner(pos) is not None:
        return -1  # only the side that just moved can have made the line
    moves = legal_moves(pos)
    if not moves:
        return 0
    return max(-value(play(pos, square)) for square in moves)


def winning_moves(pos: TicTacToe) -> list[int]:
    """The squares that complete a line for the side to move at once."""
    return [s for s in legal_moves(pos) if winner(play(pos, s)) is not None]


@functools.cache
def reachable() -> tuple[TicTacToe, ...]:
    """Every position legal play reaches from the empty board, finished ones too, in a fixed
    order (breadth first, squares in order)."""
    seen = {start(): None}
    frontier = [start()]
    while frontier:
        following = []
        for pos in frontier:
            for square in legal_moves(pos):
                after = play(pos, square)
                if after not in seen:
                    seen[after] = None
                    following.append(after)
        frontier = following
    return tuple(seen)


def sample(
    rng: random.Random, count: int, keep: Callable[[TicTacToe], bool] | None = None
) -> list[TicTacToe]:
    """``count`` different reachable positions for which ``keep(pos)`` is true, seeded."""
    pool = [p for p in reachable() if keep is None or keep(p)]
    return rng.sample(pool, min(count, len(pool)))


def render(pos: TicTacToe) -> str:
    """The board as the book's ``__repr__`` prints it, the square numbers beside it."""
    rows = [pos.cells[r * 3 : r * 3 + 3] for r in range(3)]
    lines = []
    for r, row in enumerate(rows):
        numbers = " ".join(str(r * 3 + c) for c in range(3))
        lines.append("|".join(row) + f"      {numbers}")
        if r < 2:
            lines.append("-----")
    lines.append(f"({pos.turn} to move)")
    return "\n".join(lines)
