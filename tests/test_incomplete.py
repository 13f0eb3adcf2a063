"""What a run tells when it did not finish or could not: "incomplete: N of M" in the partial
outputs, games played without a sandbox layer named, output paths refused before any work, and
progress said line by line outside a terminal."""

from __future__ import annotations

import csv
import io

import pytest
from rich.console import Console

from autograder.classroom.canvas import write_canvas_import
from autograder.classroom.class_tournament import _without_layers
from autograder.classroom.outputs import writable_file, writable_folder
from autograder.classroom.records import Record
from autograder.classroom.tournament import TournamentResult
from autograder.cli.options import progress_lines
from autograder.errors import GraderError
from autograder.grading.tournament import leaderboard_csv, rate
from tests.conftest import SOLUTIONS

ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
    "    Points Possible,,,,,100\n"
    '"Chen, Eve",124,9002,echen,LEC 001,\n'
    '"Lee, Kim",125,9003,klee,LEC 002,\n'
)


def _game(number: int, missing: list[str] | None = None) -> dict[str, object]:
    return {"id": f"a--b--{number}", "first": "a", "second": "b", "winner": "a"} | (
        {"missing_layers": missing} if missing is not None else {}
    )


def test_a_tournament_not_played_through_says_how_far_it_got():
    games = (_game(1), _game(2))
    assert TournamentResult(games, 2, 1.0, True, scheduled=6).incomplete == (
        "incomplete: 2 of 6 games played"
    )
    assert TournamentResult(games, 2, 1.0, False, scheduled=2).incomplete is None
    table = rate([("a", "student", ""), ("b", "student", "")], list(games))
    rows = list(csv.reader(io.StringIO(leaderboard_csv(table, "incomplete: 2 of 6 games played"))))
    assert rows[-1] == ["incomplete: 2 of 6 games played"]
    assert len(rows) == 4  # the header, a row per player, the line saying it is incomplete
    assert "incomplete" not in leaderboard_csv(table)


def test_games_played_without_a_sandbox_layer_are_named():
    games = [_game(1, ["fence"]), _game(2, []), _game(3), _game(4, ["fence"])]
    assert _without_layers(games) == [
        "warning: 2 games were played without fence (a--b--1, a--b--4); see docs/sandbox.md"
    ]
    assert _without_layers([_game(2, [])]) == []


def test_a_canvas_import_of_an_interrupted_run_ends_with_a_row_saying_so(tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text(ROSTER)
    out = tmp_path / "canvas_import.csv"
    graded = [Record("echen", "graded", 90, 100, {}, canvas_id="124")]
    write_canvas_import(graded, roster, out, incomplete="incomplete: 1 of 2 students graded")
    rows = list(csv.reader(out.open()))
    assert rows[-1] == ["incomplete: 1 of 2 students graded", "", "", "", "", ""]
    assert rows[2][-1] == "90" and rows[3][-1] == ""


def test_an_output_path_that_cannot_be_written_is_refused_before_any_work(tmp_path):
    folder = tmp_path / "report"
    folder.mkdir()
    with pytest.raises(GraderError, match=r"^--html .*report is a folder; name a file to write$"):
        writable_file(folder, "--html")
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(GraderError, match=r"^--out .*file is a file, not a folder; .*missing\)$"):
        writable_folder(blocker)
    with pytest.raises(GraderError, match=r"^--json .*file is a file, not a folder; name a folder"):
        writable_file(blocker / "results.json", "--json")
    writable_file(tmp_path / "new" / "page.html", "--html")  # its folder can be made
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "report"]  # nothing made


@pytest.mark.timeout(60)
def test_check_refuses_a_report_path_before_grading(tmp_path, run_cli):
    (tmp_path / "page.html").mkdir()
    done = run_cli("check", str(SOLUTIONS["teeko2"]), "--html", str(tmp_path / "page.html"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"autograder: --html {tmp_path / 'page.html'} is a folder; name a file to write"
    )


def test_outside_a_terminal_progress_is_a_line_per_student_and_per_ten_games():
    out = io.StringIO()
    track = progress_lines(Console(file=out, width=200))
    with track("grading") as update:
        update(1, 2, "graded ann: 90")
        update(2, 2, "graded ben: 80")
    with track("playing") as update:
        for done in range(1, 13):
            update(done, 12, f"game {done}")
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "grading: 1 of 2",
        "grading: 2 of 2",
        "playing: 10 of 12",
        "playing: 12 of 12",
    ]
    assert lines[0].endswith("left; graded ann: 90") and "about" in lines[0]
    assert "\x1b" not in out.getvalue()
