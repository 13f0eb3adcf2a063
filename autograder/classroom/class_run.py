"""What every run over a whole class shares (``grade``, ``tournament``, ``similarity``): the
listener that tells the instructor how it goes, the settings checked before any work, the class
collected from its inputs, and the Dask cluster when one is named.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path

from autograder.classroom.canvas import Roster, read_roster, roster_logins
from autograder.classroom.cluster import Cluster
from autograder.classroom.collect import Collection, collect
from autograder.classroom.fingerprint import kit_version
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.games import find_assignment
from autograder.games.pack import Assignment
from autograder.grading.rubric import Rubric, load_rubric
from autograder.play.launch import missing_packages
from autograder.play.untrusted import shell_word

__all__ = [
    "ClassInputs",
    "ClassRun",
    "Listener",
    "Update",
    "Setup",
    "AtHand",
    "set_up",
    "class_at_hand",
    "QUIET",
    "assignment_named",
    "loaded",
    "job_count",
    "roster_at",
    "not_installed",
    "collect_class",
    "open_cluster",
    "command_line",
    "write_output",
]

Update = Callable[[int, int, str], None]  # (done, total, what was just done)


@dataclass(frozen=True)
class ClassInputs:
    """A class as a command takes it: its inputs, its homework, and where the results go."""

    inputs: tuple[str, ...]  # folders, zips or Canvas's zip, as given
    assignment: str
    out: Path
    rubric: str | None = None  # a rubric file; None: the assignment's own


@dataclass(frozen=True)
class ClassRun(ClassInputs):
    """A class whose submissions are run: the seed, how many at a time, and where."""

    seed: int = 0
    jobs: int | None = None  # at a time; None: the cores
    roster: str | None = None  # a Canvas gradebook export
    cluster: str | None = None  # a Dask scheduler's address


@contextmanager
def _no_display(what: str) -> Iterator[Update]:
    yield lambda done, total, text: None


@dataclass(frozen=True)
class Listener:
    """Where a long run tells the instructor how it goes: ``say`` a line, ``alarm`` a line that
    must stand out (grading without the fence), and ``track(what)`` a progress display around
    the run's long part, updated as each student or game is done."""

    say: Callable[[str], None] = lambda text: None
    alarm: Callable[[str], None] | None = None  # None: said as any other line
    track: Callable[[str], AbstractContextManager[Update]] = _no_display

    def warn(self, text: str) -> None:
        (self.alarm or self.say)(text)


QUIET = Listener()


def assignment_named(name: str) -> Assignment:
    """The assignment called ``name``.

    :raises GraderError: naming ``--assignment`` and the known names."""
    try:
        return find_assignment(name)
    except KeyError as err:
        raise GraderError(f"--assignment: {err}") from None


def loaded(name: str, rubric: str | None) -> tuple[Assignment, Rubric]:
    """The assignment called ``name`` and the rubric in ``rubric`` (default: its own)."""
    assignment = assignment_named(name)
    return assignment, load_rubric(rubric, assignment.pack)


def job_count(jobs: int | None) -> int:
    """``--jobs`` as given, else this machine's cores.

    :raises GraderError: when it is below 1."""
    count = jobs if jobs is not None else os.cpu_count() or 1
    if count < 1:
        raise GraderError(f"--jobs must be at least 1, got {count}")
    return count


def roster_at(path: str | None) -> Roster | None:
    """The Canvas roster in ``path``, or None when none is given.

    :raises GraderError: when it is not a file, or not a roster."""
    if not path:
        return None
    if not Path(path).is_file():
        raise GraderError(f"--roster: {path} is not a file")
    return read_roster(Path(path))


def not_installed(rubric: Rubric) -> str:
    """One line naming the packages the rubric allows that this Python lacks; "" if none.
    A submission that imports one would be graded by the grading machine, not its code."""
    missing = missing_packages(rubric.limits.packages)
    if not missing:
        return ""
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"{' and '.join(missing)} {verb} allowed by the rubric but not installed here: "
        f"pip install {' '.join(missing)}"
    )


def collect_class(
    inputs: Sequence[str],
    work: Path,
    assignment: Assignment,
    rubric: Rubric,
    roster: Roster | None,
    listener: Listener,
) -> Collection:
    """The class in ``inputs``, one entry per student, what could not be read and the
    identities not followed said as they are found."""
    collection = collect(
        [Path(p) for p in inputs],
        work,
        rubric.packaging_pattern,
        assignment.main_file,
        roster_logins(roster) if roster is not None else None,
    )
    for problem in collection.problems:
        listener.say(f"skipped: {problem}")
    for warning in collection.warnings:
        listener.say(f"identity: {warning}")
    return collection


@contextmanager
def open_cluster(address: str | None, listener: Listener) -> Iterator[Cluster | None]:
    """The Dask cluster at ``address`` (None: none), its workers' sandboxes said."""
    if not address:
        yield None
        return
    cluster = Cluster(address)
    try:
        workers = cluster.workers()
        for worker, layers in sorted(workers.items()):
            listener.say(f"worker {worker} on {layers}")
        if len({layers.partition(": ")[2] for layers in workers.values()}) > 1:
            listener.say(
                "warning: the workers' sandboxes differ (above): a limit may bite unevenly"
            )
        yield cluster
    finally:
        cluster.close()


def command_line(*parts: Sequence[str]) -> str:
    """``autograder`` with these arguments, quoted for a shell, and the kit it was run with:
    the command that gives the same result again, for a report."""
    words = ["autograder", *(word for part in parts for word in part)]
    return f"{' '.join(shell_word(word) for word in words)}  # kit {kit_version()}"


def write_output(path: Path, text: str) -> None:
    """``text`` written to ``path`` whole, or not at all.

    :raises GraderError: naming the file and why it cannot be written."""
    try:
        write_atomic(path, text)
    except OSError as err:
        raise GraderError(f"cannot write {path}: {err.strerror}") from None


@dataclass(frozen=True)
class Setup:
    """A class run's settings, checked before anything is read or run."""

    assignment: Assignment
    rubric: Rubric
    jobs: int
    roster: Roster | None


def set_up(request: ClassRun, check: Callable[[], None] = lambda: None) -> Setup:
    """The request's assignment, rubric, jobs and roster; ``check`` checks the command's own
    settings once the homework is known.

    :raises GraderError: for the first bad setting."""
    assignment, rubric = loaded(request.assignment, request.rubric)
    check()
    return Setup(assignment, rubric, job_count(request.jobs), roster_at(request.roster))


@dataclass(frozen=True)
class AtHand:
    """The class collected into a work folder, and the cluster it runs on (None: here)."""

    work: Path
    cluster: Cluster | None
    collection: Collection


@contextmanager
def class_at_hand(request: ClassRun, setup: Setup, listener: Listener) -> Iterator[AtHand]:
    """The class in ``request.inputs`` collected into a work folder removed at the end, with
    the cluster the request names open."""
    with (
        tempfile.TemporaryDirectory(prefix="teeko-intake-") as work,
        open_cluster(request.cluster, listener) as cluster,
    ):
        inputs, assignment, rubric = request.inputs, setup.assignment, setup.rubric
        collection = collect_class(inputs, Path(work), assignment, rubric, setup.roster, listener)
        yield AtHand(Path(work), cluster, collection)
