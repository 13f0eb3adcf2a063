"""Connect Four as the HTML reports and the play page draw it: the grid, a drop, a click."""

from __future__ import annotations

from typing import Any

from autograder.games.connect4.rules import Position, is_legal, to_board
from autograder.games.pack import Drawing, index_or_none

__all__ = ["COLOURS", "DRAWING", "cells", "marks", "clicks"]

COLOURS = {"r": "#cf222e", "y": "#d4a72c"}


def cells(pos: Position) -> list[str]:
    return ["".join(row) for row in to_board(pos)]


def marks(pos: Position, raw: Any) -> list[tuple[int, int, str]]:
    """Where a returned column drops its disc (``to``), or the top of a full column (``bad``);
    none for a value that is no column of this board."""
    col = index_or_none(raw)
    variant = pos.variant
    if col is None or not 0 <= col < variant.columns:
        return []
    if not is_legal(pos, col):
        return [(0, col, "bad")]
    board = to_board(pos)
    row = max(r for r in range(variant.rows) if board[r][col] == " ")
    return [(row, col, "to")]


def clicks(pos: Position, chosen: list[tuple[int, int]]) -> Any | None:
    """A click anywhere in a column drops into it."""
    return chosen[-1][1] if chosen else None


DRAWING: Drawing[Position] = Drawing(cells, COLOURS, marks, clicks)
