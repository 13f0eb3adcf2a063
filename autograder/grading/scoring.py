"""Scoring: the rubric applied to what the referee saw. A pure function, no processes, no printing.

Every deduction carries evidence: where it happened, the position drawn as the course's board,
what ``make_move`` returned and what was wrong with it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from autograder.games.pack import AnyPack, move_marks
from autograder.games.tactics import DEEPER, MISSED, SOONER, UNSURE, Probe, judge
from autograder.grading.needs_look import Finding
from autograder.grading.rubric import PhasePoints, Rubric, Tier
from autograder.play.host import Status
from autograder.play.records import SHOWN_BEFORE, Call, Checked, Session

__all__ = [
    "CRITERIA",
    "GRADED",
    "Evidence",
    "Criterion",
    "Grade",
    "score",
    "zero_criteria",
    "EVIDENCE_SHOWN",
    "LATE_PENALTY",
    "OPTIONAL",
]

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
LATE_PENALTY = "late_penalty"  # the late penalty's id, a criterion only when the rubric sets one
# Criteria a grade holds only when its rubric asks for them, in report order.
OPTIONAL = {"tactics": "tactics (win in 1, block)", LATE_PENALTY: "late penalty"}
EVIDENCE_SHOWN = 3  # examples kept per criterion; the summary gives the full count


@dataclass(frozen=True)
class Evidence:
    where: str
    problem: str
    board: str = ""  # the position before the move, drawn as the course's print_board does
    returned: str = ""  # what make_move returned
    returned_by: str = "make_move"  # the student's function that returned it
    rows: tuple[Sequence[str | int], ...] = ()  # the same position as the pack's grid, drawn
    marks: tuple[tuple[int, int, str], ...] = ()  # the offending move's squares on it


@dataclass(frozen=True)
class Criterion:
    id: str
    name: str
    points: float
    max_points: int  # 0 for penalties
    summary: str
    evidence: tuple[Evidence, ...] = ()
    # (not charged, asked) for a criterion of many questions (the tactics): the class summary
    # counts those who lost none, whatever the points
    tally: tuple[int, int] | None = None


@dataclass(frozen=True)
class Grade:
    session: Session
    rubric: Rubric
    criteria: tuple[Criterion, ...]
    looks: tuple[Finding, ...] = ()  # code that needs a person's look: reported, no points

    @property
    def score(self) -> float:
        return max(0.0, sum(c.points for c in self.criteria))

    @property
    def max_score(self) -> int:
        return self.rubric.max_score


def _board(session: Session, position: object) -> str:
    return session.assignment.pack.render(position)


def _evidence(session: Session, call: Call, problem: str) -> Evidence:
    pack = session.assignment.pack
    board = _board(session, call.position)
    marks = move_marks(pack, call.position, call.raw)
    rows = tuple(pack.cells(call.position))
    return Evidence(call.where, problem, board, call.returned, pack.move_call, rows, marks)


def _phase_criterion(
    session: Session,
    ident: str,
    points: PhasePoints,
    failure: Callable[[Call], str | None],
    counts: Callable[[Call], bool],
    wrong: str,
) -> Criterion:
    """Points per phase for calls in which ``failure`` finds nothing; ``counts`` picks the calls
    that give evidence either way. A phase with no such call earns nothing: no evidence. Calls
    the driver could not set up (``unbuilt``) count for nothing; a phase whose calls only
    partly answered (the rest raised) earns its points in proportion to those answered: there
    is no evidence for the others, and calls that raised never earn full points."""
    earned = 0
    parts: list[str] = []
    evidence: list[Evidence] = []
    single = len(points.points) == 1  # a game without phases: no phase to name
    calls = [c for c in session.calls if not c.unbuilt]
    for phase, worth in points.points:
        relevant = [c for c in calls if c.phase == phase and counts(c)]
        failed = [(c, problem) for c in relevant if (problem := failure(c)) is not None]
        raised = sum(c.raised for c in calls if c.phase == phase and not counts(c))
        name = "" if single else f"{phase} phase "
        if not relevant:
            parts.append(f"{name}0/{worth}: no move came back to judge")
        elif failed:
            parts.append(f"{name}0/{worth}: {len(failed)} of {len(relevant)} moves {wrong}")
            shown = failed[:EVIDENCE_SHOWN]
            evidence.extend(_evidence(session, c, problem) for c, problem in shown)
        elif raised:
            part = round(worth * len(relevant) / (len(relevant) + raised))
            earned += part
            parts.append(
                f"{name}{part}/{worth}: all {len(relevant)} moves fine, but {raised} "
                f"{_calls(raised)} raised and made no move to judge"
            )
        else:
            earned += worth
            parts.append(f"{name}{worth}/{worth}: all {len(relevant)} moves fine")
    return Criterion(
        ident, CRITERIA[ident], earned, points.total, "; ".join(parts), tuple(evidence)
    )


def _rules_failure(call: Call) -> str | None:
    if call.raised:
        return f"no move was made: {call.error}"
    return call.illegal


def _tier(tiers: tuple[Tier, ...], fits: Callable[[Tier], bool]) -> int:
    return next((t.points for t in tiers if fits(t)), 0)


def _time(session: Session, rubric: Rubric) -> Criterion:
    """The tier of the slowest move (the course's rubric: "AI selects a move in 5 or fewer
    seconds"), on the clock the host judged it by (its own time where measured, else wall
    time); a call stopped at the hard limit was the slowest, and earns none. A call not run
    (the grader gave up, or ran out of time for this submission) is no evidence either way:
    the answered ones decide. The evidence names every stopped call and the slowest answered
    ones, with wall and CPU time; a call not run is never named."""
    best = rubric.max_points("time")
    doing = session.assignment.pack.move_call
    limit = rubric.limits.call_seconds
    calls = [c for c in session.calls if not c.unbuilt]
    answered = [c for c in calls if c.answered]
    raised = sum(c.raised for c in calls)
    stopped = [c for c in calls if c.status is Status.TIMEOUT and not c.skipped]
    skipped = [c for c in calls if c.skipped]
    if not answered and not stopped and not skipped:
        return Criterion("time", CRITERIA["time"], 0, best, "no move was ever returned to time")
    slowest = max(answered, key=lambda c: c.judged) if answered else None
    points = (
        0
        if stopped or slowest is None
        else _tier(rubric.time_tiers, lambda t: slowest.judged <= t.limit)
    )
    parts = []
    if raised and points:  # no time for a call that made no move: not full points on those
        points = round(points * len(answered) / (len(answered) + raised))
        parts.append(
            f"{raised} {_calls(raised)} raised and made no move to time: "
            f"{len(answered)} of {len(answered) + raised} timed"
        )
    if stopped:
        parts.append(
            f"slowest {doing}: past the hard limit ({stopped[0].where}); {len(stopped)} "
            f"{_calls(len(stopped))} stopped at the {limit:g} s limit"
        )
    if skipped:
        parts.append(f"{len(skipped)} {_calls(len(skipped))} {skipped[0].error}")
    if slowest is not None:
        name = f"slowest {doing}" if not parts else "slowest answered"
        parts.append(f"{name}: {_took(slowest, doing)} ({slowest.where}){_twice(slowest, limit)}")
    parts.append(f"{len(answered)} moves timed")
    evidence = [
        _evidence(session, c, f"{c.error}; {_took(c, doing)}" if c.error else _took(c, doing))
        for c in stopped
    ]
    if points < best:
        slow = sorted(answered, key=lambda c: -c.judged)[:EVIDENCE_SHOWN]
        evidence.extend(
            _evidence(session, c, f"took {_took(c, doing)}{_twice(c, limit)}")
            for c in slow
            if c.seconds > 0
        )
    return Criterion("time", CRITERIA["time"], points, best, "; ".join(parts), tuple(evidence))


def _calls(count: int) -> str:
    return "call" if count == 1 else "calls"


def _took(call: Call, doing: str) -> str:
    """A move's time as the rubric counts it: its own time and the wall time where the host
    measured its own time, else the wall time; the CPU time where known; and the calls before
    it that count too."""
    cpu = "" if call.cpu_seconds is None else f", {call.cpu_seconds:.2f} s CPU"
    if call.own_seconds is not None:
        shown = f"{call.own_seconds:.2f} s of its own time ({call.seconds:.2f} s wall{cpu})"
    else:
        shown = f"{call.seconds:.2f} s" + (f" wall{cpu}" if cpu else "")
    if call.other_seconds >= SHOWN_BEFORE:
        shown += f", {call.other_seconds:.2f} s of it in {call.other_calls}, called before {doing}"
    return shown


def _twice(call: Call, limit: float) -> str:
    """For a call measured again alone: both figures."""
    if call.measured is None:
        return ""
    first, alone = call.measured
    if call.busy is not None:
        return (
            f"; stopped at the {limit:g} s limit after {first:.2f} s of wall time while the "
            f"machine was busy ({call.busy}), then asked again alone in a fresh process: "
            "that time counts"
        )
    again = "no move" if math.isinf(alone) else f"{alone:.2f} s"
    return f"; measured twice, {first:.2f} s while grading, {again} alone after: the better counts"


def _wins(session: Session, rubric: Rubric) -> Criterion:
    won = sum(g.result == "win" for g in session.games)
    points = _tier(rubric.win_tiers, lambda t: won >= t.limit)
    side_name = session.assignment.side_name
    lines = [
        f"game {g.number} as {side_name(g.ai_side)}: {g.result}, {g.reason}" for g in session.games
    ]
    evidence = tuple(
        Evidence(
            f"game {g.number}",
            f"{g.result}: {g.reason}",
            _board(session, g.final),
            rows=tuple(session.assignment.pack.cells(g.final)),
        )
        for g in session.games
        if g.result != "win"
    )
    summary = f"won {won} of {len(session.games)}: " + "; ".join(lines)
    return Criterion("wins", CRITERIA["wins"], points, rubric.max_points("wins"), summary, evidence)


def _printed(session: Session) -> Iterable[tuple[str, str]]:
    doing = session.assignment.pack.move_call
    if session.import_printed:
        yield f"while {session.assignment.main_file} was imported", session.import_printed
    for call in session.calls:
        if call.printed_before:  # the player's constructor, asked before make_move
            yield f"{call.where}, during {call.other_calls}", call.printed_before
        if call.printed:
            yield f"{call.where}, during {doing}", call.printed
    for game in session.games:
        if game.printed:
            yield f"game {game.number}, outside {doing}", game.printed
    for check in session.checks:
        if check.printed:
            yield f"{check.where}, {check.kind}", check.printed


def _output(session: Session, rubric: Rubric) -> Criterion:
    penalty = rubric.output_penalty
    printed = list(_printed(session))
    if not printed:
        return Criterion("output", CRITERIA["output"], 0, 0, "nothing printed outside main()")
    evidence = tuple(
        Evidence(where, "printed: " + _first_lines(text))
        for where, text in printed[:EVIDENCE_SHOWN]
    )
    places = f"printed in {len(printed)} place{'s' if len(printed) != 1 else ''} outside main()"
    summary = f"{places}: -{penalty}; remove debug prints" if penalty else f"{places}: not charged"
    return Criterion("output", CRITERIA["output"], -penalty, 0, summary, evidence)


def _first_lines(text: str, lines: int = 3) -> str:
    kept = text.strip("\n").splitlines()
    shown = " | ".join(line[:80] for line in kept[:lines])
    return shown + (f" | ... ({len(kept) - lines} more lines)" if len(kept) > lines else "")


def _packaging(
    rubric: Rubric,
    problems: list[str] | None,
    also: tuple[str, ...] = (),
) -> Criterion:
    """Zip problems (they take the penalty), and, reported only: the files handed in that the
    homework does not name (``also``)."""
    notes = []
    if also:
        shown = ", ".join(also[:_ALSO_SHOWN]) + (", …" if len(also) > _ALSO_SHOWN else "")
        notes.append(f"also handed in: {shown}")
    if problems is None and not notes:
        return Criterion("packaging", CRITERIA["packaging"], 0, 0, "not checked (not a zip)")
    if not problems:
        summary = "; ".join(notes) if notes else "zip name and contents fine"
        return Criterion("packaging", CRITERIA["packaging"], 0, 0, summary)
    evidence = tuple(Evidence("the submitted zip", p) for p in problems)
    summary = "; ".join([*problems, *notes]) + (
        f" (-{rubric.packaging_penalty})" if rubric.packaging_penalty else ""
    )
    return Criterion(
        "packaging", CRITERIA["packaging"], -rubric.packaging_penalty, 0, summary, evidence
    )


_ALSO_SHOWN = 8  # files named in "also handed in"


GRADED = ("rules", "state", "format", "time", "wins")  # the criteria with points to earn


def zero_criteria(rubric: Rubric, reason: str) -> tuple[Criterion, ...]:
    """Every criterion at zero for a submission that could not be played, each saying why."""
    graded = tuple(Criterion(i, CRITERIA[i], 0, rubric.max_points(i), reason) for i in GRADED)
    checks = tuple(Criterion(i, name, 0, points, reason) for i, name, points in rubric.checks)
    return (
        *graded,
        *checks,
        Criterion("output", CRITERIA["output"], 0, 0, reason),
        Criterion("packaging", CRITERIA["packaging"], 0, 0, reason),
    )


def _late(rubric: Rubric, late: bool | None) -> tuple[Criterion, ...]:
    """The late penalty, a line of its own when the rubric sets one."""
    penalty = rubric.late_penalty
    if not penalty:
        return ()
    if late is None:
        summary, points = "not known here: only a Canvas download marks a submission late", 0
    elif late:
        summary, points = f"Canvas marked the submission late: -{penalty}", -penalty
    else:
        summary, points = "on time", 0
    return (Criterion(LATE_PENALTY, OPTIONAL[LATE_PENALTY], points, 0, summary),)


def _tactics(session: Session, rubric: Rubric) -> tuple[Criterion, ...]:
    """The tactical probes, each judged by the outcome the move keeps (``games/tactics.py``):
    how many of each kind were not charged, a board for each miss naming the right moves, and
    the moves reported but not charged (a forced win kept instead of the win at once, unless
    the rubric prefers the sooner win; a position no solver reaches). Points, when the rubric
    gives any, for the positions not charged beyond what moves at random would get there
    (``_above_chance``): chance is not skill."""
    if not rubric.tactics:
        return ()
    best = rubric.max_points("tactics")
    name = OPTIONAL["tactics"]
    if not session.tactics:
        return (Criterion("tactics", name, 0, best, "no tactical position came up"),)
    pack = session.assignment.pack
    misses: list[Evidence] = []
    notes: list[Evidence] = []
    counts: dict[str, list[int]] = {}  # kind -> [not charged, asked, sooner, unsure, deeper]
    for probe, call in session.tactics:
        tally = counts.setdefault(probe.kind, [0, 0, 0, 0, 0])
        tally[1] += 1
        if call.move is None:
            misses.append(_evidence(session, call, call.error or call.illegal or "no move"))
            continue
        verdict = judge(pack, probe, call.move)
        charged = verdict.status == MISSED or (verdict.status == SOONER and rubric.prefer_sooner)
        if charged:
            asks = "; the rubric asks for the sooner win" if verdict.status == SOONER else ""
            misses.append(_evidence(session, call, verdict.text + asks))
            continue
        tally[0] += 1
        if verdict.status in _NOTED:
            tally[_NOTED[verdict.status]] += 1
            notes.append(_evidence(session, call, f"{verdict.text}; not charged"))
    parts = []
    for kind, (fine, asked, sooner, unsure, deeper) in counts.items():
        said = [
            f"{sooner} kept a forced win instead of the win at once" if sooner else "",
            f"{unsure} not judged, beyond the solver's reach" if unsure else "",
            f"{deeper} lost the outcome later with best play" if deeper else "",
        ]
        aside = "; ".join(s for s in said if s)
        parts.append(f"{kind}: {fine} of {asked}" + (f" ({aside}, not charged)" if aside else ""))
    fine_all = sum(fine for fine, *_ in counts.values())
    chances = [_chance(pack, probe, rubric) for probe, _ in session.tactics]
    asked = len(session.tactics)
    points = round(best * _above_chance(fine_all, chances)) if best else 0
    unsure_all = sum(tally[3] for tally in counts.values())
    # a position not judged is not charged, and not called right either
    right = f"not charged ({unsure_all} not judged)" if unsure_all else "right"
    summary = "; ".join(parts)
    summary += f"; {fine_all} of {asked} {right}, where moves at random get {sum(chances):.1f}"
    summary += "" if best else " (reported, no points)"
    evidence = (*misses, *notes[:EVIDENCE_SHOWN])
    return (
        Criterion(
            "tactics", name, points, best, summary, evidence, (fine_all, len(session.tactics))
        ),
    )


_NOTED = {SOONER: 2, UNSURE: 3, DEEPER: 4}  # reported, not charged: their place in a tally


def _right(status: str, rubric: Rubric) -> bool:
    """Whether a tactical verdict is not charged under ``rubric``."""
    return status != MISSED and not (status == SOONER and rubric.prefer_sooner)


def _chance(pack: AnyPack, probe: Probe, rubric: Rubric) -> float:
    """The part of ``probe``'s legal moves judged right: what a move at random scores there."""
    moves = list(pack.legal_moves(probe.position))
    if not moves:
        return 0.0
    return sum(_right(judge(pack, probe, move).status, rubric) for move in moves) / len(moves)


