"""The Processing sketch course's homework: a Python-mode sketch whose ``aiBrain`` plays
Connect Four.

The course's students hand in a sketch folder (``connectFour_AI.pyde``, ``gameBoard.py``,
``spot.py``, ``AIBrain.py``). Their AI plays by changing the board: ``autoPlay()`` drops a
yellow disc with ``gameBoard.trigger(column)``. So the grader reads the move as the one disc
added to the grid (the driver, ``sketch_driver.py``, sends the grid back), and the board's own
bookkeeping after it (``colHeight``, ``currentPlayer``) as the move's "format". The AI is
always yellow (``'Y'``) and its opponent red (``'R'``), as in the chapter, whichever colour the
kit's side to move has.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autograder.games.connect4 import rules
from autograder.games.connect4.rules import Position
from autograder.games.connect4.sketch_layout import LAYOUT
from autograder.games.grid import EMPTY
from autograder.games.pack import (
    Calls,
    IllegalMoveError,
    Interface,
    MalformedMoveError,
    MoveError,
    Student,
)

__all__ = ["INTERFACE", "FILES", "state", "render", "read_move", "format_problem", "missing"]

_HERE = Path(__file__).resolve().parent
# Imported as the sketch's .pyde imports them: gameBoard.py first (it imports spot.py and
# AIBrain.py), so an AIBrain.py importing gameBoard back works as it does in Processing. The
# .pyde is kept, never run.
FILES = ("gameBoard.py", "AIBrain.py", "spot.py")
CALL = "autoPlay()"
_ROWS = 6


def state(pos: Position) -> list[list[str]]:
    """The chapter's grid for ``pos``: row 0 at the top, ``'Y'`` the side to move (the AI),
    ``'R'`` the other side, ``''`` empty."""
    mine = pos.turn
    return [
        ["" if cell == EMPTY else "Y" if cell == mine else "R" for cell in row]
        for row in rules.to_board(pos)
    ]


def render(pos: Position) -> str:
    """The board as ``autoPlay`` sees it (its own discs ``Y``, the other side's ``R``, ``.``
    empty), row 0 at the top, column numbers below. Reports draw the positions the AI moves
    from, so the side to move is the AI."""
    lines = ["|" + "|".join(cell or "." for cell in row) + "|" for row in state(pos)]
    lines.append(" " + " ".join(str(c) for c in range(pos.variant.columns)))
    return "\n".join(lines)


def _rows(raw: Any) -> tuple[list[str], str]:
    """The grid the driver sent (six rows of seven letters) and its bookkeeping text.

    :raises MalformedMoveError: when it cannot be read (the child is untrusted).
    """
    try:
        texts = [ast.literal_eval(repr(item)) for item in raw]
    except (TypeError, ValueError, SyntaxError):
        texts = []
    if (
        len(texts) != _ROWS + 1
        or not all(isinstance(t, str) for t in texts)
        or not all(len(t) == 7 for t in texts[:_ROWS])
    ):
        raise MalformedMoveError(f"the board after {CALL} could not be read")
    return texts[:_ROWS], texts[_ROWS]


def _where(row: int, column: int) -> str:
    return f"row {row}, column {column}"


def _shown(rows: list[str]) -> str:
    """The board after the move, on one line: rows top first, ``.`` for an empty spot."""
    return " / ".join(rows)


def shown(raw: Any, pos: Position) -> str:
    """``autoPlay`` returns nothing: what it did to the board, for reports."""
    if type(raw) is int:
        return repr(raw)
    try:
        return f"nothing; it dropped a disc in column {read_move(raw, pos)}"
    except MoveError:
        return f"nothing; it left the board as {_shown(_rows(raw)[0])} (top row first)"


def read_move(raw: Any, pos: Position) -> int:
    """The column of the one yellow disc ``autoPlay`` added, checked against the rules.

    A plain column (a replay's ply, the opponent's move) is read as the pack reads one.

    :raises IllegalMoveError: when it added none, several, a red one, a disc that floats, or
        changed a spot that held a disc; the board after the move is in the message.
    """
    if type(raw) is int:
        return rules.read_student_move(raw, pos, CALL)
    after, _ = _rows(raw)
    before = ["".join(cell or "." for cell in row) for row in state(pos)]
    changed = [
        (r, c, before[r][c], after[r][c])
        for r in range(_ROWS)
        for c in range(pos.variant.columns)
        if before[r][c] != after[r][c]
    ]
    board = f" (the board after it, top row first: {_shown(after)})"
    if not changed:
        raise IllegalMoveError(
            f"{CALL} added no disc to the board: play the chosen column with "
            "self.gameBoard.trigger(column)"
        )
    overwritten = [(r, c, b) for r, c, b, _ in changed if b != "."]
    if overwritten:
        r, c, was = overwritten[0]
        raise IllegalMoveError(
            f"{CALL} changed {_where(r, c)}, which held {was!r}: search on a copy "
            f"(copy.deepcopy) and change the real board only by its one move{board}"
        )
    if len(changed) > 1:
        places = " and ".join(_where(r, c) for r, c, _, _ in changed[:3])
        raise IllegalMoveError(
            f"{CALL} added {len(changed)} discs ({places}): it must drop exactly one; "
            f"try moves on a copy of the board (copy.deepcopy), not on the board itself{board}"
        )
    r, c, _, disc = changed[0]
    if disc != "Y":
        what = "a red disc 'R'" if disc == "R" else "a value that is not 'Y'"
        raise IllegalMoveError(f"{CALL} put {what} at {_where(r, c)}: the AI plays 'Y'{board}")
    landing = max(row for row in range(_ROWS) if before[row][c] == ".")
    if r != landing:
        raise IllegalMoveError(
            f"{CALL} put its disc at {_where(r, c)}, above empty spots: a disc dropped into "
            f"column {c} lands on row {landing}{board}"
        )
    return c


def format_problem(raw: Any, pos: Position) -> str | None:
    """What the board's own bookkeeping says wrong after the move (the move played by hand, not
    through ``trigger``); None when it agrees, or when it cannot be read (no charge then)."""
    if type(raw) is int:
        return None
    try:
        after, books = _rows(raw)
    except MalformedMoveError:
        return None
    heights, _, rest = books.partition("|")
    player, _, over = rest.partition("|")
    discs = [sum(after[r][c] in "RY?" for r in range(_ROWS)) for c in range(7)]
    if len(heights) == 7 and heights.isdigit() and [int(h) for h in heights] != discs:
        return (
            f"after {CALL} colHeight is {[int(h) for h in heights]} but the columns hold "
            f"{discs} discs: drop the disc with trigger(column), which keeps colHeight"
        )
    if player == "Y" and over != "1" and not _ends(raw, pos):
        return (
            f"after {CALL} currentPlayer is still 'Y' and the game is not over: play the "
            "move with trigger(column), which passes the turn to red"
        )
    return None


_CLASSES = {"GameBoard": "gameBoard.py", "aiBrain": "AIBrain.py", "Spot": "spot.py"}
_CLASS = re.compile(rb"^\s*class\s+(\w+)", re.MULTILINE)
# aiBrain under another name: the class with the chapter's autoPlay method
_AUTOPLAY = re.compile(rb"^\s+def\s+autoPlay\s*\(", re.MULTILINE)


def _ends(raw: Any, pos: Position) -> bool:
    """Whether the move read from ``raw`` ends the game by the rules (no turn to pass then);
    an unreadable move ends nothing."""
    try:
        return rules.result(rules.play(pos, read_move(raw, pos))) is not None
    except MoveError:
        return False


def missing(sources: Mapping[str, bytes]) -> str | None:
    """The chapter's classes no file of the sketch defines (any case, in any of its files, as
    the driver finds them), in one sentence; None when all are there."""
    defined = {
        name.decode("ascii", "replace").casefold()
        for text in sources.values()
        for name in _CLASS.findall(text)
    }
    plays = any(_AUTOPLAY.search(text) for text in sources.values())
    absent = [
        name
        for name in _CLASSES
        if name.casefold() not in defined and not (name == "aiBrain" and plays)
    ]
    if not absent:
        return None
    named = " and ".join(f"class {name} (the chapter's {_CLASSES[name]})" for name in absent)
    return (
        f"no file of the sketch defines {named}: hand in the sketch folder "
        "(connectFour_AI.pyde, gameBoard.py, spot.py and AIBrain.py), or its zip"
    )


def _student(own: Student[Position, int, rules.Variant]) -> Student[Position, int, rules.Variant]:
    """The sketch's student side: its four files and its own driver, board and names."""
    return Student(
        files=FILES,
        driver=_HERE / "sketch_driver.py",
        rubric=_HERE / "sketch.toml",
        starter=lambda variant: "starter/connect4-sketch/AIBrain.py",
        solution=lambda variant: "solution/connect4-sketch/gameBoard.py",
        read_move=read_move,
        format_problem=format_problem,
        shown=shown,
        state=state,
        # the AI is 'Y' on its own board whoever moves first: reports name the sides by turn
        side_names={rules.RED: "first", rules.YELLOW: "second"},
        render=render,
        calls=Calls(CALL, "", ""),
        missing=missing,
    )


INTERFACE: Interface[Position, int, rules.Variant] = Interface(
    name="sketch",
    course="the Processing sketch course (aiBrain.autoPlay)",
    player_class="aiBrain",
    classes=("aiBrain",),
    entry="aiBrain(gameBoard).autoPlay()",
    aliases=("connect4-processing", "connect4-pyde"),
    description="the Processing sketch course's Python-mode sketch: aiBrain(gameBoard).autoPlay()",
    variants=("connect4",),
    student=_student,
    layout=LAYOUT,  # a folder with a .pyde is a sketch, whatever its files are named
)
