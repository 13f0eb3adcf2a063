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
    Ctrl-C exit status 130; any other exception, the kit's own failure, one line naming the
    file that keeps its traceback, exit status 1."""
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
            return _kit_failed(err)
        name = str(err.filename)
        shown = name if len(name) <= 80 else name[:77] + "..."
        advice = "; choose a shorter name" if err.errno == errno.ENAMETOOLONG else ""
        print(f"autograder: cannot use {shown}: {err.strerror}{advice}", file=sys.stderr)
        return 2
    except Exception as err:  # the kit's own bug: one sentence, the traceback kept for a report
        return _kit_failed(err)


def _kit_failed(err: Exception) -> int:
    kept = _keep_traceback()
    print(
        f"autograder: the kit itself failed ({type(err).__name__}: {_short(err)}); nothing in "
        f"your input is at fault; please report it with the details in {kept}",
        file=sys.stderr,
    )
    return 1


def _short(err: Exception) -> str:
    text = " ".join(str(err).split())
    return text if len(text) <= 200 else text[:197] + "..."


def _keep_traceback() -> str:
    """The current exception's traceback, written to a new file in the temporary folder."""
    import tempfile
    import traceback

    handle, path = tempfile.mkstemp(prefix="autograder-failure-", suffix=".txt")
    with open(handle, "w", encoding="utf-8") as out:
        out.write(" ".join(sys.argv) + "\n\n" + traceback.format_exc())
    return path
