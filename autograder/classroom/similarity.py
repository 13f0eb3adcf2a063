"""``autograder similarity``: a class's submissions compared with one another and with archived
solutions, the homework's starter never counting as shared. No grade changes.

The class comes in exactly as ``grade`` takes it, through the one intake
(:func:`~autograder.classroom.handin.take_in`), and only what intake made of it is read; each
archive folder is taken the same way, one solution per file, zip or subfolder. The comparison is
:mod:`autograder.grading.similarity`; the pages are
:mod:`autograder.grading.similarity_report`.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from autograder.classroom.class_run import ClassInputs, Listener, loaded
from autograder.classroom.handin import HandIn, Homework, raw_folder, take_in
from autograder.classroom.notebook import code_cells, without_magics
from autograder.classroom.outputs import writable_folder
from autograder.classroom.reading import Budget, copy_tree, is_junk, read_file
from autograder.classroom.records import Entry
from autograder.errors import GraderError
from autograder.files import kit_path, write_atomic
from autograder.games.pack import Assignment
from autograder.grading.similarity import (
    Comparison,
    Document,
    Settings,
    SourceFile,
    boilerplate,
    compare,
    fingerprint,
)
from autograder.grading.similarity_report import (
    pair_file,
    pair_html,
    similarity_csv,
    similarity_html,
)
from autograder.play.protocol import CELL_MARK, NOTEBOOK_HEADER
from autograder.play.untrusted import admit

__all__ = [
    "SimilarityRequest",
    "class_similarity",
    "compare_class",
    "write_similarity",
    "kit_boilerplate",
]

_ROOT = kit_path()  # starter/ lies here, in a checkout or an installed kit
_CODE = (".py", ".ipynb")
_MAX_FILE = 2 << 20  # bytes: a larger file is not a student's code


@dataclass(frozen=True)
class SimilarityRequest(ClassInputs):
    """A class to compare, as ``autograder similarity`` takes it (the rubric's zip name
    pattern finds netids)."""

    archives: tuple[str, ...] = ()  # earlier or public solutions, compared with the class only
    threshold: float = Settings.threshold  # flag a pair at this share of either side matched
    starter: bool = True  # the kit's starter is boilerplate
    answer_key: bool = False  # so is the kit's answer key (once it was handed out)
    ignore: tuple[str, ...] = ()  # more boilerplate: files or folders


def class_similarity(request: SimilarityRequest, listener: Listener) -> list[Path]:
    """The class in ``request.inputs`` compared and the report written into ``request.out``;
    the files written. What could not be read, and what was found, are said.

    :raises GraderError: for a bad setting or input, or an ``out`` that cannot be written.
    """
    assignment, rubric = loaded(request.assignment, request.rubric)
    threshold = request.threshold
    if not 0 < threshold <= 1:
        raise GraderError(f"--threshold must be a share between 0 and 1, got {threshold}")
    writable_folder(request.out)
    own = [Path(p) for p in request.ignore]
    ignore = [
        *kit_boilerplate(assignment, starter=request.starter, answer_key=request.answer_key),
        *own,
    ]
    comparison, problems = compare_class(
        [Path(p) for p in request.inputs],
        assignment,
        rubric.packaging_pattern,
        archives=[Path(p) for p in request.archives],
        ignore=ignore,
        settings=Settings(threshold=threshold),
    )
    for problem in problems:
        listener.say(f"skipped: {problem}")
    flagged = sum(p.flagged for p in comparison.pairs)
    archived = sum(d.archived for d in comparison.documents)
    listener.say(
        f"similarity: {len(comparison.documents) - archived} submissions compared with one "
        f"another and with {archived} archived; {flagged} pairs at or above "
        f"{threshold:.0%} flagged (no grade changed)"
    )
    if comparison.set_aside:
        listener.say(comparison.set_aside_line())
    title = f"{assignment.pack.title} ({assignment.name})"
    return write_similarity(comparison, request.out, title)


def kit_boilerplate(
    assignment: Assignment, *, starter: bool = True, answer_key: bool = False
) -> list[Path]:
    """The kit's starter files of ``assignment`` (every file of its starter folder), and with
    ``answer_key`` the answer key's.

    :raises GraderError: when they are not there.
    """
    folder = (_ROOT / assignment.pack.starter(assignment.variant)).parent
    found = _code_files(folder) if starter and folder.is_dir() else []
    if starter and not found:
        raise GraderError(
            f"the starter of {assignment.name} is not in {folder}; pass the course's starter "
            "with --ignore FILE and --no-starter"
        )
    if answer_key:
        key = _ROOT / "answer_key" / folder.relative_to(_ROOT / "starter")
        keys = _code_files(key) if key.is_dir() else []
        if not keys:
            raise GraderError(
                f"the kit has no answer key for {assignment.name} (looked in {key}); pass the "
                "files to ignore with --ignore FILE"
            )
        found += keys
    return found


def compare_class(
    inputs: Sequence[Path],
    assignment: Assignment,
    netid_pattern: str,
    *,
    archives: Sequence[Path] = (),
    ignore: Sequence[Path] = (),
    settings: Settings | None = None,
) -> tuple[Comparison, tuple[str, ...]]:
    """The class in ``inputs`` compared, with the files in ``ignore`` (the starter, say) as
    boilerplate and each folder of ``archives`` compared with the class only.

    :raises GraderError: when nobody is found, an archive is not a folder, or a file to
        ignore cannot be read.
    """
    settings = settings or Settings()
    labels: list[str] = []  # an archive's name in the report: its folder's, made unique
    for folder in archives:
        if not folder.exists():
            raise GraderError(f"--archive: {folder} does not exist; name a folder of solutions")
        if not folder.is_dir():
            raise GraderError(f"--archive: {folder} is not a folder; put the solutions in one")
        label = admit(folder.resolve().name, "file")
        labels.append(label if label not in labels else f"{label}-{len(labels) + 1}")
    homework = Homework(assignment.main_file, assignment.pack.files, assignment.pack, netid_pattern)
    with tempfile.TemporaryDirectory(prefix="teeko-similarity-") as work:
        given = [f for n, path in enumerate(ignore) for f in _ignored(path, Path(work) / f"i{n}")]
        handed = take_in(list(inputs), Path(work) / "class", homework)
        problems = list(handed.problems)
        if not handed.entries:
            raise GraderError("no submissions found in " + ", ".join(map(str, inputs)))
        documents = _documents(handed, "", settings, False)
        for number, (folder, label) in enumerate(zip(archives, labels, strict=True)):
            found = take_in([folder], Path(work) / f"archive{number}", homework)
            problems += [f"archive: {p}" for p in found.problems]
            if not found.entries:
                raise GraderError(f"--archive: {folder} holds no solutions (.py files or zips)")
            documents += _documents(found, f"{label}/", settings, True)
    return compare(documents, boilerplate(given, settings), settings), tuple(problems)


def _ignored(path: Path, work: Path) -> list[SourceFile]:
    """The code of a file or folder to treat as boilerplate, read as intake reads (no link).

    :raises GraderError: when it does not exist, cannot be read or holds no code."""
    if not path.exists():
        raise GraderError(f"--ignore: {path} does not exist; name a file or folder of code")
    label = f"--ignore: {path}"
    copy = work / path.name
    if path.is_dir():
        copy_tree(path, copy, Budget(label))
    else:
        work.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(read_file(path, label))
    files, notes = _read_tree(copy)
    if notes or not files:
        raise GraderError(f"--ignore: {path} holds no readable Python code")
    return files


def _documents(handed: HandIn, prefix: str, settings: Settings, archived: bool) -> list[Document]:
    return [
        _document(entry, raw_folder(handed, number), prefix + entry.student, settings, archived)
        for number, entry in enumerate(handed.entries)
    ]


def _document(
    entry: Entry, raw: Path | None, name: str, settings: Settings, archived: bool
) -> Document:
    """One submission's code as intake opened it; one that ``grade`` refuses (a notebook
    instead of ``game.py``, say) is compared on the code intake copied of it, with a note."""
    notes: list[str] = []
    if entry.submission is not None:
        files, problems = _read_tree(entry.submission.source_dir)
    else:
        files, problems = _read_tree(raw) if raw is not None else ([], [])
        notes.append(f"{entry.refused}; compared on the code it holds" if files else entry.refused)
    return fingerprint(name, files, settings, notes=[*notes, *problems], archived=archived)


def _code_files(folder: Path) -> list[Path]:
    return sorted(
        p
        for p in folder.rglob("*")
        if p.suffix in _CODE
        and p.is_file()
        and not any(is_junk(part) for part in p.relative_to(folder).parts)
    )


def _read_tree(path: Path) -> tuple[list[SourceFile], list[str]]:
    """The Python files and notebooks at ``path`` (a file or a folder), and what could not be
    read, one sentence each."""
    paths = [path] if path.is_file() else _code_files(path) if path.is_dir() else []
    base = path.parent if path.is_file() else path
    files: list[SourceFile] = []
    notes: list[str] = []
    for one in paths:
        name = str(one.relative_to(base))
        try:
            if one.stat().st_size > _MAX_FILE:
                notes.append(f"{name} is larger than {_MAX_FILE >> 20} MB; not compared")
                continue
            text = one.read_bytes().decode("utf-8", errors="replace")
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        except OSError as err:
            notes.append(f"{name} cannot be read ({err.strerror}); not compared")
            continue
        if one.suffix == ".ipynb":
            try:
                text = _notebook_text(one.read_bytes(), name)
            except GraderError as err:
                notes.append(f"{err}; not compared")
                continue
        files.append(SourceFile(name, text))
    if any(f.name.endswith(".ipynb") for f in files):  # the notebook itself, not intake's module
        made = [f for f in files if f.name.endswith(".py") and f.text.startswith(NOTEBOOK_HEADER)]
        files = [f for f in files if f not in made]
    return files, notes


def _notebook_text(data: bytes, name: str) -> str:
    """A notebook's code cells as one Python text, IPython's own lines blanked as grading
    blanks them (``without_magics``: they are not Python).

    :raises GraderError: when it is no notebook the intake reads."""
    cells = [c.replace("\r\n", "\n").replace("\r", "\n") for c in code_cells(data, name)]
    lines = [f"{NOTEBOOK_HEADER} {name}"]
    for number, cell in enumerate(cells, start=1):  # marked as grading marks them: cell N
        lines += [f"{CELL_MARK}{number}", without_magics(cell)[0]]
    return "\n".join(lines) + "\n"


def write_similarity(comparison: Comparison, out: Path, title: str) -> list[Path]:
    """``similarity.csv``, ``similarity.html`` and a page per flagged pair under ``pairs/``;
    pages of an earlier run that are not flagged now are removed.

    :raises GraderError: when ``out`` cannot be written.
    """
    by_name = {d.name: d for d in comparison.documents}
    flagged = [p for p in comparison.pairs if p.flagged]
    pages = {(p.a, p.b): pair_file(p) for p in flagged}
    written = [out / "similarity.csv", out / "similarity.html"]
    try:
        write_atomic(written[0], similarity_csv(comparison))
        write_atomic(written[1], similarity_html(comparison, title, pages))
        for pair in flagged:
            page = pair_html(pair, by_name[pair.a], by_name[pair.b], comparison, title)
            write_atomic(out / pages[(pair.a, pair.b)], page)
        keep = {out / page for page in pages.values()}
        for old in (out / "pairs").glob("*.html"):
            if old not in keep:
                old.unlink()
    except OSError as err:
        raise GraderError(f"cannot write into {out}: {err.strerror}") from None
    return written
