"""Teeko's opponents, weakest first: a random player, a greedy one and a plain minimax.

Each is a function ``(position, rng) -> move`` that runs in the grader, seeded by the referee.
The perfect player comes from the oracle (``autograder.oracle``), a layer above.
"""

from __future__ import annotations

import random

from autograder.games import minimax
from autograder.games.pack import Opponent
from autograder.games.teeko.rules import (
    Move,
    Position,
    legal_moves,
    opponent,
    play,
    winner,
)

__all__ = ["greedy_opponent", "RULES", "OPPONENTS"]


def _wins(pos: Position, move: Move) -> bool:
    return winner(play(pos, move)) == pos.turn


def _loses_at_once(pos: Position, move: Move) -> bool:
    """The move hands the game over: it completes the other side's goal, or lets it win next."""
    after = play(pos, move)
    side = winner(after)
    if side is not None:
        return side != pos.turn
    return any(_wins(after, reply) for reply in legal_moves(after))


def greedy_opponent(pos: Position, rng: random.Random) -> Move:
    """Takes a win in one; otherwise avoids moves that lose at once (so it blocks); else random."""
    moves = list(legal_moves(pos))
    wins = [m for m in moves if _wins(pos, m)]
    if wins:
        return rng.choice(wins)
    safe = [m for m in moves if not _loses_at_once(pos, m)]
    return rng.choice(safe or moves)


def _evaluate(pos: Position) -> int:
    """For the side to move: goals still open to one side only, weighted by markers on them."""
    own, theirs = pos.pieces(pos.turn), pos.pieces(opponent(pos.turn))
    total = 0
    for squares, _ in pos.variant.masks:
        mine, yours = (own & squares).bit_count(), (theirs & squares).bit_count()
        if not yours:
            total += mine * mine
        elif not mine:
            total -= yours * yours
    return total


RULES: minimax.Rules = (winner, legal_moves, play, lambda pos: pos.turn, _evaluate)
# id -> (how reports call it, the opponent): the ladder of ``check --ladder``, weakest first
OPPONENTS: dict[str, tuple[str, Opponent[Position, Move]]] = minimax.ladder(RULES, greedy_opponent)
