"""``python -m autograder.oracle ACTION ...`` is ``autograder oracle ACTION ...``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from autograder.errors import GraderError
from autograder.oracle.commands import add_oracle_commands


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder.oracle", add_help=False)
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_oracle_commands(commands)
    args = parser.parse_args(["oracle", *(sys.argv[1:] if argv is None else argv)])
    try:
        status: int = args.run(args)
    except GraderError as err:
        print(f"autograder: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
