"""The child side of the Processing sketch course's homework: a Python-mode sketch, graded
headless.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``gameBoard.py`` (and through it ``AIBrain.py``) is imported; standard library only,
like the runner. Processing's Python mode gives a sketch its API as globals (``size``,
``fill``, ``ellipse``, ``width``, ``mouseX``, ``millis`` ...): loading this driver puts
stand-ins for them into ``builtins``, drawing nothing, so the sketch's modules import without
Processing. The ``.pyde`` (``setup``, ``draw``, the mouse handlers) is never run: no game
starts.

A move is asked as the sketch's own code asks it: the driver builds the student's
``GameBoard()`` (its 6×7 grid of ``Spot``, row 0 at the top), sets every spot's ``value`` to
the position (``'R'``, ``'Y'``, ``''``; the AI is always yellow, as in the chapter), sets the
board's own bookkeeping (``colHeight``, ``currentPlayer = 'Y'``, ``gameOver``, ``winner``),
calls ``aiBrain(board).autoPlay()`` and sends back the grid as it is afterwards. The grader
reads the move as the one disc added (``autograder/games/connect4/sketch.py``).
"""

from __future__ import annotations

import builtins as _builtins
import math
import random as _random
from contextlib import suppress
from importlib import import_module
from os import listdir, path
from re import compile as _compile
from time import monotonic
from typing import Any

from autograder.games.grid_driver import Encode, ErrorText, FindClass, Handlers, Latest

ROWS, COLUMNS = 6, 7  # the chapter's board: 6 rows of 7, row 0 at the top
WIDTH, HEIGHT = 700, 600  # the chapter's size(700, 600), until the sketch says otherwise
_START = monotonic()
_SIZE = _compile(rb"\bsize\(\s*(\d+)\s*,\s*(\d+)")


class _Anything:
    """What a Processing call that makes something (``loadImage``, ``createFont``) returns: any
    attribute or call of it is itself, and it counts as 0."""

    def __call__(self, *args: object, **kwargs: object) -> _Anything:
        return self

    def __getattr__(self, name: str) -> _Anything:
        return self

    def __int__(self) -> int:
        return 0

    def __float__(self) -> float:
        return 0.0

    def __index__(self) -> int:
        return 0


def _nothing(*args: object, **kwargs: object) -> None:
    """A drawing call headless: it draws nothing."""


def _millis() -> int:
    return int((monotonic() - _START) * 1000)


def _color(*args: object, **kwargs: object) -> int:
    return 0


# Processing's drawing and setup calls: all stand-ins that do nothing.
_DRAWING = (  # noqa: SIM905
    "size fullScreen smooth noSmooth frameRate background clear fill noFill stroke noStroke "
    "strokeWeight strokeCap strokeJoin ellipse ellipseMode circle rect rectMode square line "
    "point triangle quad arc bezier curve beginShape endShape vertex curveVertex bezierVertex "
    "text textAlign textSize textFont textLeading textMode image imageMode tint noTint "
    "colorMode pushMatrix popMatrix pushStyle popStyle push pop translate rotate scale "
    "resetMatrix loop noLoop redraw cursor noCursor delay saveFrame save blendMode"
).split()
_MAKERS = ["loadImage", "createImage", "createFont", "loadFont", "createGraphics", "PImage"]
_VALUES: dict[str, object] = {
    "width": WIDTH,
    "height": HEIGHT,
    "mouseX": 0,
    "mouseY": 0,
    "pmouseX": 0,
    "pmouseY": 0,
    "mouseButton": 0,
    "mousePressed": False,
    "keyPressed": False,
    "key": "",
    "keyCode": 0,
    "frameCount": 0,
    "focused": True,
    "displayWidth": 1920,
    "displayHeight": 1080,
    "CENTER": 3,
    "CORNER": 0,
    "CORNERS": 1,
    "RADIUS": 2,
    "LEFT": 37,
    "RIGHT": 39,
    "UP": 38,
    "DOWN": 40,
    "TOP": 101,
    "BOTTOM": 102,
    "BASELINE": 0,
    "RGB": 1,
    "HSB": 3,
    "CLOSE": 2,
    "PI": 3.141592653589793,
    "TWO_PI": 6.283185307179586,
    "HALF_PI": 1.5707963267948966,
    "QUARTER_PI": 0.7853981633974483,
    "millis": _millis,
    "color": _color,
    "println": print,
    "second": lambda: 0,
    "minute": lambda: 0,
    "hour": lambda: 0,
}


