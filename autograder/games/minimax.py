"""The ladder's plain minimax player, for any game: fixed depth, no pruning, no tricks.

A game gives its rules and an evaluation for the side to move; the player scores each move by
minimax from its own side's view and picks at random among the best (with the referee's
generator). Whose turn it is comes from the position, ply by ply: the searching side takes the
best of its moves and the other side the worst for it, so a side that moves twice in a row
(Kalah's extra turn, a pass of the other side) searches both of its moves as its own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from autograder.games.pack import DRAW, Opponent

__all__ = ["WIN", "Rules", "minimax", "minimax_opponent", "ladder"]

WIN = 1_000_000  # a won game's score; an evaluation stays well inside it

Rules = tuple[
    Callable[[Any], str | None],  # result: the winner, DRAW, or None while it goes on
    Callable[[Any], Iterable[Any]],  # legal_moves
    Callable[[Any, Any], Any],  # play
    Callable[[Any], str],  # turn: the side to move
    Callable[[Any], int],  # evaluate, for the side to move (the other side's is its negative)
]


def minimax(pos: Any, depth: int, rules: Rules, side: str) -> int:
    """The value of ``pos`` for ``side``, ``depth`` plies deep: ``side`` maximises on the plies
    it makes and minimises on the other side's; a position with no move and no result is 0."""
    result, legal_moves, play, turn, evaluate = rules
    over = result(pos)
    if over is not None:
        return 0 if over == DRAW else (WIN if over == side else -WIN)
    mine = turn(pos) == side
    if depth == 0:
        return evaluate(pos) if mine else -evaluate(pos)
    values = [minimax(play(pos, m), depth - 1, rules, side) for m in legal_moves(pos)]
    return (max if mine else min)(values, default=0)


def minimax_opponent(rules: Rules, depth: int) -> Opponent[Any, Any]:
    """The player that scores each of its moves by :func:`minimax` ``depth - 1`` plies below
    it, for the side to move, and picks among the best at random."""
    _, legal_moves, play, turn, _ = rules

    def choose(pos: Any, rng: random.Random) -> Any:
        side = turn(pos)
        scored = [(minimax(play(pos, m), depth - 1, rules, side), m) for m in legal_moves(pos)]
        best = max(score for score, _ in scored)
        return rng.choice([m for score, m in scored if score == best])

    return choose


def ladder(rules: Rules, greedy: Opponent[Any, Any]) -> dict[str, tuple[str, Opponent[Any, Any]]]:
    """A game's opponents, weakest first (the ladder of ``check --ladder``), id -> (how reports
    call it, the player): the course's random player (a uniformly random legal move, the one
    graded games are played against), the game's ``greedy`` player and the depth-2 minimax
    player on ``rules``."""
    legal_moves = rules[1]

    def random_player(pos: Any, rng: random.Random) -> Any:
        return rng.choice(list(legal_moves(pos)))

    return {
        "random": ("the random player", random_player),
        "greedy": ("the greedy player", greedy),
        "minimax2": ("the depth-2 minimax player", minimax_opponent(rules, 2)),
    }
