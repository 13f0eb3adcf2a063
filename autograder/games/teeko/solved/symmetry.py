"""The board's symmetries, and the folded table that stores one placement per orbit of them.

Turning or mirroring the square board (the dihedral group: four rotations, each with or
without a mirror) maps slides to slides, and maps the goals onto themselves in every variant
of the kit (``tests/test_oracle_symmetry.py`` checks it). A symmetry that keeps the goals keeps
the value of every position, so the table needs only one placement of the other side per
*orbit* (the placements a symmetry turns into one another): its smallest mask, the
*canonical* one. A position whose other side is not canonical is read through the symmetry
that makes it so, applied to both sides. For 4 markers on 5x5, 1,666 placements of 12,650 are
canonical, so the table folds from 96.7 to 12.8 million entries. A game whose goals are not
closed under a symmetry (a test's row-only game, say) folds by the symmetries it has.

The folded table keeps :class:`~autograder.games.teeko.solved.layout.Layout`'s order within a
level: the rows of canonical placements of the other side, in colex order, each the
``stride[k]`` codes of the mover's placements among the squares left free. Pure Python.
"""

from __future__ import annotations

from autograder.games.teeko.solved.game import Game
from autograder.games.teeko.solved.layout import Layout, compress, expand, transform

__all__ = ["Folding", "symmetries", "transform"]

Perm = tuple[int, ...]


def _dihedral(size: int) -> list[Perm]:
    """The 8 square permutations of a ``size`` x ``size`` board, the identity first."""
    perms = []
    for mirror in (False, True):
        for turns in range(4):
            perm = []
            for sq in range(size * size):
                row, col = divmod(sq, size)
                if mirror:
                    row, col = col, row
                for _ in range(turns):
                    row, col = col, size - 1 - row
                perm.append(row * size + col)
            perms.append(tuple(perm))
    return perms


def symmetries(game: Game) -> list[Perm]:
    """The board symmetries that map ``game``'s goals (squares and must-be-empty square
    together) onto themselves, the identity first. Slides are symmetric on any square board."""
    goals = set(game.goals)
    return [
        perm
        for perm in _dihedral(game.size)
        if {(transform(s, perm), transform(e, perm)) for s, e in goals} == goals
    ]


class Folding:
    """Where each position lives in the folded table of ``layout``'s game.

    With ``symmetric=False`` nothing is folded: the identity alone makes every placement its
    own orbit, and the folded table is the full one in :class:`Layout` order (tests use it).
    """

    def __init__(self, layout: Layout, symmetric: bool = True) -> None:
        self.layout = layout
        self.perms = symmetries(layout.game) if symmetric else [tuple(range(layout.squares))]
        # inverse[g]: the symmetry that undoes perms[g].
        self.inverse = inverse = [self.perms.index(_invert(p)) for p in self.perms]
        # frame[mask] = (slot, g): the canonical placement of mask's orbit is the slot-th of
        # its size, and perms[g] turns mask into it. Masks are walked in increasing order, so
        # the first of an orbit met is its smallest: the canonical one.
        self.frame: dict[int, tuple[int, int]] = {}
        self.canonical: list[list[int]] = []  # [size]: canonical masks, increasing
        self.orbit: list[list[int]] = []  # [size][slot]: placements in that orbit
        for size in range(layout.markers + 1):
            found: list[int] = []
            counts: list[int] = []
            for mask in layout.unrank[size]:
                if mask in self.frame:
                    continue
                slot = len(found)
                found.append(mask)
                images: dict[int, int] = {}
                for g, perm in enumerate(self.perms):
                    images.setdefault(transform(mask, perm), inverse[g])
                for image, g in images.items():
                    self.frame[image] = (slot, g)
                counts.append(len(images))
            self.canonical.append(found)
            self.orbit.append(counts)
        self.sizes = [
            len(self.canonical[b]) * layout.stride[k] for k, (_, b) in enumerate(layout.sides)
        ]
        self.offsets = [sum(self.sizes[:k]) for k in range(layout.levels)]
        self.total = sum(self.sizes)
        # [(size, slot)]: each square's bit among the canonical placement's free squares.
        self._free: dict[tuple[int, int], list[int]] = {}

    def canonical_ranks(self, size: int) -> list[int]:
        """The colex ranks (rows of the full table's level) of the canonical masks of ``size``."""
        rank = self.layout.rank
        return [rank[mask] for mask in self.canonical[size]]

    def relative(self, other: int) -> tuple[int, list[int]]:
        """For a placement ``other`` of the other side: its orbit's slot, and for each square
        the bit of the mover's marker there after the symmetry, among the canonical placement's
        free squares (0 on the squares of ``other``). The oracle keeps it per placement."""
        slot, g = self.frame[other]
        size = other.bit_count()
        free = self._free.get((size, slot))
        if free is None:
            canonical = self.canonical[size][slot]
            free = self._free[(size, slot)] = [
                0 if canonical >> sq & 1 else compress(1 << sq, canonical)
                for sq in range(self.layout.squares)
            ]
        return slot, [free[to] for to in self.perms[g]]

    def index(self, mover: int, other: int) -> int:
        """The folded table index of the position where ``mover`` is to move against ``other``.

        :raises KeyError: when the marker counts are not those of a position of the game.
        """
        layout = self.layout
        k = (mover | other).bit_count()
        a, b = layout.sides[k]
        if mover.bit_count() != a or other.bit_count() != b or mover & other:
            raise KeyError((mover, other))
        slot, g = self.frame[other]
        canonical = self.canonical[b][slot]
        turned = transform(mover, self.perms[g])
        return self.offsets[k] + slot * layout.stride[k] + layout.rank[compress(turned, canonical)]

    def position(self, index: int) -> tuple[int, int]:
        """The position stored at ``index``: ``(mover, other)`` masks, ``other`` canonical.

        :raises IndexError: when ``index`` is outside the table.
        """
        if not 0 <= index < self.total:
            raise IndexError(index)
        layout = self.layout
        k = max(level for level in range(layout.levels) if self.offsets[level] <= index)
        a, b = layout.sides[k]
        slot, mover_rank = divmod(index - self.offsets[k], layout.stride[k])
        other = self.canonical[b][slot]
        return expand(layout.unrank[a][mover_rank], other, layout.squares), other

    def weight(self, index: int) -> int:
        """How many positions of the full table the entry at ``index`` stands for (as many as
        its other side's orbit has placements)."""
        if not 0 <= index < self.total:
            raise IndexError(index)
        layout = self.layout
        k = max(level for level in range(layout.levels) if self.offsets[level] <= index)
        return self.orbit[layout.sides[k][1]][(index - self.offsets[k]) // layout.stride[k]]


def _invert(perm: Perm) -> Perm:
    out = [0] * len(perm)
    for sq, to in enumerate(perm):
        out[to] = sq
    return tuple(out)
