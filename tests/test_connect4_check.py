"""``autograder check`` on Connect Four, as a student runs it: the solution and the answer key
get full marks, the starter what an unfinished homework earns, each broken rule its message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import ROOT

SOLUTION = ROOT / "solution" / "connect4" / "game.py"
STARTER = ROOT / "starter" / "connect4" / "game.py"
KEY = ROOT / "answer_key" / "connect4" / "game.py"


def _check(run_cli, path: Path, tmp_path: Path, *extra: str) -> tuple[dict, str]:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.json"
    done = run_cli("check", str(path), "--json", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), " ".join(done.stdout.split())


def _scores(results: dict) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


def _student(tmp_path: Path, source: str) -> Path:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(source)
    return folder / "game.py"


@pytest.mark.slow
@pytest.mark.parametrize("path", [SOLUTION, KEY], ids=["solution", "answer key"])
def test_the_solution_and_the_answer_key_score_100(path, run_cli, tmp_path):
    results, stdout = _check(run_cli, path, tmp_path)
    assert results["score"] == 100, stdout
    assert "assignment connect4 inferred from class Connect4Player" in stdout
    assert "win in 1: 3 of 3; block: 3 of 3 (reported, no points)" in stdout


@pytest.mark.slow
def test_the_starter_loses_the_rules_on_full_columns_and_wins_nothing(run_cli, tmp_path):
    """As shipped it drops into a random column: legal and exact on most probes, but a full
    column now and then (rules 0), and with seed 0 it loses all three games."""
    results, stdout = _check(run_cli, STARTER, tmp_path)
    assert _scores(results) == {
        "rules": 0,
        "state": 10,
        "format": 10,
        "time": 25,
        "wins": 0,
        "tactics": 0,
        "output": 0,
        "packaging": 0,
    }
    assert "is full: all 6 of its rows hold a disc" in stdout


_CHOICE = "        return best_column\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "points", "message"),
    [
        (
            "        return [best_column]\n",
            {"rules": 0, "format": 0, "wins": 0, "state": 10, "time": 25},
            "got [3] (a list) (return the column alone, not a list)",
        ),
        (
            "        return True if best_column == 1 else best_column\n",
            {"rules": 0, "format": 0, "state": 10},
            "make_move returned True, a bool: return the column, an int",
        ),
        (
            "        state[0][0] = self.opp  # a disc floating in the top corner\n" + _CHOICE,
            {"state": 0, "format": 10},
            "make_move changed the state passed to it: square [0][0] (' ' → '",
        ),
        (
            '        print("column", best_column)\n' + _CHOICE,
            {"output": -10, "rules": 25, "wins": 30},
            "printed in",
        ),
    ],
    ids=["a list", "a bool", "changes the state", "prints"],
)
def test_one_broken_rule_costs_its_points_and_says_why(change, points, message, run_cli, tmp_path):
    source = KEY.read_text()
    assert source.count(_CHOICE) == 1
    results, stdout = _check(run_cli, _student(tmp_path, source.replace(_CHOICE, change)), tmp_path)
    scores = _scores(results)
    assert {k: scores[k] for k in points} == points, stdout
    assert message in stdout


@pytest.mark.slow
def test_a_connect4_board_of_another_size_is_graded_by_name(run_cli, tmp_path):
    results, stdout = _check(run_cli, KEY, tmp_path, "--assignment", "connect4-8x6")
    assert results["score"] == 100, stdout
    assert "assignment: connect4-8x6 (8 columns by 6 rows, 4 in a line wins)" in stdout
