"""The Connect Four pack: the course's Connect Four homework on boards of any size."""

from __future__ import annotations

from pathlib import Path

from autograder.games.connect4 import notebook, rules, view
from autograder.games.connect4.opponents import OPPONENTS
from autograder.games.connect4.probes import probe_positions
from autograder.games.connect4.sketch import INTERFACE as SKETCH
from autograder.games.connect4.solver import Solver, tactics_exact
from autograder.games.connect4.variants import VARIANTS, parse_variant
from autograder.games.pack import GamePack, GameType

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent

PACK: GamePack[rules.Position, int, rules.Variant] = GamePack(
    name="connect4",
    title="Connect Four",
    kind=GameType(shape=lambda variant: (variant.rows, variant.columns)),
    variants=VARIANTS,
    sides=rules.PIECES,
    side_names={rules.RED: "red", rules.YELLOW: "yellow"},
    phases=("play",),
    start=rules.start,
    turn=lambda pos: pos.turn,
    phase=lambda pos: "play",
    legal_moves=rules.legal_moves,
    play=rules.play,
    result=rules.result,
    render=rules.render,
    files=("game.py",),
    read_move=rules.read_student_move,
    format_problem=rules.format_problem,
    student_move=lambda move: move,
    state=rules.to_board,
    driver=_HERE / "driver.py",
    probes=probe_positions,
    random_position=rules.random_position,
    opponents=OPPONENTS,
    rubric=_HERE / "rubric.toml",
    starter=lambda variant: "starter/connect4/game.py",
    cells=view.cells,
    colours=view.COLOURS,
    marks=view.marks,
    clicks=view.clicks,
    solution=lambda variant: "solution/connect4/game.py",
    parse_variant=parse_variant,
    goal="line",
    move_name=lambda column: f"column {column}",
    interfaces={  # other courses' Connect Four homeworks
        "notebook": notebook.INTERFACE,  # seed 004's Agent and Connect4State
        SKETCH.name: SKETCH,  # seed 003's Processing sketch
    },
    perfect=Solver,  # within its reach (``solvable``)
    exact=tactics_exact,
)
