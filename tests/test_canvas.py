"""A class in (a folder, zips, Canvas's "Download Submissions" zip), a Canvas import out."""

from __future__ import annotations

import os
import stat
import zipfile
from pathlib import Path
from typing import Any

import pytest

import autograder.classroom.collect as collect_module
from autograder.classroom.canvas import write_canvas_import
from autograder.classroom.collect import Collection, collect
from autograder.classroom.intake import open_submission, packaging_problems
from autograder.classroom.records import Record
from autograder.errors import GraderError
from tests.conftest import course_rubric

GAME = "class Teeko2Player:\n    pass\n"


def _zip(path: Path, entries: dict[str, str | bytes] | None = None) -> Path:
    """A zip holding ``entries`` (default: a student's game.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in (entries if entries is not None else {"game.py": GAME}).items():
            bundle.writestr(name, data)
    return path


def _student_zip_bytes(tmp_path: Path) -> bytes:
    return _zip(tmp_path / "scratch" / "student.zip").read_bytes()


def _file(path: Path, data: str | bytes = GAME) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    return path


def _submission(path: Path) -> Path:
    """A student's file named ``path``: a zip holding game.py, or game.py's text."""
    return _zip(path) if path.suffix == ".zip" else _file(path)


NETID_PATTERN = course_rubric().packaging_pattern  # hw8_<netid>.zip


def _collect(tmp_path: Path, *inputs: Path, **options: Any) -> Collection:
    options.setdefault("netid_pattern", NETID_PATTERN)
    return collect(list(inputs), tmp_path / "work", **options)


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


# -- naming -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("filename", "student", "late", "canvas_id", "name"),
    [
        ("badgerbucky_123_456_hw8_bbadger.zip", "123", False, "123", "badgerbucky"),
        ("badgerbucky_LATE_123_456_hw8_bbadger.zip", "123", True, "123", "badgerbucky"),
        ("badgerbucky_late_123_456_hw8_bbadger.zip", "123", True, "123", "badgerbucky"),
        ("badgerbucky_123_456_hw8_bbadger-1.zip", "123", False, "123", "badgerbucky"),
        ("badgerbucky_123_456_hw8_bbadger-2.zip", "123", False, "123", "badgerbucky"),
        ("badgerbucky_123_456_game.py", "123", False, "123", "badgerbucky"),
        ("badgerbucky_123_456_homework.zip", "123", False, "123", "badgerbucky"),
        ("anon_fRGSh_456_hw8_bbadger.zip", "fRGSh", False, None, None),
        ("anon_fRGSh_456_game.py", "fRGSh", False, None, None),
        ("anon_LATE_fRGSh_456_game.py", "fRGSh", True, None, None),
        ("anon_fRGSh_LATE_456_game.py", "fRGSh", True, None, None),
        ("hw8_bbadger.zip", "bbadger", False, None, None),
        ("hw8_BBadger.zip", "bbadger", False, None, None),
        ("badgerbucky_123_456_hw8_BBADGER.zip", "123", False, "123", "badgerbucky"),
        ("hw8_bbadger-2.zip", "bbadger", False, None, None),
        ("hw8_bbadger (1).zip", "bbadger", False, None, None),
        ("alice.py", "alice", False, None, None),
        ("Bücky Badger!.py", "Bücky Badger!", False, None, None),
        ("Zoë Ñúñez hw8 (1).py", "Zoë Ñúñez hw8 (1)", False, None, None),
        ("王伟.py", "王伟", False, None, None),
        ("müllerjürgen_77_88_game.py", "77", False, "77", "müllerjürgen"),
    ],
    ids=[
        "plain",
        "LATE",
        "late lower-case",
        "resubmission -1",
        "resubmission -2",
        "no netid: Canvas user id",
        "zip misnamed: Canvas user id",
        "anonymous with netid",
        "anonymous: anon id",
        "anonymous LATE before id",
        "anonymous LATE after id",
        "no Canvas name",
        "upper-case netid",
        "upper-case netid in a Canvas name",
        "no Canvas name, resubmission",
        "browser copy (1)",
        "plain .py: stem",
        "any name kept whole",
        "a browser's copy number kept in a name",
        "a name in Chinese",
        "accented sortable name",
    ],
)
def test_each_naming_identifies_the_student(tmp_path, filename, student, late, canvas_id, name):
    """A row is keyed by Canvas's user id (or anonymous id), else the netid the course's zip
    name gives, else the name exactly as handed in; a netid typed beside a Canvas id is only
    claimed, in the student's note."""
    path = _submission(tmp_path / "in" / filename)
    found = _collect(tmp_path, path)
    assert found.problems == ()
    (entry,) = found.entries
    assert (entry.student, entry.key, entry.late, entry.canvas_id, entry.name, entry.source) == (
        student,
        student,
        late,
        canvas_id,
        name,
        filename,
    )
    assert entry.path.read_bytes() == path.read_bytes()
    claimed = (canvas_id or filename.startswith("anon")) and "hw8_" in filename
    assert ("which claims netid bbadger" in entry.note) == bool(claimed), entry.note


