"""What a file's name says about its owner: Canvas's download names and netids. Pure functions.

Canvas names each downloaded file ``<sortablename>[_LATE]_<userid>_<fileid>_<originalname>``
(anonymous grading: ``anon_<anonymousid>_<fileid>_<originalname>``, ``_LATE`` after ``anon`` or
after the id), and adds ``-1``, ``-2`` before the extension of a resubmitted file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

__all__ = ["Candidate", "parse", "looks_like_students", "newest"]

# Sortable names are letters and digits (Canvas drops spaces and punctuation; hyphens and
# apostrophes are tolerated); anonymous ids are short letter-and-digit strings, not numbers.
_NAMED = re.compile(
    r"(?P<name>[^\W_](?:[^\W_]|[-'’])*)(?:_(?P<late>late))?_(?P<user>\d+)_(?P<file>\d+)"
    r"_(?P<original>.+)",
    re.IGNORECASE | re.DOTALL,
)
_ANONYMOUS = re.compile(
    r"anon(?:ymous)?_(?:(?P<late>late)_)?(?P<anon>[^\W_]+)_(?:(?P<late_after>late)_)?"
    r"(?P<file>\d+)_(?P<original>.+)",
    re.IGNORECASE | re.DOTALL,
)
# A copy's number before the extension: Canvas's "-2", a browser's " (2)".
_COPY = re.compile(r"(?P<stem>.+?)(?:-(?P<dash>\d+)| \((?P<paren>\d+)\))(?P<ext>\.[^.]*)?")


@dataclass(frozen=True)
class Candidate:
    """One file or folder that is some student's submission."""

    path: Path
    shown: str  # the name without Canvas's prefix, as notes show it
    given: str  # the same without Canvas's resubmission number: the student's own name
    netid: str | None  # the netid the name claims (the rubric's pattern), case folded
    user: str | None  # Canvas user id
    anon: str | None  # Canvas anonymous id
    name: str | None  # Canvas sortable name
    late: bool
    file_id: int | None
    copy: int  # resubmission number, 0 for the first
    mtime: float
    fallback: str  # the student id when no netid or Canvas id is known, exactly as named
    folder: bool = False  # a student's folder, not a file

    @property
    def owner(self) -> str | None:
        return self.user or self.anon


def newest(candidate: Candidate) -> tuple[int, int, float, str]:
    """Sort key: Canvas file ids grow with time; then the copy number; then the clock."""
    file_id = candidate.file_id if candidate.file_id is not None else -1
    return (file_id, candidate.copy, candidate.mtime, candidate.path.name)


def _fallback(path: Path, original: str, folder: bool) -> str:
    """The name of a student known by nothing else: the folder's, or the file's stem (for a
    bare game.py, which every student has, its folder's name). Copy numbers stay: ``ann-2.py``
    may well be another person than ``ann.py``."""
    if folder:
        return original
    if original == "game.py" and path.parent.name:
        return path.parent.name
    return PurePosixPath(original).stem


def parse(
    path: Path, netid: re.Pattern[str], *, folder: bool = False, mtime: float = 0.0
) -> Candidate:
    """What a file's or folder's name says of its owner: Canvas's prefix, a netid, a copy
    number. Pure: reads nothing but the name (``mtime`` is given)."""
    named = None if folder else _NAMED.fullmatch(path.name)
    anonymous = None if folder else _ANONYMOUS.fullmatch(path.name)
    match = anonymous or named
    original = match["original"] if match else path.name
    copy = None if folder else _COPY.fullmatch(original)
    number = int(copy["dash"] or copy["paren"]) if copy else 0
    # Identification forgives any copy number; the name the student gave drops only the
    # "-2" Canvas adds, since a " (2)" was already on the student's own file.
    bare = f"{copy['stem']}{copy['ext'] or ''}" if copy else original
    given = bare if match and copy and copy["dash"] else original
    hit = None if folder else netid.fullmatch(bare)
    return Candidate(
        path=path,
        shown=original,
        given=given,
        netid=hit["netid"].casefold() if hit and hit["netid"] else None,
        user=named["user"] if named and not anonymous else None,
        anon=anonymous["anon"] if anonymous else None,
        name=named["name"] if named and not anonymous else None,
        late=bool(match and (match["late"] or (anonymous and anonymous["late_after"]))),
        file_id=int(match["file"]) if match else None,
        copy=number,
        mtime=mtime,
        fallback=_fallback(path, original, folder),
        folder=folder,
    )


def looks_like_students(name: str, netid: re.Pattern[str]) -> bool:
    """Whether a file name alone says it is a student's (Canvas name or hw8_<netid>.zip)."""
    if _NAMED.fullmatch(name) or _ANONYMOUS.fullmatch(name):
        return True
    copy = _COPY.fullmatch(name)
    bare = f"{copy['stem']}{copy['ext'] or ''}" if copy else name
    return netid.fullmatch(bare) is not None
