"""``autograder grade``: a class graded in real processes, in parallel, resumable after a kill."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.classroom import grade_class
from autograder.play.cgroups import Support
from autograder.play.sandbox import Protections
from tests.batch_class import ROSTER, empty_zips, grade_here, grade_rows
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
    one, two = grade_rows(tmp_path / "out1"), grade_rows(tmp_path / "out2")
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
    one, every = (
        grade_rows(tmp_path / "one")["student01"],
        grade_rows(tmp_path / "all")["student01"],
    )
    assert {k: v for k, v in one.items() if k != "source"} == {
        k: v for k, v in every.items() if k != "source"
    }


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_same_file_handed_in_twice_gets_one_grade_the_one_check_gives(tmp_path, run_cli):
    """The whole class is graded on the same probes and games (the batch seed): two students
    handing in the same player, whose faults follow the seed of its ``random``, get the same
    grade, and ``check`` with that seed gives it too, as the README promises students."""
    folder = tmp_path / "class"
    folder.mkdir()
    key = (ROOT / "answer_key" / "teeko2" / "game.py").read_text()  # a fixed depth: no clock
    unlucky = key.replace(
        "    def make_move(self, state) -> list:\n",
        "    def make_move(self, state) -> list:\n        if __import__('random').random() < 0.3:\n"
        "            raise ValueError('unlucky')\n",
        1,
    )
    assert "unlucky" in unlucky
    for student in ("ann", "bob"):
        (folder / f"{student}.py").write_text(unlucky)
    run_cli("grade", str(folder), "-a", "teeko2", "--out", str(tmp_path / "out"), "--seed", "7")
    rows = grade_rows(tmp_path / "out")
    keep = ("score", "rules", "state", "format", "time", "wins", "output")
    assert {k: rows["ann"][k] for k in keep} == {k: rows["bob"][k] for k in keep}
    checked = tmp_path / "ann.json"
    run_cli("check", str(folder / "ann.py"), "-a", "teeko2", "--seed", "7", "--json", str(checked))
    assert json.loads(checked.read_text())["score"] == float(rows["ann"]["score"])


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
    if how == signal.SIGINT:  # the partial outputs say so; the log showed each student
        incomplete = f"incomplete: {len(before)} of {len(students)} students graded"
        assert incomplete in (out / "summary.md").read_text()
        assert "grading: 1 of 6, about" in stderr
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
    assert sorted(grade_rows(out)) == students


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
    row = grade_rows(out)["123"]
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
    first, starter_score = _records(out), int(grade_rows(out)["student01"]["score"])

    same = _rerun(run_cli, folder, out, rubric)
    assert _records(out) == first, "nothing changed: nothing is graded again"
    assert "3 students already had a grade" in same.stderr and "graded again:" not in same.stderr

    (folder / "student01.py").write_text(fast_solution("teeko2"))  # was the starter
    changed = _rerun(run_cli, folder, out, rubric)
    assert "graded again: the submission changed: 1" in changed.stderr
    after = _records(out)
    assert [s for s in students if after[s] != first[s]] == ["student01"]
    assert int(grade_rows(out)["student01"]["score"]) > starter_score, "the new file's grade"

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
    assert sorted(grade_rows(out)) == ["student00"]
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
    before = grade_rows(out)["student00"]
    words = shlex.split(command, comments=True)
    done = run_cli(*words[1:])
    assert done.returncode == 0, done.stderr
    assert grade_rows(out)["student00"] == before


# ---- roster names and the late penalty ---------------------------------------------------------


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
    rows = grade_rows(out)  # the roster names each Canvas user: its login, not the user id
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


# ---- a missing sandbox layer is said once, at the top ------------------------------------------


def test_a_machine_without_the_fence_is_said_once_with_the_install_line(
    tmp_path, capsys, monkeypatch
):
    folder = empty_zips(tmp_path / "class", ["alice", "bob"])
    monkeypatch.setattr(grade_class, "available", lambda: Protections(resource_limits=True))
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
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
    folder = empty_zips(tmp_path / "class", ["alice"])
    whole = Protections(True, fence=True, cgroups=Support(2, (("", Path("/x")),)), seccomp=True)
    monkeypatch.setattr(grade_class, "available", lambda: whole)
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
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
    status, err = grade_here(
        capsys, str(empty_zips(tmp_path / "a", ["alice", "bob"])), "--out", str(out)
    )
    assert status == 0, err
    status, err = grade_here(capsys, str(empty_zips(tmp_path / "b", ["alice"])), "--out", str(out))
    assert status == 0, err
    assert (
        f"left out of the grade sheet: 1 student folders in {out / 'students'} that none of "
        "these inputs holds: bob; remove them, or grade with their inputs too"
    ) in err.splitlines()
    assert (
        sorted(grade_rows(out)) == ["alice"]
        and (out / "students" / "bob" / "record.json").is_file()
    )
