"""A batch's live submission processes, and the next students staged ahead of their turn.

Every process the batch starts is tracked, so that an interrupt or a failed write ends them all
at once; while workers grade, the next students' submissions are copied out and their first
processes started, so that a worker taking its next student finds its process up.
"""

from __future__ import annotations

import collections
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.intake import Submission, open_submission, require_files
from autograder.classroom.records import Entry
from autograder.errors import GraderError
from autograder.games.pack import Assignment
from autograder.grading.rubric import Rubric
from autograder.play.host import PlayerProcess
from autograder.play.launch import Launch
from autograder.play.referee import Spawner
from autograder.play.sandbox import available
from autograder.play.untrusted import admit

__all__ = ["Stopped", "Processes", "Staged", "NextUp", "stage"]


class Stopped(Exception):
    """Raised in a worker when the batch is being interrupted: its work must not be saved."""


class Processes:
    """Every live submission process of the batch, so an interrupt can end them all at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._live: set[PlayerProcess] = set()
        self.stopping = threading.Event()

    def spawner(self, source_dir: Path, assignment: Assignment, rubric: Rubric) -> Spawner:
        def spawn(child_seed: int) -> PlayerProcess:
            if self.stopping.is_set():
                raise Stopped
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
    registry: Processes

    def close(self) -> None:
        try:
            super().close()
        finally:
            self.registry.forget(self)


def stage(
    entry: Entry, assignment: Assignment
) -> tuple[tempfile.TemporaryDirectory[str], Submission]:
    """The student's submission copied into a work folder of its own and checked for the
    files the homework needs.

    :raises GraderError: when it cannot be opened or misses a file (the folder is removed)."""
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
class Staged:
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


class NextUp:
    """The next students staged and their first processes started while others are graded,
    so that a worker taking its next student finds its process up (``play/ahead.py`` does the
    same within one submission). A student is staged only by a worker that has just taken its
    own, at most one per worker waiting, in the order the workers take them (the first ones,
    taken at once, are not staged); those never taken are closed by :meth:`close`."""

    def __init__(
        self, order: Sequence[Entry], assignment: Assignment, rubric: Rubric,
        processes: Processes, room: int,
    ) -> None:  # fmt: skip
        self._lock = threading.Lock()
        # the pool's order; the first ``room`` are taken at once by the workers, never staged
        self._order = collections.deque(order[room:])  # not yet taken nor staged
        self._taken: set[str] = set()
        self._staged: dict[str, Staged] = {}
        self._assignment, self._rubric, self._processes = assignment, rubric, processes
        self._room = room
        self._closed = False

    def take(self, entry: Entry) -> Staged | None:
        """``entry``'s staging, when it was staged ahead; it is no longer staged by anyone."""
        with self._lock:
            self._taken.add(entry.student)
            return self._staged.pop(entry.student, None)

    def stage_next(self) -> None:
        """Stage the first student no worker has taken, if there is room."""
        with self._lock:
            while self._order and self._order[0].student in self._taken:
                self._order.popleft()
            if self._closed or not self._order or len(self._staged) >= self._room:
                return
            entry = self._order.popleft()
        try:
            work, submission = stage(entry, self._assignment)
        except GraderError:
            return  # its worker stages it again and says why
        try:
            spawn = self._processes.spawner(submission.source_dir, self._assignment, self._rubric)
            first = spawn(0)
            first.start_ahead()
        except Exception:  # e.g. the batch stopping: its worker finds out for itself
            work.cleanup()
            return
        staged = Staged(work, submission, first)
        with self._lock:
            if not self._closed and entry.student not in self._taken:
                self._staged[entry.student] = staged
                return
        staged.close()

    def close(self) -> None:
        with self._lock:
            self._closed = True
            left, self._staged = list(self._staged.values()), {}
        for staged in left:
            staged.close()
