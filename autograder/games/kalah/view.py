"""Kalah as the HTML reports and the play page draw it: pits holding counts, a sowing, a click.

The board is drawn as it lies between the players: north's pits along the top, right to left,
south's along the bottom, left to right, north's store at the top left and south's at the
bottom right; every pit and store shows its seeds as a number (``Cells.COUNT``).
"""

from __future__ import annotations

from typing import Any

from autograder.games.kalah.rules import NORTH, PIECES, SOUTH, Position, sow
from autograder.games.pack import Drawing, index_or_none

__all__ = ["COLOURS", "DRAWING", "cells", "marks", "clicks"]

COLOURS = {SOUTH: "#0969da", NORTH: "#cf222e"}  # a side's colour, for the play page's names
_NONE = " "  # a cell of the drawing that is no pit


def _cell(pos: Position, row: int, index: int) -> tuple[int, int]:
    """Where the drawing shows ``row``'s pit or store ``index`` (``pits`` is the store)."""
    pits = pos.variant.pits
    if row == PIECES.index(SOUTH):
        return 1, index + 1
    return 0, pits - index


def cells(pos: Position) -> list[list[int | str]]:
    """Two rows of ``pits + 2`` cells: north's store, its pits right to left, a blank; a
    blank, south's pits left to right, south's store."""
    south, north = pos.board
    return [[north[-1], *reversed(north[:-1]), _NONE], [_NONE, *south[:-1], south[-1]]]


def marks(pos: Position, raw: Any) -> list[tuple[int, int, str]]:
    """The pit a returned value sows (``from``) and where its last seed lands (``to``); an
    empty pit of the side to move is ``bad``; nothing for a value that is no pit here."""
    pit = index_or_none(raw)
    me = PIECES.index(pos.turn)
    if pit is None or not 0 <= pit < pos.variant.pits:
        return []
    if not pos.board[me][pit]:
        return [(*_cell(pos, me, pit), "bad")]
    _, (row, index) = sow(pos, pit)
    return [(*_cell(pos, me, pit), "from"), (*_cell(pos, row, index), "to")]


def clicks(pos: Position, chosen: list[tuple[int, int]]) -> Any | None:
    """A click in a pit's column sows the side to move's pit there (a store's column names
    no pit: the rules refuse it and say why)."""
    if not chosen:
        return None
    col, pits = chosen[-1][1], pos.variant.pits
    return col - 1 if pos.turn == SOUTH else pits - col


DRAWING: Drawing[Position] = Drawing(cells, COLOURS, marks, clicks)
