"""Kalah graded end to end through its pack alone: ``autograder check`` on the starter, the
answer key and the solution (through the sandbox and the shared grid driver, extra turns
told as the side that made them), a tournament, and the play page over HTTP."""

from __future__ import annotations

import csv
import json
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT, play_state, playing
from tests.homework import check, scores

SOLUTION = ROOT / "solution" / "kalah" / "game.py"
STARTER = ROOT / "starter" / "kalah" / "game.py"
KEY = ROOT / "answer_key" / "kalah" / "game.py"


@pytest.mark.slow
@pytest.mark.parametrize("path", [SOLUTION, KEY], ids=["solution", "answer key"])
def test_the_solution_and_the_answer_key_score_100(path, run_cli, tmp_path):
    results, stdout = check(run_cli, path, tmp_path)
    assert results["score"] == 100, stdout
    assert "assignment kalah inferred from class KalahPlayer" in stdout
    assert "won 3 of 3" in stdout and "more seeds" in stdout
    assert "drift" not in stdout and "raised" not in stdout, "extra turns are told right"


@pytest.mark.slow
def test_the_starter_breaks_the_rules_and_wins_nothing(run_cli, tmp_path):
    """As shipped it sows a random pit, an empty one too: fast and in the format, illegal."""
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
    assert "is empty: a move sows the seeds of a non-empty pit" in stdout


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_tournament_ranks_the_solution_first_and_the_starter_last(tmp_path, run_cli):
    folder = tmp_path / "class"
    for student, path in (("strong", SOLUTION), ("plain", KEY), ("unfinished", STARTER)):
        (folder / student).mkdir(parents=True)
        shutil.copy(path, folder / student / "game.py")
    fast = folder / "strong" / "game.py"  # a short search keeps the games short
    fast.write_text(
        re.sub(r"^TIME_BUDGET = .*$", "TIME_BUDGET = 0.2", fast.read_text(), flags=re.M)
    )
    out = tmp_path / "out"
    done = run_cli(
        "tournament", str(folder), "-a", "kalah", "--out", str(out), "--with", "random",
        "--jobs", "2", timeout=550,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    with (out / "leaderboard.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0]["player"] == "strong" and rows[-1]["player"] == "unfinished"
    game = json.loads((out / "games" / "strong--plain--1.json").read_text())
    assert game["frames"][0]["rows"] == [[0, 4, 4, 4, 4, 4, 4, " "], [" ", 4, 4, 4, 4, 4, 4, 0]]
    sides = [move["text"].split(" (")[1][:5] for move in game["moves"]]
    assert any(a == b for a, b in zip(sides, sides[1:], strict=False)), "an extra turn was played"


def _post(url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """A POST as the play page sends it: its token, JSON, from its own origin."""
    address = urllib.parse.urlsplit(url)
    token = urllib.parse.parse_qs(address.query)["token"][0]
    request = urllib.request.Request(
        urllib.parse.urlunsplit(address._replace(path=path, query="")),
        data=json.dumps(body).encode(),
        headers={
            "Content-Type": "application/json",
            "X-Play-Token": token,
            "Origin": f"{address.scheme}://{address.netloc}",
        },
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


@pytest.mark.slow
@pytest.mark.timeout(240)
def test_on_the_play_page_a_person_sows_twice_after_an_extra_turn_and_the_ai_answers(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text())
    with playing(folder / "game.py") as (line, url):
        assert " as kalah: open " in line
        deadline = time.monotonic() + 30
        while True:
            try:
                state = play_state(url)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
        assert state["rows"] == [[0, 4, 4, 4, 4, 4, 4, " "], [" ", 4, 4, 4, 4, 4, 4, 0]]
        assert state["message"] == "your move (south)" and state["ai"] == "north"
        state = _post(url, "/click", {"row": 1, "col": 3})  # pit 2: the last seed in the store
        assert state["moves"] == ["1. south: 2"] and state["message"] == "your move (south)"
        assert state["rows"][1] == [" ", 4, 4, 0, 5, 5, 5, 1]
        state = _post(url, "/click", {"row": 1, "col": 1})  # pit 0: then it is north's turn
        assert state["moves"][1] == "2. south: 0"
        assert state["moves"][2].startswith("3. north: "), state["moves"]
        assert state["message"] == "your move (south)" or state["over"]


def test_the_kalah_starter_and_answer_key_share_their_rules_code():
    """The answer key is the starter with its TODOs done: the sowing, the checks and the
    terminal game are the same code."""
    starter, key = STARTER.read_text(), KEY.read_text()
    for name in ("def sow_board", "def check_pit", "def board_text", "def parse_pit"):
        part = starter[starter.index(name) :].split("\n\n\n", 1)[0]
        assert part in key, name


@pytest.mark.parametrize("path", [STARTER, KEY, SOLUTION], ids=["starter", "key", "solution"])
def test_python_game_py_runs_and_ends_at_eof(path: Path):
    done = subprocess.run(
        [sys.executable, path.name],
        cwd=path.parent,
        input="x\n9\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and "No more input" in done.stdout
    assert "north's pits" in done.stdout
