"""One student's grade in a batch, as it is saved: the record and the reports in the student's
own folder (``DIR/students/<student>/``), replaced whole or not at all.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.fingerprint import Fingerprint
from autograder.classroom.records import STATUS_ERROR, STATUS_GRADED, Entry, Record
from autograder.classroom.staging import Stopped
from autograder.classroom.submission import Graded
from autograder.files import replace_folder
from autograder.grading.html import feedback_html
from autograder.grading.leaderboard import leaderboard
from autograder.grading.report import (
    REPRODUCE,
    Feedback,
    games_data,
    markdown,
    results_json_text,
)
from autograder.grading.scoring import CRITERIA, Grade
from autograder.play.host import Status
from autograder.play.sandbox import available
from autograder.play.untrusted import md_code

__all__ = [
    "Job",
    "WriteFailed",
    "REPORTS_MAX",
    "error_record",
    "save_error",
    "save_graded",
    "write_student",
    "student_dir",
]

# Bytes of one student's reports (feedback.md and .html, results.json, record.json) at most;
# past it, the games keep fewer plies each and the page draws fewer boards as pictures (plies
# a game, pictures a page; None: all), step by step until the reports fit.
REPORTS_MAX = 100_000
_SHRINKING = ((None, None), (120, None), (60, 8), (30, 4), (12, 2), (0, 0))


@dataclass
class Job:
    """One student's grading: what the workers share with the main thread."""

    entry: Entry
    fingerprint: Fingerprint
    reproduce: str | None
    stop: threading.Event  # set when the batch stops: nothing more is graded or saved
    began: float = 0.0


class WriteFailed(Exception):
    """A student's files could not be written (a full disk, a folder made read-only): the
    batch stops, keeping what it saved; the message says which file and why."""


def student_dir(out: Path, student: str) -> Path:
    return out / "students" / student


def error_record(entry: Entry, reason: str, max_score: int, seconds: float) -> Record:
    """A zero for ``entry``, with the one line saying why nothing could be graded."""
    return Record(
        student=entry.student,
        status=STATUS_ERROR,
        score=0,
        max_score=max_score,
        criteria=dict.fromkeys(CRITERIA, 0),
        reason=reason,
        late=entry.late,
        canvas_id=entry.canvas_id,
        name=entry.name,
        source=entry.source or entry.path.name,
        seconds=seconds,
        note=entry.note,
    )


def _reason(grade: Grade) -> str:
    """One line for anything abnormal about how grading went (not about the score)."""
    session = grade.session
    if session.load_error:
        return session.load_error
    calls = session.calls
    doing = session.assignment.pack.move_call
    for status, text in (
        (Status.TIMEOUT, f"{doing} timed out"),
        (Status.EXITED, "the submission's process ended"),
        (Status.BAD_REPLY, "the submission wrote into the grader's channel"),
        (Status.ERROR, f"{doing} raised an exception"),
    ):
        hits = [c for c in calls if c.status is status]
        if hits:
            first = hits[0]
            what = f": {first.error}" if first.error else ""
            return f"{text} in {len(hits)} of {len(calls)} calls (first: {first.where}{what})"
    return ""


def _graded_record(entry: Entry, grade: Grade, seconds: float) -> Record:
    answered = [c.seconds for c in grade.session.calls if c.answered]
    judged = [c.judged for c in grade.session.calls if c.answered]
    return Record(
        student=entry.student,
        status=STATUS_GRADED,
        score=grade.score,
        max_score=grade.max_score,
        criteria={c.id: c.points for c in grade.criteria},
        reason=_reason(grade),
        late=entry.late,
        canvas_id=entry.canvas_id,
        name=entry.name,
        source=entry.source or entry.path.name,
        slowest_seconds=max(judged) if judged else None,  # on the clock the tiers use
        seconds=seconds,
        thinking_seconds=sum(answered),
        note=entry.note,
        summaries={c.id: c.summary for c in grade.criteria},
        tallies={c.id: list(c.tally) for c in grade.criteria if c.tally is not None},
        needs_look=[finding.text() for finding in grade.looks],
    )


def save_error(job: Job, out: Path, reason: str, title: str, max_score: int) -> Record:
    """A student nothing could be graded of: its zero and the reason, saved."""
    record = error_record(job.entry, reason, max_score, time.monotonic() - job.began)
    text = f"# {title} autograder feedback\n\n**Score: 0/{record.max_score}**\n\n"
    text += "\n".join(md_code(record.reason)) + "\n"
    if job.reproduce:
        text += "\n" + "\n".join([REPRODUCE, "", *md_code(job.reproduce, "sh")]) + "\n"
    results = {"score": 0, "output": record.reason, "visibility": "visible", "tests": []}
    return _save(job, out, record, text, json.dumps(results, indent=2) + "\n")


def save_graded(
    job: Job, out: Path, graded: Graded, load: float | None, notes: tuple[str, ...]
) -> Record:
    """The student's record and reports, written; when all of them would pass
    :data:`REPORTS_MAX`, the games in them cut in the middle (the first plies and the last
    kept) and fewer evidence boards drawn as pictures in the page, as little as needed."""
    grade, extras = graded.grade, graded.extras
    base = replace(
        _graded_record(job.entry, grade, time.monotonic() - job.began),
        load=load,
        cores=os.cpu_count(),
        measured_again=sum(c.measured is not None for c in grade.session.calls),
        fingerprint=job.fingerprint.as_dict(),  # as _save writes it: counted in the size
        leaderboard={
            entry["name"]: entry["value"]
            for entry in leaderboard(grade, extras, grade.rubric.leaderboard)
        },
        missing_layers=list(available().missing()),
    )
    report = Feedback(grade, notes, extras, job.reproduce)
    feedback = markdown(report)
    for plies, pictures in _SHRINKING:
        record = replace(base, games=games_data(grade, plies))
        results = results_json_text(report, plies)
        page = feedback_html(report, plies, pictures)
        size = sum(len(text.encode()) for text in (feedback, results, page, record.to_json()))
        if size <= REPORTS_MAX:
            break
    return _save(job, out, record, feedback, results, page)


def _save(
    job: Job, out: Path, record: Record, feedback: str, results: str, page: str | None = None
) -> Record:
    """Replace the student's folder whole: a write that fails (a full disk) leaves the old
    folder, never half of a new one, and stops the batch (:class:`WriteFailed`)."""
    record = replace(record, fingerprint=job.fingerprint.as_dict())
    files = {"feedback.md": feedback, "results.json": results}
    if page is not None:  # else no page: an older one would describe another grade
        files["feedback.html"] = page
    files["record.json"] = record.to_json()  # its presence means done
    write_student(job, out, files)
    return record


def write_student(job: Job, out: Path, files: Mapping[str, str | bytes]) -> None:
    """The student's folder in ``out`` replaced whole by ``files``, here or for a remote
    worker's grade; a failed write stops the batch (:class:`WriteFailed`).

    :raises Stopped: when the batch is stopping: nothing more is saved."""
    if job.stop.is_set():
        raise Stopped
    folder = student_dir(out, job.entry.student)
    try:
        replace_folder(folder, files)
    except OSError as err:
        job.stop.set()  # the next students' files would not fit either
        raise WriteFailed(f"cannot write {folder}: {err.strerror or err}") from err
