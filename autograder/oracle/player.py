"""Perfect play for the rest of the kit: the oracle of an assignment, and a player from it.

Teeko's oracle is a solved table: it answers every position. Connect Four's is a solver that
answers the positions within its reach (``solvable``); the extras ask only those.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from autograder.games.connect4.rules import Position
from autograder.games.connect4.rules import Variant as Connect4Variant
from autograder.games.pack import Assignment, Opponent
from autograder.games.tactics import Exact
from autograder.oracle.cache import OracleError
from autograder.oracle.codes import Verdict
from autograder.oracle.connect4 import Solver
from autograder.oracle.core import load

__all__ = [
    "Perfect",
    "oracle_for",
    "perfect_opponent",
    "within_reach",
    "tactics_solver",
    "PERFECT",
    "TACTICS_NODES",
]

PERFECT = "the perfect player"  # how reports call it


class Perfect(Protocol):
    """What the kit asks of perfect play (``autograder.oracle.core.Oracle`` and ``Solver``)."""

    def value(self, position: Any) -> Verdict: ...

    def move_values(self, position: Any) -> list[tuple[Any, Verdict]]: ...

    def best_moves(self, position: Any) -> list[Any]: ...


def oracle_for(assignment: Assignment) -> Perfect:
    """Perfect play for ``assignment``.

    :raises OracleError: when its game has none, or Teeko's table is missing or damaged (the
        message says how to build it).
    """
    if assignment.pack.name == "teeko":
        return load(assignment.variant)
    if isinstance(assignment.variant, Connect4Variant):  # the course's and the book's boards
        return Solver(assignment.variant)
    raise OracleError(f"there is no perfect player for {assignment.pack.title} yet")


def within_reach(oracle: Perfect, position: Any) -> bool:
    """Whether ``oracle`` can be asked about ``position`` in good time (a table: always)."""
    solvable = getattr(oracle, "solvable", None)
    return True if solvable is None else bool(solvable(position))


def perfect_opponent(oracle: Perfect) -> Opponent:
    """Plays a move that keeps the true value (quickest win, slowest loss), from the oracle."""

    def choose(pos: Any, rng: random.Random) -> Any:
        return rng.choice(oracle.best_moves(pos))

    return choose


# Nodes the solver may spend on one tactical position (all its moves together): about 2 s of
# pure Python; a position that needs more is not asked. Nodes, not seconds, so the probes of a
# seed are the same on a busy machine.
TACTICS_NODES = 200_000


def tactics_solver(assignment: Assignment) -> Exact | None:
    """Each legal move's exact outcome on a tactical position, for the referee to pick and
    judge its tactical probes by; None when the game has no solver here (Teeko's table is not
    loaded for this: its tactics are judged by the rules).

    Connect Four boards (the course's and the book's) are solved by search: a fresh solver per
    call of this function, so a submission's probes do not depend on what was solved before.
    """
    variant = assignment.variant
    if not isinstance(variant, Connect4Variant):
        return None
    solver = Solver(variant, node_limit=TACTICS_NODES)

    def exact(pos: Position) -> list[tuple[int, str]] | None:
        if not solver.solvable(pos):
            return None
        try:
            return [(column, verdict.value) for column, verdict in solver.move_values(pos)]
        except OracleError:
            return None

    return exact
