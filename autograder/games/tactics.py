"""Tactical probes, for any game: a win in one to take, a threat to block, judged by value.

A position is a *win in 1* when a move of the side to move wins the game within its turn, and
a *block* when it has no such move but some of its moves let the other side win within its
next turn and some do not; both are found from the pack's own rules, a turn and two turns
deep. A turn is one ply where the sides alternate, and every move a side makes before the
other moves where a game gives extra turns (``GamePack.turn`` says whose each ply is: nothing
here assumes the other side moves next). A side that must pass has no tactic, and a move
that earns an extra turn lets the other side win only when every move of that turn does.

A move is judged by what it keeps: right when it keeps the position's best game-theoretic
outcome (a forced win stays a forced win, a draw a draw), which an exact solver gives where it
reaches (``Exact``: the pack's ``exact``, given by the caller). A forced win kept
without taking the win at once is reported as such, not charged unless the rubric asks for the
sooner win. Where no solver reaches, only what the rules show two plies deep is sure: the
immediate win, the block, and a move that hands the other side a win at once while a win was
there to take; anything else is *unsure*, reported and not charged.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autograder.games.pack import AnyPack, must_pass
from autograder.games.perfect import Exact

__all__ = [
    "KINDS",
    "OUTCOMES",
    "SOLVED",
    "SOONER",
    "MISSED",
    "UNSURE",
    "DEEPER",
    "Exact",
    "Probe",
    "Verdict",
    "classify",
    "tactic_positions",
    "judge",
]

KINDS = {
    "win in 1": "you can win with this move",
    "block": "a move here can let the opponent win next move",
}
OUTCOMES = ("loss", "draw", "win")  # for the side making a move, worst first
# A probe's verdicts: the move kept the best outcome (the immediate win or the block, or any
# move as good); kept a forced win but not the win at once; changed the outcome; could not be
# judged (no solver reaches the position, and the move is not the immediate answer).
SOLVED, SOONER, MISSED, UNSURE = "solved", "sooner", "missed", "unsure"
DEEPER = "deeper"  # a block made, the outcome lost later with best play: reported, not charged
_TRIES = 20_000  # random positions looked at for each tactic
# Chance is not skill: a probe is worth asking where a move at random is rarely right. Of the
# fair positions found for a probe, the first where at most this part of the legal moves keeps
# the outcome is asked; failing that, after _LOOKS of them, the one where the fewest do.
_RARE = 1 / 5
_LOOKS = 8
_CHAIN = 6  # moves in a row of one side followed to see a win within its turn


@dataclass(frozen=True)
class Probe:
    """One tactical position to ask, and each legal move's exact outcome where known."""

    kind: str  # one of KINDS
    position: Any  # the pack's position
    values: tuple[tuple[Any, str], ...] | None = None  # (move, outcome); None: not solved

    @property
    def best(self) -> str | None:
        """The position's outcome for the side to move with best play, where known."""
        if not self.values:
            return None
        return max((outcome for _, outcome in self.values), key=OUTCOMES.index)


@dataclass(frozen=True)
class Verdict:
    """What a move on a probe did: ``status`` one of SOLVED, SOONER, MISSED, UNSURE; ``text``
    one sentence for the report (empty when plainly solved)."""

    status: str
    text: str = ""


def _wins(pack: AnyPack, pos: Any, move: Any, chain: int = _CHAIN) -> bool:
    """``move`` wins the game for the side making it within its turn: at once, or by the
    moves the same side makes next without the other side moving between (Kalah's extra
    turns, up to ``chain`` of them). Where the sides alternate a turn is one ply."""
    side, after = pack.turn(pos), pack.play(pos, move)
    over = pack.result(after)
    if over is not None:
        return over == side
    if chain == 0 or pack.turn(after) != side or must_pass(pack, after):
        return False
    return any(_wins(pack, after, more, chain - 1) for more in pack.legal_moves(after))


def _lets_win(pack: AnyPack, pos: Any, move: Any, chain: int = _CHAIN) -> bool:
    """After ``move`` the other side can win within its next turn: never when the game is
    over or the other must pass; where ``move`` earns an extra turn (Kalah), when every move
    of that turn still lets the other side win (up to ``chain`` extra moves: past them, not)."""
    after = pack.play(pos, move)
    if pack.result(after) is not None or must_pass(pack, after):
        return False
    if pack.turn(after) == pack.turn(pos):
        more = list(pack.legal_moves(after))
        return chain > 0 and bool(more) and all(_lets_win(pack, after, m, chain - 1) for m in more)
    return any(_wins(pack, after, reply) for reply in pack.legal_moves(after))


def classify(pack: AnyPack, pos: Any) -> str | None:
    """The tactic ``pos`` holds for the side to move, or None (a side that must pass has none)."""
    if pack.result(pos) is not None or must_pass(pack, pos):
        return None
    moves = list(pack.legal_moves(pos))
    if any(_wins(pack, pos, move) for move in moves):
        return "win in 1"
    losing = [_lets_win(pack, pos, move) for move in moves]
    return "block" if any(losing) and not all(losing) else None


