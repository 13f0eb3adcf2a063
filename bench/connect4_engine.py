"""How fast the Connect Four engine plays: random-vs-random games per board, in plies per second.

A ply is what a referee needs per move: list the legal columns, pick one at random, drop the
disc and ask for the result (a line, a full board). The ``referee`` column also reads each
move back through the student format (``read_student_move`` and ``format_problem``), as a
graded game does. Whole games are played until each measurement has run for ``--seconds``;
one process.

    .venv/bin/python bench/connect4_engine.py
    .venv/bin/python bench/connect4_engine.py --seconds 5 --variant connect4 --check

``--check`` exits with status 1 when a board plays fewer than ``--target`` plies per second
(default 100,000, the figure issue 12 asks of the engine on 7x6).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.connect4.rules import (  # noqa: E402
    Variant,
    format_problem,
    legal_moves,
    play,
    read_student_move,
    result,
    start,
)
from autograder.games.connect4.variants import VARIANTS, find_variant  # noqa: E402

TARGET = 100_000


def measure(
    variant: Variant, seconds: float, seed: int, referee: bool
) -> tuple[int, int, float, Counter[str]]:
    """(games, plies, seconds, results) of whole random games played for ``seconds``."""
    rng = random.Random(seed)
    games = plies = 0
    results: Counter[str] = Counter()
    began = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        pos = start(variant)
        while (ended := result(pos)) is None:
            col = rng.choice(legal_moves(pos))
            if referee:
                col = read_student_move(col, pos)
                assert format_problem(col, pos) is None
            pos = play(pos, col)
            plies += 1
        games += 1
        results[ended] += 1
        elapsed = time.perf_counter() - began
    return games, plies, elapsed, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--variant", action="append", help="board (repeatable; default all)")
    parser.add_argument("--target", type=int, default=TARGET, help="plies/s for --check")
    parser.add_argument("--check", action="store_true", help="exit 1 below --target on 7x6")
    args = parser.parse_args(argv)
    variants = [find_variant(name) for name in args.variant or VARIANTS]
    print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per measurement, seed {args.seed}")
    print(
        f"{'board':<14}{'games':>8}{'plies':>10}{'plies/s':>10}{'referee/s':>11}  red/yellow/draw"
    )
    slow = False
    for variant in variants:
        games, plies, seconds, results = measure(variant, args.seconds, args.seed, False)
        _, ref_plies, ref_seconds, _ = measure(variant, args.seconds, args.seed, True)
        rate = plies / seconds
        split = "/".join(str(results[k]) for k in ("r", "y", "draw"))
        print(
            f"{variant.name:<14}{games:>8,}{plies:>10,}{rate:>10,.0f}"
            f"{ref_plies / ref_seconds:>11,.0f}  {split}"
        )
        slow = slow or (variant.name == "connect4" and rate < args.target)
    return 1 if args.check and slow else 0


if __name__ == "__main__":
    sys.exit(main())
