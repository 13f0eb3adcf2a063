"""Othello as the HTML reports and the play page draw it: the grid, a move's square, a click."""

from __future__ import annotations

import operator
from typing import Any

from autograder.games.othello.rules import Position, legal_moves, to_board
from autograder.games.pack import Drawing

__all__ = ["COLOURS", "DRAWING", "cells", "marks", "clicks"]

COLOURS = {"b": "#24292f", "w": "#ffffff"}


def cells(pos: Position) -> list[str]:
    return ["".join(row) for row in to_board(pos)]


def marks(pos: Position, raw: Any) -> list[tuple[int, int, str]]:
    """The square a returned ``(row, col)`` plays (``to``), or ``bad`` when the rules refuse
    it; none for a pass or a value that is no square of this board."""
    try:
        row, col = (operator.index(x) for x in raw)
    except (TypeError, ValueError):
        return []
    size = pos.variant.size
    if isinstance(raw, str) or not (0 <= row < size and 0 <= col < size):
        return []
    return [(row, col, "to" if (row, col) in legal_moves(pos) else "bad")]


def clicks(pos: Position, chosen: list[tuple[int, int]]) -> Any | None:
    """A click on a square plays it."""
    return tuple(chosen[-1]) if chosen else None


DRAWING: Drawing[Position] = Drawing(cells, COLOURS, marks, clicks)