def _above_chance(right: int, chances: list[float]) -> float:
    """The tactics' part earned: the positions answered right beyond what moves at random get
    (their expected count, ``sum(chances)``, and its spread, one standard deviation), out of
    all that could be. A random legal mover gets none of it but on a rare lucky seed; a player
    right everywhere gets all of it, one right on all but one loses a sixth or so."""
    asked = len(chances)
    if right >= asked:
        return 1.0
    luck = sum(chances) + math.sqrt(sum(p * (1 - p) for p in chances))
    room = asked - luck
    return max(0.0, (right - luck) / room) if room > 0 else 0.0


def _checks(session: Session, rubric: Rubric) -> tuple[Criterion, ...]:
    """The pack's check criteria: each kind of check (tic-tac-toe ``is_draw``, say) earns its
    part of the criterion's points, its weight against the other kinds' (what the pack says a
    fault of that kind breaks), unless some check of it is wrong. A fault costs the kind's whole
    part when it breaks the whole rule (the judge says so, or the kind is wrong on every check
    asked), the share the judge gives a near miss otherwise. A kind whose every failure is
    explained by another kind that failed (a search on a board whose win test is wrong) is
    reported and not charged twice. A right answer's remark (a forced win kept instead of the
    win at once) is reported, and charged only when the rubric prefers the sooner win."""
    failing = {c.kind for c in session.checks if c.problem is not None}
    criteria = []
    for ident, name, best in rubric.checks:
        mine = [_charged(c, rubric) for c in session.checks if c.criterion == ident]
        kinds: dict[str, list[Checked]] = {}
        for check in mine:
            kinds.setdefault(check.kind, []).append(check)
        if not kinds:
            criteria.append(Criterion(ident, name, 0, best, "nothing was checked"))
            continue
        weights = {kind: max(c.weight for c in asked) for kind, asked in kinds.items()}
        whole = sum(weights.values()) or 1.0
        losses = {kind: _loss(asked, failing) for kind, asked in kinds.items()}
        earned = sum(weights[k] * (1 - losses[k]) for k in kinds) / whole
        parts = [
            _kind_summary(kind, asked, failing, best * weights[kind] * losses[kind] / whole)
            for kind, asked in kinds.items()
            if any(c.problem for c in asked)
        ]
        summary = "; ".join(parts) if parts else f"all {len(mine)} checks right"
        noted = [c for c in mine if c.note is not None and c.problem is None]
        if noted:
            summary += f" ({len(noted)} right with a remark, not charged)"
        evidence = tuple(
            Evidence(wrong[0].where, str(wrong[0].problem), wrong[0].board)
            for wrong in ([c for c in asked if c.problem] for asked in kinds.values())
            if wrong
        ) + tuple(
            Evidence(c.where, f"{c.note.note}; not charged", c.board)
            for c in noted[:EVIDENCE_SHOWN]
            if c.note is not None
        )
        # a fault always costs something: the part earned is rounded down, never up
        points = math.floor(best * earned + 1e-9)
        criteria.append(Criterion(ident, name, points, best, summary, evidence))
    return tuple(criteria)


