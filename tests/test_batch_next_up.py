"""The batch stages the next student and starts its first process while others are graded
(``staging.NextUp``), with stand-in processes: who is staged, what is handed to whom, and that
nothing staged outlives the batch."""

from __future__ import annotations

from pathlib import Path

from autograder.classroom.records import Entry
from autograder.classroom.staging import NextUp
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric

ASSIGNMENT = find_assignment("teeko")
RUBRIC = load_rubric(None, ASSIGNMENT.pack)


class _Process:
    def __init__(self, folder: Path) -> None:
        self.folder, self.seed = folder, 0
        self.up = self.closed = False

    def start_ahead(self) -> None:
        self.up = True

    def reseed(self, seed: int) -> None:
        self.seed = seed

    def close(self) -> None:
        self.closed = True


class _Processes:
    """The batch's registry, starting stand-ins instead of submissions."""

    def __init__(self) -> None:
        self.started: list[_Process] = []

    def spawner(self, source_dir: Path, assignment: object, rubric: object):
        def spawn(seed: int) -> _Process:
            proc = _Process(source_dir)
            proc.reseed(seed)
            self.started.append(proc)
            return proc

        return spawn


def _jobs(tmp_path: Path, *names: str) -> list[Entry]:
    jobs = []
    for name in names:
        path = tmp_path / f"{name}.py"
        path.write_text("class Teeko2Player:\n    pass\n" if name != "broken" else "")
        if name == "broken":
            path.unlink()  # gone before its turn: it cannot be staged
        jobs.append(Entry(name, path))
    return jobs


def test_the_next_student_is_staged_with_its_process_up_and_handed_to_its_worker(tmp_path):
    processes = _Processes()
    first, second, third = _jobs(tmp_path, "ada", "ben", "cy")
    next_up = NextUp([first, second, third], ASSIGNMENT, RUBRIC, processes, 1)
    assert next_up.take(first) is None  # the first worker stages its own
    next_up.stage_next()
    assert [p.up for p in processes.started] == [True]
    handed = next_up.take(second)
    assert handed is not None and next_up.take(second) is None  # handed once
    staged = processes.started[0]
    assert handed.first is staged
    assert (staged.folder / "game.py").read_text().startswith("class Teeko2Player")
    spawn = handed.spawner(processes.spawner(staged.folder, None, None))
    assert spawn(7) is staged and staged.seed == 7  # its worker gets it, with the real seed
    assert spawn(8) is not staged
    next_up.close()
    handed.close_first()
    assert not staged.closed  # handed out: its grading closes it, not the batch nor the worker


def test_a_process_started_ahead_that_no_grading_took_is_closed_by_its_worker(tmp_path):
    processes = _Processes()
    first, second = _jobs(tmp_path, "ada", "ben")
    next_up = NextUp([first, second], ASSIGNMENT, RUBRIC, processes, 1)
    next_up.take(first)
    next_up.stage_next()
    handed = next_up.take(second)
    assert handed is not None
    handed.close_first()  # a session that planned no process
    assert [p.closed for p in processes.started] == [True]
    assert handed.first is None


def test_only_one_student_per_worker_waits_and_the_rest_are_closed_at_the_end(tmp_path):
    processes = _Processes()
    jobs = _jobs(tmp_path, "ada", "ben", "cy", "dee", "eve")
    next_up = NextUp(jobs, ASSIGNMENT, RUBRIC, processes, 2)
    next_up.take(jobs[0])
    for _ in range(4):
        next_up.stage_next()
    assert len(processes.started) == 2  # cy and dee (ada and ben are taken at once); eve waits
    folders = [p.folder for p in processes.started]
    assert all(folder.exists() for folder in folders)
    assert next_up.take(jobs[1]) is None  # ben: its worker stages it
    cy = next_up.take(jobs[2])
    assert cy is not None and cy.first is processes.started[0]
    next_up.close()
    assert [p.closed for p in processes.started] == [False, True]  # dee's, never taken
    assert folders[0].exists() and not folders[1].exists()
    next_up.stage_next()
    assert len(processes.started) == 2  # closed: nothing more is staged


def test_a_student_taken_before_its_staging_ended_is_not_left_staged(tmp_path):
    processes = _Processes()
    first, second = _jobs(tmp_path, "ada", "ben")
    next_up = NextUp([first, second], ASSIGNMENT, RUBRIC, processes, 1)
    next_up.take(first)
    spawner = processes.spawner

    def spawner_while_ben_is_taken(*args):
        next_up.take(second)  # ben's worker got there first
        return spawner(*args)

    processes.spawner = spawner_while_ben_is_taken  # type: ignore[method-assign]
    next_up.stage_next()
    assert [p.closed for p in processes.started] == [True]  # its worker stages ben again


def test_a_student_that_cannot_be_staged_is_left_for_its_worker_to_report(tmp_path):
    processes = _Processes()
    first, broken, last = _jobs(tmp_path, "ada", "broken", "cy")
    next_up = NextUp([first, broken, last], ASSIGNMENT, RUBRIC, processes, 1)
    next_up.take(first)
    next_up.stage_next()
    assert processes.started == []
    assert next_up.take(broken) is None
