"""Reports for people and for Gradescope, all rendered from the same :class:`Grade`.

One function per format, all fed the same grade; none recomputes a score. rich is
imported only by the terminal renderer. The evidence text is the same in every format.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from autograder.grading.extras import PUZZLE_KINDS, Extras, Judged
from autograder.grading.leaderboard import leaderboard
from autograder.grading.scoring import EVIDENCE_SHOWN, Evidence, Grade
from autograder.play.untrusted import clean, md_cell, md_code

__all__ = [
    "Feedback",
    "header_lines",
    "drift_lines",
    "look_lines",
    "LOOK_NOTE",
    "NEEDS_LOOK",
    "evidence_text",
    "extras_sections",
    "terminal",
    "markdown",
    "results_json",
    "results_json_text",
    "plies_printed",
    "ply_window",
    "skipped_text",
    "PRINTED_PLIES_SHOWN",
    "PLY_PRINTED_SHOWN",
]

# The game records (results.json, record.json, the HTML replay) show what a move printed for
# the first few moves that printed, each cut: a submission printing on every move would
# otherwise fill each student's reports with hundreds of kilobytes (the output criterion's
# evidence and summary already say where and how often it printed).
PRINTED_PLIES_SHOWN = 10
PLY_PRINTED_SHOWN = 300


@dataclass(frozen=True)
class Feedback:
    """What every report of one grade is rendered from: the grade, what intake did (notes),
    what lies beyond the rubric (None: nothing asked) and the command that gives the same
    grade again (shown last)."""

    grade: Grade
    notes: tuple[str, ...] = ()
    extras: Extras | None = None
    reproduce: str | None = None


def _points(value: float) -> str:
    return f"{value:g}"


def header_lines(grade: Grade, notes: tuple[str, ...] = ()) -> list[str]:
    """The settings that reproduce this grade, for the top of every report."""
    session = grade.session
    rubric = grade.rubric
    limits = rubric.limits
    if len(rubric.probes) == 1:
        probes = f"{rubric.probes[0][1]}"
    else:
        probes = " and ".join(f"{count} {phase}-phase" for phase, count in rubric.probes)
    if rubric.tactics:
        probes += f" (and {rubric.tactics} tactical)"
    return [
        f"submission: {session.submission}",
        f"assignment: {session.assignment.name} ({session.assignment.description})",
        f"rubric: {rubric.title} [{rubric.source}]",
        f"seed: {session.seed}; {rubric.games} games, {probes} probes, ply cap {rubric.ply_cap}",
        f"limits: {limits.call_seconds:g} s per call, {limits.memory_mb} MB memory",
        *(f"sandbox: {line}" for line in session.protections),
        *(f"warning: {line}" for line in session.warnings),
        *notes,
    ]


def evidence_text(item: Evidence) -> str:
    lines = [f"{item.where}: {item.problem}"]
    if item.returned:
        lines.append(f"  {item.returned_by} returned: {item.returned}")
    if item.board:
        lines.append("  position before the move:" if item.returned else "  position:")
        lines.extend("    " + row for row in item.board.splitlines())
    return "\n".join(lines)


def _worth(value: tuple[str, int | None]) -> str:
    kind, plies = value
    if kind == "draw":
        return "a draw"
    return f"a {kind} in {plies} plies" if kind != "win" else f"a win in {plies} plies"


def _quality_evidence(judged: Judged, render: Callable[[Any], str]) -> Evidence:
    problem = (
        f"the position was {_worth(judged.before)} for you; after this move it is "
        f"{_worth(judged.after)}"
    )
    return Evidence(judged.call.where, problem, render(judged.call.position), judged.call.returned)


def extras_sections(
    extras: Extras | None, render: Callable[[Any], str]
) -> list[tuple[str, str, list[Evidence]]]:
    """(id, summary, evidence) for each extra that ran, boards drawn by ``render``; the same
    text in every format."""
    if extras is None:
        return []
    sections: list[tuple[str, str, list[Evidence]]] = []
    if extras.notes:
        sections.append(("notes", "; ".join(extras.notes), []))
    if extras.ladder:
        rungs = ", ".join(
            f"{r.name}: {r.count('win')} won, {r.count('draw')} drawn, {r.count('loss')} lost"
            for r in extras.ladder
        )
        lost = [
            Evidence(f"{r.name} game {g.number}", g.reason, render(g.final))
            for r in extras.ladder
            for g in r.games
            if g.result == "loss"
        ]
        sections.append(("ladder", rungs, lost[:EVIDENCE_SHOWN]))
    if extras.quality:
        kept = sum(j.loss_of_value == 0 for j in extras.quality)
        worst = sorted(
            (j for j in extras.quality if j.loss_of_value), key=lambda j: -j.loss_of_value
        )
        summary = f"kept the position's true value in {kept} of {len(extras.quality)} probe moves"
        sections.append(
            ("move-quality", summary, [_quality_evidence(j, render) for j in worst[:3]])
        )
    if extras.puzzles:
        parts = []
        for kind in PUZZLE_KINDS:
            mine = [p for p in extras.puzzles if p.kind == kind]
            if mine:
                parts.append(f"{kind}: {sum(p.solved for p in mine)} of {len(mine)} solved")
        missed = [
            Evidence(
                p.call.where,
                f"{p.kind} ({PUZZLE_KINDS[p.kind]}), not solved: "
                f"{p.call.error or p.call.illegal or 'the move misses it'}",
                render(p.call.position),
                p.call.returned,
            )
            for p in extras.puzzles
            if not p.solved and p.kind in PUZZLE_KINDS
        ]
        sections.append(("puzzles", "; ".join(parts), missed[:EVIDENCE_SHOWN]))
    if extras.challenge_opted_in is not None:
        if not extras.challenge_opted_in:
            summary = "run_challenge_test() did not return True: no challenge games"
        else:
            results = ", ".join(f"game {g.number} {g.result}" for g in extras.challenge)
            summary = f"against the perfect player: {results}"
        sections.append(("challenge", summary, []))
    return sections


def _render(grade: Grade) -> Callable[[Any], str]:
    return grade.session.assignment.pack.render


def _title(grade: Grade) -> str:
    return f"{grade.session.assignment.pack.title} autograder"


def _markdown_output(summary: str, evidence: list[Evidence] | tuple[Evidence, ...]) -> str:
    """A Gradescope test's output in Markdown: the summary as one escaped line, each piece of
    evidence (its board drawn as the course prints it) in a code block of its own."""
    lines = [md_cell(summary)]
    for item in evidence:
        lines += ["", *md_code(evidence_text(item))]
    return "\n".join(lines)


_DRIFT_SHOWN = 10  # board drift notes listed; the rest are counted


def drift_lines(grade: Grade) -> list[str]:
    """Where the player's own board drifted from the referee's, a line each (the first few)."""
    notes = [f"game {g.number}, {note}" for g in grade.session.games for note in g.notes]
    shown = [clean(note, 300) for note in notes[:_DRIFT_SHOWN]]
    if len(notes) > _DRIFT_SHOWN:
        shown.append(f"... and {len(notes) - _DRIFT_SHOWN} more")
    return shown


REPRODUCE = "Reproduce this grade with:"
NEEDS_LOOK = "Needs a look (no points taken)"
LOOK_NOTE = (
    "This code hides what it runs or reaches into the grader's runner; a person will read it. "
    "Nothing was taken off for it."
)


_LOOKS_SHOWN = 20  # findings listed in a report; the rest are counted


def look_lines(grade: Grade) -> list[str]:
    """One line per finding of the scan of the files handed in (``grading/needs_look.py``),
    the first :data:`_LOOKS_SHOWN`, then how many more."""
    lines = [finding.text() for finding in grade.looks[:_LOOKS_SHOWN]]
    if len(grade.looks) > _LOOKS_SHOWN:
        lines.append(f"... and {len(grade.looks) - _LOOKS_SHOWN} more")
    return lines


def terminal(feedback: Feedback, console: Any = None) -> None:
    """Print the report on ``console`` (a rich Console; standard output by default)."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    grade, notes, extras, reproduce = _parts(feedback)
    console = console or Console()
    header = Text("\n".join(header_lines(grade, notes)))  # paths may hold [brackets]
    console.print(Panel(header, title=_title(grade)))
    table = Table(show_lines=False)
    table.add_column("criterion")
    table.add_column("points", justify="right")
    table.add_column("summary", overflow="fold")
    for c in grade.criteria:
        shown = _points(c.points) if not c.max_points else f"{_points(c.points)}/{c.max_points}"
        style = "green" if c.points >= c.max_points and c.points >= 0 else "red"
        table.add_row(f"{c.name} ({c.id})", f"[{style}]{shown}[/]", Text(c.summary))
    console.print(table)
    console.print(f"[bold]score: {_points(grade.score)}/{grade.max_score}[/]")
    if grade.session.load_error:
        console.rule("could not play the submission")
        console.print(grade.session.load_error, markup=False, highlight=False, soft_wrap=True)
    for c in grade.criteria:
        if c.evidence:
            console.rule(f"{c.name} ({c.id})")
            for item in c.evidence:
                console.print(evidence_text(item), markup=False, highlight=False, soft_wrap=True)
    drift = drift_lines(grade)
    if drift:
        console.rule("your board drifted from the referee's")
        for line in drift:
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    if grade.looks:
        console.rule(NEEDS_LOOK.lower())
        for line in [LOOK_NOTE, *look_lines(grade)]:
            console.print(line, markup=False, highlight=False, soft_wrap=True)
    for ident, summary, evidence in extras_sections(extras, _render(grade)):
        console.rule(f"beyond the rubric, no points: {ident}")
        console.print(summary, markup=False, highlight=False, soft_wrap=True)
        for item in evidence:
            console.print(evidence_text(item), markup=False, highlight=False, soft_wrap=True)
    if reproduce:
        console.rule()
        console.print(f"{REPRODUCE} {reproduce}", markup=False, highlight=False, soft_wrap=True)


