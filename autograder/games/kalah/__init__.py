"""The Kalah pack: the course's Kalah homework on 6 pits of 4 seeds (and other sizes), a game
where a side whose last seed lands in its own store moves again."""

from __future__ import annotations

from pathlib import Path

from autograder.games.kalah import plain, rules, view
from autograder.games.kalah.opponents import OPPONENTS
from autograder.games.kalah.probes import probe_positions
from autograder.games.kalah.variants import VARIANTS
from autograder.games.pack import Calls, Cells, GamePack, GameType, Turns

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent

PACK: GamePack[rules.Position, int, rules.Variant] = GamePack(
    name="kalah",
    title="Kalah",
    kind=GameType(
        shape=lambda variant: (2, variant.pits + 2), turns=Turns.EXTRA, cells=Cells.COUNT
    ),
    variants=VARIANTS,
    sides=rules.PIECES,
    side_names={rules.SOUTH: "south", rules.NORTH: "north"},
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
    starter=lambda variant: "starter/kalah/game.py",
    solution=lambda variant: "solution/kalah/game.py",
    cells=view.cells,
    colours=view.COLOURS,
    marks=view.marks,
    clicks=view.clicks,
    goal="majority of seeds",
    move_name=lambda pit: f"pit {pit}",
    calls=Calls(own="sow"),
    outcome=rules.outcome,
    perft=plain.perft,
)
