"""Guards that nothing else in the suite fails without: two Canvas users never share a row, a
file written whole or not at all, the write probe of the students' folder, similarity's refusal
of links and its minimum of shared fingerprints, and a cluster worker's paths kept out of a
student's feedback. Each test here fails when its guard is removed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import autograder.classroom.outputs as outputs
from autograder.classroom.cluster import grade_remotely
from autograder.classroom.collect import collect
from autograder.classroom.fingerprint import Fingerprint
from autograder.classroom.handin import Homework, shipped_files, take_in
from autograder.classroom.outputs import check_output
from autograder.classroom.similarity import compare_class, kit_boilerplate
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.games import find_assignment
from autograder.grading.report import REPRODUCE
from autograder.grading.rubric import load_rubric
from autograder.grading.similarity import Settings
from tests.conftest import SOLUTIONS, course_rubric

TEEKO2 = find_assignment("teeko2")
PATTERN = course_rubric().packaging_pattern
GAME = "class Teeko2Player:\n    pass\n"


def test_two_canvas_users_the_roster_gives_one_login_keep_two_rows(tmp_path):
    """A roster that gives two Canvas users one login (a typo, a reused account) must not
    merge them: each keeps its own row, shown by its own id."""
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "smithann_101_9001_game.py").write_text(GAME)
    (folder / "smithanne_102_9002_game.py").write_text(GAME + "# the other one\n")
    found = collect([folder], tmp_path / "work", PATTERN, "game.py", {"101": "as", "102": "as"})
    assert sorted(e.key for e in found.entries) == ["101", "102"]
    assert len({e.student for e in found.entries}) == 2, [e.student for e in found.entries]


def test_a_file_written_whole_or_not_at_all_keeps_its_old_content_when_writing_fails(
    tmp_path, monkeypatch
):
    path = tmp_path / "grades.csv"
    path.write_text("the old grades\n")

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    with pytest.raises(OSError):
        write_atomic(path, "the new grades, half written\n")
    assert path.read_text() == "the old grades\n"
    assert [p.name for p in tmp_path.iterdir()] == ["grades.csv"]  # no leftover beside it


def test_a_students_folder_the_grader_cannot_write_is_refused_before_any_grading(
    tmp_path, monkeypatch
):
    """Root writes anywhere, so the folder's refusal is played by the probe's file."""
    out = tmp_path / "grades"
    (out / "students").mkdir(parents=True)
    real = outputs.tempfile.TemporaryFile

    def refusing(*args, **kwargs):  # type: ignore[no-untyped-def]
        if Path(kwargs.get("dir", "")) == out / "students":
            raise PermissionError(13, "Permission denied")
        return real(*args, **kwargs)

    monkeypatch.setattr(outputs.tempfile, "TemporaryFile", refusing)
    with pytest.raises(GraderError, match=r"cannot write into .*students: Permission denied"):
        check_output(out, 3)


def test_similarity_reads_no_file_through_a_link(tmp_path):
    """A student's folder holding a link to a file of the instructor's (here: the course's
    solution) compares nothing of that file: the link is refused, in the student's note."""
    secret = tmp_path / "instructor" / "solution.py"
    secret.parent.mkdir()
    secret.write_text(SOLUTIONS["teeko2"].read_text())
    folder = tmp_path / "class"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "game.py").write_text(secret.read_text())
    (folder / "mallory").mkdir()
    (folder / "mallory" / "game.py").write_text("print('mine')\n")
    (folder / "mallory" / "helper.py").symlink_to(secret)
    comparison, _ = compare_class([folder], TEEKO2, PATTERN, ignore=kit_boilerplate(TEEKO2))
    mallory = next(d for d in comparison.documents if d.name == "mallory")
    assert "helper.py" not in [f.name for f in mallory.files]
    assert any("symbolic link" in note for note in mallory.notes), mallory.notes
    assert not any(p.flagged for p in comparison.pairs)


def test_similarity_flags_no_pair_below_its_minimum_of_shared_fingerprints(tmp_path):
    """Two tiny files that are the same share everything but too little to prove a copy."""
    folder = tmp_path / "class"
    folder.mkdir()
    tiny = "def f(a, b):\n    return a + b * 2\n"
    (folder / "ann.py").write_text(tiny)
    (folder / "ben.py").write_text(tiny)
    settings = Settings()
    comparison, _ = compare_class([folder], TEEKO2, PATTERN, settings=settings)
    (pair,) = comparison.pairs
    assert pair.share_a >= settings.threshold and pair.shared < settings.min_shared
    assert not pair.flagged


@pytest.mark.timeout(120)
def test_a_cluster_workers_folder_never_reaches_a_students_feedback(tmp_path):
    """A worker grades the bytes the instructor's intake sent into a folder of its own, which
    it deletes: the feedback names the submission as the instructor handed it in, and its
    "Reproduce this grade" command is the instructor's, never the worker's folder."""
    (tmp_path / "class").mkdir()
    (tmp_path / "class" / "ann.py").write_text("import helper\n")
    (tmp_path / "class" / "helper.py").write_text("raise ValueError('broken on import')\n")
    homework = Homework(TEEKO2.main_file, TEEKO2.pack.files, TEEKO2.pack)
    (entry,) = take_in([tmp_path / "class" / "ann.py"], tmp_path / "work", homework).entries
    command = "autograder grade class --assignment teeko2 --only ann.py"
    print_ = Fingerprint("kit", "rubric", "teeko2", "1", "digest")
    rubric = load_rubric(None, TEEKO2.pack)
    record, made = grade_remotely(
        (entry, print_, command), shipped_files(entry), "teeko2", rubric, 1
    )
    feedback = made["feedback.md"].decode()
    assert "teeko-remote-" not in feedback and "teeko-remote-" not in made["record.json"].decode()
    assert "- submission: ann.py (graded as game.py)" in feedback
    assert f"{REPRODUCE}\n\n```sh\n{command}\n```" in feedback
    assert record.status == "graded" and record.score == 0
