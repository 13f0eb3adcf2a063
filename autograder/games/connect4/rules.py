"""Connect Four on any board: pure rules on integer bitboards.

A position is two bitboards (red's discs, yellow's) and the side to move. Bits are laid out
column by column from the bottom, ``rows + 1`` bits per column (the extra bit stays empty),
so a column's discs are a run of low bits and a line of discs is a run of equal shifts:
``1`` up a column, ``rows + 1`` along a row, ``rows + 2`` and ``rows`` along the diagonals.

The student's board (``to_board``) is the course's: a list of ``rows`` rows, row 0 at the
top as it is printed, each a list of ``columns`` one-character strings, ``' '``, ``'r'`` or
``'y'``. A disc dropped into a column lands on the lowest empty row, the largest row index.
Red moves first. A move is a column index, 0 at the left.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from autograder.games import pack
from autograder.games.grid import EMPTY, BoardError, grid_text, read_grid, text_grid
from autograder.games.pack import (
    IllegalMoveError,
    plain_int,
    whole_number,
)

RED, YELLOW = "r", "y"
PIECES = (RED, YELLOW)  # red moves first


@dataclass(frozen=True, slots=True)
class Variant:
    """A board: ``columns`` × ``rows``, ``connect`` in a line to win."""

    name: str
    columns: int
    rows: int
    connect: int = 4
    aliases: tuple[str, ...] = ()
    player_class: str = "Connect4Player"
    description: str = ""
    # Derived masks, built once: the bottom cell of each column, every playable cell.
    height: int = field(init=False, repr=False, compare=False)
    bottom: tuple[int, ...] = field(init=False, repr=False, compare=False)
    full: int = field(init=False, repr=False, compare=False)
    column_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    bottoms: int = field(init=False, repr=False, compare=False)  # every column's bottom cell
    shifts: tuple[int, ...] = field(init=False, repr=False, compare=False)  # along each line

    def __post_init__(self) -> None:
        height = self.rows + 1
        bottom = tuple(1 << (c * height) for c in range(self.columns))
        column = (1 << self.rows) - 1
        masks = tuple(column << (c * height) for c in range(self.columns))
        object.__setattr__(self, "height", height)
        object.__setattr__(self, "bottom", bottom)
        object.__setattr__(self, "column_masks", masks)
        object.__setattr__(self, "full", sum(masks))
        object.__setattr__(self, "bottoms", sum(bottom))
        object.__setattr__(self, "shifts", (1, height, height + 1, height - 1))
        if not self.description:
            object.__setattr__(
                self,
                "description",
                f"{self.columns} columns by {self.rows} rows, {self.connect} in a line wins",
            )

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"

    def cell(self, row: int, col: int) -> int:
        """The bit of the student's (row, col): row 0 is the top row."""
        return 1 << (col * self.height + self.rows - 1 - row)


class Position(NamedTuple):
    red: int
    yellow: int
    turn: str
    variant: Variant

    @property
    def occupied(self) -> int:
        return self.red | self.yellow

    def discs(self, piece: str) -> int:
        return self.red if piece == RED else self.yellow

    @property
    def plies(self) -> int:
        return self.occupied.bit_count()

    def __repr__(self) -> str:
        return f"parse_position({position_text(self)!r}, {self.variant.name!r})"


def opponent(piece: str) -> str:
    return YELLOW if piece == RED else RED


def start(variant: Variant) -> Position:
    return Position(0, 0, RED, variant)


def _top_free(pos: Position, col: int) -> int:
    """The bit where a disc dropped into ``col`` lands (past the column when it is full)."""
    column = pos.occupied & pos.variant.column_masks[col]
    return column + pos.variant.bottom[col]


def is_legal(pos: Position, col: int) -> bool:
    variant = pos.variant
    return 0 <= col < variant.columns and bool(_top_free(pos, col) & variant.column_masks[col])


def legal_moves(pos: Position) -> list[int]:
    """The columns that are not full, left to right; listed even when the game is over."""
    variant = pos.variant
    landing = (pos.occupied + variant.bottoms) & variant.full  # where each column's next disc goes
    return [c for c, mask in enumerate(variant.column_masks) if landing & mask]


def play(pos: Position, col: int) -> Position:
    """The position after dropping a disc of the side to move into ``col`` (checked legal)."""
    disc = _top_free(pos, col)
    if pos.turn == RED:
        return Position(pos.red | disc, pos.yellow, YELLOW, pos.variant)
    return Position(pos.red, pos.yellow | disc, RED, pos.variant)


def _has_line(discs: int, variant: Variant) -> bool:
    if variant.connect == 4:  # the usual case, unrolled: about twice as fast
        for shift in variant.shifts:
            pairs = discs & (discs >> shift)
            if pairs & (pairs >> 2 * shift):
                return True
        return False
    for shift in variant.shifts:
        run = discs
        for _ in range(variant.connect - 1):
            run &= run >> shift
        if run:
            return True
    return False


def lines(variant: Variant) -> list[int]:
    """Every winning line of ``variant``, each the bitboard of its ``connect`` cells: the runs
    of equal ``shifts`` that ``winner`` looks for, in the order of ``shifts`` (up a column,
    along a row, then the two diagonals), each direction from its lowest bit."""
    found = []
    for shift in variant.shifts:
        for start_bit in range(variant.columns * variant.height):
            bits = [start_bit + step * shift for step in range(variant.connect)]
            mask = sum(1 << bit for bit in bits)
            if all(bit < variant.columns * variant.height for bit in bits) and (
                mask & variant.full == mask
            ):
                found.append(mask)
    return found


