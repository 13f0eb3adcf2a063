"""The fairness table: for each homework, submissions with a known fault, each graded by the
homework's own rubric, must grade within the band the course would defend for that fault
(``tests/data/fairness/<homework>/cases.toml``, where each case says why). A change to any
check that moves a grade out of its band fails here, with every criterion's summary.

Sound code (the answer keys, the courses' own code, a Colab notebook with its drive and
display lines, a numpy board with row 0 at the top) must keep full marks; a broken search
must grade well below it. ``bench/fairness.py`` prints the same table.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from tests.fairness import HOMEWORKS, Case, cases, grade, pinned, reasons

CASES = [case for homework in HOMEWORKS for case in cases(homework)]


@pytest.mark.slow
@pytest.mark.timeout(900)  # a case that runs every call to the limit, on a busy machine
@pytest.mark.long(30)  # started early: the slowest cases take minutes
@pytest.mark.parametrize("case", CASES, ids=[f"{c.homework}: {c.name}" for c in CASES])
def test_each_fault_grades_within_the_band_the_course_would_give_it(case: Case) -> None:
    graded = grade(case) if case.example is None else pinned(case)
    assert graded.within, f"{graded.line()}\n  why: {' '.join(case.why.split())}\n{reasons(graded)}"


@pytest.mark.parametrize("homework", HOMEWORKS)
def test_each_homework_has_a_sound_case_at_full_marks(homework: str) -> None:
    found = cases(homework)
    assert found, f"tests/data/fairness/{homework}/cases.toml holds no case"
    assert any(c.band == (100.0, 100.0) for c in found), "a sound submission keeps full marks"


def test_every_case_builds_and_says_why() -> None:
    """Each case's changes apply exactly once to its base, and each names its reason."""
    for homework in HOMEWORKS:
        for case in cases(homework):
            assert len(case.why.split()) >= 5, case.name
            assert 0 <= case.band[0] <= case.band[1] <= 100, case.name
            with tempfile.TemporaryDirectory() as work:
                assert case.build(Path(work) / "x").exists()
