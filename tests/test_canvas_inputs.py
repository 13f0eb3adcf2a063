"""What comes in as a class: folders, bundles and junk, and damaged inputs, each refused or
taken with one clear line."""

from __future__ import annotations

import stat
import zipfile
from pathlib import Path

import pytest

import autograder.classroom.collect as collect_module
from autograder.classroom.intake import open_submission, packaging_problems
from autograder.errors import GraderError
from tests.canvas_downloads import (
    GAME,
    collect_into,
    files_under,
    student_zip_bytes,
    submission,
    write_file,
    zip_of,
)
from tests.conftest import course_rubric

# -- inputs: folders, bundles, junk ---------------------------------------------------------------


def test_a_canvas_bundle_of_student_zips_is_unpacked_into_the_work_folder(tmp_path):
    student = student_zip_bytes(tmp_path)
    bundle = zip_of(
        tmp_path / "submissions.zip",
        {
            "badgerbucky_123_456_hw8_bbadger.zip": student,
            "cheneve_LATE_124_457_hw8_echen.zip": student,
            "smithann_125_458_game.py": GAME,
            "__MACOSX/._badgerbucky_123_456_hw8_bbadger.zip": b"junk",
            ".DS_Store": b"junk",
        },
    )
    found = collect_into(tmp_path, bundle)
    work = tmp_path / "work"
    assert found.problems == ()
    assert [(e.student, e.late, e.canvas_id) for e in found.entries] == [
        ("123", False, "123"),
        ("124", True, "124"),
        ("125", False, "125"),
    ]
    assert [str(e.path.relative_to(work)) for e in found.entries] == [
        "canvas/badgerbucky_123_456/hw8_bbadger.zip",
        "canvas/cheneve_LATE_124_457-4b8e248f6771/hw8_echen.zip",
        "canvas/smithann_125_458/game.py",
    ]
    # the student zips come out whole: intake can open them
    opened = open_submission(found.entries[0].path, tmp_path / "open")
    assert (opened.source_dir / "game.py").read_text() == GAME
    rubric = course_rubric()
    assert (
        packaging_problems(opened, rubric.packaging_pattern, rubric.packaging_example, ("game.py",))
        == []
    )


def test_a_zip_of_a_folder_of_student_zips_is_a_bundle(tmp_path):
    student = student_zip_bytes(tmp_path)
    bundle = zip_of(
        tmp_path / "class.zip", {"hw8/hw8_ann.zip": student, "hw8/hw8_bob.zip": student}
    )
    found = collect_into(tmp_path, bundle)
    assert [e.student for e in found.entries] == ["ann", "bob"]


@pytest.mark.parametrize("top", ["", "class/"])
def test_a_zip_of_student_folders_is_a_class_not_one_student(tmp_path, top):
    """Each folder holding a game.py is a student, whether or not one folder holds them all;
    a student's own zip with an old copy in a subfolder stays one student."""
    bundle = zip_of(
        tmp_path / "folders.zip",
        {f"{top}alice/game.py": GAME, f"{top}bob/game.py": GAME, f"{top}bob/helper.py": GAME},
    )
    found = collect_into(tmp_path, bundle)
    assert (found.problems, [e.student for e in found.entries]) == ((), ["alice", "bob"])
    own = zip_of(tmp_path / "mine.zip", {"game.py": GAME, "old/game.py": GAME})
    assert [e.student for e in collect_into(tmp_path / "own", own).entries] == ["mine"]
    nested = zip_of(tmp_path / "one.zip", {"alice/game.py": GAME, "alice/old/game.py": GAME})
    assert [e.student for e in collect_into(tmp_path / "nested", nested).entries] == ["one"]


def test_a_canvas_zip_with_one_student_folder_among_the_files_keeps_every_student(tmp_path):
    files: dict[str, str | bytes] = {
        f"student{n}_{100 + n}_{500 + n}_game.py": GAME for n in range(5)
    }
    files["Zoë Núñez/game.py"] = GAME
    found = collect_into(tmp_path, zip_of(tmp_path / "submissions.zip", files))
    assert [e.student for e in found.entries] == [*(str(100 + n) for n in range(5)), "Zoë Núñez"]


def test_a_file_in_a_class_zip_that_is_nobodys_is_named_by_its_place_in_the_zip(tmp_path):
    files: dict[str, str | bytes] = {f"s{n}_{100 + n}_{500 + n}_game.py": GAME for n in range(3)}
    bundle = zip_of(tmp_path / "submissions.zip", {**files, "notes.txt": "read me"})
    found = collect_into(tmp_path, bundle)
    assert found.problems == (
        f"notes.txt in {bundle} is not a .py file, a notebook, a zip or a folder",
    )


