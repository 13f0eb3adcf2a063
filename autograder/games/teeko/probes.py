"""Seeded, reachable, non-terminal Teeko positions: the probes every submission must move from.

Random games from the start, with the generator seeded by the grader: the same seed gives the
same positions on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from autograder.games.teeko.rules import RULES, Position
from autograder.games.teeko.variants import Variant

__all__ = ["random_position", "probe_positions"]


random_position = RULES.random_position  # ``plies`` random moves from the start, or None


def probe_positions(variant: Variant, seed: int, counts: Mapping[str, int]) -> list[Position]:
    """``counts["drop"]`` positions from the drop phase, then ``counts["move"]`` after it.

    Drop probes cycle through 0-7 markers on the board, so both colours are asked; move probes
    come from random games 8 to 40 plies long.
    """
    drop, move = counts.get("drop", 0), counts.get("move", 0)
    rng = random.Random(f"probes:{seed}")
    positions: list[Position] = []
    index = 0
    while len(positions) < drop:
        found = random_position(variant, rng, index % 8)
        index += 1
        if found is not None:
            positions.append(found)
    while len(positions) < drop + move:
        found = random_position(variant, rng, rng.randint(8, 40))
        if found is not None:
            positions.append(found)
    return positions
