"""One tournament game: two players at one board, the kit's rules in between.

Each side is a submission in its own sandboxed process (a
:class:`~autograder.play.seat.StudentSeat`, exactly as a graded game and ``autograder play``
seat one, under the rubric's limits) or one of the kit's own players, run here. The side that
makes an illegal move, crashes, times out or breaks the protocol loses the game, and the
reason says which and how.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.games.pack import Assignment, Opponent
from autograder.play.budget import Budget
from autograder.play.records import Plan, Ply
from autograder.play.referee import Referee, default_spawner
from autograder.play.sandbox import Protections
from autograder.play.seat import StudentSeat
from autograder.play.turns import Engine, KitSeat, ending_text

__all__ = ["Entrant", "Match", "play_match"]


@dataclass(frozen=True)
class Entrant:
    """Who sits at one side: a submission (``source_dir``, played in the sandbox) or one of the
    kit's players (``opponent``, played in this process)."""

    name: str
    source_dir: Path | None = None
    opponent: Opponent[Any, Any] | None = None


@dataclass(frozen=True)
class Match:
    """A finished game: who played which side, who won (None: a draw) and why, every ply."""

    first: str  # the name of the side to move first
    second: str
    winner: str | None
    reason: str
    plies: int
    moves: tuple[Ply, ...]
    seconds: tuple[float, float]  # each side's thinking time, first side's first
    fault: str | None = None  # the loser, when it lost by a fault (illegal move, crash, ...)


def _seat(
    entrant: Entrant,
    side: str,
    assignment: Assignment,
    plan: Plan,
    seed: int,
    rng: random.Random,
    layers: Protections | None,
) -> StudentSeat | KitSeat[Any, Any]:
    """The entrant's seat: its submission in the sandbox (its process seeded ``seed``), or the
    kit's player choosing with ``rng``."""
    if entrant.source_dir is None:
        assert entrant.opponent is not None, "a kit player needs its opponent function"
        return KitSeat(assignment.pack, side, entrant.opponent, rng)
    spawn = default_spawner(entrant.source_dir, assignment, plan.limits, layers)
    referee = Referee(spawn, assignment, plan, seed, Budget(plan.timeouts_before_giving_up))
    return StudentSeat(referee, side, seed, lambda n: f"move {n}")


def play_match(
    assignment: Assignment,
    plan: Plan,
    first: Entrant,
    second: Entrant,
    seed: int,
    layers: Protections | None = None,
    opening: Sequence[Any] = (),
) -> Match:
    """``first`` against ``second`` from the start, ``first`` to move first, up to the
    rubric's ply cap (then a draw), played by the turn engine (``turns.py``). ``seed`` fixes
    the kit players' choices and both processes' seeds; ``layers`` the sandbox (default: what
    this machine offers); ``opening`` (the pack's moves, legal from the start) is played
    first by the engine, as plies of the game every player is told."""
    pack = assignment.pack
    entrants = dict(zip(pack.sides, (first, second), strict=True))
    rng = random.Random(f"match:{seed}")
    seats = {
        side: _seat(entrant, side, assignment, plan, seed * 2 + index, rng, layers)
        for index, (side, entrant) in enumerate(entrants.items())
    }
    engine = Engine(pack, seats, pack.start(assignment.variant), plan.ply_cap, opening)
    ending = engine.run()

    def name(side: str) -> str:
        return entrants[side].name

    spent = tuple(s.seconds if isinstance(s, StudentSeat) else 0.0 for s in seats.values())
    return Match(
        first.name,
        second.name,
        None if ending.winner is None else name(ending.winner),
        ending_text(pack, ending, name),
        ending.plies,
        tuple(engine.plies),
        (spent[0], spent[1]),
        None if ending.fault is None else name(ending.fault),
    )
