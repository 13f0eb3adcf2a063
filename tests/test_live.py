"""``autograder play``: the table a person plays at, with the submission's AI in real sandboxed
processes, and the little HTTP server in front of it."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.games import find_assignment
from autograder.games.teeko import view as teeko_view
from autograder.games.teeko.rules import parse_position
from autograder.grading.rubric import load_rubric
from autograder.live.server import PlayServer, make_server
from autograder.live.table import PROJECT_ROOT, Table
from tests.conftest import ROOT, play_state, playing

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


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlayServer]:
    """The play server on the Connect Four answer key, serving in a thread; each test starts
    its own game with ``table.new``."""
    table = _table(tmp_path_factory.mktemp("live"), KEY.read_text())
    server = make_server(table)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        table.close()


def _fresh(server: PlayServer) -> Table:
    """A new game, the person red, nobody has moved."""
    table: Table = server.RequestHandlerClass.table  # type: ignore[attr-defined]
    table.new("play", "y", "random")
    assert table.state()["moves"] == []
    return table


def _ask(
    server: PlayServer,
    method: str,
    path: str,
    body: bytes | None = None,
    **headers: str,
) -> tuple[int, dict[str, str], str]:
    """One raw request, every header as given (``Host`` too): status, headers, body text."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        sent = {"Host": f"127.0.0.1:{server.port}"} | {
            name.replace("_", "-"): value for name, value in headers.items()
        }
        connection.request(method, path, body, sent)
        answer = connection.getresponse()
        return answer.status, dict(answer.getheaders()), answer.read().decode()
    finally:
        connection.close()


def _post(server: PlayServer, path: str, body: bytes) -> tuple[int, dict]:  # type: ignore[type-arg]
    status, _, text = _ask(
        server, "POST", path, body, Content_Type="application/json", X_Play_Token=server.token
    )
    return status, json.loads(text)


CLICK = b'{"row": 5, "col": 3}'  # red drops into column 3; the AI (yellow) answers
NOT_YOURS = "this game belongs to another page: open the address autograder play printed\n"


@pytest.mark.slow
def test_the_server_answers_bad_requests_in_one_sentence(live):
    _fresh(live)
    assert _post(live, "/click", b"[1, 2]") == (400, {"error": "the body must be a JSON object"})
    assert _post(live, "/click", b'{"row": "a"}') == (
        400,
        {"error": "a click is {row, col}, two integers"},
    )
    assert _post(live, "/nope", b"{}")[0] == 404
    status, state = _post(live, "/click", CLICK)
    assert status == 200 and state["moves"][0] == "1. red: 3"
    with urllib.request.urlopen(live.url, timeout=30) as page:
        html = page.read().decode()
    assert "function svg" in html  # drawn in the page, from /state
    assert re.search(r"(src|href)\s*=\s*[\"']?https?:", html) is None  # nothing fetched


def _wrong(token: str) -> str:
    return token[:-1] + ("A" if token[-1] != "A" else "B")


# Each attack below gets past every guard but the one it names: remove that guard and its
# case makes a move (docs/sandbox.md, "The play page").
ATTACKS = {
    "no-token": lambda s: ("POST", "/click", {"Content-Type": "application/json"}),
    "wrong-token": lambda s: (
        "POST",
        "/click",
        {"Content-Type": "application/json", "X-Play-Token": _wrong(s.token)},
    ),
    "wrong-token-in-the-address": lambda s: (
        "POST",
        f"/click?token={_wrong(s.token)}",
        {"Content-Type": "application/json"},
    ),
    "foreign-host": lambda s: (
        "POST",
        "/click",
        {
            "Content-Type": "application/json",
            "X-Play-Token": s.token,
            "Host": f"evil.example:{s.port}",
        },
    ),
    "foreign-origin": lambda s: (
        "POST",
        "/click",
        {
            "Content-Type": "application/json",
            "X-Play-Token": s.token,
            "Origin": "http://evil.example",
        },
    ),
    "text-plain-form": lambda s: (
        "POST",
        "/click",
        {"Content-Type": "text/plain", "X-Play-Token": s.token},
    ),
    "urlencoded-form": lambda s: (
        "POST",
        f"/click?token={s.token}",
        {"Content-Type": "application/x-www-form-urlencoded"},
    ),
    "multipart-form": lambda s: (
        "POST",
        "/click",
        {"Content-Type": "multipart/form-data; boundary=x", "X-Play-Token": s.token},
    ),
}
REFUSALS = {
    "no-token": NOT_YOURS,
    "wrong-token": NOT_YOURS,
    "wrong-token-in-the-address": NOT_YOURS,
    "foreign-host": "this server answers only to 127.0.0.1:{port} or localhost:{port}, not to "
    "'evil.example:{port}': open the address autograder play printed\n",
    "foreign-origin": "requests from 'http://evil.example' are refused: only the page autograder "
    "play served may drive it\n",
    "text-plain-form": "a POST here is JSON (Content-Type: application/json), not 'text/plain'\n",
    "multipart-form": "a POST here is JSON (Content-Type: application/json), not "
    "'multipart/form-data'\n",
    "urlencoded-form": "a POST here is JSON (Content-Type: application/json), not "
    "'application/x-www-form-urlencoded'\n",
}


