"""``autograder check``: one submission graded as the course grades it, the report printed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from autograder.classroom.check import CheckRequest, check_submission
from autograder.classroom.class_run import Listener, write_output
from autograder.cli.options import request, submission_command
from autograder.grading.html import feedback_html
from autograder.grading.report import Feedback, markdown, results_json_text, terminal

__all__ = ["add_check"]


def _check(args: argparse.Namespace) -> int:
    said = Listener(lambda text: print(text, file=sys.stderr))
    checked = check_submission(request(CheckRequest, args), said)
    graded = checked.graded
    feedback = Feedback(graded.grade, checked.notes, graded.extras, checked.reproduce)
    terminal(feedback)
    if checked.warning is not None:
        print(checked.warning, file=sys.stderr)
    for path, render in (
        (args.json, results_json_text),
        (args.markdown, markdown),
        (args.html, feedback_html),
    ):
        if path:
            write_output(Path(path), render(feedback))
    return 0


def add_check(commands: Any) -> None:
    """``autograder check SUBMISSION``, on the subcommands ``commands``."""
    check = submission_command(
        commands,
        "check",
        "grade one submission (a game.py, a folder or a zip) and print the report",
    )
    check.add_argument("--json", metavar="FILE", help="also write a Gradescope results.json")
    check.add_argument("--markdown", metavar="FILE", help="also write the feedback as Markdown")
    check.add_argument(
        "--html", metavar="FILE", help="also write the feedback as a web page, games replayable"
    )
    extras = check.add_argument_group(
        "beyond the rubric (no points; perfect play needs the oracle)"
    )
    extras.add_argument("--ladder", action="store_true", help="play random→greedy→minimax→perfect")
    extras.add_argument(
        "--move-quality", action="store_true", help="rate each probe move against perfect play"
    )
    extras.add_argument("--puzzles", type=int, metavar="N", help="N puzzles of each kind")
    extras.add_argument(
        "--challenge", action="store_true", help="games vs perfect play if run_challenge_test()"
    )
    check.set_defaults(run=_check)
