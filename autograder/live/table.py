"""One live game at a time, for ``autograder play``: a person against the submission's AI, or
the AI against one of the kit's opponents, one ply a step.

The submission plays from its :class:`~autograder.play.seat.Seat`: the same sandboxed
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
from autograder.games.pack import DRAW, Assignment, MoveError, Opponent, move_marks, must_pass
from autograder.games.perfect import OracleError
from autograder.grading.rubric import Rubric
from autograder.oracle.player import Perfect, oracle_for, perfect_opponent, within_reach
from autograder.play.budget import Budget
from autograder.play.records import Ply, call_ply, pass_ply
from autograder.play.referee import Referee, default_spawner
from autograder.play.seat import Seat

__all__ = ["Table", "PROJECT_ROOT"]

REFERENCE = "reference"
PROJECT_ROOT = kit_path()  # solution/ lies here, in a checkout or an installed kit
PERFECT = "perfect"


def _finite(seconds: float | None) -> float | None:
    """A time as JSON can carry it: None for no time, and for a call stopped at the limit."""
    return seconds if seconds is not None and math.isfinite(seconds) else None


@dataclass
class Table:
    """The game being played and who plays it; every method holds the lock."""

    assignment: Assignment
    rubric: Rubric
    source_dir: Path  # the submission's private folder
    root: Path  # the project's root, for the reference solution
    seed: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)
    mode: str = "play"  # "play": a person against the AI; "watch": the AI against an opponent
    ai_side: str = ""
    opponent: str = "random"
    pos: Any = None
    plies: list[Ply] = field(default_factory=list)
    clicks: list[tuple[int, int]] = field(default_factory=list)
    message: str = ""
    over: str | None = None
    seat: Seat | None = None
    other: Seat | None = None  # the reference solution, when it is the opponent
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

    def _referee(self, source_dir: Path) -> Referee:
        plan = self.rubric.plan
        spawn = default_spawner(source_dir, self.assignment, plan.limits)
        return Referee(spawn, self.assignment, plan, self.seed, Budget(1 << 30))

    def _close(self) -> None:
        for seat in (self.seat, self.other):
            if seat is not None:
                seat.close()
        self.seat = self.other = None

    def close(self) -> None:
        with self.lock:
            self._close()

    def new(self, mode: str, ai_side: str, opponent: str) -> None:
        """A new game from the start: ``mode`` "play" (a person takes the other side) or
        "watch" (``opponent`` does)."""
        pack = self.assignment.pack
        with self.lock:
            self._close()
            self.mode = mode if mode in ("play", "watch") else "play"
            self.ai_side = ai_side if ai_side in pack.sides else pack.sides[1]
            self.opponent = opponent if opponent in self.opponents else "random"
            self.pos = pack.start(self.assignment.variant)
            self.plies, self.clicks, self.over = [], [], None
            self.rng = random.Random(f"play:{self.seed}")
            self.seat = Seat(self._referee(self.source_dir), self.ai_side)
            problem = self.seat.open()
            if problem is not None:
                self.over, self.message = "the AI could not start", problem
                return
            if self.mode == "watch" and self.opponent == REFERENCE:
                solution = self.root / pack.solution(self.assignment.variant)
                other_side = self._other(self.ai_side)
                self.other = Seat(self._referee(solution.parent), other_side)
                problem = self.other.open()
                if problem is not None:
                    self.over, self.message = "the reference could not start", problem
                    return
            self.message = self._prompt()
            if self.mode == "play":
                self._advance()

    def _other(self, side: str) -> str:
        first, second = self.assignment.pack.sides
        return second if side == first else first

    def _name(self, side: str) -> str:
        return self.assignment.side_name(side)

    def _prompt(self) -> str:
        if self.over:
            return self.message
        pack = self.assignment.pack
        turn = pack.turn(self.pos)
        if self.mode == "watch":
            return f"{self._name(turn)} to move: press step"
        if turn == self.ai_side:
            return "the AI is thinking"
        if self.clicks:
            r, c = self.clicks[0]
            return f"({r}, {c}) chosen: now click where it goes"
        return f"your move ({self._name(turn)})"

    # ---- playing --------------------------------------------------------------------------

    def _play(self, ply: Ply, move: Any, passed: bool = False) -> None:
        """``move`` played, shown as ``ply`` and told to the seats that did not make it (a
        forced pass to both); the game over when it ends it."""
        pack = self.assignment.pack
        for seat in (self.seat, self.other):
            if seat is not None and (seat.side != ply.side or passed):
                seat.played(ply.side, ply.move, passed)
        self.pos = pack.play(self.pos, move)
        self.plies.append(ply)
        result = pack.result(self.pos)
        ended = pack.outcome(self.pos) if result is not None and pack.outcome else None
        if ended is not None:
            if ended.winner is None:
                self.over = "a draw"
            else:
                self.over = f"{self._who(ended.winner)} ({self._name(ended.winner)}) won"
            self.message = f"game over: {self.over} ({ended.reason})"
        elif result is not None:
            if result == DRAW:
                self.over = "a draw"
            else:
                self.over = f"{self._who(result)} ({self._name(result)}) won"
            self.message = f"game over: {self.over}"
        elif len(self.plies) >= self.rubric.ply_cap:
            self.over = "a draw by the ply cap"
            self.message = f"game over: {self.over} ({self.rubric.ply_cap} plies)"

    def _who(self, side: str) -> str:
        if side == self.ai_side:
            return "the AI"
        return "you" if self.mode == "play" else "the opponent"

    def _pass(self) -> None:
        """A forced pass, played here: neither the AI nor the person is asked."""
        pack = self.assignment.pack
        self._play(pass_ply(pack, pack.turn(self.pos)), pack.pass_move, passed=True)

    def _advance(self) -> None:
        """Playing against a person: the forced passes and the AI's moves, until the person
        is to move or the game is over."""
        pack = self.assignment.pack
        while not self.over:
            if must_pass(pack, self.pos):
                self._pass()
            elif pack.turn(self.pos) == self.ai_side:
                self._ai_move()
            else:
                return

    def _ai_move(self) -> None:
        """The AI's move, asked of the sandboxed process; a refused one ends the game."""
        pack = self.assignment.pack
        assert self.seat is not None
        call = self.seat.move(self.pos)
        ply = call_ply(pack, self.ai_side, self.pos, call)
        if call.move is None:
            problem = call.illegal or call.error or "no move came back"
            self.plies.append(ply)
            self.over = "the AI lost: its move was refused"
            self.message = f"the AI's {pack.move_call} failed: {problem}"
            return
        self._play(ply, call.move)

    def _opponent_move(self) -> None:
        pack = self.assignment.pack
        side = pack.turn(self.pos)
        if self.other is not None:
            call = self.other.move(self.pos)
            if call.move is None:
                self.over = "the reference solution failed"
                self.message = call.illegal or call.error or "no move came back"
                return
            move: Any = call.move
        else:
            move = self._choose()(self.pos, self.rng)
        plain = pack.student_move(move)
        self._play(Ply(side, plain, repr(plain), marks=move_marks(pack, self.pos, plain)), move)

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
            if self.over or self.mode != "play" or pack.turn(self.pos) == self.ai_side:
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
            plain = pack.student_move(move)
            marks = move_marks(pack, self.pos, raw)
            self._play(Ply(pack.turn(self.pos), plain, repr(plain), marks=marks), move)
            self._advance()
            self.message = self._prompt()

    def step(self) -> None:
        """Watching: the next ply, the AI's or the opponent's."""
        pack = self.assignment.pack
        with self.lock:
            if self.over or self.mode != "watch":
                return
            if must_pass(pack, self.pos):
                self._pass()
            elif pack.turn(self.pos) == self.ai_side:
                self._ai_move()
            else:
                self._opponent_move()
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
