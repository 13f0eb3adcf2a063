"""The one-byte value of a position, and its reading as win / draw / loss in so many plies."""

from __future__ import annotations

from autograder.games.perfect import DRAW, LOSS, WIN, Verdict

__all__ = [
    "WIN",
    "DRAW",
    "LOSS",
    "DRAW_CODE",
    "UNKNOWN",
    "MAX_PLIES",
    "Verdict",
    "win_code",
    "loss_code",
    "verdict",
    "parent_code",
]

# ---- value encoding ---------------------------------------------------------------------------
# One signed byte (numpy int8) per position, always for the side to move:
#
#     0           draw: neither side can force a goal, whoever plays what
#     +n (1..127) win:  the side to move forces a goal; the game ends n - 1 plies from now
#     -n (1..127) loss: the other side forces a goal n - 1 plies from now, however we defend
#     -128        unknown: only while a build runs, never in a saved table
#
# So plies = |code| - 1: +1 is "already won" (the other side's move completed our goal, say by
# vacating a centre), -1 "already lost", +2 "the next move wins". Plies count to the move that
# ends the game, the winner taking the shortest way and the loser the longest: a win of code
# +n has a move to a child of code -(n - 1); a loss of code -n has only moves to children with
# positive codes, the largest of them n - 1. A side to move that has no legal move at all (it
# cannot happen with 4 + 4 markers on 5x5; see docs/oracle.md) has lost: code -1.
#
# Invariant of the move-phase retrograde after it has worked through ply d: every position won
# or lost in at most d + 1 plies holds its final code, every other one holds UNKNOWN, and the
# move counter of an UNKNOWN position is its number of moves not yet proven to lose. When no
# position is decided at some ply, the UNKNOWN ones are exactly the draws and become 0.
DRAW_CODE = 0
UNKNOWN = -128
MAX_PLIES = 126


def win_code(plies: int) -> int:
    return plies + 1


def loss_code(plies: int) -> int:
    return -(plies + 1)


def verdict(code: int) -> Verdict:
    """Read a table byte (as a signed int).

    :raises ValueError: for the UNKNOWN byte, which a finished table never holds.
    """
    if code > 0:
        return Verdict(WIN, code - 1)
    if code < 0:
        if code == UNKNOWN:
            raise ValueError("the table holds an undecided position: the build did not finish")
        return Verdict(LOSS, -code - 1)
    return Verdict(DRAW, None)


def parent_code(code: int) -> int:
    """The code of a move, for the side making it, into a position whose code is ``code``."""
    if code > 0:
        return -(code + 1)
    if code < 0:
        return -code + 1
    return 0
