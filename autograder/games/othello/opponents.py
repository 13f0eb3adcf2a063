"""The Othello opponents: the random player of the graded games and the ladder's rungs.

Each is ``(position, the referee's generator) -> move`` and runs in the grader; a side that
must pass passes.
"""

from __future__ import annotations

import random

from autograder.games import minimax
from autograder.games.othello.rules import (
    PASS,
    Move,
    Position,
    Variant,
    legal_moves,
    moves_mask,
    opponent,
    play,
    result,
)
from autograder.games.pack import Opponent

__all__ = ["greedy_opponent", "RULES", "OPPONENTS"]


def _corners(variant: Variant) -> int:
    last = variant.size - 1
    return sum(variant.bit(r, c) for r in (0, last) for c in (0, last))


def _mobility(pos: Position) -> int:
    """The squares the side to move has."""
    return moves_mask(pos.discs(pos.turn), pos.discs(opponent(pos.turn)), pos.variant).bit_count()


def greedy_opponent(pos: Position, rng: random.Random) -> Move:
    """Takes a corner when it can; otherwise the square that leaves the other side fewest."""
    moves = legal_moves(pos)
    if moves == [PASS]:
        return PASS
    corners = [m for m in moves if pos.variant.bit(*m) & _corners(pos.variant)]
    if corners:
        return rng.choice(corners)
    scored = [(_mobility(play(pos, m)), m) for m in moves]
    fewest = min(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == fewest])


def _evaluate(pos: Position) -> int:
    """For the side to move: corners held (worth ten), then squares to play, then discs."""
    corners = _corners(pos.variant)
    mine, theirs = pos.discs(pos.turn), pos.discs(opponent(pos.turn))
    score = 10 * ((mine & corners).bit_count() - (theirs & corners).bit_count())
    score += _mobility(pos) - _mobility(pos._replace(turn=opponent(pos.turn)))
    return 4 * score + mine.bit_count() - theirs.bit_count()


RULES: minimax.Rules = (result, legal_moves, play, lambda pos: pos.turn, _evaluate)
OPPONENTS: dict[str, tuple[str, Opponent[Position, Move]]] = minimax.ladder(RULES, greedy_opponent)
