"""``autograder grade``: a class graded in real processes, in parallel, resumable after a kill."""

from __future__ import annotations

import contextlib
import csv
import errno
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from autograder.classroom import grade_class, outputs, student_folder
from autograder.classroom.class_run import Listener
from autograder.classroom.grade_class import ClassRequest
from autograder.classroom.worker import student_seed
from autograder.cli import main
from autograder.play.cgroups import Support
from autograder.play.sandbox import Protections
from tests.conftest import COURSE_TOML, ROOT, STARTERS, fast_solution

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
    """Each graded student's record time; a hidden folder is a write a killed grader left
    half done (the next run removes it), not a student."""
    return {
        p.parent.name: p.stat().st_mtime
        for p in out.glob("students/*/record.json")
        if not p.parent.name.startswith(".")
    }


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
@pytest.mark.long(28)
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
        # Ctrl-C must reach it as from a terminal, even when this run was started in the
        # background, where a shell hands its commands SIGINT ignored (and the grader then
        # graded every student and exited 0)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    # Polled while the grader runs (the test's own timeout bounds it): how long it takes is
    # the machine's business.
    while _no_child_left(str(scratch), 0) and runner.poll() is None:
        time.sleep(0.05)
    assert not _no_child_left(str(scratch), 0), "the marker is on no submission's process"
    began = time.monotonic()
    while len(_records(out)) < 2 and runner.poll() is None:
        time.sleep(0.1)
    assert len(_records(out)) >= 2, "the batch never finished a student"
    per_student = (time.monotonic() - began) / 2  # at the machine's present load
    runner.send_signal(how)
    # Stopping costs less than grading a student: the deadline scales with what one took here.
    _, stderr = runner.communicate(timeout=max(60.0, 4 * per_student))
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


