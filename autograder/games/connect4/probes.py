"""The positions a Connect Four submission is asked to move from: seeded, from random play.

A third of them have a full column, so a player that ignores the height of the columns is
caught; the rest come from random games of every length, so both colours are asked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from autograder.games.connect4.rules import Position, Variant, legal_moves, random_position

__all__ = ["probe_positions", "has_full_column"]

_TRIES = 10_000  # random games tried per probe before giving up on a full column


def has_full_column(pos: Position) -> bool:
    return len(legal_moves(pos)) < pos.variant.columns


def probe_positions(variant: Variant, seed: int, counts: Mapping[str, int]) -> list[Position]:
    """``counts["play"]`` positions from seeded random games (never a finished one)."""
    rng = random.Random(f"probes:{seed}:{variant.name}")
    cells = variant.columns * variant.rows
    positions: list[Position] = []
    for index in range(counts.get("play", 0)):
        want_full = index % 3 == 0
        for _ in range(_TRIES):
            plies = rng.randint(2 * variant.rows if want_full else 0, cells - 4)
            found = random_position(variant, rng, plies)
            if found is not None and (has_full_column(found) or not want_full):
                positions.append(found)
                break
    return positions
