"""What a game-tree search needs to know about a two-player board game.

The search functions in minimax.py only ever talk to a game through the ``Board`` interface
below, so the same search plays tic-tac-toe (tictactoe.py), Connect Four (connectfour.py) or
any other game that implements it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import NewType

# A move is a plain int; each game decides what it means (a square, a column, ...).
Move = NewType("Move", int)


class Piece:
    """A player's token. Every game defines its own pieces (as an Enum) on top of this."""

    @property
    def opposite(self) -> Piece:
        """The piece of the other player: who moves after this one."""
        raise NotImplementedError("each game's Piece subclass must define opposite")


class Board(ABC):
    """One position of a game, together with whose turn it is.

    Boards never change: ``move`` hands back a new board and leaves this one as it was.
    """

    @property
    @abstractmethod
    def turn(self) -> Piece:
        """The piece of the player who moves next."""
        ...

    @property
    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every move the player to move may make here (empty once the board is full)."""
        ...

    @property
    @abstractmethod
    def is_win(self) -> bool:
        """True when a player has won: the one who made the last move."""
        ...

    @property
    def is_draw(self) -> bool:
        """True when nobody has won and nobody can move any more."""
        # Same answer as "not is_win and no legal moves"; looking at the moves first spares
        # the (usually dearer) win test on every board that is not full.
        return len(self.legal_moves) == 0 and not self.is_win

    @abstractmethod
    def move(self, location: Move) -> Board:
        """The board after the player to move plays ``location``; this board stays as it is."""
        ...

    @abstractmethod
    def evaluate(self, player: Piece) -> float:
        """How good this board is for ``player``: positive is good for them, negative bad."""
        ...
