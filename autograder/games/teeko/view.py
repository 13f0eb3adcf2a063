"""Teeko as the HTML reports and the play page draw it: the grid, a move's squares, clicks."""

from __future__ import annotations

from typing import Any

from autograder.games.pack import Drawing, MoveError
from autograder.games.teeko.rules import SIZE, Position, is_drop_phase, read_student_move, to_board

__all__ = ["COLOURS", "DRAWING", "cells", "marks", "clicks"]

COLOURS = {"b": "#24292f", "r": "#cf222e"}


def cells(pos: Position) -> list[str]:
    return ["".join(row) for row in to_board(pos)]


def _square(item: Any) -> tuple[int, int] | None:
    try:
        row, col = (int(v) for v in item)
    except (TypeError, ValueError):
        return None
    return (row, col) if 0 <= row < SIZE and 0 <= col < SIZE else None


def marks(pos: Position, raw: Any) -> list[tuple[int, int, str]]:
    """The squares of a returned move: where it lands (``to``, or ``bad`` when the rules refuse
    the move) and where it left (``from``); none when they cannot be read."""
    if not isinstance(raw, list | tuple) or not 1 <= len(raw) <= 2:
        return []
    squares = [_square(item) for item in raw]
    try:
        read_student_move(raw, pos)
        landing = "to"
    except MoveError:
        landing = "bad"
    found = []
    if squares[0] is not None:
        found.append((*squares[0], landing))
    if len(squares) == 2 and squares[1] is not None:
        found.append((*squares[1], "from"))
    return found


def clicks(pos: Position, chosen: list[tuple[int, int]]) -> Any | None:
    """A move in the course's format from the squares a person clicked, or None while it needs
    another click: a drop is one square; a move is the marker's square, then where it goes."""
    if not chosen:
        return None
    if is_drop_phase(pos):
        return [chosen[-1]]
    if len(chosen) < 2:
        return None
    return [chosen[1], chosen[0]]


DRAWING: Drawing[Position] = Drawing(cells, COLOURS, marks, clicks)
