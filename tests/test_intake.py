"""What a student hands in: a game.py, a folder or a zip, unpacked safely, with packaging notes."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

from autograder.errors import GraderError
from autograder.intake import MAX_UNPACKED, infer_variant, open_submission
from autograder.rubric import load_rubric

PATTERN = load_rubric().packaging_pattern
GAME = "class Teeko2Player:\n    pass\n"


def _zip(path: Path, entries: dict[str, str | bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in entries.items():
            bundle.writestr(name, data)
    return path


def _open(path: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    return open_submission(path, work, PATTERN)


def test_a_well_packaged_zip_has_no_packaging_problem(tmp_path):
    submission = _open(_zip(tmp_path / "hw8_bbadger.zip", {"game.py": GAME}), tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert submission.packaging == []


def test_a_badly_packaged_zip_is_graded_and_its_problems_listed(tmp_path):
    bundle = _zip(
        tmp_path / "homework.zip",
        {"hw8/game.py": GAME, "hw8/notes.txt": "hi", "__MACOSX/hw8/._game.py": "x"},
    )
    submission = _open(bundle, tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert submission.packaging == [
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
        ({"game.ipynb": "{}"}, "a notebook is not accepted"),
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
    assert submission.source_dir == tmp_path / "sub" / "hw8"
    assert submission.packaging is None


def test_a_python_file_with_another_name_is_graded_as_game_py(tmp_path):
    (tmp_path / "mine.py").write_text(GAME)
    submission = _open(tmp_path / "mine.py", tmp_path)
    assert (submission.source_dir / "game.py").read_text() == GAME
    assert "graded as game.py" in submission.label


def test_other_files_are_refused(tmp_path):
    (tmp_path / "game.txt").write_text(GAME)
    with pytest.raises(GraderError, match="is not a game.py, a folder or a zip"):
        _open(tmp_path / "game.txt", tmp_path)


@pytest.mark.parametrize(
    ("source", "variant"),
    [("class TeekoPlayer:\n", "teeko"), ("class Teeko2Player(object):\n", "teeko2")],
)
def test_the_assignment_is_inferred_from_the_class_name(tmp_path, source, variant):
    (tmp_path / "game.py").write_text(source)
    found, how = infer_variant(tmp_path)
    assert found.name == variant
    assert how.startswith(f"assignment {variant} inferred from class")


def test_no_player_class_means_the_assignment_must_be_given(tmp_path):
    (tmp_path / "game.py").write_bytes(b"# \xff\xfe not UTF-8\nclass Player:\n")
    with pytest.raises(GraderError, match=r"classes found: Player\); pass --assignment"):
        infer_variant(tmp_path)