def _random_number(low: float = 1.0, high: float | None = None) -> float:
    """Processing's ``random(high)`` and ``random(low, high)``."""
    return _random.uniform(0.0, low) if high is None else _random.uniform(low, high)


def _constrain(value: float, low: float, high: float) -> float:
    return min(max(value, low), high)


def _dist(x1: float, y1: float, x2: float, y2: float) -> float:
    return math.hypot(x2 - x1, y2 - y1)


def _lerp(start: float, stop: float, amount: float) -> float:
    return start + (stop - start) * amount


# Processing's maths as globals (Python's own builtins, abs, min, max, round ..., stay).
_MATHS: dict[str, object] = {
    "sqrt": math.sqrt,
    "sq": lambda value: value * value,
    "floor": math.floor,
    "ceil": math.ceil,
    "exp": math.exp,
    "log": math.log,
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "atan2": math.atan2,
    "radians": math.radians,
    "degrees": math.degrees,
    "dist": _dist,
    "constrain": _constrain,
    "lerp": _lerp,
    "random": _random_number,
    "randomSeed": _random.seed,
    "noise": lambda *args: 0.5,
    "noiseSeed": _nothing,
}


def _install() -> None:
    """Processing's globals as builtins, none of Python's own replaced (``print``, ``map``,
    ``min`` ... stay Python's, as in Processing's Python mode)."""
    stand_ins: dict[str, object] = {name: _nothing for name in _DRAWING}
    stand_ins |= {name: _Anything() for name in _MAKERS}
    stand_ins |= _VALUES | _MATHS
    for name, value in stand_ins.items():
        if not hasattr(_builtins, name):
            setattr(_builtins, name, value)


_install()

_SHOWN = {"": ".", "R": "R", "Y": "Y"}  # a cell's value -> one letter for the grader


def _letter(value: object) -> str:
    """A spot's value as one letter: ``.`` empty, ``R``, ``Y``, ``?`` for anything else."""
    return _SHOWN.get(value, "?") if type(value) is str else "?"


def make_handlers(
    module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
) -> Handlers:
    """The request handlers for a loaded ``gameBoard.py``; each returns the reply to send."""
    folder = path.dirname(path.abspath(module.__file__ or "."))
    latest = Latest()  # the grid to move from, as the grader sent it
    _fit_size(folder)

    def find(name: str, preferred: str) -> Any:
        """The class ``name`` (any case) from ``gameBoard.py``, the module ``preferred`` or any
        other file of the sketch that defines it; a reply naming what is missing when none."""
        places = [module]
        for stem in [preferred, *_stems(folder)]:
            if stem == module.__name__ or not _defines(folder, stem, name):
                continue
            try:
                places.append(import_module(stem))
            except BaseException as err:
                return _fail(f"importing {stem}.py raised {error_text(err)}")
        for place in places:
            for attribute in sorted(_names(place)):
                value = getattr(place, attribute, None)
                if attribute.casefold() == name.casefold() and isinstance(value, type):
                    return value
        if name == "aiBrain":  # renamed: the class of the sketch that has an autoPlay method
            for stem in _stems(folder):
                if stem != module.__name__ and _plays(folder, stem):
                    with suppress(BaseException):
                        places.append(import_module(stem))
            for place in places:
                for attribute in sorted(_names(place)):
                    value = getattr(place, attribute, None)
                    if isinstance(value, type) and callable(getattr(value, "autoPlay", None)):
                        return value
        return _fail(
            f"the sketch defines no class {name}: keep the chapter's classes aiBrain "
            "(AIBrain.py), GameBoard (gameBoard.py) and Spot (spot.py)"
        )

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        board_class = find("GameBoard", "gameBoard")
        if type(board_class) is dict:
            return board_class
        brain_class = find("aiBrain", "AIBrain")
        if type(brain_class) is dict:
            return brain_class
        grid = latest.position
        try:
            board = board_class()
        except BaseException as err:
            return _fail(f"GameBoard(), as the sketch's setup() makes it, raised {error_text(err)}")
        problem = _set_position(board, grid)
        if problem is not None:
            return _fail(problem)
        brain = brain_class(board)
        brain.autoPlay()
        return {"ok": True, "move": encode(_after(board))}

    return {"new": latest.new, "sync": latest.sync, "move": move}


def _names(place: Any) -> list[str]:
    """A module's names (a module without ``__dict__`` has none)."""
    try:
        return list(place.__dict__)
    except BaseException:
        return []


def _fail(error: str) -> dict[str, Any]:
    return {"ok": False, "kind": "crash", "error": error}


def _stems(folder: str) -> list[str]:
    try:
        return sorted(n[:-3] for n in listdir(folder) if n.endswith(".py"))
    except OSError:
        return []


