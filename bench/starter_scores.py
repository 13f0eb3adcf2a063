"""What each homework's untouched starter scores, seed by seed: chance must not be skill.

Every starter with TODOs left is graded by its homework's own rubric on seeds 0 to N; the
target (docs/grading.md, "Chance is not skill") is at most 50 on every seed. Prints, per
homework, each seed's score and its criteria, then the least, the most and the mean.

    .venv/bin/python bench/starter_scores.py --seeds 21 --jobs 2
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.classroom.intake import open_submission  # noqa: E402
from autograder.classroom.submission import grade_submission  # noqa: E402
from autograder.games import find_assignment  # noqa: E402
from autograder.grading.rubric import load_rubric  # noqa: E402

STARTERS = {  # assignment -> the starter as a student gets it
    "teeko": "starter/teeko/game.py",
    "teeko2": "starter/teeko2/game.py",
    "connect4": "starter/connect4/game.py",
    "connect4-notebook": "starter/connect4-notebook/connect4.ipynb",
    "connect4-sketch": "starter/connect4-sketch",
    "board-abc": "starter/board-abc",
    "othello": "starter/othello/game.py",
    "kalah": "starter/kalah/game.py",
}


def grade(name: str, seed: int) -> tuple[float, dict[str, float]]:
    """The starter of ``name`` graded on ``seed``: its score and each criterion's points."""
    assignment = find_assignment(name)
    rubric = load_rubric(None, assignment.pack)
    with tempfile.TemporaryDirectory(prefix="starter-bench-") as work:
        submission = open_submission(
            ROOT / STARTERS[name], Path(work), assignment.main_file, assignment.pack.files
        )
        graded = grade_submission(submission, assignment, rubric, seed)
    criteria = {c.id: c.points for c in graded.grade.criteria}
    return graded.grade.score, criteria


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=21, help="seeds 0 .. N-1 (default 21)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("homework", nargs="*", default=list(STARTERS))
    args = parser.parse_args(argv)
    failed = False
    for name in args.homework:
        with ThreadPoolExecutor(args.jobs) as pool:
            results = list(pool.map(partial(grade, name), range(args.seeds)))
        print(f"{name}:")
        for seed, (total, criteria) in enumerate(results):
            shown = ", ".join(f"{k} {v:g}" for k, v in criteria.items() if v)
            print(f"  seed {seed:2}: {total:5.1f}  ({shown})")
        totals = [total for total, _ in results]
        print(
            f"  least {min(totals):g}, most {max(totals):g}, mean "
            f"{statistics.mean(totals):.1f} over {len(totals)} seeds"
        )
        failed |= max(totals) > 50
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
