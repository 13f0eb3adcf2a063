"""The student's seat at a game: the submission's process playing one side, for the turn
engine (``turns.py``) in graded games (``referee.py``), the tournament (``match.py``) and
``autograder play`` (``live/table.py``) alike."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from autograder.play.host import PlayerProcess, Reply, Status
from autograder.play.judge import load_problem
from autograder.play.records import Call, call_ply
from autograder.play.turns import Answer

if TYPE_CHECKING:
    from autograder.play.referee import Referee

__all__ = ["StudentSeat", "Told"]

_NOTES_KEPT = 4  # notes kept from one sync reply (the runner writes at most three)


@dataclass
class Told:
    """The plies a player has not been told yet, oldest first, each with the side that made
    it: its own moves as it answered them, the other side's, and the forced passes of either.
    The sync before its next move sends them (``plies``: ``[side, move]`` pairs, moves in the
    student's format) and the position (``state``); the driver tells the player each ply by
    the side that made it, never by taking turns."""

    plies: list[tuple[str, Any]] = field(default_factory=list)

    def played(self, side: str, move: Any) -> None:
        self.plies.append((side, move))

    def sync(self, state: Any) -> dict[str, Any]:
        """The sync request; the plies in it are told from then on."""
        plies, self.plies = [[side, move] for side, move in self.plies], []
        return {"op": "sync", "plies": plies, "state": state}


class StudentSeat:
    """The submission at one side: one process (``child_seed``), its player built once, told
    the plies since its last move before each of its moves and asked for one, every call under
    the referee's limits and timeout allowance (``Referee.ask_move``, asked again alone when
    a busy machine stopped it: ``Referee._asked``). ``where`` names its n-th move for reports.
    With ``stand_in`` (a graded game's name), a move stopped at the hard limit has a random
    legal move played for it (``Referee._played_for``) and the game goes on with a fresh player
    on the next move; without it (a tournament, the play page) the stop loses the game.

    What the seat saw stays on it for the game's record: its calls, the driver's notes (board
    drift), what it printed outside its moves, and its thinking time."""

    def __init__(
        self,
        referee: Referee,
        side: str,
        child_seed: int,
        where: Callable[[int], str],
        stand_in: str | None = None,
    ) -> None:
        self.referee, self.side, self.child_seed, self.where = referee, side, child_seed, where
        self.stand_in = stand_in
        self.proc: PlayerProcess | None = None
        self.told = Told()
        self.before: list[tuple[Reply, str]] = []  # the calls since its last move, timed with it
        self.calls: list[Call] = []
        self.notes: list[str] = []
        self.printed: list[str] = []
        self.seconds = 0.0  # the time its answered moves took

    def open(self) -> str | None:
        """Start the process and build the player; a sentence saying why not, or None."""
        referee = self.referee
        self.proc = referee.spawn(self.child_seed)
        reply = self.proc.start()
        if not reply.ok:
            return load_problem(reply, referee.assignment, referee.limits)
        construct = referee.assignment.entry
        reply = self.proc.request(
            referee.new_player(self.side, None), referee.limits.import_seconds, construct
        )
        self.printed.append(reply.printed)
        if not reply.ok:
            return reply.detail
        self.before = [(reply, construct)]
        return None

    def tell(self, side: str, move: Any) -> None:
        self.told.played(side, move)

    def move(self, pos: Any, plies: int) -> Answer[Any]:
        """Its move on ``pos``: told first what was played since its last one, then asked."""
        referee, pack = self.referee, self.referee.assignment.pack
        assert self.proc is not None, "open the seat first"
        if self.proc.dead is not None:  # a stopped move ended it: ``_asked`` starts afresh
            self.told = Told()
        else:
            problem = self._sync(pos, plies)
            if problem is not None:
                return Answer(None, None, problem)
        where = self.where(len(self.calls) + 1)
        call, self.proc = referee._asked(self.proc, where, pos, self.before)
        self.before = []
        if self.stand_in is not None and call.status is Status.TIMEOUT and not call.skipped:
            call = referee._played_for(call, self.stand_in, plies)
        self.calls.append(call)
        self.seconds += call.seconds if call.answered else 0.0
        ply = call_ply(pack, self.side, pos, call)
        if call.move is None:
            why = call.error or f"{pack.move_call} returned an illegal move: {call.illegal}"
            return Answer(None, ply, why, call)
        return Answer(call.move, ply, call=call)

    def _sync(self, pos: Any, plies: int) -> str | None:
        """Tell the player the plies since its last move; why it failed, or None."""
        assert self.proc is not None, "open the seat first"
        pack = self.referee.assignment.pack
        doing = pack.calls.told
        left = self.referee.limits.call_seconds - sum(reply.judged for reply, _ in self.before)
        sync = self.proc.request(self.told.sync(pack.state(pos)), max(left, 0.0), doing)
        self.before.append((sync, doing))
        self.printed.append(sync.printed)
        if not sync.ok:
            return sync.detail
        said = sync.data.get("notes")
        if isinstance(said, list):  # the driver's list of what went wrong, if any
            self.notes.extend(f"before ply {plies + 1}: {n}" for n in said[:_NOTES_KEPT])
        return None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None
