"""The one way to grade one submission, used by ``check``, by the batch and so by the
Gradescope runner (which runs ``check``): play it, score it, and what lies beyond the rubric."""

from __future__ import annotations

from dataclasses import dataclass

from autograder.classroom.intake import Submission, packaging_problems
from autograder.games.pack import Assignment
from autograder.grading.extras import Extras, run_extras
from autograder.grading.rubric import ExtraOptions, Rubric
from autograder.grading.scoring import Grade, score
from autograder.play.referee import Spawner, default_spawner, run_session

__all__ = ["Graded", "grade_submission"]


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
) -> Graded:
    """``submission`` graded as ``assignment`` by ``rubric``; never raises for anything the
    submission does. ``spawn`` starts its processes (default: in this machine's sandbox);
    past ``deadline`` (``time.monotonic``) its remaining calls count as timeouts."""
    make = spawn or default_spawner(submission.source_dir, assignment, rubric.limits)
    session = run_session(
        submission.source_dir,
        assignment,
        rubric.plan,
        seed,
        spawn=make,
        label=submission.label,
        deadline=deadline,
    )
    files = assignment.pack.files
    zip_problems = packaging_problems(
        submission, rubric.packaging_pattern, rubric.packaging_example, files
    )
    grade = score(session, rubric, zip_problems)
    beyond = None
    if extras is not None and extras.any and session.load_error is None:
        beyond = run_extras(make, assignment, rubric, seed, session.probes, extras)
    return Graded(grade, beyond)
