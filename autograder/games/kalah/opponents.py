"""The Kalah opponents: the random player of the graded games and the ladder's rungs.

Each is ``(position, the referee's generator) -> pit`` and runs in the grader. The minimax
rung is the kit's shared one (``games/minimax.py``): it asks each position whose turn it is,
so a move that earns an extra turn is searched as two moves of the same side.
"""

from __future__ import annotations

import random

from autograder.games import minimax
from autograder.games.kalah.rules import Position, legal_moves, opponent, play, result
from autograder.games.pack import Opponent

__all__ = ["greedy_opponent", "RULES", "OPPONENTS"]


def _lead(pos: Position, side: str) -> int:
    """``side``'s seeds in its store less the other side's."""
    return pos.row(side)[-1] - pos.row(opponent(side))[-1]


def greedy_opponent(pos: Position, rng: random.Random) -> int:
    """Takes an extra turn when it can; otherwise the move that gains it most seeds in its
    store (a capture); ties at random."""
    moves = legal_moves(pos)
    again = [m for m in moves if play(pos, m).turn == pos.turn and result(play(pos, m)) is None]
    if again:
        return rng.choice(again)
    scored = [(_lead(play(pos, m), pos.turn), m) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best])


def _evaluate(pos: Position) -> int:
    """For the side to move: its store's lead (worth four), then the seeds on its side."""
    mine, theirs = pos.row(pos.turn), pos.row(opponent(pos.turn))
    return 4 * (mine[-1] - theirs[-1]) + sum(mine[:-1]) - sum(theirs[:-1])


RULES: minimax.Rules = (result, legal_moves, play, lambda pos: pos.turn, _evaluate)
OPPONENTS: dict[str, tuple[str, Opponent[Position, int]]] = minimax.ladder(RULES, greedy_opponent)
