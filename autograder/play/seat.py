"""A seat at a live table: the submission playing one game a move at a time, for
``autograder play`` (``autograder/live/table.py``) and the tournament (``match.py``)."""

from __future__ import annotations

from typing import Any

from autograder.play.host import PlayerProcess, Reply
from autograder.play.judge import judge, load_problem
from autograder.play.records import Call
from autograder.play.referee import Referee, Told

__all__ = ["Seat"]


class Seat:
    """The submission at the table of one live game (``autograder play``): one process, its
    player built once, told the plies between its turns (``played``: the other side's moves
    and the forced passes) and asked for a move on each, exactly as in a graded game, with the
    same time limit."""

    def __init__(self, referee: Referee, side: str) -> None:
        self.referee, self.side = referee, side
        self.proc: PlayerProcess | None = None
        self.told = Told(side)  # what it has not been told yet
        self.before: list[tuple[Reply, str]] = []
        self.number = 0

    def open(self) -> str | None:
        """Start the process and build the player; a sentence saying why not, or None."""
        referee = self.referee
        self.proc = referee.spawn(referee.seed)
        reply = self.proc.start()
        if not reply.ok:
            return load_problem(reply, referee.assignment, referee.limits)
        construct = referee.assignment.entry
        reply = self.proc.request(
            referee.new_player(self.side, None), referee.limits.import_seconds, construct
        )
        if not reply.ok:
            return reply.detail
        self.before = [(reply, construct)]
        return None

    def played(self, side: str, move: Any, passed: bool = False) -> None:
        """A ply this seat was not asked for (plain data), told before its next move: the
        other side's move, or a forced pass (``passed``) of either side."""
        self.told.played(side, move, passed)

    def move(self, pos: Any) -> Call:
        """Its move on ``pos``, told first what was played since its last one."""
        referee, pack = self.referee, self.referee.assignment.pack
        assert self.proc is not None, "open the seat first"
        self.number += 1
        where = f"move {self.number}"
        sync = self.proc.request(
            self.told.sync(pack.state(pos)),
            referee.limits.call_seconds,
            "place_piece/opponent_move",
        )
        if not sync.ok:
            return judge(referee.assignment, where, pos, sync)
        call = referee.ask_move(self.proc, where, pos, [*self.before, (sync, "sync")])
        self.before = []
        self.told.asked(None if call.move is None else pack.student_move(call.move))
        return call

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None
