"""The time the limits and the rubric judge of anything timed on a submission's behalf."""

from __future__ import annotations

__all__ = ["Timed"]


class Timed:
    """Something timed on the submission's behalf (a reply, a call): its wall time and its own
    time (``host.py`` says how that is measured)."""

    seconds: float
    own_seconds: float | None  # None: not measured

    @property
    def judged(self) -> float:
        """The time the limits and the rubric judge: its own time where measured, else wall
        time."""
        return self.seconds if self.own_seconds is None else self.own_seconds
