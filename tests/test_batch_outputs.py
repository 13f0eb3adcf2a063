"""`autograder grade`'s output folder: checked before grading, never half written, never stale."""

from __future__ import annotations

import contextlib
import errno
import os
import shlex
import shutil
import zipfile
from pathlib import Path

import pytest

from autograder.classroom import grade_class, outputs, student_folder
from autograder.classroom.class_run import Listener
from autograder.classroom.grade_class import ClassRequest
from tests.batch_class import ROSTER, empty_zips, grade_here, grade_rows

# ---- the output folder: checked before grading, never half written, never stale ---------------


def test_grading_a_class_is_one_function_that_tells_what_it_did(tmp_path):
    """The classroom layer's call under ``autograder grade``: a plain request in; the files
    written, the lines for the instructor and the progress, student by student, out."""
    folder = empty_zips(tmp_path / "class", ["alice", "bob"])
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
    assert (
        "grading 2 students as teeko2, seed 0, 1 at a time, by HW8 Teeko / Teeko2 (course rubric) "
        "[built-in rubric of teeko], into "
    ) in "\n".join(said)
    assert progress == [("grading", 1, 2, "graded alice: 0"), ("grading", 2, 2, "graded bob: 0")]
    assert sorted(grade_rows(out)) == ["alice", "bob"]


def test_an_out_that_names_a_file_is_one_sentence_before_grading(tmp_path, capsys):
    folder = empty_zips(tmp_path / "class", ["alice"])
    (tmp_path / "out").write_text("not a folder")
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines() == [
        f"autograder: --out {tmp_path / 'out'} is a file, not a folder; name a folder (made if "
        "missing)"
    ]


@pytest.mark.parametrize("option", ["--out", "--roster"])
def test_a_name_too_long_for_the_system_is_one_sentence_before_grading(tmp_path, capsys, option):
    folder = empty_zips(tmp_path / "class", ["alice"])
    long = tmp_path / ("d" * 300)
    extra = ("--out", str(tmp_path / "out")) if option == "--roster" else ()
    status, err = grade_here(capsys, str(folder), option, str(long), *extra)
    assert status == 2
    shown = str(long)[:77] + "..."
    assert err.strip().splitlines() == [
        f"autograder: cannot use {shown}: File name too long; choose a shorter name"
    ]
    assert not (tmp_path / "out" / "students").exists(), "nobody was graded"


def test_a_folder_where_the_grade_sheet_goes_is_one_sentence(tmp_path, capsys):
    folder = empty_zips(tmp_path / "class", ["alice"])
    (tmp_path / "out" / "grades.csv").mkdir(parents=True)
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: {tmp_path / 'out' / 'grades.csv'} is a folder where the grader writes a "
        f"file; move it out of {tmp_path / 'out'}"
    )
    assert not (tmp_path / "out" / "students").exists(), "nobody was graded"


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_out_is_one_sentence_before_grading(tmp_path, capsys):
    folder = empty_zips(tmp_path / "class", ["alice"])
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    try:
        status, err = grade_here(capsys, str(folder), "--out", str(out))
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
    folder = empty_zips(tmp_path / "class", ["alice"])

    def read_only(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise OSError(errno.EROFS, os.strerror(errno.EROFS))

    monkeypatch.setattr(outputs.tempfile, "TemporaryFile", read_only)
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
    assert status == 2
    assert err.strip().splitlines()[-1] == (
        f"autograder: cannot write into {tmp_path / 'out'}: Read-only file system; choose another "
        "--out or make it writable"
    )


def test_too_little_space_for_the_class_is_one_sentence_before_grading(
    tmp_path, capsys, monkeypatch
):
    students = [f"s{i}" for i in range(20)]
    folder = empty_zips(tmp_path / "class", students)
    usage = shutil.disk_usage(tmp_path)
    free = outputs.STUDENT_BYTES * 20  # the reports fit, the margin does not
    monkeypatch.setattr(outputs.shutil, "disk_usage", lambda path: usage._replace(free=free))
    status, err = grade_here(capsys, str(folder), "--out", str(tmp_path / "out"))
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
    folder = empty_zips(tmp_path / "class", students)
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
    status, err = grade_here(capsys, str(folder), "--out", str(out))
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
    assert sorted(grade_rows(out)) == ["alice", "bob"]
    assert sorted(p.name for p in (out / "students").iterdir()) == ["alice", "bob"]

    monkeypatch.setattr(student_folder, "replace_folder", real)  # space again: the rest is graded
    status, err = grade_here(capsys, str(folder), "--out", str(out))
    assert status == 0, err
    assert "2 students already had a grade" in err
    assert sorted(grade_rows(out)) == students


def test_a_grade_sheet_that_cannot_be_written_keeps_the_grades(tmp_path, capsys, monkeypatch):
    folder = empty_zips(tmp_path / "class", ["alice"])
    out = tmp_path / "out"

    def full(records, path):  # type: ignore[no-untyped-def]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(path))

    monkeypatch.setattr(grade_class, "write_grades_csv", full)
    status, err = grade_here(capsys, str(folder), "--out", str(out))
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
    folder = empty_zips(tmp_path / "class", ["bbadger"])
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    status, err = grade_here(capsys, str(folder), "--out", str(out), "--roster", str(roster))
    assert status == 0, err
    assert (out / "canvas_import.csv").is_file()
    status, err = grade_here(capsys, str(folder), "--out", str(out), "--regrade")
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


def test_a_roster_given_later_keeps_each_grade_and_renames_its_folder(tmp_path, capsys):
    """Without a roster the rows are Canvas ids; with it, logins. The students are the same
    (their Canvas ids), so nobody is graded again nor called a stranger."""
    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("badgerbucky_123_456_hw8_bbadger.zip", "chene_124_457_hw8_echen.zip"):
        with zipfile.ZipFile(folder / name, "w") as archive:
            archive.writestr("notes.txt", "no game here")
    out = tmp_path / "out"
    status, err = grade_here(capsys, str(folder), "--out", str(out))
    assert status == 0, err
    assert sorted(p.name for p in (out / "students").iterdir()) == ["123", "124"]
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    status, err = grade_here(capsys, str(folder), "--out", str(out), "--roster", str(roster))
    assert status == 0, err
    assert sorted(p.name for p in (out / "students").iterdir()) == ["bbadger", "echen"]
    assert f"2 students already had a grade in {out}" in err
    assert "left out of the grade sheet" not in err
    assert sorted(grade_rows(out)) == ["bbadger", "echen"]


def test_the_command_that_gives_a_grade_again_carries_the_roster(tmp_path, capsys):
    folder = empty_zips(tmp_path / "class", ["bbadger"])
    out = tmp_path / "out"
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    status, err = grade_here(
        capsys, str(folder), "--out", str(out), "--roster", str(roster), "--seed", "7"
    )
    assert status == 0, err
    feedback = (out / "students" / "bbadger" / "feedback.md").read_text()
    command = shlex.split(feedback.rstrip().splitlines()[-2], comments=True)
    assert command[:2] == ["autograder", "grade"]
    assert command[command.index("--roster") + 1] == str(roster)
    assert command[command.index("--seed") + 1] == "7"
    assert command[command.index("--only") + 1] == "bbadger"
