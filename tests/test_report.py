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
from autograder.grading.report import (
    Feedback,
    games_data,
    markdown,
    results_json,
    results_json_text,
    terminal,
)
from autograder.grading.scoring import Grade, score
from autograder.play.host import Status
from autograder.play.records import Call, Game, Ply, Session
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
    terminal(Feedback(grade, NOTES), console=Console(file=buffer, width=100, color_system=None))
    return buffer.getvalue()


RENDERERS = {
    "report.md": lambda grade: markdown(Feedback(grade, NOTES)),
    "results.json": lambda grade: results_json_text(Feedback(grade, NOTES)),
    "report.txt": _terminal,
    "report.html": lambda grade: feedback_html(Feedback(grade, NOTES)),
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
    results = results_json(Feedback(_grade()))
    rules = next(t for t in results["tests"] if t["tags"] == ["rules"])
    assert rules["output_format"] == "md"
    summary, block = rules["output"].split("\n\n", 1)
    assert "```" not in summary
    assert block.startswith("```text\nprobe 2 (move phase, you play red)")
    assert block.endswith("       A B C D E\n```")


def _long_game_grade(plies: int = 200) -> Grade:
    """A game of ``plies`` moves, each printing 1,000 characters (refused moves: the replay
    needs no legal sequence to show them)."""
    grade = _grade()
    moves = tuple(
        Ply("b", None, f"move {n}", 0.1, (), "refused", f"{n}:" + "p" * 1000) for n in range(plies)
    )
    game = replace(grade.session.games[0], moves=moves)
    return replace(grade, session=replace(grade.session, games=(game,)))


def test_the_game_records_keep_the_printed_text_of_ten_moves_cut():
    (game,) = games_data(_long_game_grade())
    printed = [move["printed"] for move in game["moves"]]
    assert len(printed) == 200
    assert printed[0] == "0:" + "p" * 298 + " [... 702 more characters]"
    assert printed[9].startswith("9:ppp")
    assert printed[10] == "[1003 characters printed; the first 10 moves that printed show theirs]"


def test_a_long_game_keeps_its_first_and_last_plies_when_asked():
    grade = _long_game_grade()
    (game,) = games_data(grade, plies=40)
    texts = [move["move"] for move in game["moves"]]
    skipped = "plies 31-190 are not shown: the reports of one student are kept under 100 KB"
    assert texts == [
        *(f"move {n}" for n in range(30)),
        skipped,
        *(f"move {n}" for n in range(190, 200)),
    ]
    (whole,) = games_data(grade)
    assert len(whole["moves"]) == 200
    page = feedback_html(Feedback(grade), plies=40)
    assert page.count("<li>ply ") == 40 and f"<li>{skipped}</li>" in page
    assert len(page.encode()) < len(feedback_html(Feedback(grade)).encode()) / 2
