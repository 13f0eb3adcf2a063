"""The rubric: points, tiers, probe counts and limits, read from a TOML file and checked whole.

Each option is declared once in ``OPTIONS`` (table, key, type, doc); loading, validation and
the reference table in docs/rubric.md all come from that declaration. Unknown keys are errors:
a typo in a points table must not change grades silently.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from autograder.errors import GraderError
from autograder.host import Limits

__all__ = [
    "Rubric",
    "ExtraOptions",
    "PhasePoints",
    "Tier",
    "OPTIONS",
    "load_rubric",
    "DEFAULT_RUBRIC",
    "reference",
]

DEFAULT_RUBRIC = "course.toml"

# (table, key) -> (type, one-line doc)
OPTIONS: dict[tuple[str, str], tuple[type, str]] = {
    ("", "title"): (str, "the rubric's name, shown in every report"),
    ("play", "games"): (int, "games against the seeded random player; the AI's colour alternates"),
    ("play", "ply_cap"): (int, "plies in a game before it ends as a draw"),
    ("play", "drop_probes"): (int, "seeded drop-phase positions the AI must move from"),
    ("play", "move_probes"): (int, "seeded move-phase positions the AI must move from"),
    ("limits", "call_seconds"): (float, "a call still running after this is killed (timeout)"),
    ("limits", "import_seconds"): (float, "importing game.py and constructing the player"),
    ("limits", "timeouts_before_giving_up"): (
        int,
        "after this many timeouts the remaining calls count as timeouts without waiting",
    ),
    ("limits", "submission_seconds"): (
        float,
        "wall time for grading one submission; past it the remaining calls count as timeouts",
    ),
    ("limits", "memory_mb"): (
        int,
        "address space of each of the submission's processes (0: no limit); with cgroups, "
        "also the memory of all of them together",
    ),
    ("limits", "file_mb"): (int, "largest file the submission may write; also its private /tmp"),
    ("limits", "output_chars"): (int, "printed text kept per call as evidence"),
    ("limits", "processes"): (
        int,
        "processes and threads of one submission (with cgroups, or a uid of its own)",
    ),
    ("limits", "open_files"): (int, "file descriptors per process"),
    ("limits", "packages"): (
        list,
        "third-party packages a fenced submission may import, where the grader's Python has "
        "them; the standard library is always there",
    ),
    ("rules", "drop_points"): (int, "no illegal move in the drop phase"),
    ("rules", "move_points"): (int, "no illegal move in the move phase"),
    ("state", "drop_points"): (int, "make_move never changed state or the board, drop phase"),
    ("state", "move_points"): (int, "make_move never changed state or the board, move phase"),
    ("format", "drop_points"): (int, "every drop-phase move was exactly [(row, col)]"),
    ("format", "move_points"): (int, "every move-phase move was exactly [(row, col), (row, col)]"),
    ("time", "tiers"): (list, "{seconds, points}: the first tier the slowest move fits earns"),
    ("wins", "tiers"): (list, "{wins, points}: the first tier the games won reach earns"),
    ("output", "penalty"): (int, "points taken off when anything is printed outside main()"),
    ("packaging", "penalty"): (int, "points taken off a badly named or badly filled zip"),
    ("packaging", "pattern"): (str, "regular expression for the zip name, with a netid group"),
    ("extras", "ladder_games"): (int, "games against each ladder rung, random to perfect (0: off)"),
    ("extras", "move_quality"): (bool, "rate every probe move against perfect play"),
    ("extras", "puzzles"): (int, "win-in-1, block and win-in-3 puzzles of each kind (0: off)"),
    ("extras", "challenge_games"): (
        int,
        "games against the perfect player for submissions whose run_challenge_test() is True",
    ),
}
# Options a rubric may leave out, with their value then; every other option is required.
OPTIONAL: dict[tuple[str, str], Any] = {
    ("limits", "processes"): Limits.processes,
    ("limits", "open_files"): Limits.open_files,
    ("limits", "packages"): list(Limits.packages),
    ("extras", "ladder_games"): 0,
    ("extras", "move_quality"): False,
    ("extras", "puzzles"): 0,
    ("extras", "challenge_games"): 0,
}


@dataclass(frozen=True)
class PhasePoints:
    drop: int
    move: int

    @property
    def total(self) -> int:
        return self.drop + self.move


@dataclass(frozen=True)
class Tier:
    """At most ``limit`` seconds, or at least ``limit`` wins, earns ``points``."""

    limit: float
    points: int


@dataclass(frozen=True)
class ExtraOptions:
    """What is played and asked beyond the rubric (``[extras]``); none of it changes a score."""

    ladder_games: int = 0  # games against each rung; 0 = no ladder
    move_quality: bool = False
    puzzles: int = 0  # puzzles of each kind
    challenge_games: int = 0  # games against the perfect player, when the submission opts in

    @property
    def any(self) -> bool:
        return bool(self.ladder_games or self.move_quality or self.puzzles or self.challenge_games)


@dataclass(frozen=True)
class Rubric:
    title: str
    source: str
    games: int
    ply_cap: int
    drop_probes: int
    move_probes: int
    limits: Limits
    timeouts_before_giving_up: int
    submission_seconds: float
    rules: PhasePoints
    state: PhasePoints
    format: PhasePoints
    time_tiers: tuple[Tier, ...]
    win_tiers: tuple[Tier, ...]
    output_penalty: int
    packaging_penalty: int
    packaging_pattern: str
    extras: ExtraOptions = ExtraOptions()

    @property
    def max_score(self) -> int:
        best_time = max((t.points for t in self.time_tiers), default=0)
        best_wins = max((t.points for t in self.win_tiers), default=0)
        return self.rules.total + self.state.total + self.format.total + best_time + best_wins


def _flatten(data: dict[str, Any], where: str) -> dict[tuple[str, str], Any]:
    values: dict[tuple[str, str], Any] = {}
    tables = {table for table, _ in OPTIONS if table}
    for key, value in data.items():
        if isinstance(value, dict):
            if key not in tables:
                known = ", ".join(sorted(tables))
                raise GraderError(f"{where}: unknown table [{key}]; known: {known}")
            for sub, item in value.items():
                values[(key, sub)] = item
        else:
            values[("", key)] = value
    for name in values:
        if name not in OPTIONS:
            known = ", ".join(k for t, k in OPTIONS if t == name[0])
            raise GraderError(f"{where}: unknown key {_label(name)!r}; [{name[0]}] takes {known}")
    return values


def _label(name: tuple[str, str]) -> str:
    return f"{name[0]}.{name[1]}" if name[0] else name[1]


_KINDS = {
    int: "a whole number",
    float: "a number",
    str: "text",
    list: "a list",
    bool: "true or false",
}


def _checked(name: tuple[str, str], value: Any, where: str) -> Any:
    kind, _ = OPTIONS[name]
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise GraderError(f"{where}: {_label(name)} should be {_KINDS[kind]}, got {value!r}")
    if kind in (int, float) and value < 0:
        raise GraderError(f"{where}: {_label(name)} must not be negative, got {value!r}")
    return value


def _tiers(value: list[Any], unit: str, name: str, where: str) -> tuple[Tier, ...]:
    tiers = []
    for index, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {unit, "points"}:
            raise GraderError(
                f"{where}: {name}.tiers[{index}] should be {{ {unit} = N, points = N }}, "
                f"got {item!r}"
            )
        limit, points = item[unit], item["points"]
        if isinstance(limit, bool) or not isinstance(limit, int | float) or limit < 0:
            raise GraderError(f"{where}: {name}.tiers[{index}].{unit} should be a number ≥ 0")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise GraderError(f"{where}: {name}.tiers[{index}].points should be a whole number ≥ 0")
        tiers.append(Tier(float(limit), points))
    return tuple(tiers)


def _packages(value: list[Any], where: str) -> tuple[str, ...]:
    for item in value:
        if not isinstance(item, str) or not item.isidentifier():
            raise GraderError(
                f'{where}: limits.packages holds {item!r}; list importable names like "numpy"'
            )
    return tuple(value)


def load_rubric(path: str | Path | None = None) -> Rubric:
    """The rubric in ``path``, or the course's default when None.

    :raises GraderError: one sentence naming the file, the key, the bad value and what is allowed.
    """
    if path is None:
        text = resources.files("autograder.rubrics").joinpath(DEFAULT_RUBRIC).read_text("utf-8")
        where = f"built-in rubric {DEFAULT_RUBRIC}"
    else:
        where = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise GraderError(f"cannot read the rubric file {where}: {err}") from err
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GraderError(f"{where} is not valid TOML: {err}") from err
    given = {**OPTIONAL, **_flatten(data, where)}
    missing = [_label(name) for name in OPTIONS if name not in given]
    if missing:
        raise GraderError(f"{where}: missing {', '.join(missing)}")
    v = {name: _checked(name, value, where) for name, value in given.items()}
    pattern = v[("packaging", "pattern")]
    try:
        re.compile(pattern)
    except re.error as err:
        raise GraderError(f"{where}: packaging.pattern is not a regular expression: {err}") from err
    return Rubric(
        title=v[("", "title")],
        source=where,
        games=v[("play", "games")],
        ply_cap=v[("play", "ply_cap")],
        drop_probes=v[("play", "drop_probes")],
        move_probes=v[("play", "move_probes")],
        limits=Limits(
            call_seconds=v[("limits", "call_seconds")],
            import_seconds=v[("limits", "import_seconds")],
            memory_mb=v[("limits", "memory_mb")],
            file_mb=v[("limits", "file_mb")],
            output_chars=v[("limits", "output_chars")],
            processes=v[("limits", "processes")],
            open_files=v[("limits", "open_files")],
            packages=_packages(v[("limits", "packages")], where),
        ),
        timeouts_before_giving_up=v[("limits", "timeouts_before_giving_up")],
        submission_seconds=v[("limits", "submission_seconds")],
        rules=PhasePoints(v[("rules", "drop_points")], v[("rules", "move_points")]),
        state=PhasePoints(v[("state", "drop_points")], v[("state", "move_points")]),
        format=PhasePoints(v[("format", "drop_points")], v[("format", "move_points")]),
        time_tiers=_tiers(v[("time", "tiers")], "seconds", "time", where),
        win_tiers=_tiers(v[("wins", "tiers")], "wins", "wins", where),
        output_penalty=v[("output", "penalty")],
        packaging_penalty=v[("packaging", "penalty")],
        packaging_pattern=pattern,
        extras=ExtraOptions(
            ladder_games=v[("extras", "ladder_games")],
            move_quality=v[("extras", "move_quality")],
            puzzles=v[("extras", "puzzles")],
            challenge_games=v[("extras", "challenge_games")],
        ),
    )


def reference() -> str:
    """The Markdown table of every rubric option, for docs/rubric.md."""
    rows = ["| key | type | meaning |", "| --- | --- | --- |"]
    for name, (kind, doc) in OPTIONS.items():
        default = f" (optional, default {OPTIONAL[name]!r})" if name in OPTIONAL else ""
        rows.append(f"| `{_label(name)}` | {kind.__name__} | {doc}{default} |")
    return "\n".join(rows)
