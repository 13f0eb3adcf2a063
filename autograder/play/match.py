"""One tournament game: two players at one board, the kit's rules in between.

Each side is a submission in its own sandboxed process (a :class:`~autograder.play.seat.Seat`,
exactly as ``autograder play`` seats one, under the rubric's limits) or one of the kit's own
players, run here. The side that makes an illegal move, crashes, times out or breaks the
protocol loses the game, and the reason says which and how.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.games.pack import DRAW, Assignment, Opponent, move_marks, must_pass
from autograder.play.budget import Budget
from autograder.play.records import Plan, Ply, call_ply, pass_ply
from autograder.play.referee import Referee, default_spawner
from autograder.play.sandbox import Protections
from autograder.play.seat import Seat
from autograder.play.untrusted import clean

__all__ = ["Entrant", "Match", "play_match"]

_SHOWN = 300  # characters of a kit player's move kept for the replay


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
    layers: Protections | None,
) -> tuple[Seat | None, str | None]:
    """The entrant's seat, opened (None for a kit player), and why it could not start."""
    if entrant.source_dir is None:
        return None, None
    spawn = default_spawner(entrant.source_dir, assignment, plan.limits, layers)
    referee = Referee(spawn, assignment, plan, seed, Budget(plan.timeouts_before_giving_up))
    seat = Seat(referee, side)
    return seat, seat.open()


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
    rubric's ply cap (then a draw). ``seed`` fixes the kit players' choices and both
    processes' seeds; ``layers`` the sandbox (default: what this machine offers);
    ``opening`` (the pack's moves, legal from the start) is played first, by the kit, both
    players told each move as the other side's moves are told."""
    pack = assignment.pack
    sides = dict(zip(pack.sides, (first, second), strict=True))
    rng = random.Random(f"match:{seed}")
    moves: list[Ply] = []
    spent = dict.fromkeys(pack.sides, 0.0)
    seats: dict[str, Seat | None] = {}

    def end(winner: str | None, reason: str, plies: int, fault: str | None = None) -> Match:
        return Match(
            first.name,
            second.name,
            winner,
            reason,
            plies,
            tuple(moves),
            (spent[pack.sides[0]], spent[pack.sides[1]]),
            fault,
        )

    try:
        problems = {}
        for index, (side, entrant) in enumerate(sides.items()):
            seats[side], problem = _seat(entrant, side, assignment, plan, seed * 2 + index, layers)
            if problem is not None:
                problems[side] = problem
        if len(problems) == 2:
            return end(None, "neither player could start: " + "; ".join(problems.values()), 0)
        for side, problem in problems.items():
            other = sides[_other(pack.sides, side)]
            loser = sides[side].name
            return end(other.name, f"{loser} could not start: {problem}", 0, loser)
        pos = _play_opening(assignment, opening, seats, moves)
        plies = len(moves)
        while (result := pack.result(pos)) is None and plies < plan.ply_cap:
            side = pack.turn(pos)
            entrant, seat = sides[side], seats[side]
            passed = must_pass(pack, pos)
            if passed:  # played by the kit: no one is asked
                move = pack.pass_move
                data = pack.student_move(move)
                moves.append(pass_ply(pack, side))
            elif seat is None:
                assert entrant.opponent is not None, "a kit player needs its opponent function"
                move = entrant.opponent(pos, rng)
                data = pack.student_move(move)
                moves.append(
                    Ply(side, data, clean(repr(data), _SHOWN), marks=move_marks(pack, pos, data))
                )
            else:
                call = seat.move(pos)
                spent[side] += call.seconds if call.answered else 0.0
                moves.append(call_ply(pack, side, pos, call))
                if call.move is None:
                    why = call.error or f"{pack.move_call} returned an illegal move: {call.illegal}"
                    other = sides[_other(pack.sides, side)]
                    lost = f"{entrant.name} lost on ply {plies + 1}: {why}"
                    return end(other.name, lost, plies, entrant.name)
                move = call.move
                data = pack.student_move(move)
            for seated, listener in seats.items():
                if listener is not None and (seated != side or passed):
                    listener.played(side, data, passed)
            pos = pack.play(pos, move)
            plies += 1
        ended = pack.outcome(pos) if result is not None and pack.outcome is not None else None
        if ended is not None:
            if ended.winner is None:
                return end(None, ended.reason, plies)
            winner = sides[ended.winner].name
            return end(winner, f"{winner} won on ply {plies}: {ended.reason}", plies)
        if result is None or result == DRAW:
            why = "the board is full" if result == DRAW else f"no {pack.goal} within {plies} plies"
            return end(None, why, plies)
        winner = sides[result].name
        return end(winner, f"{winner} completed {pack.goal_one} on ply {plies}", plies)
    finally:
        for seat in seats.values():
            if seat is not None:
                seat.close()


def _play_opening(
    assignment: Assignment, opening: Sequence[Any], seats: dict[str, Seat | None], moves: list[Ply]
) -> Any:
    """The position after ``opening`` is played from the start by the kit, each of its plies
    added to ``moves`` and told to both seats."""
    pack = assignment.pack
    pos = pack.start(assignment.variant)
    for move in opening:
        side, data = pack.turn(pos), pack.student_move(move)
        moves.append(Ply(side, data, clean(repr(data), _SHOWN), marks=move_marks(pack, pos, data)))
        for listener in seats.values():
            if listener is not None:
                listener.played(side, data)
        pos = pack.play(pos, move)
    return pos


def _other(sides: tuple[str, str], side: str) -> str:
    return sides[1] if side == sides[0] else sides[0]
