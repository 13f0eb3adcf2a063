"""A toy game with passes, for the tests only (never registered in ``autograder.games``).

Flank: seven cells in a row, black on cell 2 and white on cell 4 at the start. A side may fill
an empty cell next to one of the other side's; a side with no such cell must pass
(``legal_moves`` is then ``["pass"]``, the pack's ``pass_move``), which happens in about half
of random games, and it moves again once the other side has played next to an empty cell. The
game ends when the row is full: more cells win. Its driver is never launched: the tests seat
stand-in processes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.games.pack import (
    Drawing,
    GamePack,
    GameType,
    MoveError,
    Outcome,
    Rules,
    Student,
    Turns,
)

PASS = "pass"
CELLS = 7
OTHER = {"x": "o", "o": "x"}


@dataclass(frozen=True)
class Variant:
    name: str = "flank"
    description: str = "the toy game with passes"
    player_class: str = "FlankPlayer"
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pos:
    cells: tuple[str, ...] = (" ", " ", "x", " ", "o", " ", " ")
    turn: str = "x"


def outcome(pos: Pos) -> Outcome | None:
    if " " in pos.cells:
        return None
    black, white = pos.cells.count("x"), pos.cells.count("o")
    return Outcome(
        "x" if black > white else "o", f"more cells: {max(black, white)} to {min(black, white)}"
    )


def result(pos: Pos) -> str | None:
    ended = outcome(pos)
    return None if ended is None else ended.winner


def legal_moves(pos: Pos) -> list[Any]:
    if result(pos) is not None:
        return []
    other = OTHER[pos.turn]
    near = [
        c for c in range(CELLS) if pos.cells[c] == " " and other in pos.cells[max(c - 1, 0) : c + 2]
    ]
    return near or [PASS]


def play(pos: Pos, move: Any) -> Pos:
    cells = list(pos.cells)
    if move != PASS:
        cells[move] = pos.turn
    return Pos(tuple(cells), OTHER[pos.turn])


def read_move(raw: Any, pos: Pos) -> Any:
    if raw not in legal_moves(pos):
        raise MoveError(f"{raw!r} is not a legal move here")
    return raw


def first_move(pos: Pos, rng: random.Random) -> Any:
    """The opponent: the lowest cell it may fill (the same game every time)."""
    return legal_moves(pos)[0]


def last_move(pos: Pos, rng: random.Random) -> Any:
    return legal_moves(pos)[-1]


TOY = GamePack(
    name="flank",
    title="Flank",
    kind=GameType(shape=lambda variant: (1, CELLS), turns=Turns.PASSES),
    variants={"flank": Variant()},
    rules=Rules(("x", "o"), lambda variant: Pos(), legal_moves, play, result),
    student=Student(
        files=("game.py",),
        driver=Path(__file__),
        rubric=Path(__file__),
        starter=lambda variant: "starter/flank/game.py",
        solution=lambda variant: "solution/flank/game.py",
        read_move=read_move,
        format_problem=lambda raw, pos: None,
        state=lambda pos: list(pos.cells),
        side_names={"x": "black", "o": "white"},
        render=lambda pos: "|".join(pos.cells),
    ),
    probes=lambda variant, seed, counts: [],
    opponents={
        "random": ("the lowest-cell player", first_move),
        "last": ("the highest-cell player", last_move),
    },
    drawing=Drawing(
        cells=lambda pos: ["".join(pos.cells)],
        colours={"x": "#000", "o": "#fff"},
        marks=lambda pos, raw: [(0, raw, "to")] if isinstance(raw, int) else [],
        clicks=lambda pos, squares: squares[-1][1],
    ),
    goal="majority",
    pass_move=PASS,
    outcome=outcome,
)
