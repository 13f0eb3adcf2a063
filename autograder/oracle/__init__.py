"""The oracle: perfect play, for move-quality feedback and a perfect player. Teeko and its
variants are solved whole: ``load(variant)`` reads a table built by ``autograder oracle build``
(docs/oracle.md). Connect Four is solved position by position where that is in reach
(``Connect4Solver``, docs/connect4-solver.md).

Only building Teeko's tables needs numpy; loading and lookups are pure Python.
"""

from autograder.oracle.cache import ENV_VAR, OracleError, cache_dir, cache_path
from autograder.oracle.codes import DRAW, LOSS, WIN, Verdict
from autograder.oracle.connect4 import Solver as Connect4Solver
from autograder.oracle.core import Oracle, build, load, preference
from autograder.oracle.game import Game, game_for, slide_goals
from autograder.oracle.player import PERFECT, Perfect, oracle_for, perfect_opponent, within_reach

__all__ = [
    "ENV_VAR",
    "PERFECT",
    "DRAW",
    "LOSS",
    "WIN",
    "Game",
    "Connect4Solver",
    "Oracle",
    "OracleError",
    "Perfect",
    "Verdict",
    "build",
    "cache_dir",
    "cache_path",
    "game_for",
    "load",
    "oracle_for",
    "perfect_opponent",
    "preference",
    "within_reach",
    "slide_goals",
]
