"""The Teeko pack: Teeko, the course's Teeko2 and the diamond variant (KIT_SPEC §2-§3)."""

from __future__ import annotations

from pathlib import Path

from autograder.games.pack import GamePack, GameType
from autograder.games.teeko import rules, view
from autograder.games.teeko.opponents import OPPONENTS
from autograder.games.teeko.probes import probe_positions, random_position
from autograder.games.teeko.solved import TABLES, load
from autograder.games.teeko.variants import VARIANTS, Variant

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent


def _folder(variant: Variant) -> str:
    """teeko2-diamond shares the Teeko2 starter and solution: only the goal check differs."""
    return "teeko" if variant.name == "teeko" else "teeko2"


PACK: GamePack[rules.Position, rules.Move, Variant] = GamePack(
    name="teeko",
    title="Teeko",
    kind=GameType(shape=lambda variant: (rules.SIZE, rules.SIZE)),
    variants=VARIANTS,
    sides=rules.PIECES,
    side_names={rules.BLACK: "black", rules.RED: "red"},
    phases=("drop", "move"),
    start=rules.start,
    turn=lambda pos: pos.turn,
    phase=rules.phase,
    legal_moves=rules.legal_moves,
    play=rules.play,
    result=rules.winner,
    render=rules.render,
    files=("game.py",),
    read_move=rules.read_student_move,
    format_problem=rules.format_problem,
    student_move=lambda move: move.student(),
    state=rules.to_board,
    driver=_HERE / "driver.py",
    probes=probe_positions,
    random_position=random_position,
    opponents=OPPONENTS,
    rubric=_HERE / "rubric.toml",
    starter=lambda variant: f"starter/{_folder(variant)}/game.py",
    cells=view.cells,
    colours=view.COLOURS,
    marks=view.marks,
    clicks=view.clicks,
    solution=lambda variant: f"solution/{_folder(variant)}/game.py",
    square_name=lambda row, col: rules.square_name(rules.square(row, col)),
    perfect=load,  # the solved table (its tactics are judged by the rules: it is not loaded)
    tables=TABLES,
)
