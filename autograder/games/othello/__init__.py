"""The Othello pack: the course's Othello homework on a 6×6 board (8×8 and 4×4 too)."""

from __future__ import annotations

from pathlib import Path

from autograder.games.othello import rules, view
from autograder.games.othello.opponents import OPPONENTS
from autograder.games.othello.probes import probe_positions
from autograder.games.othello.variants import VARIANTS
from autograder.games.pack import GamePack, GameType, Turns, game_py

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent


def _move_name(move: rules.Move) -> str:
    return "a pass" if move == rules.PASS else f"square ({move[0]}, {move[1]})"


PACK: GamePack[rules.Position, rules.Move, rules.Variant] = GamePack(
    name="othello",
    title="Othello",
    variants=VARIANTS,
    kind=GameType(shape=lambda variant: (variant.size, variant.size), turns=Turns.PASSES),
    rules=rules.RULES,
    pass_move=rules.PASS,
    outcome=rules.outcome,
    # a move is (row, col) or "pass": plain data already
    student=game_py(
        _HERE, lambda variant: "othello", rules, {rules.BLACK: "black", rules.WHITE: "white"}
    ),
    probes=probe_positions,
    opponents=OPPONENTS,
    move_name=_move_name,
    drawing=view.DRAWING,
    goal="majority of discs",
    square_name=lambda row, col: f"({row}, {col})",
)
