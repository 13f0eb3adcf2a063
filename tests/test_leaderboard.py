"""The leaderboard: the figures a rubric asks for, in Gradescope's results.json and ranked in
the class summary; in process, on hand-built sessions and records."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from autograder.classroom.records import STATUS_GRADED, Record
from autograder.classroom.summary import write_summary
from autograder.errors import GraderError
from autograder.games.teeko.probes import probe_positions
from autograder.grading.extras import Extras, Rung
from autograder.grading.leaderboard import leaderboard
from autograder.grading.report import Feedback, results_json
from autograder.grading.rubric import load_rubric
from autograder.grading.scoring import score
from autograder.play.host import Status
from autograder.play.records import Call, Game, Session
from tests.conftest import COURSE_TOML, TEEKO, assignment

pytestmark = pytest.mark.timeout(60)


def _rubric(tmp_path: Path, show: str):  # type: ignore[no-untyped-def]
    path = tmp_path / "course.toml"
    path.write_text(COURSE_TOML.read_text() + f"\n[leaderboard]\nshow = {show}\n")
    return load_rubric(path, TEEKO)


DROP, MOVE = probe_positions(assignment("teeko").variant, 0, {"drop": 1, "move": 1})


def _game(number: int, result: str) -> Game:
    return Game(number, "b", result, "because", 9, MOVE, ())


def _grade(rubric):  # type: ignore[no-untyped-def]
    teeko = assignment("teeko")
    calls = tuple(
        Call(f"probe {n}", DROP, "drop", Status.OK, seconds, move=object())
        for n, seconds in enumerate((0.2, 1.75, 0.4), 1)
    )
    games = (_game(1, "win"), _game(2, "loss"), _game(3, "win"))
    session = Session("game.py", teeko, 0, rubric.plan, games=games, probes=calls)
    return score(session, rubric)


def test_the_figures_asked_for_come_out_in_gradescopes_form(tmp_path):
    rubric = _rubric(tmp_path, '["games_won", "slowest_move", "ladder"]')
    grade = _grade(rubric)
    ladder = (
        Rung("the random player", (_game(1, "win"), _game(2, "win"))),
        Rung("the greedy player", (_game(1, "win"), _game(2, "draw"))),
        Rung("the perfect player", (_game(1, "loss"), _game(2, "loss"))),
    )
    assert leaderboard(grade, Extras(ladder=ladder), rubric.leaderboard) == [
        {"name": "games_won", "value": 2},
        {"name": "slowest_move", "value": 1.75, "order": "asc"},
        {"name": "ladder", "value": 2},
    ]
    # without the extras, their figures are left out rather than made up
    assert results_json(Feedback(grade))["leaderboard"] == [
        {"name": "games_won", "value": 2},
        {"name": "slowest_move", "value": 1.75, "order": "asc"},
    ]


def test_no_leaderboard_unless_the_rubric_asks(tmp_path):
    rubric = load_rubric(COURSE_TOML, TEEKO)
    assert "leaderboard" not in results_json(Feedback(_grade(rubric)))


def test_an_unknown_figure_is_refused_in_one_sentence(tmp_path):
    with pytest.raises(GraderError) as caught:
        _rubric(tmp_path, '["elo"]')
    assert str(caught.value).endswith(
        "leaderboard.show holds 'elo'; choose from score, games_won, slowest_move, ladder, "
        "puzzles, move_quality"
    )


def _record(student: str, **figures: float) -> Record:
    return Record(student, STATUS_GRADED, 90, 100, {}, leaderboard=dict(figures))


def test_the_summary_ranks_by_the_first_figure_the_right_way_round(tmp_path):
    rubric = _rubric(tmp_path, '["slowest_move", "games_won"]')
    records = [
        _record("ann", slowest_move=2.5, games_won=3),
        _record("bo", slowest_move=0.3, games_won=1),
        replace(_record("cy"), leaderboard={}),  # not measured: last
        _record("di", slowest_move=0.9, games_won=2),
    ]
    write_summary(records, tmp_path, "HW", rubric=rubric)
    text = (tmp_path / "summary.md").read_text()
    table = text.split("## Leaderboard", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert rows == [
        "| 1 | bo | 0.3 | 1 |",
        "| 2 | di | 0.9 | 2 |",
        "| 3 | ann | 2.5 | 3 |",
        "| 4 | cy |  |  |",
    ]
    assert "ranked by slowest_move" in text
    assert "<h2>Leaderboard</h2>" in (tmp_path / "summary.html").read_text()
