"""The rubric: points, tiers, probe counts and limits, read from a TOML file and checked whole.

Each option is declared once (table, key, type, doc): the fixed ones in ``OPTIONS``, the ones
per phase of the game (``rules.drop_points``, ``play.move_probes`` ...) by :func:`options`
from the game's phases; loading, validation and the reference table in docs/rubric.md all
come from that declaration. Unknown keys are errors: a typo in a points table must not change
grades silently. Each game pack ships its default rubric (``games/<pack>/rubric.toml``).
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.errors import GraderError
from autograder.games.pack import AnyPack, Setting
from autograder.play.launch import Limits
from autograder.play.records import Plan

__all__ = [
    "Rubric",
    "ExtraOptions",
    "PhasePoints",
    "Tier",
    "OPTIONS",
    "options",
    "load_rubric",
    "reference",
    "PHASE_CRITERIA",
]

# (table, key) -> (type, one-line doc)
OPTIONS: dict[tuple[str, str], tuple[type, str]] = {
    ("", "title"): (str, "the rubric's name, shown in every report"),
    ("play", "games"): (int, "games against the seeded random player; the AI's colour alternates"),
    ("play", "ply_cap"): (int, "plies in a game before it ends as a draw"),
    ("limits", "call_seconds"): (
        float,
        "a call still running after this is killed (timeout); where the grader measures the "
        "submission's own time (cgroups) the limit is on that, not on wall time",
    ),
    ("limits", "wall_factor"): (
        float,
        "where own time is measured: a call whose wall time reaches this many times "
        "call_seconds (times the load per core, when above 1) is stopped whatever its own "
        "time (a backstop)",
    ),
    ("limits", "import_seconds"): (float, "importing the submission, and constructing the player"),
    ("limits", "timeouts_before_giving_up"): (
        int,
        "when more than this many calls in a row were stopped at the limit, the remaining "
        "calls are not run (and not judged)",
    ),
    ("limits", "submission_seconds"): (
        float,
        "wall time for grading one submission; past it the remaining calls are not run (and "
        "not judged) (stretched once by the load per core, when above 1, as the backstop is)",
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
        "the third-party packages a submission may import (the standard library always): "
        "`check` stops and `grade` warns where one is not installed, the Gradescope bundle "
        "installs them, any other import fails with a sentence naming this list",
    ),
    ("time", "tiers"): (list, "{seconds, points}: the first tier the slowest move fits earns"),
    ("time", "measure_again"): (
        int,
        "calls whose wall time would cost a tier are measured again alone, slowest first, this "
        "many at most per submission; the better time counts (0: never); calls timed on the "
        "submission's own time (cgroups) are not",
    ),
    ("wins", "tiers"): (list, "{wins, points}: the first tier the games won reach earns"),
    ("tactics", "probes"): (
        int,
        "tactical positions asked besides the probes, win in 1 and block in turn (0: none)",
    ),
    ("tactics", "points"): (
        int,
        "points for the tactical positions, earned by those answered right beyond what moves "
        "at random get (0: reported only); a move is right when it keeps the position's best "
        "outcome, judged exactly where the kit solves the position",
    ),
    ("tactics", "prefer_sooner"): (
        bool,
        "charge a win in 1 answered by a move that keeps a forced win but does not win at once "
        "(false: reported, not charged)",
    ),
    ("output", "penalty"): (int, "points taken off when anything is printed outside main()"),
    ("packaging", "penalty"): (int, "points taken off a badly named or badly filled zip"),
    ("late", "penalty"): (
        int,
        "points taken off a submission Canvas marked LATE, as a line of its own (0: none)",
    ),
    ("packaging", "pattern"): (str, "regular expression for the zip name, with a netid group"),
    ("packaging", "example"): (str, "the zip name students are told to use (empty: the pattern)"),
    ("extras", "ladder_games"): (int, "games against each ladder rung, random to perfect (0: off)"),
    ("extras", "move_quality"): (bool, "rate every probe move against perfect play"),
    ("extras", "puzzles"): (int, "win-in-1, block and win-in-3 puzzles of each kind (0: off)"),
    ("extras", "challenge_games"): (
        int,
        "games against the perfect player for submissions whose run_challenge_test() is True",
    ),
    ("leaderboard", "show"): (
        list,
        "figures for Gradescope's leaderboard and the summary's ranking, first one ranks: "
        "score, games_won, slowest_move, ladder, puzzles, move_quality (the last three run "
        "the extras)",
    ),
    ("tournament", "bands"): (
        list,
        "{rank, points}: points a student placed at or above the rank earns in `autograder "
        "tournament`, the first band reached (the kit's own players take no place; a student "
        "earns the best place it could hold, never less than one below it)",
    ),
    ("tournament", "openings"): (
        int,
        "positions each pair of `autograder tournament` plays from, in both colours: the "
        "game's start and that many less one fair openings (at least 1)",
    ),
    ("tournament", "opening_plies"): (int, "moves in each opening but the start (at least 1)"),
}
# Leaderboard figures: name -> (what it is, "desc" when more is better / "asc" when less is)
LEADERBOARD = {
    "score": ("the score", "desc"),
    "games_won": ("graded games won", "desc"),
    "slowest_move": ("the slowest move, in seconds", "asc"),
    "ladder": ("rungs of the opponent ladder beaten (more wins than losses)", "desc"),
    "puzzles": ("puzzles solved", "desc"),
    "move_quality": ("percent of rated probe moves that kept the position's value", "desc"),
}
# Gradescope's words for who sees a test (and the report header, "stdout").
VISIBILITY = ("visible", "after_due_date", "after_published", "hidden")
GRADED_IDS = ("rules", "state", "format", "time", "wins", "output", "packaging")
# Options a rubric may leave out, with their value then; every other option is required.
OPTIONAL: dict[tuple[str, str], Any] = {
    ("limits", "wall_factor"): Limits.wall_factor,
    ("limits", "processes"): Limits.processes,
    ("limits", "open_files"): Limits.open_files,
    ("limits", "packages"): list(Limits.packages),
    ("packaging", "example"): "",
    ("time", "measure_again"): 3,
    ("tactics", "probes"): 0,
    ("tactics", "points"): 0,
    ("tactics", "prefer_sooner"): False,
    ("late", "penalty"): 0,
    ("extras", "ladder_games"): 0,
    ("extras", "move_quality"): False,
    ("extras", "puzzles"): 0,
    ("extras", "challenge_games"): 0,
    ("leaderboard", "show"): [],
    ("tournament", "bands"): [],
    ("tournament", "openings"): 3,
    ("tournament", "opening_plies"): 2,
}


# criterion id -> what earns its points in a phase
PHASE_CRITERIA = {
    "rules": "no illegal move in the {phase} phase",
    "state": "make_move never changed state or the board in the {phase} phase",
    "format": "every {phase}-phase move had the homework's exact format",
}


def options(
    phases: tuple[str, ...],
    checks: Mapping[str, str] | None = None,
    settings: tuple[Setting, ...] = (),
) -> dict[tuple[str, str], tuple[type, str]]:
    """Every option of a rubric for a game with these phases, check criteria (id -> name) and
    settings, in the order docs list them."""
    per_phase: dict[tuple[str, str], tuple[type, str]] = {
        ("play", f"{phase}_probes"): (int, f"seeded {phase}-phase positions the AI must move from")
        for phase in phases
    }
    for ident, doc in PHASE_CRITERIA.items():
        per_phase |= {(ident, f"{p}_points"): (int, doc.format(phase=p)) for p in phases}
    ordered = dict(list(OPTIONS.items())[:3]) | {
        k: v for k, v in per_phase.items() if k[0] == "play"
    }
    ordered |= {k: v for k, v in OPTIONS.items() if k not in ordered and k[0] == "limits"}
    ordered |= {k: v for k, v in per_phase.items() if k[0] != "play"}
    ordered |= {
        (ident, "points"): (
            int,
            f"{name}: each kind of check earns its part (its weight) when all its checks are right",
        )
        for ident, name in (checks or {}).items()
    }
    ordered |= {(s.table, s.key): (int, f"{s.doc} (at least {s.least})") for s in settings}
    ordered |= {k: v for k, v in OPTIONS.items() if k not in ordered}
    shown = ("stdout", *GRADED_IDS[:5], *(checks or {}), "tactics", *GRADED_IDS[5:], "late_penalty")
    return ordered | {
        ("visibility", ident): (
            str,
            f"who sees {'the report header' if ident == 'stdout' else ident} on Gradescope: "
            + ", ".join(VISIBILITY),
        )
        for ident in shown
    }


@dataclass(frozen=True)
class PhasePoints:
    """A criterion's points per phase of the game, in the game's order."""

    points: tuple[tuple[str, int], ...]

    def of(self, phase: str) -> int:
        return dict(self.points).get(phase, 0)

    @property
    def total(self) -> int:
        return sum(points for _, points in self.points)


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
    digest: str  # of the file's text: a rerun by another rubric regrades
    phases: tuple[str, ...]  # the game's, in order
    games: int
    ply_cap: int
    probes: tuple[tuple[str, int], ...]  # phase -> positions asked
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
    packaging_example: str = ""  # empty: the pattern is shown instead
    extras: ExtraOptions = ExtraOptions()
    measure_again: int = 3  # slow calls measured again alone per submission
    late_penalty: int = 0  # points off a submission Canvas marked LATE
    tactics: int = 0  # tactical probes asked
    tactics_points: int = 0  # what solving them all earns
    prefer_sooner: bool = False  # a forced win kept instead of the win at once is charged
    checks: tuple[tuple[str, str, int], ...] = ()  # the pack's check criteria: id, name, points
    settings: tuple[tuple[str, int], ...] = ()  # the pack's settings: label -> value
    visibility: tuple[tuple[str, str], ...] = ()  # criterion id (or "stdout") -> Gradescope's
    leaderboard: tuple[str, ...] = ()  # figures for the leaderboard, the first ranks
    tournament_bands: tuple[Tier, ...] = ()  # points by place in a tournament; none by default
    openings: int = 3  # positions each pair plays from in a tournament, the start among them
    opening_plies: int = 2  # moves in each of the other openings

    def visible(self, ident: str) -> str:
        """Who sees ``ident`` on Gradescope ("visible" unless the rubric says otherwise)."""
        return dict(self.visibility).get(ident, "visible")

    @property
    def full_time_seconds(self) -> float:
        """The slowest a move may be and keep every time point."""
        best = self.max_points("time")
        if best == 0:
            return math.inf
        return min((t.limit for t in self.time_tiers if t.points == best), default=math.inf)

    def max_points(self, ident: str) -> int:
        """The most a criterion can earn (0 for a penalty)."""
        if ident in ("rules", "state", "format"):
            points: PhasePoints = getattr(self, ident)
            return points.total
        if ident == "tactics":
            return self.tactics_points if self.tactics else 0
        for checked, _, worth in self.checks:
            if checked == ident:
                return worth
        tiers = {"time": self.time_tiers, "wins": self.win_tiers}.get(ident, ())
        return max((t.points for t in tiers), default=0)

    @property
    def max_score(self) -> int:
        earned = (
            "rules",
            "state",
            "format",
            "time",
            "wins",
            "tactics",
            *(i for i, _, _ in self.checks),
        )
        return sum(self.max_points(ident) for ident in earned)

    @property
    def plan(self) -> Plan:
        """What the referee is to play and ask."""
        return Plan(
            self.games,
            self.ply_cap,
            self.probes,
            self.limits,
            self.timeouts_before_giving_up,
            self.tactics,
            self.settings,
        )


def _flatten(
    data: dict[str, Any], where: str, declared: dict[tuple[str, str], tuple[type, str]]
) -> dict[tuple[str, str], Any]:
    values: dict[tuple[str, str], Any] = {}
    tables = {table for table, _ in declared if table}
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
        if name not in declared:
            known = ", ".join(k for t, k in declared if t == name[0])
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


def _checked(name: tuple[str, str], kind: type, value: Any, where: str) -> Any:
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok:
        raise GraderError(f"{where}: {_label(name)} should be {_KINDS[kind]}, got {value!r}")
    if kind in (int, float) and value < 0:
        raise GraderError(f"{where}: {_label(name)} must not be negative, got {value!r}")
    return value


def _tiers(
    value: list[Any], unit: str, name: str, where: str, key: str = "tiers"
) -> tuple[Tier, ...]:
    tiers = []
    for index, item in enumerate(value):
        if not isinstance(item, dict) or set(item) != {unit, "points"}:
            raise GraderError(
                f"{where}: {name}.{key}[{index}] should be {{ {unit} = N, points = N }}, "
                f"got {item!r}"
            )
        limit, points = item[unit], item["points"]
        if isinstance(limit, bool) or not isinstance(limit, int | float) or limit < 0:
            raise GraderError(f"{where}: {name}.{key}[{index}].{unit} should be a number ≥ 0")
        if isinstance(points, bool) or not isinstance(points, int) or points < 0:
            raise GraderError(f"{where}: {name}.{key}[{index}].points should be a whole number ≥ 0")
        tiers.append(Tier(float(limit), points))
    return tuple(tiers)


def _packages(value: list[Any], where: str) -> tuple[str, ...]:
    for item in value:
        if not isinstance(item, str) or not item.isidentifier():
            raise GraderError(
                f'{where}: limits.packages holds {item!r}; list importable names like "numpy"'
            )
    return tuple(value)


def _figures(value: list[Any], where: str) -> tuple[str, ...]:
    for item in value:
        if item not in LEADERBOARD:
            raise GraderError(
                f"{where}: leaderboard.show holds {item!r}; choose from {', '.join(LEADERBOARD)}"
            )
    return tuple(value)


def _visibility(values: dict[tuple[str, str], Any], where: str) -> tuple[tuple[str, str], ...]:
    found = []
    for (table, ident), value in values.items():
        if table != "visibility":
            continue
        if value not in VISIBILITY:
            raise GraderError(
                f"{where}: visibility.{ident} is {value!r}; choose one of {', '.join(VISIBILITY)}"
            )
        found.append((ident, value))
    return tuple(found)


def _read(path: str | Path | None, pack: AnyPack) -> tuple[str, str]:
    """The rubric's text, and where it came from (for every message about it)."""
    if path is None:
        return pack.rubric.read_text("utf-8"), f"built-in rubric of {pack.name}"
    where = str(path)
    try:
        return Path(path).read_text("utf-8"), where
    except (OSError, UnicodeDecodeError) as err:
        raise GraderError(f"cannot read the rubric file {where}: {err}") from err


