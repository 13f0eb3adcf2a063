"""The Kalah pack: the course's Kalah homework on 6 pits of 4 seeds (and other sizes), a game
where a side whose last seed lands in its own store moves again."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from autograder.games.kalah import plain, rules, view
from autograder.games.kalah.opponents import OPPONENTS
from autograder.games.kalah.probes import probe_positions
from autograder.games.kalah.variants import VARIANTS
from autograder.games.pack import Calls, Cells, GamePack, GameType, Student, Turns, game_py

__all__ = ["PACK"]

_STUDENT: Student[rules.Position, int, rules.Variant] = game_py(
    Path(__file__).resolve().parent, lambda variant: "kalah", rules, {"S": "south", "N": "north"}
)

PACK: GamePack[rules.Position, int, rules.Variant] = GamePack(
    name="kalah",
    title="Kalah",
    variants=VARIANTS,
    kind=GameType(
        shape=lambda variant: (2, variant.pits + 2), turns=Turns.EXTRA, cells=Cells.COUNT
    ),
    rules=rules.RULES,
    outcome=rules.outcome,
    perft=plain.perft,
    student=dataclasses.replace(_STUDENT, calls=Calls(own="sow")),
    probes=probe_positions,
    opponents=OPPONENTS,
    move_name=lambda pit: f"pit {pit}",
    drawing=view.DRAWING,
    goal="majority of seeds",
)
