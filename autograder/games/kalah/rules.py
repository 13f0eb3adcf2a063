"""Kalah (Mancala's common rules) as pure functions over an immutable position.

Two sides, south (``'S'``, first to move) and north (``'N'``), each own a row of ``pits``
pits and a store; every pit starts with ``seeds`` seeds and the stores empty. The board is
the course's: ``board[0]`` is south's row and ``board[1]`` north's, each its pits in sowing
order and then its store (``board[row][pits]``). Drawn with south at the bottom, pits run left
to right along the bottom and right to left along the top: sowing is counter-clockwise.

* A move takes every seed from one of your non-empty pits (``0`` to ``pits - 1``, your own
  row's index) and sows them one a pit, onward from the next pit: the rest of your pits, your
  store, the other side's pits, past the other side's store (never sown), your pits again.
* The last seed in your own store: you move again (an extra turn).
* The last seed in one of your own pits that was empty, with seeds in the pit opposite (the
  other side's pit across the board, ``pits - 1 - i`` of its row): both that seed and the
  opposite pit's seeds go to your store (a capture). Opposite an empty pit, the seed stays.
* The game ends when the side to move has no seed in its pits: every seed still in a pit goes
  to the store of the side whose pit it is. More seeds in the store wins; equal is a draw.

Positions are frozen (``play`` returns a new one), so the referee can compare before and after
and the search can hash them. A move is the pit's index, an int.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from autograder.games.pack import (
    IllegalMoveError,
    Outcome,
    Rules,
    plain_int,
    result_of,
    whole_number,
)

SOUTH, NORTH = "S", "N"
PIECES = (SOUTH, NORTH)  # south moves first


@dataclass(frozen=True)
class Variant:
    """A board: ``pits`` pits a side, ``seeds`` seeds in each at the start."""

    name: str
    pits: int
    seeds: int
    description: str = ""
    player_class: str = "KalahPlayer"
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.description:
            object.__setattr__(
                self, "description", f"{self.pits} pits a side, {self.seeds} seeds in each"
            )


@dataclass(frozen=True)
class Position:
    """``board``: south's row then north's, each ``pits`` pits and a store; ``turn``: the
    side to move."""

    variant: Variant = field(repr=False)
    board: tuple[tuple[int, ...], tuple[int, ...]]
    turn: str

    def row(self, side: str) -> tuple[int, ...]:
        return self.board[PIECES.index(side)]

    def __repr__(self) -> str:
        return (
            f"from_board({[list(r) for r in self.board]!r}, {self.turn!r}, {self.variant.name!r})"
        )


def opponent(side: str) -> str:
    return NORTH if side == SOUTH else SOUTH


def start(variant: Variant) -> Position:
    row = (variant.seeds,) * variant.pits + (0,)
    return Position(variant, (row, row), SOUTH)


def legal_moves(pos: Position) -> list[int]:
    """The side to move's non-empty pits, in order; none when the game is over."""
    return [pit for pit, seeds in enumerate(pos.row(pos.turn)[:-1]) if seeds]


def sow(pos: Position, pit: int) -> tuple[Position, tuple[int, int]]:
    """``pit`` sown by the side to move (checked legal), with its capture, the turn passed on
    (or kept: the last seed in its own store) and, when the side to move then has no seed,
    the end-of-game sweep; and the cell (row, index) where the last seed landed."""
    pits, me = pos.variant.pits, PIECES.index(pos.turn)
    board = [list(pos.board[0]), list(pos.board[1])]
    hand, board[me][pit] = board[me][pit], 0
    row, col = me, pit
    while hand:
        col += 1
        if col > pits or (col == pits and row != me):  # past a store, or the other's store
            row, col = 1 - row, 0
        board[row][col] += 1
        hand -= 1
    across = pits - 1 - col
    if row == me and col < pits and board[row][col] == 1 and board[1 - me][across]:
        board[me][pits] += 1 + board[1 - me][across]
        board[row][col] = board[1 - me][across] = 0
    turn = pos.turn if (row, col) == (me, pits) else opponent(pos.turn)
    if not any(board[PIECES.index(turn)][:pits]):  # the side to move has no seed: it is over
        for side in board:
            side[pits] += sum(side[:pits])
            side[:pits] = [0] * pits
    after = Position(pos.variant, (tuple(board[0]), tuple(board[1])), turn)
    return after, (row, col)