def winner(pos: Position) -> str | None:
    """The side holding a line (only the side that just moved can have made one)."""
    for piece in (opponent(pos.turn), pos.turn):
        if _has_line(pos.discs(piece), pos.variant):
            return piece
    return None


def is_full(pos: Position) -> bool:
    return pos.occupied == pos.variant.full


def result(pos: Position) -> str | None:
    """The winner, ``pack.DRAW`` for a full board without a line, or None while it goes on."""
    side = winner(pos)
    if side is not None:
        return side
    return pack.DRAW if is_full(pos) else None


def winning_moves(pos: Position) -> list[int]:
    """The columns where the side to move completes a line at once."""
    return [c for c in legal_moves(pos) if winner(play(pos, c)) == pos.turn]


def perft(pos: Position, depth: int) -> int:
    """Move sequences of ``depth`` plies from ``pos``, a game ending at a line or a full board."""
    if depth == 0:
        return 1
    if result(pos) is not None:
        return 0
    if depth == 1:
        return len(legal_moves(pos))
    return sum(perft(play(pos, c), depth - 1) for c in legal_moves(pos))


RULES: pack.Rules[Position, int, Variant] = pack.Rules(PIECES, start, legal_moves, play, result)
random_position = RULES.random_position  # ``plies`` random moves from the start, or None


# ---- the student's move ------------------------------------------------------------------------


def read_student_move(raw: Any, pos: Position, caller: str = "make_move") -> int:
    """``caller``'s return value as a column, checked against the rules.

    Lenient about integer types (a numpy integer is still a column): those cost format
    points (see :func:`format_problem`), not legality.

    :raises MalformedMoveError: when the value is not an integer (a bool, a str, a list).
    :raises IllegalMoveError: when the column is off the board or full.
    """
    columns = pos.variant.columns
    col = whole_number(raw, caller, "column")
    if not 0 <= col < columns:
        raise IllegalMoveError(f"column {col} is off the board (columns are 0-{columns - 1})")
    if not is_legal(pos, col):
        raise IllegalMoveError(
            f"column {col} is full: all {pos.variant.rows} of its rows hold a disc"
        )
    return col


def format_problem(raw: Any, pos: Position, caller: str = "make_move") -> str | None:
    """What keeps ``raw`` from the exact format, a plain ``int``; None when it has it."""
    return plain_int(raw, caller)


# ---- the course's board and text forms --------------------------------------------------------


def from_board(board: Any, variant: Variant, turn: str | None = None) -> Position:
    """The position a course board shows (see the module's docstring).

    ``turn`` may be omitted: the counts decide it (red moves first).

    :raises BoardError: naming the row and column that is wrong, or why no game shows it.
    """
    red, yellow = read_grid(board, variant.rows, variant.columns, PIECES, variant.cell)
    return _position(red, yellow, turn, variant)


def _position(red: int, yellow: int, turn: str | None, variant: Variant) -> Position:
    occupied = red | yellow
    for col, mask in enumerate(variant.column_masks):
        column = (occupied & mask) >> (col * variant.height)
        if column & (column + 1):
            raise BoardError(f"column {col} has a disc above an empty cell")
    reds, yellows = red.bit_count(), yellow.bit_count()
    if reds - yellows not in (0, 1):
        raise BoardError(
            f"red has {reds} discs and yellow {yellows}: red moves first, so red has as many "
            "as yellow or one more"
        )
    expected = RED if reds == yellows else YELLOW
    if turn is not None and turn != expected:
        raise BoardError(f"with {reds} red and {yellows} yellow discs it is {expected} to move")
    if _has_line(red, variant) and _has_line(yellow, variant):
        raise BoardError("both sides hold a line: the game ended at the first of them")
    if _has_line(red if expected == RED else yellow, variant):
        raise BoardError(
            f"{expected} holds a line and is to move: the game ended when that line was made"
        )
    return Position(red, yellow, expected, variant)


def to_board(pos: Position) -> list[list[str]]:
    """A fresh course board (never shared with anything else)."""
    variant = pos.variant
    return [
        [
            RED
            if pos.red & variant.cell(r, c)
            else YELLOW
            if pos.yellow & variant.cell(r, c)
            else EMPTY
            for c in range(variant.columns)
        ]
        for r in range(variant.rows)
    ]


def render(pos: Position) -> str:
    """The board as the starter's ``print_board`` prints it: rows top first, column numbers."""
    lines = ["|" + "|".join(row) + "|" for row in to_board(pos)]
    lines.append(" " + " ".join(str(c % 10) for c in range(pos.variant.columns)))
    return "\n".join(lines)


def position_text(pos: Position) -> str:
    """One line: the rows top first, '.' for empty, '/' between rows."""
    return grid_text(to_board(pos))


def parse_position(text: str, variant: Variant | str) -> Position:
    """The position ``position_text`` wrote.

    :raises BoardError: when the text is no board of the variant.
    """
    from autograder.games.connect4.variants import find_variant

    found = find_variant(variant) if isinstance(variant, str) else variant
    return from_board(text_grid(text.strip()), found)
