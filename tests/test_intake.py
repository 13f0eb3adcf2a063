"""What a student hands in: a game.py, a folder or a zip, unpacked safely, with packaging notes."""

from __future__ import annotations

import json
import stat
import zipfile
from pathlib import Path

import pytest

from autograder.classroom.intake import (
    MAX_ENTRIES,
    MAX_UNPACKED,
    Submission,
    choose_assignment,
    open_submission,
    packaging_problems,
)
from autograder.errors import GraderError
from tests.conftest import course_rubric

RUBRIC = course_rubric()
GAME = "class Teeko2Player:\n    pass\n"


def _zip(path: Path, entries: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in entries.items():
            bundle.writestr(name, data)
    return path


def _open(path: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return open_submission(path, work)


def _packaging(submission: Submission) -> list[str] | None:
    return packaging_problems(
        submission, RUBRIC.packaging_pattern, RUBRIC.packaging_example, ("game.py",)
    )


def test_a_well_packaged_zip_has_no_packaging_problem(tmp_path):
    submission = _open(_zip(tmp_path / "hw8_bbadger.zip", {"game.py": GAME}), tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert _packaging(submission) == []


def test_a_badly_packaged_zip_is_graded_and_its_problems_listed(tmp_path):
    bundle = _zip(
        tmp_path / "homework.zip",
        {"hw8/game.py": GAME, "hw8/notes.txt": "hi", "__MACOSX/hw8/._game.py": "x"},
    )
    submission = _open(bundle, tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert _packaging(submission) == [
        "the zip is named 'homework.zip', not hw8_<netid>.zip",
        "the zip should hold only game.py at its top level, but holds ['hw8/game.py', "
        "'hw8/notes.txt']",
    ]


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        (
            {"../evil.py": "x", "game.py": GAME},
            "holds the entry '../evil.py', which points outside",
        ),
        ({"/etc/evil.py": "x"}, "holds the entry '/etc/evil.py', which points outside"),
        ({"notes.txt": "x"}, r"holds no game.py \(it holds notes.txt\)"),
        ({"a/game.py": GAME, "b/game.py": GAME}, "holds several game.py files"),
        ({"game.ipynb": "{}"}, r"game.ipynb is not a notebook that can be read \(.*\); download"),
        ({}, r"holds no game.py \(it is empty\)"),
    ],
    ids=["dot-dot", "absolute", "no game.py", "two game.py", "notebook", "empty"],
)
def test_an_unusable_zip_is_refused_in_one_sentence(tmp_path, entries, message):
    with pytest.raises(GraderError, match=message):
        _open(_zip(tmp_path / "hw8_x.zip", entries), tmp_path)
    assert not (tmp_path / "evil.py").exists()


def test_a_symlink_in_a_zip_is_refused(tmp_path):
    path = tmp_path / "hw8_x.zip"
    with zipfile.ZipFile(path, "w") as bundle:
        link = zipfile.ZipInfo("game.py")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        bundle.writestr(link, "/etc/passwd")
    with pytest.raises(GraderError, match="holds the symlink 'game.py'"):
        _open(path, tmp_path)


def test_a_zip_bomb_is_refused(tmp_path):
    path = tmp_path / "hw8_x.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("game.py", b"\0" * (MAX_UNPACKED + 1))
    with pytest.raises(GraderError, match="unpacks to more than 50 MB"):
        _open(path, tmp_path)


@pytest.mark.parametrize("content", [b"this is not a zip", b"PK\x03\x04broken"])
def test_a_file_that_is_not_a_zip_is_named(tmp_path, content):
    path = tmp_path / "hw8_x.zip"
    path.write_bytes(content)
    with pytest.raises(GraderError, match="hw8_x.zip is not a readable zip file"):
        _open(path, tmp_path)


def test_a_folder_with_game_py_one_level_down_is_found(tmp_path):
    (tmp_path / "sub" / "hw8").mkdir(parents=True)
    (tmp_path / "sub" / "hw8" / "game.py").write_text(GAME)
    submission = _open(tmp_path / "sub", tmp_path)
    assert submission.source_dir == tmp_path / "work" / "submission" / "hw8"
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert _packaging(submission) is None


def _files(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_a_folder_is_graded_from_a_private_copy_without_junk(tmp_path):
    folder = tmp_path / "student"
    (folder / ".git").mkdir(parents=True)
    (folder / "__pycache__").mkdir()
    (folder / "lib").mkdir()
    for name in ("game.py", "lib/tables.py", "weights.txt", ".DS_Store", ".git/HEAD"):
        (folder / name).write_text(GAME)
    (folder / "__pycache__" / "game.cpython-311.pyc").write_bytes(b"\0")
    submission = _open(folder, tmp_path)
    assert _files(submission.source_dir) == ["game.py", "lib/tables.py", "weights.txt"]
    (submission.source_dir / "game.py").write_text("changed")
    assert (folder / "game.py").read_text() == GAME, "the student's own file is never touched"


def test_a_lone_file_brings_only_the_modules_it_imports(tmp_path):
    """A TA checking one student's file in a folder of classmates' files: only that file and
    the modules beside it that it imports (at any depth) go into the sandbox."""
    (tmp_path / "game.py").write_text("import helper\nfrom search import minimax\n" + GAME)
    (tmp_path / "helper.py").write_text("from . import tables\n")
    (tmp_path / "tables.py").write_text("TABLE = 1\n")
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "__init__.py").write_text("def minimax(): pass\n")
    (tmp_path / "classmate.py").write_text("SECRET = 1\n")
    (tmp_path / "notes.txt").write_text("private\n")
    submission = _open(tmp_path / "game.py", tmp_path)
    assert _files(submission.source_dir) == [
        "game.py",
        "helper.py",
        "search/__init__.py",
        "tables.py",
    ]


def test_a_folder_with_a_huge_helper_is_refused_naming_it(tmp_path):
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(GAME)
    with (folder / "helper.py").open("wb") as handle:
        handle.truncate(100 << 20)  # sparse: 100 MB that take no disk
    with pytest.raises(
        GraderError, match=r"holds more than 50 MB \('student/helper.py' is 100 MB\)"
    ):
        _open(folder, tmp_path)


def test_a_symlink_in_a_folder_is_refused_not_followed(tmp_path):
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(GAME)
    (folder / "data.txt").symlink_to("/etc/hostname")
    with pytest.raises(GraderError, match="holds the symbolic link 'student/data.txt'"):
        _open(folder, tmp_path)


@pytest.mark.parametrize(
    ("entries", "message"),
    [
        ({"game.py": GAME, "x" * 300 + ".py": "x"}, "a name too long to unpack"),
        ({"game.py": GAME, "a/" * 600 + "b.py": "x"}, "a name too long to unpack"),
        ({"game.py": GAME, "helper": "x", "helper/util.py": "x"}, "both as a file and as a folder"),
        ({"helper/util.py": "x", "helper": "x", "game.py": GAME}, "both as a file and as a folder"),
    ],
    ids=["long name", "long path", "file then folder", "folder then file"],
)
def test_names_no_file_system_takes_are_refused(tmp_path, entries, message):
    with pytest.raises(GraderError, match=message):
        _open(_zip(tmp_path / "hw8_x.zip", entries), tmp_path)


def test_a_python_file_with_another_name_is_graded_as_game_py(tmp_path):
    (tmp_path / "mine.py").write_text(GAME)
    submission = _open(tmp_path / "mine.py", tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert "graded as game.py" in submission.label


def test_other_files_are_refused(tmp_path):
    (tmp_path / "game.txt").write_text(GAME)
    with pytest.raises(GraderError, match="is not a game.py, a notebook, a folder or a zip"):
        _open(tmp_path / "game.txt", tmp_path)


@pytest.mark.parametrize(
    ("source", "variant"),
    [("class TeekoPlayer:\n", "teeko"), ("class Teeko2Player(object):\n", "teeko2")],
)
def test_the_assignment_is_inferred_from_the_class_name(tmp_path, source, variant):
    (tmp_path / "game.py").write_text(source)
    found, how = choose_assignment(None, Submission(tmp_path, "x"), "game.py")
    assert found.name == variant
    assert how is not None and how.startswith(f"assignment {variant} inferred from class")


def test_no_player_class_means_the_assignment_must_be_given(tmp_path):
    (tmp_path / "game.py").write_bytes(b"# \xff\xfe not UTF-8\nclass Player:\n")
    with pytest.raises(GraderError, match=r"classes found: Player\); pass --assignment"):
        choose_assignment(None, Submission(tmp_path, "x"), "game.py")


def _notebook(path: Path, cells: list[str]) -> Path:
    book = {
        "cells": [{"cell_type": "code", "source": cell, "metadata": {}} for cell in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    path.write_text(json.dumps(book))
    return path


def test_files_a_notebook_writes_with_writefile_are_there_as_running_it_leaves_them(tmp_path):
    book = _notebook(
        tmp_path / "hw.ipynb",
        [
            "%%writefile helpers.py\nDEPTH = 2\n",
            "%%writefile -a helpers.py\nWIDTH = 5\n",
            "%%writefile ../outside.py\nx = 1\n",  # out of its folder: written nowhere
            "from helpers import DEPTH, WIDTH\n" + GAME,
        ],
    )
    submission = _open(book, tmp_path)
    folder = submission.source_dir
    assert (folder / "helpers.py").read_text() == "DEPTH = 2\nWIDTH = 5\n"
    assert "from helpers import DEPTH, WIDTH" in (folder / "game.py").read_text()
    assert sorted(p.name for p in folder.iterdir()) == ["game.py", "helpers.py"]
    assert not list(tmp_path.rglob("outside.py"))
    assert "hw.ipynb: helpers.py, written by cells 1, 2 (%%writefile), is put beside it" in (
        submission.notes
    )


def test_a_notebook_that_writes_game_py_is_graded_on_that_file(tmp_path):
    book = _notebook(
        tmp_path / "hw.ipynb",
        ["import random\n", f"%%writefile game.py\n{GAME}", "from game import Teeko2Player\n"],
    )
    submission = _open(book, tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert submission.notes == ("hw.ipynb: graded the game.py written by cell 2 (%%writefile)",)


def test_a_file_handed_in_beside_the_notebook_is_not_overwritten_by_its_writefile(tmp_path):
    folder = tmp_path / "alice"
    folder.mkdir()
    (folder / "helpers.py").write_text("DEPTH = 3\n")
    _notebook(folder / "hw.ipynb", ["%%writefile helpers.py\nDEPTH = 2\n", GAME])
    submission = _open(folder, tmp_path)
    assert (submission.source_dir / "helpers.py").read_text() == "DEPTH = 3\n"
    assert "hw.ipynb: helpers.py, written by cell 1, was handed in too: kept as handed in" in (
        submission.notes
    )


@pytest.mark.parametrize(
    ("entries", "graded"),
    [
        ({"Users/bob/Desktop/hw8/game.py": GAME}, "Users/bob/Desktop/hw8"),
        ({"hw8/src/game.py": GAME, "hw8/src/notes.txt": "hi"}, "hw8/src"),
        ({"hw8/game.py": GAME, "hw8/old/game.py": "old = 1\n"}, "hw8"),
    ],
    ids=["deep", "two-deep", "beside-an-old-one"],
)
def test_the_game_py_nearest_the_top_of_a_zip_is_graded_however_deep(tmp_path, entries, graded):
    submission = _open(_zip(tmp_path / "hw8_bob.zip", entries), tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert submission.source_dir.as_posix().endswith(graded)


def test_a_notebook_writing_more_files_than_a_submission_holds_is_one_sentence(tmp_path):
    cells = [f"%%writefile f{n}.py\nx = {n}\n" for n in range(MAX_ENTRIES + 1)]
    with pytest.raises(GraderError, match=rf"^hw.ipynb writes {MAX_ENTRIES + 1} files with "):
        _open(_notebook(tmp_path / "hw.ipynb", [*cells, GAME]), tmp_path)
    assert not list((tmp_path / "work").rglob("f0.py"))