@pytest.mark.slow
def test_a_canvas_attempt_with_a_helper_module_is_graded_whole(tmp_path):
    """The student split the search into helper.py; Canvas's download holds both files of the
    one attempt under the student's user id. game.py is graded with its helper beside it (a
    full grade, not "defines no class"), and the helper is named under packaging."""
    folder = tmp_path / "download"
    folder.mkdir()
    solution = fast_solution("teeko2")
    helper, game = (
        "TIME_BUDGET = 0.05\n",
        solution.replace("TIME_BUDGET = 0.05", "from helper import TIME_BUDGET"),
    )
    assert game != solution
    (folder / "badgerbucky_123_456_game.py").write_text(game)
    (folder / "badgerbucky_123_457_helper.py").write_text(helper)
    out = tmp_path / "out"
    done = subprocess.run(_grade_command(folder, out), cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    row = _rows(out)["123"]
    assert (row["score"], row["status"]) == ("100", "graded")
    assert row["note"] == "handed in with game.py: helper.py"
    feedback = (out / "students" / "123" / "feedback.md").read_text()
    assert "the attempt also holds helper.py; hand in only game.py" in feedback


# ---- reruns: what changed is graded again, and the reason said --------------------------------


def _quick_rubric(tmp_path: Path, title: str = "quick") -> Path:
    text = COURSE_TOML.read_text()
    for old, new in (
        ("games = 3 ", "games = 1 "),
        ("drop_probes = 10 ", "drop_probes = 2 "),
        ("move_probes = 10 ", "move_probes = 2 "),
        ('title = "HW8 Teeko / Teeko2 (course rubric)"', f'title = "{title}"'),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / f"{title}.toml"
    path.write_text(text)
    return path


def _rerun(run_cli, folder: Path, out: Path, rubric: Path, *extra: str):  # type: ignore[no-untyped-def]
    done = run_cli(
        "grade", str(folder), "-a", "teeko2", "--out", str(out), "--rubric", str(rubric), *extra
    )
    assert done.returncode == 0, done.stderr
    return done


@pytest.mark.slow
def test_a_rerun_grades_again_exactly_what_changed_and_says_why(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    students = _class(folder, size=3)
    rubric = _quick_rubric(tmp_path)
    _rerun(run_cli, folder, out, rubric)
    first, starter_score = _records(out), int(_rows(out)["student01"]["score"])

    same = _rerun(run_cli, folder, out, rubric)
    assert _records(out) == first, "nothing changed: nothing is graded again"
    assert "3 students already had a grade" in same.stderr and "graded again:" not in same.stderr

    (folder / "student01.py").write_text(fast_solution("teeko2"))  # was the starter
    changed = _rerun(run_cli, folder, out, rubric)
    assert "graded again: the submission changed: 1" in changed.stderr
    after = _records(out)
    assert [s for s in students if after[s] != first[s]] == ["student01"]
    assert int(_rows(out)["student01"]["score"]) > starter_score, "the new file's grade"

    other = _quick_rubric(tmp_path, "stricter")
    _rerun(run_cli, folder, out, other)
    assert set(_records(out)) == set(students)
    assert all(_records(out)[s] != after[s] for s in students), "another rubric: all again"


@pytest.mark.slow
def test_only_grades_the_named_students_again(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    students = _class(folder, size=2)
    rubric = _quick_rubric(tmp_path)
    _rerun(run_cli, folder, out, rubric)
    first = _records(out)
    _rerun(run_cli, folder, out, rubric, "--only", "student00")
    assert [s for s in students if _records(out)[s] != first[s]] == ["student00"]
    wrong = run_cli(
        "grade",
        str(folder),
        "-a",
        "teeko2",
        "--out",
        str(out),
        "--only",
        "nobody",
        expect_ok=False,
    )
    assert wrong.returncode == 2
    assert wrong.stderr.strip().splitlines()[-1].startswith("autograder: --only: no student nobody")


@pytest.mark.slow
def test_a_grade_made_by_another_rubric_never_reaches_the_grade_sheet(tmp_path, run_cli):
    """Two records by two rubrics in one folder (a rerun interrupted, say): the sheet holds
    only the grades made the way this run grades, and says which it left out."""
    folder, out = tmp_path / "class", tmp_path / "out"
    _class(folder, size=2)
    _rerun(run_cli, folder, out, _quick_rubric(tmp_path, "old"))
    newer = _rerun(run_cli, folder, out, _quick_rubric(tmp_path, "new"), "--only", "student00")
    assert sorted(_rows(out)) == ["student00"]
    assert "left out of the grade sheet: 1 students graded another way" in newer.stderr


@pytest.mark.slow
def test_each_feedback_ends_with_the_command_that_gives_its_grade_again(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    _class(folder, size=1)
    rubric = _quick_rubric(tmp_path)
    _rerun(run_cli, folder, out, rubric)
    feedback = (out / "students" / "student00" / "feedback.md").read_text()
    command = feedback.rstrip().splitlines()[-2]
    assert command.startswith("autograder grade ") and "--only student00" in command
    before = _rows(out)["student00"]
    words = shlex.split(command, comments=True)
    done = run_cli(*words[1:])
    assert done.returncode == 0, done.stderr
    assert _rows(out)["student00"] == before


# ---- roster names and the late penalty ---------------------------------------------------------

ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
    "    Points Possible,,,,,100\n"
    '"Badger, Bucky",123,9001,bbadger@wisc.edu,LEC 001,\n'
    '"Chen, Eve",124,9002,echen,LEC 001,\n'
    '"Lee, Kim",125,9003,klee,LEC 002,\n'
)


@pytest.mark.slow
def test_roster_names_mismatches_and_the_late_penalty_reach_the_outputs(tmp_path, run_cli):
    folder, out = tmp_path / "canvas", tmp_path / "out"
    folder.mkdir()
    (folder / "badgerbucky_LATE_123_456_game.py").write_text(fast_solution("teeko2"))
    (folder / "chene_124_457_game.py").write_text(fast_solution("teeko2"))
    (folder / "ghost_777_458_game.py").write_text(fast_solution("teeko2"))
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    rubric = _quick_rubric(tmp_path)
    rubric.write_text(rubric.read_text() + "\n[late]\npenalty = 10\n")
    done = _rerun(run_cli, folder, out, rubric, "--roster", str(roster))
    rows = _rows(out)  # the roster names each Canvas user: its login, not the user id
    assert rows["bbadger"]["name"] == "Badger, Bucky" and rows["echen"]["name"] == "Chen, Eve"
    assert rows["bbadger"]["late"] == "yes" and rows["bbadger"]["late_penalty"] == "-10"
    assert rows["echen"]["late_penalty"] == "0"
    assert float(rows["bbadger"]["score"]) == float(rows["echen"]["score"]) - 10
    feedback = (out / "students" / "bbadger" / "feedback.md").read_text()
    assert "| late penalty (`late_penalty`) | -10 | Canvas marked the submission late: -10 |" in (
        feedback
    )
    summary = (out / "summary.md").read_text()
    warnings = summary[summary.index("## Warnings") : summary.index("## Scores")]
    assert "- roster: Lee, Kim (login klee, ID 125) has no grade; left blank" in warnings
    assert "- roster: 777 (Canvas id 777) is graded but not on the roster" in warnings
    assert "roster: Lee, Kim (login klee, ID 125) has no grade" in done.stderr
    assert "| bbadger (Badger, Bucky) |" in summary


def test_an_unusable_roster_stops_the_command_before_anything_is_graded(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    _class(folder, size=1)
    roster = tmp_path / "roster.csv"
    roster.write_text("Student,ID\nBadger,123\n")
    done = run_cli(
        "grade",
        str(folder),
        "-a",
        "teeko2",
        "--out",
        str(out),
        "--roster",
        str(roster),
        expect_ok=False,
    )
    assert done.returncode == 2
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith(
            f"autograder: the roster {roster} lacks the columns 'SIS User ID', 'SIS Login ID', "
            "'Section'"
        )
    )
    assert not (out / "students").exists()


# ---- the output folder: checked before grading, never half written, never stale ---------------


def _empty_zips(folder: Path, students: list[str]) -> Path:
    """Submissions with nothing to grade (no game.py): each is graded in an instant, to zero,
    and saved like any other, so these tests run no game."""
    folder.mkdir(parents=True, exist_ok=True)
    for student in students:
        with zipfile.ZipFile(folder / f"hw8_{student}.zip", "w") as archive:
            archive.writestr("notes.txt", "no game here")
    return folder


def test_grading_a_class_is_one_function_that_tells_what_it_did(tmp_path):
    """The classroom layer's call under ``autograder grade``: a plain request in; the files
    written, the lines for the instructor and the progress, student by student, out."""
    folder = _empty_zips(tmp_path / "class", ["alice", "bob"])
    said: list[str] = []
    progress: list[tuple[str, int, int, str]] = []

    @contextlib.contextmanager
    def track(what: str):  # type: ignore[no-untyped-def]
        yield lambda done, total, text: progress.append((what, done, total, text))

    request = ClassRequest((str(folder),), "teeko2", tmp_path / "out", jobs=1)
    graded = grade_class.grade_class(request, Listener(said.append, track=track))
    out = tmp_path / "out"
    assert graded.written == (
        out / "grades.csv",
        out / "summary.md",
        out / "summary.html",
        out / "histogram.svg",
    )
    assert (graded.graded, graded.problem, graded.interrupted) == (2, None, False)
    assert "grading 2 students as teeko2, seed 0, 1 at a time, rubric built-in rubric of " in (
        "\n".join(said)
    )
    assert progress == [("grading", 1, 2, "graded alice: 0"), ("grading", 2, 2, "graded bob: 0")]
    assert sorted(_rows(out)) == ["alice", "bob"]


def _grade_here(capsys, *args: str) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    """``autograder grade ARGS`` in this process (so a test can break its writes); the exit
    status and what it printed on stderr."""
    status = main(["grade", *args, "-a", "teeko2", "--jobs", "1"])
    return status, capsys.readouterr().err


def test_an_out_that_names_a_file_is_one_sentence_before_grading(tmp_path, capsys):
    folder = _empty_zips(tmp_path / "class", ["alice"])
    (tmp_path / "out").write_text("not a folder")
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines() == [
        f"autograder: --out {tmp_path / 'out'} is a file, not a folder; name a folder (made if "
        "missing)"
    ]


def test_a_folder_where_the_grade_sheet_goes_is_one_sentence(tmp_path, capsys):
    folder = _empty_zips(tmp_path / "class", ["alice"])
    (tmp_path / "out" / "grades.csv").mkdir(parents=True)
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: {tmp_path / 'out' / 'grades.csv'} is a folder where the grader writes a "
        f"file; move it out of {tmp_path / 'out'}"
    )
    assert not (tmp_path / "out" / "students").exists(), "nobody was graded"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_out_is_one_sentence_before_grading(tmp_path, capsys):
    folder = _empty_zips(tmp_path / "class", ["alice"])
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        status, err = _grade_here(capsys, str(folder), "--out", str(out))
    finally:
        out.chmod(0o755)
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: cannot write into {out}: Permission denied; choose another --out or make "
        "it writable"
    )


def test_an_out_that_cannot_be_written_is_one_sentence_even_as_root(tmp_path, capsys, monkeypatch):
    """Root writes into a folder without write permission; a read-only mount refuses it: the
    probe file is what tells, so a refused probe is the read-only folder."""
    folder = _empty_zips(tmp_path / "class", ["alice"])

    def read_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(outputs.tempfile, "TemporaryFile", read_only)
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: cannot write into {tmp_path / 'out'}: Read-only file system; choose another "
        "--out or make it writable"
    )


def test_too_little_space_for_the_class_is_one_sentence_before_grading(
    tmp_path, capsys, monkeypatch
):
    students = [f"s{i}" for i in range(20)]
    folder = _empty_zips(tmp_path / "class", students)
    usage = shutil.disk_usage(tmp_path)
    free = outputs.STUDENT_BYTES * 20  # the reports fit, the margin does not
    monkeypatch.setattr(outputs.shutil, "disk_usage", lambda path: usage._replace(free=free))
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: not enough space for the reports in {tmp_path / 'out'}: 4.0 MB free, about "
        "9 MB needed for 20 students; free some space or choose another --out"
    )
    assert not (tmp_path / "out" / "students").exists(), "nobody was graded"


