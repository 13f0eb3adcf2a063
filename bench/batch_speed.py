"""Batch throughput: a class of fast submissions graded with --jobs 1 and --jobs 2.

    python bench/batch_speed.py [--students 40] [--budget 0.02]

Targets (issue 4): with 2 jobs on 2 cores, <= 55% of the 1-job time; grader overhead per
submission (wall time minus the submission's own make_move time) <= 1 s.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from autograder.classroom.batch import grade_batch
from autograder.classroom.records import Entry
from autograder.classroom.worker import Grading
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=40)
    parser.add_argument("--budget", type=float, default=0.02, help="the solution's TIME_BUDGET")
    args = parser.parse_args()
    source = (ROOT / "solution" / "teeko2" / "game.py").read_text()
    source = re.sub(r"^TIME_BUDGET = .*$", f"TIME_BUDGET = {args.budget}", source, flags=re.M)
    assignment = find_assignment("teeko2")
    rubric = load_rubric(None, assignment.pack)
    with tempfile.TemporaryDirectory() as folder:
        entries = []
        for index in range(args.students):
            path = Path(folder) / "class" / f"s{index:03d}.py"
            path.parent.mkdir(exist_ok=True)
            path.write_text(source)
            entries.append(Entry(f"s{index:03d}", path))
        walls = {}
        for jobs in (1, 2):
            began = time.perf_counter()
            grading = Grading(assignment, rubric, 0, Path(folder) / f"out{jobs}")
            result = grade_batch(entries, grading, jobs=jobs)
            walls[jobs] = time.perf_counter() - began
            overheads = [r.seconds - r.thinking_seconds for r in result.records]
            scores = sorted({r.score for r in result.records})
            print(
                f"--jobs {jobs}: {walls[jobs]:.1f} s for {len(result.records)} submissions "
                f"(scores {scores}); overhead per submission median "
                f"{statistics.median(overheads):.2f} s, max {max(overheads):.2f} s"
            )
    print(f"--jobs 2 took {walls[2] / walls[1]:.0%} of the --jobs 1 time")


if __name__ == "__main__":
    main()
