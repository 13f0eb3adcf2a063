"""``python -m autograder.oracle ACTION ...`` is ``autograder oracle ACTION ...``, without the
rest of the kit (no batch, no grading) behind it."""

from __future__ import annotations

import argparse
import sys

from autograder.errors import run_command
from autograder.oracle.commands import add_oracle_commands


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.oracle")
    add_oracle_commands(parser.add_subparsers(dest="command", required=True, metavar="COMMAND"))
    return run_command(parser, ["oracle", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