def _excused(check: Checked, failing: set[str]) -> bool:
    """Whether ``check``'s fault is explained by another kind that failed."""
    return bool(check.explained_by) and check.explained_by in failing


def _loss(asked: list[Checked], failing: set[str]) -> float:
    """The part of a kind's points its faults cost: none when every fault is explained by
    another kind's; all when it is wrong on every check asked; else the largest share its
    judges gave (1 for a whole rule broken, less for a near miss)."""
    charged = [c for c in asked if c.problem and not _excused(c, failing)]
    if not charged:
        return 0.0
    if len(charged) == len(asked):
        return 1.0
    return max(min(max(c.share, 0.0), 1.0) for c in charged)


def _kind_summary(kind: str, asked: list[Checked], failing: set[str], lost: float) -> str:
    """One kind's line of the summary: how many were wrong, and what it cost or why not."""
    wrong = [c for c in asked if c.problem]
    said = f"{kind}: {len(wrong)} of {len(asked)} wrong"
    if all(_excused(c, failing) for c in wrong):
        return f"{said}, not charged: the {wrong[0].explained_by} fault explains it"
    return f"{said} (-{lost:.1f})".replace(".0)", ")")


def _charged(check: Checked, rubric: Rubric) -> Checked:
    """``check`` with its remark made its problem when the rubric charges it: a sooner win
    passed over, under ``[tactics] prefer_sooner``."""
    if check.note is not None and check.note.sooner and rubric.prefer_sooner:
        problem = f"{check.note.note}; the rubric asks for the sooner win"
        return replace(check, problem=problem, note=None)
    return check


