"""The folded, compressed oracle table (format 2) against the one-byte-per-position table
(format 1) it replaces: size, build time, load time, lookups, and the same answers.

    .venv/bin/python bench/oracle_table.py [--variant V ...] [--old DIR] [--cache DIR] [--build]

``--old`` is a folder of format-1 tables (default ``~/.cache/teeko-autograder``: read here,
never written); ``--cache`` the folder of the new ones (default: the kit's cache), built first
in a child process when ``--build`` is given (its wall seconds by stage and its CPU seconds,
which other work on the machine inflates less, are printed; the CPU time includes starting
Python and importing numpy). Both tables
are then loaded and asked about the same positions: 20,000 from random games (one ``value``
each) and the children of 2,000 of them (``move_values``, the perfect player's and move
quality's pattern: many lookups sharing the other side). Every answer must agree, and the
folded table must equal the rows of the old one it keeps (checked with numpy).

Targets (issue 23): a table of at most 15 MB, a build of at most 20 s, lookups at most twice
as slow as format 1's. Exit status 1 when an answer differs or a target is missed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.teeko.rules import legal_moves, play, start, winner  # noqa: E402
from autograder.games.teeko.solved import build, cache_dir, load  # noqa: E402
from autograder.games.teeko.solved.core import Oracle  # noqa: E402
from autograder.games.teeko.solved.game import game_for  # noqa: E402
from autograder.games.teeko.solved.layout import Layout  # noqa: E402
from autograder.games.teeko.solved.solver import fold  # noqa: E402
from autograder.games.teeko.variants import VARIANTS, find_variant  # noqa: E402

TARGETS = {"file_mb": 15.0, "build_s": 20.0, "value_ratio": 2.0, "move_values_ratio": 2.0}
OLD_MAGIC = b"teeko-oracle\n"


class FormatOne:
    """The format-1 reader and lookup, as the kit had them before format 2 (for comparison)."""

    def __init__(self, path: Path) -> None:
        raw = path.read_bytes()
        if not raw.startswith(OLD_MAGIC):
            raise SystemExit(f"{path} is not an oracle table")
        head, payload = raw[len(OLD_MAGIC) :].split(b"\n", 1)
        header = json.loads(head)
        if header.get("format") != 1:
            raise SystemExit(f"{path} is in format {header.get('format')}, not 1")
        if hashlib.sha256(payload).hexdigest() != header["sha256"]:
            raise SystemExit(f"{path} is damaged")
        self.game = game_for(find_variant(header["game"]["name"]))
        self.layout = Layout(self.game)
        self.payload = payload
        self._codes = memoryview(payload).cast("b")
        self._rank = self.layout.rank
        self._sides = self.layout.sides
        self._stride = self.layout.stride
        self._offsets = self.layout.offsets

    def _code(self, mover: int, other: int) -> int:
        k = (mover | other).bit_count()
        a, b = self._sides[k]
        if mover.bit_count() != a or other.bit_count() != b or mover & other:
            raise IndexError(k)
        rel = 0
        bits = mover
        while bits:
            low = bits & -bits
            rel |= 1 << (low.bit_length() - 1 - (other & (low - 1)).bit_count())
            bits ^= low
        rank = self._rank
        return self._codes[self._offsets[k] + rank[other] * self._stride[k] + rank[rel]]

    # The rest of the lookup path is the kit's own, so the two differ only in _code.
    code = Oracle.code
    value = Oracle.value
    move_values = Oracle.move_values
    _check_variant = Oracle._check_variant


def _child(name: str, path: Path) -> None:
    """Build one table and print its figures as JSON (runs in its own process)."""
    started = time.perf_counter()
    stages: dict[str, float] = {}
    for report in build(name, path):
        stages[report.stage] = round(time.perf_counter() - started, 1)
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    seconds = round(time.perf_counter() - started, 1)
    print(json.dumps({"seconds": seconds, "cpu_s": round(cpu, 1), "stages": stages}))


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


def _per_call_us(calls: Any, items: list[Any]) -> float:
    started = time.perf_counter()
    for item in items:
        calls(item)
    return (time.perf_counter() - started) / len(items) * 1e6


def bench(name: str, old_dir: Path, folder: Path, do_build: bool) -> tuple[dict[str, Any], list]:
    old_path, new_path = old_dir / f"{name}.oracle", folder / f"{name}.oracle"
    row: dict[str, Any] = {"variant": name, "load_average": round(os.getloadavg()[0], 2)}
    if do_build:
        done = subprocess.run(
            [sys.executable, __file__, "--child", name, "--cache", str(folder)],
            capture_output=True,
            text=True,
            check=True,
        )
        built = json.loads(done.stdout.splitlines()[-1])
        row["build_s"] = built["seconds"]
        row["build_cpu_s"] = built["cpu_s"]  # the process's own, whatever else runs
        row["stages_s"] = built["stages"]
    started = time.perf_counter()
    old = FormatOne(old_path)
    row["old_load_s"] = round(time.perf_counter() - started, 2)
    started = time.perf_counter()
    new = load(name, new_path)
    row["new_load_s"] = round(time.perf_counter() - started, 2)
    row["old_file_mb"] = round(old_path.stat().st_size / 1e6, 2)
    row["file_mb"] = round(new_path.stat().st_size / 1e6, 2)
    row["new_memory_mb"] = round(len(new.table) / 1e6, 1)
    problems = []
    full = np.frombuffer(old.payload, dtype=np.int8)
    if not np.array_equal(fold(full, new.folding), np.frombuffer(new.table, dtype=np.int8)):
        problems.append(f"{name}: the folded table is not the old table's canonical rows")
    positions = _positions(name, 20_000)
    triples = [(p.black, p.red, p.turn) for p in positions]
    old_codes = [old.code(*t) for t in triples]
    new_codes = [new.code(*t) for t in triples]
    if old_codes != new_codes:
        differ = sum(map(int.__ne__, old_codes, new_codes))
        problems.append(f"{name}: value() answers differ on {differ} positions")
    some = positions[:2000]
    if [old.move_values(p) for p in some] != [new.move_values(p) for p in some]:
        problems.append(f"{name}: move_values() answers differ")
    # Timed on a fresh load: the first lookup of each other side's placement costs its frame.
    new = load(name, new_path)
    row["old_value_us"] = round(_per_call_us(lambda t: old.code(*t), triples), 2)
    row["new_value_us"] = round(_per_call_us(lambda t: new.code(*t), triples), 2)
    row["new_value_again_us"] = round(_per_call_us(lambda t: new.code(*t), triples), 2)
    row["old_move_values_us"] = round(_per_call_us(old.move_values, some), 1)
    row["new_move_values_us"] = round(_per_call_us(new.move_values, some), 1)
    row["value_ratio"] = round(row["new_value_us"] / row["old_value_us"], 2)
    row["move_values_ratio"] = round(row["new_move_values_us"] / row["old_move_values_us"], 2)
    row["load_average_after"] = round(os.getloadavg()[0], 2)
    for key, limit in TARGETS.items():
        if key in row and row[key] > limit:
            problems.append(f"{name}: {key} {row[key]} misses the target {limit}")
    return row, problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", action="append", help="default: every variant")
    parser.add_argument("--old", type=Path, default=Path.home() / ".cache" / "teeko-autograder")
    parser.add_argument("--cache", type=Path, help="folder of the new tables (default: the cache)")
    parser.add_argument("--build", action="store_true", help="build the new tables first")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folder = args.cache or cache_dir()
    if args.child:
        _child(args.child, folder / f"{args.child}.oracle")
        return 0
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()}; old {args.old}, new {folder}")
    failed = False
    for name in args.variant or list(VARIANTS):
        row, problems = bench(name, args.old, folder, args.build)
        print(json.dumps(row), flush=True)
        for problem in problems:
            print("  FAIL", problem)
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
