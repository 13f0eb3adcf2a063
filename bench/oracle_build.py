"""Build each variant's oracle table and check it against the expected figures.

    .venv/bin/python bench/oracle_build.py [--variant V ...] [--cache DIR] [--against DIR]

Each build runs in a fresh child process, so its peak memory (``ru_maxrss``) is its own, and
so are its CPU seconds (``cpu_s``, by stage in ``cpu_stages``: less inflated than wall seconds
by other work on the machine). Then the table is loaded here, timed, checked against
tests/data/oracle_expectations.toml, and timed on 20,000 lookups of positions from random
games. Targets (issue 6): a build within 3 minutes and 2.5 GB, a load within 1 s, a lookup
within 5 us; issue 23's 20 s per build is for a quiet machine. The machine's load average is
printed too: other work on the same cores slows a build down.

``--against DIR`` compares the new table with the one of the same variant in DIR (built by
another version of the builder, only read): every stored code byte for byte, and ``code()``
on 200,000 random positions of every level (not only from games) through both oracles.

Exit status 1 when a figure is wrong (with a breakdown by marker count) or a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import time
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.teeko.rules import (  # noqa: E402
    BLACK,
    RED,
    legal_moves,
    play,
    start,
    winner,
)
from autograder.games.teeko.solved import Oracle, build, cache_dir, load  # noqa: E402
from autograder.games.teeko.solved.codes import verdict  # noqa: E402
from autograder.games.teeko.variants import VARIANTS, find_variant  # noqa: E402

EXPECTED = tomllib.loads((ROOT / "tests" / "data" / "oracle_expectations.toml").read_text())
TARGETS = {"build_s": 180.0, "peak_mb": 2500.0, "load_s": 1.0, "lookup_us": 5.0}


def _child(name: str, path: Path) -> None:
    """Build one table and print the figures as JSON (runs in its own process)."""
    started = time.perf_counter()
    cpu_started = time.process_time()
    stages: dict[str, float] = {}
    cpu_stages: dict[str, float] = {}
    stats: dict[str, Any] = {}
    for report in build(name, path):
        stages[report.stage] = round(time.perf_counter() - started, 1)
        cpu_stages[report.stage] = round(time.process_time() - cpu_started, 1)
        if report.stats is not None:
            stats = report.stats
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_s": cpu,
                "peak_mb": peak_mb,
                "stages": stages,
                "cpu_stages": cpu_stages,
                "stats": stats,
            }
        )
    )


def _positions(name: str, count: int) -> list[Any]:
    rng = random.Random(0)
    variant = find_variant(name)
    found = []
    while len(found) < count:
        pos = start(variant)
        for _ in range(rng.randrange(0, 80)):
            if winner(pos):
                break
            pos = play(pos, rng.choice(list(legal_moves(pos))))
        found.append(pos)
    return found


def _breakdown(stats: dict[str, Any]) -> str:
    levels = {**stats.get("drop_phase", {}), "8": stats.get("move_phase")}
    return "; ".join(f"{k} markers: {v}" for k, v in levels.items())


def _compare(name: str, oracle: Oracle, old: Oracle) -> list[str]:
    """Differences between two tables of ``name``: all stored codes, then random positions."""
    if bytes(oracle.table) != bytes(old.table):
        differ = sum(a != b for a, b in zip(oracle.table, old.table, strict=True))
        return [f"{name}: {differ} stored codes differ from the older table's"]
    rng = random.Random(1)
    layout = oracle.layout
    for _ in range(200_000):
        k = rng.randrange(layout.levels)
        a, b = layout.sides[k]
        squares = rng.sample(range(layout.squares), a + b)
        mover = sum(1 << sq for sq in squares[:a])
        other = sum(1 << sq for sq in squares[a:])
        black, red, turn = (mover, other, BLACK) if a == b else (other, mover, RED)
        if oracle.code(black, red, turn) != old.code(black, red, turn):
            return [f"{name}: the tables disagree on {black:#x} {red:#x} {turn}"]
    return []


def bench(name: str, folder: Path, against: Path | None) -> tuple[dict[str, Any], list[str]]:
    path = folder / f"{name}.oracle"
    load_before = os.getloadavg()[0]
    done = subprocess.run(
        [sys.executable, __file__, "--child", name, "--cache", str(folder)],
        capture_output=True,
        text=True,
        check=True,
    )
    built = json.loads(done.stdout.splitlines()[-1])
    started = time.perf_counter()
    oracle = load(name, path)
    load_s = time.perf_counter() - started
    positions = _positions(name, 20_000)
    started = time.perf_counter()
    for pos in positions:
        oracle.value(pos)
    lookup_us = (time.perf_counter() - started) / len(positions) * 1e6
    started = time.perf_counter()
    for pos in positions[:2000]:
        oracle.move_values(pos)
    moves_us = (time.perf_counter() - started) / 2000 * 1e6
    stats = built["stats"]
    start_value = verdict(stats["start"]).value
    expected = EXPECTED[name]
    row = {
        "variant": name,
        "build_s": round(built["seconds"], 1),
        "cpu_s": round(built["cpu_s"], 1),
        "stages": built["stages"],
        "cpu_stages": built["cpu_stages"],
        "peak_mb": round(built["peak_mb"]),
        "load_s": round(load_s, 2),
        "lookup_us": round(lookup_us, 2),
        "move_values_us": round(moves_us),
        "start": start_value,
        "longest_move_phase_win": stats["longest_move_phase_win"],
        "goal_placements": stats["goal_placements"],
        "blocked": stats["blocked"],
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "file_mb": round(path.stat().st_size / 1e6, 1),
    }
    problems = []
    for key in ("start", "longest_move_phase_win", "goal_placements"):
        want = expected.get(key, expected.get(f"measured_{key}"))
        if row[key] != want:
            problems.append(f"{name}: {key} is {row[key]!r}, expected {want!r}")
    if problems:
        problems.append(f"{name}: win/draw/loss by marker count: {_breakdown(stats)}")
    for key, limit in TARGETS.items():
        if row[key] > limit:
            problems.append(f"{name}: {key} {row[key]} misses the target {limit}")
    if against is not None:
        differ = _compare(name, oracle, load(name, against / f"{name}.oracle"))
        row["same_as"] = None if differ else str(against)
        problems += differ
    return row, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="default: every variant")
    parser.add_argument("--cache", type=Path, help="folder for the tables (default: the cache)")
    parser.add_argument("--against", type=Path, help="folder of older tables to compare with")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.cache or cache_dir()
    if args.child:
        _child(args.child, folder / f"{args.child}.oracle")
        return 0
    print(f"{os.cpu_count()} cores; load average before: {os.getloadavg()}; tables in {folder}")
    failed = False
    for name in args.variant or list(VARIANTS):
        row, problems = bench(name, folder, args.against)
        print(json.dumps(row))
        for problem in problems:
            print("  FAIL", problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
