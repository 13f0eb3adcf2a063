"""What the commands share: their options, declared once each and added to a command's parser
by a helper, and the terminal a long run reports to."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from autograder.classroom.class_run import Listener, Update
from autograder.games import ASSIGNMENTS

__all__ = [
    "submission_command",
    "class_command",
    "add_run",
    "add_assignment",
    "add_roster",
    "add_switch",
    "add_seed",
    "add_rubric",
    "add_cluster",
    "terminal_listener",
    "request",
    "say",
]

DEFAULT_SEED = 0
SEED_HELP = "seed for probes and the random opponent; same seed and submission, same grade"
ASSIGNMENT_HELP = f"{', '.join(ASSIGNMENTS)} (default: inferred from the player class)"
RUBRIC_HELP = "rubric TOML file (default: the course's published rubric)"
CLUSTER_HELP = (
    "run on the Dask cluster whose scheduler is here (`dask scheduler`); needs the cluster extra"
)
SUBMISSION_HELP = "game.py, a folder holding it, or a zip"
R = TypeVar("R")


def request(make: Callable[..., R], args: argparse.Namespace) -> R:
    """``make`` (a command's request) called with the options named as its parameters: a
    list as a tuple, an option not given as the parameter's default."""
    given = {}
    for name in inspect.signature(make).parameters:
        value = getattr(args, name, None)
        if value is not None:
            given[name] = tuple(value) if isinstance(value, list) else value
    return make(**given)


def add_seed(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)


def add_rubric(parser: argparse.ArgumentParser, more: str = "") -> None:
    """``--rubric``; ``more`` says what else the command reads of it."""
    parser.add_argument("--rubric", help=RUBRIC_HELP + more)


def add_assignment(
    parser: argparse.ArgumentParser, required: bool, help_: str = ASSIGNMENT_HELP
) -> None:
    parser.add_argument("--assignment", "-a", required=required, help=help_)


def add_switch(
    parser: argparse.ArgumentParser, flag: str, help_: str, dest: str | None = None,
    *, turns_off: bool = False,
) -> None:  # fmt: skip
    """An option without a value: on when given, or with ``turns_off`` a default that is on
    turned off (``--no-starter``)."""
    action = "store_false" if turns_off else "store_true"
    parser.add_argument(flag, action=action, dest=dest, help=help_)


def add_roster(parser: argparse.ArgumentParser, what: str) -> None:
    """``--roster``: a Canvas gradebook export, and ``what`` the command takes from it."""
    parser.add_argument("--roster", help=f"Canvas gradebook export: {what}")


def submission_command(
    commands: Any, name: str, help_: str, description: str | None = None
) -> argparse.ArgumentParser:
    """A command over one submission, on the subcommands ``commands``: ``SUBMISSION
    --assignment --seed --rubric``."""
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help_, description=description)
    parser.add_argument("submission", help=SUBMISSION_HELP)
    add_assignment(parser, required=False)
    add_seed(parser)
    add_rubric(parser)
    return parser


def class_command(
    commands: Any,
    name: str,
    help_: str,
    out: str,
    description: str | None = None,
    inputs: tuple[str, str] = ("CLASS", "as for grade"),
) -> argparse.ArgumentParser:
    """A command over a whole class, on the subcommands ``commands``: its ``inputs``
    (metavar, help), ``--assignment`` and ``--out`` (``out`` says what goes there)."""
    parser: argparse.ArgumentParser = commands.add_parser(name, help=help_, description=description)
    metavar, inputs_help = inputs
    parser.add_argument("inputs", nargs="+", metavar=metavar, help=inputs_help)
    add_assignment(parser, required=True)
    parser.add_argument("--out", "-o", required=True, type=Path, help=out)
    return parser


def add_run(parser: argparse.ArgumentParser, jobs: str, rubric: str = "") -> None:
    """How a long run goes: ``--jobs`` (what is done at a time), ``--seed``, ``--rubric``."""
    parser.add_argument("--jobs", "-j", type=int, help=jobs)
    add_seed(parser)
    add_rubric(parser, rubric)


def add_cluster(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--cluster", metavar="tcp://HOST:PORT", help=CLUSTER_HELP)


def say(err: Console, text: str) -> None:
    """A plain line on stderr: no markup in student-made names, no wrapping mid-sentence."""
    err.print(text, markup=False, soft_wrap=True)


def terminal_listener() -> Listener:
    """A listener on stderr: lines, the alarm in bold red, and a progress bar."""
    err = Console(stderr=True, highlight=False)
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )

    @contextmanager
    def track(what: str) -> Iterator[Update]:
        with Progress(*columns, console=err, transient=False) as progress:
            task = progress.add_task(what, total=None)

            def update(done: int, total: int, text: str) -> None:
                progress.update(task, completed=done, total=total, description=text)

            yield update

    def alarm(text: str) -> None:
        err.print(text, style="bold red", markup=False, highlight=False, soft_wrap=True)

    return Listener(lambda text: say(err, text), alarm, track)
