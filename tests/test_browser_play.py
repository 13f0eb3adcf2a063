"""The play page in a real (headless) Chromium: a person clicks, the submission's AI answers in
its sandbox, and the discs are where the game says; then a whole game to its end. And the
pages that must not drive it: another site's, and a rebound name's."""

from __future__ import annotations

import contextlib
import functools
import http.server
import json
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.live.server import PlayServer, make_server
from autograder.live.table import PROJECT_ROOT, Table
from tests.browser import headless_chromium, png_pixels
from tests.conftest import ROOT, play_state, playing

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

KEY = ROOT / "answer_key" / "connect4" / "game.py"
CELL, MARGIN = 48, 18  # the board's drawing units (autograder/games/svg.py)
COLOURS = {"r": (0xCF, 0x22, 0x2E), "y": (0xD4, 0xA7, 0x2C), " ": (0xF3, 0xE3, 0xC3)}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    """``autograder play`` on the Connect Four answer key: the address it printed."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text())
    with playing(folder / "game.py") as (_, url):
        yield url


def _wait(driver, check, seconds: float = 60.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the page did not get there in time"
        time.sleep(0.05)


def _near(got: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 24 for a, b in zip(got, want, strict=True))


def _click(driver, row: int, col: int) -> None:  # type: ignore[no-untyped-def]
    from selenium.webdriver.common.by import By

    cell = driver.find_element(
        By.CSS_SELECTOR, f'#board rect.cell[data-row="{row}"][data-col="{col}"]'
    )
    cell.click()


def test_a_click_drops_a_disc_and_the_ai_answers_where_the_game_says(served):
    with headless_chromium() as driver:
        driver.get(served)
        body = lambda: driver.find_element("tag name", "body")  # noqa: E731
        _wait(driver, lambda: body().get_attribute("data-plies") == "0")
        assert driver.find_element("id", "message").text == "your move (red)"
        _click(driver, 0, 3)  # a click anywhere in column 3 drops into it
        _wait(driver, lambda: body().get_attribute("data-plies") == "2")
        _wait(driver, lambda: body().get_attribute("data-busy") == "no")
        rows = play_state(served)["rows"]
        assert rows[5][3] == "r"
        from selenium.webdriver.common.action_chains import ActionChains

        ActionChains(driver).move_to_element(driver.find_element("id", "title")).perform()
        board = driver.find_element("id", "board")  # the mouse is off it: no hover colour
        shot = png_pixels(driver.get_screenshot_as_png())
        left, top = board.location["x"], board.location["y"]
        for r, row in enumerate(rows):
            for c, piece in enumerate(row):
                x = int(left + MARGIN + c * CELL + CELL // 2)
                y = int(top + MARGIN + r * CELL + CELL // 2)
                assert _near(shot.pixel(x, y), COLOURS[piece]), (r, c, piece, shot.pixel(x, y))


def test_a_whole_game_in_the_browser_ends_with_its_result(served):
    with headless_chromium() as driver:
        driver.get(served)
        body = lambda: driver.find_element("tag name", "body")  # noqa: E731
        _wait(driver, lambda: body().get_attribute("data-plies") == "0")
        column = 0
        for _ in range(60):
            if body().get_attribute("data-over") == "yes":
                break
            plies = int(body().get_attribute("data-plies") or 0)
            _click(driver, 0, column)

            def answered(before: int = plies) -> bool:
                message = driver.find_element("id", "message").text
                now = int(body().get_attribute("data-plies") or 0)
                busy = body().get_attribute("data-busy") == "yes"
                return not busy and (now > before or "not a legal move" in message)

            _wait(driver, answered)
            if "not a legal move" in driver.find_element("id", "message").text:
                column = (column + 1) % 7  # that column is full: the page said so
        assert body().get_attribute("data-over") == "yes"
        over = driver.find_element("id", "over").text
        # the ending in the engine's words: who won and how, or why it is a draw
        assert re.fullmatch(
            r"game over: ((the AI \(yellow\)|you \(red\)) (won|completed a line) .+|.*draw.*)",
            over,
        ), over
        assert "Traceback" not in driver.page_source
        assert body().text.count("game over") == 1, "the end of the game is said once"


def _selected(driver) -> str:  # type: ignore[no-untyped-def]
    from selenium.webdriver.support.select import Select

    return str(Select(driver.find_element("id", "side")).first_selected_option.text)


def _started(driver, body) -> None:  # type: ignore[no-untyped-def]
    """Press start and wait for the new game's first drawing."""
    driver.execute_script("document.body.dataset.plies='starting'")
    driver.find_element("id", "new").click()
    _wait(driver, lambda: body().get_attribute("data-plies") != "starting")
    _wait(driver, lambda: body().get_attribute("data-busy") == "no")


