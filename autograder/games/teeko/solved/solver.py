"""Solve a game exactly: retrograde analysis of the move phase, then the drop phase backwards.

``Solver(game).run()`` is a generator of :class:`Progress` reports; when it is exhausted,
``solver.table`` holds one code per position of the folded table (see
:mod:`autograder.games.teeko.solved.codes` and
:class:`~autograder.games.teeko.solved.symmetry.Folding`; with ``symmetric=False``, every
position in :class:`~autograder.games.teeko.solved.layout.Layout` order), and
``solver.stats`` the figures of the build, counted over every position. Stop iterating to stop
the build; nothing is written anywhere by this module.

Both phases are solved on the folded table only, for canonical placements of the other side:
the retrograde follows each stored position's moves to the stored images of its children.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from autograder.games.teeko.solved._vector import VectorLayout
from autograder.games.teeko.solved.codes import MAX_PLIES, UNKNOWN, loss_code, win_code
from autograder.games.teeko.solved.game import Game
from autograder.games.teeko.solved.layout import Layout
from autograder.games.teeko.solved.symmetry import Folding

__all__ = ["Progress", "Solver", "STAGES", "fold", "fraction"]

I32 = np.int32

# Stages of a build and their rough share of its time (measured on 5x5, see docs/oracle.md);
# the share turns per-stage counts into one progress figure with an honest-ish ETA.
STAGES = {"classify": 0.15, "retrograde": 0.56, "drop": 0.26, "write": 0.03}

# Array elements per numpy step: enough to amortise Python's overhead, few enough for the CPU
# cache. Predecessors (about 32 int32 slots per position) are worked out 8K positions at a
# time: 0.5 us a position, against 1.1-2.6 us with 256K (measured on the 5x5 move phase).
_CHUNK = 1 << 16
_INNER = 1 << 13
_REPORT = 1 << 22  # frontier positions expanded between progress reports
_DECIDED_GUESS = 0.42


@dataclass(frozen=True)
class Progress:
    """Where a build stands: ``done`` of ``total`` units of ``stage``, and a line of detail.

    ``fraction`` is the whole build's estimated completed share, from 0 to 1; the last report
    of a build (stage ``"done"``) carries the figures of the build in ``stats``.
    """

    stage: str
    done: int
    total: int
    detail: str
    fraction: float
    stats: dict[str, Any] | None = None


class Solver:
    """The exact solution of ``game``, computed by :meth:`run`."""

    def __init__(self, game: Game, chunk: int = _CHUNK, symmetric: bool = True) -> None:
        self.game = game
        self.layout = Layout(game)
        self.folding = Folding(self.layout, symmetric)
        self.vec = VectorLayout(self.layout, self.folding)  # their vectorised twin, for numpy
        self.chunk = chunk
        self.table: npt.NDArray[np.int8] = np.empty(0, dtype=np.int8)
        self.stats: dict[str, Any] = {}

    def run(self) -> Iterator[Progress]:
        """Solve, reporting progress; afterwards ``table`` and ``stats`` are filled in."""
        started = time.perf_counter()
        layout, folding = self.layout, self.folding
        k = layout.move_phase
        move = np.full(folding.sizes[k], UNKNOWN, dtype=np.int8)
        counts = np.zeros(folding.sizes[k], dtype=np.uint8)
        stats: dict[str, Any] = {"positions": layout.total, "levels": list(layout.sizes)}
        yield from self._classify(move, counts, stats)
        stats["seconds_classify"] = round(time.perf_counter() - started, 1)
        yield from self._retrograde(move, counts, stats)
        del counts
        stats["seconds_retrograde"] = round(time.perf_counter() - started, 1)
        table = np.full(folding.total, UNKNOWN, dtype=np.int8)
        table[folding.offsets[k] :] = move
        del move
        yield from self._drop(table, stats)
        stats["seconds"] = round(time.perf_counter() - started, 1)
        if (table == UNKNOWN).any():
            raise AssertionError("the solver left undecided positions")
        self.table = table
        self.stats = stats

    # ---- move phase ----------------------------------------------------------------------------

    def _classify(
        self, move: npt.NDArray[np.int8], counts: npt.NDArray[np.uint8], stats: dict[str, Any]
    ) -> Iterator[Progress]:
        """Mark terminal positions (goals; no legal move) and count every stored position's
        moves; the figures count each row once per placement of its other side's orbit."""
        vec, m = self.vec, self.game.markers
        k = self.layout.move_phase
        total = len(move)
        stride = self.layout.stride[k]
        canonical = np.array(self.folding.canonical_ranks(m), dtype=I32)
        weights = np.array(self.folding.orbit[m], dtype=np.int64)
        groups = len(canonical)
        step = max(1, self.chunk // stride)
        mover_goals = blocked = 0
        for first in range(0, groups, step):
            other_rank = canonical[first : first + step]
            weight = weights[first : first + step]
            x_sq, _, x_rank, occupied = vec.block(k, other_rank)
            mover_goal = vec.goal(m, x_rank, occupied)
            other_goal = vec.goal(m, other_rank[:, None], occupied)
            moves = vec.move_counts(x_sq, occupied)
            codes = np.full(moves.shape, UNKNOWN, dtype=np.int8)
            codes[moves == 0] = loss_code(0)
            codes[mover_goal] = win_code(0)
            codes[other_goal] = loss_code(0)  # both goals: the side that just moved wins
            span = slice(first * stride, (first + len(other_rank)) * stride)
            move[span] = codes.ravel()
            counts[span] = moves.ravel()
            mover_goals += int((mover_goal.sum(axis=1) * weight).sum())
            stuck = (moves == 0) & ~mover_goal & ~other_goal
            blocked += int((stuck.sum(axis=1) * weight).sum())
            done = span.stop
            yield Progress("classify", done, total, "", fraction("classify", done / total))
        stats["goal_placements"] = mover_goals
        stats["blocked"] = blocked

    def _retrograde(
        self, move: npt.NDArray[np.int8], counts: npt.NDArray[np.uint8], stats: dict[str, Any]
    ) -> Iterator[Progress]:
        """Work outward from the decided positions, one ply at a time.

        At ply d the positions lost in d plies make each undecided predecessor a win in d + 1;
        the positions won in d plies take one move off each undecided predecessor's counter,
        and a predecessor whose counter reaches 0 (every move hands the opponent a win, the
        slowest of them in d plies) is lost in d + 1. See the invariant in ``codes``.
        """
        vec, total = self.vec, len(move)
        # The frontier of each ply is what the ply before decided: kept, not found again by
        # scanning the whole move phase (two scans took 0.5 s a ply on a busy machine).
        frontier = {
            loss_code(0): np.flatnonzero(move == loss_code(0)).astype(I32),
            win_code(0): np.flatnonzero(move == win_code(0)).astype(I32),
        }
        decided = sum(len(f) for f in frontier.values())
        # The work is one expansion per decided position, unknown until the end; on the 5x5
        # variants 38-44% of the move phase gets decided, so that guess keeps the ETA steady.
        expected = max(decided, int(total * _DECIDED_GUESS))
        within = 0.0
        expanded = 0
        inner = min(_INNER, self.chunk)
        one = np.uint8(1)
        ply = 0
        longest = {"win": 0, "loss": 0}
        while True:
            lost, won = loss_code(ply), win_code(ply)
            found = {code: len(frontier[code]) for code in (lost, won)}
            wins: list[npt.NDArray[np.int32]] = []
            losses: list[npt.NDArray[np.int32]] = []
            for code in (lost, won):
                positions = frontier.pop(code)
                for part in range(0, len(positions), inner):
                    before = vec.predecessors(positions[part : part + inner])
                    before = before[move[before] == UNKNOWN]
                    if code == lost:
                        move[before] = win_code(ply + 1)
                        wins.append(before)
                    else:
                        np.subtract.at(counts, before, one)
                        before = before[counts[before] == 0]
                        move[before] = loss_code(ply + 1)
                        losses.append(before)
                    expanded += min(inner, len(positions) - part)
                    if part % _REPORT < inner:
                        within = max(within, min(0.99, expanded / max(decided, expected, 1)))
                        yield Progress(
                            "retrograde",
                            expanded,
                            max(decided, expected),
                            f"ply {ply}",
                            fraction("retrograde", within),
                        )
            if not found[lost] + found[won]:
                break
            for kind, code in (("win", won), ("loss", lost)):
                if found[code]:
                    longest[kind] = ply
            ply += 1
            if ply + 1 > MAX_PLIES:
                raise AssertionError(f"a game longer than {MAX_PLIES} plies does not fit a byte")
            frontier[win_code(ply)] = _distinct(wins)
            frontier[loss_code(ply)] = _distinct(losses)
            decided += len(frontier[win_code(ply)]) + len(frontier[loss_code(ply)])
        move[move == UNKNOWN] = 0
        stats["longest_move_phase_win"] = longest["win"]
        stats["longest_move_phase_loss"] = longest["loss"]
        k = self.layout.move_phase
        stats["move_phase"] = _census(
            move, self.layout.stride[k], self.folding.orbit[self.game.markers]
        )

    # ---- drop phase ----------------------------------------------------------------------------

    def _drop(self, table: npt.NDArray[np.int8], stats: dict[str, Any]) -> Iterator[Progress]:
        """Fill the drop-phase levels from the fullest down: each is a minimax over its drops."""
        layout, vec = self.layout, self.vec
        n = layout.squares
        # best[] orders a child's code as its parent sees it: the parent prefers a quick win,
        # then a slow one, a draw, a slow loss and lastly a quick loss. back[] undoes it.
        codes = np.arange(256, dtype=np.int16)
        codes[codes > 127] -= 256
        best = np.where(codes > 0, codes - 255, np.where(codes < 0, codes + 255, 0)).astype(
            np.int16
        )
        scores = np.arange(-256, 257, dtype=np.int16)
        back = np.where(scores > 0, 256 - scores, np.where(scores < 0, -(scores + 256), 0))
        back = back.astype(np.int8)
        folding = self.folding
        canonical = [
            np.array(folding.canonical_ranks(b), dtype=I32) for b in range(layout.markers + 1)
        ]
        work = sum(
            len(canonical[b]) * comb(n - b, a + 1) for a, b in layout.sides[: layout.move_phase]
        )
        done = 0
        for k in reversed(range(layout.move_phase)):
            a, b = layout.sides[k]
            level = table[folding.offsets[k] : folding.offsets[k] + folding.sizes[k]]
            below = table[folding.offsets[k + 1] : folding.offsets[k + 1] + folding.sizes[k + 1]]
            up = vec.up(n - b, a)
            groups = len(canonical[b])
            per_group = layout.stride[k]
            step = max(1, self.chunk // comb(n - b, a + 1))
            for first in range(0, groups, step):
                other_rank = canonical[b][first : first + step]
                _, _, mover_rank, occupied = vec.block(k, other_rank)
                children = vec.drop_children(k, other_rank)
                score = best[below[children].view(np.uint8)]  # (G, children per group)
                choice = score[np.arange(len(other_rank))[:, None, None], up].max(axis=2)
                codes_here = back[choice + 256]  # (G, parents per group)
                codes_here[vec.goal(a, mover_rank, occupied)] = win_code(0)
                codes_here[vec.goal(b, other_rank[:, None], occupied)] = loss_code(0)
                level[first * per_group : (first + len(other_rank)) * per_group] = (
                    codes_here.ravel()
                )
                done += children.size
                yield Progress("drop", done, work, f"{k} markers", fraction("drop", done / work))
        stats["drop_phase"] = {
            str(k): _census(
                table[folding.offsets[k] : folding.offsets[k] + folding.sizes[k]],
                layout.stride[k],
                folding.orbit[layout.sides[k][1]],
            )
            for k in range(layout.move_phase)
        }
        stats["start"] = int(table[0])


def _distinct(parts: list[npt.NDArray[np.int32]]) -> npt.NDArray[np.int32]:
    """The indices in ``parts``, sorted, each once: a position reached by several un-moves is
    in a chunk's list once per un-move. (Sorting and dropping repeats takes a fraction of the
    time of ``np.unique``, whose hashing took 83 s of a 178 s build in numpy 2.4.)"""
    found = np.concatenate([np.empty(0, I32), *parts])
    found.sort()
    keep = np.empty(len(found), dtype=bool)
    keep[:1] = True
    np.not_equal(found[1:], found[:-1], out=keep[1:])
    return found[keep]


def fold_level(level: npt.NDArray[np.int8], folding: Folding, k: int) -> npt.NDArray[np.int8]:
    """The rows (one per placement of the other side) of level ``k`` of a full table whose
    other side is canonical: level ``k`` of the folded table, shape (slots, stride)."""
    layout = folding.layout
    rows = level.reshape(-1, layout.stride[k])
    return rows[np.array(folding.canonical_ranks(layout.sides[k][1]), dtype=np.int64)]


def fold(table: npt.NDArray[np.int8], folding: Folding) -> npt.NDArray[np.int8]:
    """The folded table of a full one (in :class:`Layout` order): the rows of each level whose
    other side is canonical (:class:`~autograder.games.teeko.solved.symmetry.Folding`)."""
    layout = folding.layout
    return np.concatenate(
        [
            fold_level(
                table[layout.offsets[k] : layout.offsets[k] + layout.sizes[k]], folding, k
            ).ravel()
            for k in range(layout.levels)
        ]
    )


def fraction(stage: str, within: float) -> float:
    """The share of a whole build done when ``stage`` is ``within`` (0 to 1) done."""
    before = 0.0
    for name, share in STAGES.items():
        if name == stage:
            return before + share * min(max(within, 0.0), 1.0)
        before += share
    raise KeyError(stage)


def _census(
    codes: npt.NDArray[np.int8], stride: int = 1, weights: list[int] | None = None
) -> dict[str, int]:
    """Wins, draws and losses among ``codes``; folded rows of ``stride`` codes count once per
    placement of their orbit (``weights``), so the figures are the full table's."""
    if weights is None:
        return {
            "win": int((codes > 0).sum()),
            "draw": int((codes == 0).sum()),
            "loss": int((codes < 0).sum()),
        }
    rows = codes.reshape(-1, stride)
    weight = np.array(weights, dtype=np.int64)
    return {
        "win": int(((rows > 0).sum(axis=1) * weight).sum()),
        "draw": int(((rows == 0).sum(axis=1) * weight).sum()),
        "loss": int(((rows < 0).sum(axis=1) * weight).sum()),
    }
