"""``autograder check`` end to end: real child processes, the default rubric, the exact points.

Each purpose-built submission is the reference solution (with a short search budget) plus a
small patch that breaks one rule, often on a single probe position chosen from the seeded probe
list, so that only the criterion under test can move.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import pytest

from autograder.games.teeko.probes import probe_positions
from autograder.games.teeko.rules import count, is_drop_phase, position_text
from autograder.games.teeko.variants import find_variant
from tests.conftest import (
    COURSE_TOML,
    ROOT,
    SOLUTIONS,
    STARTERS,
    TWO_SQUARES,
    autograder_process,
    course_rubric,
    fast_solution,
)

RUBRIC = course_rubric()
FULL = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30, "output": 0, "packaging": 0}
ZERO = dict.fromkeys(FULL, 0)


def _trigger(phase: str) -> str:
    """The board text of one probe in ``phase`` (seed 0), unlikely to arise in a game."""
    positions = probe_positions(find_variant("teeko"), 0, dict(RUBRIC.probes))
    for pos in positions:
        if (phase == "drop") == is_drop_phase(pos) and count(pos.occupied) >= 3:
            return position_text(pos).split()[0]
    raise AssertionError(f"no {phase} probe to trigger on")


def _patched(body: str, trigger: str | None = None) -> str:
    """The fast solution whose make_move runs ``body`` (which may return) after finding a move."""
    condition = "True" if trigger is None else f"_board_text(state) == {trigger!r}"
    patch = f"""

import sys as _sys
import time as _time
_original_make_move = TeekoPlayer.make_move


def _board_text(state):
    return "".join("." if cell == " " else cell for row in state for cell in row)


def _patched_make_move(self, state):
    move = _original_make_move(self, state)
    if {condition}:
{textwrap.indent(textwrap.dedent(body), "        ")}
    return move


TeekoPlayer.make_move = _patched_make_move
"""
    return fast_solution("teeko") + patch


OCCUPIED = """
return [next((r, c) for r in range(5) for c in range(5) if state[r][c] != " ")]
"""
APPLY_TO_STATE = """
if sum(cell != " " for row in state for cell in row) == 8:
    state[move[1][0]][move[1][1]] = " "
    state[move[0][0]][move[0][1]] = self.my_piece
"""

CASES = {
    "illegal only in the drop phase": (
        _patched(OCCUPIED, _trigger("drop")),
        {"rules": 15},
        "is occupied",
    ),
    "illegal only in the move phase": (
        _patched(TWO_SQUARES, _trigger("move")),
        {"rules": 10},
        "is not adjacent to",
    ),
    "mutates state in the move phase": (
        _patched(APPLY_TO_STATE),
        {"state": 5},
        "make_move changed the state passed to it: squares ",
    ),
    "lists instead of tuples": (
        _patched("return [list(square) for square in move]"),
        {"format": 0},
        "each square should be a tuple (row, col), got [",
    ),
    "a 6 s move": (
        _patched("_time.sleep(6)", _trigger("move")),
        {"time": 13},
        # its own time is the wall time less the waits for a CPU of all its threads: a little
        # under 6 s on a very busy machine (5.94 s beside load 9); the wall is 6 s at least
        re.compile(r"slowest make_move: (5\.9|6\.)\d* s of its own time \(6\."),
    ),
    "an 11 s move": (
        _patched("_time.sleep(11)", _trigger("move")),
        {"time": 0},
        "make_move was still running after 10.5 s and was stopped",
    ),
    "prints while thinking": (
        _patched('print("thinking hard")'),
        {"output": -10},
        "printed: thinking hard",
    ),
}

BROKEN = {
    "crashes in make_move": (
        _patched("1 / 0"),
        "make_move raised ZeroDivisionError: division by zero",
    ),
    "exit() in make_move": (
        _patched("exit()"),
        "make_move tried to end the program: SystemExit",
    ),
    "hangs at import": (
        "while True:\n    pass\n",
        "importing game.py did not finish within 10 s",
    ),
    "input() at import": (
        'name = input("Your move: ")\n',
        "game.py called input() while being imported",
    ),
    "wrong class name": (
        fast_solution("teeko").replace("class TeekoPlayer", "class TeekoPlayr"),
        "game.py defines no class TeekoPlayer (it defines: TeekoPlayr)",
    ),
    "syntax error": (
        "class TeekoPlayer:\n    def make_move(self state):\n        pass\n",
        "game.py has a syntax error",
    ),
}


def _scores(results: dict) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


def _check(run_cli, path: Path, tmp_path: Path, *extra: str) -> tuple[dict, str]:
    out = tmp_path / "results.json"
    done = run_cli("check", str(path), "--json", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("case", list(CASES))
def test_one_broken_rule_costs_exactly_its_points(case, make_submission, run_cli, tmp_path):
    source, changed, message = CASES[case]
    results, stdout = _check(run_cli, make_submission(source), tmp_path)
    expected = FULL | changed
    assert _scores(results) == expected
    assert results["score"] == sum(expected.values())
    said = " ".join(stdout.split())
    assert message.search(said) if isinstance(message, re.Pattern) else message in said, stdout


@pytest.mark.slow
@pytest.mark.parametrize("case", list(BROKEN))
def test_a_submission_that_cannot_play_gets_zero_and_the_reason(
    case, make_submission, run_cli, tmp_path
):
    source, message = BROKEN[case]
    results, stdout = _check(run_cli, make_submission(source), tmp_path, "--assignment", "teeko")
    assert results["score"] == 0
    assert all(points <= 0 for points in _scores(results).values())
    assert message in " ".join(stdout.split()), stdout
    assert "Traceback" not in stdout


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["teeko", "teeko2"])
def test_the_starter_gets_the_partial_marks_the_rubric_implies(variant, run_cli, tmp_path):
    """As shipped, the starter drops a marker even in the move phase: every drop-phase move is
    legal, exact and harmless (rules 10, format 5, state 10), every move-phase move is an
    illegal, one-square drop (rules 0, format 0), it is instant (time 25), and with seed 0 each
    game is lost on the starter's first move-phase move (wins 0): 50 in all."""
    results, stdout = _check(run_cli, STARTERS[variant], tmp_path)
    assert _scores(results) == {
        "rules": 10,
        "state": 10,
        "format": 5,
        "time": 25,
        "wins": 0,
        "output": 0,
        "packaging": 0,
    }
    assert results["score"] == 50
    assert f"assignment {variant} inferred from class" in stdout
    assert "all 8 markers are down" in " ".join(stdout.split())