def test_the_selector_shows_the_side_the_ai_plays_and_the_moves_are_counted_once(served):
    """The page opens on a game where the AI plays yellow: the selector says so, and
    pressing start as it stands keeps the sides. Choosing red starts a game where the AI
    moves first, and its move is listed once, numbered once."""
    with headless_chromium() as driver:
        driver.get(served)
        body = lambda: driver.find_element("tag name", "body")  # noqa: E731
        who = lambda: driver.find_element("id", "who").text  # noqa: E731
        _wait(driver, lambda: body().get_attribute("data-plies") == "0")
        assert (_selected(driver), who()) == (
            "yellow",
            "the AI plays yellow; you play the other side",
        )
        _started(driver, body)
        assert (_selected(driver), who()) == (
            "yellow",
            "the AI plays yellow; you play the other side",
        )
        assert play_state(served)["ai"] == "yellow"
        from selenium.webdriver.support.select import Select

        Select(driver.find_element("id", "side")).select_by_visible_text("red")
        _started(driver, body)
        assert (_selected(driver), who()) == ("red", "the AI plays red; you play the other side")
        assert body().get_attribute("data-plies") == "1"
        (item,) = driver.find_elements("css selector", "#moves li")
        assert item.text.startswith("1. red: "), item.text
        marker = driver.execute_script(
            "const s=getComputedStyle(arguments[0]);"
            "return s.display==='list-item'&&s.listStyleType!=='none'",
            item,
        )
        assert not marker, "the list numbers the move a second time"


# The attacks a web page can make on the play server, in a real browser: Chromium resolves
# these names to 127.0.0.1, as an attacker's DNS would.
RESOLVE = ("--host-resolver-rules=MAP evil.example 127.0.0.1, MAP rebound.example 127.0.0.1",)

ATTACK_PAGE = """<!doctype html><html><body>
<iframe name="sink" id="sink"></iframe>
<form id="form" action="BASE/clickQUERY" method="POST" enctype="text/plain" target="sink">
<input name='{"row":5,"col":3,"pad":"' value='"}'></form>
<script>
const base="BASE", q="QUERY", token="TOKEN", results={};
async function attempt(name, run){
  try{results[name]=await run();}catch(e){results[name]="failed: "+e.name;}}
(async()=>{
  await attempt("new", async()=>{await fetch(base+"/new"+q,{method:"POST",mode:"no-cors",
    headers:{"Content-Type":"text/plain"},body:'{"mode":"watch","ai":"r"}'});return "sent";});
  await attempt("step", async()=>{await fetch(base+"/step"+q,{method:"POST",mode:"no-cors",
    body:"{}"});return "sent";});
  await attempt("json", async()=>{const r=await fetch(base+"/click"+q,{method:"POST",
    headers:{"Content-Type":"application/json","X-Play-Token":token},
    body:'{"row":5,"col":3}'});return "read "+r.status;});
  await attempt("state", async()=>{const r=await fetch(base+"/state"+q);
    return "read "+(await r.text());});
  const sink=document.getElementById("sink");
  await new Promise(done=>{sink.onload=done;document.getElementById("form").submit();});
  document.body.dataset.results=JSON.stringify(results); document.body.dataset.done="yes";
})();
</script></body></html>
"""


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the stdlib's name
        """The attacker's server says nothing."""


