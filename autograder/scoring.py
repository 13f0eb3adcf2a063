"""Scoring: the rubric applied to what the referee saw. A pure function, no processes, no printing.

Every deduction carries evidence: where it happened, the position drawn as the course's board,
what ``make_move`` returned and what was wrong with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from autograder.host import Status
from autograder.referee import SHOWN_BEFORE, Call, Session
from autograder.rubric import PhasePoints, Rubric, Tier
from autograder.rules import render

__all__ = ["CRITERIA", "Evidence", "Criterion", "Grade", "score", "EVIDENCE_SHOWN"]

# Criterion ids (KIT_SPEC §4) and their names, in report order.
CRITERIA = {
    "rules": "follows the rules",
    "state": "does not modify state",
    "format": "move format",
    "time": "time",
    "wins": "beats a random player",
    "output": "debug output",
    "packaging": "packaging",
}
EVIDENCE_SHOWN = 3  # examples kept per criterion; the summary gives the full count
PHASES = ("drop", "move")


@dataclass(frozen=True)
class Evidence:
    where: str
    problem: str
    board: str = ""  # the position before the move, drawn as the course's print_board does
    returned: str = ""  # what make_move returned


@dataclass(frozen=True)
class Criterion:
    id: str
    name: str
    points: float
    max_points: int  # 0 for penalties
    summary: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Grade:
    session: Session
    criteria: tuple[Criterion, ...]

    @property
    def score(self) -> float:
        return max(0.0, sum(c.points for c in self.criteria))

    @property
    def max_score(self) -> int:
        return self.session.rubric.max_score


def _evidence(call: Call, problem: str) -> Evidence:
    return Evidence(call.where, problem, render(call.position), call.returned)


def _phase_criterion(
    ident: str,
    points: PhasePoints,
    calls: tuple[Call, ...],
    failure: Callable[[Call], str | None],
    counts: Callable[[Call], bool],
    wrong: str,
) -> Criterion:
    """Points per phase for calls in which ``failure`` finds nothing; ``counts`` picks the calls
    that give evidence either way. A phase with no such call earns nothing: no evidence."""
    earned = 0
    parts: list[str] = []
    evidence: list[Evidence] = []
    for phase in PHASES:
        worth = getattr(points, phase)
        relevant = [c for c in calls if c.phase == phase and counts(c)]
        failed = [(c, problem) for c in relevant if (problem := failure(c)) is not None]
        if not relevant:
            parts.append(f"{phase} phase 0/{worth}: no move came back to judge")
        elif failed:
            parts.append(f"{phase} phase 0/{worth}: {len(failed)} of {len(relevant)} moves {wrong}")
            evidence.extend(_evidence(c, problem) for c, problem in failed[:EVIDENCE_SHOWN])
        else:
            earned += worth
            parts.append(f"{phase} phase {worth}/{worth}: all {len(relevant)} moves fine")
    return Criterion(
        ident, CRITERIA[ident], earned, points.total, "; ".join(parts), tuple(evidence)
    )


def _rules_failure(call: Call) -> str | None:
    if call.status in (Status.ERROR, Status.EXITED, Status.BAD_REPLY):
        return f"no move was made: {call.error}"
    return call.illegal


def _tier(tiers: tuple[Tier, ...], fits: Callable[[Tier], bool]) -> int:
    return next((t.points for t in tiers if fits(t)), 0)


def _time(rubric: Rubric, calls: tuple[Call, ...]) -> Criterion:
    best = max((t.points for t in rubric.time_tiers), default=0)
    answered = [c for c in calls if c.answered]
    timed_out = [c for c in calls if c.status is Status.TIMEOUT]
    if not answered and not timed_out:
        return Criterion("time", CRITERIA["time"], 0, best, "no move was ever returned to time")
    slowest = max(answered + timed_out, key=lambda c: c.seconds)
    seconds = math.inf if slowest.status is Status.TIMEOUT else slowest.seconds
    points = _tier(rubric.time_tiers, lambda t: seconds <= t.limit)
    shown = "past the hard limit" if math.isinf(seconds) else _took(slowest)
    summary = f"slowest make_move: {shown} ({slowest.where}); {len(answered)} moves timed"
    evidence: tuple[Evidence, ...] = ()
    if points < best:
        slow = sorted(answered + timed_out, key=lambda c: -c.seconds)[:EVIDENCE_SHOWN]
        evidence = tuple(_evidence(c, c.error or f"took {_took(c)}") for c in slow if c.seconds > 0)
    return Criterion("time", CRITERIA["time"], points, best, summary, evidence)


def _took(call: Call) -> str:
    """A move's time as the rubric counts it, naming the calls before it that count too."""
    shown = f"{call.seconds:.2f} s"
    if call.other_seconds >= SHOWN_BEFORE:
        shown += (
            f", {call.other_seconds:.2f} s of it in {call.other_calls}, called before make_move"
        )
    return shown


