"""A class in (a folder, zips, Canvas's "Download Submissions" zip), a Canvas import out."""

from __future__ import annotations

import os

import pytest

from autograder.errors import GraderError
from tests.canvas_downloads import (
    collect_into,
    submission,
    write_file,
)

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
        ("d'angelomaria_78_89_game.py", "78", False, "78", "d'angelomaria"),
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
        "an apostrophe in a sortable name",
    ],
)
def test_each_naming_identifies_the_student(tmp_path, filename, student, late, canvas_id, name):
    """A row is keyed by Canvas's user id (or anonymous id), else the netid the course's zip
    name gives, else the name exactly as handed in; a netid typed beside a Canvas id is only
    claimed, in the student's note."""
    path = submission(tmp_path / "in" / filename)
    found = collect_into(tmp_path, path)
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
    path = submission(tmp_path / "in" / filename)
    (entry,) = collect_into(tmp_path, path).entries
    assert entry.path == tmp_path / "work" / graded
    assert entry.path.read_bytes() == path.read_bytes()
    assert path.exists()  # a copy: the input is left alone
    entry.path.write_text("changed")
    assert path.read_bytes() != b"changed"


def test_an_uncanvased_file_is_graded_where_it_is(tmp_path):
    path = submission(tmp_path / "in" / "hw8_bbadger-1.zip")
    (entry,) = collect_into(tmp_path, path).entries
    assert entry.path == path


def test_a_course_can_change_the_netid_pattern(tmp_path):
    path = submission(tmp_path / "in" / "badgerbucky_123_456_p5-BBadger.zip")
    found = collect_into(tmp_path, path, netid_pattern=r"p5-(?P<netid>\w+)\.zip")
    assert [e.student for e in found.entries] == ["123"]
    assert "which claims netid bbadger" in found.entries[0].note
    found = collect_into(tmp_path, path)  # the course's default does not know p5-
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
        collect_into(tmp_path, tmp_path, netid_pattern=pattern)


# -- several submissions, several people ----------------------------------------------------------


def test_the_newest_canvas_file_is_kept_and_the_others_named(tmp_path):
    folder = tmp_path / "in"
    for filename in (
        "badgerbucky_123_456_hw8_bbadger-2.zip",
        "badgerbucky_123_400_hw8_bbadger.zip",
        "badgerbucky_LATE_123_900_hw8_bbadger-1.zip",
    ):
        submission(folder / filename)
    (entry,) = collect_into(tmp_path, folder).entries
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
        submission(folder / filename)
    os.utime(folder / "hw8_bbadger.zip", (2e9, 2e9))  # the clock comes last
    (entry,) = collect_into(tmp_path, folder).entries
    assert entry.path == folder / "hw8_bbadger-2.zip"
    assert entry.note.startswith(
        "3 submissions found; graded the newest, hw8_bbadger-2.zip (resubmission 2); "
    )


def test_without_file_ids_nor_numbers_the_latest_modified_is_kept(tmp_path):
    older = submission(tmp_path / "monday" / "alice.py")
    newer = submission(tmp_path / "tuesday" / "alice.py")
    os.utime(older, (1e9, 1e9))
    os.utime(newer, (2e9, 2e9))
    (entry,) = collect_into(tmp_path, newer, older).entries
    assert entry.path == newer
    assert entry.note == (
        "2 submissions found; graded the newest, alice.py (the latest modified); "
        "not graded: alice.py"
    )


def test_a_canvas_users_files_all_go_under_their_user_id(tmp_path):
    """A later game.py without a netid in its name is still the user's, not a new student."""
    folder = tmp_path / "in"
    submission(folder / "badgerbucky_123_456_hw8_bbadger.zip")
    submission(folder / "badgerbucky_123_789_game.py")
    (entry,) = collect_into(tmp_path, folder).entries
    assert (entry.student, entry.canvas_id) == ("123", "123")
    assert entry.path == tmp_path / "work/canvas/badgerbucky_123_789/game.py"


