"""The ladder's plain minimax player, for any game: fixed depth, no pruning, no tricks.

A game gives its rules and an evaluation for the side to move; the player scores each move by
negamax and picks at random among the best (with the referee's generator).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from autograder.games.pack import DRAW, Opponent

__all__ = ["WIN", "negamax", "minimax_opponent"]

WIN = 1_000_000  # a won game's score; an evaluation stays well inside it


def negamax(
    pos: Any,
    depth: int,
    rules: tuple[
        Callable[[Any], str | None],  # result
        Callable[[Any], Iterable[Any]],  # legal_moves
        Callable[[Any, Any], Any],  # play
        Callable[[Any], int],  # evaluate, for the side to move
    ],
) -> int:
    """The value of ``pos`` for the side to move, ``depth`` plies deep."""
    result, legal_moves, play, evaluate = rules
    over = result(pos)
    if over is not None:
        return 0 if over == DRAW else (WIN if over == _turn(pos) else -WIN)
    if depth == 0:
        return evaluate(pos)
    return max(-negamax(play(pos, m), depth - 1, rules) for m in legal_moves(pos))


def _turn(pos: Any) -> Any:
    return pos.turn


def minimax_opponent(
    legal_moves: Callable[[Any], Iterable[Any]],
    play: Callable[[Any, Any], Any],
    value: Callable[[Any, int], int],
    depth: int,
) -> Opponent[Any, Any]:
    """The player that scores each move by ``value(position after it, depth - 1)`` (the
    other side's value: lower is better) and picks among the best at random."""

    def choose(pos: Any, rng: random.Random) -> Any:
        scored = [(-value(play(pos, m), depth - 1), m) for m in legal_moves(pos)]
        best = max(score for score, _ in scored)
        return rng.choice([m for score, m in scored if score == best])

    return choose