@pytest.fixture
def live(tmp_path: Path) -> Iterator[tuple[PlayServer, Table]]:
    """The play server on the Connect Four answer key, in this process (its refusals are
    read from it), a new game started: the person is red, nobody has moved."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text())
    assignment = find_assignment("connect4")
    rubric = load_rubric(None, assignment.pack)
    table = Table(assignment, rubric, folder, PROJECT_ROOT, seed=1)
    table.new("play", "y", "random")
    server = make_server(table)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server, table
    finally:
        server.shutdown()
        server.server_close()
        table.close()


@contextlib.contextmanager
def _attacker(folder: Path, page: str) -> Iterator[int]:
    """Another origin: a plain web server on another port serving ``page``; its port."""
    folder.mkdir()
    (folder / "index.html").write_text(page)
    handler = functools.partial(_Quiet, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("leaked", [False, True], ids=["token-unknown", "token-leaked"])
def test_a_page_from_another_site_cannot_drive_the_game(live, tmp_path, leaked):
    """The other site's page posts a form (text/plain, JSON-looking) and fetches (no-cors,
    a JSON one that needs a preflight, a read of /state): each reaches the server and is
    refused, and nobody moves. With the token leaked, Origin and Content-Type still hold."""
    server, table = live
    base = f"http://127.0.0.1:{server.port}"
    query, token = (f"?token={server.token}", server.token) if leaked else ("", "")
    page = ATTACK_PAGE.replace("BASE", base).replace("QUERY", query).replace("TOKEN", token)
    with _attacker(tmp_path / "evil", page) as port, headless_chromium(arguments=RESOLVE) as driver:
        driver.get(f"http://evil.example:{port}/")
        body = lambda: driver.find_element("tag name", "body")  # noqa: E731
        _wait(driver, lambda: body().get_attribute("data-done") == "yes")
        results = json.loads(body().get_attribute("data-results") or "{}")
        _wait(driver, lambda: len(server.refused) >= 5)
    assert results["json"] == results["state"] == "failed: TypeError"  # nothing read back
    assert sorted(line.split(":")[0] for line in server.refused) == [
        "GET /state",
        "OPTIONS /click",  # the preflight, never granted: the JSON post itself is never sent
        "POST /click",  # the form
        "POST /new",
        "POST /step",
    ]
    state = table.state()
    assert (state["mode"], state["moves"]) == ("play", [])
    if leaked:  # past the token: refused for the page's origin (the form's and fetches' alike)
        posts = [r for r in server.refused if not r.startswith("OPTIONS")]
        assert all(f"requests from 'http://evil.example:{port}'" in r for r in posts)


def test_a_rebound_name_gets_one_line_even_with_the_token(live):
    """DNS rebinding: a name the attacker controls, answered with 127.0.0.1, makes the
    browser treat the play server as that name's own site; Host gives it away."""
    server, table = live
    with headless_chromium(arguments=RESOLVE) as driver:
        driver.get(f"http://rebound.example:{server.port}/?token={server.token}")
        text = driver.find_element("tag name", "body").text
    assert text == (
        f"this server answers only to 127.0.0.1:{server.port} or localhost:{server.port}, "
        f"not to 'rebound.example:{server.port}': open the address autograder play printed"
    )
    assert server.refused[0].startswith("GET /: this server answers only to")
    assert table.state()["moves"] == []


def test_a_tab_left_from_an_earlier_run_says_so_in_one_line(live):
    """A new run has a new token: the old tab's click is refused and the page says why."""
    server, table = live
    with headless_chromium() as driver:
        driver.get(server.url)
        body = lambda: driver.find_element("tag name", "body")  # noqa: E731
        _wait(driver, lambda: body().get_attribute("data-plies") == "0")
        server.token = "another-run"  # as if autograder play had been started again
        _click(driver, 0, 3)
        message = lambda: driver.find_element("id", "message").text  # noqa: E731
        _wait(driver, lambda: message() != "your move (red)")
        assert message() == (
            "this game belongs to another page: open the address autograder play printed"
        )
    assert table.state()["moves"] == []
