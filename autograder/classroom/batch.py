"""Grading a whole class: a pool of workers, one record on disk per student, resumable.

Each student's record is written atomically the moment that student is graded, so after
Ctrl-C, a crash or ``kill -9`` the same command grades only what is missing. A student's seed
comes from the batch seed and the student id alone, so a grade depends neither on ``--jobs``
nor on order nor on who else is in the batch.
"""

from __future__ import annotations

import collections
import csv
import functools
import hashlib
import io
import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.fingerprint import Fingerprint, content_digest, kit_version
from autograder.classroom.intake import Submission, open_submission, require_files
from autograder.classroom.records import (
    STATUS_ERROR,
    STATUS_GRADED,
    Entry,
    Record,
    read_record,
)
from autograder.classroom.submission import Graded, grade_submission, graded_again, wants_again
from autograder.errors import GraderError
from autograder.files import remove_stale_folders, replace_folder, write_atomic
from autograder.games.pack import Assignment
from autograder.grading.html import feedback_html
from autograder.grading.leaderboard import leaderboard, needs_extras
from autograder.grading.report import REPRODUCE, games_data, markdown, results_json_text
from autograder.grading.rubric import Rubric
from autograder.grading.scoring import CRITERIA, OPTIONAL, Grade
from autograder.play.host import PlayerProcess, Status
from autograder.play.launch import Launch, missing_packages
from autograder.play.referee import Spawner
from autograder.play.sandbox import available
from autograder.play.untrusted import admit, csv_cell, md_code

__all__ = [
    "BatchResult",
    "grade_batch",
    "student_seed",
    "write_grades_csv",
    "check_output",
    "GRADES_COLUMNS",
    "OUTPUT_FILES",
    "STUDENT_BYTES",
]

# What a run writes at the top of its output folder (canvas_import.csv only with a roster).
OUTPUT_FILES = ("grades.csv", "summary.md", "summary.html", "histogram.svg", "canvas_import.csv")
# Disk space to find free before grading, per student: the feedback (capped near 100 KB per
# report), results.json, the page with the games and the record, with room to spare.
STUDENT_BYTES = 200_000
_SPARE_BYTES = 5_000_000  # the grade sheet, the summary, and a margin

