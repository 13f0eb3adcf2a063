"""The one intake: what an instructor hands the kit, turned into submissions.

:func:`take_in` is the only way a command reads what students handed in -- ``check`` (one
submission), ``grade`` (here or on a Dask cluster), ``tournament`` and ``similarity`` (a
class). It walks the inputs (:mod:`~autograder.classroom.collect`), tells the students apart
(:mod:`~autograder.classroom.students`) and opens each student's files once
(:func:`~autograder.classroom.intake.open_submission`), never through a symbolic link. Every
command then works on the folders made here; a cluster's workers are sent their bytes; nothing
walks the inputs a second time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.collect import collect
from autograder.classroom.intake import main_file_of, open_submission, require_files
from autograder.classroom.records import Entry
from autograder.classroom.students import gated_id
from autograder.errors import GraderError
from autograder.games import ASSIGNMENTS
from autograder.games.pack import AnyPack
from autograder.play.untrusted import admit

__all__ = ["Homework", "HandIn", "take_in", "shipped_files", "raw_folder"]

OPENED = "opened"  # the folder of the work folder where each student's files are opened


@dataclass(frozen=True)
class Homework:
    """What the submissions are: the homework's main file (None: told from each submission,
    as ``check`` does without ``--assignment``), its other files, its pack (its files are
    then required), the zip name pattern that finds netids, and a roster's logins."""

    main: str | None = None
    files: tuple[str, ...] = ()
    pack: AnyPack | None = None
    netid_pattern: str = r"hw8_(?P<netid>\w+)\.zip"
    logins: Mapping[str, str] | None = None


@dataclass(frozen=True)
class HandIn:
    """The inputs as intake made them: one entry per student, each with its submission opened
    or why it could not be; the inputs that are nobody's; the claims and warnings on names."""

    entries: tuple[Entry, ...]
    problems: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    work: Path | None = None  # where the entries were opened


def _opened_at(work: Path, number: int) -> Path:
    return work / OPENED / str(number)


def raw_folder(handed: HandIn, number: int) -> Path | None:
    """What intake copied of entry ``number`` before it was refused (a folder or zip without
    the homework's file), for a comparison of its code; None when nothing was copied."""
    if handed.work is None:
        return None
    folder = _opened_at(handed.work, number) / "submission"
    return folder if folder.is_dir() else None


def take_in(inputs: Sequence[Path], work: Path, homework: Homework, *, one: bool = False) -> HandIn:
    """The students in ``inputs`` (with ``one``: the single submission ``inputs[0]``, as
    ``check`` takes it), each opened into ``work``, which must outlive them.

    :raises GraderError: for a bad netid pattern (a class), or one input that does not exist.
    """
    if one:
        path = inputs[0]
        entry = Entry(admit(str(path), "path"), path, id=gated_id(str(path)))
        opened = _opened(entry, _opened_at(work, 0), homework, admit(str(path), "path"), False)
        return HandIn((opened,), work=work)
    found = collect(
        list(inputs), work / "class", homework.netid_pattern, homework.main or "game.py",
        homework.logins,
    )  # fmt: skip
    entries = tuple(
        _opened(entry, _opened_at(work, number), homework, _label(entry), True)
        for number, entry in enumerate(found.entries)
    )
    return HandIn(entries, found.problems, found.warnings, work)


def _label(entry: Entry) -> str:
    """How a student's reports name what they handed in: the Canvas name of an attempt of
    several files, else the file's or folder's own name."""
    return entry.source if entry.attached else admit(entry.path.name, "file")


def _opened(entry: Entry, work: Path, homework: Homework, label: str, listed: bool) -> Entry:
    """``entry`` with its submission opened in ``work``, or the one sentence why not; one
    ``listed`` in a class carries its attempt's files and Canvas's LATE flag."""
    main = homework.main or main_file_of(entry.path)
    files = homework.files or next(
        (a.pack.files for a in ASSIGNMENTS.values() if a.pack.files[0] == main), ()
    )
    try:
        submission = open_submission(entry.path, work, main, files, label)
        if listed:
            submission = replace(submission, attached=entry.attached, late=entry.late)
        if homework.pack is not None:
            require_files(submission, homework.pack)
    except GraderError as err:
        return replace(entry, refused=str(err))
    except Exception as err:  # a bug of the kit's must cost one student a row, not the class
        why = f"the grader itself failed opening {label} ({type(err).__name__}: {err})"
        return replace(entry, refused=admit(f"{why}; grade it by hand and report it", "sentence"))
    return replace(entry, submission=submission)


def shipped_files(entry: Entry) -> tuple[tuple[str, bytes], ...]:
    """The files of ``entry``'s opened submission as bytes, by path in its folder: what a
    cluster's worker or a tournament's game gets, nothing else."""
    if entry.submission is None:
        return ()
    root = entry.submission.source_dir
    found = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink())
    return tuple((p.relative_to(root).as_posix(), p.read_bytes()) for p in found)
