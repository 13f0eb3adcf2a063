"""How strong the Kalah reference solution is: games against the kit's opponents and the
answer key.

Each player is a course player driven as the driver drives one (``autograder/games/kalah/
driver.py``): a fresh ``KalahPlayer`` per game with ``my_piece``/``opp`` set, asked
``make_move(player.board)`` (each move checked by the kit's rules and timed), told its own
move with ``sow`` and the other side's with ``opponent_move``. The kit's opponents
(``random``, ``greedy``, ``minimax2``) play through the pack. Sides alternate, the solution
south (moving first) in even games; the opponent's first move is random so the games differ.

    .venv/bin/python bench/kalah_strength.py --opponent minimax2 --games 40 --budget 0.2
    .venv/bin/python bench/kalah_strength.py --opponent answer-key --games 40 --budget 0.2
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.kalah import PACK  # noqa: E402
from autograder.games.kalah.rules import PIECES, Position, read_student_move  # noqa: E402


def load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class Course:
    """A course player (a ``KalahPlayer`` class) at one side of one game."""

    def __init__(self, module: ModuleType, side: str, start: Position) -> None:
        self.player = module.KalahPlayer()
        self.player.my_piece, self.player.opp = side, PIECES[1 - PIECES.index(side)]
        self.player.board = [list(row) for row in PACK.state(start)]
        self.times: list[float] = []

    def move(self, pos: Position) -> int:
        began = time.perf_counter()
        raw = self.player.make_move(self.player.board)
        self.times.append(time.perf_counter() - began)
        return read_student_move(raw, pos)  # raises on an illegal move

    def told(self, side: str, pit: int) -> None:
        if side == self.player.my_piece:
            self.player.sow(pit, side)
        else:
            self.player.opponent_move(pit)


def play(solution: ModuleType, other: Any, variant: Any, number: int) -> tuple[str, list[float]]:
    """One game: "win", "draw" or "loss" for the solution, and its move times."""
    pos = PACK.start(variant)
    mine = PIECES[number % 2]
    me = Course(solution, mine, pos)
    them = Course(other, PIECES[1 - number % 2], pos) if isinstance(other, ModuleType) else None
    rng = random.Random(f"kalah-bench:{number}")
    first = True
    while PACK.result(pos) is None:
        side = PACK.turn(pos)
        if side == mine:
            pit = me.move(pos)
        elif first:
            pit = rng.choice(PACK.legal_moves(pos))
        elif them is not None:
            pit = them.move(pos)
        else:
            pit = other(pos, rng)
        first = first and side == mine
        for seat in (me, them):
            if seat is not None:
                seat.told(side, pit)
        pos = PACK.play(pos, pit)
    won = PACK.result(pos)
    return ("win" if won == mine else "loss" if won in PIECES else "draw"), me.times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--opponent", default="minimax2", help="random, greedy, minimax2 or answer-key"
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--budget", type=float, default=1.0, help="the solution's TIME_BUDGET")
    parser.add_argument("--variant", default="kalah")
    args = parser.parse_args()
    solution = load(ROOT / "solution" / "kalah" / "game.py", "solution_kalah")
    solution.TIME_BUDGET = args.budget
    other: Any = (
        load(ROOT / "answer_key" / "kalah" / "game.py", "key_kalah")
        if args.opponent == "answer-key"
        else PACK.opponents[args.opponent][1]
    )
    variant = PACK.variants[args.variant]
    tally = {"win": 0, "draw": 0, "loss": 0}
    times: list[float] = []
    for number in range(args.games):
        outcome, took = play(solution, other, variant, number)
        tally[outcome] += 1
        times += took
    print(
        f"{args.variant}, solution (budget {args.budget} s) against {args.opponent}, "
        f"{args.games} games: {tally['win']} won, {tally['draw']} drawn, {tally['loss']} lost; "
        f"its moves: mean {statistics.mean(times):.3f} s, slowest {max(times):.3f} s"
    )


if __name__ == "__main__":
    main()
