"""``autograder similarity``: who shared code, the class compared; no grade changes."""

from __future__ import annotations

import argparse
from typing import Any

from autograder.classroom.similarity import SimilarityRequest, class_similarity
from autograder.cli.options import add_rubric, add_switch, class_command, request, terminal_listener
from autograder.grading.similarity import Settings

__all__ = ["add_similarity"]

HELP = "who shared code: the class compared, renaming and reordering seen through"
DESCRIPTION = (
    "Compare every submission with every other and with archived solutions (earlier terms, "
    "public copies): winnowed fingerprints of normalised Python tokens, the homework's starter "
    "never counted. Writes similarity.csv, similarity.html and a side-by-side page per flagged "
    "pair; changes no grade."
)


def _similarity(args: argparse.Namespace) -> int:
    for path in class_similarity(request(SimilarityRequest, args), terminal_listener()):
        print(path)
    return 0


def add_similarity(commands: Any) -> None:
    """``autograder similarity CLASS...``, on the subcommands ``commands``."""
    similar = class_command(commands, "similarity", HELP, "folder for the report", DESCRIPTION)
    similar.add_argument(
        "--archive",
        action="append",
        dest="archives",
        metavar="FOLDER",
        help="earlier or public solutions, one per file, zip or subfolder; compared with the "
        "class, not with one another (repeatable)",
    )
    similar.add_argument(
        "--threshold",
        type=float,
        default=Settings.threshold,
        help="flag a pair when either side has this share of its own code matched "
        f"(default {Settings.threshold})",
    )
    add_switch(
        similar,
        "--ignore-answer-key",
        "also treat the kit's answer key as boilerplate (once it was handed out)",
        "answer_key",
    )
    similar.add_argument(
        "--ignore",
        action="append",
        metavar="PATH",
        help="more boilerplate: a file or folder of code that never counts as shared",
    )
    add_switch(
        similar,
        "--no-starter",
        "do not read the kit's starter (the course's own goes in with --ignore)",
        "starter",
        turns_off=True,
    )
    add_rubric(similar, "; its zip name pattern finds netids")
    similar.set_defaults(run=_similarity)
