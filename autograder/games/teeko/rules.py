"""The rules of Teeko and its variants: positions, legal moves, goals and the student move format.

Pure: no I/O and no state that changes. Squares are numbered 0-24 row-major (row 0 at the top);
a set of squares is a 25-bit int (``BB_*`` masks). Positions are immutable; ``play`` returns a
new one, so callers can keep the position before a move to compare with the one after.

>>> pos = play(start(find_variant("teeko")), Move(square(2, 2)))
>>> pos.turn, count(pos.black)
('r', 1)
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any, NamedTuple

from autograder.games.pack import IllegalMoveError, MalformedMoveError, Rules, shown
from autograder.games.teeko.variants import Variant, find_variant

# ---- board vocabulary -------------------------------------------------------------------------

BLACK, RED, EMPTY = "b", "r", " "
PIECES = (BLACK, RED)
SIZE = 5
MARKERS = 4  # per side
SQUARES = range(SIZE * SIZE)
COLUMNS = "ABCDE"


def square(row: int, col: int) -> int:
    return row * SIZE + col


def square_row(sq: int) -> int:
    return sq // SIZE


def square_col(sq: int) -> int:
    return sq % SIZE


def square_name(sq: int) -> str:
    """``B3`` for row 3, column 1: column letter, then row digit (the course's notation)."""
    return f"{COLUMNS[square_col(sq)]}{square_row(sq)}"


def parse_square(name: str) -> int:
    """The inverse of :func:`square_name`; lower case is accepted.

    :raises ValueError: naming the text and the expected form.
    """
    text = name.strip().upper()
    if len(text) != 2 or text[0] not in COLUMNS or text[1] not in "01234":
        raise ValueError(f"{name!r} is not a square: type a column A-E then a row 0-4, like B3")
    return square(int(text[1]), COLUMNS.index(text[0]))


BB_ALL = (1 << (SIZE * SIZE)) - 1
BB_SQUARES = tuple(1 << sq for sq in SQUARES)


def _neighbours(sq: int) -> int:
    row, col = square_row(sq), square_col(sq)
    mask = 0
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            r, c = row + dr, col + dc
            if (dr or dc) and 0 <= r < SIZE and 0 <= c < SIZE:
                mask |= BB_SQUARES[square(r, c)]
    return mask


BB_NEIGHBOURS = tuple(_neighbours(sq) for sq in SQUARES)


def count(mask: int) -> int:
    return mask.bit_count()


def _squares_of(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def opponent(piece: str) -> str:
    return RED if piece == BLACK else BLACK


def _cell(sq: int) -> str:
    return f"({square_row(sq)}, {square_col(sq)})"


# ---- moves and positions ----------------------------------------------------------------------


class Move(NamedTuple):
    """A drop (``source`` is None) or a slide from ``source`` to ``to``."""

    to: int
    source: int | None = None

    def __str__(self) -> str:
        if self.source is None:
            return square_name(self.to)
        return f"{square_name(self.source)}-{square_name(self.to)}"

    def student(self) -> list[tuple[int, int]]:
        """The move in the course's format: ``[(row, col)]`` or ``[(row, col), (source)]``."""
        squares = [self.to] if self.source is None else [self.to, self.source]
        return [(square_row(sq), square_col(sq)) for sq in squares]


class Position(NamedTuple):
    """Both sides' markers as masks, the side to move and the rules in force."""

    black: int
    red: int
    turn: str
    variant: Variant

    @property
    def occupied(self) -> int:
        return self.black | self.red

    def pieces(self, piece: str) -> int:
        return self.black if piece == BLACK else self.red

    def __repr__(self) -> str:
        return f"parse_position({position_text(self)!r}, {self.variant.name!r})"


class Termination(Enum):
    """Why a game ended."""

    GOAL = "goal"  # a side holds one of the variant's goals
    PLY_CAP = "ply cap"  # the graded game reached its ply limit: a draw


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: str | None  # None for a draw


class BoardError(ValueError):
    """A 5x5 board that is not a position of the game."""


def start(variant: Variant) -> Position:
    return Position(0, 0, BLACK, variant)


def is_drop_phase(pos: Position) -> bool:
    """True while the side to move still has markers to place."""
    return count(pos.pieces(pos.turn)) < MARKERS


def phase(pos: Position) -> str:
    """The rubric's name for the phase of ``pos``: ``"drop"`` or ``"move"``."""
    return "drop" if is_drop_phase(pos) else "move"


def legal_moves(pos: Position) -> Iterator[Move]:
    """Every legal move for the side to move, drops in square order, slides by source then target.

    Generated whether or not the game is already over: ask :func:`outcome` first.
    """
    empty = ~pos.occupied & BB_ALL
    own = pos.pieces(pos.turn)
    if count(own) < MARKERS:
        for to in _squares_of(empty):
            yield Move(to)
        return
    for source in _squares_of(own):
        for to in _squares_of(BB_NEIGHBOURS[source] & empty):
            yield Move(to, source)


def is_legal(pos: Position, move: Move) -> bool:
    try:
        check_move(pos, move)
    except IllegalMoveError:
        return False
    return True


def check_move(pos: Position, move: Move) -> None:
    """Accept a move of the side to move silently.

    :raises IllegalMoveError: with the rule it breaks, squares written ``(row, col)``.
    """
    to, source = move
    for sq in (to, source):
        if sq is not None and not 0 <= sq < SIZE * SIZE:
            raise IllegalMoveError(f"square {sq!r} is off the board")
    occupied = pos.occupied
    if source is None:
        if not is_drop_phase(pos):
            raise IllegalMoveError(
                "all 8 markers are down, so this is the move phase: move one of your markers "
                "to an adjacent empty square with [(row, col), (source_row, source_col)] "
                "instead of placing a new one"
            )
    else:
        if is_drop_phase(pos):
            raise IllegalMoveError(
                f"the drop phase takes exactly one (row, col): you have "
                f"{count(pos.pieces(pos.turn))} of {MARKERS} markers down, so place a new one "
                f"instead of moving {_cell(source)}"
            )
        if not pos.pieces(pos.turn) & BB_SQUARES[source]:
            held = "empty" if not occupied & BB_SQUARES[source] else "the opponent's marker"
            raise IllegalMoveError(
                f"{_cell(source)} is not one of your markers (it is {held}){_swapped(pos, move)}"
            )
    if occupied & BB_SQUARES[to]:
        raise IllegalMoveError(f"{_cell(to)} is occupied")
    if source is not None and not BB_NEIGHBOURS[source] & BB_SQUARES[to]:
        raise IllegalMoveError(f"{_cell(to)} is not adjacent to {_cell(source)}{_wrapped(move)}")


def _swapped(pos: Position, move: Move) -> str:
    """A hint when the move is legal the other way round: the marker's square given first."""
    to, source = move
    if (
        source is None
        or not pos.pieces(pos.turn) & BB_SQUARES[to]
        or pos.occupied & BB_SQUARES[source]
        or not BB_NEIGHBOURS[to] & BB_SQUARES[source]
    ):
        return ""
    return (
        f"; the other way round, {_cell(to)} to {_cell(source)}, is legal: a move names the "
        "square to move to first, then the marker's square"
    )


def _wrapped(move: Move) -> str:
    """A hint when the two squares are neighbours only if the board's sides met: a step off
    one side of a flat list of squares comes back on the other."""
    to, source = move
    if source is None:
        return ""
    rows = abs(square_row(to) - square_row(source))
    if rows > 2 or {square_col(to), square_col(source)} != {0, SIZE - 1}:
        return ""
    return " (a step off one side of the board does not come back on the other)"


def play(pos: Position, move: Move) -> Position:
    """The position after ``move``, which the caller has checked is legal."""
    to, source = move
    lift = 0 if source is None else BB_SQUARES[source]
    drop = BB_SQUARES[to]
    if pos.turn == BLACK:
        return Position((pos.black & ~lift) | drop, pos.red, RED, pos.variant)
    return Position(pos.black, (pos.red & ~lift) | drop, BLACK, pos.variant)


def has_goal(pos: Position, piece: str) -> bool:
    own = pos.pieces(piece)
    occupied = pos.occupied
    index = pos.variant.by_squares
    if index is not None and own.bit_count() <= MARKERS:  # only a goal's own four squares
        return any(not occupied & e for e in index.get(own, ()))
    return any(own & s == s and not occupied & e for s, e in pos.variant.masks)


def winner(pos: Position) -> str | None:
    """The side holding a goal; when both do, the side that just moved (it completed the other's
    goal by vacating a centre, and its own by the same move)."""
    black, red = has_goal(pos, BLACK), has_goal(pos, RED)
    if black and red:
        return opponent(pos.turn)
    if black:
        return BLACK
    return RED if red else None


def outcome(pos: Position, plies: int = 0, ply_cap: int | None = None) -> Outcome | None:
    """How the game stands after ``plies`` plies: a win, a draw at the cap, or None to go on."""
    side = winner(pos)
    if side is not None:
        return Outcome(Termination.GOAL, side)
    if ply_cap is not None and plies >= ply_cap:
        return Outcome(Termination.PLY_CAP, None)
    return None


# the rules as every game is played; the result is the winner (the ply cap is the referee's)
RULES: Rules[Position, Move, Variant] = Rules(PIECES, start, legal_moves, play, winner)


# ---- the student move format ------------------------------------------------------------------


def _items(size: int) -> str:
    return f"a list of {size} item" + ("" if size == 1 else "s")


def _as_index(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise MalformedMoveError(f"{what} is {value!r}, a bool: booleans are not integers")
    if isinstance(value, int):
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise MalformedMoveError(f"{what} should be an int, got {shown(value)}") from None


def read_student_move(raw: Any, pos: Position) -> Move:
    """Interpret ``make_move``'s return value as a move for the side to move, and check it.

    Lenient about container types (a tuple instead of the list, lists instead of tuples,
    numpy integers): those cost format points (see :func:`format_problem`), not legality.

    :raises MalformedMoveError: when the value is not a list of (row, col) pairs of integers.
    :raises IllegalMoveError: when it is a move the rules forbid here.
    """
    if not isinstance(raw, list | tuple):
        raise MalformedMoveError(
            f"make_move must return a list like [(row, col)], got {shown(raw)}"
        )
    if not 1 <= len(raw) <= 2:
        phase = "drop" if is_drop_phase(pos) else "move"
        expected = "[(row, col)]" if phase == "drop" else "[(row, col), (source_row, source_col)]"
        raise MalformedMoveError(f"the {phase} phase takes {expected}, got {_items(len(raw))}")
    squares = []
    for index, item in enumerate(raw):
        label = "the destination" if index == 0 else "the source"
        if not isinstance(item, list | tuple) or len(item) != 2:
            raise MalformedMoveError(f"{label} should be a (row, col) pair, got {shown(item)}")
        row = _as_index(item[0], f"the row of {label}")
        col = _as_index(item[1], f"the column of {label}")
        for axis, value in (("row", row), ("column", col)):
            if not 0 <= value < SIZE:
                raise IllegalMoveError(f"{axis} {value} is off the board ({axis}s are 0-4)")
        squares.append(square(row, col))
    move = Move(squares[0], squares[1] if len(squares) == 2 else None)
    check_move(pos, move)
    return move


def format_problem(raw: Any, pos: Position) -> str | None:
    """What keeps ``raw`` from the exact format of the course, or None when it has it.

    Exact means: a ``list`` holding one ``tuple`` of two ``int`` in the drop phase, or two such
    tuples (destination, then source) in the move phase.
    """
    if type(raw) is not list:
        return f"make_move should return a list, got {shown(raw)}"
    expected = 1 if is_drop_phase(pos) else 2
    if len(raw) != expected:
        shape = "[(row, col)]" if expected == 1 else "[(row, col), (source_row, source_col)]"
        phase = "drop" if expected == 1 else "move"
        return f"the {phase} phase move should be {shape}, got {_items(len(raw))}"
    for item in raw:
        if type(item) is not tuple:
            return f"each square should be a tuple (row, col), got {shown(item)}"
        if len(item) != 2 or any(type(v) is not int for v in item):
            return f"each square should be a tuple of two ints, got {shown(item)}"
    return None


# ---- the course's 5x5 board and text forms ----------------------------------------------------


def from_board(board: Any, variant: Variant, turn: str | None = None) -> Position:
    """The position shown by a course board (5 lists of 5 of ``' '``, ``'b'``, ``'r'``).

    ``turn`` may be omitted in the drop phase, where the counts decide it (black moves first).

    :raises BoardError: naming the row and column that is wrong, or why the counts cannot occur.
    """
    if not isinstance(board, list | tuple) or len(board) != SIZE:
        raise BoardError(f"a board is {SIZE} rows of {SIZE} cells, got {shown(board)}")
    black = red = 0
    for row, cells in enumerate(board):
        if not isinstance(cells, list | tuple) or len(cells) != SIZE:
            raise BoardError(f"row {row} should hold {SIZE} cells, got {shown(cells)}")
        for col, cell in enumerate(cells):
            if cell == BLACK:
                black |= BB_SQUARES[square(row, col)]
            elif cell == RED:
                red |= BB_SQUARES[square(row, col)]
            elif cell != EMPTY:
                raise BoardError(f"cell ({row}, {col}) holds {cell!r}; use ' ', 'b' or 'r'")
    return _position(black, red, turn, variant)


def _position(black: int, red: int, turn: str | None, variant: Variant) -> Position:
    nb, nr = count(black), count(red)
    if nb > MARKERS or nr > MARKERS:
        raise BoardError(f"each side has {MARKERS} markers, got {nb} black and {nr} red")
    if nb - nr not in (0, 1):
        raise BoardError(f"{nb} black and {nr} red markers cannot occur: black moves first")
    drop_turn = BLACK if nb == nr else RED
    if turn is None:
        if nb + nr == 2 * MARKERS:
            raise BoardError("in the move phase the side to move must be given")
        turn = drop_turn
    if turn not in PIECES:
        raise BoardError(f"the side to move is 'b' or 'r', got {turn!r}")
    if nb + nr < 2 * MARKERS and turn != drop_turn:
        raise BoardError(f"with {nb} black and {nr} red markers it is {drop_turn!r} to move")
    return Position(black, red, turn, variant)


def to_board(pos: Position) -> list[list[str]]:
    """A fresh course board (lists of lists, never shared with anything else)."""
    return [
        [
            BLACK
            if pos.black >> square(r, c) & 1
            else RED
            if pos.red >> square(r, c) & 1
            else EMPTY
            for c in range(SIZE)
        ]
        for r in range(SIZE)
    ]


def render(pos: Position) -> str:
    """The board as the course's ``print_board`` shows it, without a final newline."""
    lines = [f"{r}: " + "".join(cell + " " for cell in row) for r, row in enumerate(to_board(pos))]
    lines.append("   A B C D E")
    return "\n".join(lines)


def position_text(pos: Position) -> str:
    """25 characters ``b``/``r``/``.`` row-major, a space and the side to move: ``'b....… r'``."""
    cells = "".join(
        BLACK if pos.black >> sq & 1 else RED if pos.red >> sq & 1 else "." for sq in SQUARES
    )
    return f"{cells} {pos.turn}"


def parse_position(text: str, variant: Variant | str) -> Position:
    """The inverse of :func:`position_text`.

    :raises BoardError: saying which part of the text is wrong.
    """
    if isinstance(variant, str):
        variant = find_variant(variant)
    parts = text.split()
    if len(parts) != 2 or len(parts[0]) != SIZE * SIZE:
        raise BoardError(
            f"{text!r} is not a position: write 25 characters of b, r or . (row 0 first), "
            "a space and the side to move"
        )
    cells, turn = parts
    black = red = 0
    for sq, char in enumerate(cells):
        if char == BLACK:
            black |= BB_SQUARES[sq]
        elif char == RED:
            red |= BB_SQUARES[sq]
        elif char != ".":
            raise BoardError(f"character {sq + 1} of the position is {char!r}; use b, r or .")
    return _position(black, red, turn, variant)