@pytest.mark.parametrize(
    ("filename", "graded"),
    [
        ("badgerbucky_123_456_hw8_bbadger.zip", "canvas/badgerbucky_123_456/hw8_bbadger.zip"),
        (
            "badgerbucky_LATE_123_456_hw8_bbadger-2.zip",
            "canvas/badgerbucky_LATE_123_456-3d33f4b41364/hw8_bbadger.zip",
        ),
        ("anon_fRGSh_456_game.py", "canvas/anon_fRGSh_456-c4686c802c82/game.py"),
        ("badgerbucky_123_456_..", "canvas/badgerbucky_123_456/_-5bd4aa190f63"),
        (
            "badgerbucky_123_456_hw8_bbadger (1).zip",
            "canvas/badgerbucky_123_456/hw8_bbadger (1).zip",
        ),
    ],
    ids=[
        "plain",
        "LATE and resubmission",
        "anonymous",
        "name that is not a file name",
        "the student's own copy number stays",
    ],
)
def test_a_canvas_file_is_graded_under_the_name_the_student_gave_it(tmp_path, filename, graded):
    """Intake's packaging check must judge hw8_bbadger.zip, not Canvas's renaming of it."""
    path = _submission(tmp_path / "in" / filename)
    (entry,) = _collect(tmp_path, path).entries
    assert entry.path == tmp_path / "work" / graded
    assert entry.path.read_bytes() == path.read_bytes()
    assert path.exists()  # a copy: the input is left alone
    entry.path.write_text("changed")
    assert path.read_bytes() != b"changed"


def test_an_uncanvased_file_is_graded_where_it_is(tmp_path):
    path = _submission(tmp_path / "in" / "hw8_bbadger-1.zip")
    (entry,) = _collect(tmp_path, path).entries
    assert entry.path == path


def test_a_course_can_change_the_netid_pattern(tmp_path):
    path = _submission(tmp_path / "in" / "badgerbucky_123_456_p5-BBadger.zip")
    found = _collect(tmp_path, path, netid_pattern=r"p5-(?P<netid>\w+)\.zip")
    assert [e.student for e in found.entries] == ["123"]
    assert "which claims netid bbadger" in found.entries[0].note
    found = _collect(tmp_path, path)  # the course's default does not know p5-
    assert [e.student for e in found.entries] == ["123"]
    assert "claims" not in found.entries[0].note


@pytest.mark.parametrize(
    ("pattern", "message"),
    [
        (r"hw8_(?P<id>\w+)\.zip", r"has no \(\?P<netid>...\) group"),
        (r"hw8_(?P<netid>\w+\.zip", "is not a regular expression"),
    ],
    ids=["no netid group", "not a regex"],
)
def test_a_bad_netid_pattern_is_refused(tmp_path, pattern, message):
    with pytest.raises(GraderError, match=message):
        _collect(tmp_path, tmp_path, netid_pattern=pattern)


# -- several submissions, several people ----------------------------------------------------------


def test_the_newest_canvas_file_is_kept_and_the_others_named(tmp_path):
    folder = tmp_path / "in"
    for filename in (
        "badgerbucky_123_456_hw8_bbadger-2.zip",
        "badgerbucky_123_400_hw8_bbadger.zip",
        "badgerbucky_LATE_123_900_hw8_bbadger-1.zip",
    ):
        _submission(folder / filename)
    (entry,) = _collect(tmp_path, folder).entries
    assert (
        entry.path == tmp_path / "work/canvas/badgerbucky_LATE_123_900-700e7e14c06f/hw8_bbadger.zip"
    )
    assert entry.late
    assert entry.note.startswith(
        "3 submissions found; graded the newest, hw8_bbadger-1.zip (file id 900); "
        "not graded: hw8_bbadger-2.zip (file id 456), hw8_bbadger.zip (file id 400); "
    )


