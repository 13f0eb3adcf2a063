"""Teeko positions drawn as pictures, for the rules tests: five rows of five cells (``b``, ``r``
or ``.``) separated by spaces, row 0 first: ``"bbbb. r.r.r ..... ..... r...."`` has black on
A0-D0.
"""

from __future__ import annotations

from autograder.games.teeko import rules
from autograder.games.teeko.rules import BLACK, Position, from_board, parse_square
from autograder.games.teeko.variants import find_variant

NAMES = ("teeko", "teeko2", "teeko2-diamond")
PLY_CAP = 200  # KIT_SPEC §2 default


def pic(rows: str, turn: str | None = None, variant: str = "teeko") -> Position:
    """The position drawn by ``rows`` (see the module docstring)."""
    cells = rows.split()
    assert len(cells) == 5 and all(len(row) == 5 for row in cells), rows
    board = [[" " if cell == "." else cell for cell in row] for row in cells]
    return from_board(board, find_variant(variant), turn)


def swap(pos: Position) -> Position:
    """The same position with the colours exchanged."""
    return Position(pos.red, pos.black, rules.opponent(pos.turn), pos.variant)


def sq(name: str) -> int:
    return parse_square(name)


def mask(*names: str) -> int:
    return sum(1 << sq(name) for name in names)


def adjacent(a: int, b: int) -> bool:
    """King-step adjacency from coordinates, independent of ``BB_NEIGHBOURS``."""
    return a != b and max(abs(a // 5 - b // 5), abs(a % 5 - b % 5)) == 1


# Red to move in the drop phase, black on C2 (2, 2).
DROP = "..... ..... ..b.. ..... ....."
# Black to move in the move phase, black in the corners, red around C2.
MOVE = "b...b ..r.. .r.r. ..r.. b...b"
POSITIONS = {"drop": (DROP, None), "move": (MOVE, BLACK)}
