"""Grading a whole class: a pool of workers, one record on disk per student, resumable.

Each student's record is written atomically the moment that student is graded, so after
Ctrl-C, a crash or ``kill -9`` the same command grades only what is missing. A student's seed
comes from the batch seed and the student id alone, so a grade depends neither on ``--jobs``
nor on order nor on who else is in the batch.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.intake import open_submission
from autograder.classroom.records import (
    STATUS_ERROR,
    STATUS_GRADED,
    Entry,
    Record,
    read_record,
)
from autograder.classroom.submission import grade_submission
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.games.pack import Assignment
from autograder.grading.report import markdown, results_json_text
from autograder.grading.rubric import Rubric
from autograder.grading.scoring import CRITERIA, Grade
from autograder.play.host import PlayerProcess, Status
from autograder.play.launch import Launch
from autograder.play.sandbox import available
from autograder.play.untrusted import csv_cell, md_code

__all__ = ["BatchResult", "grade_batch", "student_seed", "write_grades_csv", "GRADES_COLUMNS"]

GRADES_COLUMNS = (
    "student",
    "score",
    *CRITERIA,
    "late",
    "status",
    "reason",
    "canvas_id",
    "name",
    "source",
    "note",
)


def student_seed(batch_seed: int, student: str) -> int:
    """The seed for one student: fixed by the batch seed and the student id, nothing else."""
    digest = hashlib.sha256(f"{batch_seed}:{student}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


@dataclass(frozen=True)
class BatchResult:
    records: tuple[Record, ...]  # every student of the inputs that has a record, sorted
    graded_now: int  # how many were graded in this run (the rest were already on disk)
    interrupted: bool


class _Stopped(Exception):
    """Raised in a worker when the batch is being interrupted: its work must not be saved."""


class _Processes:
    """Every live submission process of the batch, so an interrupt can end them all at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[PlayerProcess] = set()
        self.stopping = threading.Event()

    def spawner(
        self, source_dir: Path, assignment: Assignment, rubric: Rubric
    ) -> Callable[[int], PlayerProcess]:
        def spawn(child_seed: int) -> PlayerProcess:
            if self.stopping.is_set():
                raise _Stopped
            launch = Launch(
                source_dir,
                assignment.pack.driver,
                assignment.main_file,
                child_seed,
                rubric.limits,
                available(),
            )
            proc = _TrackedProcess(launch)
            proc.registry = self
            with self._lock:
                self._live.add(proc)
            return proc

        return spawn

    def forget(self, proc: PlayerProcess) -> None:
        with self._lock:
            self._live.discard(proc)

    def stop_all(self) -> None:
        self.stopping.set()
        with self._lock:
            live = list(self._live)
        for proc in live:
            proc.abort()


class _TrackedProcess(PlayerProcess):
    registry: _Processes

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.registry.forget(self)


def _student_dir(out: Path, student: str) -> Path:
    return out / "students" / student


def _error_record(entry: Entry, reason: str, max_score: int, seconds: float) -> Record:
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
    for status, text in (
        (Status.TIMEOUT, "make_move timed out"),
        (Status.EXITED, "the submission's process ended"),
        (Status.BAD_REPLY, "the submission wrote into the grader's channel"),
        (Status.ERROR, "make_move raised an exception"),
    ):
        hits = [c for c in calls if c.status is status]
        if hits:
            first = hits[0]
            what = f": {first.error}" if first.error else ""
            return f"{text} in {len(hits)} of {len(calls)} calls (first: {first.where}{what})"
    return ""


def _graded_record(entry: Entry, grade: Grade, seconds: float) -> Record:
    answered = [c.seconds for c in grade.session.calls if c.answered]
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
        slowest_seconds=max(answered) if answered else None,
        seconds=seconds,
        thinking_seconds=sum(answered),
        note=entry.note,
        summaries={c.id: c.summary for c in grade.criteria},
    )


