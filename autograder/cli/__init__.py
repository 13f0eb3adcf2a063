"""The command line: each command parses its options, calls one function of the classroom
layer and renders what comes back. The kit's :class:`GraderError` becomes one line on stderr
and exit status 2 (:func:`autograder.errors.run_command`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from autograder.cli.check import add_check
from autograder.cli.grade import add_grade
from autograder.cli.lms import add_canvas_commands, add_gradescope_command
from autograder.cli.play import add_play
from autograder.cli.similarity import add_similarity
from autograder.cli.starter import add_starter
from autograder.cli.tournament import add_tournament
from autograder.errors import run_command
from autograder.games import ASSIGNMENTS
from autograder.oracle.commands import add_oracle_commands

__all__ = ["main", "build_parser"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder",
        description=f"Grade minimax homework ({', '.join(ASSIGNMENTS)}) by the course rubric.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in (
        add_check,
        add_grade,
        add_tournament,
        add_similarity,
        add_play,
        add_gradescope_command,
        add_starter,
        add_canvas_commands,
        add_oracle_commands,
    ):
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
