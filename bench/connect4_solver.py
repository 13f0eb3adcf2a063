"""How fast the Connect Four solver (autograder/oracle/connect4.py) answers, and how far it reaches.

Three measurements, each position solved by a fresh solver (an empty table), one process:

(a) ``--count`` seeded random 7x6 positions with 1 to ``--max-empty`` empty cells (as many of
    each count): median and largest seconds and nodes per ``value``; then the same for
    "quiet" ones (neither side can complete a line with its next disc), which need a search;
(b) the empty 4x4 and 5x4 boards: their value, seconds and nodes;
(c) how many empty cells a 7x6 position can have and still be solved within ``--seconds``:
    for each count of ``--empties``, ``--per-count`` random and as many quiet positions; the
    answer is the largest count (of those tried, every smaller one passing too) for which at
    least 95% finish in time. A search still running after ``--seconds`` is stopped (a
    timer signal), so the whole run stays within a few minutes.

    .venv/bin/python bench/connect4_solver.py
    .venv/bin/python bench/connect4_solver.py --empties 16,20 --per-count 4

Figures depend on the machine and on what else runs on it: the load average is printed.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.connect4.rules import Position, start  # noqa: E402
from autograder.games.connect4.solver import Solver, positions_with_empty  # noqa: E402
from autograder.games.connect4.variants import find_variant  # noqa: E402
from autograder.games.perfect import OracleError  # noqa: E402
from autograder.games.teeko.solved.codes import Verdict  # noqa: E402

SHARE = 0.95  # of the positions of a count that must finish in time


@dataclass
class Solved:
    """One position solved (or given up on) by a fresh solver."""

    empty: int
    seconds: float
    nodes: int
    verdict: Verdict | None  # None when the node limit stopped it


class _OutOfTime(Exception):
    pass


def _alarm(signum: int, frame: object) -> None:
    raise _OutOfTime


def solve(pos: Position, node_limit: int, seconds: float = 0.0) -> Solved:
    """Solve ``pos`` with a fresh solver, stopped after ``seconds`` (0: never)."""
    solver = Solver(pos.variant, node_limit=node_limit)
    began = time.perf_counter()
    verdict: Verdict | None = None
    if seconds:
        signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        verdict = solver.value(pos)
    except (OracleError, _OutOfTime):
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
    seconds = time.perf_counter() - began
    return Solved(42 - pos.occupied.bit_count(), seconds, solver.nodes, verdict)


def _sample(seed: int, count: int, max_empty: int, quiet: bool) -> list[Position]:
    """``count`` positions spread evenly over 1..max_empty empty cells."""
    positions: list[Position] = []
    for empty in range(1, max_empty + 1):
        share = count // max_empty + (1 if empty <= count % max_empty else 0)
        if share:
            positions += positions_with_empty("connect4", seed + empty, empty, share, quiet)
    return positions


def _summary(label: str, runs: list[Solved]) -> None:
    """One line of (a)."""
    seconds = [r.seconds for r in runs]
    nodes = [r.nodes for r in runs]
    kinds = {
        k: sum(1 for r in runs if r.verdict and r.verdict.value == k)
        for k in ("win", "draw", "loss")
    }
    at_once = sum(1 for r in runs if r.verdict and r.verdict.plies == 1)
    print(
        f"{label:<8}{len(runs):>6}{statistics.median(seconds):>11.4f}{max(seconds):>10.3f}"
        f"{statistics.median(nodes):>11,.0f}{max(nodes):>11,}{sum(nodes):>12,}"
        f"   {kinds['win']}/{kinds['draw']}/{kinds['loss']}, {at_once} won at once"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--count", type=int, default=200, help="positions of (a) (default 200)")
    parser.add_argument("--max-empty", type=int, default=16, help="(a)'s most empty cells")
    parser.add_argument(
        "--empties",
        default="16,20,24,28,32",
        help="(c)'s counts of empty cells (default 16,20,24,28,32)",
    )
    parser.add_argument("--per-count", type=int, default=10, help="(c)'s positions per count")
    parser.add_argument("--seconds", type=float, default=5.0, help="(c)'s time per position")
    args = parser.parse_args(argv)

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, seed {args.seed}, load average {load}")

    print(f"\n(a) 7x6 positions with 1-{args.max_empty} empty cells, a fresh solver each")
    print(
        f"{'kind':<8}{'count':>6}{'median s':>11}{'max s':>10}{'median n':>11}{'max n':>11}"
        f"{'all nodes':>12}   win/draw/loss"
    )
    for quiet in (False, True):
        positions = _sample(args.seed, args.count, args.max_empty, quiet)
        _summary("quiet" if quiet else "random", [solve(p, 10**9) for p in positions])

    print("\n(b) the empty small boards")
    for name in ("connect4-4x4", "connect4-5x4"):
        variant = find_variant(name)
        solver = Solver(variant, node_limit=10**9)
        began = time.perf_counter()
        verdict = solver.value(start(variant))
        seconds = time.perf_counter() - began
        print(
            f"{name:<14}{verdict.value:>6}{seconds:>9.2f} s{solver.nodes:>10,} nodes"
            f"{solver.nodes / seconds:>10,.0f} nodes/s"
        )

    print(
        f"\n(c) 7x6 positions solved within {args.seconds:g} s ({args.per_count} random and "
        "as many quiet ones per count)"
    )
    print(f"{'empty':>5}  {'kind':<7}{'in time':>8}{'median s':>10}{'max s':>9}{'max n':>11}")
    reach = {"random": 0, "quiet": 0}  # the largest count passed, every smaller one too
    failed: set[str] = set()
    for empty in sorted(int(e) for e in args.empties.split(",")):
        for quiet in (False, True):
            kind = "quiet" if quiet else "random"
            seed = args.seed * 1000 + empty
            positions = positions_with_empty("connect4", seed, empty, args.per_count, quiet)
            runs = [solve(p, 10**9, args.seconds) for p in positions]
            done = sum(1 for r in runs if r.verdict is not None and r.seconds <= args.seconds)
            seconds = [r.seconds for r in runs]
            print(
                f"{empty:>5}  {kind:<7}{done:>5}/{len(runs):<2}"
                f"{statistics.median(seconds):>10.3f}{max(seconds):>9.2f}"
                f"{max(r.nodes for r in runs):>11,}"
            )
            if done < SHARE * len(runs):
                failed.add(kind)
            elif kind not in failed:
                reach[kind] = empty
    for kind, empty in reach.items():
        text = f"{empty} empty cells" if empty else "none of the counts tried"
        print(f"reach within {args.seconds:g} s ({SHARE:.0%} of the positions), {kind}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
