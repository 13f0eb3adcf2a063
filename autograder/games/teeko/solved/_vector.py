"""The solver's numpy view of :mod:`autograder.games.teeko.solved.layout`: the same indices, a
chunk at a time.

Every method maps arrays of indices (within one level) to arrays: the squares and masks of
both sides, goal status, move counts, the indices of predecessors (move phase) and of children
(drop phase). Element arrays are int32 (masks of at most 30 squares, table indices below 2**31);
small lookup tables replace bit tricks numpy lacks, such as ``pext`` and colex ranking.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt

from autograder.games.teeko.solved.game import Game
from autograder.games.teeko.solved.layout import Layout
from autograder.games.teeko.solved.symmetry import Folding

__all__ = ["VectorLayout"]

I32 = np.int32
Array = npt.NDArray[np.int32]


class VectorLayout:
    """Lookup tables for ``layout``'s game, built once per solve (a few MB for 5x5).

    Drop-phase children are indexed in ``folding``'s table (default: the full one).
    """

    def __init__(self, layout: Layout, folding: Folding | None = None) -> None:
        game: Game = layout.game
        n, m = layout.squares, layout.markers
        if layout.total >= 2**31:
            raise ValueError(f"{game.name!r} needs {layout.total:,} entries, over int32 indices")
        self.layout = layout
        self.n, self.m = n, m
        # bit[sq] = 1 << sq; bit[n] is the sentinel square "off the board", always occupied.
        self.bit = np.array([1 << sq for sq in range(n + 1)], dtype=I32)
        self.sentinel = n
        nbr = np.full((n, 8), n, dtype=I32)
        for sq, mask in enumerate(game.neighbours):
            squares = [t for t in range(n) if mask >> t & 1]
            nbr[sq, : len(squares)] = squares
        self.nbr = nbr
        self.nbr_mask = np.array(game.neighbours, dtype=I32)
        self.sq: list[Array] = []  # [size] (C(n, size), size): squares of each set, ascending
        self.mask: list[Array] = []  # [size] (C(n, size),): the set as a mask
        self.free: list[Array] = []  # [size] flat (C(n, size) * (n - size)): squares left free
        self.relpos: list[Array] = []  # [size] flat (C(n, size) * (n + 1)): rank among free
        self.plain: list[npt.NDArray[np.bool_]] = []  # [size]: holds an unconditional goal
        self.centres: list[Array] = []  # [size] (C(n, size), K): must-be-empty masks, 0 = none
        goal_sets = np.array([s for s, _ in game.goals], dtype=I32)
        goal_empty = np.array([e for _, e in game.goals], dtype=I32)
        for size in range(m + 1):
            masks = layout.unrank[size]
            held = np.array(
                [[s for s in range(n) if mask >> s & 1] for mask in masks], dtype=I32
            ).reshape(len(masks), size)
            self.sq.append(held)
            self.mask.append(np.array(masks, dtype=I32))
            free = np.array(
                [[s for s in range(n) if not mask >> s & 1] for mask in masks], dtype=I32
            )
            self.free.append(free.ravel())
            relpos = np.zeros((len(masks), n + 1), dtype=I32)
            rows = np.arange(len(masks))[:, None]
            relpos[rows, free] = np.arange(n - size, dtype=I32)
            self.relpos.append(relpos.ravel())
            # (C(n, size), goals): which goals' squares each set holds, then the goals with no
            # condition, and the must-be-empty masks of the others (in goal order, 0-padded).
            holds = (self.mask[size][:, None] & goal_sets) == goal_sets
            self.plain.append((holds & (goal_empty == 0)).any(axis=1))
            conditional = holds & (goal_empty != 0)
            width = max(1, int(conditional.sum(axis=1).max(initial=0)))
            first = np.argsort(~conditional, axis=1, kind="stable")[:, :width]
            found = np.take_along_axis(conditional, first, axis=1)
            self.centres.append(np.where(found, goal_empty[first], 0).astype(I32))
        self._rest: dict[tuple[int, int], Array] = {}
        self._up: dict[tuple[int, int], Array] = {}
        self._ranker_tables(n, m)
        # Ranks of the mover's squares among the other side's free ones, by direct lookup.
        self.free_rank = self.rank(np.arange(1 << (n - m), dtype=I32))
        self._fold_tables(folding or Folding(layout, symmetric=False))

    def _fold_tables(self, folding: Folding) -> None:
        # By colex rank: the slot of the placement's orbit, the symmetry that turns it into the
        # canonical one (as a row of perm, square n staying put) and the canonical one's rank.
        n = self.n
        self.folding = folding
        self.perm = np.array([[*p, n] for p in folding.perms], dtype=I32).ravel()
        self.slot_of: list[Array] = []
        self.turn_of: list[Array] = []
        self.canonical_of: list[Array] = []
        for size in range(self.m + 1):
            frames = [folding.frame[mask] for mask in self.layout.unrank[size]]
            ranks = folding.canonical_ranks(size)
            self.slot_of.append(np.array([slot for slot, _ in frames], dtype=I32))
            self.turn_of.append(np.array([g * (n + 1) for _, g in frames], dtype=I32))
            self.canonical_of.append(np.array([ranks[slot] for slot, _ in frames], dtype=I32))
        # For the move phase's retrograde on the folded table: the colex rank of each slot's
        # canonical placement, each symmetry's inverse (as a row of perm), and for every
        # placement of m markers which symmetries turn it into a canonical one (C(n, m), G).
        m = self.m
        self.slot_rank = np.array(folding.canonical_ranks(m), dtype=I32)
        self.inverse_turn = np.array([g * (n + 1) for g in folding.inverse], dtype=I32)
        turned = self.perm[
            np.arange(len(folding.perms), dtype=I32)[:, None, None] * (n + 1) + self.sq[m]
        ]
        ranks_after = self.rank(self.bit[turned].sum(axis=2, dtype=I32))  # (G, C(n, m))
        self.to_canonical = (self.canonical_of[m][ranks_after] == ranks_after).T.copy()

    # ---- colex ranks ---------------------------------------------------------------------------

    def _ranker_tables(self, n: int, m: int) -> None:
        # rank(mask) = lo_rank[low bits] + hi_rank[high bits, popcount(low bits)]: the low half
        # adds C(s, j + 1) for its squares, the high half the same with j shifted by the low count.
        low = (n + 1) // 2
        high = n - low
        self.low_bits, self.low_mask = low, (1 << low) - 1
        values = np.arange(1 << low, dtype=np.int64)
        lo_rank = np.zeros(1 << low, dtype=np.int64)
        lo_count = np.zeros(1 << low, dtype=np.int64)
        for s in range(low):
            on = (values >> s & 1).astype(bool)
            lo_rank[on] += np.array([comb(s, j + 1) for j in range(low + 1)])[lo_count[on]]
            lo_count[on] += 1
        hvalues = np.arange(1 << high, dtype=np.int64)
        hi_rank = np.zeros((1 << high, m + 1), dtype=np.int64)
        hi_count = np.zeros(1 << high, dtype=np.int64)
        for s in range(high):
            on = (hvalues >> s & 1).astype(bool)
            for c in range(m + 1):
                coef = np.array([comb(low + s, c + j + 1) for j in range(high + 1)])
                hi_rank[on, c] += coef[hi_count[on]]
            hi_count[on] += 1
        # Masks ranked here have at most m squares; larger sums are never read.
        self.lo_rank = np.minimum(lo_rank, 2**31 - 1).astype(I32)
        self.lo_count = np.minimum(lo_count, m).astype(I32)
        self.hi_rank = np.minimum(hi_rank, 2**31 - 1).astype(I32).ravel()

    def rank(self, mask: Array) -> Array:
        """Colex rank of each mask (of at most ``m`` squares), any shape."""
        low = mask & self.low_mask
        return (
            self.lo_rank[low]
            + self.hi_rank[(mask >> self.low_bits) * (self.m + 1) + self.lo_count[low]]
        )

    def rest(self, n_free: int, size: int) -> Array:
        """(C(n_free, size), n_free - size): for each ``size``-subset of range(n_free), by rank,
        the numbers of range(n_free) outside it, ascending."""
        key = (n_free, size)
        if key not in self._rest:
            subsets = self.sq[size][: comb(n_free, size)]
            keep = np.ones((len(subsets), n_free), dtype=bool)
            keep[np.arange(len(subsets))[:, None], subsets] = False
            everything = np.broadcast_to(np.arange(n_free, dtype=I32), keep.shape)
            self._rest[key] = everything[keep].reshape(len(subsets), n_free - size)
        return self._rest[key]

    # ---- positions -----------------------------------------------------------------------------

    def decode(self, k: int, idx: Array) -> tuple[Array, Array, Array, Array, Array]:
        """For indices within level ``k``: the mover's squares (F, a) and mask, the other side's
        squares (F, b) and mask, and the other side's rank."""
        a, b = self.layout.sides[k]
        stride = self.layout.stride[k]
        other_rank = idx // stride
        rel = self.sq[a][idx - other_rank * stride]
        mover_sq = self.free[b][other_rank[:, None] * (self.n - b) + rel]
        return (
            mover_sq,
            self.bit[mover_sq].sum(axis=1, dtype=I32),
            self.sq[b][other_rank],
            self.mask[b][other_rank],
            other_rank,
        )

    def goal(self, size: int, rank: Array, occupied: Array) -> npt.NDArray[np.bool_]:
        """Whether the set of ``size`` squares with colex rank ``rank`` holds a goal, given the
        occupied squares (``rank`` and ``occupied`` broadcast together)."""
        rank, occupied = np.broadcast_arrays(rank, occupied)
        held = self.plain[size][rank]
        centres = self.centres[size][rank]
        return held | ((centres != 0) & ((centres & occupied[..., None]) == 0)).any(axis=-1)

    def move_counts(self, mover_sq: Array, occupied: Array) -> Array:
        """The number of slides of the mover's markers (last axis) to empty neighbours."""
        free = self.nbr_mask[mover_sq] & ~occupied[..., None]
        return np.bitwise_count(free).sum(axis=-1, dtype=I32)

    def predecessors(self, idx: Array) -> Array:
        """Indices within the folded move phase of every stored position with a move whose
        stored child is one of ``idx`` (also folded move-phase indices).

        A stored position ``P`` (its other side canonical) moves to a child ``c``, stored as
        ``s(c)``: ``c`` turned by the symmetry that makes its other side canonical
        (:class:`~.symmetry.Folding`'s frame). So the moves into a stored
        ``C`` come into its images ``h(C)`` with ``s(h(C)) = C`` whose mover is canonical (the
        predecessors' other side): for each symmetry ``h`` turning C's mover canonical, the
        image counts when the frame of ``h``(C's other side) is ``h``'s inverse, which picks
        each such image once. Then ``(X to move, Y)`` arises from ``(Y0 to move, X)`` where
        ``Y0`` is ``Y`` with one marker moved back to an empty neighbour. Every stored
        ``(P, move)`` whose stored child is ``C`` comes out exactly once, so the counters of
        the retrograde count moves exactly, even for placements that are symmetric themselves.
        The caller drops the predecessors already decided (terminal ones among them).

        Without folding (the identity alone) these are the plain un-moves in the full table.
        This is the solver's inner loop: call it on a few thousand positions at a time, so
        that its temporaries stay in the CPU cache (measured 2-3x faster than chunks of 256K).
        """
        k = self.layout.move_phase
        m, n = self.m, self.n
        stride = self.layout.stride[k]
        slot = idx // stride
        other_rank = self.slot_rank[slot]
        rel = self.sq[m][idx - slot * stride]
        x_sq = self.free[m][other_rank[:, None] * (n - m) + rel]
        y_sq = self.sq[m][other_rank]
        x_rank = self.rank(self.bit[x_sq].sum(axis=1, dtype=I32))
        count = len(self.inverse_turn)
        if count > 1:
            pairs = np.flatnonzero(self.to_canonical[x_rank])
            row = pairs // count
            turn = (pairs - row * count).astype(I32) * (n + 1)
            x_sq = self.perm[turn[:, None] + x_sq[row]]
            y_sq = self.perm[turn[:, None] + y_sq[row]]
            y_rank = self.rank(self.bit[y_sq].sum(axis=1, dtype=I32))
            keep = self.turn_of[m][y_rank] == self.inverse_turn[turn // (n + 1)]
            x_sq, y_sq = x_sq[keep], y_sq[keep]
            x_rank = self.rank(self.bit[x_sq].sum(axis=1, dtype=I32))
        x_mask = self.bit[x_sq].sum(axis=1, dtype=I32)
        occupied = x_mask | self.bit[y_sq].sum(axis=1, dtype=I32) | self.bit[self.sentinel]
        rel_bits = self.bit[self.relpos[m][x_rank[:, None] * (n + 1) + y_sq]]  # Y among X's free
        # Y without marker j, in X's free squares: (F, m), one row per marker that moved.
        without = rel_bits.sum(axis=1, dtype=I32)[:, None] ^ rel_bits
        back = self.nbr[y_sq]  # (F, m, 8): where each marker of Y may have come from
        flat = np.flatnonzero(((occupied[:, None, None] >> back) & 1) == 0)
        slots = 8 * m
        row = flat >> (slots.bit_length() - 1) if slots & (slots - 1) == 0 else flat // slots
        x_rank = x_rank[row]
        source = self.relpos[m][x_rank * (n + 1) + back.ravel()[flat]]
        before = without.ravel()[flat >> 3] ^ self.bit[source]
        return self.slot_of[m][x_rank] * stride + self.free_rank[before]

    def up(self, n_free: int, size: int) -> Array:
        """(C(n_free, size), n_free - size): for each ``size``-subset of range(n_free), by rank,
        the ranks of the ``size + 1``-subsets made by adding one more number."""
        key = (n_free, size)
        if key not in self._up:
            subsets = self.sq[size][: comb(n_free, size)]
            masks = self.bit[subsets].sum(axis=1, dtype=I32)
            self._up[key] = self.rank(masks[:, None] | self.bit[self.rest(n_free, size)])
        return self._up[key]

    def block(self, k: int, other_rank: Array) -> tuple[Array, Array, Array, Array]:
        """The positions of level ``k`` whose other side has the colex ranks ``other_rank``
        (G of them; each is a contiguous block of ``stride[k]`` indices): the mover's squares
        (G, P, a), mask (G, P) and rank (G, P), and the occupied squares (G, P)."""
        a, b = self.layout.sides[k]
        free = self.free[b].reshape(-1, self.n - b)[other_rank]  # (G, n - b)
        x_sq = free[:, self.sq[a][: self.layout.stride[k]]]
        x_mask = self.bit[x_sq].sum(axis=2, dtype=I32)
        occupied = x_mask | self.mask[b][other_rank][:, None]
        return x_sq, x_mask, self.rank(x_mask), occupied

    def drop_children(self, k: int, other_rank: Array) -> Array:
        """For the drop-phase positions at level ``k`` whose other side has the colex ranks
        ``other_rank`` (G of them): the indices within level ``k + 1`` of the folded table of
        every position ``(other side to move, mover + one square)``, shape (G, C(n - b, a + 1)):
        each turned by the symmetry that makes its other side (mover + one square) canonical.

        A parent's children are then ``children[g, up(n - b, a)[p]]``: grouping by the other
        side makes each index of level ``k + 1`` computed once, not once per parent.
        """
        a, b = self.layout.sides[k]
        n = self.n
        free = self.free[b].reshape(-1, n - b)[other_rank]  # (G, n - b)
        y_sq = self.sq[b][other_rank]
        after_sq = free[:, self.sq[a + 1][: comb(n - b, a + 1)]]  # (G, C, a + 1)
        after_rank = self.rank(self.bit[after_sq].sum(axis=2, dtype=I32))
        turned = self.perm[self.turn_of[a + 1][after_rank][:, :, None] + y_sq[:, None, :]]
        canonical = self.canonical_of[a + 1][after_rank]
        rel_y = self.relpos[a + 1][canonical[:, :, None] * (n + 1) + turned]
        y_rel = self.bit[rel_y].sum(axis=2, dtype=I32)
        return self.slot_of[a + 1][after_rank] * self.layout.stride[k + 1] + self.rank(y_rel)