def test_without_file_ids_the_highest_resubmission_is_kept(tmp_path):
    folder = tmp_path / "in"
    for filename in ("hw8_bbadger-2.zip", "hw8_bbadger.zip", "hw8_bbadger-1.zip"):
        _submission(folder / filename)
    os.utime(folder / "hw8_bbadger.zip", (2e9, 2e9))  # the clock comes last
    (entry,) = _collect(tmp_path, folder).entries
    assert entry.path == folder / "hw8_bbadger-2.zip"
    assert entry.note.startswith(
        "3 submissions found; graded the newest, hw8_bbadger-2.zip (resubmission 2); "
    )


def test_without_file_ids_nor_numbers_the_latest_modified_is_kept(tmp_path):
    older = _submission(tmp_path / "monday" / "alice.py")
    newer = _submission(tmp_path / "tuesday" / "alice.py")
    os.utime(older, (1e9, 1e9))
    os.utime(newer, (2e9, 2e9))
    (entry,) = _collect(tmp_path, newer, older).entries
    assert entry.path == newer
    assert entry.note == (
        "2 submissions found; graded the newest, alice.py (the latest modified); "
        "not graded: alice.py"
    )


def test_a_canvas_users_files_all_go_under_their_user_id(tmp_path):
    """A later game.py without a netid in its name is still the user's, not a new student."""
    folder = tmp_path / "in"
    _submission(folder / "badgerbucky_123_456_hw8_bbadger.zip")
    _submission(folder / "badgerbucky_123_789_game.py")
    (entry,) = _collect(tmp_path, folder).entries
    assert (entry.student, entry.canvas_id) == ("123", "123")
    assert entry.path == tmp_path / "work/canvas/badgerbucky_123_789/game.py"


def test_two_canvas_users_with_one_netid_are_kept_apart(tmp_path):
    """Neither is followed: the netid is typed text, the user id is Canvas's."""
    folder = tmp_path / "in"
    _submission(folder / "badgerbucky_123_456_hw8_abc.zip")
    _submission(folder / "cheneve_124_457_hw8_ABC.zip")
    found = _collect(tmp_path, folder)
    assert [(e.student, e.canvas_id, e.name) for e in found.entries] == [
        ("123", "123", "badgerbucky"),
        ("124", "124", "cheneve"),
    ]
    assert found.entries[0].note == (
        "Canvas user 123 handed in hw8_abc.zip, naming another student (netid abc, also "
        "handed in by Canvas user 124); graded as 123"
    )
    assert len(found.warnings) == 2


def test_a_file_name_naming_a_classmates_user_id_takes_nothing_of_hers(tmp_path):
    """The issue's attack: the victim's homework8.zip is known by her user id, 10006; a later
    student names her zip hw8_10006.zip. Two rows, each with its own file, and a warning."""
    folder = tmp_path / "in"
    _submission(folder / "smithann_10006_501_homework8.zip")
    _submission(folder / "doejane_10009_502_hw8_10006.zip")
    found = _collect(tmp_path, folder)
    assert [(e.student, e.canvas_id, e.path.name) for e in found.entries] == [
        ("10006", "10006", "homework8.zip"),
        ("10009", "10009", "hw8_10006.zip"),
    ]
    assert found.entries[0].note == ""
    assert found.warnings == (
        "Canvas user 10009 handed in hw8_10006.zip, naming another student (Canvas user "
        "10006); graded as 10009",
    )


def test_a_file_name_naming_a_classmates_netid_is_not_followed(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "smithann_10006_501_hw8_ann.zip")
    _submission(folder / "doejane_10009_502_hw8_ann.zip")
    _submission(folder / "leekim_10011_503_hw8_kim.zip")
    found = _collect(tmp_path, folder)
    assert [e.student for e in found.entries] == ["10006", "10009", "10011"]
    assert "which claims netid kim" in found.entries[2].note
    assert found.warnings[-1].startswith("1 file name claims a netid (10011 claims kim);")