def test_two_canvas_users_with_one_netid_are_kept_apart(tmp_path):
    """Neither is followed: the netid is typed text, the user id is Canvas's."""
    folder = tmp_path / "in"
    submission(folder / "badgerbucky_123_456_hw8_abc.zip")
    submission(folder / "cheneve_124_457_hw8_ABC.zip")
    found = collect_into(tmp_path, folder)
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
    submission(folder / "smithann_10006_501_homework8.zip")
    submission(folder / "doejane_10009_502_hw8_10006.zip")
    found = collect_into(tmp_path, folder)
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
    submission(folder / "smithann_10006_501_hw8_ann.zip")
    submission(folder / "doejane_10009_502_hw8_ann.zip")
    submission(folder / "leekim_10011_503_hw8_kim.zip")
    found = collect_into(tmp_path, folder)
    assert [e.student for e in found.entries] == ["10006", "10009", "10011"]
    assert "which claims netid kim" in found.entries[2].note
    assert found.warnings[-1].startswith("1 file name claims a netid (10011 claims kim);")


def test_an_emailed_file_naming_a_user_id_is_not_merged_into_that_user(tmp_path):
    victim = submission(tmp_path / "in" / "smithann_10006_501_homework8.zip")
    emailed = submission(tmp_path / "email" / "hw8_10006.zip")
    found = collect_into(tmp_path, victim, emailed)
    assert [(e.student, e.path.name) for e in found.entries] == [
        ("10006", "homework8.zip"),
        ("10006-no-canvas-id", "hw8_10006.zip"),
    ]
    assert "graded on its own as 10006-no-canvas-id" in found.entries[1].note


def test_a_file_named_as_a_users_row_reads_is_told_apart(tmp_path):
    """Reports show a Canvas user with a name as ``10006 (smithann)``: a file named so, with no
    Canvas id, must not read as that user's second row."""
    victim = submission(tmp_path / "in" / "smithann_10006_501_homework8.zip")
    spoof = submission(tmp_path / "in" / "10006 (smithann).py")
    found = collect_into(tmp_path, victim, spoof)
    assert [(e.student, e.name) for e in found.entries] == [
        ("10006", "smithann"),
        ("10006 (smithann)-no-canvas-id", None),
    ]
    assert found.entries[1].note == (
        "10006 (smithann).py carries no Canvas id and its name reads as Canvas user 10006's; "
        "graded on its own as 10006 (smithann)-no-canvas-id"
    )


def test_a_user_off_the_roster_naming_a_listed_login_keeps_their_id(tmp_path):
    folder = tmp_path / "in"
    submission(folder / "smithann_10006_501_homework8.zip")
    submission(folder / "late_10020_502_hw8_ann.zip")
    found = collect_into(tmp_path, folder, logins={"10006": "ann@wisc.edu"})
    assert [e.student for e in found.entries] == ["10020", "ann"]
    assert found.warnings == (
        "Canvas user 10020 handed in hw8_ann.zip, naming another student (the roster's ann, "
        "Canvas user 10006); graded as 10020",
    )


def test_with_a_roster_the_roster_names_each_canvas_user(tmp_path):
    folder = tmp_path / "in"
    submission(folder / "smithann_10006_501_homework8.zip")
    submission(folder / "doejane_10009_502_hw8_ann.zip")
    found = collect_into(tmp_path, folder, logins={"10006": "ann@wisc.edu", "10009": "jdoe"})
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
    submission(folder / "smithann_10006_501_homework8.zip")
    submission(folder / "kowalskij_10007_502_hw8_jkowalski.zip")
    found = collect_into(tmp_path, folder, logins={"10006": "ann@wisc.edu"})
    assert [e.student for e in found.entries] == ["10007", "ann"]
    assert found.warnings[-1] == (
        "1 file name claims a netid (10007 claims jkowalski); a name typed in a file proves "
        "nothing, so each row is named by the roster's login for its Canvas user id (the id "
        "itself where the roster has none)"
    )


def test_a_file_without_canvas_id_is_not_merged_into_a_disputed_netid(tmp_path):
    folder = tmp_path / "in"
    submission(folder / "badgerbucky_123_456_hw8_abc.zip")
    submission(folder / "cheneve_124_457_hw8_abc.zip")
    plain = submission(tmp_path / "email" / "hw8_abc.zip")
    found = collect_into(tmp_path, folder, plain)
    assert [e.student for e in found.entries] == ["123", "124", "abc"]
    assert found.entries[2].path == plain
    assert "graded on its own" in found.entries[2].note


