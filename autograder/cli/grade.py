"""``autograder grade``: a class graded into a folder of grades, feedback and a summary."""

from __future__ import annotations

import argparse
from typing import Any

from autograder.classroom.grade_class import ClassRequest, grade_class
from autograder.cli import options
from autograder.errors import GraderError

__all__ = ["add_grade"]

HELP = "grade a class: folders, zips or Canvas's Download Submissions zip"
OUT_HELP = "folder for grades and feedback"
INPUTS = ("INPUT", "folder, zip or Canvas zip")  # metavar, help


def _grade(args: argparse.Namespace) -> int:
    listener = options.terminal_listener()
    graded = grade_class(options.request(ClassRequest, args), listener)
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
    grade = options.class_command(commands, "grade", HELP, OUT_HELP, inputs=INPUTS)
    options.add_run(grade, "submissions at a time (default: cores)")
    options.add_switch(grade, "--regrade", "grade everyone again")
    grade.add_argument(
        "--only",
        nargs="+",
        metavar="STUDENT",
        help="grade these students again (their ids as in grades.csv), keep the others",
    )
    options.add_roster(grade, "also write canvas_import.csv")
    options.add_switch(
        grade,
        "--similarity",
        "also compare the class's code (starter ignored) into OUT/similarity/",
    )
    options.add_cluster(grade)
    grade.set_defaults(run=_grade)
