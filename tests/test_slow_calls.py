"""A slow call costs what the course's rubric says and no more: the time points (the slowest
move decides them). A call past the hard limit is stopped, a random legal move is played for it
in a game, and the game goes on; later calls are asked and judged as usual."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import COURSE_TOML, ROOT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

# The answer key, whose moves take longer than the 1 s limit while fewer than two markers are
# down: the first two drop probes and each game's first move.
_SLOW_OPENING = """

_honest_make_move = TeekoPlayer.make_move


def _slow_opening(self, state):
    if sum(cell != " " for row in state for cell in row) < 2:
        import time

        time.sleep(3)
    return _honest_make_move(self, state)


TeekoPlayer.make_move = _slow_opening
"""


def _rubric(folder: Path) -> Path:
    """The course's rubric with a 1 s limit, 2 games and 3 + 3 probes; two timeouts in a row
    allowed before giving up, as the course's."""
    text = COURSE_TOML.read_text()
    for old, new in (
        ("games = 3 ", "games = 2 "),
        ("drop_probes = 10 ", "drop_probes = 3 "),
        ("move_probes = 10 ", "move_probes = 3 "),
        ("call_seconds = 10.5 ", "call_seconds = 1.0 "),
        ("import_seconds = 10.0 ", "import_seconds = 4.0 "),
    ):
        assert old in text
        text = text.replace(old, new)
    assert "timeouts_before_giving_up = 2 " in text
    path = folder / "rubric.toml"
    path.write_text(text)
    return path


def test_two_slow_opening_calls_cost_the_time_points_only(run_cli, tmp_path):
    game = tmp_path / "game.py"
    game.write_text((ROOT / "answer_key" / "teeko" / "game.py").read_text() + _SLOW_OPENING)
    results = tmp_path / "results.json"
    done = run_cli("check", str(game), "--rubric", str(_rubric(tmp_path)), "--json", str(results))
    assert done.returncode == 0, done.stderr
    tests = {t["tags"][0]: t for t in json.loads(results.read_text())["tests"]}
    scores = {ident: test["score"] for ident, test in tests.items()}
    assert scores["rules"] == 25 and scores["state"] == 10 and scores["format"] == 10, tests
    assert scores["time"] == 0
    assert scores["wins"] == 30, tests["wins"]["output"]
    time = tests["time"]["output"]
    assert "make_move was still running after 1 s and was stopped" in time
    assert "a random legal move was played for it" in done.stdout
    assert "not run" not in time, time  # every later call was asked
