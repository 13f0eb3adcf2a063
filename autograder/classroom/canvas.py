"""A Canvas gradebook import out: the grades written into the course's gradebook export, so it
can be uploaded back to Canvas."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.records import Record
from autograder.errors import GraderError
from autograder.files import write_atomic
from autograder.play.untrusted import admit, csv_text

__all__ = [
    "Roster",
    "Match",
    "read_roster",
    "match_roster",
    "roster_logins",
    "roster_names",
    "write_canvas_import",
    "IDENTITY_COLUMNS",
]

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
    first = text.partition("\n")[0]
    # a spreadsheet set to a language whose decimal mark is a comma saves with semicolons
    delimiter = ";" if first.count(";") > first.count(",") else ","
    try:
        rows = [
            row
            for row in csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
            if any(row)
        ]
    except csv.Error as err:
        raise GraderError(
            f"the roster {roster} is not a readable CSV file ({err}); export the gradebook "
            "from Canvas again"
        ) from None
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


@dataclass(frozen=True)
class Roster:
    """A Canvas gradebook export, read and checked: its rows, where the identity columns are,
    and the assignment column the grades go into."""

    path: Path
    rows: list[list[str]]
    header: list[str]
    where: dict[str, int]  # identity column -> index
    score_at: int

    def cell(self, index: int, title: str) -> str:
        row, at = self.rows[index], self.where[title]
        return row[at].strip() if at < len(row) else ""

    @property
    def students(self) -> list[int]:
        """The rows of students (the "Points Possible" row and blank ones have no ID)."""
        return [i for i in range(1, len(self.rows)) if self.cell(i, "ID")]

    def who(self, index: int) -> str:
        """The row's student as a sentence names them, through the text gate."""
        login, ident = self.cell(index, "SIS Login ID"), self.cell(index, "ID")
        named = f"login {login}, ID {ident}" if login else f"ID {ident}"
        return admit(f"{self.cell(index, 'Student') or 'an unnamed student'} ({named})", "note")


def read_roster(path: Path, assignment_column: str | None = None) -> Roster:
    """The gradebook export in ``path``, its grades to go into ``assignment_column`` (exactly,
    or the single column starting with it), else the first that is not an identity column.

    :raises GraderError: when it is unreadable, lacks an identity column or has no (or no
        such) assignment column.
    """
    rows = _read_roster(path)
    header = [title.strip() for title in rows[0]]
    missing = [title for title in IDENTITY_COLUMNS if title not in header]
    if missing:
        listed = ", ".join(repr(title) for title in missing)
        raise GraderError(
            f"the roster {path} lacks the column{'s' if len(missing) > 1 else ''} {listed}; "
            "pass the gradebook exported from Canvas (Grades, Export)"
        )
    twice = [title for title in IDENTITY_COLUMNS if header.count(title) > 1]
    if twice:
        raise GraderError(
            f"the roster {path} has two columns named {twice[0]!r}; keep one, or export the "
            "gradebook from Canvas again"
        )
    where = {title: header.index(title) for title in IDENTITY_COLUMNS}
    found = Roster(path, rows, header, where, _assignment_index(header, assignment_column, path))
    _one_row_per_id(found)
    return found


def _one_row_per_id(roster: Roster) -> None:
    """A Canvas ID is one student's: two rows with one ID would take one student's grade."""
    seen: dict[str, int] = {}
    for index in roster.students:
        ident = roster.cell(index, "ID")
        if ident in seen:
            raise GraderError(
                f"the roster {roster.path} gives the ID {admit(ident, 'file')} to two rows, "
                f"{roster.who(seen[ident])} and {roster.who(index)}; a Canvas ID is one "
                "student's: export the gradebook from Canvas again"
            )
        seen[ident] = index


@dataclass(frozen=True)
class Match:
    """Which roster row holds which student's grade, and one sentence per problem: graded
    students with no row, rows with no grade, doubtful matches."""

    rows: dict[int, Record]  # roster row index -> its student's record
    problems: list[str]


