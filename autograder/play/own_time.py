"""A call's own time: its wall time less the waits for a CPU that other work held, and never
less than its CPU time (docs/sandbox.md, "What is timed"). The waits are each thread's
``run_delay`` as the cgroup shows it (``Cgroup.waits``)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Usage", "own_seconds"]


@dataclass(frozen=True)
class Usage:
    """What the submission had used when a call began: CPU seconds, and each thread's wait for
    a CPU (nanoseconds by thread id); None where not measured."""

    cpu: float | None
    waits: dict[int, int] | None
    # seconds from the thaw to the request: the threads the thaw wakes may wait for a CPU
    # before the call's clock starts, and those waits are counted with the call's
    lead: float = 0.0


def waited(before: dict[int, int], after: dict[int, int]) -> float:
    """Seconds the thread that waited longest for a CPU waited between two looks. Not the sum:
    threads woken together (every thread is woken when the group is thawed) wait side by side,
    and one thread's wait is what held the call up; several computing threads are charged by
    their CPU time anyway. A thread that ended meanwhile takes its wait with it, which can only
    lengthen the own time; a thread that waited longest while another carried the call (a
    computing thread beside one asleep) shortens it, by at most that wait."""
    return max((ns - before.get(tid, 0) for tid, ns in after.items()), default=0) / 1e9


def own_seconds(
    before: dict[int, int], lead: float, wall: float, cpu: float, waits: dict[int, int]
) -> float:
    """The own time of a call that took ``wall`` seconds and ``cpu`` CPU seconds, its threads'
    waits ``before`` at the thaw and ``waits`` when it ended. Only the waits beyond ``lead``
    (seconds from the thaw to the request) are taken off: as much may have passed before the
    request, and a wait before it never shortens the call."""
    return max(cpu, wall - max(0.0, waited(before, waits) - lead))