@pytest.mark.slow
@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_request_from_anywhere_but_its_page_is_refused_in_one_line(live, attack):
    table = _fresh(live)
    method, path, headers = ATTACKS[attack](live)
    status, answer_headers, text = _ask(
        live, method, path, CLICK, **{k.replace("-", "_"): v for k, v in headers.items()}
    )
    assert (status, text) == (403, REFUSALS[attack].format(port=live.port))
    assert not [h for h in answer_headers if h.lower().startswith("access-control-")]
    assert table.state()["moves"] == []  # nobody moved
    assert live.refused[-1].startswith("POST /click: ")  # the terminal names it, not the token
    assert live.token not in live.refused[-1]


@pytest.mark.slow
def test_reads_need_the_token_and_no_preflight_is_granted(live):
    _fresh(live)
    for path in ("/", "/state", "/index.html", f"/state?token={_wrong(live.token)}"):
        assert _ask(live, "GET", path)[::2] == (403, NOT_YOURS), path
    status, headers, text = _ask(
        live,
        "OPTIONS",
        "/click",
        Origin="http://evil.example",
        Access_Control_Request_Method="POST",
        Access_Control_Request_Headers="content-type,x-play-token",
    )
    assert status == 403 and text.count("\n") == 1
    assert not [h for h in headers if h.lower().startswith("access-control-")]
    status, _, text = _ask(live, "GET", "/state", Host=f"rebound.example:{live.port}")
    assert status == 403 and "not to 'rebound.example:" in text  # DNS rebinding


@pytest.mark.slow
def test_its_own_page_under_either_name_is_served(live):
    table = _fresh(live)
    for host in (f"127.0.0.1:{live.port}", f"localhost:{live.port}"):
        status, _, html = _ask(live, "GET", f"/?token={live.token}", Host=host)
        assert status == 200 and "<title>autograder play</title>" in html
        origin = f"http://{host}"
        status, _, text = _ask(live, "GET", "/state", X_Play_Token=live.token, Origin=origin)
        assert status == 200 and json.loads(text)["moves"] == []
    status, _, text = _ask(
        live,
        "POST",
        "/click",
        CLICK,
        Host=f"localhost:{live.port}",
        Origin=f"http://localhost:{live.port}",
        Content_Type="application/json; charset=utf-8",
        X_Play_Token=live.token,
    )
    assert status == 200 and json.loads(text)["moves"][0] == "1. red: 3"
    assert table.state()["moves"][0] == "1. red: 3"


@pytest.mark.slow
def test_the_play_command_prints_its_address_and_serves(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text())
    with playing(folder / "game.py") as (line, url):
        assert line.startswith(f"playing {folder / 'game.py'} as connect4: open http://127.0.0.1:")
        deadline = time.monotonic() + 30
        assert re.fullmatch(r"http://127\.0\.0\.1:\d+/\?token=[\w-]{32}", url), url
        while True:
            try:
                state = play_state(url)
                break
            except OSError:
                assert time.monotonic() < deadline, "the server never answered"
        assert state["message"] == "your move (red)"
