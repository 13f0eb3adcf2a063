"""CPU time of a search in the grader's child against plain Python: the sandbox must not tax it.

    python bench/child_cpu.py [--repeats 5] [--depth 3] [--positions 10]

A CPU-bound, deepcopy-heavy minimax (a ``copy.deepcopy`` of the board per node, as students
write it) is asked for a move on the same seeded Teeko positions, several times over: in plain
Python (``python game_runner.py``, CPU from ``time.process_time``) and graded in the kit's
child with every sandbox layer this machine offers (fence, uid, cgroups with the freeze,
seccomp, limits; CPU from the submission's cgroup, as the grader reads it). Prints the CPU
seconds of each run and the ratio of the medians.

Target (issue 33): graded within 5 % of plain (ratio <= 1.05).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from autograder.games import PACKS
from autograder.games.teeko.probes import random_position
from autograder.games.teeko.rules import to_board
from autograder.games.teeko.variants import find_variant
from autograder.play.host import PlayerProcess
from autograder.play.launch import Launch, Limits
from autograder.play.sandbox import available

SEARCH = """
import copy


class TeekoPlayer:
    board = [[" " for _ in range(5)] for _ in range(5)]
    pieces = ["b", "r"]
    depth = $depth

    def make_move(self, state):
        best, move = None, None
        for square, child in self.successors(state, self.my_piece):
            value = self.minimax(child, self.depth - 1, False)
            if best is None or value > best:
                best, move = value, square
        return [move]

    def successors(self, state, piece):
        for row in range(5):
            for col in range(5):
                if state[row][col] == " ":
                    child = copy.deepcopy(state)
                    child[row][col] = piece
                    yield (row, col), child

    def minimax(self, state, depth, mine):
        if depth == 0:
            return sum(row.count(self.my_piece) - row.count(self.opp) for row in state)
        piece = self.my_piece if mine else self.opp
        values = [self.minimax(c, depth - 1, not mine) for _, c in self.successors(state, piece)]
        return max(values) if mine else min(values)
"""

PLAIN = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
import game

cpu = 0.0
for board in json.loads(open(sys.argv[2]).read()):
    player = game.TeekoPlayer()
    player.my_piece, player.opp = "b", "r"
    player.board = board
    began = time.process_time()
    player.make_move(player.board)
    cpu += time.process_time() - began
print(cpu)
"""


def _positions(count: int) -> list[list[list[str]]]:
    """Drop-phase positions with 4 markers down, black to move, seeded."""
    variant = find_variant("teeko")
    rng = random.Random("child-cpu")
    found: list[list[list[str]]] = []
    while len(found) < count:
        pos = random_position(variant, rng, 4)
        if pos is not None:
            found.append(to_board(pos))
    return found


def _plain(folder: Path, boards: Path) -> float:
    script = folder.parent / "plain.py"
    script.write_text(PLAIN)
    done = subprocess.run(
        [sys.executable, "-s", "-B", str(script), str(folder), str(boards)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "0", "PATH": "/usr/bin:/bin"},
    )
    return float(done.stdout)


def _graded(folder: Path, boards: list[list[list[str]]]) -> float:
    layers = available()
    limits = Limits(call_seconds=600.0, import_seconds=60.0)
    launch = Launch(folder, PACKS["teeko"].driver, "game.py", 0, limits, layers)
    cpu = 0.0
    with PlayerProcess(launch) as proc:
        assert proc.start().ok
        for board in boards:
            new = {"op": "new", "cls": "TeekoPlayer", "side": "b", "state": board}
            assert proc.request(new, 60, "TeekoPlayer()").ok
            reply = proc.request({"op": "move"}, 600, "make_move")
            assert reply.ok and reply.cpu_seconds is not None, reply.detail
            cpu += reply.cpu_seconds
    return cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--positions", type=int, default=10)
    args = parser.parse_args()
    layers = available()
    print("layers:", "; ".join(layers.describe()))
    if layers.cgroups is None:
        print("warning: no cgroups here: the graded CPU is what /proc shows of its process tree")
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp) / "submission"
        folder.mkdir()
        (folder / "game.py").write_text(SEARCH.replace("$depth", str(args.depth)))
        boards = _positions(args.positions)
        board_file = Path(temp) / "boards.json"
        board_file.write_text(json.dumps(boards))
        plain, graded = [], []
        for run in range(args.repeats):  # alternated, so that the machine's load hits both
            plain.append(_plain(folder, board_file))
            graded.append(_graded(folder, boards))
            print(f"run {run + 1}: plain {plain[-1]:.3f} s CPU, graded {graded[-1]:.3f} s CPU")
    ratio = statistics.median(graded) / statistics.median(plain)
    print(
        f"median CPU: plain {statistics.median(plain):.3f} s, graded "
        f"{statistics.median(graded):.3f} s; ratio {ratio:.3f} (target <= 1.05)"
    )


if __name__ == "__main__":
    main()
