"""Where each position lives in the oracle's table: ranks of placements, levels and offsets.

Positions are seen from the side to move (the *mover*) against the other side: colours do
not matter to the rules, so black to move on (B, R) and red to move on (R, B) share an entry,
which halves the table. Level ``k`` holds the positions with ``k`` markers down: the mover has
``a = k // 2`` of them and the other side ``b = k - a`` (black moves first). Level ``2m`` (all
``m + m`` markers down) is the move phase; the levels below it are the drop phase.

Within a level a position's index is ``rank(other) * C(n - b, a) + rank(compress(mover))``,
where ``rank`` is the colex rank of a set of squares (the combinatorial number system,
``sum C(s_i, i + 1)`` over its squares in increasing order) and ``compress`` renumbers the
mover's squares among the ``n - b`` squares the other side leaves free. The rank of a set does
not depend on the universe it is drawn from, so one table of ranks serves both.

This module is pure Python and serves single lookups; the solver's vectorised twin lives in
``_vector.py`` and the tests check that the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from math import comb

from autograder.games.teeko.solved.game import Game

__all__ = ["Layout", "compress", "expand", "transform"]


def compress(mask: int, removed: int) -> int:
    """``mask`` renumbered over the squares outside ``removed`` (a software ``pext``)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << (low.bit_length() - 1 - (removed & (low - 1)).bit_count())
        mask ^= low
    return out


def transform(mask: int, places: Sequence[int]) -> int:
    """``mask`` with each square ``sq`` moved to ``places[sq]`` (a symmetry's permutation of
    the board, or the free squares :func:`expand` renumbers back to)."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << places[low.bit_length() - 1]
        mask ^= low
    return out


def expand(rel: int, removed: int, squares: int) -> int:
    """The inverse of :func:`compress`: squares of ``rel`` counted among those not removed."""
    return transform(rel, [sq for sq in range(squares) if not removed >> sq & 1])


class Layout:
    """Sizes and offsets of the levels of ``game``'s table, and the index of one position."""

    def __init__(self, game: Game) -> None:
        n, m = game.squares, game.markers
        self.game = game
        self.squares = n
        self.markers = m
        self.levels = 2 * m + 1
        self.sides: list[tuple[int, int]] = [(k // 2, k - k // 2) for k in range(self.levels)]
        # Number of mover placements per placement of the other side, level by level.
        self.stride: list[int] = [comb(n - b, a) for a, b in self.sides]
        self.sizes: list[int] = [comb(n, b) * comb(n - b, a) for a, b in self.sides]
        self.offsets: list[int] = [sum(self.sizes[:k]) for k in range(self.levels)]
        self.total = sum(self.sizes)
        self.move_phase = 2 * m
        # Colex ranks of every set of at most m squares, and the sets in rank order by size.
        self.rank: dict[int, int] = {}
        self.unrank: list[list[int]] = []
        for size in range(m + 1):
            sets = sorted(combinations(range(n), size), key=lambda c: c[::-1])
            masks = [sum(1 << sq for sq in c) for c in sets]
            self.unrank.append(masks)
            for r, mask in enumerate(masks):
                self.rank[mask] = r

    def index(self, mover: int, other: int) -> int:
        """The table index of the position where ``mover`` (a mask) is to move against ``other``.

        :raises KeyError: when the marker counts are not those of a position of the game.
        """
        k = (mover | other).bit_count()
        a, b = self.sides[k]
        if mover.bit_count() != a or other.bit_count() != b or mover & other:
            raise KeyError((mover, other))
        return (
            self.offsets[k] + self.rank[other] * self.stride[k] + self.rank[compress(mover, other)]
        )

    def position(self, index: int) -> tuple[int, int]:
        """The inverse of :meth:`index`: ``(mover, other)`` masks.

        :raises IndexError: when ``index`` is outside the table.
        """
        if not 0 <= index < self.total:
            raise IndexError(index)
        k = max(level for level in range(self.levels) if self.offsets[level] <= index)
        a, b = self.sides[k]
        other_rank, mover_rank = divmod(index - self.offsets[k], self.stride[k])
        other = self.unrank[b][other_rank]
        return expand(self.unrank[a][mover_rank], other, self.squares), other
