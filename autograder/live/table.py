"""One live game at a time, for ``autograder play``: a person against the submission's AI, or
the AI against one of the kit's opponents, one ply a step.

The submission plays from its :class:`~autograder.play.seat.StudentSeat`: the same sandboxed
process, driver and time limit as in grading. Every move a person clicks, and every move the AI
returns, is judged by the pack's rules before it is played; a refused move or a crash ends the
game and is drawn on the board, never shown as a traceback.
"""

from __future__ import annotations

import functools
import math
import random
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from autograder.files import kit_path
from autograder.games.pack import Assignment, MoveError, Opponent
from autograder.games.perfect import OracleError
from autograder.grading.rubric import Rubric
from autograder.oracle.player import Perfect, oracle_for, perfect_opponent, within_reach
from autograder.play.budget import Budget
from autograder.play.records import Ply
from autograder.play.referee import Referee, default_spawner
from autograder.play.seat import StudentSeat
from autograder.play.turns import Engine, KitSeat, PersonSeat, Seat, ending_text

__all__ = ["Table", "PROJECT_ROOT"]

REFERENCE = "reference"
PROJECT_ROOT = kit_path()  # solution/ lies here, in a checkout or an installed kit
PERFECT = "perfect"


def _finite(seconds: float | None) -> float | None:
    """A time as JSON can carry it: None for no time, and for a call stopped at the limit."""
    return seconds if seconds is not None and math.isfinite(seconds) else None