def test_an_emailed_file_naming_a_user_id_is_not_merged_into_that_user(tmp_path):
    victim = _submission(tmp_path / "in" / "smithann_10006_501_homework8.zip")
    emailed = _submission(tmp_path / "email" / "hw8_10006.zip")
    found = _collect(tmp_path, victim, emailed)
    assert [(e.student, e.path.name) for e in found.entries] == [
        ("10006", "homework8.zip"),
        ("10006-no-canvas-id", "hw8_10006.zip"),
    ]
    assert "graded on its own as 10006-no-canvas-id" in found.entries[1].note


def test_a_user_off_the_roster_naming_a_listed_login_keeps_their_id(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "smithann_10006_501_homework8.zip")
    _submission(folder / "late_10020_502_hw8_ann.zip")
    found = _collect(tmp_path, folder, logins={"10006": "ann@wisc.edu"})
    assert [e.student for e in found.entries] == ["10020", "ann"]
    assert found.warnings == (
        "Canvas user 10020 handed in hw8_ann.zip, naming another student (the roster's ann, "
        "Canvas user 10006); graded as 10020",
    )


def test_with_a_roster_the_roster_names_each_canvas_user(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "smithann_10006_501_homework8.zip")
    _submission(folder / "doejane_10009_502_hw8_ann.zip")
    found = _collect(tmp_path, folder, logins={"10006": "ann@wisc.edu", "10009": "jdoe"})
    assert [(e.student, e.canvas_id) for e in found.entries] == [
        ("ann", "10006"),
        ("jdoe", "10009"),
    ]
    assert found.warnings == (
        "Canvas user 10009 handed in hw8_ann.zip, which names ann; the roster's login for "
        "10009 is jdoe: graded as jdoe",
    )


def test_with_a_roster_a_claimed_netid_is_named_by_the_roster_or_the_canvas_id(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "smithann_10006_501_homework8.zip")
    _submission(folder / "kowalskij_10007_502_hw8_jkowalski.zip")
    found = _collect(tmp_path, folder, logins={"10006": "ann@wisc.edu"})
    assert [e.student for e in found.entries] == ["10007", "ann"]
    assert found.warnings[-1] == (
        "1 file name claims a netid (10007 claims jkowalski); a name typed in a file proves "
        "nothing, so each row is named by the roster's login for its Canvas user id (the id "
        "itself where the roster has none)"
    )


def test_a_file_without_canvas_id_is_not_merged_into_a_disputed_netid(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "badgerbucky_123_456_hw8_abc.zip")
    _submission(folder / "cheneve_124_457_hw8_abc.zip")
    plain = _submission(tmp_path / "email" / "hw8_abc.zip")
    found = _collect(tmp_path, folder, plain)
    assert [e.student for e in found.entries] == ["123", "124", "abc"]
    assert found.entries[2].path == plain
    assert "graded on its own" in found.entries[2].note


def test_a_file_without_canvas_id_joins_the_canvas_user_the_roster_gives_its_netid(tmp_path):
    bundled = _submission(tmp_path / "in" / "badgerbucky_123_456_hw8_bbadger.zip")
    emailed = _submission(tmp_path / "email" / "hw8_bbadger.zip")
    (entry,) = _collect(tmp_path, bundled, emailed, logins={"123": "bbadger"}).entries
    assert (entry.student, entry.canvas_id, entry.key) == ("bbadger", "123", "123")
    assert entry.path.parent.name == "badgerbucky_123_456"
    assert entry.note.startswith("2 submissions found; graded the newest, hw8_bbadger.zip")


def test_without_a_roster_a_netid_typed_by_a_canvas_user_joins_nothing(tmp_path):
    """The netid in the Canvas user's file name is a claim: an emailed file with that netid is
    a student of its own, and both notes say why."""
    bundled = _submission(tmp_path / "in" / "badgerbucky_123_456_hw8_bbadger.zip")
    emailed = _submission(tmp_path / "email" / "hw8_bbadger.zip")
    found = _collect(tmp_path, bundled, emailed)
    assert [(e.student, e.canvas_id) for e in found.entries] == [
        ("123", "123"),
        ("bbadger", None),
    ]
    assert "Canvas users 123 typed netid bbadger too; graded on its own" in found.entries[1].note


