"""``feedback.html`` in a real browser: the replays step, the boards are drawn where they say.

Two Connect Four submissions built from the starter, each losing its games to a refused move:
``off`` drops into column 7 (off the board) on its third move, ``full`` stacks the fullest
column and, once a column is full, returns it. ``autograder check --html`` writes their pages
in a real process; headless Chromium (tests/browser.py) opens them from file:// and the tests
read the DOM and the pixels of screenshots: a disc's colour at its centre, the board's colour
in an empty cell, a mark's ring where the move was refused.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.browser import (
    SKIP_MESSAGE,
    Image,
    headless_chromium,
    missing,
    png_pixels,
)
from tests.conftest import ROOT, autograder_process

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver
    from selenium.webdriver.remote.webelement import WebElement

STARTER = ROOT / "starter" / "connect4" / "game.py"
RANDOM_MOVE = "        return random.randrange(len(state[0]))\n"
OFF_BOARD = """\
        discs = sum(cell != " " for row in state for cell in row)
        return len(state[0]) if discs >= 4 else len(state[0]) // 2
"""
FULL_COLUMN = """\
        rows, columns = len(state), len(state[0])
        full = [c for c in range(columns) if state[0][c] != " "]
        if full:
            return full[0]

        def wins(c):
            board = [row[:] for row in state]
            board[drop_row(board, c)][c] = self.my_piece
            lines = ((0, 1), (1, 0), (1, 1), (1, -1))
            return any(
                all(
                    0 <= r + i * dr < rows
                    and 0 <= k + i * dk < columns
                    and board[r + i * dr][k + i * dk] == self.my_piece
                    for i in range(4)
                )
                for r in range(rows)
                for k in range(columns)
                for dr, dk in lines
            )

        fullest = sorted(range(columns), key=lambda c: (-sum(row[c] != " " for row in state), c))
        return next((c for c in fullest if not wins(c)), fullest[0])
"""
VARIANTS = {"off": OFF_BOARD, "full": FULL_COLUMN}

# autograder/games/svg.py's layout and colours (the page's script draws the same)
CELL, MARGIN = 48, 18
BOARD = "#f3e3c3"
RINGS = {"to": "#1a7f37", "from": "#0969da", "bad": "#cf222e"}
PIECES = {"r": "#cf222e", "y": "#d4a72c"}
TOLERANCE = 40  # per channel: anti-aliasing and colour management, far below any two colours
WAIT = 10  # seconds for the page's script to catch up


# ---- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    with headless_chromium() as driver:
        yield driver


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each variant's feedback.html, from a real ``autograder check`` run."""
    source = STARTER.read_text()
    assert source.count(RANDOM_MOVE) == 1, "the starter's make_move should end in a random move"
    out = {}
    for name, body in VARIANTS.items():
        folder = tmp_path_factory.mktemp(name)
        (folder / "game.py").write_text(source.replace(RANDOM_MOVE, body))
        page = folder / "feedback.html"
        run = autograder_process(["check", str(folder / "game.py"), "--html", str(page)])
        assert run.returncode == 0, run.stderr
        assert page.is_file(), run.stderr
        out[name] = page
    return out


# ---- helpers ----------------------------------------------------------------------------------


def rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour.lstrip("#"), 16)
    return value >> 16, value >> 8 & 0xFF, value & 0xFF


def near(seen: tuple[int, int, int], colour: str) -> bool:
    return all(abs(a - b) <= TOLERANCE for a, b in zip(seen, rgb(colour), strict=True))


def wait_for(driver: WebDriver, what: str, condition: Any) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, WAIT, poll_frequency=0.05).until(condition, message=what)