def test_a_disk_that_fills_up_mid_batch_keeps_every_grade_saved(tmp_path, capsys, monkeypatch):
    """The third student's files do not fit: the batch stops with one sentence, exit 2; the
    two saved are in grades.csv, the third has no folder at all (not half of one)."""
    students = ["alice", "bob", "carol", "dave"]
    folder = _empty_zips(tmp_path / "class", students)
    out = tmp_path / "out"
    real, calls = student_folder.replace_folder, []

    def fills_up(target: Path, files) -> None:  # type: ignore[no-untyped-def]
        calls.append(target.name)
        if len(calls) < 3:
            return real(target, files)
        partial = {name: text for name, text in list(files.items())[:1]}
        real(target.with_name(".half"), partial)  # some bytes reach the disk, then it is full
        shutil.rmtree(target.with_name(".half"))
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(student_folder, "replace_folder", fills_up)
    status, err = _grade_here(capsys, str(folder), "--out", str(out))
    assert status == 2
    last = err.strip().splitlines()[-1]
    assert last == (
        f"autograder: cannot write {out / 'students' / 'carol'}: No space left on device, so "
        f"grading stopped; 2 students are graded and saved in {out / 'students'}, and the same "
        "command grades the rest once the folder has space and can be written (the grades "
        "saved are kept)"
    )
    assert "Traceback" not in err and "graded another way" not in err
    assert calls == ["alice", "bob", "carol"], "the batch stopped at the first failed write"
    assert sorted(_rows(out)) == ["alice", "bob"]
    assert sorted(p.name for p in (out / "students").iterdir()) == ["alice", "bob"]

    monkeypatch.setattr(student_folder, "replace_folder", real)  # space again: the rest is graded
    status, err = _grade_here(capsys, str(folder), "--out", str(out))
    assert status == 0, err
    assert "2 students already had a grade" in err
    assert sorted(_rows(out)) == students


