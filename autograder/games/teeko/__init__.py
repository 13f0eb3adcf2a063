"""The Teeko pack: Teeko, the course's Teeko2 and the diamond variant (KIT_SPEC §2-§3)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from autograder.games.pack import GamePack, GameType, game_py
from autograder.games.teeko import rules, view
from autograder.games.teeko.opponents import OPPONENTS
from autograder.games.teeko.probes import probe_positions
from autograder.games.teeko.solved import TABLES, load
from autograder.games.teeko.variants import VARIANTS, Variant

__all__ = ["PACK"]


def _folder(variant: Variant) -> str:
    """teeko2-diamond shares the Teeko2 starter and solution: only the goal check differs."""
    return "teeko" if variant.name == "teeko" else "teeko2"


_STUDENT = game_py(Path(__file__).resolve().parent, _folder, rules, {"b": "black", "r": "red"})

PACK: GamePack[rules.Position, rules.Move, Variant] = GamePack(
    name="teeko",
    title="Teeko",
    variants=VARIANTS,
    kind=GameType(shape=lambda variant: (rules.SIZE, rules.SIZE)),
    rules=rules.RULES,
    phases=("drop", "move"),
    phase=rules.phase,
    student=dataclasses.replace(_STUDENT, student_move=lambda move: move.student()),
    probes=probe_positions,
    opponents=OPPONENTS,
    drawing=view.DRAWING,
    square_name=lambda row, col: rules.square_name(rules.square(row, col)),
    perfect=load,  # the solved table (its tactics are judged by the rules: it is not loaded)
    tables=TABLES,
)
