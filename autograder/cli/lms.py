"""``autograder gradescope`` and ``autograder canvas push``: the kit to Gradescope, grades back
to Canvas."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import Any

from autograder.classroom.canvas_push import TOKEN_VARIABLE, describe, plan, push
from autograder.classroom.class_run import assignment_named
from autograder.classroom.gradescope import build_bundle
from autograder.cli.options import add_assignment
from autograder.errors import GraderError
from autograder.games import ASSIGNMENTS

__all__ = ["add_gradescope_command", "add_canvas_commands"]

GRADESCOPE_HELP = "build autograder.zip for a Gradescope programming assignment"
PUSH_HELP = "post the grades and feedback of a graded folder to a Canvas assignment"


def _gradescope(args: argparse.Namespace) -> int:
    assignment = assignment_named(args.assignment)
    path = build_bundle(assignment, Path(args.out), Path(args.rubric) if args.rubric else None)
    print(path)
    return 0


def add_gradescope_command(commands: Any) -> argparse.ArgumentParser:
    """Add ``autograder gradescope --assignment V [--out DIR] [--rubric FILE]`` to the
    subcommands ``commands`` (what ``ArgumentParser.add_subparsers`` returned)."""
    parser: argparse.ArgumentParser = commands.add_parser(
        "gradescope", help=GRADESCOPE_HELP, description=GRADESCOPE_HELP
    )
    add_assignment(parser, required=True, help_=", ".join(ASSIGNMENTS))
    parser.add_argument(
        "--out", "-o", default=".", help="folder to write autograder.zip into (default: here)"
    )
    parser.add_argument(
        "--rubric", help="rubric TOML file to bundle (default: the course's published rubric)"
    )
    parser.set_defaults(run=_gradescope)
    return parser


def _push(args: argparse.Namespace) -> int:
    posts, skipped = plan(Path(args.out))
    for line in skipped:
        print(f"skipped: {line}")
    if not args.yes:
        for line in describe(posts, args.course, args.assignment):
            print(line)
        return 0
    token = os.environ.get(TOKEN_VARIABLE, "").strip()
    if not token:
        raise GraderError(
            f"set {TOKEN_VARIABLE} to a Canvas API token (Account > Settings > New access "
            "token); the kit reads it from the environment only"
        )
    for line in push(posts, args.url, token, args.course, args.assignment):
        print(line)
    return 0


def add_canvas_commands(subparsers: Any) -> None:
    """Add ``canvas push`` to an argparse ``add_subparsers()`` object."""
    canvas = subparsers.add_parser("canvas", help="send grades back to Canvas")
    actions = canvas.add_subparsers(dest="canvas_action", required=True, metavar="ACTION")
    command = actions.add_parser("push", help=PUSH_HELP, description=PUSH_HELP)
    command.add_argument("--out", "-o", required=True, help="the folder autograder grade wrote")
    command.add_argument("--url", required=True, help="your Canvas, e.g. https://canvas.school.edu")
    command.add_argument("--course", required=True, help="the course id (in the course's URL)")
    command.add_argument("--assignment", required=True, help="the assignment id (in its URL)")
    command.add_argument(
        "--yes",
        action="store_true",
        help=f"send them (default: a dry run that sends nothing); the token is ${TOKEN_VARIABLE}",
    )
    command.set_defaults(run=_push)
