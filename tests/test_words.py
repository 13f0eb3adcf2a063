"""What users read speaks their words: the README, the docs, the example classes' READMEs, every
rubric's title and every homework's description (both reach students' reports and the command
line) never name the kit's source documents by number or a path outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from autograder.games import ASSIGNMENTS
from autograder.grading.rubric import load_rubric
from tests.conftest import ROOT

INTERNAL = re.compile(r"seed ?0\d\d|\.\./shared|shared/seeds|KIT_SPEC", re.IGNORECASE)


def _read_by_users() -> list[Path]:
    return [
        ROOT / "README.md",
        *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "examples").glob("**/README.md")),
    ]


@pytest.mark.parametrize("path", _read_by_users(), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_document_a_user_reads_has_no_internal_words(path: Path) -> None:
    found = [
        f"line {number}: {line.strip()}"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if INTERNAL.search(line)
    ]
    assert not found, "\n".join(found)


def test_what_a_report_says_of_a_homework_has_no_internal_words() -> None:
    said = []
    for name, assignment in sorted(ASSIGNMENTS.items()):
        interface = assignment.interface
        rubric = load_rubric(None, assignment.pack)
        for text in (rubric.title, interface.course, assignment.variant.description):
            if INTERNAL.search(text):
                said.append(f"{name}: {text}")
    assert not said, "\n".join(said)
