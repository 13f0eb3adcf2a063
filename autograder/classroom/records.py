"""What a batch stores per student: the submission found in the inputs, and its grade on disk.

A :class:`Record` is written as ``DIR/students/<student>/record.json`` the moment a student is
graded; the grade sheet, the Canvas import and the class summary are all rebuilt from these
files, which is what makes a batch resumable.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["Entry", "Record", "STATUS_GRADED", "STATUS_ERROR", "read_record"]

STATUS_GRADED = "graded"  # the rubric was applied (whatever the score)
STATUS_ERROR = "error"  # nothing gradable (bad zip, no game.py): zero, with the reason


@dataclass(frozen=True)
class Entry:
    """One student's submission found in the inputs."""

    student: str  # the roster's login, a Canvas user's netid alias or id, else the file's name
    path: Path  # the zip, .py file or folder to grade
    late: bool = False
    canvas_id: str | None = None  # Canvas user id, when the name carried one
    name: str | None = None  # Canvas sortable name, when known
    note: str = ""  # e.g. which of several submissions was kept
    source: str = ""  # the file as found in the inputs (a Canvas name, say), for the grade sheet
    attached: tuple[str, ...] = ()  # other files of the same attempt, placed beside the main


@dataclass(frozen=True)
class Record:
    """One student's grade, as stored on disk and read back for the outputs."""

    student: str
    status: str
    score: float
    max_score: int
    criteria: dict[str, float]  # criterion id -> points
    reason: str = ""  # one line for anything abnormal; "" when grading went normally
    late: bool = False
    canvas_id: str | None = None
    name: str | None = None
    source: str = ""  # the file graded, as found in the inputs
    slowest_seconds: float | None = None  # slowest make_move that answered
    seconds: float = 0.0  # wall time the grading took
    thinking_seconds: float = 0.0  # make_move time, as the grader measured it, summed
    note: str = ""
    summaries: dict[str, str] = field(default_factory=dict)  # criterion id -> one-line summary
    fingerprint: dict[str, str] = field(default_factory=dict)  # what the grade depends on
    load: float | None = None  # the machine's load average when this student was graded
    cores: int | None = None  # the machine's cores then
    measured_again: int = 0  # slow calls measured again alone after the batch
    games: list[dict[str, Any]] = field(default_factory=list)  # every game, move by move
    leaderboard: dict[str, float] = field(default_factory=dict)  # figure -> value, if asked
    # criterion id -> [right, asked] for a criterion of many questions (the tactics)
    tallies: dict[str, list[int]] = field(default_factory=dict)
    missing_layers: list[str] = field(default_factory=list)  # sandbox layers it ran without
    needs_look: list[str] = field(default_factory=list)  # code that needs a look, a line each

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Record:
        data: dict[str, Any] = json.loads(text)
        return cls(**data)


def read_record(path: Path) -> Record | None:
    """The record in ``path``, or None when it is missing or unreadable (then: grade again)."""
    try:
        return Record.from_json(path.read_text("utf-8"))
    except (OSError, ValueError, TypeError):
        return None
