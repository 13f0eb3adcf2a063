"""The leaderboard: a few figures per submission that a class can be ranked by, where the
rubric asks for them (``[leaderboard] show``); Gradescope shows them as its leaderboard and
the class summary ranks the same figures. None of them changes a score.
"""

from __future__ import annotations

import math
from typing import Any

from autograder.grading.extras import Extras
from autograder.grading.rubric import LEADERBOARD as FIGURES
from autograder.grading.scoring import Grade

__all__ = ["FIGURES", "leaderboard", "needs_extras"]

_NEED_EXTRAS = {"ladder", "puzzles", "move_quality"}


def _value(figure: str, grade: Grade, extras: Extras | None) -> float | None:
    session = grade.session
    if figure == "score":
        return grade.score
    if figure == "games_won":
        return sum(g.result == "win" for g in session.games)
    if figure == "slowest_move":
        times = [c.judged for c in session.calls if c.answered and math.isfinite(c.judged)]
        return round(max(times), 3) if times else None
    if extras is None:
        return None
    if figure == "ladder":
        beaten = 0
        for rung in extras.ladder:
            if rung.count("win") <= rung.count("loss"):
                break
            beaten += 1
        return beaten if extras.ladder else None
    if figure == "puzzles":
        return sum(p.solved for p in extras.puzzles) if extras.puzzles else None
    if figure == "move_quality":
        rated = extras.quality
        return (
            round(100 * sum(j.loss_of_value == 0 for j in rated) / len(rated), 1) if rated else None
        )
    raise ValueError(f"no leaderboard figure {figure!r}")


def leaderboard(grade: Grade, extras: Extras | None, show: tuple[str, ...]) -> list[dict[str, Any]]:
    """Gradescope's ``leaderboard`` entries for the figures ``show`` names that are known here
    (a figure of the extras is missing when they did not run)."""
    entries = []
    for figure in show:
        value = _value(figure, grade, extras)
        if value is None:
            continue
        entry: dict[str, Any] = {"name": figure, "value": value}
        if FIGURES[figure][1] == "asc":
            entry["order"] = "asc"
        entries.append(entry)
    return entries


def needs_extras(show: tuple[str, ...]) -> bool:
    """Whether a figure to show comes from the extras (then the batch runs them too)."""
    return bool(_NEED_EXTRAS & set(show))