@pytest.mark.slow
def test_a_grader_started_with_no_stdin_grades_as_usual(tmp_path):
    """As ``0<&-`` or a cron job starts it: the grader's first pipe to a submission would take
    the free number 0, which the submission's process gets as its stdin, so it read no
    request and every grade was 0 ("exited with status 0 during importing game.py")."""
    out = tmp_path / "results.json"
    args = ["check", str(STARTERS["teeko2"]), "--json", str(out)]
    done = autograder_process(args, timeout=240, stdin_closed=True)
    assert done.returncode == 0, done.stderr
    assert json.loads(out.read_text())["score"] == 50, done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["teeko", "teeko2"])
@pytest.mark.long(20)
def test_the_reference_solution_scores_100(variant, run_cli, tmp_path):
    results, stdout = _check(run_cli, SOLUTIONS[variant], tmp_path)
    assert results["score"] == 100, stdout
    assert _scores(results) == FULL


@pytest.mark.slow
def test_with_tactics_on_a_player_with_no_search_loses_them_and_each_missed_block_is_named(
    run_cli, tmp_path
):
    """The course's rubric cannot tell a player with no search from a sound one (both beat
    the random player); ``[tactics]`` with points can, by the blocks it misses (docs/grading.md).
    No solver reaches Teeko, so a block is judged by the rules two plies deep."""
    on = tmp_path / "tactics.toml"
    on.write_text(COURSE_TOML.read_text() + "\n[tactics]\nprobes = 10\npoints = 10\n")
    key = (ROOT / "answer_key/teeko2/game.py").read_text()
    first = key.replace(
        "    def make_move(self, state) -> list:\n",
        "    def make_move(self, state) -> list:\n"
        "        return self.legal_moves(state, self.my_piece)[0]\n",
    )
    assert first != key
    none = tmp_path / "none" / "game.py"
    none.parent.mkdir()
    none.write_text(first)
    graded = {}
    for name, path in (("key", ROOT / "answer_key/teeko2/game.py"), ("none", none)):
        results, stdout = _check(run_cli, path, tmp_path, "--rubric", str(on))
        graded[name] = (_scores(results), " ".join(stdout.split()))
    assert graded["key"][0]["tactics"] == 10 and graded["none"][0]["tactics"] == 0
    assert graded["none"][0]["wins"] == 30, "the games alone do not tell"
    assert "lets the opponent win next move;" in graded["none"][1]
    assert re.search(
        r"lets the opponent win next move; [A-E][1-5]\S* .*does not", graded["none"][1]
    )


def test_same_seed_same_grade_and_results_json_schema(make_submission, run_cli, tmp_path):
    path = make_submission(_patched(OCCUPIED, _trigger("drop")))
    first, _ = _check(run_cli, path, tmp_path, "--seed", "0")
    second, _ = _check(run_cli, path, tmp_path, "--seed", "0")
    assert _scores(first) == _scores(second)
    for test in first["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "tags"}
    assert [t["tags"][0] for t in first["tests"]] == list(FULL)


def test_bad_arguments_exit_non_zero_with_one_line(run_cli, tmp_path):
    missing = run_cli("check", str(tmp_path / "nowhere.py"), expect_ok=False)
    assert missing.returncode == 2
    assert missing.stderr.strip().count("\n") == 0
    assert "does not exist" in missing.stderr
    wrong = run_cli("check", str(SOLUTIONS["teeko"]), "--assignment", "chess", expect_ok=False)
    assert wrong.returncode == 2
    assert "unknown assignment 'chess': choose one of teeko, teeko2, teeko2-diamond" in wrong.stderr


def test_python_dash_m_and_the_console_script_agree(run_cli):
    done = run_cli("--help")
    assert done.returncode == 0
    assert "check" in done.stdout
