"""The bound on grading a hopeless submission: confirmed hard timeouts in a row counted, and its
wall-clock cap watched (``limits.submission_seconds``), stretched once for a busy machine.

A stopped call costs the time points (the slowest move decides them) and nothing else: an
answered call starts the count again, so a player whose opening moves are too slow and whose
later moves are fast is asked every later move (docs/grading.md, "A slow call")."""

from __future__ import annotations

import time
from collections.abc import Callable

from autograder.play.busy import busy_note, machine_load
from autograder.play.host import Reply, Status
from autograder.play.launch import Limits

__all__ = ["Budget"]


class Budget:
    """Counts confirmed hard timeouts in a row and watches the submission's wall-time cap; when
    more than ``allowed`` calls in a row were stopped, or past the cap, the rest of the calls are
    not run (and not judged: no evidence either way). A timeout is confirmed when it was judged
    on the submission's own time, when the machine had a core to spare, or when the call, asked
    again alone, was stopped again (``referee.Referee._asked``).

    The cap (``deadline``, on the ``clock``) is stretched once, when first reached on a machine
    with more load than cores: the time from the budget's making to the deadline is multiplied
    by the load per core, as the per-call wall-clock backstop is (``host.PlayerProcess``)."""

    def __init__(
        self,
        allowed: int,
        deadline: float | None = None,
        load: Callable[[], tuple[float, int] | None] = machine_load,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.allowed, self.used, self.deadline = allowed, 0, deadline
        self._load, self._clock, self._began = load, clock, clock()
        self.stretched: str | None = None  # the load it was stretched for ("load 6.00 on 2 cores")
        self._looked = False  # the load is looked at once, when the deadline is first reached

    def apart(self) -> Budget:
        """A budget of its own timeouts on the same cap, stretched from the same start: the
        checks of a session count their timeouts apart from the games' (``run_session``)."""
        other = Budget(self.allowed, self.deadline, self._load, self._clock)
        other._began = self._began
        return other

    @property
    def exhausted(self) -> bool:
        if self.used > self.allowed:
            return True
        if self.deadline is None or self._clock() < self.deadline:
            return False
        if not self._looked:
            self._looked = True
            load = self._load()
            self.stretched = busy_note(load)
            if load is not None and self.stretched is not None:
                span = (self.deadline - self._began) * load[0] / load[1]
                self.deadline = self._began + span
                return self._clock() >= self.deadline
        return True

    def why(self, limits: Limits) -> str:
        if self.used > self.allowed:
            return (
                f"not run: {self.used} calls in a row were stopped at the "
                f"{limits.call_seconds:g} s limit, so the grader stopped asking"
            )
        stretched = (
            f", stretched once for the busy machine ({self.stretched})" if self.stretched else ""
        )
        return f"not run: grading this submission used up its whole time allowance{stretched}"

    def record(self, reply: Reply) -> None:
        """A reply: a timeout counts (an answered move calls :meth:`answered`)."""
        if reply.status is Status.TIMEOUT:
            self.used += 1

    def answered(self) -> None:
        """A move came back: the stopped calls before it were not in a row with the next."""
        self.used = 0

    def confirm(self) -> None:
        """One more timeout, confirmed by asking again."""
        self.used += 1