# -- inputs: folders, bundles, junk ---------------------------------------------------------------


def test_a_canvas_bundle_of_student_zips_is_unpacked_into_the_work_folder(tmp_path):
    student = _student_zip_bytes(tmp_path)
    bundle = _zip(
        tmp_path / "submissions.zip",
        {
            "badgerbucky_123_456_hw8_bbadger.zip": student,
            "cheneve_LATE_124_457_hw8_echen.zip": student,
            "smithann_125_458_game.py": GAME,
            "__MACOSX/._badgerbucky_123_456_hw8_bbadger.zip": b"junk",
            ".DS_Store": b"junk",
        },
    )
    found = _collect(tmp_path, bundle)
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
    student = _student_zip_bytes(tmp_path)
    bundle = _zip(tmp_path / "class.zip", {"hw8/hw8_ann.zip": student, "hw8/hw8_bob.zip": student})
    found = _collect(tmp_path, bundle)
    assert [e.student for e in found.entries] == ["ann", "bob"]


def test_a_folder_mixing_zips_python_files_and_student_folders(tmp_path):
    folder = tmp_path / "class"
    _submission(folder / "hw8_ann.zip")
    _submission(folder / "bob.py")
    _submission(folder / "badgerbucky_123_456_game.py")
    _file(folder / "carol" / "game.py")
    _file(folder / "dave" / "hw8" / "game.py")  # nested one level: still one student
    _file(folder / ".hidden.py")
    _file(folder / ".DS_Store", b"junk")
    _file(folder / "__MACOSX" / "._bob.py", b"junk")
    _file(folder / "__pycache__" / "bob.cpython-311.pyc", b"junk")
    _file(folder / "readme.txt", "hi")
    _file(folder / "empty" / "notes.txt", "hi")
    found = _collect(tmp_path, folder)
    assert [e.student for e in found.entries] == ["123", "ann", "bob", "carol", "dave"]
    assert found.entries[0].path == tmp_path / "work/canvas/badgerbucky_123_456/game.py"
    assert [(e.student, e.path.relative_to(folder)) for e in found.entries[1:]] == [
        ("ann", Path("hw8_ann.zip")),
        ("bob", Path("bob.py")),
        ("carol", Path("carol")),
        ("dave", Path("dave")),
    ]
    assert found.problems == (
        f"{folder / 'empty'} is a folder without a .py file; pass it as an input of its own "
        "to grade the files inside",
        f"{folder / 'readme.txt'} is not a .py file, a notebook, a zip or a folder",
    )


def test_several_inputs_can_be_mixed(tmp_path):
    student = _student_zip_bytes(tmp_path)
    bundle = _zip(tmp_path / "submissions.zip", {"badgerbucky_123_456_hw8_bbadger.zip": student})
    loose = _submission(tmp_path / "late" / "hw8_echen.zip")
    single = _file(tmp_path / "frank" / "game.py")
    own = _zip(tmp_path / "homework.zip", {"hw8/game.py": GAME, "hw8/notes.zip": b"x"})
    found = _collect(tmp_path, bundle, loose, single.parent, own, tmp_path / "grace.py")
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
        _submission(folder / name / "game.py" if name.startswith("team") else folder / name)
    found = _collect(tmp_path, folder)
    assert [e.student for e in found.entries] == ["ann", "ann-2", "team-1", "team-2"]
    assert all(e.note == "" for e in found.entries)


def test_a_bare_game_py_is_named_by_its_folder(tmp_path):
    first = _file(tmp_path / "ann" / "hw8" / "game.py")
    second = _file(tmp_path / "bob" / "game.py")
    found = _collect(tmp_path, first, second)
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
    path = _file(tmp_path / "class" / filename, b"PK\x03\x04 not really a zip")
    found = _collect(tmp_path, path if where == "input" else path.parent)
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
    found = _collect(tmp_path, path)
    assert found.entries == ()
    assert found.problems == (problem.format(path=path),)