def _values(text: str, pack: AnyPack, where: str) -> dict[tuple[str, str], Any]:
    """Every option's value, (table, key) -> value, the defaults filled in, each checked.

    :raises GraderError: for invalid TOML, an unknown or missing key, or a bad value."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise GraderError(f"{where} is not valid TOML: {err}") from err
    declared = options(pack.phases, pack.check_criteria, pack.settings)
    visible = {name: "visible" for name in declared if name[0] == "visibility"}
    defaults = {(s.table, s.key): s.default for s in pack.settings}
    given = {**OPTIONAL, **visible, **defaults, **_flatten(data, where, declared)}
    missing = [_label(name) for name in declared if name not in given]
    if missing:
        raise GraderError(f"{where}: missing {', '.join(missing)}")
    v = {name: _checked(name, declared[name][0], value, where) for name, value in given.items()}
    for setting in pack.settings:
        value = v[(setting.table, setting.key)]
        if value < setting.least:
            raise GraderError(
                f"{where}: {setting.label} is {value}; it must be at least {setting.least}"
                + (f" ({setting.why})" if setting.why else "")
            )
    for key in ("openings", "opening_plies"):
        if v[("tournament", key)] < 1:
            raise GraderError(
                f"{where}: tournament.{key} is {v[('tournament', key)]}; it must be at least 1"
            )
    if v[("limits", "wall_factor")] < 1:
        raise GraderError(
            f"{where}: limits.wall_factor is {v[('limits', 'wall_factor')]!r}; it must be at "
            "least 1 (the wall-clock backstop is that many times limits.call_seconds)"
        )
    try:
        re.compile(v[("packaging", "pattern")])
    except re.error as err:
        raise GraderError(f"{where}: packaging.pattern is not a regular expression: {err}") from err
    return v


def _limits(v: dict[tuple[str, str], Any], where: str) -> Limits:
    return Limits(
        call_seconds=v[("limits", "call_seconds")],
        wall_factor=v[("limits", "wall_factor")],
        import_seconds=v[("limits", "import_seconds")],
        memory_mb=v[("limits", "memory_mb")],
        file_mb=v[("limits", "file_mb")],
        output_chars=v[("limits", "output_chars")],
        processes=v[("limits", "processes")],
        open_files=v[("limits", "open_files")],
        packages=_packages(v[("limits", "packages")], where),
    )


def load_rubric(path: str | Path | None, pack: AnyPack) -> Rubric:
    """The rubric in ``path`` for a game of ``pack``, or the pack's default when None.

    :raises GraderError: one sentence naming the file, the key, the bad value and what is allowed.
    """
    text, where = _read(path, pack)
    v = _values(text, pack, where)

    def per_phase(table: str, suffix: str) -> tuple[tuple[str, int], ...]:
        return tuple((phase, v[(table, f"{phase}_{suffix}")]) for phase in pack.phases)

    return Rubric(
        title=v[("", "title")],
        source=where,
        digest=hashlib.sha256(text.encode()).hexdigest()[:16],
        phases=pack.phases,
        games=v[("play", "games")],
        ply_cap=v[("play", "ply_cap")],
        probes=per_phase("play", "probes"),
        limits=_limits(v, where),
        timeouts_before_giving_up=v[("limits", "timeouts_before_giving_up")],
        submission_seconds=v[("limits", "submission_seconds")],
        rules=PhasePoints(per_phase("rules", "points")),
        state=PhasePoints(per_phase("state", "points")),
        format=PhasePoints(per_phase("format", "points")),
        time_tiers=_tiers(v[("time", "tiers")], "seconds", "time", where),
        win_tiers=_tiers(v[("wins", "tiers")], "wins", "wins", where),
        output_penalty=v[("output", "penalty")],
        packaging_penalty=v[("packaging", "penalty")],
        packaging_pattern=v[("packaging", "pattern")],
        packaging_example=v[("packaging", "example")],
        measure_again=v[("time", "measure_again")],
        late_penalty=v[("late", "penalty")],
        tactics=v[("tactics", "probes")],
        tactics_points=v[("tactics", "points")],
        prefer_sooner=v[("tactics", "prefer_sooner")],
        checks=tuple(
            (ident, name, v[(ident, "points")]) for ident, name in pack.check_criteria.items()
        ),
        settings=tuple((s.label, v[(s.table, s.key)]) for s in pack.settings),
        visibility=_visibility(v, where),
        leaderboard=_figures(v[("leaderboard", "show")], where),
        tournament_bands=_tiers(v[("tournament", "bands")], "rank", "tournament", where, "bands"),
        openings=v[("tournament", "openings")],
        opening_plies=v[("tournament", "opening_plies")],
        extras=ExtraOptions(
            ladder_games=v[("extras", "ladder_games")],
            move_quality=v[("extras", "move_quality")],
            puzzles=v[("extras", "puzzles")],
            challenge_games=v[("extras", "challenge_games")],
        ),
    )


def reference(pack: AnyPack) -> str:
    """The Markdown table of every rubric option for ``pack``'s games, for docs/rubric.md."""
    rows = ["| key | type | meaning |", "| --- | --- | --- |"]
    defaults = {(s.table, s.key): s.default for s in pack.settings}
    for name, (kind, doc) in options(pack.phases, pack.check_criteria, pack.settings).items():
        optional = name in OPTIONAL or name in defaults or name[0] == "visibility"
        value = defaults.get(name, OPTIONAL.get(name, "visible"))
        default = f" (optional, default {value!r})" if optional else ""
        rows.append(f"| `{_label(name)}` | {kind.__name__} | {doc}{default} |")
    return "\n".join(rows)
