"""Beyond the rubric: the opponent ladder, move quality, puzzles and the challenge games.

Each is off unless the rubric's ``[extras]`` table or a ``check`` flag switches it on, and none
changes the score. The parts that need perfect play read the oracle's table; without a built
table they say how to build it, and everything else still runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autograder.games.pack import Assignment
from autograder.grading.rubric import ExtraOptions, Rubric
from autograder.oracle import (
    PERFECT,
    OracleError,
    Perfect,
    oracle_for,
    perfect_opponent,
    within_reach,
)
from autograder.play.budget import Budget
from autograder.play.records import Call, Game
from autograder.play.referee import Referee, Spawner

__all__ = ["Rung", "Judged", "Puzzle", "Extras", "run_extras", "PUZZLE_KINDS"]

PUZZLE_KINDS = {
    "win in 1": "you can complete a goal with this move",
    "block": "the opponent completes a goal next move unless you stop it",
    "win in 3": "you can force a goal in 3 plies",
}


@dataclass(frozen=True)
class Rung:
    name: str
    games: tuple[Game, ...]

    def count(self, result: str) -> int:
        return sum(g.result == result for g in self.games)


@dataclass(frozen=True)
class Judged:
    """A probe move rated by the oracle: the value before, and what the move left."""

    call: Call
    before: tuple[str, int | None]  # (win/draw/loss, plies) for the side to move
    after: tuple[str, int | None]  # the same, for the same side, after its move

    @property
    def loss_of_value(self) -> int:
        """0 when the move kept the value; 1 for win→draw or draw→loss; 2 for win→loss."""
        rank = {"loss": 0, "draw": 1, "win": 2}
        return max(0, rank[self.before[0]] - rank[self.after[0]])


@dataclass(frozen=True)
class Puzzle:
    kind: str
    call: Call
    solved: bool


@dataclass(frozen=True)
class Extras:
    notes: tuple[str, ...] = ()
    ladder: tuple[Rung, ...] = ()
    quality: tuple[Judged, ...] = ()
    puzzles: tuple[Puzzle, ...] = ()
    challenge_opted_in: bool | None = None  # None: not asked
    challenge: tuple[Game, ...] = ()


def _load_oracle(assignment: Assignment) -> tuple[Perfect[Any, Any] | None, str | None]:
    try:
        return oracle_for(assignment), None
    except OracleError as err:
        return None, f"perfect-play features skipped: {err}"


def _value(oracle: Perfect[Any, Any], pos: Any) -> tuple[str, int | None]:
    verdict = oracle.value(pos)
    return verdict.value, verdict.plies


def _after(oracle: Perfect[Any, Any], assignment: Assignment, call: Call) -> tuple[str, int | None]:
    verdict = oracle.value(assignment.pack.play(call.position, call.move)).after_move()
    return verdict.value, verdict.plies


def judge_moves(
    oracle: Perfect[Any, Any], assignment: Assignment, calls: Sequence[Call]
) -> tuple[Judged, ...]:
    """Every legal probe move the oracle can reach, with the position's value before and
    after it."""
    judged = []
    for call in calls:
        if call.move is None or not within_reach(oracle, call.position):
            continue
        try:
            judged.append(
                Judged(call, _value(oracle, call.position), _after(oracle, assignment, call))
            )
        except OracleError:
            continue  # past the solver's reach after all: not rated
    return tuple(judged)


def _kind(oracle: Perfect[Any, Any], pos: Any) -> str | None:
    value, plies = _value(oracle, pos)
    if value == "win" and plies == 1:
        return "win in 1"
    if value == "win" and plies == 3:
        return "win in 3"
    if value != "loss":
        rated = oracle.move_values(pos)
        if any(_at_once(v.value, v.plies) for _, v in rated):
            return "block"  # some move lets the opponent complete a goal at once
    return None


def find_puzzles(
    oracle: Perfect[Any, Any], assignment: Assignment, seed: int, each: int
) -> list[Any]:
    """Seeded positions from random games, ``each`` of every kind (fewer if none turn up)."""
    rng = random.Random(f"puzzles:{seed}")
    found: dict[str, list[Any]] = {kind: [] for kind in PUZZLE_KINDS}
    for _ in range(4000):
        if all(len(v) >= each for v in found.values()):
            break
        pos = assignment.pack.random_position(assignment.variant, rng, rng.randint(5, 40))
        if pos is None or not within_reach(oracle, pos):
            continue
        try:
            kind = _kind(oracle, pos)
        except OracleError:
            continue
        if kind is not None and len(found[kind]) < each and pos not in found[kind]:
            found[kind].append(pos)
    return [pos for kind in PUZZLE_KINDS for pos in found[kind]]


def _at_once(value: str, plies: int | None) -> bool:
    """A move worth this to its maker hands the opponent a goal now or on its next move."""
    return value == "loss" and plies is not None and plies <= 2


def _solved(kind: str, judged: Judged) -> bool:
    value, plies = judged.after
    if kind == "block":
        return not _at_once(value, plies)
    return value == "win" and plies is not None and plies <= (1 if kind == "win in 1" else 3)


def run_extras(
    make: Spawner,
    assignment: Assignment,
    rubric: Rubric,
    seed: int,
    probes: Sequence[Call],
    options: ExtraOptions,
) -> Extras:
    """Play and ask what ``options`` switch on; never raises for anything the submission does."""
    notes: list[str] = []
    oracle: Perfect[Any, Any] | None = None
    if options.move_quality or options.puzzles or options.challenge_games or options.ladder_games:
        oracle, problem = _load_oracle(assignment)
        if problem:
            notes.append(problem)
    referee = Referee(
        make, assignment, rubric.plan, seed, Budget(rubric.plan.timeouts_before_giving_up)
    )
    rungs = dict(assignment.pack.opponents)
    start = assignment.pack.start(assignment.variant)
    whole = oracle is not None and within_reach(oracle, start)  # it can play a whole game
    if oracle is not None and not whole and (options.ladder_games or options.challenge_games):
        notes.append(
            f"no perfect player on {assignment.name}: the board is too big to solve from the "
            "start; move quality and puzzles rate the positions near the end only"
        )
    if oracle is not None and whole:
        rungs["perfect"] = (PERFECT, perfect_opponent(oracle))
    ladder = [
        Rung(ident, tuple(referee.game(n, rung, ident) for n in range(1, options.ladder_games + 1)))
        for ident, rung in (rungs.items() if options.ladder_games else ())
    ]
    quality = judge_moves(oracle, assignment, probes) if options.move_quality and oracle else ()
    if options.move_quality and oracle is not None and len(quality) < len(probes):
        notes.append(
            f"move quality: {len(probes) - len(quality)} of {len(probes)} probe moves not rated "
            "(no legal move came back, or the position is too far from the end to solve)"
        )
    puzzles: list[Puzzle] = []
    if options.puzzles and oracle is not None:
        positions = find_puzzles(oracle, assignment, seed, options.puzzles)
        calls, _, _ = referee.ask(positions, "puzzle")
        for call in calls:
            kind = _kind(oracle, call.position) or "?"
            judged = judge_moves(oracle, assignment, [call])
            puzzles.append(Puzzle(kind, call, bool(judged) and _solved(kind, judged[0])))
    opted_in = None
    challenge: tuple[Game, ...] = ()
    if options.challenge_games and oracle is not None and whole:
        opted_in = referee.opted_in()
        if opted_in:
            perfect = (PERFECT, perfect_opponent(oracle))
            challenge = tuple(
                referee.game(n, perfect, "challenge") for n in range(1, options.challenge_games + 1)
            )
    return Extras(tuple(notes), tuple(ladder), quality, tuple(puzzles), opted_in, challenge)
