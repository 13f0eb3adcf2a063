"""Grading and tournaments on a Dask cluster (``--cluster tcp://HOST:PORT``).

A game or a student is one Dask task. What it needs travels with it as bytes (a machine of the
cluster shares no disk with the instructor's), it runs in the worker's own sandbox, and what
it made comes back to this process, which writes the outputs exactly as a local run does. A
task lost with its worker is run again on another (Dask's scheduler does that); one that
raised is retried once. Each worker says which sandbox layers it has, for the instructor to see.
"""

from __future__ import annotations

import functools
import platform
import tempfile
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar

from autograder.classroom.fingerprint import Fingerprint
from autograder.classroom.records import Entry, Record
from autograder.classroom.student_folder import Job, write_student
from autograder.classroom.tournament import short_layers
from autograder.classroom.worker import Grading, Later, Runner, grade_here
from autograder.errors import GraderError
from autograder.games import find_assignment
from autograder.grading.rubric import Rubric
from autograder.play.sandbox import available

__all__ = ["INSTALL", "Cluster", "remote_grader", "grade_remotely"]

INSTALL = "pip install 'teeko-autograder[cluster]'  (or: pip install 'dask[distributed]')"
_WAIT_FOR_WORKERS = 60.0  # seconds for the first worker to join

A = TypeVar("A")
B = TypeVar("B")


def _layers() -> str:
    """This machine's name and its sandbox layers, in short (run on each worker)."""
    return f"{platform.node()}: {short_layers(available().describe())}"


class Cluster:
    """A connection to a Dask scheduler, and an executor whose futures are the standard
    library's, so the local code waits on them unchanged."""

    def __init__(self, address: str) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise GraderError(
                f"--cluster needs Dask's distributed, not installed: {INSTALL}"
            ) from None
        try:
            self.client: Any = Client(address, timeout="10s")
        except (OSError, TimeoutError, ValueError) as err:
            raise GraderError(
                f"--cluster: cannot reach a Dask scheduler at {address} ({err}); start one with "
                f"`dask scheduler` and workers with `dask worker {address}`"
            ) from None
        try:
            self.client.wait_for_workers(1, timeout=_WAIT_FOR_WORKERS)
        except TimeoutError:
            self.client.close()
            raise GraderError(
                f"--cluster: no worker joined the scheduler at {address} within "
                f"{_WAIT_FOR_WORKERS:g} s; start some with `dask worker {address} --nthreads 1`"
            ) from None
        self.executor = self.client.get_executor(pure=False, retries=1)

    def workers(self) -> dict[str, str]:
        """Each worker's address -> its machine and sandbox layers."""
        found: dict[str, str] = self.client.run(_layers)
        return found

    @property
    def threads(self) -> int:
        """Tasks the cluster runs at once."""
        return sum(self.client.nthreads().values()) or 1

    def submit(self, fn: Callable[..., A], *args: Any) -> Future[A]:
        future: Future[A] = self.executor.submit(fn, *args)
        return future

    def close(self) -> None:
        self.executor.shutdown(wait=False)
        self.client.close()


def _then(future: Future[A], then: Callable[[A], B]) -> Future[B]:
    """A future for ``then`` of ``future``'s result, run where the result arrives."""
    chained: Future[B] = Future()

    def done(source: Future[A]) -> None:
        if source.cancelled():
            chained.cancel()
            return
        try:
            chained.set_result(then(source.result()))
        except BaseException as err:  # the waiter re-raises it (a record of a failed student)
            chained.set_exception(err)

    future.add_done_callback(done)
    return chained


# ---- grade on a cluster -------------------------------------------------------------------------


def _entry_files(path: Path) -> tuple[bool, tuple[tuple[str, bytes], ...]]:
    """A student's input as bytes: (a folder?, its files)."""
    if path.is_dir():
        found = sorted(p for p in path.rglob("*") if p.is_file())
        return True, tuple((p.relative_to(path).as_posix(), p.read_bytes()) for p in found)
    return False, ((path.name, path.read_bytes()),)


def grade_remotely(
    sent: tuple[Entry, Fingerprint, str | None],
    files: tuple[bool, tuple[tuple[str, bytes], ...]],
    assignment: str,
    rubric: Rubric,
    seed: int,
) -> tuple[Record, dict[str, bytes]]:
    """Grade one student on this machine exactly as the batch does, slow calls measured again
    at once; the record and the files of its folder, with this machine's paths put back as
    the instructor's. ``sent`` is the batch's job but for what only the instructor's process
    holds (its stop signal)."""
    job = Job(*sent, threading.Event())
    shown = str(job.entry.path)
    folder, items = files
    with tempfile.TemporaryDirectory(prefix="teeko-remote-") as work:
        base = Path(work) / "in"
        target = base / job.entry.path.name
        for name, data in items:
            path = target / name if folder else base / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        local = replace(job, entry=replace(job.entry, path=target))
        grading = Grading(find_assignment(assignment), rubric, seed, Path(work) / "out")
        result = grade_here(local, grading)
        student = grading.out / "students" / job.entry.student
        made = {
            p.name: p.read_bytes().replace(str(target).encode(), shown.encode())
            for p in student.iterdir()
        }
    record = Record.from_json(made["record.json"].decode()) if "record.json" in made else result
    return record, made


def _write_back(result: tuple[Record, dict[str, bytes]], out: Path, job: Job) -> Record:
    """A remote student's folder written here whole, as the batch writes a local one."""
    record, made = result
    write_student(job, out, made)
    return record


def remote_grader(cluster: Cluster) -> Runner:
    """The batch's way to grade one student, on ``cluster``."""

    def run(job: Job, grading: Grading) -> Future[Record | Later]:
        about = (job.entry, job.fingerprint, job.reproduce)
        name, rubric, seed = grading.assignment.name, grading.rubric, grading.seed
        sent = cluster.submit(
            grade_remotely, about, _entry_files(job.entry.path), name, rubric, seed
        )
        return _then(sent, functools.partial(_write_back, out=grading.out, job=job))

    return run
