"""The book's Board homework: tic-tac-toe and Connect Four boards behind a ``Board``
ABC, and a minimax search, in four files.

The games and probes are the book's Connect Four, played by the student's ``find_best_move``
on the student's own ``C4Board`` (``c4.py``); the boards and the tic-tac-toe search are graded
by checks (``checks.py``), which the child answers through ``driver.py``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from autograder.games.boardabc import c4, checks
from autograder.games.connect4 import rules, view
from autograder.games.connect4.opponents import OPPONENTS
from autograder.games.connect4.probes import probe_positions
from autograder.games.connect4.solver import Solver, tactics_exact
from autograder.games.pack import Calls, GamePack, GameType, Student

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent
CALL = "find_best_move"


def _read_move(raw: Any, pos: rules.Position) -> int:
    return rules.read_student_move(raw, pos, CALL)


def _format_problem(raw: Any, pos: rules.Position) -> str | None:
    return rules.format_problem(raw, pos, CALL)


_IMPORTS_BOARD = re.compile(rb"^\s*(from|import)\s+board\b", re.MULTILINE)


def _missing(sources: Mapping[str, bytes]) -> str | None:
    """The book's files a submission lacks, in one sentence; exercise 3's single
    ``GameBoard`` (in any file) stands for ``tictactoe.py`` and ``connectfour.py``."""
    one_board = any(b"class GameBoard" in text for text in sources.values())
    absent = (
        [] if one_board else [n for n in ("tictactoe.py", "connectfour.py") if n not in sources]
    )
    if "board.py" not in sources and any(_IMPORTS_BOARD.search(t) for t in sources.values()):
        absent.insert(0, "board.py")
    if not absent:
        return None
    named = absent[0] if len(absent) == 1 else f"{', '.join(absent[:-1])} and {absent[-1]}"
    return (
        f"{named} {'is' if len(absent) == 1 else 'are'} missing: hand in "
        "minimax.py, board.py, tictactoe.py and connectfour.py together (or, for the chapter's "
        "exercise 3, one GameBoard class for both games in place of tictactoe.py and "
        "connectfour.py)"
    )


PACK: GamePack[rules.Position, int, rules.Variant] = GamePack(
    name="board-abc",
    title="Board ABC (tic-tac-toe and Connect Four)",
    variants={c4.VARIANT.name: c4.VARIANT},
    kind=GameType(shape=lambda variant: (variant.rows, variant.columns)),
    rules=rules.RULES,
    student=Student(
        files=("minimax.py", "board.py", "tictactoe.py", "connectfour.py"),
        driver=_HERE / "driver.py",
        rubric=_HERE / "rubric.toml",
        starter=lambda variant: "starter/board-abc/minimax.py",
        solution=lambda variant: "solution/board-abc/minimax.py",
        read_move=_read_move,
        format_problem=_format_problem,
        state=lambda pos: c4.state(pos, checks.C4_DEPTH),
        side_names=c4.BOOK,
        render=c4.render,
        calls=Calls(CALL, "", ""),
        check_criteria=checks.CRITERIA,
        checks=checks.checks,
        missing=_missing,
    ),
    probes=probe_positions,
    opponents=OPPONENTS,
    move_name=lambda column: f"column {column}",
    # the board in the book's letters and colours; Connect Four's marks and clicks
    drawing=dataclasses.replace(view.DRAWING, cells=c4.cells, colours=c4.COLOURS),
    goal="line",
    passed="board",
    copy_advice="copy the position and change the copy",
    perfect=Solver,  # the book's Connect Four: the exact solver, within its reach
    exact=tactics_exact,
)