def play(pos: Position, pit: int) -> Position:
    """The position after the side to move sows ``pit`` (checked legal)."""
    return sow(pos, pit)[0]


def stores(pos: Position) -> tuple[int, int]:
    """South's and north's seeds when the game ends here: each store with its own side's
    pits (what the sweep gives it)."""
    return sum(pos.board[0]), sum(pos.board[1])


def _over(pos: Position) -> bool:
    return not any(pos.row(pos.turn)[:-1])


def result(pos: Position) -> str | None:
    """The side with more seeds once the side to move has none in its pits, DRAW when equal,
    None while the game goes on."""
    return result_of(outcome(pos))


def outcome(pos: Position) -> Outcome | None:
    """How the game ended, in seeds: "more seeds: 26 to 22"; None while it goes on."""
    if not _over(pos):
        return None
    south, north = stores(pos)
    if south == north:
        return Outcome(None, f"equal seeds: {south} to {north}")
    return Outcome(
        SOUTH if south > north else NORTH, f"more seeds: {max(south, north)} to {min(south, north)}"
    )


RULES: Rules[Position, int, Variant] = Rules(PIECES, start, legal_moves, play, result)
random_position = RULES.random_position  # ``plies`` random moves from the start, or None


# ---- the student's move ------------------------------------------------------------------------


def read_student_move(raw: Any, pos: Position) -> int:
    """``make_move``'s return value as a pit, checked against the rules.

    Lenient about integer types (a numpy integer is still a pit): those cost format points
    (see :func:`format_problem`), not legality.

    :raises MalformedMoveError: when the value is not an integer (a bool, a str, a list).
    :raises IllegalMoveError: when the pit is off the board or empty.
    """
    pits = pos.variant.pits
    pit = whole_number(raw, "make_move", "pit")
    if not 0 <= pit < pits:
        raise IllegalMoveError(f"pit {pit} is off the board (your pits are 0-{pits - 1})")
    if not pos.row(pos.turn)[pit]:
        raise IllegalMoveError(f"pit {pit} is empty: a move sows the seeds of a non-empty pit")
    return pit


def format_problem(raw: Any, pos: Position) -> str | None:
    """What keeps ``raw`` from the exact format, a plain ``int``; None when it has it."""
    return plain_int(raw, "make_move")


# ---- the course's board and text forms --------------------------------------------------------


def to_board(pos: Position) -> list[list[int]]:
    """The course's board: ``[south's pits and store, north's pits and store]``."""
    return [list(pos.board[0]), list(pos.board[1])]


def from_board(board: Any, turn: str, variant: Variant) -> Position:
    """The position a course board shows, ``turn`` to move (for tests and probes).

    :raises ValueError: naming the row that is not ``pits`` counts and a store.
    """
    rows = tuple(tuple(int(seeds) for seeds in row) for row in board)
    for side, row in zip(PIECES, rows, strict=True):
        if len(row) != variant.pits + 1 or min(row) < 0:
            raise ValueError(f"{side}'s row {list(row)} is not {variant.pits} pits and a store")
    return Position(variant, (rows[0], rows[1]), turn)


def render(pos: Position) -> str:
    """The board as the course's ``print_board`` prints it: north's pits along the top, right
    to left, south's along the bottom, the stores at the ends, pit numbers outside."""
    pits = pos.variant.pits
    south, north = pos.board
    numbers = "".join(f" {i:2} " for i in range(pits))
    return "\n".join(
        [
            "    " + "".join(f" {i:2} " for i in reversed(range(pits))) + "  north's pits",
            "    " + "".join(f"[{n:2}]" for n in reversed(north[:pits])),
            f"N{north[pits]:3}" + " " * (4 * pits) + f"{south[pits]:3} S",
            "    " + "".join(f"[{s:2}]" for s in south[:pits]),
            "    " + numbers + "  south's pits",
        ]
    )
