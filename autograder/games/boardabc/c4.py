"""The book's Connect Four, in the kit's engine: its board, its pieces and how it is printed.

The book's ``C4Board`` is 7 columns of 6 cells; black (``B``) moves first, red (``R``)
second; a column's cell 0 is its bottom. The games and probes run on the Connect Four pack's
bitboard engine (``autograder/games/connect4/rules.py``), whose first side ``'r'`` is the
book's ``B`` and second ``'y'`` its ``R``; this module turns positions into the book's terms.
"""

from __future__ import annotations

from typing import Any

from autograder.games.connect4 import rules
from autograder.games.connect4.rules import Position, Variant

__all__ = ["VARIANT", "BOOK", "KIT", "COLOURS", "columns", "cells", "state", "render", "position"]

VARIANT = Variant(
    "board-abc",
    7,
    6,
    aliases=("board", "ccsp", "classic-search"),
    player_class="C4Board",
    description="the book's Board ABC: tic-tac-toe and Connect Four boards, minimax search",
)
BOOK = {rules.RED: "B", rules.YELLOW: "R"}  # the engine's side -> the book's piece
KIT = {piece: side for side, piece in BOOK.items()}
EMPTY = " "
COLOURS = {"B": "#24292f", "R": "#cf222e"}


def columns(pos: Position) -> list[list[str]]:
    """Each column's pieces from the bottom up, as the book's ``Column`` holds them."""
    board = rules.to_board(pos)  # rows top first
    rows = pos.variant.rows
    return [
        [BOOK[board[r][c]] for r in reversed(range(rows)) if board[r][c] != EMPTY]
        for c in range(pos.variant.columns)
    ]


def position(piles: list[list[str]], turn: str, variant: Variant = VARIANT) -> Position:
    """The engine's position of the book's columns (bottom up) and side to move."""
    pos = rules.start(variant)._replace(turn=KIT[turn])
    red = yellow = 0
    for c, pile in enumerate(piles):
        for r, piece in enumerate(pile):
            bit = variant.cell(variant.rows - 1 - r, c)
            if piece == "B":
                red |= bit
            else:
                yellow |= bit
    return pos._replace(red=red, yellow=yellow)


def state(pos: Position, depth: int) -> dict[str, Any]:
    """The position as plain data for the driver: the book's columns, whose turn, the depth
    ``find_best_move`` is to search."""
    return {"game": "connectfour", "columns": columns(pos), "turn": BOOK[pos.turn], "depth": depth}


def cells(pos: Position) -> list[str]:
    """The rows, top first, in the book's letters: what the HTML reports draw."""
    return ["".join(BOOK.get(cell, EMPTY) for cell in row) for row in rules.to_board(pos)]


def render(pos: Position) -> str:
    """The board as the book's ``C4Board.__repr__`` prints it, column numbers under it."""
    board = rules.to_board(pos)
    lines = ["|" + "|".join(BOOK.get(cell, EMPTY) for cell in row) + "|" for row in board]
    lines.append(" " + " ".join(str(c) for c in range(pos.variant.columns)))
    lines.append(f"({BOOK[pos.turn]} to move)")
    return "\n".join(lines)
