"""What a class's grading writes at the top of its output folder, and the folder checked
before any grading: the grade sheet (``grades.csv``) here; the summary and the Canvas import
beside it come from their own modules, fed the same records.
"""

from __future__ import annotations

import csv
import io
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from autograder.classroom.records import Record
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.grading.scoring import CRITERIA, OPTIONAL
from autograder.play.untrusted import csv_cell

__all__ = ["OUTPUT_FILES", "STUDENT_BYTES", "GRADES_COLUMNS", "check_output", "write_grades_csv"]

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
)


def check_output(out: Path, students: int) -> None:
    """Refuse, before any grading, an output folder the batch could not fill: a file where a
    folder goes (or a folder where a file goes), a folder it cannot write, or a disk without
    room for ``students`` students' reports.

    :raises GraderError: one sentence naming the folder and what to do.
    """
    if out.exists() and not out.is_dir():
        raise GraderError(f"--out {out} is a file, not a folder; name a folder (made if missing)")
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
    for folder in folders:
        if not folder.is_dir():
            continue
        try:
            tempfile.TemporaryFile(dir=folder).close()
        except OSError as err:
            raise GraderError(
                f"cannot write into {folder}: {err.strerror or err}; choose another --out or "
                "make it writable"
            ) from None
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
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    at = GRADES_COLUMNS.index("late")
    writer.writerow([*GRADES_COLUMNS[:at], *optional, *GRADES_COLUMNS[at:]])
    for r in sorted(records, key=lambda r: r.student):
        writer.writerow(
            [
                csv_cell(r.student),
                f"{r.score:g}",
                str(r.max_score),
                *(f"{r.criteria.get(c, 0):g}" for c in (*CRITERIA, *optional)),
                "yes" if r.late else "no",
                r.status,
                csv_cell(r.reason),
                csv_cell(_looks_cell(r.needs_look)),
                r.canvas_id or "",
                csv_cell(r.name or ""),
                csv_cell(r.source),
                csv_cell(r.note),
            ]
        )
    write_atomic(path, buffer.getvalue())