def _parts(f: Feedback) -> tuple[Grade, tuple[str, ...], Extras | None, str | None]:
    return f.grade, f.notes, f.extras, f.reproduce


def markdown(feedback: Feedback) -> str:
    """Student feedback as Markdown, boards in code blocks, the command to grade again last."""
    grade, notes, extras, reproduce = _parts(feedback)
    out = [f"# {_title(grade)} feedback", ""]
    out += [f"- {md_cell(line)}" for line in header_lines(grade, notes)]
    out += ["", f"**Score: {_points(grade.score)}/{grade.max_score}**", ""]
    out += ["| criterion | points | summary |", "| --- | --- | --- |"]
    for c in grade.criteria:
        shown = _points(c.points) if not c.max_points else f"{_points(c.points)}/{c.max_points}"
        out.append(f"| {c.name} (`{c.id}`) | {shown} | {md_cell(c.summary)} |")
    for c in grade.criteria:
        if c.evidence:
            out += ["", f"## {c.name} (`{c.id}`)", ""]
            for item in c.evidence:
                out += [*md_code(evidence_text(item)), ""]
    drift = drift_lines(grade)
    if drift:
        out += ["", "## Your board drifted from the referee's", ""]
        out += [f"- {md_cell(d)}" for d in drift]
    if grade.looks:
        out += ["", f"## {NEEDS_LOOK}", "", LOOK_NOTE, ""]
        out += [f"- {md_cell(line)}" for line in look_lines(grade)]
    for ident, summary, evidence in extras_sections(extras, _render(grade)):
        out += ["", f"## Beyond the rubric, no points: {ident}", "", md_cell(summary), ""]
        for item in evidence:
            out += [*md_code(evidence_text(item)), ""]
    if reproduce:
        out += ["", REPRODUCE, "", *md_code(reproduce, "sh")]
    return "\n".join(out).rstrip() + "\n"


