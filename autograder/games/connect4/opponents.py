"""The Connect Four opponents: the random player of the graded games and the ladder's rungs.

Each is ``(position, the referee's generator) -> column`` and runs in the grader.
"""

from __future__ import annotations

import random

from autograder.games import minimax
from autograder.games.connect4.rules import (
    Position,
    legal_moves,
    opponent,
    play,
    result,
    winning_moves,
)
from autograder.games.pack import Opponent

__all__ = ["greedy_opponent", "RULES", "OPPONENTS"]


def _safe(pos: Position) -> list[int]:
    """The columns after which the other side cannot win at once."""
    return [c for c in legal_moves(pos) if not winning_moves(play(pos, c))]


def greedy_opponent(pos: Position, rng: random.Random) -> int:
    """Takes a win in one; otherwise never lets the other side win next (so it blocks)."""
    wins = winning_moves(pos)
    if wins:
        return rng.choice(wins)
    return rng.choice(_safe(pos) or legal_moves(pos))


def _windows(pos: Position) -> list[int]:
    """Every line of four cells on the board, as a mask."""
    variant = pos.variant
    lines = []
    for shift in variant.shifts:
        for start in range(variant.height * variant.columns):
            cells = [start + k * shift for k in range(4)]
            mask = sum(1 << cell for cell in cells)
            if all(0 <= cell < variant.height * variant.columns for cell in cells) and (
                mask & variant.full == mask
            ):
                lines.append(mask)
    return sorted(set(lines))


_WINDOWS: dict[str, list[int]] = {}
_WEIGHT = (0, 1, 4, 16, 0)


def _evaluate(pos: Position) -> int:
    """For the side to move: open lines (no enemy disc) weighted by the discs already in them."""
    windows = _WINDOWS.setdefault(pos.variant.name, _windows(pos))
    mine, theirs = pos.discs(pos.turn), pos.discs(opponent(pos.turn))
    score = 0
    for mask in windows:
        if not mask & theirs:
            score += _WEIGHT[(mask & mine).bit_count()]
        elif not mask & mine:
            score -= _WEIGHT[(mask & theirs).bit_count()]
    return score


RULES: minimax.Rules = (result, legal_moves, play, lambda pos: pos.turn, _evaluate)
OPPONENTS: dict[str, tuple[str, Opponent[Position, int]]] = minimax.ladder(RULES, greedy_opponent)
