"""A class's grade sheet read back, empty student zips, and `grade` run in-process, for the
batch tests."""

from __future__ import annotations

import csv
import zipfile
from pathlib import Path

from autograder.cli import main


def grade_rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
    "    Points Possible,,,,,100\n"
    '"Badger, Bucky",123,9001,bbadger@wisc.edu,LEC 001,\n'
    '"Chen, Eve",124,9002,echen,LEC 001,\n'
    '"Lee, Kim",125,9003,klee,LEC 002,\n'
)


def empty_zips(folder: Path, students: list[str]) -> Path:
    """Submissions with nothing to grade (no game.py): each is graded in an instant, to zero,
    and saved like any other, so these tests run no game."""
    folder.mkdir(parents=True, exist_ok=True)
    for student in students:
        with zipfile.ZipFile(folder / f"hw8_{student}.zip", "w") as archive:
            archive.writestr("notes.txt", "no game here")
    return folder


def grade_here(capsys, *args: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """``autograder grade ARGS`` in this process (so a test can break its writes); the exit
    status and what it printed on stderr."""
    status = main(["grade", *args, "-a", "teeko2", "--jobs", "1"])
    return status, capsys.readouterr().err