GRADES_COLUMNS = (
    "student",
    "score",
    "max_score",  # the points possible
    *CRITERIA,
    "late",
    "status",
    "reason",
    "needs_look",
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
    records: tuple[Record, ...]  # every student graded the way this run grades, sorted
    graded_now: int  # how many were graded in this run (the rest were already on disk)
    interrupted: bool
    why: tuple[tuple[str, int], ...] = ()  # why students were graded again, and how many
    stale: tuple[str, ...] = ()  # students whose grade on disk was made another way: left out
    measured_again: int = 0  # students whose slow calls were measured again alone after the batch
    write_failed: str | None = None  # why the batch stopped: a student's files could not be saved
    strangers: tuple[str, ...] = ()  # student folders in the output no input of this run holds


class _Stopped(Exception):
    """Raised in a worker when the batch is being interrupted: its work must not be saved."""


class _WriteFailed(Exception):
    """A student's files could not be written (a full disk, a folder made read-only): the
    batch stops, keeping what it saved; the message says which file and why."""


def check_output(out: Path, students: int) -> None:
    """Refuse, before any grading, an output folder the batch could not fill: a file where a
    folder goes (or a folder where a file goes), a folder it cannot write, or a disk without
    room for ``students`` students' reports.

    :raises GraderError: one sentence naming the folder and what to do.
    """
    if out.exists() and not out.is_dir():
        raise GraderError(f"--out {out} is a file, not a folder; name a folder (made if missing)")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GraderError(f"cannot make the output folder {out}: {err.strerror or err}") from None
    folders = [out, out / "students"]
    for path in (*(out / name for name in OUTPUT_FILES), folders[1]):
        wanted = "folder" if path == folders[1] else "file"
        if path.exists() and path.is_dir() != (wanted == "folder"):
            found = "folder" if path.is_dir() else "file"
            raise GraderError(
                f"{path} is a {found} where the grader writes a {wanted}; move it out of {out}"
            )
    for folder in folders:
        if not folder.is_dir():
            continue
        try:
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as err:
            raise GraderError(
                f"cannot write into {folder}: {err.strerror or err}; choose another --out or "
                "make it writable"
            ) from None
    try:
        free = shutil.disk_usage(out).free
    except OSError:
        return  # the platform does not say: the writes will tell
    needed = students * STUDENT_BYTES + _SPARE_BYTES
    if free < needed:
        raise GraderError(
            f"not enough space for the reports in {out}: {free / 1e6:.1f} MB free, about "
            f"{needed / 1e6:.0f} MB needed for {students} students; free some space or choose "
            "another --out"
        )


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


def _error_feedback(record: Record, title: str, reproduce: str | None) -> tuple[str, str]:
    reason = "\n".join(md_code(record.reason))
    text = f"# {title} autograder feedback\n\n**Score: 0/{record.max_score}**\n\n{reason}\n"
    if reproduce:
        text += "\n" + "\n".join([REPRODUCE, "", *md_code(reproduce, "sh")]) + "\n"
    results = {"score": 0, "output": record.reason, "visibility": "visible", "tests": []}
    return text, json.dumps(results, indent=2) + "\n"


@dataclass
class _Job:
    """One student's grading: what the workers share with the main thread."""

    entry: Entry
    fingerprint: Fingerprint
    reproduce: str | None
    stop: threading.Event  # set when the batch stops: nothing more is graded or saved
    began: float = 0.0


@dataclass
class _Later:
    """A student graded but for calls whose time cost a tier: they are measured again alone
    once the workers are done. Holds the staged submission until then."""

    job: _Job
    submission: Submission
    graded: Graded
    work: tempfile.TemporaryDirectory[str]
    load: float | None


def _load() -> float | None:
    """The machine's load average over the last minute, where the system tells it."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def _stage(
    job: _Job, assignment: Assignment
) -> tuple[tempfile.TemporaryDirectory[str], Submission]:
    """The student's submission copied into a work folder of its own and checked for the
    files the homework needs.

    :raises GraderError: when it cannot be opened or misses a file (the folder is removed)."""
    entry = job.entry
    work = tempfile.TemporaryDirectory(prefix="teeko-batch-")
    try:
        submission = open_submission(
            entry.path, Path(work.name), assignment.main_file, assignment.pack.files
        )
        submission = replace(
            submission,
            label=entry.source if entry.attached else admit(entry.path.name, "file"),
            attached=entry.attached,
            late=entry.late,
        )
        require_files(submission, assignment.pack)
    except BaseException:
        work.cleanup()
        raise
    return work, submission


@dataclass
class _Staged:
    """A student staged ahead of its turn, with its first process coming up."""

    work: tempfile.TemporaryDirectory[str]
    submission: Submission
    first: PlayerProcess | None  # None once handed to the student's grading

    def spawner(self, spawn: Spawner) -> Spawner:
        """``spawn``, but its first call hands out the process started ahead."""

        def make(child_seed: int) -> PlayerProcess:
            if self.first is None:
                return spawn(child_seed)
            proc, self.first = self.first, None
            proc.reseed(child_seed)
            return proc

        return make

    def close_first(self) -> None:
        """Close the process started ahead unless it was handed out (its grading closes it)."""
        if self.first is not None:
            self.first.close()
            self.first = None

    def close(self) -> None:
        self.close_first()
        self.work.cleanup()


class _NextUp:
    """The next students staged and their first processes started while others are graded,
    so that a worker taking its next student finds its process up (``play/ahead.py`` does the
    same within one submission). A student is staged only by a worker that has just taken its
    own, at most one per worker waiting, in the order the workers take them (the first ones,
    taken at once, are not staged); those never taken are closed by :meth:`close`."""

    def __init__(
        self, order: Sequence[_Job], assignment: Assignment, rubric: Rubric, processes: _Processes,
        room: int,
    ) -> None:  # fmt: skip
        self._lock = threading.Lock()
        # the pool's order; the first ``room`` are taken at once by the workers, never staged
        self._order = collections.deque(order[room:])  # not yet taken nor staged
        self._taken: set[str] = set()
        self._staged: dict[str, _Staged] = {}
        self._assignment, self._rubric, self._processes = assignment, rubric, processes
        self._room = room
        self._closed = False

    def take(self, job: _Job) -> _Staged | None:
        """``job``'s staging, when it was staged ahead; it is no longer staged by anyone."""
        with self._lock:
            self._taken.add(job.entry.student)
            return self._staged.pop(job.entry.student, None)

    def stage_next(self) -> None:
        """Stage the first student no worker has taken, if there is room."""
        with self._lock:
            while self._order and self._order[0].entry.student in self._taken:
                self._order.popleft()
            if self._closed or not self._order or len(self._staged) >= self._room:
                return
            job = self._order.popleft()
        try:
            work, submission = _stage(job, self._assignment)
        except GraderError:
            return  # its worker stages it again and says why
        try:
            spawn = self._processes.spawner(submission.source_dir, self._assignment, self._rubric)
            first = spawn(0)
            first.start_ahead()
        except Exception:  # e.g. the batch stopping: its worker finds out for itself
            work.cleanup()
            return
        staged = _Staged(work, submission, first)
        with self._lock:
            if not self._closed and job.entry.student not in self._taken:
                self._staged[job.entry.student] = staged
                return
        staged.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            left, self._staged = list(self._staged.values()), {}
        for staged in left:
            staged.close()


def _grade_one(
    job: _Job,
    assignment: Assignment,
    rubric: Rubric,
    seed: int,
    out: Path,
    processes: _Processes,
    next_up: _NextUp | None = None,
) -> Record | _Later:
    if job.stop.is_set():
        raise _Stopped
    job.began = time.monotonic()
    entry = job.entry
    staged = next_up.take(job) if next_up is not None else None
    if staged is None:
        try:
            work, submission = _stage(job, assignment)
        except GraderError as err:
            record = _error_record(entry, str(err), rubric.max_score, time.monotonic() - job.began)
            feedback, results = _error_feedback(record, assignment.pack.title, job.reproduce)
            return _save(job, record, feedback, results, out)
        spawn = processes.spawner(submission.source_dir, assignment, rubric)
    else:
        work, submission = staged.work, staged.submission
        spawn = staged.spawner(processes.spawner(submission.source_dir, assignment, rubric))
    kept = False
    try:
        if next_up is not None:
            next_up.stage_next()
        graded = grade_submission(
            submission,
            assignment,
            rubric,
            student_seed(seed, entry.student),
            spawn=spawn,
            deadline=job.began + rubric.submission_seconds,
            extras=rubric.extras if needs_extras(rubric.leaderboard) else None,
            again=False,
        )
        if processes.stopping.is_set():
            raise _Stopped
        if wants_again(graded, rubric):
            kept = True
            return _Later(job, submission, graded, work, _load())
        return _graded(job, graded, out, _load(), submission.notes)
    finally:
        if staged is not None:  # a session that started no process never took it
            staged.close_first()
        if not kept:
            work.cleanup()


def _again(
    later: _Later, assignment: Assignment, rubric: Rubric, out: Path, processes: _Processes
) -> Record:
    """A deferred student: its slow calls measured again alone, then its record written."""
    try:
        spawn = processes.spawner(later.submission.source_dir, assignment, rubric)
        graded = graded_again(later.graded, later.submission, assignment, rubric, spawn)
        return _graded(later.job, graded, out, later.load, later.submission.notes)
    finally:
        later.work.cleanup()


def _graded(
    job: _Job, graded: Graded, out: Path, load: float | None, notes: tuple[str, ...] = ()
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
    feedback = markdown(grade, notes, extras=extras, reproduce=job.reproduce)
    for plies, pictures in _SHRINKING:
        record = replace(base, games=games_data(grade, plies))
        results = results_json_text(
            grade, notes, extras=extras, reproduce=job.reproduce, plies=plies
        )
        page = feedback_html(grade, notes, extras, job.reproduce, plies, pictures)
        size = sum(len(text.encode()) for text in (feedback, results, page, record.to_json()))
        if size <= REPORTS_MAX:
            break
    return _save(job, record, feedback, results, out, page)


# Bytes of one student's reports (feedback.md and .html, results.json, record.json) at most;
# past it, the games keep fewer plies each and the page draws fewer boards as pictures (plies
# a game, pictures a page; None: all), step by step until the reports fit.
REPORTS_MAX = 100_000
_SHRINKING = ((None, None), (120, None), (60, 8), (30, 4), (12, 2), (0, 0))


def _save(
    job: _Job, record: Record, feedback: str, results: str, out: Path, page: str | None = None
) -> Record:
    """Replace the student's folder whole: a write that fails (a full disk) leaves the old
    folder, never half of a new one, and stops the batch (:class:`_WriteFailed`)."""
    if job.stop.is_set():
        raise _Stopped
    record = replace(record, fingerprint=job.fingerprint.as_dict())
    files = {"feedback.md": feedback, "results.json": results}
    if page is not None:  # else no page: an older one would describe another grade
        files["feedback.html"] = page
    files["record.json"] = record.to_json()  # its presence means done
    _write_student(job, out, files)
    return record


def _write_student(job: _Job, out: Path, files: Mapping[str, str | bytes]) -> None:
    """The student's folder replaced whole by ``files``, here or for a remote worker's grade;
    a failed write stops the batch (:class:`_WriteFailed`)."""
    if job.stop.is_set():
        raise _Stopped
    folder = _student_dir(out, job.entry.student)
    try:
        replace_folder(folder, files)
    except OSError as err:
        job.stop.set()  # the next students' files would not fit either
        raise _WriteFailed(f"cannot write {folder}: {err.strerror or err}") from err


# grades one student, somewhere: (job, assignment, rubric, seed, out, processes) -> its future
Runner = Callable[[_Job, Assignment, Rubric, int, Path, _Processes], Future[Record | _Later]]


def _fingerprint(
    entry: Entry, assignment: Assignment, rubric: Rubric, seed: int, packages: str
) -> Fingerprint:
    try:
        submission = content_digest(entry.path)
    except OSError:
        submission = "unreadable"
    return Fingerprint(
        kit_version(), rubric.digest, assignment.name, str(seed), submission, packages
    )


def grade_batch(
    entries: Sequence[Entry],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    *,
    seed: int,
    jobs: int,
    regrade: bool = False,
    only: Sequence[str] = (),
    on_done: Callable[[Record, int, int], None] | None = None,
    reproduce: Callable[[str], str] | None = None,
    runner: Runner | None = None,
) -> BatchResult:
    """Grade every entry whose record in ``out`` is missing or has another fingerprint (all of
    them with ``regrade``; with ``only``, just those students, whatever their record).

    ``on_done(record, done, total)`` is called in the main thread after each student;
    ``reproduce(student)`` is the command that grades that student again, for the feedback.
    Ctrl-C stops the workers and their processes; what finished is kept, the rest is not saved.
    ``runner`` grades one student elsewhere (a Dask cluster); default: a thread of ``jobs``.

    :raises GraderError: when ``only`` names a student the inputs do not hold.
    """
    unknown = sorted(set(only) - {e.student for e in entries})
    if unknown:
        known = ", ".join(sorted(e.student for e in entries)[:10])
        raise GraderError(f"--only: no student {', '.join(unknown)} in the inputs (found: {known})")
    existing: dict[str, Record] = {}
    prints: dict[str, Fingerprint] = {}
    pending: list[Entry] = []
    why: collections.Counter[str] = collections.Counter()
    missing = missing_packages(rubric.limits.packages)
    installed = ",".join(name for name in rubric.limits.packages if name not in missing)
    for entry in entries:
        prints[entry.student] = print_ = _fingerprint(entry, assignment, rubric, seed, installed)
        record = read_record(_student_dir(out, entry.student) / "record.json")
        if record is not None:
            existing[entry.student] = record
        if only:
            if entry.student in only:
                pending.append(entry)
                why["named with --only"] += 1
            continue
        if record is None or regrade:
            pending.append(entry)
            continue
        changes = print_.changes(record.fingerprint)
        if changes:
            pending.append(entry)
            why.update(changes)
    remove_stale_folders(out / "students")
    processes = _Processes()
    jobs_ = {
        e.student: _Job(
            e, prints[e.student], reproduce(e.student) if reproduce else None, processes.stopping
        )
        for e in pending
    }
    done, interrupted, later = 0, False, []
    failed: _WriteFailed | None = None

    def finished(record: Record) -> None:
        nonlocal done
        existing[record.student] = record
        done += 1
        if on_done is not None:
            on_done(record, done, len(pending))

    order = [jobs_[e.student] for e in pending]
    next_up = None if runner else _NextUp(order, assignment, rubric, processes, max(1, jobs))
    with ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="grader") as pool:
        run: Runner = runner or (
            lambda *job: pool.submit(functools.partial(_grade_one, next_up=next_up), *job)
        )
        futures: dict[Future[Record | _Later], Entry] = {
            run(jobs_[e.student], assignment, rubric, seed, out, processes): e for e in pending
        }
        try:
            remaining = set(futures)
            while remaining:
                ready, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in ready:
                    try:
                        result = _result(future, futures[future], rubric)
                    except _WriteFailed as err:
                        if failed is None:  # stop: the next students' files would fail too
                            failed = err
                            for other in futures:
                                other.cancel()
                            processes.stop_all()
                        continue
                    if isinstance(result, _Later):
                        later.append(result)
                    elif result is not None:
                        finished(result)
        except KeyboardInterrupt:
            interrupted = True
            for future in futures:
                future.cancel()
            processes.stop_all()
        finally:
            if next_up is not None:
                next_up.close()
    measured_again = 0
    try:
        for item in sorted(later, key=lambda item: item.job.entry.student):
            if interrupted or failed:
                item.work.cleanup()
                continue
            try:
                finished(_again(item, assignment, rubric, out, processes))
                measured_again += 1
            except _WriteFailed as err:
                failed = err
            except KeyboardInterrupt:
                interrupted = True
                processes.stop_all()
            except Exception as err:  # a grader bug must cost one student a row, not the batch
                finished(_failed(item.job.entry, err, rubric))
    finally:
        for item in later:
            item.work.cleanup()
    ordered = [
        existing[e.student]
        for e in sorted(entries, key=lambda e: e.student)
        if e.student in existing
    ]
    current = tuple(r for r in ordered if prints[r.student].same_grading(r.fingerprint))
    stale = tuple(r.student for r in ordered if r not in current)
    strangers = tuple(
        sorted(
            folder.name
            for folder in (out / "students").glob("*")
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in prints
        )
    )
    return BatchResult(
        current,
        done,
        interrupted,
        tuple(sorted(why.items())),
        stale,
        measured_again,
        str(failed) if failed else None,
        strangers,
    )


def _failed(entry: Entry, err: Exception, rubric: Rubric) -> Record:
    return _error_record(
        entry, f"the grader failed on this submission: {err!r}", rubric.max_score, 0.0
    )


def _result(
    future: Future[Record | _Later], entry: Entry, rubric: Rubric
) -> Record | _Later | None:
    if future.cancelled():
        return None
    try:
        return future.result()
    except (_Stopped, CancelledError):
        return None
    except _WriteFailed:
        raise
    except Exception as err:  # a grader bug must cost one student a row, not the batch
        return _failed(entry, err, rubric)


def _looks_cell(looks: list[str]) -> str:
    """The grade sheet's ``needs_look``: how many findings, and the first few."""
    if not looks:
        return ""
    more = f"; and {len(looks) - _LOOKS_IN_CELL} more" if len(looks) > _LOOKS_IN_CELL else ""
    return f"{len(looks)}: " + "; ".join(looks[:_LOOKS_IN_CELL]) + more


_LOOKS_IN_CELL = 3


def write_grades_csv(records: Sequence[Record], path: Path) -> None:
    """``grades.csv``: one row per student, a column per criterion id (KIT_SPEC §6), and one
    per criterion of the game's own (the book's boards) or optional one (tactics, late
    penalty) some record holds, after the others."""
    held = dict.fromkeys(c for r in records for c in r.criteria)
    optional = [c for c in held if c not in CRITERIA and c not in OPTIONAL]
    optional += [o for o in OPTIONAL if o in held]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    at = GRADES_COLUMNS.index("late")
    writer.writerow([*GRADES_COLUMNS[:at], *optional, *GRADES_COLUMNS[at:]])
    for r in sorted(records, key=lambda r: r.student):
        writer.writerow(
            [
                csv_cell(r.student),
                f"{r.score:g}",
                str(r.max_score),
                *(f"{r.criteria.get(c, 0):g}" for c in (*CRITERIA, *optional)),
                "yes" if r.late else "no",
                r.status,
                csv_cell(r.reason),
                csv_cell(_looks_cell(r.needs_look)),
                r.canvas_id or "",
                csv_cell(r.name or ""),
                csv_cell(r.source),
                csv_cell(r.note),
            ]
        )
    write_atomic(path, buffer.getvalue())
