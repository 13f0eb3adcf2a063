"""Whether the Connect Four reference solution keeps the exact value near the end of a game.

On seeded 7x6 positions with 1 to 16 empty cells (half of them "quiet": no side can complete
a line with its next disc), the solution, at its own ``TIME_BUDGET``, is asked for a move, and
the kit's exact solver (``autograder/oracle/connect4.py``) says whether that move keeps the
position's value: a won position stays won, a drawn one drawn. A lost position is kept by any
move. Prints the misses, the count and the move times.

    .venv/bin/python bench/connect4_exact.py --positions 200
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.connect4.rules import opponent, position_text, to_board  # noqa: E402
from autograder.games.connect4.solver import Solver, positions_with_empty  # noqa: E402
from bench.connect4_strength import load_solution  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--most-empty", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    solution = load_solution()
    solver = Solver("connect4")
    counts = range(1, args.most_empty + 1)
    per_count = -(-args.positions // (2 * len(counts)))
    positions = [
        pos
        for empty in counts
        for quiet in (False, True)
        for pos in positions_with_empty("connect4", args.seed + empty, empty, per_count, quiet)
    ][: args.positions]
    kept, times = 0, []
    for pos in positions:
        player = solution.Connect4Player()
        player.my_piece, player.opp = pos.turn, opponent(pos.turn)
        board = to_board(pos)
        player.board = [row[:] for row in board]
        began = time.perf_counter()
        column = player.make_move(board)
        times.append(time.perf_counter() - began)
        best = solver.value(pos).value
        got = dict(solver.move_values(pos)).get(column)
        if got is not None and got.value == best:
            kept += 1
        else:
            print(f"missed: {position_text(pos)} ({best}): played {column}, worth {got}")
    print(f"kept the exact value in {kept} of {len(positions)} positions (1 to {counts[-1]} empty)")
    print(f"move time: median {statistics.median(times):.3f} s, max {max(times):.3f} s")
    return 0 if kept == len(positions) else 1


if __name__ == "__main__":
    raise SystemExit(main())
