"""The oracle: perfect play, for move-quality feedback and a perfect player, and the
``autograder oracle build|query|info`` commands over solved tables.

It names no game: each pack offers its own perfect play (``GamePack.perfect``, ``exact`` and
``tables``; Teeko's solved tables in ``autograder/games/teeko/solved/``, Connect Four's solver
in ``autograder/games/connect4/solver.py``), and this package finds it through the registered
packs.
"""

from autograder.games.perfect import DRAW, LOSS, WIN, OracleError, Perfect, Verdict
from autograder.oracle.player import (
    PERFECT,
    oracle_for,
    perfect_opponent,
    tactics_solver,
    within_reach,
)

__all__ = [
    "PERFECT",
    "DRAW",
    "LOSS",
    "WIN",
    "OracleError",
    "Perfect",
    "Verdict",
    "oracle_for",
    "perfect_opponent",
    "tactics_solver",
    "within_reach",
]
