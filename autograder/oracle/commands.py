"""``autograder oracle build | query | info``: thin commands over :mod:`autograder.oracle.core`.

Wire them into the kit's parser with ``add_oracle_commands(subparsers)``; each command sets
``run`` (args -> exit status), like the kit's other commands, and raises
:class:`~autograder.oracle.cache.OracleError` (a ``GraderError``) when it cannot do its job.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from autograder.games.teeko.rules import BoardError, parse_position
from autograder.games.teeko.variants import VARIANTS, find_variant
from autograder.oracle.cache import OracleError, cache_path
from autograder.oracle.codes import Verdict, verdict
from autograder.oracle.core import Oracle, build, load, resolve_game
from autograder.oracle.game import Game

__all__ = ["add_oracle_commands", "answer", "answers"]

ORACLE_HELP = "solve the games exactly (build), then ask for values of positions (query)"
BUILD_HELP = "solve a variant and cache its table (10-20 s each, numpy needed)"
QUERY_HELP = (
    "read positions from stdin, one per line: 25 characters b, r or . (row 0 first), a space "
    "and the side to move; write one JSON object per line"
)
INFO_HELP = "show where the tables are cached and what they hold"
VARIANT_HELP = "teeko, teeko2 or teeko2-diamond"


def add_oracle_commands(subparsers: Any) -> None:
    """Add the ``oracle`` command and its actions to an argparse ``add_subparsers()`` object."""
    oracle = subparsers.add_parser("oracle", help=ORACLE_HELP, description=ORACLE_HELP)
    actions = oracle.add_subparsers(dest="oracle_action", required=True, metavar="ACTION")
    build_cmd = actions.add_parser("build", help=BUILD_HELP, description=BUILD_HELP)
    build_cmd.add_argument(
        "--variant",
        action="append",
        metavar="V",
        help=VARIANT_HELP + "; repeat for several (default: all of them)",
    )
    build_cmd.add_argument(
        "--force", action="store_true", help="rebuild even when a valid table is cached"
    )
    build_cmd.set_defaults(run=_build)
    query = actions.add_parser("query", help=QUERY_HELP, description=QUERY_HELP)
    query.add_argument("--variant", required=True, metavar="V", help=VARIANT_HELP)
    query.set_defaults(run=_query)
    info = actions.add_parser("info", help=INFO_HELP, description=INFO_HELP)
    info.add_argument("--variant", action="append", metavar="V", help=VARIANT_HELP)
    info.set_defaults(run=_info)


def _games(names: list[str] | None) -> list[Game]:
    try:
        return [resolve_game(name) for name in names or list(VARIANTS)]
    except OracleError as err:
        raise OracleError(f"--variant: {err}") from None


# ---- build ------------------------------------------------------------------------------------


def _build(args: argparse.Namespace) -> int:
    from rich.console import Console

    err = Console(stderr=True, highlight=False)
    for game in _games(args.variant):
        path = cache_path(game.name)
        if not args.force and path.exists():
            try:
                load(game)
            except OracleError as problem:
                err.print(f"{game.name}: {problem}; building it again", markup=False)
            else:
                err.print(
                    f"{game.name}: already built at {path} (--force builds it again)", markup=False
                )
                continue
        started = time.perf_counter()
        stats = _run_with_progress(build(game), game.name, err)
        err.print(_summary(game.name, stats, time.perf_counter() - started, str(path)))
    return 0


def _run_with_progress(reports: Iterator[Any], name: str, console: Any) -> dict[str, Any]:
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    stats: dict[str, Any] = {}
    try:
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task(name, total=1000)
            for report in reports:
                label = f"{name}: {report.stage}" + (f" {report.detail}" if report.detail else "")
                if report.stage == "write":
                    label = f"{name}: write"
                bar.update(task, completed=int(report.fraction * 1000), description=label)
                if report.stats is not None:
                    stats = report.stats
    finally:
        close = getattr(reports, "close", None)
        if close is not None:
            close()  # an interrupted build removes its temporary file here
    return stats


def _summary(name: str, stats: dict[str, Any], seconds: float, path: str) -> str:
    start = verdict(stats.get("start", 0))
    start_text = start.value + (f" in {start.plies} plies" if start.plies is not None else "")
    return (
        f"{name}: solved in {seconds:.0f} s; start position: {start_text}; longest forced win "
        f"in the move phase: {stats.get('longest_move_phase_win')} plies; saved to {path}"
    )


# ---- query ------------------------------------------------------------------------------------


def answer(oracle: Oracle, line: str) -> dict[str, Any]:
    """The JSON object answering one query line: value and plies, or an error."""
    text = line.rstrip("\r\n")
    try:
        position = parse_position(text, find_variant(oracle.game.name))
    except BoardError as err:
        return {"error": str(err)}
    found: Verdict = oracle.value(position)
    return {"value": found.value, "plies": found.plies}


def answers(oracle: Oracle, lines: Iterable[str], out: TextIO) -> int:
    """Write one JSON line to ``out`` per line of ``lines``; return how many were answered."""
    count = 0
    for line in lines:
        out.write(json.dumps(answer(oracle, line)) + "\n")
        out.flush()
        count += 1
    return count


def _query(args: argparse.Namespace) -> int:
    (game,) = _games([args.variant])
    oracle = load(game)
    answers(oracle, sys.stdin, sys.stdout)
    return 0


# ---- info -------------------------------------------------------------------------------------


def _info(args: argparse.Namespace) -> int:
    for game in _games(args.variant):
        path = cache_path(game.name)
        if not path.exists():
            print(f"{game.name}: not built ({path})")
            continue
        try:
            started = time.perf_counter()
            oracle = load(game)
            seconds = time.perf_counter() - started
        except OracleError as problem:
            print(f"{game.name}: unusable: {problem}")
            continue
        stats = oracle.stats
        print(
            _summary(game.name, stats, float(stats.get("seconds", 0)), str(path))
            + f"; {path.stat().st_size / 1e6:.0f} MB, loaded in {seconds:.2f} s"
        )
    return 0