def test_a_name_too_long_for_the_file_system_costs_no_student_their_grade(tmp_path):
    """Canvas's prefix and a student's long file name can pass the 255 bytes a file system
    takes: that file is unpacked under a shortened name, and every student is still there."""
    long = "garciamateo_10004_500004_" + "x" * 300 + ".py"
    files: dict[str, str | bytes] = {"smithann_125_458_game.py": GAME, long: GAME}
    found = collect_into(tmp_path, zip_of(tmp_path / "submissions.zip", files))
    assert found.problems == ()
    assert [e.student for e in found.entries] == ["10004", "125"]
    assert found.entries[0].path.read_text() == GAME


def test_a_name_with_a_newline_or_a_tab_is_shown_on_one_line(tmp_path):
    folder = tmp_path / "class"
    write_file(folder / "new\nline_10013_500013_game.py")
    write_file(folder / "\t=tab.py")
    found = collect_into(tmp_path, folder)
    assert len(found.entries) == 2
    for entry in found.entries:
        shown = f"{entry.student} {entry.name} {entry.source} {entry.id}"
        assert "\n" not in shown and "\t" not in shown, shown


def _info_zip(path: Path, names: list[str]) -> Path:
    """A class zip as Info-ZIP's ``zip`` (and macOS) writes one: names in UTF-8, without the
    flag that says so, which ``zipfile`` reads as cp437."""
    stand_ins = {name: "_" * len(name.encode()) for name in names}
    zip_of(path, {stand_in: GAME for stand_in in stand_ins.values()})
    data = path.read_bytes()
    for name, stand_in in stand_ins.items():
        data = data.replace(stand_in.encode(), name.encode())
    path.write_bytes(data)
    return path


def test_utf8_names_a_zip_does_not_flag_are_read_as_utf8(tmp_path):
    bundle = _info_zip(
        tmp_path / "submissions.zip",
        ["garcíajosé_LATE_20002_600002_game.py", "núñezzoë_20001_600001_game.py"],
    )
    with zipfile.ZipFile(bundle) as raw:
        assert not any(info.flag_bits & 0x800 for info in raw.infolist())
    found = collect_into(tmp_path, bundle)
    assert [(e.student, e.name, e.late) for e in found.entries] == [
        ("20001", "núñezzoë", False),
        ("20002", "garcíajosé", True),
    ]
    assert [e.path.read_text() for e in found.entries] == [GAME, GAME]  # unpacked by name


def test_a_students_notebook_folder_given_alone_is_that_student_not_a_class(tmp_path):
    write_file(tmp_path / "henry" / "Connect4.ipynb", "{}")
    write_file(tmp_path / "henry" / "notes.txt", "my notes")
    found = collect_into(tmp_path, tmp_path / "henry")
    assert [(e.student, e.path) for e in found.entries] == [("henry", tmp_path / "henry")]
    write_file(tmp_path / "notebooks" / "ann.ipynb", "{}")  # a class of notebooks stays one
    write_file(tmp_path / "notebooks" / "bob.ipynb", "{}")
    write_file(tmp_path / "canvas" / "smithjoe_123_456_Connect4.ipynb", "{}")
    assert [e.student for e in collect_into(tmp_path, tmp_path / "notebooks").entries] == [
        "ann",
        "bob",
    ]
    assert [e.student for e in collect_into(tmp_path, tmp_path / "canvas").entries] == ["123"]