def plies_printed(grade: Grade) -> list[list[str]]:
    """What each move of each game printed, as the game records show it: the first
    :data:`PRINTED_PLIES_SHOWN` moves that printed keep :data:`PLY_PRINTED_SHOWN` characters,
    the later ones only how much they printed."""
    left, shown = PRINTED_PLIES_SHOWN, []
    for game in grade.session.games:
        texts = []
        for ply in game.moves:
            text = ply.printed
            if text and left > 0:
                left -= 1
                extra = len(text) - PLY_PRINTED_SHOWN
                text = text[:PLY_PRINTED_SHOWN] + (f" [... {extra} more characters]" * (extra > 0))
            elif text:
                text = f"[{len(text)} characters printed; the first {PRINTED_PLIES_SHOWN} moves "
                text += "that printed show theirs]"
            texts.append(text)
        shown.append(texts)
    return shown


def ply_window(count: int, plies: int | None) -> tuple[int, int]:
    """Which of a game's ``count`` plies the reports show when they may show ``plies`` (None:
    all): those before the first number and from the second on; the first three quarters and
    the last quarter of the allowance, the middle of a long game skipped."""
    if plies is None or count <= plies:
        return count, count
    tail = plies // 4
    return plies - tail, count - tail


def skipped_text(head: int, resume: int) -> str:
    return (
        f"plies {head + 1}-{resume} are not shown: the reports of one student are kept under 100 KB"
    )