def open_page(driver: WebDriver, page: Path) -> dict[str, Any]:
    """Load ``page`` and wait for every replay to show its start; the replays' JSON back."""
    from selenium.webdriver.common.by import By

    driver.get(page.as_uri())
    boxes = driver.find_elements(By.CSS_SELECTOR, ".replay")
    assert boxes, "the page has no replays"
    wait_for(
        driver,
        "every replay drawn at its start",
        lambda d: all(
            box.get_dom_attribute("data-ply") == "0"
            and box.find_elements(By.CSS_SELECTOR, ".view svg.board")
            for box in boxes
        ),
    )
    data: dict[str, Any] = driver.execute_script(
        'return JSON.parse(document.getElementById("replays").textContent)'
    )
    assert data["colours"] == PIECES
    return data


def press(driver: WebDriver, key: str) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(driver).send_keys(key).perform()


def wait_ply(driver: WebDriver, box: WebElement, ply: int) -> None:
    wait_for(driver, f"data-ply {ply}", lambda d: box.get_dom_attribute("data-ply") == str(ply))


# one round trip for what a board's elements say
DRAWING = """
const s = arguments[0], n = e => [+e.dataset.row, +e.dataset.col];
return {
  viewBox: s.getAttribute("viewBox").split(" ").map(Number),
  width: s.getBoundingClientRect().width,
  pieces: [...s.querySelectorAll("circle.piece")].map(p => [...n(p), p.dataset.piece]),
  marks: [...s.querySelectorAll("rect.mark")].map(
    m => [...n(m), m.getAttribute("class").replace(/^mark mark-/, "")]),
};
"""


def drawing(svg: WebElement) -> dict[str, Any]:
    """The board's viewBox, drawn width, pieces ``[row, col, piece]`` and marks
    ``[row, col, role]``, as its elements say."""
    result: dict[str, Any] = svg.parent.execute_script(DRAWING, svg)
    return result


def cell_pixel(
    image: Image, view_box: list[float], r: int, c: int, dx: int, dy: int
) -> tuple[int, int, int]:
    """The screenshot's colour at ``(dx, dy)`` board units into cell ``(r, c)`` of a board
    drawn with ``view_box``."""
    _, _, width, height = view_box
    x = (MARGIN + c * CELL + dx) * image.width / width
    y = (MARGIN + r * CELL + dy) * image.height / height
    return image.pixel(int(x), int(y))