def _wins(session: Session) -> Criterion:
    rubric = session.rubric
    best = max((t.points for t in rubric.win_tiers), default=0)
    won = sum(g.result == "win" for g in session.games)
    points = _tier(rubric.win_tiers, lambda t: won >= t.limit)
    lines = [
        f"game {g.number} as {'black' if g.ai_piece == 'b' else 'red'}: {g.result}, {g.reason}"
        for g in session.games
    ]
    evidence = tuple(
        Evidence(f"game {g.number}", f"{g.result}: {g.reason}", render(g.final))
        for g in session.games
        if g.result != "win"
    )
    summary = f"won {won} of {len(session.games)}: " + "; ".join(lines)
    return Criterion("wins", CRITERIA["wins"], points, best, summary, evidence)


def _colour(piece: str) -> str:
    return "black" if piece == "b" else "red"


def _printed(session: Session) -> Iterable[tuple[str, str]]:
    if session.import_printed:
        yield "while game.py was imported", session.import_printed
    for call in session.calls:
        if call.printed:
            yield f"{call.where}, during make_move", call.printed
    for game in session.games:
        if game.printed:
            yield f"game {game.number}, outside make_move", game.printed


def _output(session: Session) -> Criterion:
    penalty = session.rubric.output_penalty
    printed = list(_printed(session))
    if not printed:
        return Criterion("output", CRITERIA["output"], 0, 0, "nothing printed outside main()")
    evidence = tuple(
        Evidence(where, "printed: " + _first_lines(text))
        for where, text in printed[:EVIDENCE_SHOWN]
    )
    summary = f"printed in {len(printed)} places outside main(): -{penalty}; remove debug prints"
    return Criterion("output", CRITERIA["output"], -penalty, 0, summary, evidence)


def _first_lines(text: str, lines: int = 3) -> str:
    kept = text.strip("\n").splitlines()
    shown = " | ".join(line[:80] for line in kept[:lines])
    return shown + (f" | ... ({len(kept) - lines} more lines)" if len(kept) > lines else "")


def _packaging(rubric: Rubric, problems: list[str] | None) -> Criterion:
    if problems is None:
        return Criterion("packaging", CRITERIA["packaging"], 0, 0, "not checked (not a zip)")
    if not problems:
        return Criterion("packaging", CRITERIA["packaging"], 0, 0, "zip name and contents fine")
    evidence = tuple(Evidence("the submitted zip", p) for p in problems)
    summary = "; ".join(problems) + (
        f" (-{rubric.packaging_penalty})" if rubric.packaging_penalty else ""
    )
    return Criterion(
        "packaging", CRITERIA["packaging"], -rubric.packaging_penalty, 0, summary, evidence
    )


def _not_started(session: Session, packaging: Criterion) -> tuple[Criterion, ...]:
    rubric = session.rubric
    maxima = {
        "rules": rubric.rules.total,
        "state": rubric.state.total,
        "format": rubric.format.total,
        "time": max((t.points for t in rubric.time_tiers), default=0),
        "wins": max((t.points for t in rubric.win_tiers), default=0),
    }
    problem = session.load_error or ""
    graded = tuple(Criterion(i, CRITERIA[i], 0, m, problem) for i, m in maxima.items())
    return (*graded, _output(session), packaging)


def score(session: Session, packaging: list[str] | None = None) -> Grade:
    """The rubric's points for ``session``; ``packaging`` lists zip problems (None: not a zip)."""
    rubric = session.rubric
    pack = _packaging(rubric, packaging)
    if session.load_error is not None:
        return Grade(session, _not_started(session, pack))
    calls = session.calls
    criteria = (
        _phase_criterion(
            "rules",
            rubric.rules,
            calls,
            _rules_failure,
            lambda c: c.status is not Status.TIMEOUT,
            "illegal or missing",
        ),
        _phase_criterion(
            "state",
            rubric.state,
            calls,
            lambda c: f"make_move changed {c.changed}" if c.changed else None,
            lambda c: c.answered,
            "changed the board",
        ),
        _phase_criterion(
            "format",
            rubric.format,
            calls,
            lambda c: c.format_problem,
            lambda c: c.answered,
            "badly formatted",
        ),
        _time(rubric, calls),
        _wins(session),
        _output(session),
        pack,
    )
    return Grade(session, criteria)