def test_an_empty_folder_and_a_zip_of_mac_junk_are_problems(tmp_path):
    (tmp_path / "nothing").mkdir()
    empty = _zip(tmp_path / "submissions.zip", {"__MACOSX/._hw8_a.zip": "x", ".DS_Store": "x"})
    found = _collect(tmp_path, tmp_path / "nothing", empty)
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
    student = _student_zip_bytes(tmp_path)
    path = tmp_path / "in" / "submissions.zip"
    path.parent.mkdir()
    if bad_entry == "symlink":
        _symlink_bundle(path, student)
    else:
        _zip(path, {"badgerbucky_123_456_hw8_bbadger.zip": student, bad_entry: student})
    before = _files(tmp_path)
    found = _collect(tmp_path, path)
    assert found.entries == ()
    assert found.problems == (f"submissions.zip {message}; nothing in {path} was graded",)
    assert _files(tmp_path) == before  # not in the work folder, not beside it


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
    student = _student_zip_bytes(tmp_path)
    path = _zip(tmp_path / "submissions.zip", {f"hw8_s{i}.zip": student for i in range(3)})
    found = _collect(tmp_path, path)
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
    found = _collect(tmp_path, path)
    assert found.entries == ()
    assert len(found.problems) == 1
    assert "submissions.zip" in found.problems[0]
    assert found.problems[0].endswith(f"nothing in {path} was graded")
    assert _files(tmp_path / "work") == []


# -- Canvas gradebook import ----------------------------------------------------------------------

ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001),HW9 (1002),Current Score\n"
    "    Points Possible,,,,,100,50,\n"
    '"Badger, Bucky",123,9001,BBadger@wisc.edu,LEC 001,,,\n'
    '"Chen, Eve",124,9002,echen,LEC 001,55,,\n'
    '"Lee, Kim",125,9003,klee,LEC 002,40,,\n'
    '"Müller, Jürgen",126,9004,jmuller,LEC 002,,,\n'
)


def _record(student: str, score: float, canvas_id: str | None = None) -> Record:
    return Record(
        student=student,
        status="graded",
        score=score,
        max_score=100,
        criteria={},
        canvas_id=canvas_id,
    )


def _roster(tmp_path: Path, text: str = ROSTER, *, bom: bool = False) -> Path:
    path = tmp_path / "roster.csv"
    path.write_bytes(("\ufeff" if bom else "").encode() + text.encode())
    return path


@pytest.mark.parametrize("bom", [False, True], ids=["no BOM", "BOM"])
def test_the_import_fills_matched_students_and_lists_the_rest(tmp_path, bom):
    records = [
        _record("bbadger", 87.5),  # by SIS Login ID, the part before @, case aside
        _record("124", 100.0, canvas_id="124"),  # by Canvas ID
        _record("ghost", 10.0, canvas_id="777"),
        _record("nobody", 0.0),
        _record("jmuller", 12.345),
    ]
    out = tmp_path / "out" / "canvas_import.csv"
    problems = write_canvas_import(records, _roster(tmp_path, bom=bom), out)
    assert out.read_bytes().decode("utf-8") == (
        "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
        "    Points Possible,,,,,100\n"
        '"Badger, Bucky",123,9001,BBadger@wisc.edu,LEC 001,87.5\n'
        '"Chen, Eve",124,9002,echen,LEC 001,100\n'
        '"Lee, Kim",125,9003,klee,LEC 002,\n'
        '"Müller, Jürgen",126,9004,jmuller,LEC 002,12.35\n'
    )
    assert problems == [
        "ghost (Canvas id 777) is graded but not on the roster",
        "nobody is graded but not on the roster",
        "Lee, Kim (login klee, ID 125) has no grade; left blank",
    ]


@pytest.mark.parametrize(
    ("login", "student"),
    [
        ("bbadger", "bbadger"),
        ("BBADGER", "bbadger"),
        ("bbadger@wisc.edu", "bbadger"),
        ("bbadger@wisc.edu", "BBadger@wisc.edu"),
    ],
    ids=["same", "case", "part before @", "whole login"],
)
def test_a_student_is_matched_by_sis_login_id(tmp_path, login, student):
    roster = _roster(
        tmp_path, f"Student,ID,SIS User ID,SIS Login ID,Section,HW8\nB,1,,{login},S,\n"
    )
    out = tmp_path / "import.csv"
    assert write_canvas_import([_record(student, 90)], roster, out) == []
    assert out.read_text().splitlines()[1] == f"B,1,,{login},S,90"