@dataclass
class Table:
    """The game being played and who plays it, on the turn engine (``play/turns.py``), one ply
    a step or a click; every method holds the lock."""

    assignment: Assignment
    rubric: Rubric
    source_dir: Path  # the submission's private folder
    root: Path  # the project's root, for the reference solution
    seed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    mode: str = "play"  # "play": a person against the AI; "watch": the AI against an opponent
    ai_side: str = ""
    opponent: str = "random"
    engine: Engine[Any, Any] | None = None
    person: PersonSeat[Any, Any] | None = None  # the person's seat, when one plays
    clicks: list[tuple[int, int]] = field(default_factory=list)
    message: str = ""
    over: str | None = None
    rng: random.Random = field(default_factory=random.Random)

    # ---- who plays ------------------------------------------------------------------------

    @functools.cached_property
    def perfect(self) -> Perfect[Any, Any] | None:
        """The game's perfect player, loaded once per table (Teeko's is a 3 MB table read and
        checked on load); None where the game has none."""
        try:
            return oracle_for(self.assignment)
        except OracleError:
            return None

    @functools.cached_property
    def opponents(self) -> dict[str, str]:
        """The opponents the AI can be watched against: id -> name. The reference solution is
        one where the kit runs from a checkout that holds it (``root``)."""
        pack = self.assignment.pack
        names = {ident: name for ident, (name, _) in pack.opponents.items()}
        if (self.root / pack.solution(self.assignment.variant)).is_file():
            names[REFERENCE] = "the reference solution"
        if self.perfect is not None:
            names[PERFECT] = "the perfect player"
        return names

    @property
    def pos(self) -> Any:
        return None if self.engine is None else self.engine.pos

    @property
    def plies(self) -> list[Ply]:
        return [] if self.engine is None else self.engine.plies

    def _referee(self, source_dir: Path) -> Referee:
        plan = self.rubric.plan
        spawn = default_spawner(source_dir, self.assignment, plan.limits)
        return Referee(spawn, self.assignment, plan, self.seed, Budget(1 << 30))

    def _seat(self, source_dir: Path, side: str) -> StudentSeat:
        """A submission's seat (the AI's, or the reference solution's) for ``side``."""
        referee = self._referee(source_dir)
        return StudentSeat(referee, side, referee.seed, lambda n: f"move {n}")

    def close(self) -> None:
        with self.lock:
            if self.engine is not None:
                self.engine.close()

    def new(self, mode: str, ai_side: str, opponent: str) -> None:
        """A new game from the start: ``mode`` "play" (a person takes the other side) or
        "watch" (``opponent`` does)."""
        pack = self.assignment.pack
        with self.lock:
            if self.engine is not None:
                self.engine.close()
            self.mode = mode if mode in ("play", "watch") else "play"
            self.ai_side = ai_side if ai_side in pack.sides else pack.sides[1]
            self.opponent = opponent if opponent in self.opponents else "random"
            self.clicks, self.over = [], None
            self.rng = random.Random(f"play:{self.seed}")
            other = self._other(self.ai_side)
            self.person = PersonSeat(pack, other) if self.mode == "play" else None
            seats: dict[str, Seat[Any, Any]] = {
                self.ai_side: self._seat(self.source_dir, self.ai_side),
                other: self.person or self._opponent_seat(other),
            }
            start = pack.start(self.assignment.variant)
            self.engine = Engine(pack, seats, start, self.rubric.ply_cap)
            problems = self.engine.open()
            if problems:
                side = self.ai_side if self.ai_side in problems else other
                who = "the AI" if side == self.ai_side else "the reference"
                self.over, self.message = f"{who} could not start", problems[side]
                return
            self.message = self._prompt()
            if self.mode == "play":
                self._advance()

    def _opponent_seat(self, side: str) -> Seat[Any, Any]:
        """The seat the AI is watched against: the reference solution in its own process, or
        one of the kit's players."""
        if self.opponent == REFERENCE:
            solution = self.root / self.assignment.pack.solution(self.assignment.variant)
            return self._seat(solution.parent, side)
        choose = (lambda pos, rng: self._choose()(pos, rng)) if self.opponent == PERFECT else None
        chosen = choose or self.assignment.pack.opponents[self.opponent][1]
        return KitSeat(self.assignment.pack, side, chosen, self.rng)

    def _other(self, side: str) -> str:
        first, second = self.assignment.pack.sides
        return second if side == first else first

    def _name(self, side: str) -> str:
        return self.assignment.side_name(side)

    def _prompt(self) -> str:
        if self.over:
            return self.message
        turn = self.assignment.pack.turn(self.pos)
        if self.mode == "watch":
            return f"{self._name(turn)} to move: press step"
        if turn == self.ai_side:
            return "the AI is thinking"
        if self.clicks:
            r, c = self.clicks[0]
            return f"({r}, {c}) chosen: now click where it goes"
        return f"your move ({self._name(turn)})"

    # ---- playing --------------------------------------------------------------------------

    def _step(self) -> None:
        """One ply of the engine; the game over, in the page's words, when it ends it."""
        assert self.engine is not None
        played = self.engine.step()
        ending = self.engine.ending
        if ending is None:
            return
        if ending.fault is not None:
            call = played.answer.call if played.answer is not None else None
            problem = (call.illegal or call.error if call else None) or ending.why
            if ending.fault == self.ai_side:
                self.over = "the AI lost: its move was refused"
                self.message = f"the AI's {self.assignment.pack.move_call} failed: {problem}"
            else:
                self.over, self.message = "the reference solution failed", problem
            return
        if ending.winner is not None:
            self.over = f"{self._who(ending.winner)} won"
        else:
            self.over = "a draw by the ply cap" if ending.how == "cap" else "a draw"
        self.message = "game over: " + ending_text(self.assignment.pack, ending, self._who)

    def _who(self, side: str) -> str:
        """A side as the page names it: "the AI (black)", "you (red)", "the opponent (red)"."""
        who = "the AI" if side == self.ai_side else "you" if self.mode == "play" else "the opponent"
        return f"{who} ({self._name(side)})"

    def _advance(self) -> None:
        """Playing against a person: the forced passes and the AI's moves, until the person
        is to move or the game is over."""
        assert self.engine is not None
        while self.engine.ending is None and (
            self.engine.must_pass() or self.engine.to_move() == self.ai_side
        ):
            self._step()

    def _choose(self) -> Opponent[Any, Any]:
        pack = self.assignment.pack
        if self.opponent == PERFECT:
            if self.perfect is not None and within_reach(self.perfect, self.pos):
                return perfect_opponent(self.perfect)
            self.message = "perfect play is out of reach here: the greedy player moved"
            return pack.opponents.get("greedy", pack.opponents["random"])[1]
        return pack.opponents[self.opponent][1]

    def click(self, row: int, col: int) -> None:
        """A person's click on a square: a move once it has all its squares."""
        pack = self.assignment.pack
        with self.lock:
            engine, person = self.engine, self.person
            if engine is None or person is None or engine.to_move() != person.side:
                self.message = self._prompt() if not self.over else self.message
                return
            self.clicks.append((row, col))
            raw = pack.clicks(self.pos, list(self.clicks))
            if raw is None:
                self.message = self._prompt()
                return
            self.clicks = []
            try:
                move = pack.read_move(raw, self.pos)
            except MoveError as err:
                self.message = f"not a legal move: {err}"
                return
            person.given = (move, raw)
            self._step()
            self._advance()
            self.message = self._prompt()

    def step(self) -> None:
        """Watching: the next ply, the AI's or the opponent's."""
        with self.lock:
            if self.over or self.mode != "watch" or self.engine is None:
                return
            self._step()
            self.message = self._prompt()

    # ---- what the page shows --------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        pack = self.assignment.pack
        with self.lock:
            marks = [list(m) for m in self.plies[-1].marks] if self.plies else []
            marks += [[r, c, "from"] for r, c in self.clicks]
            return {
                "title": f"{pack.title}: {self.assignment.name}",
                "rows": pack.cells(self.pos) if self.pos is not None else [],
                "colours": dict(pack.colours),
                "marks": marks,
                "mode": self.mode,
                "ai": self._name(self.ai_side) if self.ai_side else "",
                "sides": {side: self._name(side) for side in pack.sides},
                "opponents": self.opponents,
                "opponent": self.opponent,
                "turn": self._name(pack.turn(self.pos)) if self.pos is not None else "",
                "message": self.message,
                "over": self.over,
                "ai_seconds": next(
                    (_finite(p.seconds) for p in reversed(self.plies) if p.side == self.ai_side),
                    None,
                ),
                "moves": [
                    f"{n}. {self._name(p.side)}: {p.text}"
                    + ("" if _finite(p.seconds) is None else f" ({p.seconds:.2f} s)")
                    for n, p in enumerate(self.plies, 1)
                ],
            }
