"""The positions a Kalah submission is asked to move from: seeded, from random play.

Half of them have an empty pit on the mover's side, so a player that sows any pit at all is
caught; the rest come from random games of every length, so both sides are asked.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from autograder.games.kalah.rules import Position, Variant, random_position

__all__ = ["probe_positions"]

_TRIES = 10_000  # random games tried per probe before giving up on an empty pit


def _has_empty_pit(pos: Position) -> bool:
    return 0 in pos.row(pos.turn)[:-1]


def probe_positions(variant: Variant, seed: int, counts: Mapping[str, int]) -> list[Position]:
    """``counts["play"]`` positions from seeded random games (never a finished one)."""
    rng = random.Random(f"probes:{seed}:{variant.name}")
    positions: list[Position] = []
    for index in range(counts.get("play", 0)):
        want_empty = index % 2 == 0
        for _ in range(_TRIES):
            found = random_position(variant, rng, rng.randint(0, 4 * variant.pits))
            if found is not None and (_has_empty_pit(found) or not want_empty):
                positions.append(found)
                break
    return positions