def test_the_canvas_id_wins_over_a_mistyped_netid_and_says_so(tmp_path):
    """The Canvas id names the account that uploaded the file; the netid was only typed."""
    out = tmp_path / "import.csv"
    problems = write_canvas_import([_record("klee", 70, canvas_id="123")], _roster(tmp_path), out)
    rows = out.read_text().splitlines()
    assert rows[2].endswith(",70") and rows[2].startswith('"Badger, Bucky"')
    assert rows[4] == '"Lee, Kim",125,9003,klee,LEC 002,'
    assert problems[0] == (
        "klee (Canvas id 123) was written to the row of Badger, Bucky (login BBadger@wisc.edu, "
        "ID 123), found by Canvas id; the netid in the file name differs"
    )


def test_one_roster_row_never_takes_two_grades(tmp_path):
    out = tmp_path / "import.csv"
    problems = write_canvas_import(
        [_record("echen", 30), _record("124", 100, canvas_id="124")], _roster(tmp_path), out
    )
    assert out.read_text().splitlines()[3].endswith(",100")
    assert problems[0] == (
        "echen matches the row of Chen, Eve (login echen, ID 124), which already holds the "
        "grade of 124; echen is not written"
    )


def test_collision_ids_match_by_canvas_id(tmp_path):
    out = tmp_path / "import.csv"
    records = [_record("abc-123", 50, canvas_id="123"), _record("abc-124", 60, canvas_id="124")]
    roster = _roster(
        tmp_path,
        "Student,ID,SIS User ID,SIS Login ID,Section,HW8\nA,123,,abc,S,\nB,124,,abd,S,\n",
    )
    problems = write_canvas_import(records, roster, out)
    assert out.read_text().splitlines()[1:] == ["A,123,,abc,S,50", "B,124,,abd,S,60"]
    assert problems == [
        "abc-124 (Canvas id 124) was written to the row of B (login abd, ID 124), found by "
        "Canvas id; the netid in the file name differs"
    ]


@pytest.mark.parametrize(
    ("column", "expected"),
    [("HW9 (1002)", "HW9 (1002)"), ("hw9", "HW9 (1002)"), (None, "HW8 (1001)")],
    ids=["exact", "prefix, case aside", "first after the identity columns"],
)
def test_the_assignment_column_can_be_chosen(tmp_path, column, expected):
    out = tmp_path / "import.csv"
    write_canvas_import([_record("echen", 42)], _roster(tmp_path), out, column)
    header, points, *_ = out.read_text().splitlines()
    assert header.endswith(f",{expected}")
    assert points.endswith(",50" if expected.startswith("HW9") else ",100")


def test_integration_id_is_not_taken_for_the_assignment(tmp_path):
    roster = _roster(
        tmp_path,
        "Student,ID,SIS User ID,SIS Login ID,Integration ID,Section,HW8\nA,1,,abc,x,S,\n",
    )
    out = tmp_path / "import.csv"
    write_canvas_import([_record("abc", 9)], roster, out)
    assert out.read_text() == "Student,ID,SIS User ID,SIS Login ID,Section,HW8\nA,1,,abc,S,9\n"


@pytest.mark.parametrize(
    ("text", "column", "message"),
    [
        (
            "Student,ID,SIS Login ID,Section,HW8\n",
            None,
            r"roster .*roster.csv lacks the column 'SIS User ID'; pass the gradebook",
        ),
        (
            "Name,Login,HW8\n",
            None,
            "lacks the columns 'Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section'",
        ),
        (
            "Student,ID,SIS User ID,SIS Login ID,Section\n",
            None,
            "has no assignment column after its identity columns",
        ),
        (ROSTER, "HW10", r"has no column named 'HW10' \(assignment columns: 'HW8 \(1001\)'"),
        (ROSTER, "HW", "has several columns named 'HW'"),
        ("", None, "is empty"),
    ],
    ids=["one missing", "all missing", "no assignment", "unknown column", "ambiguous", "empty"],
)
def test_an_unusable_roster_is_refused_in_one_sentence(tmp_path, text, column, message):
    out = tmp_path / "import.csv"
    with pytest.raises(GraderError, match=message):
        write_canvas_import([_record("echen", 1)], _roster(tmp_path, text), out, column)
    assert not out.exists()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: None, "cannot read the roster .*roster.csv"),
        (lambda p: p.write_bytes(b"Student,ID\n\xe9\xff\n"), "is not UTF-8 text"),
        (
            lambda p: p.write_text("Student,ID\n" + "x" * 200_000),
            "is not a readable CSV file: field larger than field limit",
        ),
    ],
    ids=["missing", "not UTF-8", "huge field"],
)
def test_an_unreadable_roster_is_refused(tmp_path, make, message):
    path = tmp_path / "roster.csv"
    make(path)
    with pytest.raises(GraderError, match=message):
        write_canvas_import([], path, tmp_path / "import.csv")


