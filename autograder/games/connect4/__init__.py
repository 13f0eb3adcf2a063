"""The Connect Four pack: the course's Connect Four homework on boards of any size."""

from __future__ import annotations

from pathlib import Path

from autograder.games.connect4 import notebook, rules, view
from autograder.games.connect4.opponents import OPPONENTS
from autograder.games.connect4.probes import probe_positions
from autograder.games.connect4.sketch import INTERFACE as SKETCH
from autograder.games.connect4.solver import Solver, tactics_exact
from autograder.games.connect4.variants import VARIANTS, parse_variant
from autograder.games.pack import GamePack, GameType, game_py

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent

PACK: GamePack[rules.Position, int, rules.Variant] = GamePack(
    name="connect4",
    title="Connect Four",
    variants=VARIANTS,
    kind=GameType(shape=lambda variant: (variant.rows, variant.columns)),
    rules=rules.RULES,
    student=game_py(
        _HERE, lambda variant: "connect4", rules, {rules.RED: "red", rules.YELLOW: "yellow"}
    ),
    probes=probe_positions,
    opponents=OPPONENTS,
    move_name=lambda column: f"column {column}",
    drawing=view.DRAWING,
    parse_variant=parse_variant,
    goal="line",
    interfaces={  # other courses' Connect Four homeworks
        "notebook": notebook.INTERFACE,  # the Colab notebook course's Agent and Connect4State
        SKETCH.name: SKETCH,  # the Processing sketch course's homework
    },
    perfect=Solver,  # within its reach (``solvable``)
    exact=tactics_exact,
)
