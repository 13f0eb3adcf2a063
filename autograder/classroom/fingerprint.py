"""What a grade depends on, written beside it: a rerun regrades exactly what changed.

A record's fingerprint holds the kit's version (a digest of its own source, so any change of
code counts), the rubric's (a digest of its text), the assignment, the seed, the submission's
(a digest of its files) and which of the packages the rubric allows the grading machine has
(installing a missing one regrades). A rerun into the same folder regrades the students whose
fingerprint differs, and says why.
"""

from __future__ import annotations

import functools
import hashlib
from dataclasses import asdict, dataclass
from pathlib import Path

from autograder.classroom.reading import is_junk
from autograder.classroom.records import Entry

__all__ = ["Fingerprint", "kit_version", "content_digest", "submission_digest"]

_KIT = Path(__file__).resolve().parent.parent  # the autograder package
_FIELDS = {
    "kit": "the kit changed",
    "rubric": "the rubric changed",
    "assignment": "the assignment changed",
    "seed": "the seed changed",
    "submission": "the submission changed",
    "packages": "the allowed packages installed here changed",
}


def _digest(parts: list[tuple[str, bytes]]) -> str:
    total = hashlib.sha256()
    for name, data in parts:
        total.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return total.hexdigest()[:16]


@functools.cache
def kit_version() -> str:
    """A digest of the kit's own modules and rubrics: changes with any change of its code."""
    files = sorted(p for p in _KIT.rglob("*") if p.suffix in (".py", ".toml") and p.is_file())
    return _digest([(str(p.relative_to(_KIT)), p.read_bytes()) for p in files])


def content_digest(path: Path) -> str:
    """A digest of a file, or of a folder's files (junk aside), names included."""
    if path.is_dir():
        files = sorted(
            p
            for p in path.rglob("*")
            if p.is_file() and not any(is_junk(part) for part in p.relative_to(path).parts)
        )
        return _digest([(str(p.relative_to(path)), p.read_bytes()) for p in files])
    return _digest([("", path.read_bytes())])


def submission_digest(entry: Entry) -> str:
    """A digest of what intake made of ``entry``: its opened files and what the report says of
    them (the zip's name and files, the attempt's other files, the LATE flag, intake's notes);
    or of why it could not be opened."""
    submission = entry.submission
    if submission is None:
        return _digest([("refused", entry.refused.encode())])
    about = [submission.archive, submission.names, submission.attached, submission.late]
    return _digest(
        [
            ("files", content_digest(submission.source_dir).encode()),
            ("about", repr([*about, submission.notes, submission.main]).encode()),
        ]
    )


@dataclass(frozen=True)
class Fingerprint:
    kit: str
    rubric: str
    assignment: str
    seed: str
    submission: str
    packages: str = ""  # the rubric's allowed packages installed here, comma-separated

    def as_dict(self) -> dict[str, str]:
        return asdict(self)

    def changes(self, stored: dict[str, str]) -> list[str]:
        """Why a grade stored with ``stored`` is not this one's: one phrase per field."""
        if not stored:
            return ["graded by a kit that kept no fingerprint"]
        mine = self.as_dict()
        return [why for field, why in _FIELDS.items() if stored.get(field) != mine[field]]

    def same_grading(self, stored: dict[str, str]) -> bool:
        """Whether a grade stored with ``stored`` was made the way this run grades (the same
        kit, rubric, assignment and seed), whatever the submission."""
        mine = self.as_dict()
        return all(stored.get(field) == mine[field] for field in _FIELDS if field != "submission")
