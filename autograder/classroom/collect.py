"""A whole class in: :func:`collect` turns the inputs of a class command (a folder, several
zips or .py files, a GitHub Classroom folder of repositories, or the zip or folder Canvas's
"Download Submissions" produces) into one :class:`~autograder.classroom.records.Entry` per
student, without opening any student's zip beyond listing it: opening each one is
:mod:`~autograder.classroom.handin`'s business. Names are read by
:mod:`~autograder.classroom.canvas_names`, students told apart by
:mod:`~autograder.classroom.students`; this module walks the file system, listing each folder
without following a link (:mod:`~autograder.classroom.reading`): a link among the students'
files is a student whose submission is refused, never read through.
"""

from __future__ import annotations

import itertools
import os
import re
import shutil
import time
import zipfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from autograder.classroom.canvas_names import Candidate, looks_like_students, parse
from autograder.classroom.reading import (
    Budget,
    fitted,
    holds_code,
    is_junk,
    kind,
    listing,
    open_zip,
    read_file,
    unpack,
)
from autograder.classroom.records import Entry
from autograder.classroom.students import identify
from autograder.errors import GraderError
from autograder.files import file_name
from autograder.play.untrusted import admit

__all__ = [
    "Collection",
    "collect",
    "BUNDLE_MAX_UNPACKED",
    "BUNDLE_MAX_ENTRIES",
]

BUNDLE_MAX_UNPACKED = 2 << 30  # bytes: a class bundle holds every student's zip, so 2 GB
BUNDLE_MAX_ENTRIES = 5_000
_ADVICE = re.compile(r"; (?:zip|submit) [^']*$")  # "...; zip it again" ending intake's messages
_FILES = (".py", ".zip", ".ipynb")  # what a student's file is named, a folder else
_CODE = (".py", ".ipynb")  # a student's code: a folder holding one is a student's


@dataclass(frozen=True)
class Collection:
    """What the inputs hold: one entry per student, the inputs that are nobody's, and the
    identities file names claimed that were not followed."""

    entries: tuple[Entry, ...]  # sorted by student
    problems: tuple[str, ...]  # one sentence per input that could not be read; not graded
    warnings: tuple[str, ...] = ()  # one sentence per name naming another student


