"""How busy the machine is, and a way to run one call alone.

A wall-clock time limit is fair only on a machine with a core to spare; the grader reads the
load where it must judge on wall time (no own clock) and where it warns that it could not.
Every call into a submission takes part in :func:`sharing`; a call asked again :func:`alone`
waits for the calls in flight (other workers of a batch) to end and holds new ones back.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator

__all__ = ["machine_load", "busy_note", "sharing", "alone", "running_alone"]


def machine_load() -> tuple[float, int] | None:
    """(the load average over the last minute, the cores this process may use); None where the
    system does not tell (Windows)."""
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return round(load, 2), cores or 1


def busy_note(load: tuple[float, int] | None) -> str | None:
    """A phrase such as "load 6.84 on 2 cores" when the load is above the cores, else None."""
    if load is None or load[0] <= load[1]:
        return None
    return f"load {load[0]:.2f} on {load[1]} cores"


class _Gate:
    """Calls of every thread run together, or one thread's calls run alone."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._active = 0  # calls in flight
        self._solo: int | None = None  # the thread running alone, if one is

    @contextlib.contextmanager
    def sharing(self) -> Iterator[None]:
        me = threading.get_ident()
        with self._changed:
            self._changed.wait_for(lambda: self._solo in (None, me))
            self._active += 1
        try:
            yield
        finally:
            with self._changed:
                self._active -= 1
                self._changed.notify_all()

    @contextlib.contextmanager
    def alone(self) -> Iterator[None]:
        with self._changed:
            self._changed.wait_for(lambda: self._solo is None)
            self._solo = threading.get_ident()
            self._changed.wait_for(lambda: self._active == 0)
        try:
            yield
        finally:
            with self._changed:
                self._solo = None
                self._changed.notify_all()

    @property
    def solo(self) -> bool:
        with self._changed:
            return self._solo is not None


_GATE = _Gate()


def sharing() -> contextlib.AbstractContextManager[None]:
    """Around one call into a submission: it waits while another thread's call runs alone."""
    return _GATE.sharing()


def alone() -> contextlib.AbstractContextManager[None]:
    """Around calls that must run with nothing else of this grader beside them: waits for the
    calls in flight in other threads to end (each is bounded by its limit) and holds theirs
    back until the block ends. This thread's own calls inside the block run."""
    return _GATE.alone()


def running_alone() -> bool:
    """Whether a thread's calls are running :func:`alone` now (nothing should start beside
    them)."""
    return _GATE.solo
