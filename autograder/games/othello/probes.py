"""The positions an Othello submission is asked to move from: seeded, from random play.

A third of them come right after the opponent passed, so the side to move is the one that
moved last and the count of discs does not tell whose turn it is: a player that works out
its colour from the board instead of ``self.my_piece`` is caught. The rest come from random
games of every length, so both colours are asked. None is a position where the side to move
must pass: the referee plays a forced pass itself and never asks the student for it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from autograder.games.othello.rules import (
    PASS,
    Position,
    Variant,
    legal_moves,
    play,
    start,
)

__all__ = ["probe_positions", "after_pass"]

_TRIES = 10_000  # random games tried per probe before giving up on a pass


def after_pass(variant: Variant, rng: random.Random) -> Position | None:
    """The position just after a pass in a seeded random game (the passing side's opponent to
    move and able to), or None when the game had no pass."""
    pos = start(variant)
    while moves := legal_moves(pos):
        move = rng.choice(moves)
        pos = play(pos, move)
        if move == PASS:
            return pos
    return None


def _playable(variant: Variant, rng: random.Random) -> Position | None:
    """A position from a random game of random length where the side to move has a square."""
    pos = start(variant)
    for _ in range(rng.randrange(variant.size * variant.size - 4)):
        moves = legal_moves(pos)
        if not moves:
            return None
        pos = play(pos, rng.choice(moves))
    return pos if legal_moves(pos) not in ([], [PASS]) else None


def probe_positions(variant: Variant, seed: int, counts: Mapping[str, int]) -> list[Position]:
    """``counts["play"]`` positions from seeded random games, each with a square to play."""
    rng = random.Random(f"probes:{seed}:{variant.name}")
    positions: list[Position] = []
    for index in range(counts.get("play", 0)):
        find = after_pass if index % 3 == 0 else _playable
        for _ in range(_TRIES):
            found = find(variant, rng)
            if found is not None:
                positions.append(found)
                break
    return positions
