"""Teeko and its variants solved whole: ``load(variant)`` reads a table built by
``autograder oracle build`` (docs/oracle.md), which answers every position.

Only building a table needs numpy; loading and lookups are pure Python. The pack offers the
tables as ``TABLES`` and a loaded one as its perfect player.
"""

from typing import Any

from autograder.games.perfect import Tables
from autograder.games.teeko.rules import parse_position
from autograder.games.teeko.solved.cache import ENV_VAR, cache_dir, cache_path
from autograder.games.teeko.solved.codes import verdict
from autograder.games.teeko.solved.core import Oracle, build, load, preference, resolve_game
from autograder.games.teeko.solved.game import Game, game_for, slide_goals
from autograder.games.teeko.variants import VARIANTS

__all__ = [
    "ENV_VAR",
    "TABLES",
    "Game",
    "Oracle",
    "build",
    "cache_dir",
    "cache_path",
    "game_for",
    "load",
    "preference",
    "slide_goals",
]


def _describe(stats: dict[str, Any]) -> str:
    start = verdict(stats.get("start", 0))
    start_text = start.value + (f" in {start.plies} plies" if start.plies is not None else "")
    return (
        f"start position: {start_text}; longest forced win in the move phase: "
        f"{stats.get('longest_move_phase_win')} plies"
    )


TABLES = Tables(
    names=tuple(VARIANTS),
    resolve=lambda name: resolve_game(name).name,
    path=cache_path,
    load=load,
    build=build,
    read_position=parse_position,
    query_format="25 characters b, r or . (row 0 first), a space and the side to move",
    describe=_describe,
)
