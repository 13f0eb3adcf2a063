"""``autograder starter ASSIGNMENT``: the files a student starts from (or, with
``--answer-key``, the answer key), copied out of the kit into a folder."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from autograder.classroom.handout import hand_out
from autograder.games import ASSIGNMENTS

__all__ = ["add_starter"]

HELP = "copy an assignment's starter files (or its answer key) into a folder"


def _starter(args: argparse.Namespace) -> int:
    for path in hand_out(args.assignment, Path(args.to), args.answer_key):
        print(path)
    return 0


def add_starter(commands: Any) -> None:
    """``autograder starter ASSIGNMENT [--answer-key] [--to FOLDER]``, on the subcommands
    ``commands``."""
    parser = commands.add_parser(
        "starter", help=HELP, description=HELP + "; never overwrites a file"
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
