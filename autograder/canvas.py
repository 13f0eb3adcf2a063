"""A whole class in, a Canvas gradebook import out.

:func:`collect` turns the inputs of ``autograder grade`` (a folder, several zips or .py files,
or the zip Canvas's "Download Submissions" produces) into one :class:`~autograder.records.Entry`
per student, without opening any student's zip beyond listing it: grading, and any error in a
student's file, is the batch's business. :func:`write_canvas_import` writes the grades into the
course's gradebook export so it can be uploaded back to Canvas.

Canvas names each downloaded file ``<sortablename>[_LATE]_<userid>_<fileid>_<originalname>``
(anonymous grading: ``anon_<anonymousid>_<fileid>_<originalname>``, ``_LATE`` after ``anon`` or
after the id), and adds ``-1``, ``-2`` before the extension of a resubmitted file.
"""

from __future__ import annotations

import csv
import io
import itertools
import os
import re
import shutil
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from autograder.errors import GraderError
from autograder.intake import unpack
from autograder.records import Entry, Record, write_atomic
from autograder.rubric import load_rubric

__all__ = [
    "Collection",
    "collect",
    "write_canvas_import",
    "DEFAULT_NETID_PATTERN",
    "IDENTITY_COLUMNS",
    "BUNDLE_MAX_UNPACKED",
    "BUNDLE_MAX_ENTRIES",
]

DEFAULT_NETID_PATTERN = load_rubric().packaging_pattern  # the course rubric's packaging.pattern
BUNDLE_MAX_UNPACKED = 2 << 30  # bytes: a class bundle holds every student's zip, so 2 GB
BUNDLE_MAX_ENTRIES = 5_000
IDENTITY_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
# Columns some Canvas exports add among the identity columns; never an assignment.
_OTHER_IDENTITY = frozenset({"Integration ID", "Root Account"})

