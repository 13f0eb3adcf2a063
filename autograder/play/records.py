"""What grading saw of one submission, as plain records: the plan it followed, every
``make_move`` call, every ply of a game, the games, the pack's checks and the whole session.

Scoring and the reports read these; nothing here runs a submission or decides points.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from autograder.games.pack import AnyPack, Assignment, Noted, move_marks
from autograder.games.tactics import Probe
from autograder.play.host import Status
from autograder.play.launch import Limits
from autograder.play.timed import Timed

__all__ = [
    "Plan",
    "Call",
    "Ply",
    "Game",
    "Checked",
    "Session",
    "call_ply",
    "pass_ply",
    "SHOWN_BEFORE",
]

SHOWN_BEFORE = 0.05  # seconds in the calls before make_move worth naming in a report


@dataclass(frozen=True)
class Plan:
    """What the referee plays and asks, from the rubric: games, probes per phase, limits."""

    games: int = 3
    ply_cap: int = 200
    probes: tuple[tuple[str, int], ...] = ()  # (phase, how many) for each of the game's phases
    limits: Limits = Limits()
    timeouts_before_giving_up: int = 2
    tactics: int = 0  # tactical probes (win in 1, block), where the rubric asks for them
    settings: tuple[tuple[str, int], ...] = ()  # the rubric's values of the pack's settings


@dataclass(frozen=True)
class Call(Timed):
    """One ``make_move`` call: where, on what position, what came back and what was wrong."""

    where: str
    position: Any  # the pack's position
    phase: str  # the pack's phase of ``position``
    status: Status
    seconds: float
    returned: str = ""  # repr of the returned value, for reports
    illegal: str | None = None  # the engine's reason when the move is malformed or illegal
    format_problem: str | None = None
    changed: str | None = None  # what make_move modified
    printed: str = ""
    error: str | None = None  # crash, exit, timeout: what happened instead of a move
    move: Any = None  # the pack's move, when it was legal
    other_seconds: float = 0.0  # of ``seconds``: the calls before make_move (construction, sync)
    other_calls: str = ""  # what those were, for reports
    printed_before: str = ""  # what those calls printed (a constructor's print): theirs
    cpu_seconds: float | None = None  # CPU time of all its processes over those calls, if known
    child_seed: int | None = None  # the seed of the process it ran in: to play it again
    measured: tuple[float, float] | None = None  # (first, alone) when measured again alone
    raw: Any = None  # what the call returned, decoded (for drawing the move)
    own_seconds: float | None = None  # its own time over those calls (host.py); None: unknown
    skipped: bool = False  # not run: the timeout allowance was used up
    busy: str | None = None  # stopped by the wall clock while the machine was busy: the load
    # the driver could not set the call up (the student's own board class cannot hold the
    # position): not a move the submission made, so no criterion counts it either way
    unbuilt: bool = False

    @property
    def answered(self) -> bool:
        return self.status is Status.OK

    @property
    def raised(self) -> bool:
        """No move came back: the call raised, the process ended or wrote garbage (or, with
        ``unbuilt``, the driver could not set the call up: scoring leaves those out)."""
        return self.status in (Status.ERROR, Status.EXITED, Status.BAD_REPLY)


@dataclass(frozen=True)
class Ply:
    """One move of a graded game, kept for the replay: in the student's format, with its time."""

    side: str
    move: Any  # the move as plain data (``pack.student_move``); None when the rules refused it
    text: str  # as it was returned or played, for people
    seconds: float | None = None  # the submission's call, as judged (own time where measured)
    marks: tuple[tuple[int, int, str], ...] = ()  # its squares, as ``pack.marks`` draws them
    illegal: str | None = None  # why the rules refused it
    printed: str = ""  # what the submission printed during the call


@dataclass(frozen=True)
class Game:
    number: int
    ai_side: str
    result: str  # "win", "loss" or "draw", for the submission
    reason: str
    plies: int
    final: Any  # the pack's position
    calls: tuple[Call, ...]
    notes: tuple[str, ...] = ()
    printed: str = ""  # printed outside make_move: construction, place_piece, opponent_move
    moves: tuple[Ply, ...] = ()  # every ply, both sides', for the replay


@dataclass(frozen=True)
class Checked:
    """One of the pack's checks, asked and judged: ``problem`` is None when the answer was right."""

    criterion: str
    kind: str
    where: str
    board: str
    problem: str | None
    seconds: float
    printed: str = ""
    explained_by: str = ""  # the verdict's: a kind of check whose fault explains this one
    note: Noted | None = None  # a right answer's remark, reported (see ``Noted``)
    weight: float = 1.0  # the check's: its kind's part of the criterion's points
    share: float = 1.0  # the verdict's: how much of its kind a wrong answer costs


@dataclass(frozen=True)
class Session:
    """Everything the referee saw while grading one submission."""

    submission: str
    assignment: Assignment
    seed: int
    plan: Plan
    load_error: str | None = None  # the submission could not be started at all
    import_printed: str = ""
    games: tuple[Game, ...] = ()
    probes: tuple[Call, ...] = ()
    protections: tuple[str, ...] = ()  # the sandbox layers that were active, for the report
    tactics: tuple[tuple[Probe, Call], ...] = ()  # (the probe, the call) for each tactical probe
    checks: tuple[Checked, ...] = ()  # the pack's checks, where it has any
    warnings: tuple[str, ...] = ()  # about the submission's files, for every report's header

    @property
    def calls(self) -> tuple[Call, ...]:
        games = tuple(c for g in self.games for c in g.calls)
        return games + self.probes + tuple(call for _, call in self.tactics)


def call_ply(pack: AnyPack, side: str, pos: Any, call: Call) -> Ply:
    """The submission's move on ``pos``, as a replay shows it (refused ones too)."""
    move = None if call.move is None else pack.student_move(call.move)
    return Ply(
        side,
        move,
        call.returned or (call.error or "no move"),
        call.judged,  # the time the rubric judged, not the machine's load
        move_marks(pack, pos, call.raw),
        None if call.move is not None else (call.illegal or call.error or "no move"),
        call.printed_before + call.printed,
    )


def pass_ply(pack: AnyPack, side: str) -> Ply:
    """A pass ``side`` was forced to (no other legal move), played by the referee: "white
    passes (no legal move)" in every report and replay."""
    name = pack.side_names.get(side, side)
    return Ply(side, pack.student_move(pack.pass_move), f"{name} passes (no legal move)")
