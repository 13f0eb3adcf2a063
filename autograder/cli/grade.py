"""``autograder grade``: a class graded into a folder of grades, feedback and a summary."""

from __future__ import annotations

import argparse
from typing import Any

from autograder.classroom.grade_class import ClassRequest, grade_class
from autograder.cli.options import (
    add_cluster,
    add_roster,
    add_run,
    class_command,
    request,
    terminal_listener,
)
from autograder.errors import GraderError

__all__ = ["add_grade"]


def _grade(args: argparse.Namespace) -> int:
    listener = terminal_listener()
    graded = grade_class(request(ClassRequest, args), listener)
    for path in graded.written:
        print(path)
    if graded.problem is not None:
        raise GraderError(graded.problem)
    for path, why in graded.removed:
        listener.say(f"removed {path}: {why}")
    if graded.interrupted:
        listener.say(
            f"interrupted: {graded.graded} students are graded and saved; run the same command "
            "again to grade the rest"
        )
        return 130
    return 0


def add_grade(commands: Any) -> None:
    """``autograder grade INPUT...``, on the subcommands ``commands``."""
    grade = class_command(
        commands,
        "grade",
        "grade a class: folders, zips or Canvas's Download Submissions zip",
        "folder for grades and feedback",
        inputs=("INPUT", "folder, zip or Canvas zip"),
    )
    add_run(grade, "submissions at a time (default: cores)")
    grade.add_argument("--regrade", action="store_true", help="grade everyone again")
    grade.add_argument(
        "--only",
        nargs="+",
        metavar="STUDENT",
        help="grade these students again (their ids as in grades.csv), keep the others",
    )
    add_roster(grade, "also write canvas_import.csv")
    grade.add_argument(
        "--similarity",
        action="store_true",
        help="also compare the class's code (starter ignored) into OUT/similarity/",
    )
    add_cluster(grade)
    grade.set_defaults(run=_grade)