class _Intake:
    """The state of one :func:`collect` call: what was found and what went wrong."""

    def __init__(self, workdir: Path, netid: re.Pattern[str], main: str) -> None:
        self.workdir = workdir
        self.netid = netid
        self.mains = frozenset(("game.py", main))  # the homework's file, by any course's name
        self.found: list[Candidate] = []
        self.problems: list[str] = []
        self.unpacked: dict[Path, Path] = {}  # a class zip's folder in workdir -> the zip

    def shown(self, path: Path) -> str:
        """``path`` as the instructor knows it: inside a class zip, its place in the zip."""
        for target, bundle in self.unpacked.items():
            if path.is_relative_to(target):
                return f"{path.relative_to(target).as_posix()} in {bundle}"
        return str(path)

    def candidate(self, path: Path, *, folder: bool = False) -> None:
        try:
            mtime = os.lstat(path).st_mtime
        except OSError:
            mtime = 0.0
        self.found.append(parse(path, self.netid, folder=folder, mtime=mtime))

    def looks_like_students(self, name: str) -> bool:
        return looks_like_students(name, self.netid)

    # -- inputs -------------------------------------------------------------------------------

    def take_input(self, path: Path) -> None:
        what = kind(path)
        if what == "link" and path.is_dir():  # the instructor's own link to a class folder
            path, what = path.resolve(), "folder"
        if what == "folder":
            if kind(path / "game.py") == "file" or self.notebook_folder(path):
                self.candidate(path, folder=True)
            elif not self.scan(path):
                self.problems.append(f"{path} holds no submissions")
        elif what in ("file", "link"):  # a link named alone: refused when it is opened
            self.take_file(path, top_level=True)
        elif what == "other":
            self.problems.append(f"{path} is neither a file nor a folder")
        else:
            self.problems.append(f"{path} does not exist")

    def notebook_folder(self, folder: Path) -> bool:
        """Whether ``folder`` is one student's notebook, not a class: its one file of code is
        a notebook not named by Canvas or a netid, and no folder in it holds code. Such a
        notebook is named as the course named it (``Connect4.ipynb``), the student by the
        folder."""
        try:
            children = listing(folder)
        except OSError:
            return False
        code = [c for c, what in children if what != "folder" and c.name.lower().endswith(_FILES)]
        inner = [c for c, what in children if what == "folder" and holds_code(c, _CODE)]
        return (
            len(code) == 1
            and not inner
            and code[0].suffix.lower() == ".ipynb"
            and not self.looks_like_students(code[0].name)
        )

    def scan(self, folder: Path) -> int:
        """Take the files and student folders directly in ``folder``; returns how many."""
        before = len(self.found)
        try:
            children = listing(folder)
        except OSError as err:
            shown = self.shown(folder)
            self.problems.append(f"cannot read the folder {shown}: {err.strerror or err}")
            return 0
        for child, what in children:
            if what == "folder":
                if holds_code(child, _CODE):
                    self.candidate(child, folder=True)
                else:
                    self.problems.append(
                        f"{self.shown(child)} is a folder without a .py file or a notebook; "
                        "pass it as an input of its own to grade the files inside"
                    )
            elif what == "link":  # a student's, whatever it points at: refused, never followed
                self.candidate(child, folder=not child.name.lower().endswith(_FILES))
            elif what == "file":
                self.take_file(child, top_level=False)
            else:
                self.problems.append(f"{self.shown(child)} is neither a file nor a folder")
        return len(self.found) - before

    def take_file(self, path: Path, *, top_level: bool) -> None:
        """A file: a student's submission, a bundle of them, or (reported) neither.

        A zip whose name says it is a student's is never opened here, so a damaged one still
        becomes an entry and is graded zero with intake's reason.
        """
        if (
            path.suffix.lower() in (".py", ".ipynb")
            or self.looks_like_students(path.name)
            or kind(path) == "link"
        ):
            self.candidate(path)
            return
        if path.suffix.lower() != ".zip" and not _is_zip(path):
            shown = self.shown(path)
            self.problems.append(f"{shown} is not a .py file, a notebook, a zip or a folder")
            return
        try:
            with open_zip(path, admit(path.name, "file")) as archive:
                infos = archive.infolist()
        except (zipfile.BadZipFile, OSError, ValueError, GraderError):
            if top_level:  # a damaged class bundle: nobody to grade, so it is reported
                self.problems.append(f"{path} is not a readable zip file")
            else:  # inside a folder of students: a student's damaged zip
                self.candidate(path)
            return
        files = [PurePosixPath(i.filename) for i in infos if not i.is_dir()]
        files = [f for f in files if not any(is_junk(part) for part in f.parts)]
        if top_level and (self.looks_like_bundle(files) or self.student_folders(files)):
            self.take_bundle(path, infos)  # a class's zip, though a student's file is in it
        elif any(f.name in self.mains for f in files):
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

    def student_folders(self, files: list[PurePosixPath]) -> bool:
        """Whether a zip holds the homework's file in two or more folders side by side and
        none higher up: a class's folders (``class/alice/game.py``, ``class/bob/game.py``),
        not one student's files (``game.py`` beside an ``old/game.py``)."""
        homes = {f.parent for f in files if f.name in self.mains}
        if not homes:
            return False
        depth = min(len(home.parts) for home in homes)
        return depth > 0 and sum(len(home.parts) == depth for home in homes) >= 2

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
        target = self.workdir / "bundles" / file_name(path.stem)
        for number in itertools.count(2):
            if not target.exists():
                break
            target = target.with_name(f"{file_name(path.stem)}-{number}")
        target.mkdir(parents=True)
        try:
            unpack(
                path,
                target,
                max_bytes=BUNDLE_MAX_UNPACKED,
                max_entries=BUNDLE_MAX_ENTRIES,
                shorten=True,
            )
        except GraderError as err:
            shutil.rmtree(target, ignore_errors=True)
            fact = _ADVICE.sub("", str(err))  # intake's advice is for a student, not for you
            self.problems.append(f"{fact}; nothing in {path} was graded")
            return
        _keep_times(target, infos)
        self.unpacked[target] = path
        root = target
        inside = [p for p in root.iterdir() if not is_junk(p.name)]
        # A zip of a folder of submissions: look inside the folder.
        while len(inside) == 1 and inside[0].is_dir() and _of_students(inside[0]):
            root = inside[0]
            inside = [p for p in root.iterdir() if not is_junk(p.name)]
        if not self.scan(root):
            self.problems.append(f"{path} holds no submissions")

    def place(self, kept: Candidate, attached: list[Candidate], main: str) -> Path:
        """The file to grade, under the name the student gave it when Canvas renamed it; with
        the other files of its attempt, a folder holding them all under their given names.

        Canvas's prefix and its resubmission number are Canvas's doing, not the student's, so
        intake's packaging check must see ``hw8_<netid>.zip``, not the downloaded name. The
        files go to ``workdir/canvas/<Canvas prefix of the graded one>/``; the folder keeps who
        and which file.
        """
        if kept.file_id is None and not attached:
            return kept.path
        prefix = kept.path.name[: len(kept.path.name) - len(kept.shown)].rstrip("_")
        folder = self.workdir / "canvas" / file_name(prefix or kept.fallback)
        beside = attached if kept.given == main else []  # a zip or a folder stands alone
        try:
            for candidate in (kept, *beside):
                _bring(candidate.path, folder / _given_name(candidate), self.workdir)
        except (OSError, GraderError):  # a link, too large: intake refuses it in its words
            return kept.path  # graded under the Canvas name: only the packaging note suffers
        return folder if beside else folder / _given_name(kept)


