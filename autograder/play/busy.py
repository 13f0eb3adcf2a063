"""How busy the machine is: the load average against the cores the grader may use.

A wall-clock time limit is fair only on a machine with a core to spare; the grader reads the
load where it must judge on wall time (no own clock) and where it warns that it could not.
"""

from __future__ import annotations

import os

__all__ = ["machine_load", "busy_note"]


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
