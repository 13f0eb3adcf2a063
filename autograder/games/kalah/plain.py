"""A second, plain implementation of Kalah's rules, for the conformance suite's perft: written
apart from ``rules.py`` (a ring of cells walked seed by seed, lists, no shared helper), so that
a mistake in one shows as a different count of move sequences (python-chess checks its move
generator against known perft figures the same way)."""

from __future__ import annotations

from autograder.games.kalah.rules import Variant

__all__ = ["perft"]


def _ring(pits: int, side: int) -> list[tuple[int, int]]:
    """The cells ``side`` sows into, in order from its pit 0 round the board: its pits, its
    store, the other side's pits (never the other side's store)."""
    return [(side, i) for i in range(pits + 1)] + [(1 - side, i) for i in range(pits)]


def _move(board: list[list[int]], side: int, pit: int) -> tuple[list[list[int]], int]:
    """The board after ``side`` sows ``pit``, and the side to move next."""
    pits = len(board[0]) - 1
    new = [row[:] for row in board]
    ring = _ring(pits, side)
    seeds, new[side][pit] = new[side][pit], 0
    at = pit
    for _ in range(seeds):
        at = (at + 1) % len(ring)
        row, cell = ring[at]
        new[row][cell] += 1
    row, cell = ring[at]
    if row == side and cell < pits and new[row][cell] == 1:
        opposite = new[1 - side][pits - 1 - cell]
        if opposite > 0:
            new[side][pits] += opposite + 1
            new[side][cell] = 0
            new[1 - side][pits - 1 - cell] = 0
    return new, side if (row, cell) == (side, pits) else 1 - side


def perft(variant: Variant, depth: int) -> int:
    """The move sequences of ``depth`` plies from the start (a finished game has none)."""

    def count(board: list[list[int]], side: int, left: int) -> int:
        if left == 0:
            return 1
        pits = len(board[0]) - 1
        moves = [p for p in range(pits) if board[side][p] > 0]
        if not moves:  # the side to move has no seed: the game is over
            return 0
        total = 0
        for pit in moves:
            after, turn = _move(board, side, pit)
            total += count(after, turn, left - 1)
        return total

    row = [variant.seeds] * variant.pits + [0]
    return count([row[:], row[:]], 0, depth)
