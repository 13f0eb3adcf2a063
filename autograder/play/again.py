"""Measuring slow calls again, alone: a busy grading machine must not cost time points.

A call's wall time depends on what else ran beside it (a neighbour in ``--jobs``, another
user's job); its own time (``host.py``), where measured, does not, and such calls are not
measured again. When a wall-clock time would cost a time tier, it is played again on the same
position, in a fresh process with the same seed, when nothing of the batch runs beside it;
the better of the two figures counts and both are kept for the report. Only the time is
taken from the second run: the move judged is the first one.
"""

from __future__ import annotations

import math
from dataclasses import replace

from autograder.play.budget import Budget
from autograder.play.records import Call, Session
from autograder.play.referee import Referee, Spawner

__all__ = ["measure_again", "slow_calls"]


def slow_calls(session: Session, over: float) -> list[Call]:
    """The answered calls timed on the wall clock slower than ``over`` seconds, not yet
    measured again, slowest first. A call timed on its own time is not among them: the load
    does not change that, so a second run would only cost the grader time."""
    calls = [
        c
        for c in session.calls
        if c.answered
        and c.own_seconds is None
        and c.seconds > over
        and c.measured is None
        and c.child_seed is not None
    ]
    return sorted(calls, key=lambda c: -c.seconds)


def measure_again(session: Session, spawn: Spawner, over: float, most: int) -> Session:
    """``session`` with its slowest answered calls over ``over`` seconds, ``most`` at most,
    each measured again alone; a call's times become those of the better of its two runs."""
    referee = Referee(spawn, session.assignment, session.plan, session.seed, Budget(most + 1))
    for _ in range(most):
        slow = slow_calls(session, over)
        if not slow:
            break
        first = slow[0]
        assert first.child_seed is not None
        again = referee.alone(first.where, first.position, first.child_seed)
        seconds = again.seconds if again.answered else math.inf
        better = again if seconds < first.seconds else first
        session = _replaced(
            session,
            first,
            replace(
                first,
                seconds=better.seconds,
                other_seconds=better.other_seconds,
                other_calls=better.other_calls,
                cpu_seconds=better.cpu_seconds,
                own_seconds=better.own_seconds,
                measured=(first.seconds, seconds),
            ),
        )
    return session


def _replaced(session: Session, old: Call, new: Call) -> Session:
    games = tuple(
        replace(g, calls=tuple(new if c is old else c for c in g.calls)) for g in session.games
    )
    probes = tuple(new if c is old else c for c in session.probes)
    tactics = tuple((probe, new if c is old else c) for probe, c in session.tactics)
    return replace(session, games=games, probes=probes, tactics=tactics)
