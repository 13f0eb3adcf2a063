"""Othello on a square board of any even size: pure rules on integer bitboards.

A position is two bitboards (black's discs, white's), the side to move and the variant. The
square at row ``r``, column ``c`` (row 0 at the top, as it is printed) is bit ``r * size + c``,
so a step in a direction is a shift, masked where it would wrap round an edge.

The game starts with four discs in the centre, white on the top-left and bottom-right of
them, black on the other two; black moves first. A move puts a disc of the side to move on
an empty square that outflanks one or more of the opponent's discs: a straight line of them
(across, down or diagonal) closed at the far end by one of the mover's discs. Every disc so
outflanked turns over. A side without such a square passes (``PASS``, a move); the game ends
when neither side can move, and the side with more discs wins.

The student's board (``to_board``) is the course's: a list of ``size`` rows, each a list of
``size`` one-character strings, ``' '``, ``'b'`` or ``'w'``. A move is ``(row, col)``.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from autograder.games import pack
from autograder.games.grid import EMPTY, BoardError, grid_text, read_grid, text_grid
from autograder.games.pack import IllegalMoveError, MalformedMoveError, Outcome, shown

BLACK, WHITE = "b", "w"
PIECES = (BLACK, WHITE)  # black moves first
PASS = "pass"  # the move of a side that has no square to play: the turn goes to the other

Move = tuple[int, int] | str  # (row, col), or PASS


@dataclass(frozen=True, slots=True)
class Variant:
    """A ``size`` × ``size`` board (even, 4 or more)."""

    name: str
    size: int
    aliases: tuple[str, ...] = ()
    player_class: str = "OthelloPlayer"
    description: str = ""
    full: int = field(init=False, repr=False, compare=False)  # every square
    # per direction: how far a bit moves (negative: right) and the squares it may land on
    steps: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        size = self.size
        if size < 4 or size % 2:
            raise ValueError(f"an Othello board is even and at least 4 squares wide, not {size}")
        full = (1 << size * size) - 1
        left = sum(1 << (r * size) for r in range(size))  # column 0
        right = left << (size - 1)  # the last column
        steps = []
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr or dc:
                    mask = full & ~(left if dc == 1 else right if dc == -1 else 0)
                    steps.append((dr * size + dc, mask))
        object.__setattr__(self, "full", full)
        object.__setattr__(self, "steps", tuple(steps))
        if not self.description:
            object.__setattr__(self, "description", f"{size}×{size} board, most discs wins")

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"

    def bit(self, row: int, col: int) -> int:
        return 1 << (row * self.size + col)


class Position(NamedTuple):
    black: int
    white: int
    turn: str
    variant: Variant

    def discs(self, piece: str) -> int:
        return self.black if piece == BLACK else self.white

    @property
    def occupied(self) -> int:
        return self.black | self.white

    @property
    def plies(self) -> int:
        """Discs played (passes are not counted)."""
        return self.occupied.bit_count() - 4

    def __repr__(self) -> str:
        return f"parse_position({position_text(self)!r}, {self.variant.name!r})"


def opponent(piece: str) -> str:
    return WHITE if piece == BLACK else BLACK


def start(variant: Variant) -> Position:
    low, high = variant.size // 2 - 1, variant.size // 2
    white = variant.bit(low, low) | variant.bit(high, high)
    black = variant.bit(low, high) | variant.bit(high, low)
    return Position(black, white, BLACK, variant)


def _mover(pos: Position) -> tuple[int, int]:
    """The side to move's discs and the other side's."""
    return (pos.black, pos.white) if pos.turn == BLACK else (pos.white, pos.black)


def moves_mask(mine: int, theirs: int, variant: Variant) -> int:
    """Every square where ``mine`` outflanks some of ``theirs``, as a bitboard."""
    empty = variant.full & ~(mine | theirs)
    found = 0
    reach = variant.size - 3  # the longest run of their discs a move can outflank, less one
    for step, mask in variant.steps:
        if step > 0:
            run = (mine << step) & mask & theirs
            for _ in range(reach):
                run |= (run << step) & mask & theirs
            found |= (run << step) & mask & empty
        else:
            back = -step
            run = (mine >> back) & mask & theirs
            for _ in range(reach):
                run |= (run >> back) & mask & theirs
            found |= (run >> back) & mask & empty
    return found


def flips(mine: int, theirs: int, square: int, variant: Variant) -> int:
    """The discs of ``theirs`` that a disc of ``mine`` on ``square`` (a bit) turns over."""
    turned = 0
    for step, mask in variant.steps:
        line = 0
        at = ((square << step) if step > 0 else (square >> -step)) & mask
        while at & theirs:
            line |= at
            at = ((at << step) if step > 0 else (at >> -step)) & mask
        if at & mine:
            turned |= line
    return turned


def _squares(mask: int, size: int) -> list[tuple[int, int]]:
    found = []
    while mask:
        low = mask & -mask
        found.append(divmod(low.bit_length() - 1, size))
        mask ^= low
    return found


def is_over(pos: Position) -> bool:
    """Neither side has a square to play."""
    mine, theirs = _mover(pos)
    variant = pos.variant
    return not moves_mask(mine, theirs, variant) and not moves_mask(theirs, mine, variant)


def must_pass(pos: Position) -> bool:
    """The side to move has no square, and the other side has one."""
    mine, theirs = _mover(pos)
    variant = pos.variant
    return not moves_mask(mine, theirs, variant) and bool(moves_mask(theirs, mine, variant))


def legal_moves(pos: Position) -> list[Move]:
    """The squares the side to move may play, row by row; ``[PASS]`` when it has none and the
    game goes on; none when the game is over."""
    mine, theirs = _mover(pos)
    found = moves_mask(mine, theirs, pos.variant)
    if found:
        return list(_squares(found, pos.variant.size))
    return [PASS] if moves_mask(theirs, mine, pos.variant) else []


def play(pos: Position, move: Move) -> Position:
    """The position after the side to move plays ``move`` (checked legal)."""
    nxt = opponent(pos.turn)
    if isinstance(move, str):  # PASS
        return pos._replace(turn=nxt)
    row, col = move
    variant = pos.variant
    square = variant.bit(row, col)
    mine, theirs = _mover(pos)
    turned = flips(mine, theirs, square, variant)
    mine, theirs = mine | square | turned, theirs & ~turned
    if pos.turn == BLACK:
        return Position(mine, theirs, nxt, variant)
    return Position(theirs, mine, nxt, variant)


def outcome(pos: Position) -> Outcome | None:
    """Who won a finished game and why, by the count of discs; None while it goes on."""
    if not is_over(pos):
        return None
    black, white = pos.black.bit_count(), pos.white.bit_count()
    if black == white:
        return Outcome(None, f"equal discs: {black} to {white}")
    winner = BLACK if black > white else WHITE
    return Outcome(winner, f"more discs: {max(black, white)} to {min(black, white)}")


def result(pos: Position) -> str | None:
    """The side with more discs once neither can move, ``pack.DRAW`` for equal counts, None
    while the game goes on."""
    return pack.result_of(outcome(pos))


def perft(pos: Position, depth: int) -> int:
    """Move sequences of ``depth`` plies from ``pos``, a pass counted as a ply; a game that
    ends sooner counts none."""
    if depth == 0:
        return 1
    moves = legal_moves(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, move), depth - 1) for move in moves)


RULES: pack.Rules[Position, Move, Variant] = pack.Rules(PIECES, start, legal_moves, play, result)
random_position = RULES.random_position  # ``plies`` random moves (passes too), or None


# ---- the student's move ------------------------------------------------------------------------


def read_student_move(raw: Any, pos: Position, caller: str = "make_move") -> Move:
    """``caller``'s return value as a move, checked against the rules.

    Lenient about the container (a list) and integer types (numpy integers): those cost
    format points (see :func:`format_problem`), not legality. ``PASS`` is read as a pass (the
    referee plays a forced pass itself: a student is never asked for one).

    :raises MalformedMoveError: when the value is no pair of integers.
    :raises IllegalMoveError: when the square is off the board, taken or outflanks nothing, or
        the side passes while it has a square to play.
    """
    size = pos.variant.size
    if isinstance(raw, str) and raw == PASS:
        if legal_moves(pos) != [PASS]:
            raise IllegalMoveError(f"{caller} passed, but it has a square to play")
        return PASS
    if not isinstance(raw, list | tuple) or len(raw) != 2:
        raise MalformedMoveError(
            f"{caller} should return a square as (row, col), a tuple of two ints, got {shown(raw)}"
        )
    try:
        if any(isinstance(x, bool) for x in raw):
            raise TypeError
        row, col = operator.index(raw[0]), operator.index(raw[1])
    except TypeError:
        raise MalformedMoveError(
            f"{caller} should return (row, col) with two ints, got {shown(raw)}"
        ) from None
    if not (0 <= row < size and 0 <= col < size):
        raise IllegalMoveError(
            f"({row}, {col}) is off the board (rows and columns are 0-{size - 1})"
        )
    if pos.occupied & pos.variant.bit(row, col):
        raise IllegalMoveError(f"({row}, {col}) already holds a disc")
    if (row, col) not in legal_moves(pos):
        raise IllegalMoveError(
            f"({row}, {col}) outflanks no disc of the opponent's: a move must turn one over"
        )
    return (row, col)


def format_problem(raw: Any, pos: Position, caller: str = "make_move") -> str | None:
    """What keeps ``raw`` from the exact format, a tuple of two plain ints; None when it has
    it (a pass has it too)."""
    if isinstance(raw, str) and raw == PASS:
        return None
    if type(raw) is not tuple or len(raw) != 2 or any(type(x) is not int for x in raw):
        return f"{caller} should return a tuple of two plain ints (row, col), got {shown(raw)}"
    return None


# ---- the course's board and text forms --------------------------------------------------------


def from_board(board: Any, variant: Variant, turn: str) -> Position:
    """The position a course board shows (see the module's docstring), ``turn`` to move: a
    pass can leave either side to move, so the counts cannot tell.

    :raises BoardError: naming the row and column that is wrong, or why no game shows it.
    """
    black, white = read_grid(board, variant.size, variant.size, PIECES, variant.bit)
    centre = start(variant).occupied
    if (black | white) & centre != centre:
        raise BoardError("the four centre squares always hold a disc: the game starts there")
    return Position(black, white, turn, variant)


def to_board(pos: Position) -> list[list[str]]:
    """A fresh course board (never shared with anything else)."""
    size, variant = pos.variant.size, pos.variant
    return [
        [
            BLACK
            if pos.black & variant.bit(r, c)
            else WHITE
            if pos.white & variant.bit(r, c)
            else EMPTY
            for c in range(size)
        ]
        for r in range(size)
    ]


def render(pos: Position) -> str:
    """The board as the starter's ``print_board`` prints it: column numbers above, each row
    after its number."""
    size = pos.variant.size
    lines = ["   " + " ".join(str(c % 10) for c in range(size))]
    lines += [f"{r % 10} |" + "|".join(row) + "|" for r, row in enumerate(to_board(pos))]
    return "\n".join(lines)


def position_text(pos: Position) -> str:
    """One line: the rows top first, '.' for empty, '/' between rows, then the side to move."""
    return f"{grid_text(to_board(pos))} {pos.turn}"


def parse_position(text: str, variant: Variant | str) -> Position:
    """The position ``position_text`` wrote.

    :raises BoardError: when the text is no board of the variant.
    """
    from autograder.games.othello.variants import find_variant

    found = find_variant(variant) if isinstance(variant, str) else variant
    rows, _, turn = text.strip().partition(" ")
    if turn not in PIECES:
        raise BoardError(f"the side to move is {BLACK!r} or {WHITE!r}, got {turn!r}")
    return from_board(text_grid(rows), found, turn)
