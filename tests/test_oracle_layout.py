"""The oracle's indexing on its own: ranks, levels, and the numpy twin of each pure function.

Checked on the real 5x5 game (tables only, no solve) with seeded random samples, and the
vectorised predecessor and drop-child indices against moves generated here square by square.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from autograder.games.teeko.solved.game import Game, game_for
from autograder.games.teeko.solved.layout import Layout, compress, expand
from autograder.games.teeko.solved.symmetry import Folding, transform
from autograder.games.teeko.variants import find_variant

np = pytest.importorskip("numpy")
from autograder.games.teeko.solved._vector import VectorLayout  # noqa: E402

TEEKO = game_for(find_variant("teeko"))


@pytest.fixture(scope="module")
def layout() -> Layout:
    return Layout(TEEKO)


@pytest.fixture(scope="module")
def vec(layout: Layout) -> VectorLayout:
    return VectorLayout(layout)


def _mask(squares: tuple[int, ...]) -> int:
    return sum(1 << sq for sq in squares)


def test_level_sizes_are_kit_spec_figures(layout: Layout) -> None:
    """KIT_SPEC §2: drop-phase positions by marker count, then the move-phase placements."""
    assert layout.sizes == [1, 25, 600, 6900, 75900, 531300, 3542000, 16824500, 75710250]
    assert layout.sizes[-1] == comb(25, 4) * comb(21, 4)
    assert layout.total == sum(layout.sizes) == 96_691_476


def test_ranks_are_colex_and_dense(layout: Layout) -> None:
    for size in range(5):
        masks = layout.unrank[size]
        assert len(masks) == comb(25, size)
        assert [layout.rank[m] for m in masks] == list(range(len(masks)))
        assert masks == sorted(masks)  # colex order of k-sets is the order of their masks
    # So the sets of range(21) come first: relative ranks need no table of their own.
    assert layout.unrank[4][: comb(21, 4)] == sorted(_mask(c) for c in combinations(range(21), 4))


def test_compress_and_expand_are_inverse() -> None:
    rng = random.Random(6)
    for _ in range(500):
        removed = _mask(tuple(rng.sample(range(25), 4)))
        free = [sq for sq in range(25) if not removed >> sq & 1]
        mask = _mask(tuple(rng.sample(free, 4)))
        rel = compress(mask, removed)
        assert rel.bit_count() == 4 and rel < 1 << 21
        assert expand(rel, removed, 25) == mask


def test_index_round_trip_on_every_level(layout: Layout) -> None:
    rng = random.Random(1)
    for k in range(layout.levels):
        for _ in range(200):
            index = layout.offsets[k] + rng.randrange(layout.sizes[k])
            mover, other = layout.position(index)
            a, b = layout.sides[k]
            assert (mover.bit_count(), other.bit_count(), mover & other) == (a, b, 0)
            assert layout.index(mover, other) == index


def test_every_position_of_a_small_game_has_its_own_index() -> None:
    game = Game("tiny", 3, 3, ())
    layout = Layout(game)
    seen = {layout.position(i) for i in range(layout.total)}
    assert len(seen) == layout.total
    assert all(
        layout.index(m, o) == layout.index(*layout.position(layout.index(m, o))) for m, o in seen
    )


def test_index_rejects_counts_that_cannot_occur(layout: Layout) -> None:
    with pytest.raises(KeyError):
        layout.index(0b11, 0)  # the mover cannot have two markers to the other side's none


def test_vector_decode_and_rank_agree_with_layout(layout: Layout, vec: VectorLayout) -> None:
    rng = np.random.default_rng(2)
    for k in range(layout.levels):
        idx = rng.integers(0, layout.sizes[k], 300).astype(np.int32)
        x_sq, x_mask, y_sq, y_mask, y_rank = vec.decode(k, idx)
        for i, index in enumerate(idx.tolist()):
            mover, other = layout.position(layout.offsets[k] + index)
            assert (int(x_mask[i]), int(y_mask[i])) == (mover, other)
            assert _mask(tuple(x_sq[i].tolist())) == mover
            assert _mask(tuple(y_sq[i].tolist())) == other
            assert int(y_rank[i]) == layout.rank[other]
        assert vec.rank(x_mask).tolist() == [layout.rank[int(m)] for m in x_mask]


def _unmoves(game: Game, mover: int, other: int) -> list[tuple[int, int]]:
    """Positions (other to move, mover) from which ``other`` slid a marker to give ``other``."""
    occupied = mover | other
    found = []
    for to in range(game.squares):
        if other >> to & 1:
            for source in range(game.squares):
                if game.neighbours[to] >> source & 1 and not occupied >> source & 1:
                    found.append((other & ~(1 << to) | 1 << source, mover))
    return found


def test_vector_predecessors_are_the_unmoves(layout: Layout, vec: VectorLayout) -> None:
    k = layout.move_phase
    rng = np.random.default_rng(3)
    idx = rng.integers(0, layout.sizes[k], 400).astype(np.int32)
    got = vec.predecessors(idx).tolist()
    expected = []
    for index in idx.tolist():
        mover, other = layout.position(layout.offsets[k] + index)
        expected += [layout.index(*p) - layout.offsets[k] for p in _unmoves(TEEKO, mover, other)]
    assert sorted(got) == sorted(expected)


def test_folded_predecessors_are_the_stored_moves_into_a_stored_position(
    layout: Layout,
) -> None:
    """The retrograde on the folded table: for a stored position C, every (stored position,
    move) whose child is stored as C comes out once, worked out here with Folding.index on
    the images of C under the 8 symmetries; so the counters count moves exactly, also for
    placements that are symmetric themselves (sampled on purpose)."""
    folding = Folding(layout)
    vec = VectorLayout(layout, folding)
    k = layout.move_phase
    stride = layout.stride[k]
    base = folding.offsets[k]
    symmetric = [s for s, count in enumerate(folding.orbit[4]) if count < len(folding.perms)]
    rng = random.Random(5)
    slots = rng.sample(range(len(folding.orbit[4])), 150) + rng.sample(symmetric, 150)
    idx = [slot * stride + rng.randrange(stride) for slot in slots]
    got = vec.predecessors(np.array(idx, dtype=np.int32)).tolist()
    expected = []
    for index in idx:
        mover, other = folding.position(base + index)
        images = {(transform(mover, p), transform(other, p)) for p in folding.perms}
        for child in images:
            if folding.index(*child) != base + index:
                continue  # stored as another position
            for before, against in _unmoves(TEEKO, *child):
                if folding.canonical[4][folding.frame[against][0]] == against:  # stored
                    expected.append(folding.index(before, against) - base)
    assert len(folding.perms) == 8 and symmetric
    assert sorted(got) == sorted(expected)


@pytest.mark.parametrize("k", range(8))
def test_vector_drop_children_are_the_drops(layout: Layout, vec: VectorLayout, k: int) -> None:
    a, b = layout.sides[k]
    rng = random.Random(k)
    groups = sorted(rng.sample(range(comb(25, b)), min(3, comb(25, b))))
    children = vec.drop_children(k, np.array(groups, dtype=np.int32))
    up = vec.up(25 - b, a)
    _, x_mask, _, occupied = vec.block(k, np.array(groups, dtype=np.int32))
    for g, other_rank in enumerate(groups):
        other = layout.unrank[b][other_rank]
        for p in rng.sample(range(layout.stride[k]), min(20, layout.stride[k])):
            mover, again = layout.position(layout.offsets[k] + other_rank * layout.stride[k] + p)
            assert again == other and int(x_mask[g, p]) == mover
            assert int(occupied[g, p]) == mover | other
            got = sorted(children[g, up[p]].tolist())
            drops = [sq for sq in range(25) if not (mover | other) >> sq & 1]
            expected = sorted(
                layout.index(other, mover | 1 << sq) - layout.offsets[k + 1] for sq in drops
            )
            assert got == expected
