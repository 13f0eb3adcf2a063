"""Processes started ahead: while one of a submission's processes is graded, the next ones are
already coming up (interpreter, fence, runner), so that a game never waits for a process start.

A process started ahead runs nothing of the submission: the runner waits for its first
request, which carries the seed (``PlayerProcess.start``). The sandbox is the same: its cgroup
is made and joined before it runs, and pinned to a core when it is taken into use. Only as many
processes as the session plans are started ahead, and :meth:`Ahead.close` ends those not
taken, so none outlives the grading.
"""

from __future__ import annotations

import collections
from collections.abc import Callable

from autograder.play.busy import running_alone
from autograder.play.host import PlayerProcess

__all__ = ["Ahead", "DEPTH"]

# Processes kept started ahead: two, so that on a busy machine, where a start takes longer
# than a short game, the next but one is coming up too.
DEPTH = 2


class Ahead:
    """A spawner (child seed -> a process not yet started) that hands out a process started
    ahead when it has one, and starts the next ones ahead (``depth`` waiting at most,
    ``planned`` in all) once the one handed out has started. Use as a context manager: the
    processes started ahead and not taken are closed at the end."""

    def __init__(
        self, make: Callable[[int], PlayerProcess], planned: int, depth: int = DEPTH
    ) -> None:
        self._make = make
        self._left = planned  # processes still to start ahead
        self._ready: collections.deque[PlayerProcess] = collections.deque()
        self._depth = 1  # the first process comes up alone
        self._ahead()
        self._depth = depth

    def __enter__(self) -> Ahead:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __call__(self, child_seed: int) -> PlayerProcess:
        """The next process, seeded ``child_seed``; the next ones start ahead once it has
        started (none competes with the start a grading is waiting for)."""
        if self._ready:
            proc = self._ready.popleft()
            proc.reseed(child_seed)
        else:
            proc = self._make(child_seed)
        proc.on_started = self._ahead
        return proc

    def _ahead(self) -> None:
        """Start processes ahead up to ``depth`` waiting, unless no more are planned or a call
        runs alone (its wall time must not share the machine with a process coming up)."""
        while self._left > 0 and len(self._ready) < self._depth and not running_alone():
            self._left -= 1
            try:
                proc = self._make(0)
            except Exception:  # e.g. a batch stopping: the next spawn says so
                return
            self._ready.append(proc)
            proc.start_ahead()

    def close(self) -> None:
        """Close the processes started ahead and not taken; start no more."""
        self._left = 0
        while self._ready:
            self._ready.popleft().close()