_JUNK = frozenset({"__MACOSX", ".DS_Store", "__pycache__", "Thumbs.db", "desktop.ini"})
# Sortable names are letters and digits (Canvas drops spaces and punctuation; hyphens are
# tolerated); anonymous ids are short letter-and-digit strings, not numbers.
_NAMED = re.compile(
    r"(?P<name>[^\W_](?:[^\W_]|-)*)(?:_(?P<late>late))?_(?P<user>\d+)_(?P<file>\d+)"
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
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
_ADVICE = re.compile(r"; (?:zip|submit) [^']*$")  # "...; zip it again" ending intake's messages


@dataclass(frozen=True)
class Collection:
    """What the inputs hold: one entry per student, and the inputs that are nobody's."""

    entries: tuple[Entry, ...]  # sorted by student
    problems: tuple[str, ...]  # one sentence per input that could not be read; not graded


@dataclass(frozen=True)
class _Candidate:
    """One file or folder that is some student's submission."""

    path: Path
    shown: str  # the name without Canvas's prefix, as notes show it
    given: str  # the same without Canvas's resubmission number: the student's own name
    netid: str | None
    user: str | None  # Canvas user id
    anon: str | None  # Canvas anonymous id
    name: str | None  # Canvas sortable name
    late: bool
    file_id: int | None
    copy: int  # resubmission number, 0 for the first
    mtime: float
    fallback: str  # the student id when no netid or Canvas id is known

    @property
    def owner(self) -> str | None:
        return self.user or self.anon


def _newest(candidate: _Candidate) -> tuple[int, int, float, str]:
    """Sort key: Canvas file ids grow with time; then the copy number; then the clock."""
    file_id = candidate.file_id if candidate.file_id is not None else -1
    return (file_id, candidate.copy, candidate.mtime, candidate.path.name)


def _safe(text: str) -> str:
    """``text`` usable as a folder name: only ``[A-Za-z0-9._-]``, never hidden nor ``..``."""
    return _UNSAFE.sub("_", text).lstrip(".") or "student"


def _fallback(path: Path, original: str, folder: bool) -> str:
    """The name of a student known by nothing else: the folder's, or the file's stem (for a
    bare game.py, which every student has, its folder's name). Copy numbers stay: ``ann-2.py``
    may well be another person than ``ann.py``."""
    if folder:
        return original
    if original == "game.py" and path.parent.name:
        return path.parent.name
    return PurePosixPath(original).stem


def _junk(name: str) -> bool:
    return name in _JUNK or name.startswith(".") or name.endswith(".pyc")


class _Intake:
    """The state of one :func:`collect` call: what was found and what went wrong."""

    def __init__(self, workdir: Path, netid: re.Pattern[str]) -> None:
        self.workdir = workdir
        self.netid = netid
        self.found: list[_Candidate] = []
        self.problems: list[str] = []

    # -- one candidate ------------------------------------------------------------------------

    def candidate(self, path: Path, *, folder: bool = False) -> None:
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
        hit = None if folder else self.netid.fullmatch(bare)
        try:
            mtime = path.stat().st_mtime
        except OSError:
            mtime = 0.0
        self.found.append(
            _Candidate(
                path=path,
                shown=original,
                given=given,
                netid=_safe(hit["netid"].casefold()) if hit else None,
                user=named["user"] if named and not anonymous else None,
                anon=anonymous["anon"] if anonymous else None,
                name=named["name"] if named and not anonymous else None,
                late=bool(match and (match["late"] or (anonymous and anonymous["late_after"]))),
                file_id=int(match["file"]) if match else None,
                copy=number,
                mtime=mtime,
                fallback=_safe(_fallback(path, original, folder)),
            )
        )

    def looks_like_students(self, name: str) -> bool:
        """Whether a file name alone says it is a student's (Canvas name or hw8_<netid>.zip)."""
        if _NAMED.fullmatch(name) or _ANONYMOUS.fullmatch(name):
            return True
        copy = _COPY.fullmatch(name)
        bare = f"{copy['stem']}{copy['ext'] or ''}" if copy else name
        return self.netid.fullmatch(bare) is not None

    # -- inputs -------------------------------------------------------------------------------

    def take_input(self, path: Path) -> None:
        if path.is_dir():
            if (path / "game.py").is_file():
                self.candidate(path, folder=True)
            elif not self.scan(path):
                self.problems.append(f"{path} holds no submissions")
        elif path.is_file():
            self.take_file(path, top_level=True)
        elif path.exists():
            self.problems.append(f"{path} is neither a file nor a folder")
        else:
            self.problems.append(f"{path} does not exist")

    def scan(self, folder: Path) -> int:
        """Take the files and student folders directly in ``folder``; returns how many."""
        before = len(self.found)
        try:
            children = sorted(p for p in folder.iterdir() if not _junk(p.name))
        except OSError as err:
            self.problems.append(f"cannot read the folder {folder}: {err.strerror or err}")
            return 0
        for child in children:
            if child.is_dir():
                if _holds_python(child):
                    self.candidate(child, folder=True)
                else:
                    self.problems.append(
                        f"{child} is a folder without a .py file; pass it as an input of its "
                        "own to grade the files inside"
                    )
            elif child.is_file():
                self.take_file(child, top_level=False)
        return len(self.found) - before

    def take_file(self, path: Path, *, top_level: bool) -> None:
        """A file: a student's submission, a bundle of them, or (reported) neither.

        A zip whose name says it is a student's is never opened here, so a damaged one still
        becomes an entry and is graded zero with intake's reason.
        """
        if path.suffix.lower() == ".py" or self.looks_like_students(path.name):
            self.candidate(path)
            return
        if path.suffix.lower() != ".zip" and not zipfile.is_zipfile(path):
            self.problems.append(f"{path} is not a .py file, a zip or a folder")
            return
        try:
            with zipfile.ZipFile(path) as archive:
                infos = archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError):
            if top_level:  # a damaged class bundle: nobody to grade, so it is reported
                self.problems.append(f"{path} is not a readable zip file")
            else:  # inside a folder of students: a student's damaged zip
                self.candidate(path)
            return
        files = [PurePosixPath(i.filename) for i in infos if not i.is_dir()]
        files = [f for f in files if not any(_junk(part) for part in f.parts)]
        if any(f.name == "game.py" for f in files):
            self.candidate(path)
        elif self.looks_like_bundle(files):
            self.take_bundle(path, infos)
        elif not files and top_level:
            self.problems.append(f"{path} is an empty zip")
        else:
            self.candidate(path)

    def looks_like_bundle(self, files: list[PurePosixPath]) -> bool:
        """Whether a zip holds submissions (mostly Canvas-named files or zips), not a student's."""
        if not files:
            return False
        named = sum(1 for f in files if self.looks_like_students(f.name))
        zips = sum(1 for f in files if f.suffix.lower() == ".zip")
        return 2 * named > len(files) or 2 * zips > len(files)

    def take_bundle(self, path: Path, infos: list[zipfile.ZipInfo]) -> None:
        """Unpack a zip of submissions into the work folder and take what it holds."""
        declared = sum(i.file_size for i in infos)
        if len(infos) > BUNDLE_MAX_ENTRIES:
            self.problems.append(
                f"{path} holds {len(infos)} entries; a bundle may hold {BUNDLE_MAX_ENTRIES}"
            )
            return
        if declared > BUNDLE_MAX_UNPACKED:
            self.problems.append(
                f"{path} unpacks to {declared / 2**20:.1f} MB; a bundle may unpack to "
                f"{BUNDLE_MAX_UNPACKED / 2**20:.1f} MB"
            )
            return
        target = self.workdir / "bundles" / _safe(path.stem)
        for number in itertools.count(2):
            if not target.exists():
                break
            target = target.with_name(f"{_safe(path.stem)}-{number}")
        target.mkdir(parents=True)
        try:
            unpack(path, target, max_bytes=BUNDLE_MAX_UNPACKED, max_entries=BUNDLE_MAX_ENTRIES)
        except GraderError as err:
            shutil.rmtree(target, ignore_errors=True)
            fact = _ADVICE.sub("", str(err))  # intake's advice is for a student, not for you
            self.problems.append(f"{fact}; nothing in {path} was graded")
            return
        _keep_times(target, infos)
        root = target
        inside = [p for p in root.iterdir() if not _junk(p.name)]
        # A zip of a folder of submissions: look inside the folder.
        while len(inside) == 1 and inside[0].is_dir() and not _holds_python(inside[0]):
            root = inside[0]
            inside = [p for p in root.iterdir() if not _junk(p.name)]
        if not self.scan(root):
            self.problems.append(f"{path} holds no submissions")

    # -- students -----------------------------------------------------------------------------

    def entries(self) -> list[Entry]:
        """One entry per student: candidates grouped by who they are, the newest kept."""
        by_owner: dict[str, list[_Candidate]] = {}
        ownerless: list[_Candidate] = []
        for found in self.found:
            if found.owner:
                by_owner.setdefault(found.owner, []).append(found)
            else:
                ownerless.append(found)
        # A Canvas user is one person: all their files go under the netid of the newest file
        # that names one. Two users naming the same netid are two people, kept apart.
        owner_netid: dict[str, str] = {}
        claims: dict[str, list[str]] = {}
        notes: dict[str, list[str]] = {}
        for owner, group in by_owner.items():
            named = sorted((c for c in group if c.netid), key=_newest)
            if named:
                netid = owner_netid[owner] = str(named[-1].netid)
                claims.setdefault(netid, []).append(owner)
        students: dict[str, list[_Candidate]] = {}
        for owner, group in by_owner.items():
            netid = owner_netid.get(owner)
            who = _describe(group[0])
            if netid is None:
                student = _safe(owner)
            elif len(claims[netid]) > 1:
                student = f"{netid}-{_safe(owner)}"
                owners = ", ".join(sorted(claims[netid]))
                notes.setdefault(student, []).append(
                    f"netid {netid} was submitted by {len(claims[netid])} Canvas users "
                    f"({owners}); {who} is graded apart as {student}"
                )
            else:
                student = netid
            netids = sorted({str(c.netid) for c in group if c.netid})
            if len(netids) > 1:
                notes.setdefault(student, []).append(
                    f"{who} submitted as netids {', '.join(netids)}; identified as {netid}, "
                    "the newest"
                )
            students.setdefault(student, []).extend(group)
        for found in ownerless:
            student = found.netid or found.fallback
            if found.netid and len(claims.get(found.netid, [])) > 1:
                notes.setdefault(student, []).append(
                    f"{found.shown} carries no Canvas id and several Canvas users submitted as "
                    f"netid {found.netid}; graded on its own"
                )
            students.setdefault(student, []).append(found)
        return [
            self.entry(student, group, notes.get(student, []))
            for student, group in sorted(students.items())
        ]

    def entry(self, student: str, group: list[_Candidate], notes: list[str]) -> Entry:
        ordered = sorted(group, key=_newest)
        kept = ordered[-1]
        if len(ordered) > 1:
            if kept.file_id is not None:
                why = f" (file id {kept.file_id})"
            elif kept.copy:
                why = f" (resubmission {kept.copy})"
            else:
                why = " (the latest modified)"
            others = ", ".join(_label(c) for c in reversed(ordered[:-1]))
            notes = [
                f"{len(ordered)} submissions found; graded the newest, {kept.shown}{why}; "
                f"not graded: {others}",
                *notes,
            ]
        return Entry(
            student=student,
            path=self.place(kept),
            late=kept.late,
            canvas_id=kept.user or next((c.user for c in ordered if c.user), None),
            name=kept.name or next((c.name for c in ordered if c.name), None),
            note="; ".join(notes),
            source=kept.path.name,
        )

    def place(self, kept: _Candidate) -> Path:
        """The file to grade, under the name the student gave it when Canvas renamed it.

        Canvas's prefix and its resubmission number are Canvas's doing, not the student's, so
        intake's packaging check must see ``hw8_<netid>.zip``, not the downloaded name. The
        file goes to ``workdir/canvas/<Canvas prefix>/``; the folder keeps who and which file.
        """
        if kept.file_id is None:
            return kept.path
        name = kept.given
        if name in {"", ".", ".."} or "/" in name or "\\" in name:
            name = _safe(name)
        prefix = kept.path.name[: len(kept.path.name) - len(kept.shown)].rstrip("_")
        target = self.workdir / "canvas" / _safe(prefix) / name
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if kept.path.is_relative_to(self.workdir):
                kept.path.replace(target)  # unpacked from a bundle: ours to move
            else:  # a copy, not a link: the submission must not reach the instructor's file
                shutil.copy2(kept.path, target)
        except OSError:
            return kept.path  # graded under the Canvas name: only the packaging note suffers
        return target


