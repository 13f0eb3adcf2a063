"""The Canvas gradebook import written from a class's grades and the instructor's roster."""

from __future__ import annotations

from pathlib import Path

import pytest

from autograder.classroom.canvas import write_canvas_import
from autograder.classroom.records import Record
from autograder.errors import GraderError

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


def test_a_roster_saved_with_semicolons_is_read_as_canvas_wrote_it(tmp_path):
    """As a spreadsheet in a language with a decimal comma saves the export."""
    roster = _roster(tmp_path, ROSTER.replace(",", ";").replace('"Chen; Eve"', '"Chen, Eve"'))
    out = tmp_path / "import.csv"
    write_canvas_import([_record("echen", 9)], roster, out)
    assert '"Chen, Eve",124,9002,echen,LEC 001,9' in out.read_text()


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
        (
            ROSTER + '"Dup, Id",124,9009,dup,LEC 001,,,\n',
            None,
            r"gives the ID 124 to two rows, Chen, Eve \(login echen, ID 124\) and Dup, Id "
            r"\(login dup, ID 124\); a Canvas ID is one student's",
        ),
        (
            "Student,ID,SIS User ID,SIS Login ID,Section,ID,HW8\n",
            None,
            "has two columns named 'ID'; keep one",
        ),
    ],
    ids=[
        "one missing",
        "all missing",
        "no assignment",
        "unknown column",
        "ambiguous",
        "empty",
        "one ID twice",
        "two ID columns",
    ],
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
            r"is not a readable CSV file \(field larger than field limit \(131072\)\); export "
            "the gradebook from Canvas again",
        ),
    ],
    ids=["missing", "not UTF-8", "huge field"],
)
def test_an_unreadable_roster_is_refused(tmp_path, make, message):
    path = tmp_path / "roster.csv"
    make(path)
    with pytest.raises(GraderError, match=message):
        write_canvas_import([], path, tmp_path / "import.csv")
