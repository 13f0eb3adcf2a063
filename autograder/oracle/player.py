"""Perfect play for the rest of the kit: the oracle of an assignment, and a player from it.

Each pack says what perfect play it has (``GamePack.perfect`` and ``exact``): Teeko's is a
solved table that answers every position, Connect Four's a solver that answers the positions
within its reach (``solvable``); the extras ask only those.
"""

from __future__ import annotations

import random
from typing import Any

from autograder.games.pack import Assignment, Opponent
from autograder.games.perfect import Exact, OracleError, Perfect

__all__ = [
    "Perfect",
    "oracle_for",
    "perfect_opponent",
    "within_reach",
    "tactics_solver",
    "PERFECT",
]

PERFECT = "the perfect player"  # how reports call it


def oracle_for(assignment: Assignment) -> Perfect[Any, Any]:
    """Perfect play for ``assignment``.

    :raises OracleError: when its game has none, or its table is missing or damaged (the
        message says how to build it).
    """
    found = assignment.game.perfect(assignment.variant)
    if found is None:
        raise OracleError(f"there is no perfect player for {assignment.pack.title} yet")
    return found


def within_reach(oracle: Perfect[Any, Any], position: Any) -> bool:
    """Whether ``oracle`` can be asked about ``position`` in good time (a table: always)."""
    solvable = getattr(oracle, "solvable", None)
    return True if solvable is None else bool(solvable(position))


def perfect_opponent(oracle: Perfect[Any, Any]) -> Opponent[Any, Any]:
    """Plays a move that keeps the true value (quickest win, slowest loss), from the oracle."""

    def choose(pos: Any, rng: random.Random) -> Any:
        return rng.choice(oracle.best_moves(pos))

    return choose


def tactics_solver(assignment: Assignment) -> Exact | None:
    """Each legal move's exact outcome on a tactical position, for the referee to pick and
    judge its tactical probes by; None when the game has no solver for it (Teeko's table is
    not loaded for this: its tactics are judged by the rules). A fresh one per call."""
    return assignment.game.exact(assignment.variant)
