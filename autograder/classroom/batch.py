"""Grading a whole class: a pool of workers, one record on disk per student, resumable.

Each student's record is written atomically the moment that student is graded, so after
Ctrl-C, a crash or ``kill -9`` the same command grades only what is missing. Every student is
graded with the batch seed (the same probes and games for the whole class, as ``check --seed``
gives them), so a grade depends neither on ``--jobs`` nor on order nor on who else is in the
batch, and the same file handed in by two students gets the same grade.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path

from autograder.classroom.fingerprint import Fingerprint, kit_version, submission_digest
from autograder.classroom.records import Entry, Record, read_record
from autograder.classroom.staging import NextUp, Processes, Stopped
from autograder.classroom.student_folder import (
    Job,
    WriteFailed,
    folder_name,
    save_error,
    student_dir,
)
from autograder.classroom.worker import Grading, Later, Runner, grade_later, grade_one
from autograder.errors import GraderError
from autograder.files import remove_stale_folders
from autograder.play.launch import missing_packages
from autograder.play.untrusted import admit

__all__ = ["BatchResult", "grade_batch"]


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


@dataclass
class _Plan:
    """Who is graded in this run and why; the grades already on disk."""

    prints: dict[str, Fingerprint] = field(default_factory=dict)  # student id -> how graded now
    existing: dict[str, Record] = field(default_factory=dict)
    pending: list[Entry] = field(default_factory=list)
    why: collections.Counter[str] = field(default_factory=collections.Counter)


@dataclass
class _Progress:
    """What the run has done so far, told to ``on_done`` after each student."""

    plan: _Plan
    on_done: Callable[[Record, int, int], None] | None
    done: int = 0
    interrupted: bool = False
    failed: WriteFailed | None = None
    measured_again: int = 0

    def finished(self, record: Record) -> None:
        self.plan.existing[record.key] = record
        self.done += 1
        if self.on_done is not None:
            self.on_done(record, self.done, len(self.plan.pending))


def _fingerprint(entry: Entry, grading: Grading, packages: str) -> Fingerprint:
    try:
        submission = submission_digest(entry)
    except OSError:
        submission = "unreadable"
    rubric, name = grading.rubric, grading.assignment.name
    return Fingerprint(kit_version(), rubric.digest, name, str(grading.seed), submission, packages)


def _plan(entries: Sequence[Entry], grading: Grading, regrade: bool, only: Sequence[str]) -> _Plan:
    """Every entry whose record is missing or has another fingerprint (all of them with
    ``regrade``; with ``only``, just those students), and why each is graded again."""
    plan = _Plan()
    _follow_names(entries, grading.out)
    packages = grading.rubric.limits.packages
    missing = missing_packages(packages)
    installed = ",".join(name for name in packages if name not in missing)
    for entry in entries:
        print_ = plan.prints[entry.key] = _fingerprint(entry, grading, installed)
        record = read_record(student_dir(grading.out, entry.student) / "record.json")
        if record is not None:
            plan.existing[entry.key] = record
        if only:
            if entry.student in only or entry.key in only:
                plan.pending.append(entry)
                plan.why["named with --only"] += 1
            continue
        if record is None or regrade:
            plan.pending.append(entry)
            continue
        changes = print_.changes(record.fingerprint)
        if changes:
            plan.pending.append(entry)
            plan.why.update(changes)
    return plan


def _follow_names(entries: Sequence[Entry], out: Path) -> None:
    """A student's folder saved under the name another run showed them by (the Canvas id
    before a roster gave the login) is renamed to this run's: a folder is the student's
    (their stable id, in its record), whatever the name, so the grade is kept, not redone."""
    wanted = {entry.key: student_dir(out, entry.student) for entry in entries}
    homes = set(wanted.values())
    for folder in sorted((out / "students").glob("*")):
        if folder in homes or not folder.is_dir():
            continue
        record = read_record(folder / "record.json")
        target = wanted.get(record.key) if record is not None else None
        if target is not None and not target.exists():
            folder.rename(target)


def grade_batch(
    entries: Sequence[Entry],
    grading: Grading,
    *,
    jobs: int,
    regrade: bool = False,
    only: Sequence[str] = (),
    on_done: Callable[[Record, int, int], None] | None = None,
    reproduce: Callable[[str], str] | None = None,
    runner: Runner | None = None,
) -> BatchResult:
    """Grade every entry whose record in ``grading.out`` is missing or has another fingerprint
    (all of them with ``regrade``; with ``only``, just those students, whatever their record).

    ``on_done(record, done, total)`` is called in the main thread after each student;
    ``reproduce(student)`` is the command that grades that student again, for the feedback.
    Ctrl-C stops the workers and their processes; what finished is kept, the rest is not saved.
    ``runner`` grades one student elsewhere (a Dask cluster); default: a thread of ``jobs``.

    :raises GraderError: when ``only`` names a student the inputs do not hold.
    """
    unknown = sorted(set(only) - {e.student for e in entries} - {e.key for e in entries})
    if unknown:
        known = ", ".join(sorted(e.student for e in entries)[:10])
        raise GraderError(f"--only: no student {', '.join(unknown)} in the inputs (found: {known})")
    plan = _plan(entries, grading, regrade, only)
    remove_stale_folders(grading.out / "students")
    processes = Processes()
    order = [
        Job(
            e,
            plan.prints[e.key],
            reproduce(e.key) if reproduce else None,
            processes.stopping,
        )
        for e in plan.pending
    ]
    progress = _Progress(plan, on_done)
    later = _run(order, grading, max(1, jobs), runner, processes, progress)
    _measure_later(later, grading, processes, progress)
    return _result(entries, grading, progress)


def _run(
    order: Sequence[Job],
    grading: Grading,
    jobs: int,
    runner: Runner | None,
    processes: Processes,
    progress: _Progress,
) -> list[Later]:
    """Every job graded by ``runner`` (default: ``jobs`` threads here, the next students
    staged ahead); the students handed back to be measured again alone."""
    later: list[Later] = []
    entries = [job.entry for job in order]
    next_up = (
        None if runner else NextUp(entries, grading.assignment, grading.rubric, processes, jobs)
    )
    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="grader") as pool:
        run: Runner = runner or (
            lambda job, grading: pool.submit(grade_one, job, grading, processes, next_up)
        )
        futures = {run(job, grading): job for job in order}
        try:
            remaining = set(futures)
            while remaining:
                ready, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in ready:
                    try:
                        result = _outcome(future, futures[future], grading)
                    except WriteFailed as err:
                        if progress.failed is None:  # the next students' files would fail too
                            progress.failed = err
                            for other in futures:
                                other.cancel()
                            processes.stop_all()
                        continue
                    if isinstance(result, Later):
                        later.append(result)
                    elif result is not None:
                        progress.finished(result)
        except KeyboardInterrupt:
            progress.interrupted = True
            for future in futures:
                future.cancel()
            processes.stop_all()
        finally:
            if next_up is not None:
                next_up.close()
    if progress.interrupted:
        _finished_unseen(futures, progress, later)
    return later


def _finished_unseen(
    futures: Iterable[Future[Record | Later]], progress: _Progress, later: list[Later]
) -> None:
    """Count the students a worker saved while Ctrl-C stopped the main thread before it saw
    them, so the partial sheet holds every grade on disk, as the next run takes them; those
    awaiting a second measure join ``later``, which removes their staged files."""
    for future in futures:
        if not future.done() or future.cancelled() or future.exception() is not None:
            continue
        result = future.result()
        if isinstance(result, Later):
            if all(result is not seen for seen in later):
                later.append(result)
        elif progress.plan.existing.get(result.key) is not result:
            progress.finished(result)


def _measure_later(
    later: Sequence[Later], grading: Grading, processes: Processes, progress: _Progress
) -> None:
    """The deferred students measured again alone, one at a time, unless the run stopped."""
    try:
        for item in sorted(later, key=lambda item: item.job.entry.student):
            if progress.interrupted or progress.failed:
                item.work.cleanup()
                continue
            try:
                progress.finished(grade_later(item, grading, processes))
                progress.measured_again += 1
            except WriteFailed as err:
                progress.failed = err
            except KeyboardInterrupt:
                progress.interrupted = True
                processes.stop_all()
            except Exception as err:  # a grader bug must cost one student a row, not the batch
                progress.finished(_failed(item.job, err, grading))
    finally:
        for item in later:
            item.work.cleanup()


def _result(entries: Sequence[Entry], grading: Grading, progress: _Progress) -> BatchResult:
    plan = progress.plan
    ordered = [
        replace(plan.existing[e.key], student=e.student, id=e.key)  # named as this run names it
        for e in sorted(entries, key=lambda e: (e.student, e.key))
        if e.key in plan.existing
    ]
    current = tuple(r for r in ordered if plan.prints[r.key].same_grading(r.fingerprint))
    stale = tuple(r.student for r in ordered if r not in current)
    folders = {folder_name(e.student) for e in entries}
    strangers = tuple(
        sorted(
            folder.name
            for folder in (grading.out / "students").glob("*")
            if folder.is_dir() and not folder.name.startswith(".") and folder.name not in folders
        )
    )
    return BatchResult(
        current,
        progress.done,
        progress.interrupted,
        tuple(sorted(plan.why.items())),
        stale,
        progress.measured_again,
        str(progress.failed) if progress.failed else None,
        strangers,
    )


def _failed(job: Job, err: Exception, grading: Grading) -> Record:
    """The zero of a student the grader itself failed on, saved with the run's fingerprint:
    a row and a report saying so, never a student left out of the sheet."""
    reason = (
        f"the grader itself failed on this submission ({type(err).__name__}: {err}); the kit "
        "is at fault, not the student: grade it by hand, and report it to the kit's authors"
    )
    return save_error(
        job, grading.out, admit(reason, "sentence"), grading.assignment.pack.title,
        grading.rubric.max_score,
    )  # fmt: skip


def _outcome(future: Future[Record | Later], job: Job, grading: Grading) -> Record | Later | None:
    if future.cancelled():
        return None
    try:
        return future.result()
    except (Stopped, CancelledError):
        return None
    except WriteFailed:
        raise
    except Exception as err:  # a grader bug must cost one student a row, not the batch
        return _failed(job, err, grading)
