"""The Kalah boards the pack knows by name.

``kalah`` is the common game, 6 pits a side with 4 seeds in each; ``kalah-6x3`` sows 3 seeds a
pit (a shorter game) and ``kalah-4x4`` has 4 pits a side (a small board, for tests and quick
games). A variant is data: a course adds one with a line here.
"""

from __future__ import annotations

from autograder.games.kalah.rules import Variant
from autograder.games.pack import by_name

__all__ = ["VARIANTS"]

VARIANTS: dict[str, Variant] = by_name(
    Variant(
        "kalah",
        6,
        4,
        "6 pits a side, 4 seeds in each (the common game): an extra turn, captures",
        aliases=("mancala", "kalah-6x4"),
    ),
    Variant("kalah-6x3", 6, 3),
    Variant("kalah-4x4", 4, 4),
)
