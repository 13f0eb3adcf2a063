"""The fairness table's cases: submissions with a known fault, each with the band of grades the
fault deserves, as the course would grade it (``tests/data/fairness/<homework>/cases.toml``).

A case is a base (a folder of this homework's data, or a file or folder of the kit: an answer
key) with replacements made in its files, each of which must occur exactly once: the fault is
the diff, in the case itself. ``notebook = true`` hands the base's script export in as a
``.ipynb`` (its ``# In[ ]:`` cells as the notebook's code cells). ``tests/test_fairness.py``
grades every case; ``bench/fairness.py`` prints the table.

A case that is also a student of an example class (``example``: the student's login, the
class's pinned grades and the student's files) is graded there by ``tests/test_examples.py``,
which pins its points per criterion; the test suite then checks that the files are the case's
and the pinned points within its band, instead of grading the same code twice.
"""

from __future__ import annotations

import csv
import json
import shutil
import tempfile
import tomllib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.classroom.intake import open_submission
from autograder.classroom.submission import grade_submission
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "fairness"
HOMEWORKS = tuple(sorted(p.name for p in DATA.iterdir() if (p / "cases.toml").is_file()))


@dataclass(frozen=True)
class Example:
    """An example class's student whose submission is a case's, graded in that class."""

    student: str  # the login in the pinned grades
    grades: Path  # tests/data/<class>_example_grades.csv
    files: tuple[Path, ...]  # the student's files as handed in, Canvas's prefix on each name


@dataclass(frozen=True)
class Case:
    """One submission with a known fault and the grades it deserves."""

    homework: str  # the folder under tests/data/fairness
    assignment: str
    name: str
    band: tuple[float, float]
    why: str
    base: Path
    changes: tuple[tuple[str, str, str], ...]  # (file, old, new)
    notebook: bool = False
    seed: int = 0
    criteria: tuple[tuple[str, float, float], ...] = ()  # (criterion, least, most) besides
    example: Example | None = None

    def build(self, folder: Path) -> Path:
        """The submission written into ``folder``: what is graded."""
        if self.base.is_dir():
            shutil.copytree(self.base, folder, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            folder.mkdir(parents=True)
            shutil.copy(self.base, folder / self.base.name)
        for file, old, new in self.changes:
            path = folder / file
            text = path.read_text("utf-8")
            assert text.count(old) == 1, f"{self.name}: {file} should hold {old!r} exactly once"
            path.write_text(text.replace(old, new), "utf-8")
        if not self.notebook:
            return folder
        export = next(folder.glob("*.py"))
        book = folder / f"{export.stem}.ipynb"
        book.write_text(_notebook(export.read_text("utf-8")), "utf-8")
        export.unlink()
        return book


def _notebook(export: str) -> str:
    """A notebook (nbformat 4) whose code cells are the script export's ``# In[ ]:`` parts."""
    parts = export.split("# In[ ]:")[1:]
    cells = [
        {
            "cell_type": "code",
            "execution_count": None,
            "metadata": {},
            "outputs": [],
            "source": part.strip("\n"),
        }
        for part in parts
    ]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 4})


def cases(homework: str) -> list[Case]:
    """Every case of ``homework``, in the file's order."""
    folder = DATA / homework
    data = tomllib.loads((folder / "cases.toml").read_text("utf-8"))
    found = []
    for item in data["case"]:
        base = folder / item["base"]
        if not base.exists():
            base = ROOT / item["base"]
        found.append(
            Case(
                homework,
                item.get("assignment", data["assignment"]),
                item["name"],
                (float(item["band"][0]), float(item["band"][1])),
                item["why"],
                base,
                tuple((c["file"], c["old"], c["new"]) for c in item.get("change", ())),
                item.get("notebook", False),
                item.get("seed", 0),
                tuple((k, float(v[0]), float(v[1])) for k, v in item.get("criteria", {}).items()),
                _example(item.get("example")),
            )
        )
    return found


def _example(item: dict[str, Any] | None) -> Example | None:
    if item is None:
        return None
    return Example(item["student"], ROOT / item["grades"], tuple(ROOT / f for f in item["files"]))


@dataclass(frozen=True)
class Graded:
    case: Case
    score: float
    points: dict[str, float]
    summaries: dict[str, str]

    @property
    def within(self) -> bool:
        low, high = self.case.band
        criteria = self.case.criteria
        inside = all(least <= self.points.get(c, 0) <= most for c, least, most in criteria)
        return inside and low <= self.score <= high

    def line(self) -> str:
        low, high = self.case.band
        mark = "ok " if self.within else "OUT"
        shown = ", ".join(f"{k} {v:g}" for k, v in self.points.items())
        return f"{mark} {self.score:5.1f} in [{low:g}, {high:g}]  {self.case.name}  ({shown})"


def grade(case: Case) -> Graded:
    """``case`` graded by its homework's own rubric, on its seed."""
    assignment = find_assignment(case.assignment)
    rubric = load_rubric(None, assignment.pack)
    with tempfile.TemporaryDirectory(prefix="fairness-") as work:
        made = case.build(Path(work) / "handed-in")
        files = [p for p in made.iterdir()] if made.is_dir() else []
        if len(files) == 1 and files[0].suffix == ".py":  # a script export, handed in alone
            made = files[0]
        submission = open_submission(
            made, Path(work) / "open", assignment.main_file, assignment.pack.files
        )
        graded = grade_submission(submission, assignment, rubric, case.seed)
    criteria = graded.grade.criteria
    return Graded(
        case,
        graded.grade.score,
        {c.id: c.points for c in criteria},
        {c.id: c.summary for c in criteria},
    )


def pinned(case: Case) -> Graded:
    """``case`` as its example class's pinned grades have it, once its files are shown to be
    the example student's, each of them byte for byte."""
    example = case.example
    assert example is not None, f"{case.name}: no example student"
    with tempfile.TemporaryDirectory(prefix="fairness-") as work:
        made = case.build(Path(work) / "handed-in")
        for handed in example.files:
            name = handed.name.rsplit("_", 1)[-1]  # Canvas's prefix off
            same = (made / name).read_bytes() == handed.read_bytes()
            assert same, f"{case.name}: {handed.name} is not the case's {name}"
    with example.grades.open(newline="") as handle:
        row = next((r for r in csv.DictReader(handle) if r["student"] == example.student), None)
    assert row is not None, f"{case.name}: {example.student} is not in {example.grades.name}"
    points = {k: float(v) for k, v in row.items() if k not in ("student", "score")}
    summaries = {k: f"pinned in {example.grades.name}" for k in points}
    return Graded(case, float(row["score"]), points, summaries)


def grade_all(found: list[Case], jobs: int = 2) -> Iterator[Graded]:
    """Each case graded, ``jobs`` at a time, in order."""
    with ThreadPoolExecutor(jobs) as pool:
        yield from pool.map(grade, found)


def reasons(graded: Graded) -> str:
    """What each criterion said, for a case out of its band."""
    return "\n".join(f"  {k}: {v}" for k, v in graded.summaries.items())


def summary(results: list[Graded]) -> dict[str, Any]:
    """How many cases are within their bands."""
    return {"within": sum(r.within for r in results), "cases": len(results)}