def match_roster(roster: Roster, records: Sequence[Record]) -> Match:
    """Each record matched to a row by Canvas ID when it carries one (the id says which account
    uploaded the file, a netid is only typed), else by SIS Login ID (whole, or the part before
    ``@``) equal to its student id, case aside."""
    by_id: dict[str, list[int]] = {}
    by_login: dict[str, list[int]] = {}
    for index in roster.students:
        by_id.setdefault(roster.cell(index, "ID"), []).append(index)
        login = roster.cell(index, "SIS Login ID").casefold()
        for key in {login, login.split("@")[0]} - {""}:
            by_login.setdefault(key, []).append(index)
    problems: list[str] = []
    graded: dict[int, Record] = {}
    later: list[Record] = []
    for record in sorted(records, key=lambda r: r.student):
        hits = by_id.get(record.canvas_id or "", [])
        if len(hits) == 1 and hits[0] not in graded:
            graded[hits[0]] = record
            login = roster.cell(hits[0], "SIS Login ID").casefold()
            netid = record.student.casefold().removesuffix(f"-{record.canvas_id}")
            if login and netid not in {login, login.split("@")[0], str(record.canvas_id)}:
                problems.append(
                    f"{record.student} (Canvas id {record.canvas_id}) was written to the row of "
                    f"{roster.who(hits[0])}, found by Canvas id; the netid in the file name "
                    "differs"
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
                f"{record.student}{ident} matches the row of {roster.who(hits[0])}, which "
                f"already holds the grade of {graded[hits[0]].student}; {record.student} is "
                "not written"
            )
        elif hits:
            rows_named = " and ".join(roster.who(i) for i in hits)
            problems.append(
                f"{record.student}{ident} matches several rows ({rows_named}); not written"
            )
        else:
            problems.append(f"{record.student}{ident} is graded but not on the roster")
    for index in roster.students:
        if index not in graded:
            problems.append(f"{roster.who(index)} has no grade; left blank")
    return Match(graded, problems)


def roster_logins(roster: Roster) -> dict[str, str]:
    """Canvas ID -> SIS Login ID of each student row that has both: who is who, for
    :func:`~autograder.classroom.collect.collect` (the roster decides, not a file's name)."""
    found: dict[str, str] = {}
    for index in roster.students:
        login = roster.cell(index, "SIS Login ID")
        if login:
            found[roster.cell(index, "ID")] = login
    return found


def roster_names(roster: Roster, found: Match, records: Sequence[Record]) -> list[Record]:
    """``records`` with each matched student's name as the roster spells it."""
    names = {r.key: admit(roster.cell(i, "Student"), "file") for i, r in found.rows.items()}
    return [replace(r, name=names.get(r.key) or r.name) for r in records]


def write_canvas_import(
    records: Sequence[Record],
    roster: Path | Roster,
    out: Path,
    assignment_column: str | None = None,
    incomplete: str | None = None,
) -> list[str]:
    """Write ``out``: the Canvas gradebook ``roster`` with each graded student's score filled in.

    ``out`` keeps the rows of ``roster`` in order (the "Points Possible" row as it is) and the
    columns Student, ID, SIS User ID, SIS Login ID, Section and the assignment column (see
    :func:`read_roster`); records are matched as :func:`match_roster` says. A run that did not
    grade everyone ends it with a row saying so (``incomplete``, "incomplete: N of M students
    graded"), which Canvas's import shows as a row it cannot match. Returns one sentence per
    problem.

    :raises GraderError: when ``roster`` is a path to an unusable roster.
    """
    if isinstance(roster, Path):
        roster = read_roster(roster, assignment_column)
    found = match_roster(roster, records)
    keep = [*roster.where.values(), roster.score_at]
    students = set(roster.students)
    rows = []
    for index, row in enumerate(roster.rows):
        values = [admit(row[i], "file") if i < len(row) else "" for i in keep]
        if index == 0:
            values = [admit(roster.header[i], "file") for i in keep]
        elif index in found.rows:
            values[-1] = _points(found.rows[index].score)
        elif index in students:
            values[-1] = ""
        rows.append(values)
    if incomplete is not None:  # a row of no student's: Canvas's import shows it, unmatched
        rows.append([incomplete, *[""] * (len(keep) - 1)])
    write_atomic(out, csv_text(rows))
    return found.problems
