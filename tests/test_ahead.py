"""Processes started ahead (``play/ahead.py``): the same seeds, none wasted, none left behind."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from autograder.classroom.batch import grade_batch
from autograder.classroom.handin import Homework, take_in
from autograder.classroom.worker import Grading
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.play.ahead import Ahead
from autograder.play.busy import alone
from autograder.play.host import PlayerProcess
from autograder.play.referee import planned_processes
from autograder.play.sandbox import available
from tests.conftest import fast_solution, launch

RANDOM_AT_IMPORT = "import random\nprint(random.random())\n"


def _first_random(proc: PlayerProcess) -> str:
    with proc:
        reply = proc.start()
    assert reply.ok, reply.detail
    return reply.printed


@pytest.mark.timeout(120)
def test_a_process_started_ahead_gets_the_seed_it_is_handed_out_with(tmp_path):
    """The seed goes with the import, so a process started before its seed is known draws the
    same random numbers as one started with it: grades do not depend on starting ahead."""
    (tmp_path / "game.py").write_text(RANDOM_AT_IMPORT)
    cold = _first_random(PlayerProcess(launch(tmp_path, seed=7)))
    early = PlayerProcess(launch(tmp_path, seed=0))
    early.start_ahead()
    early.reseed(7)
    assert _first_random(early) == cold
    assert _first_random(PlayerProcess(launch(tmp_path, seed=8))) != cold


class _Stand:
    """A stand-in process that records what was done to it."""

    def __init__(self, seed: int) -> None:
        self.seed, self.ahead, self.closed = seed, False, False
        self.on_started: object = None

    def start_ahead(self) -> None:
        self.ahead = True

    def reseed(self, seed: int) -> None:
        self.seed = seed

    def start(self) -> None:
        if callable(self.on_started):
            self.on_started()

    def close(self) -> None:
        self.closed = True


def test_no_more_processes_start_than_planned_and_the_one_not_taken_is_closed():
    made: list[_Stand] = []

    def make(seed: int) -> _Stand:
        made.append(_Stand(seed))
        return made[-1]

    with Ahead(make, planned=3) as spawn:  # type: ignore[arg-type]
        first = spawn(11)
        assert (first.seed, first.ahead, len(made)) == (11, True, 1), "one comes up alone"
        first.start()
        assert len(made) == 3, "the next ones start ahead once it has started"
        second = spawn(12)
        second.start()
        assert second is made[1] and second.seed == 12
    assert len(made) == 3, "never more than planned"
    assert made[2].closed and not made[1].closed, "the one not taken is closed at the end"


def test_nothing_starts_ahead_while_a_call_runs_alone():
    made: list[_Stand] = []

    def make(seed: int) -> _Stand:
        made.append(_Stand(seed))
        return made[-1]

    spawn = Ahead(make, planned=4)  # type: ignore[arg-type]
    with alone():
        spawn(1).start()
        assert len(made) == 1, "a call measured alone shares the machine with no start"
    spawn.close()


def _cgroups_left() -> list[Path]:
    groups = available().cgroups
    if groups is None:
        return []
    return [p for _, folder in groups.folders if folder.is_dir() for p in folder.glob("p*")]


def _carrying(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.timeout(300)
def test_a_batch_leaves_no_process_and_no_cgroup_behind(tmp_path, monkeypatch):
    """Every process a batch starts, ahead or not, is gone when it returns, and so is its
    cgroup; each student used exactly the processes its session plans (none wasted)."""
    scratch = tmp_path / "scratch"  # every work folder and staged submission: on each cmdline
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    started: list[PlayerProcess] = []
    launch_one = PlayerProcess._launch

    def counted(self: PlayerProcess, pin: bool) -> None:
        started.append(self)
        launch_one(self, pin)

    monkeypatch.setattr(PlayerProcess, "_launch", counted)
    assignment = find_assignment("teeko2")
    rubric = load_rubric(None, assignment.pack)
    folder = tmp_path / "class"
    folder.mkdir()
    paths = []
    for index in range(3):
        (folder / f"s{index}.py").write_text(fast_solution("teeko2", budget=0.01))
        paths.append(folder / f"s{index}.py")
    homework = Homework(assignment.main_file, assignment.pack.files)
    entries = list(take_in(paths, tmp_path / "work", homework).entries)  # the one intake
    before = set(_cgroups_left())
    result = grade_batch(entries, Grading(assignment, rubric, 0, tmp_path / "out"), jobs=2)
    assert [r.score for r in result.records] == [100, 100, 100]
    assert len(started) == 3 * planned_processes(rubric.plan, bool(rubric.checks))
    assert _gone(lambda: not _carrying(str(scratch))), "a process outlived its batch"
    assert _gone(lambda: set(_cgroups_left()) <= before), "a cgroup outlived its batch"


def _gone(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    """Whether ``check`` holds within ``seconds`` (a killed process may take a moment)."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True
