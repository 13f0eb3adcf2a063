"""Reading a course's grid board: a list of rows, each a list of one-character cells.

The grid games (Connect Four, Othello) hand the student the same kind of board and read it
back the same way: every cell one of a few pieces or ``' '``, a wrong row or cell named.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from autograder.games.pack import shown

__all__ = ["EMPTY", "BoardError", "read_grid", "grid_text", "text_grid"]

EMPTY = " "


class BoardError(ValueError):
    """A board that no game of this variant can show."""


def read_grid(
    board: Any,
    rows: int,
    columns: int,
    pieces: Sequence[str],
    bit: Callable[[int, int], int],
) -> list[int]:
    """The squares each of ``pieces`` holds on ``board``, one bitboard a piece in their order;
    ``bit(row, col)`` is a square's bit.

    :raises BoardError: naming the row or the cell that is wrong.
    """
    if not isinstance(board, list | tuple) or len(board) != rows:
        raise BoardError(f"a board is {rows} rows of {columns} cells, got {shown(board)}")
    held = [0] * len(pieces)
    for row, cells in enumerate(board):
        if not isinstance(cells, list | tuple) or len(cells) != columns:
            raise BoardError(f"row {row} should hold {columns} cells, got {shown(cells)}")
        for col, cell in enumerate(cells):
            if cell in pieces:
                held[pieces.index(cell)] |= bit(row, col)
            elif cell != EMPTY:
                named = [repr(p) for p in (EMPTY, *pieces)]
                allowed = ", ".join(named[:-1]) + " or " + named[-1]
                raise BoardError(f"row {row}, column {col} holds {cell!r}: use {allowed}")
    return held


def grid_text(board: Sequence[Sequence[str]]) -> str:
    """A grid board on one line: the rows top first, '.' for empty, '/' between rows."""
    return "/".join("".join(cell if cell != EMPTY else "." for cell in row) for row in board)


def text_grid(text: str) -> list[list[str]]:
    """The rows :func:`grid_text` wrote, as a board for ``read_grid`` to check."""
    return [[EMPTY if ch == "." else ch for ch in row] for row in text.split("/")]
