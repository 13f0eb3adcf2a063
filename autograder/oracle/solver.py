"""Solve a game exactly: retrograde analysis of the move phase, then the drop phase backwards.

``Solver(game).run()`` is a generator of :class:`Progress` reports; when it is exhausted,
``solver.table`` holds one code per position (see :mod:`autograder.oracle.codes`) in the order
of :class:`~autograder.oracle.layout.Layout`, and ``solver.stats`` the figures of the build.
Stop iterating to stop the build; nothing is written anywhere by this module.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from autograder.oracle._vector import VectorLayout
from autograder.oracle.codes import MAX_PLIES, UNKNOWN, loss_code, win_code
from autograder.oracle.game import Game
from autograder.oracle.layout import Layout

__all__ = ["Progress", "Solver", "STAGES"]

I32 = np.int32

# Stages of a build and their rough share of its time (measured on 5x5, see docs/oracle.md);
# the share turns per-stage counts into one progress figure with an honest-ish ETA.
STAGES = {"classify": 0.08, "retrograde": 0.72, "drop": 0.20}

# Positions per numpy chunk: big enough to amortise Python overhead, small enough that the
# predecessor arrays (about 32 int32 entries per position, several of them) stay near 100 MB.
_CHUNK = 1 << 18
_SCAN = 1 << 22


@dataclass(frozen=True)
class Progress:
    """Where a build stands: ``done`` of ``total`` units of ``stage``, and a line of detail.

    ``fraction`` is the whole build's estimated completed share, from 0 to 1.
    """

    stage: str
    done: int
    total: int
    detail: str
    fraction: float


class Solver:
    """The exact solution of ``game``, computed by :meth:`run`."""

    def __init__(self, game: Game, chunk: int = _CHUNK) -> None:
        self.game = game
        self.layout = Layout(game)
        self.chunk = chunk
        self.table: npt.NDArray[np.int8] = np.empty(0, dtype=np.int8)
        self.stats: dict[str, Any] = {}

    def run(self) -> Iterator[Progress]:
        """Solve, reporting progress; afterwards ``table`` and ``stats`` are filled in."""
        started = time.perf_counter()
        vec = VectorLayout(self.layout)
        layout = self.layout
        table = np.full(layout.total, UNKNOWN, dtype=np.int8)
        k = layout.move_phase
        move = table[layout.offsets[k] :]
        counts = np.zeros(layout.sizes[k], dtype=np.uint8)
        stats: dict[str, Any] = {"positions": layout.total, "levels": list(layout.sizes)}
        yield from self._classify(vec, move, counts, stats)
        stats["seconds_classify"] = round(time.perf_counter() - started, 1)
        yield from self._retrograde(vec, move, counts, stats)
        del counts
        stats["seconds_retrograde"] = round(time.perf_counter() - started, 1)
        yield from self._drop(vec, table, stats)
        stats["seconds"] = round(time.perf_counter() - started, 1)
        if (table == UNKNOWN).any():
            raise AssertionError("the solver left undecided positions")
        self.table = table
        self.stats = stats

    # ---- move phase ----------------------------------------------------------------------------

    def _classify(
        self,
        vec: VectorLayout,
        move: npt.NDArray[np.int8],
        counts: npt.NDArray[np.uint8],
        stats: dict[str, Any],
    ) -> Iterator[Progress]:
        """Mark terminal positions (goals; no legal move) and count every position's moves."""
        m = self.game.markers
        k = self.layout.move_phase
        total = len(move)
        mover_goals = blocked = 0
        for start in range(0, total, self.chunk):
            idx = np.arange(start, min(total, start + self.chunk), dtype=I32)
            x_sq, x_mask, _, y_mask, y_rank = vec.decode(k, idx)
            occupied = x_mask | y_mask
            mover_goal = vec.goal(m, vec.rank(x_mask), occupied)
            other_goal = vec.goal(m, y_rank, occupied)
            moves = vec.move_counts(x_sq, occupied)
            codes = np.full(len(idx), UNKNOWN, dtype=np.int8)
            codes[moves == 0] = loss_code(0)
            codes[mover_goal] = win_code(0)
            codes[other_goal] = loss_code(0)  # both goals: the side that just moved wins
            move[start : start + len(idx)] = codes
            counts[start : start + len(idx)] = moves
            mover_goals += int(mover_goal.sum())
            blocked += int(((moves == 0) & ~mover_goal & ~other_goal).sum())
            done = start + len(idx)
            yield Progress("classify", done, total, "", _fraction("classify", done / total))
        stats["goal_placements"] = mover_goals
        stats["blocked"] = blocked

    def _retrograde(
        self,
        vec: VectorLayout,
        move: npt.NDArray[np.int8],
        counts: npt.NDArray[np.uint8],
        stats: dict[str, Any],
    ) -> Iterator[Progress]:
        """Work outward from the decided positions, one ply at a time.

        At ply d the positions lost in d plies make each undecided predecessor a win in d + 1;
        the positions won in d plies take one move off each undecided predecessor's counter,
        and a predecessor whose counter reaches 0 (every move hands the opponent a win, the
        slowest of them in d plies) is lost in d + 1. See the invariant in ``codes``.
        """
        total = len(move)
        undecided = int((move == UNKNOWN).sum())
        decided = total - undecided
        expanded = 0
        one = np.uint8(1)
        ply = 0
        longest = {"win": 0, "loss": 0}
        while True:
            lost, won = loss_code(ply), win_code(ply)
            found = {lost: 0, won: 0}
            for start in range(0, total, _SCAN):
                block = move[start : start + _SCAN]
                for code in (lost, won):
                    frontier = np.flatnonzero(block == code).astype(I32) + I32(start)
                    found[code] += len(frontier)
                    for part in range(0, len(frontier), self.chunk):
                        before = vec.predecessors(frontier[part : part + self.chunk])
                        before = before[move[before] == UNKNOWN]
                        if code == lost:
                            move[before] = win_code(ply + 1)
                        else:
                            np.subtract.at(counts, before, one)
                            before = before[counts[before] == 0]
                            move[before] = loss_code(ply + 1)
                    expanded += len(frontier)
                yield Progress(
                    "retrograde",
                    expanded,
                    decided,
                    f"ply {ply}",
                    _fraction("retrograde", expanded / max(decided, 1)),
                )
            if not found[lost] + found[won]:
                break
            for kind, code in (("win", won), ("loss", lost)):
                if found[code]:
                    longest[kind] = ply
            ply += 1
            if ply + 1 > MAX_PLIES:
                raise AssertionError(f"a game longer than {MAX_PLIES} plies does not fit a byte")
            decided = max(decided, total - int((move == UNKNOWN).sum()))
        move[move == UNKNOWN] = 0
        stats["longest_move_phase_win"] = longest["win"]
        stats["longest_move_phase_loss"] = longest["loss"]
        stats["move_phase"] = _census(move)

    # ---- drop phase ----------------------------------------------------------------------------

    def _drop(
        self, vec: VectorLayout, table: npt.NDArray[np.int8], stats: dict[str, Any]
    ) -> Iterator[Progress]:
        """Fill the drop-phase levels from the fullest down: each is a minimax over its drops."""
        layout = self.layout
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
        work = sum(layout.sizes[k] * (layout.squares - k) for k in range(layout.move_phase))
        done = 0
        for k in reversed(range(layout.move_phase)):
            a, b = layout.sides[k]
            level = table[layout.offsets[k] : layout.offsets[k] + layout.sizes[k]]
            below = table[layout.offsets[k + 1] : layout.offsets[k + 1] + layout.sizes[k + 1]]
            chunk = max(1, self.chunk // 4)
            for start in range(0, len(level), chunk):
                idx = np.arange(start, min(len(level), start + chunk), dtype=I32)
                mover_rank, other_rank, occupied, children = vec.drop_level(k, idx)
                child = below[children].view(np.uint8)
                choice = best[child].max(axis=1)
                codes_here = back[choice + 256]
                mover_goal = vec.goal(a, mover_rank, occupied)
                other_goal = vec.goal(b, other_rank, occupied)
                codes_here[mover_goal] = win_code(0)
                codes_here[other_goal] = loss_code(0)
                level[start : start + len(idx)] = codes_here
                done += len(idx) * (layout.squares - k)
                yield Progress("drop", done, work, f"{k} markers", _fraction("drop", done / work))
        stats["drop_phase"] = {
            str(k): _census(table[layout.offsets[k] : layout.offsets[k] + layout.sizes[k]])
            for k in range(layout.move_phase)
        }
        stats["start"] = int(table[0])


def _fraction(stage: str, within: float) -> float:
    before = 0.0
    for name, share in STAGES.items():
        if name == stage:
            return before + share * min(max(within, 0.0), 1.0)
        before += share
    raise KeyError(stage)


def _census(codes: npt.NDArray[np.int8]) -> dict[str, int]:
    return {
        "win": int((codes > 0).sum()),
        "draw": int((codes == 0).sum()),
        "loss": int((codes < 0).sum()),
    }
