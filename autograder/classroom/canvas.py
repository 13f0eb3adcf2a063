"""A Canvas gradebook import out: the grades written into the course's gradebook export, so it
can be uploaded back to Canvas."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from pathlib import Path

from autograder.classroom.records import Record
from autograder.errors import GraderError
from autograder.files import write_atomic

__all__ = ["write_canvas_import", "IDENTITY_COLUMNS"]

IDENTITY_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
# Columns some Canvas exports add among the identity columns; never an assignment.
_OTHER_IDENTITY = frozenset({"Integration ID", "Root Account"})


def _read_roster(roster: Path) -> list[list[str]]:
    try:
        text = roster.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise GraderError(
            f"the roster {roster} is not UTF-8 text; export the gradebook from Canvas again"
        ) from None
    except OSError as err:
        raise GraderError(f"cannot read the roster {roster}: {err.strerror or err}") from None
    try:
        rows = [row for row in csv.reader(io.StringIO(text, newline="")) if any(row)]
    except csv.Error as err:
        raise GraderError(f"the roster {roster} is not a readable CSV file: {err}") from None
    if not rows:
        raise GraderError(f"the roster {roster} is empty; export the gradebook from Canvas again")
    return rows


def _assignment_index(header: list[str], wanted: str | None, roster: Path) -> int:
    known = set(IDENTITY_COLUMNS) | _OTHER_IDENTITY
    choices = [i for i, title in enumerate(header) if title and title not in known]
    if wanted is None:
        if not choices:
            raise GraderError(
                f"the roster {roster} has no assignment column after its identity columns"
            )
        return choices[0]
    exact = [i for i in choices if header[i] == wanted.strip()]
    if exact:
        return exact[0]
    folded = wanted.strip().casefold()
    hits = [i for i in choices if header[i].casefold().startswith(folded)]
    if len(hits) == 1:
        return hits[0]
    titles = ", ".join(repr(header[i]) for i in (hits or choices)) or "none"
    raise GraderError(
        f"the roster {roster} has {'several columns' if hits else 'no column'} named "
        f"{wanted!r} (assignment columns: {titles})"
    )


def _points(score: float) -> str:
    text = f"{score:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def write_canvas_import(
    records: Sequence[Record], roster: Path, out: Path, assignment_column: str | None = None
) -> list[str]:
    """Write ``out``: the Canvas gradebook ``roster`` with each graded student's score filled in.

    ``out`` keeps the rows of ``roster`` in order (the "Points Possible" row as it is) and the
    columns Student, ID, SIS User ID, SIS Login ID, Section and one assignment column: the one
    named ``assignment_column`` (exactly, or the single column starting with it), else the first
    that is not an identity column. A record is matched to a row by Canvas ID when it carries
    one, else by SIS Login ID (whole, or the part before ``@``) equal to its student id, case
    aside. Returns one sentence per problem: graded students with no row (their grades are not
    in ``out``), rows with no grade (left blank), and doubtful matches.

    :raises GraderError: when the roster is unreadable, lacks an identity column or has no
        (or no such) assignment column.
    """
    rows = _read_roster(roster)
    header = [title.strip() for title in rows[0]]
    missing = [title for title in IDENTITY_COLUMNS if title not in header]
    if missing:
        listed = ", ".join(repr(title) for title in missing)
        raise GraderError(
            f"the roster {roster} lacks the column{'s' if len(missing) > 1 else ''} {listed}; "
            "pass the gradebook exported from Canvas (Grades, Export)"
        )
    where = {title: header.index(title) for title in IDENTITY_COLUMNS}
    score_at = _assignment_index(header, assignment_column, roster)
    keep = [*where.values(), score_at]

    def cell(row: list[str], title: str) -> str:
        index = where[title]
        return row[index].strip() if index < len(row) else ""

    students = [i for i, row in enumerate(rows[1:], 1) if cell(row, "ID")]
    by_id: dict[str, list[int]] = {}
    by_login: dict[str, list[int]] = {}
    for index in students:
        by_id.setdefault(cell(rows[index], "ID"), []).append(index)
        login = cell(rows[index], "SIS Login ID").casefold()
        for key in {login, login.split("@")[0]} - {""}:
            by_login.setdefault(key, []).append(index)

    def who(index: int) -> str:
        row = rows[index]
        login = cell(row, "SIS Login ID")
        ident = f"login {login}, ID {cell(row, 'ID')}" if login else f"ID {cell(row, 'ID')}"
        return f"{cell(row, 'Student') or 'an unnamed student'} ({ident})"

    problems: list[str] = []
    graded: dict[int, Record] = {}
    ordered = sorted(records, key=lambda r: r.student)
    # Canvas ids first: they say which account uploaded the file, a netid is only typed.
    later: list[Record] = []
    for record in ordered:
        hits = by_id.get(record.canvas_id or "", [])
        if len(hits) == 1 and hits[0] not in graded:
            graded[hits[0]] = record
            login = cell(rows[hits[0]], "SIS Login ID").casefold()
            netid = record.student.casefold().removesuffix(f"-{record.canvas_id}")
            if login and netid not in {login, login.split("@")[0], str(record.canvas_id)}:
                problems.append(
                    f"{record.student} (Canvas id {record.canvas_id}) was written to the row of "
                    f"{who(hits[0])}, found by Canvas id; the netid in the file name differs"
                )
        else:
            later.append(record)
    for record in later:
        hits = by_login.get(record.student.casefold(), [])
        ident = f" (Canvas id {record.canvas_id})" if record.canvas_id else ""
        if len(hits) == 1 and hits[0] not in graded:
            graded[hits[0]] = record
        elif len(hits) == 1:
            problems.append(
                f"{record.student}{ident} matches the row of {who(hits[0])}, which already "
                f"holds the grade of {graded[hits[0]].student}; {record.student} is not written"
            )
        elif hits:
            rows_named = " and ".join(who(i) for i in hits)
            problems.append(
                f"{record.student}{ident} matches several rows ({rows_named}); not written"
            )
        else:
            problems.append(f"{record.student}{ident} is graded but not on the roster")
    for index in students:
        if index not in graded:
            problems.append(f"{who(index)} has no grade; left blank")

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for index, row in enumerate(rows):
        values = [row[i] if i < len(row) else "" for i in keep]
        if index == 0:
            values = [header[i] for i in keep]
        elif index in graded:
            values[-1] = _points(graded[index].score)
        elif index in students:
            values[-1] = ""
        writer.writerow(values)
    write_atomic(out, buffer.getvalue())
    return problems
