"""The turn engine: the one loop that plays every game the kit plays, in the manner of
OpenSpiel's ``State.current_player()`` / ``apply_action()`` / ``is_terminal()``.

Each ply it asks the position whose turn it is (``pack.turn``), asks that side's seat for a
move (or plays the pass a side is forced to, asking no one), plays it, tells every seat, and
records the ply; the game ends when ``pack.result`` says so, at the ply cap, or when a seat's
move is refused. Nothing here assumes the sides alternate: a side that moves twice in a row
(Kalah's extra turn, the other side's forced pass) is simply asked twice.

A seat is whoever sits at one side: the student's process (``seat.StudentSeat``), one of the
kit's players (:class:`KitSeat`), a person at the play page (:class:`PersonSeat`). The graded
games (``referee.py``), the tournament (``match.py``) and the live table (``live/table.py``)
all play through :class:`Engine`, which steps one ply at a time (the live table advances a ply
a click) or runs a game to its end; :func:`ending_text` words every outcome.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol

from autograder.games.pack import DRAW, GamePack, Opponent, move_marks, must_pass
from autograder.games.student import M, M_out, P, P_in  # the seam's positions and moves
from autograder.play.records import Call, Ply, pass_ply
from autograder.play.untrusted import admit

__all__ = [
    "Answer",
    "Ending",
    "Engine",
    "KitSeat",
    "PersonSeat",
    "Played",
    "Seat",
    "ending_text",
]


@dataclass(frozen=True)
class Answer(Generic[M_out]):
    """A seat's answer when asked for a move: the move (None: refused, and ``why`` says what
    went wrong, in one sentence) and the ply as the replay shows it (None: nothing to show,
    as when the player could not even be told the last moves)."""

    move: M_out | None
    ply: Ply | None
    why: str = ""
    call: Call | None = None  # the student's call it came from, where it came from one


class Seat(Protocol[P_in, M_out]):
    """Whoever sits at one side of the board."""

    def open(self) -> str | None:
        """Get ready to play; a sentence saying why it cannot, or None."""
        ...

    def move(self, pos: P_in, plies: int) -> Answer[M_out]:
        """Its move on ``pos``, after ``plies`` plies."""
        ...

    def tell(self, side: str, move: Any) -> None:
        """A ply was played, by ``side`` (its own ones too), as plain data."""
        ...

    def close(self) -> None: ...


@dataclass(frozen=True)
class Played(Generic[M]):
    """One ply: who made it, the move (None: refused, which ends the game), and whether it
    was a forced pass the engine played."""

    side: str
    move: M | None
    ply: Ply | None
    passed: bool = False
    answer: Answer[M] | None = None  # the seat's, when it was asked


@dataclass(frozen=True)
class Ending:
    """How a game ended. ``how`` is one of "outcome" (the pack's own words: ``why``), "goal"
    (``winner`` completed the pack's goal), "full" (a draw: no move left), "cap" (the ply cap
    came first: a draw), "fault" (``fault``'s move was refused: ``why``) or "start" (``fault``,
    or both sides when it is None, could not start: ``why``)."""

    how: str
    plies: int
    winner: str | None = None
    why: str = ""
    fault: str | None = None


def ending_text(pack: GamePack[Any, Any, Any], ending: Ending, name: Callable[[str], str]) -> str:
    """The ending in one sentence, each side called by ``name`` ("you", "the random player",
    a student's name): the one wording every game's end is reported in."""
    who = name(ending.winner) if ending.winner is not None else ""
    if ending.how == "start":
        if ending.fault is None:
            return f"neither player could start: {ending.why}"
        return f"{name(ending.fault)} could not start: {ending.why}"
    if ending.how == "fault" and ending.fault is not None:
        return f"{name(ending.fault)} lost on ply {ending.plies + 1}: {ending.why}"
    if ending.how == "outcome":
        return f"{who} won on ply {ending.plies}: {ending.why}" if who else ending.why
    if ending.how == "goal":
        return f"{who} completed {pack.goal_one} on ply {ending.plies}"
    if ending.how == "full":
        return "the board is full"
    return f"no {pack.goal} within {ending.plies} plies"


def _over(pack: GamePack[Any, Any, Any], pos: Any, plies: int, cap: int) -> Ending | None:
    """The ending the rules (or the cap) give ``pos``, or None while the game goes on."""
    result = pack.result(pos)
    if result is None:
        return Ending("cap", plies) if plies >= cap else None
    ended = pack.outcome(pos) if pack.outcome is not None else None
    if ended is not None:
        return Ending("outcome", plies, ended.winner, ended.reason)
    if result == DRAW:
        return Ending("full", plies)
    return Ending("goal", plies, result)


def _plain_ply(pack: GamePack[Any, Any, Any], side: str, pos: Any, move: Any, raw: Any) -> Ply:
    """A move the kit played or a person made, as the replay shows it (``raw``: as made)."""
    plain = pack.student_move(move)
    return Ply(side, plain, admit(repr(plain), "repr"), marks=move_marks(pack, pos, raw))


class _Here(Generic[P, M]):
    """A seat in this process: nothing to start, tell or stop."""

    def __init__(self, pack: GamePack[P, M, Any], side: str) -> None:
        self.pack, self.side = pack, side

    def open(self) -> str | None:
        return None

    def tell(self, side: str, move: Any) -> None:
        pass

    def close(self) -> None:
        pass


class KitSeat(_Here[P, M]):
    """One of the kit's players (``choose``), run here with the grader's seeded generator."""

    def __init__(
        self, pack: GamePack[P, M, Any], side: str, choose: Opponent[P, M], rng: random.Random
    ) -> None:
        super().__init__(pack, side)
        self.choose, self.rng = choose, rng

    def move(self, pos: P, plies: int) -> Answer[M]:
        move = self.choose(pos, self.rng)
        plain = self.pack.student_move(move)
        return Answer(move, _plain_ply(self.pack, self.side, pos, move, plain))


class PersonSeat(_Here[P, M]):
    """A person at the play page: ``given`` holds the move they made (already read by the
    rules) and the value their clicks made, until the engine plays it."""

    def __init__(self, pack: GamePack[P, M, Any], side: str) -> None:
        super().__init__(pack, side)
        self.given: tuple[M, Any] | None = None

    def move(self, pos: P, plies: int) -> Answer[M]:
        assert self.given is not None, "the person's move is given before the engine steps"
        (move, raw), self.given = self.given, None
        return Answer(move, _plain_ply(self.pack, self.side, pos, move, raw))


class Engine(Generic[P, M]):
    """One game between ``seats`` (side -> seat) from ``start``, up to ``ply_cap`` plies.
    ``opening``: moves played first, in order, by whichever side is to move, as plies of the
    game that every seat is told (a tournament's opening).

    Step it a ply at a time (:meth:`step`) or play it to its end (:meth:`run`); ``pos``,
    ``plies`` and ``ending`` (None while it goes on) say where it stands."""

    def __init__(
        self,
        pack: GamePack[P, M, Any],
        seats: Mapping[str, Seat[P, M]],
        start: P,
        ply_cap: int,
        opening: Sequence[M] = (),
    ) -> None:
        self.pack, self.seats, self.pos, self.ply_cap = pack, dict(seats), start, ply_cap
        self.opening = tuple(opening)
        self.plies: list[Ply] = []
        self.ending: Ending | None = None

    def open(self) -> dict[str, str]:
        """Open every seat, first side first, then play the opening; each side that could not
        start -> why (and then the game is over)."""
        problems = {}
        for side in self.pack.sides:
            problem = self.seats[side].open()
            if problem is not None:
                problems[side] = problem
        if problems:
            fault = next(iter(problems)) if len(problems) == 1 else None
            why = "; ".join(problems.values())
            self.ending = Ending("start", 0, self._other(fault), why, fault)
            return problems
        for move in self.opening:
            side = self.pack.turn(self.pos)
            self._play(side, move, _plain_ply(self.pack, side, self.pos, move, None))
        return problems

    def _other(self, side: str | None) -> str | None:
        if side is None:
            return None
        first, second = self.pack.sides
        return second if side == first else first

    def to_move(self) -> str | None:
        """The side to move, or None when the game is over."""
        return None if self.ending is not None else self.pack.turn(self.pos)

    def must_pass(self) -> bool:
        """Whether the side to move must pass (the engine plays it, asking no one)."""
        return self.ending is None and must_pass(self.pack, self.pos)

    def step(self) -> Played[M]:
        """The next ply: a forced pass, or the move of the seat whose turn it is."""
        assert self.ending is None, "the game is over"
        pack, pos = self.pack, self.pos
        side = pack.turn(pos)
        if must_pass(pack, pos):
            move = pack.pass_move
            assert move is not None, "a pack with passes has a pass move"
            ply = pass_ply(pack, side)
            self._play(side, move, ply)
            return Played(side, move, ply, passed=True)
        answer = self.seats[side].move(pos, len(self.plies))
        if answer.move is None:
            self.ending = Ending("fault", len(self.plies), self._other(side), answer.why, side)
            if answer.ply is not None:
                self.plies.append(answer.ply)
            return Played(side, None, answer.ply, answer=answer)
        assert answer.ply is not None, "a move comes with its ply"
        self._play(side, answer.move, answer.ply)
        return Played(side, answer.move, answer.ply, answer=answer)

    def _play(self, side: str, move: M, ply: Ply) -> None:
        plain = self.pack.student_move(move)
        for seat in {id(s): s for s in self.seats.values()}.values():
            seat.tell(side, plain)
        self.pos = self.pack.play(self.pos, move)
        self.plies.append(ply)
        self.ending = _over(self.pack, self.pos, len(self.plies), self.ply_cap)

    def run(self) -> Ending:
        """Open the seats and play to the end; the seats are closed whatever happens."""
        try:
            self.open()
            while self.ending is None:
                self.step()
            return self.ending
        finally:
            self.close()

    def close(self) -> None:
        for seat in self.seats.values():
            seat.close()