def test_collecting_twice_into_one_work_folder_gives_the_same_entries(tmp_path):
    student = _student_zip_bytes(tmp_path)
    bundle = _zip(tmp_path / "submissions.zip", {"badgerbucky_123_456_hw8_bbadger.zip": student})
    first = _collect(tmp_path, bundle)
    assert _collect(tmp_path, bundle) == first
    assert first.entries[0].path.read_bytes() == student


# -- one attempt, several attachments ------------------------------------------------------------


def test_an_attempt_with_a_helper_module_is_one_submission_holding_both(tmp_path):
    """Canvas keeps a student's latest attempt; game.py and helper.py under one user id are
    that attempt, not two submissions: game.py is graded, with helper.py beside it."""
    folder = tmp_path / "in"
    _file(folder / "badgerbucky_123_456_game.py")
    (folder / "badgerbucky_123_457_helper.py").write_text("DEPTH = 3\n")
    (entry,) = _collect(tmp_path, folder).entries
    assert entry.student == "123"
    assert sorted(p.name for p in entry.path.iterdir()) == ["game.py", "helper.py"]
    assert entry.attached == ("helper.py",)
    assert entry.note == "handed in with game.py: helper.py"


def test_the_newest_copy_of_each_attachment_comes_and_older_main_files_are_named(tmp_path):
    """Canvas's -1 renames of a re-uploaded name still mean: the newest copy counts."""
    folder = tmp_path / "in"
    _file(folder / "badgerbucky_123_400_game.py")
    _file(folder / "badgerbucky_123_500_game-1.py")
    (folder / "badgerbucky_123_410_notes.txt").write_text("old notes")
    (folder / "badgerbucky_123_510_notes-1.txt").write_text("new notes")
    (entry,) = _collect(tmp_path, folder).entries
    assert (entry.path / "notes.txt").read_text() == "new notes"
    assert entry.attached == ("notes.txt",)
    assert entry.note == (
        "handed in with game.py: notes.txt; 2 submissions found; graded the newest, "
        "game-1.py (file id 500); not graded: game.py (file id 400)"
    )


def test_a_zip_handed_in_with_notes_is_graded_alone_and_the_notes_reported(tmp_path):
    folder = tmp_path / "in"
    _submission(folder / "badgerbucky_123_456_hw8_bbadger.zip")
    (folder / "badgerbucky_123_457_notes.txt").write_text("notes")
    (entry,) = _collect(tmp_path, folder).entries
    assert entry.path.name == "hw8_bbadger.zip"
    assert entry.attached == ("notes.txt",)


def test_names_from_the_inputs_enter_cleaned_and_cut(tmp_path):
    """File names are submission text: admitted where intake reads them (entries, notes,
    warnings, problems), so no report or terminal line shows an escape sequence raw."""
    folder = tmp_path / "in"
    _submission(folder / "doejane_10009_502_hw8_10006\x1b[2J\u202e.zip")
    _submission(folder / "doejane_10009_503_hw8_10006.zip")
    _submission(folder / "smithann_10006_501_homework8.zip")
    _file(folder / ("n" * 200 + "\x1b.txt"), "notes")
    found = _collect(tmp_path, folder)
    texts = [*found.warnings, *found.problems]
    texts += [f"{e.source} {e.note} {e.attached}" for e in found.entries]
    assert not any("\x1b" in text or "\u202e" in text for text in texts), texts
    assert "hw8_10006\\x1b[2J\\u202e.zip" in found.entries[1].note
    assert found.problems[0].endswith("n\\x1b.txt is not a .py file, a notebook, a zip or a folder")