def _label(candidate: _Candidate) -> str:
    if candidate.file_id is not None:
        return f"{candidate.shown} (file id {candidate.file_id})"
    return candidate.shown


def _describe(candidate: _Candidate) -> str:
    if candidate.user:
        return f"Canvas user {candidate.user}"
    return f"anonymous Canvas user {candidate.anon}"


def _holds_python(folder: Path) -> bool:
    """Whether ``folder`` holds a .py file anywhere, __MACOSX and hidden files aside."""
    try:
        for path in folder.rglob("*.py"):
            parts = path.relative_to(folder).parts
            if not any(_junk(part) for part in parts):
                return True
    except OSError:
        return False
    return False


def _keep_times(target: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Give unpacked files their time in the zip, so "newest" means newest submitted."""
    for info in infos:
        path = target.joinpath(*PurePosixPath(info.filename).parts)
        try:
            stamp = time.mktime((*info.date_time, 0, 0, -1))
            os.utime(path, (stamp, stamp))
        except (OSError, OverflowError, ValueError):
            continue


def collect(
    inputs: Sequence[Path], workdir: Path, netid_pattern: str = DEFAULT_NETID_PATTERN
) -> Collection:
    """One entry per student found in ``inputs``; Canvas bundles are unpacked into ``workdir``.

    Each input may be a .py file, a student's zip, a folder of such files (a subfolder holding
    .py files is one student, named by the subfolder) or a zip of submissions such as Canvas's
    "Download Submissions" zip. A student is the netid that ``netid_pattern`` (a regular
    expression with a ``netid`` group, matched against the original file name) finds, else the
    Canvas user id, else the anonymous id, else the file's stem or the folder's name. Of several
    submissions by one student the newest is kept and ``Entry.note`` says so.

    ``workdir`` must outlive the entries: their paths may point into it.

    :raises GraderError: when ``netid_pattern`` is not a regular expression with a netid group.
    """
    try:
        pattern = re.compile(netid_pattern, re.IGNORECASE)
    except re.error as err:
        raise GraderError(
            f"netid pattern {netid_pattern!r} is not a regular expression: {err}"
        ) from err
    if "netid" not in pattern.groupindex:
        raise GraderError(f"netid pattern {netid_pattern!r} has no (?P<netid>...) group")
    workdir.mkdir(parents=True, exist_ok=True)
    intake = _Intake(workdir, pattern)
    for path in inputs:
        intake.take_input(Path(path))
    return Collection(tuple(intake.entries()), tuple(intake.problems))


# -- Canvas gradebook import ----------------------------------------------------------------------


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
