"""The play page in a real (headless) Chromium: a person clicks, the submission's AI answers in
its sandbox, and the discs are where the game says; then a whole game to its end."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser import headless_chromium, png_pixels
from tests.conftest import ROOT, playing

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


def _state(url: str) -> dict:  # type: ignore[type-arg]
    with urllib.request.urlopen(url + "state", timeout=30) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


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
        rows = _state(served)["rows"]
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
        assert over in (
            "game over: the AI (yellow) won",
            "game over: you (red) won",
            "game over: a draw",
        )
        assert "Traceback" not in driver.page_source
