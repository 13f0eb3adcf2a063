"""A headless Chromium for the tests that open the kit's web pages in a real browser.

Debian's ``chromium`` and ``chromium-driver`` packages, driven by selenium 4, both named by
path so that Selenium Manager never looks for (or downloads) a browser of its own. A test that
asks for one where they are missing is skipped, with the command that installs them. Pixels
come back as PNG screenshots; ``png_pixels`` reads them with the standard library alone.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import struct
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

__all__ = [
    "CHROMEDRIVER",
    "CHROMIUM",
    "SKIP_MESSAGE",
    "WINDOW",
    "Image",
    "headless_chromium",
    "missing",
    "png_pixels",
]

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
WINDOW = (1400, 1000)  # wide enough that no board is scaled down to fit
SKIP_MESSAGE = (
    "needs Debian's chromium and chromium-driver (apt install chromium chromium-driver) "
    "and selenium"
)


def missing() -> list[str]:
    """What is not there for a browser test: ``[]`` when it can run."""
    gone = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.is_file()]
    if importlib.util.find_spec("selenium") is None:
        gone.append("selenium")
    return gone


@contextlib.contextmanager
def headless_chromium(
    width: int = WINDOW[0], height: int = WINDOW[1], arguments: tuple[str, ...] = ()
) -> Iterator[WebDriver]:
    """A headless Chromium WebDriver, quit on the way out; skips the test when Debian's
    chromium, its driver or selenium is missing. One CSS pixel is one screenshot pixel.
    ``arguments`` are more command-line switches (``--host-resolver-rules=...``)."""
    if missing():
        pytest.skip(SKIP_MESSAGE)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
        "--force-device-scale-factor=1",
        "--hide-scrollbars",
        *arguments,
    ):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    with tempfile.TemporaryDirectory(prefix="browser-test-") as own_tmp:
        # Chromium leaves its singleton folder in TMPDIR: in one of ours, not in /tmp
        service = Service(str(CHROMEDRIVER), env={**os.environ, "TMPDIR": own_tmp})
        driver = webdriver.Chrome(service=service, options=options)
        try:
            yield driver
        finally:
            driver.quit()


@dataclass(frozen=True)
class Image:
    """A decoded screenshot: ``pixel(x, y)`` is ``(red, green, blue)``, 0-255 each."""

    width: int
    height: int
    channels: int
    data: bytes  # rows of width * channels bytes, top first, filters undone

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError(f"pixel ({x}, {y}) is outside the {self.width}x{self.height} image")
        at = (y * self.width + x) * self.channels
        r, g, b = self.data[at : at + 3]
        return r, g, b


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_pixels(png: bytes) -> Image:
    """Decode a PNG as browsers write screenshots: 8 bits a channel, RGB or RGBA, not
    interlaced. Anything else is an error, not a guess."""
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    at, header, idat = 8, b"", bytearray()
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        kind, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    channels = {2: 3, 6: 4}.get(colour)
    if depth != 8 or channels is None or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, {interlace=}")
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    out = bytearray(stride * height)
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, corner = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
            elif kind != 0:
                raise ValueError(f"unknown PNG filter {kind} on row {y}")
        out[y * stride : (y + 1) * stride] = line
        prev = line
    return Image(width, height, channels, bytes(out))