def test_a_grade_sheet_that_cannot_be_written_keeps_the_grades(tmp_path, capsys, monkeypatch):
    folder = _empty_zips(tmp_path / "class", ["alice"])
    out = tmp_path / "out"

    def full(records, path):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(grade_class, "write_grades_csv", full)
    status, err = _grade_here(capsys, str(folder), "--out", str(out))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: cannot write the grade sheet and summary into {out}: No space left on "
        f"device; 1 students are graded and saved in {out / 'students'}: run the same command "
        "again once the folder has space and can be written, it grades nobody again and writes "
        "the grade sheet"
    )
    assert (out / "students" / "alice" / "record.json").is_file()


def test_a_regrade_without_the_roster_removes_the_old_canvas_import(tmp_path, capsys):
    """An earlier run with --roster wrote canvas_import.csv; a run without it must not leave
    that file beside a grade sheet it no longer agrees with."""
    folder = _empty_zips(tmp_path / "class", ["bbadger"])
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    status, err = _grade_here(capsys, str(folder), "--out", str(out), "--roster", str(roster))
    assert status == 0, err
    assert (out / "canvas_import.csv").is_file()
    status, err = _grade_here(capsys, str(folder), "--out", str(out), "--regrade")
    assert status == 0, err
    assert not (out / "canvas_import.csv").exists()
    assert (
        f"removed {out / 'canvas_import.csv'}: it held an earlier run's grades; give --roster to "
        "write it again"
    ) in err.splitlines()
    assert sorted(p.name for p in out.iterdir()) == [
        "grades.csv",
        "histogram.svg",
        "students",
        "summary.html",
        "summary.md",
    ]


