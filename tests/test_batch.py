"""``autograder grade``: a class graded in real processes, in parallel, resumable after a kill."""

from __future__ import annotations

import csv
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.classroom.batch import student_seed
from tests.conftest import ROOT, STARTERS, fast_solution

SLOW_SOLUTION = fast_solution("teeko2", budget=0.3)


def _class(folder: Path, size: int = 4) -> list[str]:
    """A folder of submissions named <student>.py: strong players and untouched starters."""
    folder.mkdir(parents=True, exist_ok=True)
    students = []
    for index in range(size):
        student = f"student{index:02d}"
        source = fast_solution("teeko2") if index % 2 == 0 else STARTERS["teeko2"].read_text()
        (folder / f"{student}.py").write_text(source)
        students.append(student)
    return students


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def _grade_command(inputs: Path, out: Path, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "autograder",
        "grade",
        str(inputs),
        "--assignment",
        "teeko2",
        "--out",
        str(out),
        *extra,
    ]


@pytest.mark.slow
def test_grades_do_not_depend_on_jobs(tmp_path, run_cli):
    students = _class(tmp_path / "class")
    for jobs in ("1", "2"):
        done = run_cli(
            "grade",
            str(tmp_path / "class"),
            "--assignment",
            "teeko2",
            "--out",
            str(tmp_path / f"out{jobs}"),
            "--jobs",
            jobs,
        )
        assert done.returncode == 0, done.stderr
    one, two = _rows(tmp_path / "out1"), _rows(tmp_path / "out2")
    assert sorted(one) == students
    assert one == two
    assert {one[s]["score"] for s in students} == {"100", "50"}
    for student in students:
        folder = tmp_path / "out1" / "students" / student
        assert (folder / "results.json").is_file()
        assert "# Teeko autograder feedback" in (folder / "feedback.md").read_text()


@pytest.mark.slow
def test_a_grade_does_not_depend_on_who_else_is_in_the_batch(tmp_path, run_cli):
    _class(tmp_path / "class")
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "student01.py").write_text((tmp_path / "class" / "student01.py").read_text())
    run_cli("grade", str(tmp_path / "class"), "-a", "teeko2", "--out", str(tmp_path / "all"))
    run_cli("grade", str(alone), "-a", "teeko2", "--out", str(tmp_path / "one"))
    one, every = _rows(tmp_path / "one")["student01"], _rows(tmp_path / "all")["student01"]
    assert {k: v for k, v in one.items() if k != "source"} == {
        k: v for k, v in every.items() if k != "source"
    }
    assert student_seed(0, "student01") != student_seed(0, "student02")


def _records(out: Path) -> dict[str, float]:
    return {p.parent.name: p.stat().st_mtime for p in out.glob("students/*/record.json")}


def _carrying(marker: str) -> list[int]:
    """Live processes with ``marker`` anywhere on their whole command line (pgrep -f reads
    only the first 4 KB, and the fence's command line is longer)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _no_child_left(marker: str, seconds: float = 10.0) -> bool:
    """Whether, within ``seconds``, no process carries ``marker`` on its command line."""
    deadline = time.monotonic() + seconds
    while _carrying(marker):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT], ids=["kill -9", "ctrl-c"])
def test_an_interrupted_batch_resumes_and_grades_each_student_once(tmp_path, how):
    folder = tmp_path / "class"
    folder.mkdir()
    students = [f"s{index}" for index in range(6)]
    for student in students:
        (folder / f"{student}.py").write_text(SLOW_SOLUTION)
    out = tmp_path / "out"
    scratch = tmp_path / "grader-tmp"  # where the grader stages each submission: a marker
    scratch.mkdir()
    runner = subprocess.Popen(
        _grade_command(folder, out, "--jobs", "1"),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
    )
    deadline = time.monotonic() + 60
    while _no_child_left(str(scratch), 0) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _no_child_left(str(scratch), 0), "the marker is on no submission's process"
    deadline = time.monotonic() + 120
    while len(_records(out)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(_records(out)) >= 2, "the batch never finished a student"
    runner.send_signal(how)
    _, stderr = runner.communicate(timeout=60)
    if how == signal.SIGINT:
        assert runner.returncode == 130
        assert "run the same command again to grade the rest" in stderr
    before = _records(out)
    assert 2 <= len(before) < len(students)
    assert _no_child_left(str(scratch)), "a submission process outlived the grader"
    resumed = subprocess.run(
        _grade_command(folder, out, "--jobs", "2"),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert resumed.returncode == 0, resumed.stderr
    after = _records(out)
    assert sorted(after) == students
    assert all(after[s] == before[s] for s in before), "a graded student was graded again"
    assert f"{len(before)} students already had a grade" in resumed.stderr
    assert sorted(_rows(out)) == students


def test_no_submissions_is_one_line_and_non_zero(tmp_path, run_cli):
    (tmp_path / "empty").mkdir()
    done = run_cli(
        "grade",
        str(tmp_path / "empty"),
        "-a",
        "teeko2",
        "--out",
        str(tmp_path / "out"),
        expect_ok=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].startswith("autograder: no submissions found in")


def test_jobs_must_be_positive(tmp_path, run_cli):
    done = run_cli(
        "grade",
        str(tmp_path),
        "-a",
        "teeko2",
        "--out",
        str(tmp_path / "o"),
        "--jobs",
        "0",
        expect_ok=False,
    )
    assert done.returncode == 2
    assert "--jobs must be at least 1, got 0" in done.stderr


def test_student_seed_is_stable():
    assert student_seed(0, "bbadger") == student_seed(0, "bbadger")
    assert student_seed(0, "bbadger") != student_seed(1, "bbadger")
    assert 0 <= student_seed(12345, "x" * 100) < 2**32
