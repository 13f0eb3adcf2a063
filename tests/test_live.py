"""``autograder play``: the table a person plays at, with the submission's AI in real sandboxed
processes, and the little HTTP server in front of it."""

from __future__ import annotations

import json
import re
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from autograder.games import find_assignment
from autograder.games.teeko import view as teeko_view
from autograder.games.teeko.rules import parse_position
from autograder.grading.rubric import load_rubric
from autograder.live.server import make_server
from autograder.live.table import PROJECT_ROOT, Table
from tests.conftest import ROOT, playing

pytestmark = pytest.mark.timeout(240)

CONNECT4 = find_assignment("connect4")
KEY = ROOT / "answer_key" / "connect4" / "game.py"


def _table(tmp_path: Path, source: str, assignment=CONNECT4) -> Table:  # type: ignore[no-untyped-def]
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "game.py").write_text(source)
    rubric = load_rubric(None, assignment.pack)
    return Table(assignment, rubric, folder, PROJECT_ROOT, seed=1)


def test_teeko_takes_one_click_to_drop_and_two_to_move():
    drop = parse_position("........................." + " b", "teeko")
    assert teeko_view.clicks(drop, [(2, 2)]) == [(2, 2)]
    moving = parse_position("bb.b.b...rrrr............ b", "teeko")
    assert teeko_view.clicks(moving, [(0, 0)]) is None
    assert teeko_view.clicks(moving, [(0, 0), (1, 0)]) == [(1, 0), (0, 0)]


@pytest.mark.slow
def test_a_person_plays_a_whole_game_against_the_ai(tmp_path):
    table = _table(tmp_path, KEY.read_text())
    try:
        table.new("play", "y", "random")
        state = table.state()
        assert state["message"] == "your move (red)" and state["ai"] == "yellow"
        column = 0
        for _ in range(30):
            state = table.state()
            if state["over"]:
                break
            before = len(state["moves"])
            table.click(0, column)  # any row of a column drops into it
            after = table.state()
            if len(after["moves"]) == before:  # a full column: refused, say why, try the next
                assert after["message"].startswith("not a legal move: column")
                column = (column + 1) % 7
        state = table.state()
        assert state["over"] in ("the AI (yellow) won", "you (red) won", "a draw"), state
        assert state["moves"][1].startswith("2. yellow: ")
    finally:
        table.close()


@pytest.mark.slow
def test_an_illegal_ai_move_ends_the_game_on_the_board(tmp_path):
    source = KEY.read_text() + (
        "\n\nConnect4Player.make_move = lambda self, state: 9\n"  # off the board
    )
    table = _table(tmp_path, source)
    try:
        table.new("play", "y", "random")
        table.click(5, 3)
        state = table.state()
        assert state["over"] == "the AI lost: its move was refused"
        assert state["message"] == (
            "the AI's make_move failed: column 9 is off the board (columns are 0-6)"
        )
        assert "Traceback" not in json.dumps(state)
    finally:
        table.close()


@pytest.mark.slow
def test_a_crashing_ai_is_one_sentence(tmp_path):
    source = KEY.read_text() + (
        "\n\ndef _boom(self, state):\n    raise ValueError('no idea')\n\n"
        "Connect4Player.make_move = _boom\n"
    )
    table = _table(tmp_path, source)
    try:
        table.new("play", "r", "random")  # the AI moves first: it fails at once
        state = table.state()
        assert state["over"] == "the AI lost: its move was refused"
        assert "raised ValueError: no idea" in state["message"]
    finally:
        table.close()


@pytest.mark.slow
def test_watching_the_ai_against_the_random_player_to_the_end(tmp_path):
    table = _table(tmp_path, KEY.read_text())
    try:
        table.new("watch", "r", "random")
        for _ in range(43):
            if table.state()["over"]:
                break
            table.step()
        state = table.state()
        assert state["over"] is not None
        assert state["moves"][0].startswith("1. red: ")  # the AI, red, moved first
    finally:
        table.close()


def _post(url: str, body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


@pytest.mark.slow
def test_the_server_answers_bad_requests_in_one_sentence(tmp_path):
    table = _table(tmp_path, KEY.read_text())
    table.new("play", "y", "random")
    server = make_server(table)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        assert _post(base + "/click", b"[1, 2]") == (
            400,
            {"error": "the body must be a JSON object"},
        )
        assert _post(base + "/click", b'{"row": "a"}') == (
            400,
            {"error": "a click is {row, col}, two integers"},
        )
        assert _post(base + "/nope", b"{}")[0] == 404
        status, state = _post(base + "/click", b'{"row": 5, "col": 3}')
        assert status == 200 and state["moves"][0] == "1. red: 3"
        with urllib.request.urlopen(base + "/", timeout=30) as page:
            html = page.read().decode()
        assert "function svg" in html  # drawn in the page, from /state
        assert re.search(r"(src|href)\s*=\s*[\"']?https?:", html) is None  # nothing fetched
    finally:
        server.shutdown()
        server.server_close()
        table.close()


@pytest.mark.slow
def test_the_play_command_prints_its_address_and_serves(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text())
    with playing(folder / "game.py") as (line, url):
        assert line.startswith(f"playing {folder / 'game.py'} as connect4: open http://127.0.0.1:")
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(url + "state", timeout=5) as answer:
                    state = json.loads(answer.read())
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
        assert state["message"] == "your move (red)"