def test_the_command_that_gives_a_grade_again_carries_the_roster(tmp_path, capsys):
    folder = _empty_zips(tmp_path / "class", ["bbadger"])
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    status, err = _grade_here(
        capsys, str(folder), "--out", str(out), "--roster", str(roster), "--seed", "7"
    )
    assert status == 0, err
    feedback = (out / "students" / "bbadger" / "feedback.md").read_text()
    command = shlex.split(feedback.rstrip().splitlines()[-2], comments=True)
    assert command[:2] == ["autograder", "grade"]
    assert command[command.index("--roster") + 1] == str(roster)
    assert command[command.index("--seed") + 1] == "7"
    assert command[command.index("--only") + 1] == "bbadger"


# ---- a missing sandbox layer is said once, at the top ------------------------------------------


def test_a_machine_without_the_fence_is_said_once_with_the_install_line(
    tmp_path, capsys, monkeypatch
):
    folder = _empty_zips(tmp_path / "class", ["alice", "bob"])
    monkeypatch.setattr(grade_class, "available", lambda: Protections(resource_limits=True))
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 0, err
    said = [line for line in err.splitlines() if "without the filesystem fence" in line]
    assert len(said) == 1
    assert said[0].startswith(
        "warning: this machine grades the submissions without the filesystem fence (a "
        "submission can read every file the grader can, and reach the network; to get it: apt "
        "install bubblewrap"
    )
    assert err.splitlines().index(said[0]) == 1, "right under the run's settings"


def test_a_machine_with_every_layer_says_nothing_of_them(tmp_path, capsys, monkeypatch):
    folder = _empty_zips(tmp_path / "class", ["alice"])
    whole = Protections(True, fence=True, cgroups=Support(2, (("", Path("/x")),)), seccomp=True)
    monkeypatch.setattr(grade_class, "available", lambda: whole)
    status, err = _grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 0, err
    assert "without" not in err and "bubblewrap" not in err


@pytest.mark.slow
def test_a_class_graded_without_the_sandbox_says_so_in_the_terminal_and_summary(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    _class(folder, size=1)
    done = run_cli(
        "grade",
        str(folder),
        "-a",
        "teeko2",
        "--out",
        str(out),
        "--rubric",
        str(_quick_rubric(tmp_path)),
        env={"TEEKO_SANDBOX": "off"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("apt install bubblewrap") == 1
    record = json.loads((out / "students" / "student00" / "record.json").read_text())
    assert record["missing_layers"] == ["fence", "cgroups", "seccomp"]
    for name in ("summary.md", "summary.html"):
        text = (out / name).read_text()
        assert "1 of 1 graded students were graded without the filesystem fence" in text
        assert "to get it: apt install bubblewrap" in text


def test_a_student_folder_no_input_holds_is_named_and_kept(tmp_path, capsys):
    """A folder graded earlier from other inputs disagrees with nothing (the sheet leaves it
    out) but is said, and never deleted: it may be the only copy of that grade."""
    out = tmp_path / "out"
    status, err = _grade_here(
        capsys, str(_empty_zips(tmp_path / "a", ["alice", "bob"])), "--out", str(out)
    )
    assert status == 0, err
    status, err = _grade_here(
        capsys, str(_empty_zips(tmp_path / "b", ["alice"])), "--out", str(out)
    )
    assert status == 0, err
    assert (
        f"left out of the grade sheet: 1 student folders in {out / 'students'} that none of "
        "these inputs holds: bob; remove them, or grade with their inputs too"
    ) in err.splitlines()
    assert sorted(_rows(out)) == ["alice"] and (out / "students" / "bob" / "record.json").is_file()
