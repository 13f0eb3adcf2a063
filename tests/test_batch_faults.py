"""A batch that meets a failure of its own: Ctrl-C as a grade lands, a bug of the kit's while
opening or grading one student. Each costs that student a row that says so, never the class."""

from __future__ import annotations

from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from autograder.classroom.batch import grade_batch
from autograder.classroom.handin import Homework, take_in
from autograder.classroom.records import Entry, Record
from autograder.classroom.student_folder import Job, save_error
from autograder.classroom.worker import Grading, Later
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from tests.conftest import STARTERS
from tests.test_batch import _records


def _two_starters(tmp_path: Path) -> tuple[list[Entry], Grading]:
    """Students s0 and s1, both the untouched Teeko2 starter, and how the batch grades them."""
    assignment = find_assignment("teeko2")
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("s0", "s1"):
        (folder / f"{student}.py").write_text(STARTERS["teeko2"].read_text())
    homework = Homework(assignment.main_file, assignment.pack.files)
    entries = take_in(sorted(folder.iterdir()), tmp_path / "work", homework).entries
    return list(entries), Grading(
        assignment, load_rubric(None, assignment.pack), 0, tmp_path / "out"
    )


@pytest.mark.timeout(60)
def test_a_grade_saved_as_ctrl_c_lands_is_on_the_partial_sheet(tmp_path):
    """Ctrl-C can stop the batch after a worker saved a student and before the batch counted
    the student: the partial sheet has that grade too, as the next run takes it as graded
    (the interrupted class above said "1 of 6" with two students' grades saved)."""
    entries, grading = _two_starters(tmp_path)
    rubric = grading.rubric

    def saved_at_once(job: Job, grading: Grading) -> Future[Record | Later]:
        saved: Future[Record | Later] = Future()
        saved.set_result(save_error(job, grading.out, "stand-in", "Teeko2", rubric.max_score))
        return saved

    def ctrl_c(record: Record, done: int, total: int) -> None:
        if done == 1:  # after the first student, with the second one already saved
            raise KeyboardInterrupt

    result = grade_batch(entries, grading, jobs=2, runner=saved_at_once, on_done=ctrl_c)
    assert result.interrupted
    assert [r.student for r in result.records] == ["s0", "s1"]
    assert sorted(_records(tmp_path / "out")) == ["s0", "s1"]


@pytest.mark.timeout(60)
def test_a_student_the_grader_fails_on_keeps_a_row_saying_the_kit_is_at_fault(tmp_path):
    """A bug of the kit's raised while grading one student: that student's row and report
    say so, saved as this run's, so the sheet and the next run both have the student."""
    entries, grading = _two_starters(tmp_path)
    rubric = grading.rubric

    def failing_on_s1(job: Job, grading: Grading) -> Future[Record | Later]:
        done: Future[Record | Later] = Future()
        if job.entry.student == "s1":
            done.set_exception(RecursionError("maximum recursion depth exceeded"))
        else:
            done.set_result(save_error(job, grading.out, "stand-in", "Teeko2", rubric.max_score))
        return done

    result = grade_batch(entries, grading, jobs=2, runner=failing_on_s1)
    assert [r.student for r in result.records] == ["s0", "s1"] and not result.stale
    assert result.records[1].reason == (
        "the grader itself failed on this submission (RecursionError: maximum recursion depth "
        "exceeded); the kit is at fault, not the student: grade it by hand, and report it to "
        "the kit's authors"
    )
    assert sorted(_records(tmp_path / "out")) == ["s0", "s1"]


def test_a_student_the_intake_fails_on_is_refused_alone(tmp_path, monkeypatch):
    """A bug of the kit's while opening one student's files: that student is refused in a
    sentence that says so, and the others are opened as ever."""
    from autograder.classroom import handin

    opened = handin.open_submission

    def failing_on_s1(path: Path, *args: Any, **kwargs: Any) -> Any:
        if path.name == "s1.py":
            raise RecursionError("maximum recursion depth exceeded")
        return opened(path, *args, **kwargs)

    monkeypatch.setattr(handin, "open_submission", failing_on_s1)
    folder = tmp_path / "class"
    folder.mkdir()
    for student in ("s0", "s1"):
        (folder / f"{student}.py").write_text(STARTERS["teeko2"].read_text())
    entries = take_in(sorted(folder.iterdir()), tmp_path / "work", Homework("game.py")).entries
    assert [e.refused for e in entries] == [
        "",
        "the grader itself failed opening s1.py (RecursionError: maximum recursion depth "
        "exceeded); grade it by hand and report it",
    ]
    assert entries[0].submission is not None
