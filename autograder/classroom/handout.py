"""``autograder starter ASSIGNMENT``: the files a student starts from (or, with
``--answer-key``, the answer key handed out after the deadline), copied out of the kit into a
folder, so that a kit installed with pip hands them out as a checkout does."""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path
from typing import Any

from autograder.errors import GraderError
from autograder.files import kit_path
from autograder.games import ASSIGNMENTS, find_assignment

__all__ = ["add_starter_command", "handout_files"]

STARTER_HELP = "copy an assignment's starter files (or its answer key) into a folder"


def handout_files(assignment_name: str, answer_key: bool = False) -> list[Path]:
    """The kit's files of the assignment's starter, or of its answer key.

    :raises GraderError: for an unknown assignment, or one the kit has no such files for.
    """
    try:
        assignment = find_assignment(assignment_name)
    except KeyError as err:
        raise GraderError(str(err)) from None
    starter = Path(assignment.pack.starter(assignment.variant)).parent  # starter/teeko2
    relative = Path("answer_key", *starter.parts[1:]) if answer_key else starter
    folder = kit_path(relative.as_posix())
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if not files:
        what = "answer key" if answer_key else "starter"
        raise GraderError(f"the kit has no {what} for {assignment.name} (looked in {folder})")
    return files


def _starter(args: argparse.Namespace) -> int:
    files = handout_files(args.assignment, args.answer_key)
    folder = Path(args.to)
    taken = [f.name for f in files if (folder / f.name).exists()]
    if taken:
        raise GraderError(
            f"{', '.join(taken)} already in {folder}: move it away, or choose another folder "
            "with --to FOLDER"
        )
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for file in files:
            shutil.copyfile(file, folder / file.name)
            print(folder / file.name)
    except OSError as err:
        raise GraderError(f"--to: cannot write into {folder}: {err.strerror or err}") from None
    return 0


def add_starter_command(commands: Any) -> argparse.ArgumentParser:
    """Add ``autograder starter ASSIGNMENT [--answer-key] [--to FOLDER]`` to the subcommands
    ``commands`` (what ``ArgumentParser.add_subparsers`` returned)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "starter", help=STARTER_HELP, description=STARTER_HELP + "; never overwrites a file"
    )
    parser.add_argument("assignment", help=", ".join(ASSIGNMENTS))
    parser.add_argument(
        "--answer-key",
        action="store_true",
        help="the answer key instead: the starter with every TODO done, to hand out after the "
        "deadline",
    )
    parser.add_argument("--to", default=".", help="folder to copy them into (default: here)")
    parser.set_defaults(run=_starter)
    return parser
