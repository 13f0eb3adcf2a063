"""The one way to grade one submission, used by ``check``, by the batch and so by the
Gradescope runner (which runs ``check``): play it, measure its slow calls again alone, score
it, and what lies beyond the rubric."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.intake import Submission, is_junk, packaging_problems, unnamed_files
from autograder.games.pack import Assignment
from autograder.grading.extras import Extras, run_extras
from autograder.grading.needs_look import scan
from autograder.grading.rubric import ExtraOptions, Rubric
from autograder.grading.scoring import Grade, score
from autograder.oracle.player import tactics_solver
from autograder.play.again import measure_again, slow_calls
from autograder.play.ahead import Ahead
from autograder.play.busy import busy_note
from autograder.play.records import Session
from autograder.play.referee import Spawner, default_spawner, planned_processes, run_session

__all__ = [
    "Graded",
    "grade_submission",
    "wants_again",
    "graded_again",
    "load_warning",
]


@dataclass(frozen=True)
class Graded:
    grade: Grade
    extras: Extras | None = None  # None when none was asked for, or the submission did not load


def grade_submission(
    submission: Submission,
    assignment: Assignment,
    rubric: Rubric,
    seed: int,
    *,
    spawn: Spawner | None = None,
    deadline: float | None = None,
    extras: ExtraOptions | None = None,
    again: bool = True,
) -> Graded:
    """``submission`` graded as ``assignment`` by ``rubric``; never raises for anything the
    submission does. ``spawn`` starts its processes (default: in this machine's sandbox);
    past ``deadline`` (``time.monotonic``) its remaining calls count as timeouts. With
    ``again``, calls whose time would cost a tier are measured again at once (a batch turns it
    off and calls :func:`graded_again` after its workers are done)."""
    make = spawn or default_spawner(submission.source_dir, assignment, rubric.limits)
    with Ahead(make, planned_processes(rubric.plan, bool(rubric.checks))) as ahead:
        session = run_session(
            submission.source_dir,
            assignment,
            rubric.plan,
            seed,
            spawn=ahead,
            label=submission.label,
            deadline=deadline,
            exact=tactics_solver(assignment) if rubric.tactics else None,
        )
    if again:
        session = measure_again(session, make, rubric.full_time_seconds, rubric.measure_again)
    grade = _score(session, submission, assignment, rubric)
    beyond = None
    if extras is not None and extras.any and session.load_error is None:
        beyond = run_extras(make, assignment, rubric, seed, session.probes, extras)
    return Graded(grade, beyond)


def wants_again(graded: Graded, rubric: Rubric) -> bool:
    """Whether a call's time cost a time tier and the rubric measures such calls again."""
    session = graded.grade.session
    return rubric.measure_again > 0 and bool(slow_calls(session, rubric.full_time_seconds))


def graded_again(
    graded: Graded, submission: Submission, assignment: Assignment, rubric: Rubric, spawn: Spawner
) -> Graded:
    """``graded`` with its slow calls measured again alone, and scored again."""
    session = measure_again(
        graded.grade.session, spawn, rubric.full_time_seconds, rubric.measure_again
    )
    return replace(graded, grade=_score(session, submission, assignment, rubric))


def _score(
    session: Session, submission: Submission, assignment: Assignment, rubric: Rubric
) -> Grade:
    files = assignment.pack.files
    zip_problems = packaging_problems(
        submission, rubric.packaging_pattern, rubric.packaging_example, files
    )
    also = unnamed_files(submission, files)
    layout = assignment.interface.layout
    looks = scan(python_sources(submission.source_dir, () if layout is None else (layout.marker,)))
    return score(session, rubric, zip_problems, submission.late, also, looks)


def python_sources(folder: Path, markers: tuple[str, ...] = ()) -> dict[str, str]:
    """The Python files handed in, by path in ``folder`` (a notebook as intake made it a
    module), and the files ending in a homework layout's ``markers`` (a sketch's main file is
    Python too), for the scan of what needs a look."""
    found = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if (
            (path.suffix == ".py" or path.name.endswith(markers))
            and path.is_file()
            and not any(is_junk(part) for part in relative.parts)
        ):
            found[relative.as_posix()] = path.read_text("utf-8", "replace")
    return found


def load_warning(loads: list[tuple[float, int] | None], session: Session) -> str | None:
    """One line for ``check`` when the machine's load was above its cores at any of ``loads``
    (taken while grading): whether the time was judged on the submission's own time, which the
    load does not change, or on wall time, which it does. None on a quiet machine."""
    known = [load for load in loads if load is not None]
    note = busy_note(max(known)) if known else None
    if note is None or not session.calls:  # no move was timed: nothing for the load to change
        return None
    if any(call.own_seconds is not None for call in session.calls):
        return (
            f"warning: the machine was busy while grading ({note}); each move was timed on the "
            "submission's own time (its CPU time and its own waits), which other work does "
            "not change, so the time points stand"
        )
    return (
        f"warning: the machine was busy while grading ({note}) and this grader can only time "
        "moves on the wall clock here (no cgroups), so the time criterion may be unfair: "
        "grade again on a quiet machine"
    )
