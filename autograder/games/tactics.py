"""Tactical probes, for any game: a win in one to take, a threat to block.

Decided exactly from the pack's own rules, one and two plies deep, so they need no solver: a
position is a *win in 1* when a move of the side to move ends the game in its favour, and a
*block* when it has no such move but some of its moves let the other side win at once and
some do not. A move solves a win in 1 when it wins, and a block when the other side then has
no winning move.
"""

from __future__ import annotations

import random
from typing import Any

from autograder.games.pack import GamePack

__all__ = ["KINDS", "classify", "tactic_positions", "solved"]

KINDS = {
    "win in 1": "you can win with this move",
    "block": "the opponent wins next move unless you stop it",
}
_TRIES = 20_000  # random positions looked at for each tactic


def _wins(pack: GamePack, pos: Any, move: Any) -> bool:
    return pack.result(pack.play(pos, move)) == pack.turn(pos)


def _lets_win(pack: GamePack, pos: Any, move: Any) -> bool:
    """After ``move`` the other side can win at once."""
    after = pack.play(pos, move)
    if pack.result(after) is not None:
        return False
    return any(_wins(pack, after, reply) for reply in pack.legal_moves(after))


def classify(pack: GamePack, pos: Any) -> str | None:
    """The tactic ``pos`` holds for the side to move, or None."""
    if pack.result(pos) is not None:
        return None
    moves = list(pack.legal_moves(pos))
    if any(_wins(pack, pos, move) for move in moves):
        return "win in 1"
    losing = [_lets_win(pack, pos, move) for move in moves]
    return "block" if any(losing) and not all(losing) else None


def tactic_positions(pack: GamePack, variant: Any, seed: int, count: int) -> list[tuple[str, Any]]:
    """``count`` seeded positions from random play, the kinds taking turns (fewer when random
    play does not turn them up)."""
    rng = random.Random(f"tactics:{seed}")
    found: list[tuple[str, Any]] = []
    kinds = list(KINDS)
    for index in range(count):
        wanted = kinds[index % len(kinds)]
        for _ in range(_TRIES):
            pos = pack.random_position(variant, rng, rng.randint(4, 40))
            if pos is not None and classify(pack, pos) == wanted:
                found.append((wanted, pos))
                break
    return found


def solved(pack: GamePack, kind: str, pos: Any, move: Any) -> bool:
    """Whether ``move`` (legal) does what the tactic asks."""
    if kind == "win in 1":
        return _wins(pack, pos, move)
    return not _lets_win(pack, pos, move)