def _fair(kind: str, values: tuple[tuple[Any, str], ...] | None, exact: Exact | None) -> bool:
    """Whether a position of ``kind`` makes a fair probe: with a solver, one it solves, and no
    block where every move loses anyway (the block would be no better than the rest)."""
    if exact is None:
        return True
    if not values:
        return False
    return kind != "block" or any(outcome != "loss" for _, outcome in values)


def tactic_positions(
    pack: AnyPack, variant: Any, seed: int, count: int, exact: Exact | None = None
) -> list[Probe]:
    """``count`` seeded probes from random play, the kinds taking turns (fewer when random
    play does not turn them up), each where a move at random is rarely right (``_RARE``).
    With ``exact``, only positions it solves, each with its moves' outcomes; the same seed
    gives the same probes (the solver's budget counts nodes, not seconds)."""
    rng = random.Random(f"tactics:{seed}")
    found: list[Probe] = []
    kinds = list(KINDS)
    for index in range(count):
        wanted = kinds[index % len(kinds)]
        seen: list[tuple[float, Probe]] = []
        for _ in range(_TRIES):
            pos = pack.random_position(variant, rng, rng.randint(4, 40))
            if pos is None or classify(pack, pos) != wanted:
                continue
            solved = exact(pos) if exact is not None else None
            values = None if solved is None else tuple(solved)
            if _fair(wanted, values, exact):
                probe = Probe(wanted, pos, values)
                seen.append((_right_share(pack, probe), probe))
                if seen[-1][0] <= _RARE or len(seen) >= _LOOKS:
                    break
        if seen:
            found.append(min(seen, key=lambda item: item[0])[1])
    return found


def _right_share(pack: AnyPack, probe: Probe) -> float:
    """The part of the probe's legal moves that answer it: of a win in 1, the moves that win
    at once (a rubric may charge a later forced win, and scoring subtracts what moves at
    random get by the rubric's own judgement either way); of a block, the moves that keep its
    outcome (by value where solved, else those that let no win at once)."""
    pos = probe.position
    moves = list(pack.legal_moves(pos))
    if probe.kind == "win in 1":
        right = sum(_wins(pack, pos, move) for move in moves)
    elif probe.values:
        best = probe.best
        right = sum(outcome == best for _, outcome in probe.values)
    else:
        right = sum(not _lets_win(pack, pos, move) for move in moves)
    return right / len(moves) if moves else 1.0


def _named(pack: AnyPack, moves: Sequence[Any]) -> str:
    return " or ".join(pack.move_name(move) for move in moves)


def judge(pack: AnyPack, probe: Probe, move: Any) -> Verdict:
    """What ``move`` (legal) did on ``probe``: by value where the probe is solved, by the rules
    two plies deep where it is not."""
    pos, kind = probe.position, probe.kind
    legal = list(pack.legal_moves(pos))
    now = [m for m in legal if _wins(pack, pos, m)]
    takes = move in now
    if probe.values is None:
        if takes or (kind == "block" and not _lets_win(pack, pos, move)):
            return Verdict(SOLVED)
        if kind == "win in 1" and _lets_win(pack, pos, move):
            return Verdict(
                MISSED,
                f"{_named(pack, now)} wins at once; {pack.move_name(move)} lets the opponent win "
                "next move",
            )
        if kind == "block":  # two plies show it: after this move the opponent wins at once
            return _let_through(pack, pos, move, legal)
        return Verdict(
            UNSURE,
            f"not judged: {pack.move_name(move)} is not the immediate win, and the position is "
            "beyond the solver's reach, so whether it keeps a forced win is not known (not "
            "charged)",
        )
    values = dict(probe.values)
    best = probe.best
    mine = values.get(move)
    if mine == best:
        if kind == "win in 1" and not takes:
            return Verdict(
                SOONER,
                f"{pack.move_name(move)} kept the forced win (a sooner win was available at "
                f"{_named(pack, now)})",
            )
        return Verdict(SOLVED)
    keep = [m for m in legal if values.get(m) == best]
    if kind == "block" and _lets_win(pack, pos, move):
        return _let_through(pack, pos, move, legal)
    if kind == "block":  # the block is made; what best play does later is no block's lesson
        return Verdict(
            DEEPER,
            f"{pack.move_name(move)} lets no win through, though with best play it turns the "
            f"{best} into {_AFTER[mine or 'loss']} later ({_named(pack, keep)} keeps the {best})",
        )
    right = f"{_named(pack, now)} wins at once"  # a win in 1 missed
    others = [m for m in keep if m not in now]
    if others:
        right += f" ({_named(pack, others)} also keeps a forced win)"
    return Verdict(
        MISSED,
        f"{KINDS[kind]}: {pack.move_name(move)} turns the {best} into "
        f"{_AFTER[mine or 'loss']} with best play; {right}",
    )


_AFTER = {"loss": "a loss", "draw": "a draw", "win": "a win"}


def _let_through(pack: AnyPack, pos: Any, move: Any, legal: list[Any]) -> Verdict:
    """The block missed, as two plies show it: after ``move`` the opponent wins at once."""
    stops = [m for m in legal if not _lets_win(pack, pos, m)]
    return Verdict(
        MISSED,
        f"{pack.move_name(move)} lets the opponent win next move; {_named(pack, stops)} does not",
    )