def test_a_folder_mixing_zips_python_files_and_student_folders(tmp_path):
    folder = tmp_path / "class"
    submission(folder / "hw8_ann.zip")
    submission(folder / "bob.py")
    submission(folder / "badgerbucky_123_456_game.py")
    write_file(folder / "carol" / "game.py")
    write_file(folder / "dave" / "hw8" / "game.py")  # nested one level: still one student
    write_file(folder / "erin" / "connect4.ipynb", "{}")  # a notebook is a student's code too
    write_file(folder / ".hidden.py")
    write_file(folder / ".DS_Store", b"junk")
    write_file(folder / "__MACOSX" / "._bob.py", b"junk")
    write_file(folder / "__pycache__" / "bob.cpython-311.pyc", b"junk")
    write_file(folder / "readme.txt", "hi")
    write_file(folder / "empty" / "notes.txt", "hi")
    found = collect_into(tmp_path, folder)
    assert [e.student for e in found.entries] == ["123", "ann", "bob", "carol", "dave", "erin"]
    assert found.entries[0].path == tmp_path / "work/canvas/badgerbucky_123_456/game.py"
    assert [(e.student, e.path.relative_to(folder)) for e in found.entries[1:]] == [
        ("ann", Path("hw8_ann.zip")),
        ("bob", Path("bob.py")),
        ("carol", Path("carol")),
        ("dave", Path("dave")),
        ("erin", Path("erin")),
    ]
    assert found.problems == (
        f"{folder / 'empty'} is a folder without a .py file or a notebook; pass it as an input "
        "of its own "
        "to grade the files inside",
        f"{folder / 'readme.txt'} is not a .py file, a notebook, a zip or a folder",
    )


def test_several_inputs_can_be_mixed(tmp_path):
    student = student_zip_bytes(tmp_path)
    bundle = zip_of(tmp_path / "submissions.zip", {"badgerbucky_123_456_hw8_bbadger.zip": student})
    loose = submission(tmp_path / "late" / "hw8_echen.zip")
    single = write_file(tmp_path / "frank" / "game.py")
    own = zip_of(tmp_path / "homework.zip", {"hw8/game.py": GAME, "hw8/notes.zip": b"x"})
    found = collect_into(tmp_path, bundle, loose, single.parent, own, tmp_path / "grace.py")
    assert [(e.student, e.path.name) for e in found.entries] == [
        ("123", "hw8_bbadger.zip"),
        ("echen", "hw8_echen.zip"),
        ("frank", "frank"),
        ("homework", "homework.zip"),  # holds game.py: a student's own zip, not a bundle
    ]
    assert found.problems == (f"{tmp_path / 'grace.py'} does not exist",)


def test_files_and_folders_known_by_name_alone_are_never_merged_by_copy_number(tmp_path):
    folder = tmp_path / "class"
    for name in ("ann.py", "ann-2.py", "team-1", "team-2"):
        submission(folder / name / "game.py" if name.startswith("team") else folder / name)
    found = collect_into(tmp_path, folder)
    assert [e.student for e in found.entries] == ["ann", "ann-2", "team-1", "team-2"]
    assert all(e.note == "" for e in found.entries)


def test_a_bare_game_py_is_named_by_its_folder(tmp_path):
    first = write_file(tmp_path / "ann" / "hw8" / "game.py")
    second = write_file(tmp_path / "bob" / "game.py")
    found = collect_into(tmp_path, first, second)
    assert [(e.student, e.path) for e in found.entries] == [("bob", second), ("hw8", first)]


# -- damaged inputs -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "filename"),
    [
        ("input", "hw8_bbadger.zip"),
        ("input", "badgerbucky_123_456_homework.zip"),
        ("folder", "hw8_bbadger.zip"),
        ("folder", "homework.zip"),
    ],
    ids=["netid name", "Canvas name", "netid name in a folder", "any zip in a folder"],
)
def test_a_corrupt_student_zip_still_becomes_an_entry(tmp_path, where, filename):
    path = write_file(tmp_path / "class" / filename, b"PK\x03\x04 not really a zip")
    found = collect_into(tmp_path, path if where == "input" else path.parent)
    assert [e.path.read_bytes() for e in found.entries] == [path.read_bytes()]
    assert found.problems == ()
    with pytest.raises(GraderError, match="is not a readable zip file"):  # the batch's zero
        open_submission(found.entries[0].path, tmp_path / "open")


@pytest.mark.parametrize(
    ("name", "data", "problem"),
    [
        ("submissions.zip", b"PK\x03\x04 truncated", "{path} is not a readable zip file"),
        ("submissions.zip", None, "{path} does not exist"),
        ("submissions.zip", b"", "{path} is not a readable zip file"),
        ("roster.csv", b"Student,ID\n", "{path} is not a .py file, a notebook, a zip or a folder"),
    ],
    ids=["corrupt bundle", "missing path", "empty file", "not a submission"],
)
def test_an_unreadable_input_is_a_problem_not_a_student(tmp_path, name, data, problem):
    path = tmp_path / name
    if data is not None:
        path.write_bytes(data)
    found = collect_into(tmp_path, path)
    assert found.entries == ()
    assert found.problems == (problem.format(path=path),)


