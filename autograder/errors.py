"""The one exception for "the grader cannot do its job", and the one place it is caught."""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable, Sequence

__all__ = ["GraderError", "run_command"]


class GraderError(Exception):
    """A bad argument, an unreadable input or a broken rubric; the message is one sentence."""


def run_command(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` and run the chosen command (its ``run`` default): a :class:`GraderError`
    becomes one line on stderr and exit status 2, and so does a path the system refuses;
    Ctrl-C exit status 130."""
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except GraderError as err:
        print(f"autograder: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130
    except OSError as err:  # a path the system refuses (too long, say), wherever it was met
        if err.filename is None:
            raise
        name = str(err.filename)
        shown = name if len(name) <= 80 else name[:77] + "..."
        advice = "; choose a shorter name" if err.errno == errno.ENAMETOOLONG else ""
        print(f"autograder: cannot use {shown}: {err.strerror}{advice}", file=sys.stderr)
        return 2
