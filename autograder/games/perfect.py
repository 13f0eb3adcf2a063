"""Perfect play, as a pack offers it: what a perfect player answers, what a tactics solver
answers, and what solved tables the ``autograder oracle`` commands build and read.

Game-free: each game's own perfect-play code lives in its package (Teeko's solved tables in
``autograder/games/teeko/solved/``, Connect Four's solver in
``autograder/games/connect4/solver.py``) and reaches the kit through its pack's ``perfect``,
``exact`` and ``tables`` fields (:class:`~autograder.games.pack.GamePack`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from autograder.errors import GraderError

__all__ = [
    "WIN",
    "DRAW",
    "LOSS",
    "Verdict",
    "OracleError",
    "Perfect",
    "Exact",
    "Table",
    "Tables",
]

WIN, DRAW, LOSS = "win", "draw", "loss"

_P = TypeVar("_P", contravariant=True)  # a position, as the pack's
_M = TypeVar("_M", covariant=True)  # a move, as the pack's


class Verdict(NamedTuple):
    """The value of a position for the side to move, and the plies left with best play."""

    value: str  # WIN, DRAW or LOSS
    plies: int | None  # None for a draw

    def after_move(self) -> Verdict:
        """The verdict for the side that moved into a position worth ``self`` to its opponent."""
        if self.plies is None:
            return self
        return Verdict(LOSS if self.value == WIN else WIN, self.plies + 1)


class OracleError(GraderError):
    """No perfect play here: a table missing, damaged or built for other rules, a position out
    of a solver's reach, or a game without one; the message says which."""


class Perfect(Protocol[_P, _M]):
    """What the kit asks of perfect play (Teeko's solved table, Connect Four's solver). A
    solver that answers only some positions in good time also has ``solvable(position)``."""

    def value(self, position: _P) -> Verdict: ...

    def move_values(self, position: _P) -> Sequence[tuple[_M, Verdict]]: ...

    def best_moves(self, position: _P) -> Sequence[_M]: ...


# A position -> every legal move with its outcome for the side making it ("win", "draw" or
# "loss", both sides playing perfectly after it), or None when the solver cannot reach it.
Exact = Callable[[Any], Sequence[tuple[Any, str]] | None]


class Table(Protocol):
    """A solved table as ``autograder oracle query|info`` reads it."""

    @property
    def name(self) -> str: ...  # the variant it solves

    @property
    def stats(self) -> dict[str, Any]: ...  # the build's figures ("start", "seconds", ...)

    def value(self, position: Any) -> Verdict: ...


@dataclass(frozen=True)
class Tables:
    """The solved tables of a pack's variants, built once by ``autograder oracle build`` and
    read by ``query`` and ``info`` (docs/oracle.md)."""

    names: tuple[str, ...]  # the variants with a table, in the order a build takes them
    resolve: Callable[[str], str]  # a variant's name or alias -> its name; raises OracleError
    path: Callable[[str], Path]  # a variant's name -> its table file
    load: Callable[[str], Table]  # a variant's name -> its table; raises OracleError
    # a variant's name -> its build, reporting progress (``stage``, ``detail``, ``fraction``,
    # ``stats`` at the end); saves the table when run to its end; raises OracleError
    build: Callable[[str], Iterator[Any]]
    # a query line, a variant's name -> a position; raises ValueError saying what is wrong
    read_position: Callable[[str, str], Any]
    query_format: str  # what a query line holds, for --help
    # a table's build figures (``Table.stats``) in words, for build and info: "start position:
    # draw; longest forced win in the move phase: 35 plies"
    describe: Callable[[dict[str, Any]], str]