def _defines(folder: str, stem: str, name: str) -> bool:
    """Whether ``folder/stem.py`` holds ``class <name>`` (any case), read without running it."""
    try:
        with open(path.join(folder, f"{stem}.py"), "rb") as handle:
            text = handle.read()
    except OSError:
        return False
    return _compile(rb"(?im)^\s*class\s+" + name.encode() + rb"\b").search(text) is not None


def _plays(folder: str, stem: str) -> bool:
    """Whether ``folder/stem.py`` defines an ``autoPlay`` method, read without running it."""
    try:
        with open(path.join(folder, f"{stem}.py"), "rb") as handle:
            return _compile(rb"(?m)^\s+def\s+autoPlay\s*\(").search(handle.read()) is not None
    except OSError:
        return False


def _fit_size(folder: str) -> None:
    """``width`` and ``height`` as the sketch's ``size(w, h)`` in its ``.pyde`` sets them."""
    try:
        names = sorted(n for n in listdir(folder) if n.endswith(".pyde"))
    except OSError:
        return
    for name in names:
        try:
            with open(path.join(folder, name), "rb") as handle:
                found = _SIZE.search(handle.read())
        except OSError:
            continue
        if found is not None:
            _builtins.width, _builtins.height = int(found[1]), int(found[2])  # type: ignore[attr-defined]
            return


def _set_position(board: Any, grid: list[list[str]]) -> str | None:
    """Set the student's board to ``grid``; a sentence when it has no 6×7 grid of spots."""
    try:
        spots = board.grids
        for r in range(ROWS):
            for c in range(COLUMNS):
                spots[r][c].value = grid[r][c]
    except BaseException:
        return (
            "GameBoard() has no grids of 6 rows of 7 Spot objects with a value, as the "
            "chapter's board has: keep self.grids[row][column].value"
        )
    heights = [_discs(grid, c) for c in range(COLUMNS)]
    chapter: list[tuple[str, object]] = [
        ("colHeight", heights),
        ("currentPlayer", "Y"),
        ("gameOver", False),
        ("winner", None),
    ]
    # only the names the board has: one it lacks is not read back as its bookkeeping either
    settings = [(name, value) for name, value in chapter if hasattr(board, name)]
    settings += _renamed(board, heights)
    for name, value in settings:
        with suppress(BaseException):  # a board that refuses the attribute keeps its own
            setattr(board, name, value)
    return None


def _renamed(board: Any, heights: list[int]) -> list[tuple[str, object]]:
    """The board's own names for the chapter's bookkeeping, read from a fresh board: a list of
    seven equal ints is a count per column (0: discs so far, as ``colHeight``; 5 or 6: the
    next free row from the top or the room left), and a ``'R'`` under a name with "player"
    or "turn" in it is whose turn it is."""
    found: list[tuple[str, object]] = []
    try:
        names = sorted(board.__dict__)
    except BaseException:
        return found
    for name in names:
        if name in ("colHeight", "currentPlayer", "grids"):
            continue
        value = getattr(board, name, None)
        if type(value) is list and len(value) == COLUMNS and all(type(v) is int for v in value):
            if value == [0] * COLUMNS:
                found.append((name, list(heights)))
            elif value in ([5] * COLUMNS, [6] * COLUMNS):
                found.append((name, [value[0] - h for h in heights]))
        elif value == "R" and ("player" in name.casefold() or "turn" in name.casefold()):
            found.append((name, "Y"))
    return found


def _discs(grid: list[list[str]], column: int) -> int:
    """The discs in ``column`` of ``grid``."""
    return len([r for r in range(ROWS) if grid[r][column] != ""])


def _after(board: Any) -> list[str]:
    """The board after ``autoPlay``: its six rows as letters, top first, then its bookkeeping
    as ``heights|player|over`` (``-`` or ``?`` where it cannot be read)."""
    rows = []
    for r in range(ROWS):
        letters = ""
        for c in range(COLUMNS):
            try:
                letters += _letter(board.grids[r][c].value)
            except BaseException:
                letters += "?"
        rows.append(letters)
    try:
        heights = board.colHeight
        shown = "".join(
            str(int(heights[c])) if 0 <= heights[c] <= 9 else "?" for c in range(COLUMNS)
        )
    except BaseException:
        shown = "-"
    player = _letter(getattr(board, "currentPlayer", None))
    over = getattr(board, "gameOver", None)
    rows.append(f"{shown}|{player}|{'1' if over is True else '0' if over is False else '?'}")
    return rows
