"""What a batch's worker does for one student: stage the submission, grade it, save the grade.

A student whose calls' time cost a tier is handed back (:class:`Later`) to be measured again
alone once the workers are done; :func:`grade_here` does both at once, for a machine that
grades one student at a time (a Dask worker).
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path

from autograder.classroom.intake import Submission
from autograder.classroom.records import Record
from autograder.classroom.staging import NextUp, Processes, Staged, Stopped, stage
from autograder.classroom.student_folder import Job, save_error, save_graded
from autograder.classroom.submission import Graded, grade_submission, graded_again, wants_again
from autograder.errors import GraderError
from autograder.games.pack import Assignment
from autograder.grading.leaderboard import needs_extras
from autograder.grading.rubric import Rubric

__all__ = ["Grading", "Later", "Runner", "grade_one", "grade_later", "grade_here"]


@dataclass(frozen=True)
class Grading:
    """What every student of a batch is graded by, and the folder their grades go in."""

    assignment: Assignment
    rubric: Rubric
    seed: int  # the batch's, every student's: the same probes and games for the whole class
    out: Path


@dataclass
class Later:
    """A student graded but for calls whose time cost a tier: they are measured again alone
    once the workers are done. Holds the staged submission until then."""

    job: Job
    submission: Submission
    graded: Graded
    work: tempfile.TemporaryDirectory[str]
    load: float | None


# grades one student, somewhere: (job, grading) -> its future
Runner = Callable[[Job, Grading], Future[Record | Later]]


def _load() -> float | None:
    """The machine's load average over the last minute, where the system tells it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def grade_one(
    job: Job, grading: Grading, processes: Processes, next_up: NextUp | None = None
) -> Record | Later:
    """``job``'s student graded and saved, or handed back to be measured again (:class:`Later`).

    :raises Stopped: when the batch is stopping (nothing is saved)."""
    if job.stop.is_set():
        raise Stopped
    job.began = time.monotonic()
    assignment, rubric = grading.assignment, grading.rubric
    staged = next_up.take(job.entry) if next_up is not None else None
    if staged is None:
        try:
            work, submission = stage(job.entry)
        except GraderError as err:
            return save_error(job, grading.out, str(err), assignment.pack.title, rubric.max_score)
        staged = Staged(work, submission, None)
    spawn = staged.spawner(processes.spawner(staged.submission.source_dir, assignment, rubric))
    kept = False
    try:
        if next_up is not None:
            next_up.stage_next()
        graded = grade_submission(
            staged.submission,
            assignment,
            rubric,
            grading.seed,  # every student's: the same positions and games for all
            spawn=spawn,
            deadline=job.began + rubric.submission_seconds,
            extras=rubric.extras if needs_extras(rubric.leaderboard) else None,
            again=False,
        )
        if processes.stopping.is_set():
            raise Stopped
        if wants_again(graded, rubric):
            kept = True
            return Later(job, staged.submission, graded, staged.work, _load())
        return save_graded(job, grading.out, graded, _load(), staged.submission.notes)
    finally:
        staged.close_first()  # a session that started no process never took it
        if not kept:
            staged.work.cleanup()


def grade_later(later: Later, grading: Grading, processes: Processes) -> Record:
    """A deferred student: its slow calls measured again alone, then its record written."""
    try:
        submission = later.submission
        spawn = processes.spawner(submission.source_dir, grading.assignment, grading.rubric)
        graded = graded_again(later.graded, submission, grading.assignment, grading.rubric, spawn)
        return save_graded(later.job, grading.out, graded, later.load, submission.notes)
    finally:
        later.work.cleanup()


def grade_here(job: Job, grading: Grading) -> Record:
    """``job``'s student graded on this machine exactly as the batch does, its slow calls
    measured again at once, and saved in ``grading.out``."""
    processes = Processes()
    result = grade_one(job, grading, processes)
    if isinstance(result, Later):
        return grade_later(result, grading, processes)
    return result