def assert_board(svg: WebElement, rows: list[str], marks: list[list[Any]]) -> None:
    """``svg`` shows ``rows`` with ``marks``: in its elements, and in its pixels (a disc's
    colour at its centre, the board's in an empty cell; a mark's ring, or the board, just
    inside the top, left and right edges of every cell, outside any disc)."""
    seen = drawing(svg)
    assert seen["width"] == pytest.approx(MARGIN + CELL * len(rows[0]), abs=1), (
        "the board should be drawn at its natural size in a wide window"
    )
    wanted = [[r, c, p] for r, row in enumerate(rows) for c, p in enumerate(row) if p != " "]
    assert sorted(seen["pieces"]) == sorted(wanted)
    assert sorted(seen["marks"]) == sorted(list(m) for m in marks)
    image = png_pixels(svg.screenshot_as_png)
    ring = {(r, c): RINGS[role] for r, c, role in marks}
    for r, row in enumerate(rows):
        for c, piece in enumerate(row):
            centre = cell_pixel(image, seen["viewBox"], r, c, CELL // 2, CELL // 2)
            colour = PIECES[piece] if piece != " " else BOARD
            assert near(centre, colour), f"cell ({r}, {c}) is {centre}, not {colour}"
            for dx, dy in ((CELL // 2, 3), (3, CELL // 2), (CELL - 3, CELL // 2)):
                edge = cell_pixel(image, seen["viewBox"], r, c, dx, dy)
                colour = ring.get((r, c), BOARD)
                assert near(edge, colour), f"cell ({r}, {c}) at +{dx}+{dy}: {edge}, not {colour}"


def view_svg(box: WebElement) -> WebElement:
    from selenium.webdriver.common.by import By

    return box.find_element(By.CSS_SELECTOR, ".view svg.board")


# ---- the tests --------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.parametrize("variant", ["off", "full"])
def test_replay_of_a_refused_move(browser: WebDriver, pages: dict[str, Path], variant: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    data = open_page(browser, pages[variant])
    game = data["games"][0]
    frames = game["frames"]
    last = frames[-1]
    assert "refused" in last["caption"], "game 1 should end with a refused move"
    assert last["rows"] == frames[-2]["rows"], "a refused move leaves the position as it was"
    if variant == "off":
        assert "column 7 is off the board" in last["caption"]
        assert last["marks"] == [], "a column off the board has no square to mark"
    else:
        (row, col, role), *others = last["marks"]
        assert not others and (row, role) == (0, "bad")
        assert f"column {col} is full" in last["caption"]
        assert all(r[col] != " " for r in last["rows"])

    box = browser.find_elements(By.CSS_SELECTOR, ".replay")[0]  # the keys' replay by default
    assert_board(view_svg(box), frames[0]["rows"], frames[0]["marks"])
    press(browser, Keys.END)
    end = len(frames) - 1
    wait_ply(browser, box, end)
    assert "refused" in box.find_element(By.CSS_SELECTOR, ".where").text
    now = box.find_elements(By.CSS_SELECTOR, ".moves li.now")
    assert [li.text.split("\n")[0] for li in now] == [game["moves"][end - 1]["text"]]
    assert_board(view_svg(box), last["rows"], last["marks"])

    # back two plies: the opponent's last disc goes; forward one: it comes back
    before, earlier = frames[end - 1], frames[end - 2]
    gone = [
        (r, c)
        for r, (a, b) in enumerate(zip(before["rows"], earlier["rows"], strict=True))
        for c in range(len(a))
        if a[c] != b[c]
    ]
    assert len(gone) == 1 and earlier["rows"][gone[0][0]][gone[0][1]] == " "
    for key, ply, frame in (
        (Keys.ARROW_LEFT, end - 1, before),
        (Keys.ARROW_LEFT, end - 2, earlier),
        (Keys.ARROW_RIGHT, end - 1, before),
    ):
        press(browser, key)
        wait_ply(browser, box, ply)
        svg = view_svg(box)
        assert_board(svg, frame["rows"], frame["marks"])
        pieces = svg.find_elements(
            By.CSS_SELECTOR, f'circle.piece[data-row="{gone[0][0]}"][data-col="{gone[0][1]}"]'
        )
        assert len(pieces) == (0 if frame is earlier else 1)


@pytest.mark.slow
@pytest.mark.timeout(180)
def test_keys_step_the_replay_last_clicked(browser: WebDriver, pages: dict[str, Path]) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    data = open_page(browser, pages["full"])
    first, second = browser.find_elements(By.CSS_SELECTOR, ".replay")[:2]
    second.find_element(By.CSS_SELECTOR, ".next").click()
    wait_ply(browser, second, 1)
    press(browser, Keys.ARROW_RIGHT)
    wait_ply(browser, second, 2)
    assert first.get_dom_attribute("data-ply") == "0"
    frame = data["games"][1]["frames"][2]
    assert_board(view_svg(second), frame["rows"], frame["marks"])
    press(browser, Keys.END)
    wait_ply(browser, second, len(data["games"][1]["frames"]) - 1)
    press(browser, Keys.HOME)
    wait_ply(browser, second, 0)
    second.find_elements(By.CSS_SELECTOR, ".moves li")[2].click()  # the third move
    wait_ply(browser, second, 3)
    first.find_element(By.CSS_SELECTOR, ".last").click()
    wait_ply(browser, first, len(data["games"][0]["frames"]) - 1)
    press(browser, Keys.HOME)
    wait_ply(browser, first, 0)
    assert second.get_dom_attribute("data-ply") == "3"


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_page_is_self_contained_and_small(pages: dict[str, Path]) -> None:
    for page in pages.values():
        text = page.read_text()
        assert text.count('<div class="replay"') == 3, "a report of 3 games"
        assert page.stat().st_size <= 300_000, f"{page.stat().st_size} bytes"
        assert not re.search(r"""(?:src|href)\s*=\s*["']?\s*(?:https?:)?//""", text, re.I)
        assert not re.search(r"@import|url\(", text, re.I)
        # the one address left is SVG's namespace, a name that is never fetched
        assert set(re.findall(r"https?://[^\s\"'`<>]*", text)) <= {"http://www.w3.org/2000/svg"}


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_page_works_offline(browser: WebDriver, pages: dict[str, Path]) -> None:
    from selenium.webdriver.common.by import By

    browser.get_log("browser")  # drop what earlier pages logged
    browser.set_network_conditions(
        offline=True, latency=0, download_throughput=0, upload_throughput=0
    )
    try:
        data = open_page(browser, pages["full"])
        assert len(data["games"]) == 3
        fetched = browser.execute_script(
            'return performance.getEntriesByType("resource").map(e => e.name)'
        )
        assert fetched == [], "the page loads nothing besides itself"
        external = browser.execute_script(
            "return [...document.querySelectorAll('[src],[href]')]"
            ".map(e => e.getAttribute('src') || e.getAttribute('href'))"
        )
        assert external == []
        boxes = browser.find_elements(By.CSS_SELECTOR, ".replay")
        boxes[2].find_element(By.CSS_SELECTOR, ".last").click()
        wait_ply(browser, boxes[2], len(data["games"][2]["frames"]) - 1)
        errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
        assert errors == []
    finally:
        browser.delete_network_conditions()


@pytest.mark.slow
@pytest.mark.timeout(120)
@pytest.mark.parametrize("variant", ["off", "full"])
def test_evidence_board_shows_the_offending_move(
    browser: WebDriver, pages: dict[str, Path], variant: str
) -> None:
    from selenium.webdriver.common.by import By

    data = open_page(browser, pages[variant])
    refused = 0
    for item in browser.find_elements(By.CSS_SELECTOR, ".evidence"):
        where = item.find_element(By.CSS_SELECTOR, "p b").text
        problem = item.find_element(By.CSS_SELECTOR, "p").text
        codes = [c.text for c in item.find_elements(By.CSS_SELECTOR, "p code")]
        boards = item.find_elements(By.CSS_SELECTOR, "svg.board")
        if len(codes) != 2 or not boards or not codes[1].isdigit():
            continue  # not one column returned, on a board
        column, svg = int(codes[1]), boards[0]
        seen = drawing(svg)
        _, _, width, height = seen["viewBox"]
        size = round((height - MARGIN) / CELL), round((width - MARGIN) / CELL)
        assert size == (6, 7), f"{where}: a {size} board"
        cells = [[" "] * 7 for _ in range(6)]
        for r, c, piece in seen["pieces"]:
            cells[r][c] = piece
        rows = ["".join(row) for row in cells]
        game = re.match(r"game (\d+) ", where)
        if f"column {column} is off the board" in problem:
            expected = []
        elif f"column {column} is full" in problem:
            assert all(row[column] != " " for row in rows), f"{where}: column {column} is full"
            expected = [[0, column, "bad"]]
        else:  # a legal move that misses the point: the square its disc lands on
            landing = max(r for r in range(6) if rows[r][column] == " ")
            expected = [[landing, column, "to"]]
        assert seen["marks"] == expected, f"{where}: {problem}"
        if game and (not expected or expected[0][2] == "bad"):  # the move that lost the game
            refused += 1  # its position is the replay's last
            assert rows == data["games"][int(game[1]) - 1]["frames"][-1]["rows"], where
        assert_board(svg, rows, expected)
    assert refused == 3, "each game's refused move is a deduction, with its board"


def test_skip_message_names_the_packages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import tests.browser

    monkeypatch.setattr(tests.browser, "CHROMEDRIVER", tmp_path / "no-chromedriver")
    assert str(tmp_path / "no-chromedriver") in missing()
    with pytest.raises(pytest.skip.Exception, match=re.escape(SKIP_MESSAGE)), headless_chromium():
        pass
