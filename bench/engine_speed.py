"""How fast the rules engine plays: random-vs-random games per variant, in plies per second.

A ply is what a referee needs per move: generate the legal moves, pick one at random, play it
and ask for the outcome (a goal, or the ply cap: 200 plies, a draw). The ``referee`` column
also reads each move back through the student format (``Move.student`` then
``read_student_move`` and ``format_problem``), as a graded game does. Whole games are played
until each measurement has run for ``--seconds``; one process, no parallelism.

    .venv/bin/python bench/engine_speed.py
    .venv/bin/python bench/engine_speed.py --seconds 5 --variant teeko2 --check

``--check`` exits with status 1 when a variant plays fewer than ``--target`` plies per second
(default 20,000, the figure issue 2 asks of the engine).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.teeko.rules import (  # noqa: E402
    format_problem,
    legal_moves,
    outcome,
    play,
    read_student_move,
    start,
)
from autograder.games.teeko.variants import VARIANTS, Variant, find_variant  # noqa: E402

PLY_CAP = 200
TARGET = 20_000


@dataclass
class Run:
    """Games played in one measurement and how they ended."""

    games: int = 0
    plies: int = 0
    seconds: float = 0.0
    results: Counter[str] = field(default_factory=Counter)  # 'b', 'r' or 'draw'

    @property
    def rate(self) -> float:
        return self.plies / self.seconds if self.seconds else 0.0


def _game(variant: Variant, rng: random.Random, referee: bool) -> tuple[int, str]:
    """Plies played and the result of one random-vs-random game."""
    pos = start(variant)
    plies = 0
    while (ended := outcome(pos, plies, PLY_CAP)) is None:
        move = rng.choice(list(legal_moves(pos)))
        if referee:
            raw = move.student()
            move = read_student_move(raw, pos)
            assert format_problem(raw, pos) is None
        pos = play(pos, move)
        plies += 1
    return plies, ended.winner or "draw"


def measure(variant: Variant, seconds: float, seed: int, referee: bool = False) -> Run:
    """Play whole games until ``seconds`` have passed (the last game is finished, not cut)."""
    rng = random.Random(seed)
    run = Run()
    began = time.perf_counter()
    while run.seconds < seconds:
        plies, result = _game(variant, rng, referee)
        run.games += 1
        run.plies += plies
        run.results[result] += 1
        run.seconds = time.perf_counter() - began
    return run


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument(
        "--variant", action="append", help="variant to measure (repeatable; default all)"
    )
    parser.add_argument("--target", type=int, default=TARGET, help="plies/s for --check")
    parser.add_argument("--check", action="store_true", help="exit 1 below --target")
    args = parser.parse_args(argv)
    variants = [find_variant(name) for name in args.variant or VARIANTS]

    print(f"Python {sys.version.split()[0]}, {args.seconds:g} s per measurement, seed {args.seed}")
    header = f"{'variant':<16}{'games':>7}{'plies':>9}{'plies/s':>10}{'referee/s':>11}"
    print(f"{header}{'plies/game':>12}  black/red/draw")
    slow = []
    for variant in variants:
        run = measure(variant, args.seconds, args.seed)
        referee = measure(variant, args.seconds, args.seed, referee=True)
        split = "/".join(str(run.results[k]) for k in ("b", "r", "draw"))
        print(
            f"{variant.name:<16}{run.games:>7,}{run.plies:>9,}{run.rate:>10,.0f}"
            f"{referee.rate:>11,.0f}{run.plies / run.games:>12.1f}  {split}"
        )
        if run.rate < args.target:
            slow.append(variant.name)
    if slow:
        print(f"below {args.target:,} plies/s: {', '.join(slow)}")
    return 1 if args.check and slow else 0


if __name__ == "__main__":
    sys.exit(main())
