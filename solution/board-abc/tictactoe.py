"""Tic-tac-toe on the Board interface.

The nine squares are numbered row by row, and a move is the number of a square:

    0|1|2
    -----
    3|4|5
    -----
    6|7|8

X moves first.
"""

from __future__ import annotations

from enum import Enum

from board import Board, Move, Piece


class TTTPiece(Piece, Enum):
    X = "X"
    O = "O"  # noqa: E741 - the letter O is the piece's name in the game
    E = " "  # an empty square

    @property
    def opposite(self) -> TTTPiece:
        """X and O take turns; an empty square has no opponent and stays empty."""
        if self is TTTPiece.X:
            return TTTPiece.O
        if self is TTTPiece.O:
            return TTTPiece.X
        return TTTPiece.E

    def __str__(self) -> str:
        return str(self.value)


# The eight lines of three: the rows, the columns and the two diagonals.
LINES: tuple[tuple[int, int, int], ...] = (
    (0, 1, 2),
    (3, 4, 5),
    (6, 7, 8),
    (0, 3, 6),
    (1, 4, 7),
    (2, 5, 8),
    (0, 4, 8),
    (2, 4, 6),
)


class TTTBoard(Board):
    """A tic-tac-toe position: ``position`` lists the nine squares, ``turn`` moves next."""

    # The default list is created once and shared by every board built without a position,
    # so no method may ever change self.position in place: move() works on a copy.
    def __init__(
        self,
        position: list[TTTPiece] = [TTTPiece.E] * 9,  # noqa: B006 - never mutated, see above
        turn: TTTPiece = TTTPiece.X,
    ) -> None:
        self.position: list[TTTPiece] = position
        self._turn: TTTPiece = turn

    @property
    def turn(self) -> Piece:
        return self._turn

    def move(self, location: Move) -> Board:
        """A new board with the mover's piece on square ``location``; self is unchanged."""
        if not 0 <= location < len(self.position) or self.position[location] is not TTTPiece.E:
            raise ValueError(f"square {location} is not a legal move")
        new_position: list[TTTPiece] = self.position.copy()
        new_position[location] = self._turn
        return TTTBoard(new_position, self._turn.opposite)

    @property
    def legal_moves(self) -> list[Move]:
        """The empty squares, smallest number first."""
        return [Move(square) for square, piece in enumerate(self.position) if piece is TTTPiece.E]

    @property
    def is_win(self) -> bool:
        """True when one line of three holds the same piece (X or O) three times."""
        cells = self.position
        for a, b, c in LINES:
            if cells[a] is not TTTPiece.E and cells[a] is cells[b] and cells[a] is cells[c]:
                return True
        return False

    def evaluate(self, player: Piece) -> float:
        """1 if ``player`` has won, -1 if they have lost, 0 otherwise.

        The winner is always the player who moved last, that is the one whose turn it is not.
        """
        if self.is_win:
            return -1 if self._turn == player else 1
        return 0

    def __repr__(self) -> str:
        p = self.position
        return f"""{p[0]}|{p[1]}|{p[2]}
-----
{p[3]}|{p[4]}|{p[5]}
-----
{p[6]}|{p[7]}|{p[8]}"""
