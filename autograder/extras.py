"""Beyond the rubric: the opponent ladder, move quality, puzzles and the challenge games.

Each is off unless the rubric's ``[extras]`` table or a ``check`` flag switches it on, and none
changes the score. The parts that need perfect play read the oracle's table; without a built
table they say how to build it, and everything else still runs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from autograder.oracle import Oracle, OracleError, load
from autograder.referee import (
    Call,
    Game,
    Spawner,
    ask_positions,
    make_budget,
    play_game,
    random_position,
)
from autograder.rubric import ExtraOptions, Rubric
from autograder.rules import Position, play
from autograder.variants import Variant

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


def _load_oracle(variant: Variant) -> tuple[Oracle | None, str | None]:
    try:
        return load(variant), None
    except OracleError as err:
        return None, f"perfect-play features skipped: {err}"


def _value(oracle: Oracle, pos: Position) -> tuple[str, int | None]:
    verdict = oracle.value(pos)
    return verdict.value, verdict.plies


def _after(oracle: Oracle, pos: Position, call: Call) -> tuple[str, int | None]:
    assert call.move is not None
    verdict = oracle.value(play(pos, call.move)).after_move()
    return verdict.value, verdict.plies


def judge_moves(oracle: Oracle, calls: Sequence[Call]) -> tuple[Judged, ...]:
    """Every legal probe move with the position's value before and after it."""
    return tuple(
        Judged(call, _value(oracle, call.position), _after(oracle, call.position, call))
        for call in calls
        if call.move is not None
    )


def _kind(oracle: Oracle, pos: Position) -> str | None:
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


def find_puzzles(oracle: Oracle, variant: Variant, seed: int, each: int) -> list[Position]:
    """Seeded positions from random games, ``each`` of every kind (fewer if none turn up)."""
    rng = random.Random(f"puzzles:{seed}")
    found: dict[str, list[Position]] = {kind: [] for kind in PUZZLE_KINDS}
    for _ in range(4000):
        if all(len(v) >= each for v in found.values()):
            break
        pos = random_position(variant, rng, rng.randint(5, 40))
        if pos is None:
            continue
        kind = _kind(oracle, pos)
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


def _ask_challenge(make: Spawner, variant: Variant, rubric: Rubric, seed: int) -> bool | None:
    with make(seed) as proc:
        if not proc.start().ok:
            return None
        request = {"op": "new", "cls": variant.player_class, "piece": "b"}
        if not proc.request(request, rubric.limits.import_seconds, "__init__").ok:
            return None
        reply = proc.request({"op": "challenge"}, rubric.limits.call_seconds, "run_challenge_test")
    return reply.ok and reply.data.get("opted_in") is True


def run_extras(
    make: Spawner,
    variant: Variant,
    rubric: Rubric,
    seed: int,
    probes: Sequence[Call],
    options: ExtraOptions,
) -> Extras:
    """Play and ask what ``options`` switch on; never raises for anything the submission does."""
    from autograder.opponents import LADDER, perfect_opponent

    notes: list[str] = []
    oracle: Oracle | None = None
    if options.move_quality or options.puzzles or options.challenge_games or options.ladder_games:
        oracle, problem = _load_oracle(variant)
        if problem:
            notes.append(problem)
    budget = make_budget(rubric)
    ladder = []
    for name, called, factory in LADDER if options.ladder_games else ():
        if name == "perfect" and oracle is None:
            continue
        games = tuple(
            play_game(make, variant, n, seed, rubric, budget, factory(oracle), called, name)
            for n in range(1, options.ladder_games + 1)
        )
        ladder.append(Rung(name, games))
    quality = judge_moves(oracle, probes) if options.move_quality and oracle else ()
    puzzles: list[Puzzle] = []
    if options.puzzles and oracle is not None:
        positions = find_puzzles(oracle, variant, seed, options.puzzles)
        calls, _, _ = ask_positions(make, variant, positions, rubric.limits, budget, seed, "puzzle")
        for call in calls:
            kind = _kind(oracle, call.position) or "?"
            judged = judge_moves(oracle, [call])
            puzzles.append(Puzzle(kind, call, bool(judged) and _solved(kind, judged[0])))
    opted_in = None
    challenge: tuple[Game, ...] = ()
    if options.challenge_games and oracle is not None:
        opted_in = _ask_challenge(make, variant, rubric, seed)
        if opted_in:
            perfect = perfect_opponent(oracle)
            challenge = tuple(
                play_game(
                    make,
                    variant,
                    n,
                    seed,
                    rubric,
                    budget,
                    perfect,
                    "the perfect player",
                    "challenge",
                )
                for n in range(1, options.challenge_games + 1)
            )
    return Extras(tuple(notes), tuple(ladder), quality, tuple(puzzles), opted_in, challenge)
