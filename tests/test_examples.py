"""The bundled example class: its zips are what make_examples.py writes, byte for byte, and
its grades are the ones on record."""

from __future__ import annotations

import csv
import subprocess
import sys

import pytest

from autograder.grading.scoring import CRITERIA
from tests.conftest import ROOT


def test_the_example_zips_are_current():
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("sandbox", ["", "portable"], ids=["this machine's sandbox", "portable"])
def test_the_example_class_keeps_its_grades(run_cli, tmp_path, sandbox):
    """The README's command on the bundled class: every student's points per criterion are the
    ones in tests/data/example_grades.csv. A change to the kit that moves one is a change of
    grades, and must be deliberate. The portable runner (Windows's, forced here) grades the
    same."""
    done = run_cli(
        "grade",
        str(ROOT / "examples" / "submissions"),
        "--assignment",
        "teeko2",
        "--out",
        str(tmp_path / "grades"),
        env={"TEEKO_SANDBOX": sandbox},
    )
    assert done.returncode == 0, done.stderr
    columns = ("student", "score", *CRITERIA)
    with (tmp_path / "grades" / "grades.csv").open() as handle:
        graded = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    with (ROOT / "tests" / "data" / "example_grades.csv").open() as handle:
        expected = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    assert graded == expected
    if sandbox:
        feedback = next((tmp_path / "grades" / "students").glob("*/feedback.md")).read_text()
        assert "warning: portable runner (Windows, or TEEKO_SANDBOX=portable)" in feedback
