"""Tournament throughput: games per second with 1 and 2 local workers and on a 2-worker Dask
cluster started on this machine, and what going through Dask costs per game.

    python bench/tournament_speed.py [--students 6]

The class is N copies of the answer key (a fixed-depth minimax: its games do not depend on
the machine's speed, so all three ways must give the same table), round robin, both colours,
from the rubric's openings: N * (N - 1) games per opening. The Dask overhead per game is the
cluster's wall time times its 2 workers, less the time the games took inside their tasks,
per game: scheduling, sending the submissions, and sending the replay back.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from autograder.classroom.cluster import Cluster
from autograder.classroom.openings import fair_openings
from autograder.classroom.tournament import GameTask, Player, play_game, run_tournament
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.grading.tournament import rate

ROOT = Path(__file__).resolve().parent.parent


def _players(count: int) -> list[Player]:
    source = (ROOT / "answer_key" / "teeko2" / "game.py").read_text()
    # each copy differs by a comment: another player, the same play
    return [
        Player(f"s{i:02d}", "student", files=(("game.py", f"{source}\n# {i}\n".encode()),))
        for i in range(count)
    ]


def _cluster(folder: Path) -> tuple[list[subprocess.Popen[bytes]], str]:
    dask = str(Path(sys.executable).with_name("dask"))
    file = folder / "scheduler.json"
    procs = [
        subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(file)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
    ]  # fmt: skip
    deadline = time.monotonic() + 60
    while not file.exists():
        if time.monotonic() > deadline:
            raise SystemExit("the scheduler did not start")
        time.sleep(0.2)
    procs += [
        subprocess.Popen(
            [dask, "worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for _ in range(2)
    ]  # fmt: skip
    import json

    return procs, json.loads(file.read_text())["address"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=6)
    args = parser.parse_args()
    assignment = find_assignment("teeko2")
    rubric = load_rubric(None, assignment.pack)
    players = _players(args.students)
    games = (
        args.students
        * (args.students - 1)
        * len(fair_openings(assignment, rubric.openings, rubric.opening_plies, 0))
    )
    tables = {}
    inside: dict[str, float] = {}
    walls: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for jobs in (1, 2):
            with ThreadPoolExecutor(jobs) as pool:

                def local(task: GameTask, pool: ThreadPoolExecutor = pool) -> Any:
                    return pool.submit(play_game, task)

                began = time.perf_counter()
                result = run_tournament(
                    players, assignment, rubric, work / f"local{jobs}", seed=0, submit=local
                )
            walls[f"{jobs} local"] = time.perf_counter() - began
            inside[f"{jobs} local"] = sum(g["wall_seconds"] for g in result.games)
            tables[f"{jobs} local"] = rate([(p.id, p.kind, "") for p in players], result.games)
        procs, address = _cluster(work)
        try:
            cluster = Cluster(address)
            cluster.client.wait_for_workers(2, timeout=60)
            try:
                began = time.perf_counter()
                result = run_tournament(
                    players,
                    assignment,
                    rubric,
                    work / "dask",
                    seed=0,
                    submit=lambda task: cluster.submit(play_game, task),
                )
                walls["2 Dask"] = time.perf_counter() - began
                inside["2 Dask"] = sum(g["wall_seconds"] for g in result.games)
                tables["2 Dask"] = rate([(p.id, p.kind, "") for p in players], result.games)
            finally:
                cluster.close()
        finally:
            for proc in procs:
                proc.terminate()
            for proc in procs:
                proc.wait(timeout=30)
        shutil.rmtree(work / "dask", ignore_errors=True)
    print(f"{args.students} players (the answer key), {games} games")
    print("| workers | wall (s) | games per second | mean game inside its task (s) |")
    print("| --- | --- | --- | --- |")
    for how, wall in walls.items():
        print(f"| {how} | {wall:.1f} | {games / wall:.2f} | {inside[how] / games:.2f} |")
    overhead = (walls["2 Dask"] * 2 - inside["2 Dask"]) / games
    print(f"Dask overhead per game: {overhead:.3f} s (2 x wall, less the time inside the tasks)")
    same = tables["1 local"] == tables["2 local"] == tables["2 Dask"]
    print("the same table all three ways:", same)


if __name__ == "__main__":
    main()