def _of_students(folder: Path) -> bool:
    """Whether ``folder`` is a class's folder, not a student's: it holds no code at all, or
    no code file of its own and two or more folders that do (``class/alice``, ``class/bob``);
    code is a .py file or a notebook."""
    try:
        children = listing(folder)
    except OSError:
        return False
    if any(what == "file" and child.suffix.lower() in _CODE for child, what in children):
        return False
    held = sum(what == "folder" and holds_code(child, _CODE) for child, what in children)
    return held != 1


def _given_name(candidate: Candidate) -> str:
    name = candidate.given
    bad = name in {"", ".", ".."} or "/" in name or "\\" in name or len(name.encode()) > 200
    return file_name(name) if bad else name


def _bring(source: Path, target: Path, workdir: Path) -> None:
    """``source`` at ``target``: moved when it is ours (unpacked from a bundle), else copied
    from its bytes, never through a link (the submission must not reach another file)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if source.is_relative_to(workdir) and kind(source) == "file":
        source.replace(target)
        return
    if kind(source) != "file":
        raise GraderError(f"{source} is not a regular file")
    target.write_bytes(read_file(source, admit(source.name, "file"), Budget(source.name)))
    stamp = os.lstat(source).st_mtime
    os.utime(target, (stamp, stamp))


def _is_zip(path: Path) -> bool:
    try:
        with open_zip(path, "") as bundle:
            return bundle is not None
    except (zipfile.BadZipFile, OSError, ValueError, GraderError):
        return False


def _keep_times(target: Path, infos: list[zipfile.ZipInfo]) -> None:
    """Give unpacked files their time in the zip, so "newest" means newest submitted."""
    for info in infos:
        path = target.joinpath(*(fitted(p) for p in PurePosixPath(info.filename).parts))
        try:
            stamp = time.mktime((*info.date_time, 0, 0, -1))
            os.utime(path, (stamp, stamp))
        except (OSError, OverflowError, ValueError):
            continue


def collect(
    inputs: Sequence[Path],
    workdir: Path,
    netid_pattern: str,
    main: str = "game.py",
    logins: Mapping[str, str] | None = None,
) -> Collection:
    """One entry per student found in ``inputs``; Canvas bundles are unpacked into ``workdir``.

    Each input may be a .py file, a student's zip, a folder of such files (a subfolder holding
    .py files is one student, named by the subfolder: a GitHub Classroom folder of
    repositories) or a zip or folder of submissions such as Canvas's "Download Submissions".
    Who is who is :func:`~autograder.classroom.students.identify`'s: a Canvas user (the user id
    or anonymous id in Canvas's name) is one student keyed by that id and shown by the roster's
    login when ``logins`` (Canvas id -> login) has it; a netid typed in a file name
    (``netid_pattern``, a regular expression with a ``netid`` group) is only a claim; a file
    with no Canvas id is its netid's, else its name's, exactly as named. Of several
    submissions by one student the newest is kept and ``Entry.note`` says so;
    ``Collection.warnings`` lists the claims and the names naming another.

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
    intake = _Intake(workdir, pattern, main)
    for path in inputs:
        intake.take_input(Path(path))
    students = identify(intake.found, main, logins)
    entries = [
        replace(entry, path=intake.place(kept, attached, main))
        for entry, kept, attached in students.found
    ]
    problems = tuple(admit(problem, "sentence") for problem in intake.problems)
    return Collection(tuple(entries), problems, tuple(students.warnings))
