"""The timeout allowance of one submission: confirmed hard timeouts counted, and its
wall-clock cap watched (``limits.submission_seconds``)."""

from __future__ import annotations

import time

from autograder.play.host import Reply, Status
from autograder.play.launch import Limits

__all__ = ["Budget"]


class Budget:
    """Counts confirmed hard timeouts and watches the submission's wall-time cap; past either,
    the rest of the calls are scored as timeouts without waiting. A timeout is confirmed when
    it was judged on the submission's own time, when the machine had a core to spare, or when
    the call, asked again alone, was stopped again (``referee.Referee._asked``)."""

    def __init__(self, allowed: int, deadline: float | None = None) -> None:
        self.allowed, self.used, self.deadline = allowed, 0, deadline

    @property
    def exhausted(self) -> bool:
        out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
        return self.used >= self.allowed or out_of_time

    def why(self, limits: Limits) -> str:
        if self.used >= self.allowed:
            return (
                f"not run: {self.used} calls already passed the {limits.call_seconds:g} s limit, "
                "so the rest count as timeouts"
            )
        return "not run: grading this submission used up its whole time allowance"

    def record(self, reply: Reply) -> None:
        if reply.status is Status.TIMEOUT:
            self.used += 1

    def confirm(self) -> None:
        """One more timeout, confirmed by asking again."""
        self.used += 1