def test_a_file_without_canvas_id_joins_the_canvas_user_the_roster_gives_its_netid(tmp_path):
    bundled = submission(tmp_path / "in" / "badgerbucky_123_456_hw8_bbadger.zip")
    emailed = submission(tmp_path / "email" / "hw8_bbadger.zip")
    (entry,) = collect_into(tmp_path, bundled, emailed, logins={"123": "bbadger"}).entries
    assert (entry.student, entry.canvas_id, entry.key) == ("bbadger", "123", "123")
    assert entry.path.parent.name == "badgerbucky_123_456"
    assert entry.note.startswith("2 submissions found; graded the newest, hw8_bbadger.zip")


def test_without_a_roster_a_netid_typed_by_a_canvas_user_joins_nothing(tmp_path):
    """The netid in the Canvas user's file name is a claim: an emailed file with that netid is
    a student of its own, and both notes say why."""
    bundled = submission(tmp_path / "in" / "badgerbucky_123_456_hw8_bbadger.zip")
    emailed = submission(tmp_path / "email" / "hw8_bbadger.zip")
    found = collect_into(tmp_path, bundled, emailed)
    assert [(e.student, e.canvas_id) for e in found.entries] == [
        ("123", "123"),
        ("bbadger", None),
    ]
    assert "Canvas users 123 typed netid bbadger too; graded on its own" in found.entries[1].note


# -- one attempt, several attachments ------------------------------------------------------------


def test_an_attempt_with_a_helper_module_is_one_submission_holding_both(tmp_path):
    """Canvas keeps a student's latest attempt; game.py and helper.py under one user id are
    that attempt, not two submissions: game.py is graded, with helper.py beside it."""
    folder = tmp_path / "in"
    write_file(folder / "badgerbucky_123_456_game.py")
    (folder / "badgerbucky_123_457_helper.py").write_text("DEPTH = 3\n")
    (entry,) = collect_into(tmp_path, folder).entries
    assert entry.student == "123"
    assert sorted(p.name for p in entry.path.iterdir()) == ["game.py", "helper.py"]
    assert entry.attached == ("helper.py",)
    assert entry.note == "handed in with game.py: helper.py"


def test_the_newest_copy_of_each_attachment_comes_and_older_main_files_are_named(tmp_path):
    """Canvas's -1 renames of a re-uploaded name still mean: the newest copy counts."""
    folder = tmp_path / "in"
    write_file(folder / "badgerbucky_123_400_game.py")
    write_file(folder / "badgerbucky_123_500_game-1.py")
    (folder / "badgerbucky_123_410_notes.txt").write_text("old notes")
    (folder / "badgerbucky_123_510_notes-1.txt").write_text("new notes")
    (entry,) = collect_into(tmp_path, folder).entries
    assert (entry.path / "notes.txt").read_text() == "new notes"
    assert entry.attached == ("notes.txt",)
    assert entry.note == (
        "handed in with game.py: notes.txt; 2 submissions found; graded the newest, "
        "game-1.py (file id 500); not graded: game.py (file id 400)"
    )


def test_a_zip_handed_in_with_notes_is_graded_alone_and_the_notes_reported(tmp_path):
    folder = tmp_path / "in"
    submission(folder / "badgerbucky_123_456_hw8_bbadger.zip")
    (folder / "badgerbucky_123_457_notes.txt").write_text("notes")
    (entry,) = collect_into(tmp_path, folder).entries
    assert entry.path.name == "hw8_bbadger.zip"
    assert entry.attached == ("notes.txt",)


def test_names_from_the_inputs_enter_cleaned_and_cut(tmp_path):
    """File names are submission text: admitted where intake reads them (entries, notes,
    warnings, problems), so no report or terminal line shows an escape sequence raw."""
    folder = tmp_path / "in"
    submission(folder / "doejane_10009_502_hw8_10006\x1b[2J\u202e.zip")
    submission(folder / "doejane_10009_503_hw8_10006.zip")
    submission(folder / "smithann_10006_501_homework8.zip")
    write_file(folder / ("n" * 200 + "\x1b.txt"), "notes")
    found = collect_into(tmp_path, folder)
    texts = [*found.warnings, *found.problems]
    texts += [f"{e.source} {e.note} {e.attached}" for e in found.entries]
    assert not any("\x1b" in text or "\u202e" in text for text in texts), texts
    assert "hw8_10006\\x1b[2J\\u202e.zip" in found.entries[1].note
    assert found.problems[0].endswith("n\\x1b.txt is not a .py file, a notebook, a zip or a folder")