def games_data(grade: Grade, plies: int | None = None) -> list[dict[str, Any]]:
    """Every graded game as plain data, for the records and ``--json``: each move in the
    student's format, its time (None for the opponent's, and for a call stopped at the limit),
    what was printed, the outcome and why; at most ``plies`` moves a game (None: all), the
    middle ones skipped are one entry saying so."""
    assignment = grade.session.assignment
    games = []
    for game, texts in zip(grade.session.games, plies_printed(grade), strict=True):
        head, resume = ply_window(len(game.moves), plies)
        moves: list[dict[str, Any]] = []
        for index, (ply, text) in enumerate(zip(game.moves, texts, strict=True)):
            if head <= index < resume:
                if index == head:
                    moves.append(
                        {"side": None, "move": skipped_text(head, resume), "seconds": None}
                    )
                continue
            seconds = ply.seconds
            moves.append(
                {
                    "side": assignment.side_name(ply.side),
                    "move": ply.text,
                    "seconds": None
                    if seconds is None or math.isinf(seconds)
                    else round(seconds, 4),
                    "refused": ply.illegal,
                    "printed": text,
                }
            )
        games.append(
            {
                "game": game.number,
                "you_played": assignment.side_name(game.ai_side),
                "result": game.result,
                "reason": game.reason,
                "moves": moves,
            }
        )
    return games


def results_json(feedback: Feedback, plies: int | None = None) -> dict[str, Any]:
    """Gradescope's results.json: a top-level score and one test per criterion, tagged by id;
    the games with at most ``plies`` moves each (None: all)."""
    grade, notes, extras, reproduce = _parts(feedback)
    tests = [
        {
            "name": f"{c.name} ({c.id})",
            "score": c.points,
            "max_score": c.max_points,
            "output": _markdown_output(c.summary, c.evidence),
            "output_format": "md",
            "tags": [c.id],
            "visibility": grade.rubric.visible(c.id),
        }
        for c in grade.criteria
    ]
    tests += [
        {
            "name": f"beyond the rubric: {ident}",
            "score": 0,
            "max_score": 0,
            "output": _markdown_output(summary, evidence),
            "output_format": "md",
            "tags": [ident],
        }
        for ident, summary, evidence in extras_sections(extras, _render(grade))
    ]
    footer = [f"{REPRODUCE} {reproduce}"] if reproduce else []
    if grade.looks:
        footer = [f"{NEEDS_LOOK}: {line}" for line in look_lines(grade)] + footer
    board = leaderboard(grade, extras, grade.rubric.leaderboard)
    return {
        "score": grade.score,
        "output": "\n".join([*header_lines(grade, notes), *footer]),
        "visibility": "visible",
        "stdout_visibility": grade.rubric.visible("stdout"),
        "tests": tests,
        "extra_data": {
            "games": games_data(grade, plies),
            **({"needs_look": look_lines(grade)} if grade.looks else {}),
        },
        **({"leaderboard": board} if grade.rubric.leaderboard else {}),
    }


def results_json_text(feedback: Feedback, plies: int | None = None) -> str:
    """results.json as written to disk."""
    return json.dumps(results_json(feedback, plies), indent=2) + "\n"