def score(
    session: Session,
    rubric: Rubric,
    packaging: list[str] | None = None,
    late: bool | None = None,
    also: tuple[str, ...] = (),
    looks: tuple[Finding, ...] = (),
) -> Grade:
    """The rubric's points for ``session``; ``packaging`` lists zip problems (None: not a zip),
    ``late`` is Canvas's LATE flag (None: unknown), ``also`` the files handed in that the
    homework does not name, ``looks`` the code that needs a look (kept, never scored)."""
    pack = _packaging(rubric, packaging, also)
    if session.load_error is not None:
        zeros = zero_criteria(rubric, session.load_error)[: len(GRADED) + len(rubric.checks)]
        tactics = tuple(
            Criterion(
                "tactics",
                OPTIONAL["tactics"],
                0,
                rubric.max_points("tactics"),
                reason,
                tally=(0, rubric.tactics),
            )
            for reason in ([session.load_error] if rubric.tactics else [])
        )
        return Grade(
            session,
            rubric,
            (*zeros, *tactics, _output(session, rubric), pack, *_late(rubric, late)),
            looks,
        )
    criteria = (
        _phase_criterion(
            session,
            "rules",
            rubric.rules,
            _rules_failure,
            lambda c: c.status is not Status.TIMEOUT,
            "illegal or missing",
        ),
        _phase_criterion(
            session,
            "state",
            rubric.state,
            lambda c: (
                f"{session.assignment.pack.move_call} changed {c.changed}; "
                f"{session.assignment.pack.copy_advice}"
                if c.changed
                else None
            ),
            lambda c: c.answered,
            "changed the board",
        ),
        _phase_criterion(
            session,
            "format",
            rubric.format,
            lambda c: c.format_problem,
            lambda c: c.answered,
            "badly formatted",
        ),
        _time(session, rubric),
        _wins(session, rubric),
        *_checks(session, rubric),
        *_tactics(session, rubric),
        _output(session, rubric),
        pack,
        *_late(rubric, late),
    )
    return Grade(session, rubric, criteria, looks)
