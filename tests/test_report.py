"""The reports, whole: one hand-built grade rendered in every format and compared with the
files in tests/data/golden. A change in what a student reads shows up here as a diff.

After a deliberate change, regenerate with ``TEEKO_GOLDEN=write pytest tests/test_report.py``
and read the diff before committing it.
"""

from __future__ import annotations

import io
import os
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

from autograder.grading.html import feedback_html
from autograder.grading.report import markdown, results_json, results_json_text, terminal
from autograder.grading.scoring import Grade, score
from autograder.play.host import Status
from autograder.play.referee import Call, Game, Session
from tests.conftest import ROOT, assignment, course_rubric
from tests.test_scoring import DROP, MOVE

GOLDEN = ROOT / "tests" / "data" / "golden"
NOTES = ("assignment teeko inferred from class TeekoPlayer",)


def _grade() -> Grade:
    teeko = assignment("teeko")
    ok = Call("probe 1 (drop phase, you play black)", DROP, "drop", Status.OK, 0.41, "[(2, 2)]")
    illegal = replace(
        ok,
        where="probe 2 (move phase, you play red)",
        position=MOVE,
        phase="move",
        returned="[(0, 0), (4, 4)]",
        illegal="(0, 0) is not adjacent to (4, 4)",
        printed="thinking ```\nhard",
    )
    slow = replace(
        ok,
        where="game 1 (you played black), move 2",
        seconds=6.2,
        cpu_seconds=6.1,
        measured=(9.8, 6.2),
    )
    games = (
        Game(1, "b", "win", "you completed a goal on ply 7", 7, MOVE, (slow,)),
        Game(2, "r", "loss", "the random player had a goal on ply 8", 8, MOVE, (), ("drift",)),
    )
    session = Session(
        "student.py", teeko, 0, course_rubric().plan, games=games, probes=(ok, illegal)
    )
    return score(session, course_rubric(), ["the zip is named 'x.zip', not hw8_<netid>.zip"])


def _terminal(grade: Grade) -> str:
    buffer = io.StringIO()
    terminal(grade, NOTES, console=Console(file=buffer, width=100, color_system=None))
    return buffer.getvalue()


RENDERERS = {
    "report.md": lambda grade: markdown(grade, NOTES),
    "results.json": lambda grade: results_json_text(grade, NOTES),
    "report.txt": _terminal,
    "report.html": lambda grade: feedback_html(grade, NOTES),
}


@pytest.mark.parametrize("name", list(RENDERERS))
def test_a_report_is_what_the_golden_file_says(name):
    text = RENDERERS[name](_grade())
    path = GOLDEN / name
    if os.environ.get("TEEKO_GOLDEN") == "write":
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; see the module's docstring"


def test_every_format_carries_the_same_evidence():
    grade = _grade()
    for text in (RENDERERS[name](grade) for name in RENDERERS):
        assert "(0, 0) is not adjacent to (4, 4)" in text
        assert "took 6.20 s" in text


def test_golden_files_exist_for_every_format():
    assert sorted(p.name for p in Path(GOLDEN).iterdir()) == sorted(RENDERERS)


def test_gradescope_reads_markdown_with_each_board_in_a_code_block():
    """Gradescope renders ``output_format: md``: the summary is one escaped line, each board a
    fenced block, so the page reads like the terminal report."""
    results = results_json(_grade())
    rules = next(t for t in results["tests"] if t["tags"] == ["rules"])
    assert rules["output_format"] == "md"
    summary, block = rules["output"].split("\n\n", 1)
    assert "```" not in summary
    assert block.startswith("```text\nprobe 2 (move phase, you play red)")
    assert block.endswith("       A B C D E\n```")
