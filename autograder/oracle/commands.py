"""``autograder oracle build | query | info``: thin commands over the solved tables the
registered packs offer (``GamePack.tables``, :class:`~autograder.games.perfect.Tables`).

Wire them into the kit's parser with ``add_oracle_commands(subparsers)``; each command sets
``run`` (args -> exit status), like the kit's other commands, and raises
:class:`~autograder.games.perfect.OracleError` (a ``GraderError``) when it cannot do its job.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

from autograder.games import PACKS
from autograder.games.perfect import OracleError, Table, Tables, Verdict

__all__ = ["add_oracle_commands", "answer", "answers"]

ORACLE_HELP = "solve the games exactly (build), then ask for values of positions (query)"
BUILD_HELP = "solve a variant and cache its table (10-20 s each, numpy needed)"
QUERY_HELP = (
    "read positions from stdin, one per line: 25 characters b, r or . (row 0 first), a space "
    "and the side to move; write one JSON object per line"
)
INFO_HELP = "show where the tables are cached and what they hold"


def _tables() -> list[Tables]:
    """Every registered pack's solved tables."""
    return [pack.tables for pack in PACKS.values() if pack.tables is not None]


def _names() -> list[str]:
    return [name for tables in _tables() for name in tables.names]


def add_oracle_commands(subparsers: Any) -> None:
    """Add the ``oracle`` command and its actions to an argparse ``add_subparsers()`` object."""
    names = _names()
    variant_help = ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else names[0]
    query_help = (
        "read positions from stdin, one per line: "
        + "; ".join(tables.query_format for tables in _tables())
        + "; write one JSON object per line"
    )
    oracle = subparsers.add_parser("oracle", help=ORACLE_HELP, description=ORACLE_HELP)
    actions = oracle.add_subparsers(dest="oracle_action", required=True, metavar="ACTION")
    build_cmd = actions.add_parser("build", help=BUILD_HELP, description=BUILD_HELP)
    build_cmd.add_argument(
        "--variant",
        action="append",
        metavar="V",
        help=variant_help + "; repeat for several (default: all of them)",
    )
    build_cmd.add_argument(
        "--force", action="store_true", help="rebuild even when a valid table is cached"
    )
    build_cmd.set_defaults(run=_build)
    query = actions.add_parser("query", help=query_help, description=query_help)
    query.add_argument("--variant", required=True, metavar="V", help=variant_help)
    query.set_defaults(run=_query)
    info = actions.add_parser("info", help=INFO_HELP, description=INFO_HELP)
    info.add_argument("--variant", action="append", metavar="V", help=variant_help)
    info.set_defaults(run=_info)


def _resolve(name: str) -> tuple[Tables, str]:
    """The tables holding the variant called ``name``, and its name there.

    :raises OracleError: saying which names are known.
    """
    problem = None
    for tables in _tables():
        try:
            return tables, tables.resolve(name)
        except OracleError as err:
            problem = err
    raise OracleError(f"--variant: {problem or f'no solved tables for {name!r}'}")


def _games(names: list[str] | None) -> list[tuple[Tables, str]]:
    return [_resolve(name) for name in names or _names()]


# ---- build ------------------------------------------------------------------------------------


def _build(args: argparse.Namespace) -> int:
    from rich.console import Console

    err = Console(stderr=True, highlight=False)
    for tables, name in _games(args.variant):
        path = tables.path(name)
        if not args.force and path.exists():
            try:
                tables.load(name)
            except OracleError as problem:
                err.print(f"{name}: {problem}; building it again", markup=False)
            else:
                err.print(
                    f"{name}: already built at {path} (--force builds it again)", markup=False
                )
                continue
        started = time.perf_counter()
        stats = _run_with_progress(tables.build(name), name, err)
        err.print(_summary(tables, name, stats, time.perf_counter() - started, str(path)))
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


def _summary(tables: Tables, name: str, stats: dict[str, Any], seconds: float, path: str) -> str:
    return f"{name}: solved in {seconds:.0f} s; {tables.describe(stats)}; saved to {path}"


# ---- query ------------------------------------------------------------------------------------


def answer(tables: Tables, table: Table, line: str) -> dict[str, Any]:
    """The JSON object answering one query line: value and plies, or an error."""
    text = line.rstrip("\r\n")
    try:
        position = tables.read_position(text, table.name)
    except ValueError as err:
        return {"error": str(err)}
    found: Verdict = table.value(position)
    return {"value": found.value, "plies": found.plies}


def answers(tables: Tables, table: Table, lines: Iterable[str], out: TextIO) -> list[str]:
    """Write one JSON line to ``out`` per line of ``lines`` (an error object for a line that is
    not a position, so that answers stay in step with the input); return the errors, each
    naming its line number."""
    errors = []
    for number, line in enumerate(lines, 1):
        found = answer(tables, table, line)
        out.write(json.dumps(found) + "\n")
        out.flush()
        if "error" in found:
            errors.append(f"line {number}: {found['error']}")
    return errors


def _query(args: argparse.Namespace) -> int:
    if sys.stdin is None:  # started with no standard input at all (``0<&-``, some cron jobs)
        raise OracleError(
            "there is no standard input to read positions from: pipe them in, one per line, as "
            f'echo "{"." * 25} b" | autograder oracle query --variant {args.variant}'
        )
    ((tables, name),) = _games([args.variant])
    errors = answers(tables, tables.load(name), sys.stdin, sys.stdout)
    if len(errors) == 1:
        raise OracleError(f"1 input line was not answered ({errors[0]})")
    if errors:
        raise OracleError(f"{len(errors)} input lines were not answered (the first, {errors[0]})")
    return 0


# ---- info -------------------------------------------------------------------------------------


def _info(args: argparse.Namespace) -> int:
    for tables, name in _games(args.variant):
        path = tables.path(name)
        if not path.exists():
            print(f"{name}: not built ({path})")
            continue
        try:
            started = time.perf_counter()
            oracle = tables.load(name)
            seconds = time.perf_counter() - started
        except OracleError as problem:
            print(f"{name}: unusable: {problem}")
            continue
        stats = oracle.stats
        print(
            _summary(tables, name, stats, float(stats.get("seconds", 0)), str(path))
            + f"; {path.stat().st_size / 1e6:.0f} MB, loaded in {seconds:.2f} s"
        )
    return 0
