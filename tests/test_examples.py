"""The bundled example class: its zips are what make_examples.py writes, byte for byte, and
its grades are the ones on record."""

from __future__ import annotations

import csv
import re
import subprocess
import sys

import pytest

from autograder.grading.scoring import CRITERIA
from tests.conftest import ROOT


@pytest.mark.parametrize(
    "script",
    [
        "make_examples.py",
        "make_connect4_examples.py",
        "make_board_abc_examples.py",
        "make_othello_examples.py",
    ],
)
def test_the_example_files_are_current(script):
    """Each example class is what its script writes, byte for byte."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole class, beside another test on a busy machine
@pytest.mark.serial  # the portable runner judges moves on the wall clock: alone
def test_the_example_class_keeps_its_grades_on_the_portable_runner(run_cli, tmp_path):
    """The bundled class graded by the portable runner (Windows's, forced here): every
    student's points per criterion are the ones in tests/data/example_grades.csv. With this
    machine's sandbox, the README's own command grades it to the same figures after a
    non-editable install (tests/test_install.py). A change to the kit that moves one is a
    change of grades, and must be deliberate."""
    done = run_cli(
        "grade",
        str(ROOT / "examples" / "submissions"),
        "--assignment",
        "teeko2",
        "--out",
        str(tmp_path / "grades"),
        env={"TEEKO_SANDBOX": "portable"},
    )
    assert done.returncode == 0, done.stderr
    columns = ("student", "score", *CRITERIA)
    with (tmp_path / "grades" / "grades.csv").open() as handle:
        graded = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    with (ROOT / "tests" / "data" / "example_grades.csv").open() as handle:
        expected = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    assert graded == expected
    feedback = next((tmp_path / "grades" / "students").glob("*/feedback.md")).read_text()
    assert "warning: portable runner (Windows, or TEEKO_SANDBOX=portable)" in feedback


def _grade_example(run_cli, tmp_path, folder, data, more):  # type: ignore[no-untyped-def]
    """Grade ``examples/<folder>`` with its roster as the README says; its points per criterion
    (and the ``more`` columns) must be those in ``tests/data/<data>_example_grades.csv``."""
    out = tmp_path / "grades"
    done = run_cli(
        "grade",
        str(ROOT / "examples" / folder / "submissions"),
        "--assignment",
        folder,
        "--out",
        str(out),
        "--roster",
        str(ROOT / "examples" / folder / "roster.csv"),
    )
    assert done.returncode == 0, done.stderr
    columns = ("student", "score", *CRITERIA, *more)
    with (out / "grades.csv").open() as handle:
        graded = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    with (ROOT / "tests" / "data" / f"{data}_example_grades.csv").open() as handle:
        expected = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    assert graded == expected
    return out, done


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole class, beside another test on a busy machine
@pytest.mark.long(15)
def test_the_connect4_example_class_keeps_its_grades(run_cli, tmp_path):
    """The README's Connect Four command: the grades on record, and the roster matched whole."""
    out, done = _grade_example(run_cli, tmp_path, "connect4", "connect4", ("tactics",))
    assert "roster:" not in done.stderr
    _tactics_summary_is_the_feedbacks(out)
    with (out / "canvas_import.csv").open() as handle:
        imported = {
            row["SIS Login ID"]: row["Connect Four (2001)"] for row in csv.DictReader(handle)
        }
    assert imported["wchen"] == "100" and imported["ldubois"] == "20"


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole class, beside another test on a busy machine
@pytest.mark.long(11)
def test_the_othello_example_class_keeps_its_grades(run_cli, tmp_path):
    """The Othello command of examples/othello/README.md: the grades on record, the roster
    matched whole, and the student who reads her colour off the disc count shown the None
    she returned for the other colour after a pass."""
    out, done = _grade_example(run_cli, tmp_path, "othello", "othello", ())
    assert "roster:" not in done.stderr
    with (out / "canvas_import.csv").open() as handle:
        imported = {row["SIS Login ID"]: row["Othello (3001)"] for row in csv.DictReader(handle)}
    assert imported["mcastillo"] == "100" and imported["gellis"] == "50"
    assert "got None (a NoneType)" in _feedback(out, "gellis")


def _feedback(out, student):  # type: ignore[no-untyped-def]
    return (out / "students" / student / "feedback.md").read_text()


def _tactics_summary_is_the_feedbacks(out):  # type: ignore[no-untyped-def]
    """The class summary's tactics figures are the students' own: passed by those whose
    feedback counts every tactical position right, the class's total their sum."""
    right = asked = passed = 0
    students = sorted(p.name for p in (out / "students").iterdir())
    for student in students:
        row = next(line for line in _feedback(out, student).splitlines() if "(`tactics`) |" in line)
        kinds = row.split("|")[3].split(" right, where")[0].rsplit(";", 1)[0]  # not the total
        counts = [tuple(map(int, m)) for m in re.findall(r"(\d+) of (\d+)", kinds)]
        assert counts, row
        right += sum(r for r, _ in counts)
        asked += sum(a for _, a in counts)
        passed += all(r == a for r, a in counts)
    summary = (out / "summary.md").read_text()
    row = next(line for line in summary.splitlines() if "| `tactics` |" in line)
    assert f" {passed}/{len(students)} " in row, row
    assert f"answered right, all students: {right} of {asked}" in summary
    assert passed < len(students)  # someone missed one: a summary of all passed is wrong


@pytest.mark.slow
@pytest.mark.timeout(900)  # a whole class, beside another test on a busy machine
@pytest.mark.long(100)
def test_the_board_abc_example_class_keeps_its_grades_and_names_each_mistake(run_cli, tmp_path):
    """The README's Board ABC command: four Canvas attachments are one attempt; the grades on
    record; and each broken piece is named in its student's feedback, with a board."""
    out, _ = _grade_example(
        run_cli, tmp_path, "board-abc", "board_abc", ("boards", "search", "tactics")
    )
    _tactics_summary_is_the_feedbacks(out)
    with (out / "grades.csv").open() as handle:
        notes = {row["student"]: row["note"] for row in csv.DictReader(handle)}
    assert notes["ralvarez"] == "handed in with minimax.py: board.py, connectfour.py, tictactoe.py"
    assert "the attempt also holds" not in _feedback(out, "ralvarez")
    board = "    -----\n"  # a tic-tac-toe board drawn under the message
    mutates = _feedback(out, "wchen")
    assert "changed the board it was called on; copy the position and change the copy" in mutates
    assert board in mutates
    assert "so it does not stop at max_depth" in _feedback(out, "ldubois")
    is_draw = _feedback(out, "keze")
    assert "is_draw is True; it should be False: a line is complete\n  position:" in is_draw
    assert "X|X|X" in is_draw
    assert "find_best_move played" in _feedback(out, "jfischer")
    assert "and did not block" in _feedback(out, "jfischer")
    assert "TODO 1: write TTTBoard.legal_moves in tictactoe.py" in _feedback(out, "sbrown")
