"""Perfect play for the rest of the kit: the oracle of an assignment, and a player from it."""

from __future__ import annotations

import random

from autograder.games.pack import Assignment, Opponent
from autograder.games.teeko.rules import Move, Position
from autograder.oracle.cache import OracleError
from autograder.oracle.core import Oracle, load

__all__ = ["oracle_for", "perfect_opponent", "PERFECT"]

PERFECT = "the perfect player"  # how reports call it


def oracle_for(assignment: Assignment) -> Oracle:
    """The solved table of ``assignment``.

    :raises OracleError: when its game has no oracle, or the table is missing or damaged
        (the message says how to build it).
    """
    if assignment.pack.name != "teeko":
        raise OracleError(f"there is no perfect player for {assignment.pack.title} yet")
    return load(assignment.variant)


def perfect_opponent(oracle: Oracle) -> Opponent:
    """Plays a move that keeps the true value (quickest win, slowest loss), from the oracle."""

    def choose(pos: Position, rng: random.Random) -> Move:
        return rng.choice(oracle.best_moves(pos))

    return choose