def _error_feedback(record: Record, title: str) -> tuple[str, str]:
    reason = "\n".join(md_code(record.reason))
    text = f"# {title} autograder feedback\n\n**Score: 0/{record.max_score}**\n\n{reason}\n"
    results = {"score": 0, "output": record.reason, "visibility": "visible", "tests": []}
    return text, json.dumps(results, indent=2) + "\n"


def _grade_one(
    entry: Entry,
    assignment: Assignment,
    rubric: Rubric,
    seed: int,
    out: Path,
    processes: _Processes,
) -> Record:
    began = time.monotonic()
    folder = _student_dir(out, entry.student)
    with tempfile.TemporaryDirectory(prefix="teeko-batch-") as work:
        try:
            submission = open_submission(entry.path, Path(work), assignment.main_file)
        except GraderError as err:
            record = _error_record(entry, str(err), rubric.max_score, time.monotonic() - began)
            feedback, results = _error_feedback(record, assignment.pack.title)
        else:
            grade = grade_submission(
                replace(submission, label=entry.path.name),
                assignment,
                rubric,
                student_seed(seed, entry.student),
                spawn=processes.spawner(submission.source_dir, assignment, rubric),
                deadline=began + rubric.submission_seconds,
            ).grade
            if processes.stopping.is_set():
                raise _Stopped
            record = _graded_record(entry, grade, time.monotonic() - began)
            feedback = markdown(grade)
            results = results_json_text(grade)
    write_atomic(folder / "feedback.md", feedback)
    write_atomic(folder / "results.json", results)
    write_atomic(folder / "record.json", record.to_json())  # last: its presence means done
    return record


def grade_batch(
    entries: Sequence[Entry],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    *,
    seed: int,
    jobs: int,
    regrade: bool = False,
    on_done: Callable[[Record, int, int], None] | None = None,
) -> BatchResult:
    """Grade every entry without a record in ``out`` (all of them with ``regrade``).

    ``on_done(record, done, total)`` is called in the main thread after each student.
    Ctrl-C stops the workers and their processes; what finished is kept, the rest is not saved.
    """
    existing: dict[str, Record] = {}
    pending: list[Entry] = []
    for entry in entries:
        record = None if regrade else read_record(_student_dir(out, entry.student) / "record.json")
        if record is None:
            pending.append(entry)
        else:
            existing[entry.student] = record
    processes = _Processes()
    interrupted = False
    done = 0
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="grader") as pool:
        futures: dict[Future[Record], Entry] = {
            pool.submit(_grade_one, entry, assignment, rubric, seed, out, processes): entry
            for entry in pending
        }
        try:
            remaining = set(futures)
            while remaining:
                finished, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in finished:
                    record = _result(future, futures[future], rubric)
                    if record is None:
                        continue
                    existing[record.student] = record
                    done += 1
                    if on_done is not None:
                        on_done(record, done, len(pending))
        except KeyboardInterrupt:
            interrupted = True
            for future in futures:
                future.cancel()
            processes.stop_all()
    records = tuple(
        existing[e.student]
        for e in sorted(entries, key=lambda e: e.student)
        if e.student in existing
    )
    return BatchResult(records, done, interrupted)


def _result(future: Future[Record], entry: Entry, rubric: Rubric) -> Record | None:
    try:
        return future.result()
    except _Stopped:
        return None
    except Exception as err:  # a grader bug must cost one student a row, not the batch
        return _error_record(
            entry, f"the grader failed on this submission: {err!r}", rubric.max_score, 0.0
        )


def write_grades_csv(records: Sequence[Record], path: Path) -> None:
    """``grades.csv``: one row per student, a column per criterion id (KIT_SPEC §6)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(GRADES_COLUMNS)
    for r in sorted(records, key=lambda r: r.student):
        writer.writerow(
            [
                csv_cell(r.student),
                f"{r.score:g}",
                *(f"{r.criteria.get(c, 0):g}" for c in CRITERIA),
                "yes" if r.late else "no",
                r.status,
                csv_cell(r.reason),
                r.canvas_id or "",
                csv_cell(r.name or ""),
                csv_cell(r.source),
                csv_cell(r.note),
            ]
        )
    write_atomic(path, buffer.getvalue())
