"""Move quality of a reference solution, judged by the oracle on seeded positions.

Each position is a seeded probe (reachable, non-terminal, both phases, as the grader draws
them); the solution moves from it as the course driver would ask, and the oracle says whether
the move kept the position's true value (win stays win, draw stays draw). With ``--opening N``
the positions are instead every drawn position after N drops from the start, where losing
moves lose too slowly for a search to see (up to 36 plies later at N = 3), and each error is
listed with the oracle's best moves.

    .venv/bin/python bench/solution_quality.py --variant teeko2 --positions 1000 --jobs 2
    .venv/bin/python bench/solution_quality.py --variant teeko --opening 2

Needs the variant's oracle table (``autograder oracle build --variant V``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from solution_strength import load_solution  # noqa: E402

from autograder.games.teeko.probes import probe_positions  # noqa: E402
from autograder.games.teeko.rules import (  # noqa: E402
    Position,
    is_drop_phase,
    legal_moves,
    opponent,
    parse_position,
    play,
    position_text,
    read_student_move,
    start,
    to_board,
)
from autograder.games.teeko.solved import Oracle, load  # noqa: E402
from autograder.games.teeko.solved.codes import DRAW  # noqa: E402
from autograder.games.teeko.variants import find_variant  # noqa: E402

_STATE: dict[str, object] = {}


def judge(task: tuple[str, str, float]) -> tuple[str, str, str, str]:
    """(value before, value after, phase, move) of the solution's move from one position."""
    variant_name, text, budget = task
    if not _STATE:
        _STATE["oracle"] = load(variant_name)
        _STATE["solution"] = load_solution(variant_name)
    oracle, solution = _STATE["oracle"], _STATE["solution"]
    solution.TIME_BUDGET = budget  # type: ignore[attr-defined]
    pos = parse_position(text, variant_name)
    player = getattr(solution, find_variant(variant_name).player_class)()
    player.my_piece, player.opp = pos.turn, opponent(pos.turn)
    player.board = to_board(pos)
    move = read_student_move(player.make_move(player.board), pos)
    before = oracle.value(pos)  # type: ignore[attr-defined]
    after = oracle.value(play(pos, move)).after_move()  # type: ignore[attr-defined]
    return before.value, after.value, "drop" if is_drop_phase(pos) else "move", str(move)


def opening_positions(oracle: Oracle, variant_name: str, drops: int) -> list[Position]:
    """Every drawn position reached by ``drops`` drops from the start, each once."""
    layer = {start(find_variant(variant_name))}
    for _ in range(drops):
        layer = {play(pos, move) for pos in layer for move in legal_moves(pos)}
    drawn = [pos for pos in layer if oracle.value(pos).value == DRAW]
    return sorted(drawn, key=position_text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="teeko2", choices=["teeko", "teeko2"])
    parser.add_argument("--positions", type=int, default=1000)
    parser.add_argument("--opening", type=int, metavar="N", help="every drawn position at ply N")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, help="seconds per move (default: the file's)")
    args = parser.parse_args(argv)
    budget = args.budget if args.budget is not None else load_solution(args.variant).TIME_BUDGET

    if args.opening is not None:
        oracle = load(args.variant)
        positions = opening_positions(oracle, args.variant, args.opening)
        drops = "1 drop" if args.opening == 1 else f"{args.opening} drops"
        drawn = f"every drawn position after {drops}"
    else:
        half = args.positions // 2
        variant = find_variant(args.variant)
        counts = {"drop": half, "move": args.positions - half}
        positions = probe_positions(variant, args.seed, counts)
        drawn = f"seed {args.seed}"
    tasks = [(args.variant, position_text(pos), budget) for pos in positions]
    print(
        f"{args.variant}: {len(tasks)} positions ({drawn}), budget {budget:g} s, "
        f"jobs {args.jobs}, load average {os.getloadavg()[0]:.2f}"
    )
    began = time.perf_counter()
    with multiprocessing.Pool(args.jobs) as pool:
        judged = pool.map(judge, tasks, chunksize=8)
    kept = Counter((before, after) for before, after, _, _ in judged)
    total_kept = sum(n for (b, a), n in kept.items() if b == a)
    print(f"kept the true value in {total_kept} of {len(judged)} positions")
    for (before, after), count in sorted(kept.items()):
        if before != after:
            print(f"  {before} -> {after}: {count}")
    by_phase = Counter(phase for b, a, phase, _ in judged if b != a)
    print(f"errors by phase: {dict(by_phase)}; wall time {time.perf_counter() - began:.0f} s")
    if args.opening is not None:
        for (before, after, _, move), pos in zip(judged, positions, strict=True):
            if before != after:
                best = " ".join(str(m) for m in oracle.best_moves(pos))
                print(f"  {position_text(pos)}: played {move} ({after}); best {best}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
