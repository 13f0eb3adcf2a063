"""What a class's grading writes at the top of its output folder, and the folder checked
before any grading: the grade sheet (``grades.csv``) here; the summary and the Canvas import
beside it come from their own modules, fed the same records.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from autograder.classroom.records import Record
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.grading.scoring import CRITERIA, OPTIONAL
from autograder.play.untrusted import admit, csv_text

__all__ = [
    "OUTPUT_FILES",
    "STUDENT_BYTES",
    "GRADES_COLUMNS",
    "writable_folder",
    "writable_file",
    "check_output",
    "write_grades_csv",
]

# What a run writes at the top of its output folder (canvas_import.csv only with a roster).
OUTPUT_FILES = ("grades.csv", "summary.md", "summary.html", "histogram.svg", "canvas_import.csv")
# Disk space to find free before grading, per student: the feedback (capped near 100 KB per
# report), results.json, the page with the games and the record, with room to spare.
STUDENT_BYTES = 200_000
_SPARE_BYTES = 5_000_000  # the grade sheet, the summary, and a margin

GRADES_COLUMNS = (
    "student",
    "score",
    "max_score",  # the points possible
    *CRITERIA,
    "late",
    "status",
    "reason",
    "needs_look",
    "canvas_id",
    "name",
    "source",
    "note",
    "id",  # the stable id the row is keyed by (a Canvas user id, a login, a name as handed in)
)


def writable_folder(out: Path, option: str = "--out") -> None:
    """Refuse, before any work, an output folder the run could not write into: a file, or a
    folder (or, when it is missing, the folder it would be made in) the grader may not write
    in. Nothing is left behind: a bad input found later still writes nothing.

    :raises GraderError: one sentence naming the folder and what to do."""
    there = next((p for p in (out, *out.parents) if p.exists()), Path.cwd())
    if not there.is_dir():
        raise GraderError(
            f"{option} {out} is a file, not a folder; name a folder (made if missing)"
            if there == out
            else f"{option} {out}: {there} is a file, not a folder; name a folder"
        )
    _probe(there, out, option)


def _probe(folder: Path, shown: Path, option: str) -> None:
    """Refuse ``folder`` (named ``shown``) when a file cannot be made in it: the one test that
    holds as root, on a read-only mount, on a full disk."""
    try:
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as err:
        raise GraderError(
            f"cannot write into {shown}: {err.strerror or err}; choose another {option} or make "
            "it writable"
        ) from None


def writable_file(path: Path, option: str) -> None:
    """Refuse, before any work, a file the run could not write at the end: a folder there, or
    a folder to hold it that cannot be made or written in.

    :raises GraderError: one sentence naming the file (the ``option`` that gave it)."""
    if path.is_dir():
        raise GraderError(f"{option} {path} is a folder; name a file to write")
    writable_folder(path.parent, option)


def check_output(out: Path, students: int) -> None:
    """Refuse, before any grading, an output folder the batch could not fill: a file where a
    folder goes (or a folder where a file goes), a folder it cannot write, or a disk without
    room for ``students`` students' reports. The folder is made.

    :raises GraderError: one sentence naming the folder and what to do.
    """
    writable_folder(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise GraderError(f"cannot make the output folder {out}: {err.strerror or err}") from None
    folders = [out, out / "students"]
    for path in (*(out / name for name in OUTPUT_FILES), folders[1]):
        wanted = "folder" if path == folders[1] else "file"
        if path.exists() and path.is_dir() != (wanted == "folder"):
            found = "folder" if path.is_dir() else "file"
            raise GraderError(
                f"{path} is a {found} where the grader writes a {wanted}; move it out of {out}"
            )
    if folders[1].is_dir():  # the output folder itself was probed above
        _probe(folders[1], folders[1], "--out")
    try:
        free = shutil.disk_usage(out).free
    except OSError:
        return  # the platform does not say: the writes will tell
    needed = students * STUDENT_BYTES + _SPARE_BYTES
    if free < needed:
        raise GraderError(
            f"not enough space for the reports in {out}: {free / 1e6:.1f} MB free, about "
            f"{needed / 1e6:.0f} MB needed for {students} students; free some space or choose "
            "another --out"
        )


_LOOKS_IN_CELL = 3


def _looks_cell(looks: list[str]) -> str:
    """The grade sheet's ``needs_look``: how many findings, and the first few."""
    if not looks:
        return ""
    more = f"; and {len(looks) - _LOOKS_IN_CELL} more" if len(looks) > _LOOKS_IN_CELL else ""
    return f"{len(looks)}: " + "; ".join(looks[:_LOOKS_IN_CELL]) + more


def write_grades_csv(records: Sequence[Record], path: Path) -> None:
    """``grades.csv``: one row per student, a column per criterion id (KIT_SPEC §6), and one
    per criterion of the game's own (the book's boards) or optional one (tactics, late
    penalty) some record holds, after the others."""
    held = dict.fromkeys(c for r in records for c in r.criteria)
    optional = [c for c in held if c not in CRITERIA and c not in OPTIONAL]
    optional += [o for o in OPTIONAL if o in held]
    at = GRADES_COLUMNS.index("late")
    rows: list[list[object]] = [[*GRADES_COLUMNS[:at], *optional, *GRADES_COLUMNS[at:]]]
    for r in sorted(records, key=lambda r: (r.student, r.key)):
        rows.append(
            [
                r.student,
                f"{r.score:g}",
                str(r.max_score),
                *(f"{r.criteria.get(c, 0):g}" for c in (*CRITERIA, *optional)),
                "yes" if r.late else "no",
                r.status,
                r.reason,
                _looks_cell(r.needs_look),
                r.canvas_id or "",
                r.name or "",
                r.source,
                r.note,
                admit(r.key, "file"),
            ]
        )
    write_atomic(path, csv_text(rows))
