"""The Othello pack: the course's Othello homework on a 6×6 board (8×8 and 4×4 too)."""

from __future__ import annotations

from pathlib import Path

from autograder.games.othello import rules, view
from autograder.games.othello.opponents import OPPONENTS
from autograder.games.othello.probes import probe_positions
from autograder.games.othello.variants import VARIANTS
from autograder.games.pack import GamePack, GameType, Turns

__all__ = ["PACK"]

_HERE = Path(__file__).resolve().parent


def _move_name(move: rules.Move) -> str:
    return "a pass" if move == rules.PASS else f"square ({move[0]}, {move[1]})"


PACK: GamePack[rules.Position, rules.Move, rules.Variant] = GamePack(
    name="othello",
    title="Othello",
    kind=GameType(shape=lambda variant: (variant.size, variant.size), turns=Turns.PASSES),
    variants=VARIANTS,
    sides=rules.PIECES,
    side_names={rules.BLACK: "black", rules.WHITE: "white"},
    phases=("play",),
    start=rules.start,
    turn=lambda pos: pos.turn,
    phase=lambda pos: "play",
    legal_moves=rules.legal_moves,
    play=rules.play,
    result=rules.result,
    render=rules.render,
    files=("game.py",),
    read_move=lambda raw, pos: rules.read_student_move(raw, pos),
    format_problem=rules.format_problem,
    student_move=lambda move: move,  # (row, col) or "pass": plain data already
    state=rules.to_board,
    driver=_HERE / "driver.py",
    probes=probe_positions,
    random_position=rules.random_position,
    opponents=OPPONENTS,
    rubric=_HERE / "rubric.toml",
    starter=lambda variant: "starter/othello/game.py",
    cells=view.cells,
    colours=view.COLOURS,
    marks=view.marks,
    clicks=view.clicks,
    solution=lambda variant: "solution/othello/game.py",
    goal="majority of discs",
    move_name=_move_name,
    square_name=lambda row, col: f"({row}, {col})",
    pass_move=rules.PASS,
    outcome=rules.outcome,
)
