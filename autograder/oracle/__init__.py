"""The oracle: Teeko and its variants solved exactly, for move-quality feedback and a perfect
player. ``load(variant)`` reads a table built by ``autograder oracle build``; see docs/oracle.md.

Only building needs numpy; loading and lookups are pure Python.
"""

from autograder.oracle.cache import ENV_VAR, OracleError, cache_dir, cache_path
from autograder.oracle.codes import DRAW, LOSS, WIN, Verdict
from autograder.oracle.core import Oracle, build, load, preference
from autograder.oracle.game import Game, game_for, slide_goals
from autograder.oracle.player import PERFECT, oracle_for, perfect_opponent

__all__ = [
    "ENV_VAR",
    "PERFECT",
    "DRAW",
    "LOSS",
    "WIN",
    "Game",
    "Oracle",
    "OracleError",
    "Verdict",
    "build",
    "cache_dir",
    "cache_path",
    "game_for",
    "load",
    "oracle_for",
    "perfect_opponent",
    "preference",
    "slide_goals",
]
