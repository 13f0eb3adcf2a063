"""``autograder check`` on Othello, as a student runs it, through the sandbox and the
driver: the solution and the answer key get full marks, the starter what an unfinished
homework earns, and a forced pass is played for the student without a drift note."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT
from tests.homework import check, scores

SOLUTION = ROOT / "solution" / "othello" / "game.py"
STARTER = ROOT / "starter" / "othello" / "game.py"
KEY = ROOT / "answer_key" / "othello" / "game.py"


@pytest.mark.slow
@pytest.mark.parametrize("path", [SOLUTION, KEY], ids=["solution", "answer key"])
@pytest.mark.long(8)
def test_the_solution_and_the_answer_key_score_100(path, run_cli, tmp_path):
    results, stdout = check(run_cli, path, tmp_path)
    assert results["score"] == 100, stdout
    assert "assignment othello inferred from class OthelloPlayer" in stdout
    assert "won 3 of 3" in stdout


@pytest.mark.slow
def test_the_starter_breaks_the_rules_and_wins_nothing(run_cli, tmp_path):
    """As shipped it plays a random square: in the exact format and fast, but illegal."""
    results, stdout = check(run_cli, STARTER, tmp_path)
    assert scores(results) == {
        "rules": 0,
        "state": 10,
        "format": 10,
        "time": 25,
        "wins": 0,
        "output": 0,
        "packaging": 0,
    }
    assert "outflanks no disc of the opponent's" in stdout


@pytest.mark.slow
def test_a_forced_pass_is_played_for_the_student_and_its_board_does_not_drift(run_cli, tmp_path):
    """On 4×4 with seed 1 the key must pass in game 2: the driver answers the pass, the key's
    own board follows the opponent's next moves, and no drift note is written."""
    results, stdout = check(run_cli, KEY, tmp_path, "--assignment", "othello-4x4", "--seed", "1")
    assert results["score"] == 100, stdout
    assert "drift" not in stdout and "raised" not in stdout