def test_an_empty_folder_and_a_zip_of_mac_junk_are_problems(tmp_path):
    (tmp_path / "nothing").mkdir()
    empty = zip_of(tmp_path / "submissions.zip", {"__MACOSX/._hw8_a.zip": "x", ".DS_Store": "x"})
    found = collect_into(tmp_path, tmp_path / "nothing", empty)
    assert found.problems == (
        f"{tmp_path / 'nothing'} holds no submissions",
        f"{empty} is an empty zip",
    )


def _symlink_bundle(path: Path, student: bytes) -> Path:
    with zipfile.ZipFile(path, "w") as bundle:
        bundle.writestr("badgerbucky_123_456_hw8_bbadger.zip", student)
        link = zipfile.ZipInfo("cheneve_124_457_hw8_echen.zip")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        bundle.writestr(link, "/etc/passwd")
    return path


@pytest.mark.parametrize(
    ("bad_entry", "message"),
    [
        ("../evil.zip", "holds the entry '../evil.zip', which points outside the zip"),
        ("../../evil.zip", "holds the entry '../../evil.zip', which points outside the zip"),
        ("/tmp/evil.zip", "holds the entry '/tmp/evil.zip', which points outside the zip"),
        ("symlink", "holds the symlink 'cheneve_124_457_hw8_echen.zip'"),
    ],
    ids=["dot-dot", "dot-dot twice", "absolute", "symlink"],
)
def test_a_bundle_pointing_outside_is_refused_and_nothing_written(tmp_path, bad_entry, message):
    student = student_zip_bytes(tmp_path)
    path = tmp_path / "in" / "submissions.zip"
    path.parent.mkdir()
    if bad_entry == "symlink":
        _symlink_bundle(path, student)
    else:
        zip_of(path, {"badgerbucky_123_456_hw8_bbadger.zip": student, bad_entry: student})
    before = files_under(tmp_path)
    found = collect_into(tmp_path, path)
    assert found.entries == ()
    assert found.problems == (f"submissions.zip {message}; nothing in {path} was graded",)
    assert files_under(tmp_path) == before  # not in the work folder, not beside it


@pytest.mark.parametrize(
    ("limit", "value", "message"),
    [
        ("BUNDLE_MAX_ENTRIES", 2, "holds 3 entries; a bundle may hold 2"),
        ("BUNDLE_MAX_UNPACKED", 100, r"unpacks to 0.0 MB; a bundle may unpack to 0.0 MB"),
    ],
    ids=["entries", "size"],
)
def test_a_bundle_past_the_caps_is_refused(tmp_path, monkeypatch, limit, value, message):
    monkeypatch.setattr(collect_module, limit, value)
    student = student_zip_bytes(tmp_path)
    path = zip_of(tmp_path / "submissions.zip", {f"hw8_s{i}.zip": student for i in range(3)})
    found = collect_into(tmp_path, path)
    assert found.entries == ()
    assert found.problems == (f"{path} {message}",)
    assert not (tmp_path / "work" / "bundles").exists()


def test_a_bundle_that_inflates_past_its_declared_size_is_refused(tmp_path, monkeypatch):
    """The cap holds even when the headers lie: unpack counts what it really writes."""
    monkeypatch.setattr(collect_module, "BUNDLE_MAX_UNPACKED", 1 << 20)
    path = tmp_path / "submissions.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("hw8_a.zip", b"\0" * (2 << 20))
        bundle.writestr("hw8_b.zip", b"x")
    data = bytearray(path.read_bytes())
    # lower the declared size of the first entry in both headers to 10 bytes
    big = (2 << 20).to_bytes(4, "little")
    assert data.count(big) == 2
    data = data.replace(big, (10).to_bytes(4, "little"))
    path.write_bytes(bytes(data))
    found = collect_into(tmp_path, path)
    assert found.entries == ()
    assert len(found.problems) == 1
    assert "submissions.zip" in found.problems[0]
    assert found.problems[0].endswith(f"nothing in {path} was graded")
    assert files_under(tmp_path / "work") == []


def test_collecting_twice_into_one_work_folder_gives_the_same_entries(tmp_path):
    student = student_zip_bytes(tmp_path)
    bundle = zip_of(tmp_path / "submissions.zip", {"badgerbucky_123_456_hw8_bbadger.zip": student})
    first = collect_into(tmp_path, bundle)
    assert collect_into(tmp_path, bundle) == first
    assert first.entries[0].path.read_bytes() == student
