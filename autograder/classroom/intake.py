"""Turning what a student hands in (a file, a folder or a zip) into a private folder that holds
exactly the submission's files, the homework's main file (``game.py``) among them.

Archives are unpacked by hand, entry by entry, so nothing lands outside the work folder:
absolute paths, ``..``, symlinks, over-long names and a file and a folder of the same name are
refused, and size and entry count are capped. A folder is copied the same way (its symlinks
refused, not followed). A lone ``.py`` file brings only the modules beside it that it imports,
so a teaching assistant's ``check`` on one student's file never shows that student the files
sitting next to it.
"""

from __future__ import annotations

import ast
import os
import re
import stat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from autograder.classroom.notebook import from_notebook, from_script_export, is_script_export
from autograder.errors import GraderError
from autograder.games import (
    ASSIGNMENTS,
    defined_classes,
    find_assignment,
    infer_assignment,
    player_classes,
)
from autograder.games.layout import Layout
from autograder.games.pack import AnyPack, Assignment
from autograder.play.untrusted import admit

__all__ = [
    "Submission",
    "open_submission",
    "require_files",
    "choose_assignment",
    "main_file_of",
    "packaging_problems",
    "unnamed_files",
    "is_junk",
    "unpack",
    "MAX_UNPACKED",
    "MAX_ENTRIES",
]

MAX_UNPACKED = 50 << 20  # bytes, all entries together
MAX_ENTRIES = 500
MAX_NAME = 255  # bytes in one file or folder name, as most file systems allow
MAX_PATH = 1024  # characters in a path inside a submission
_JUNK = frozenset({"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"})


@dataclass(frozen=True)
class Submission:
    source_dir: Path  # the folder holding the main file (and any helper modules)
    label: str  # how reports name it
    archive: str | None = None  # the zip's name, when it came as a zip
    names: tuple[str, ...] = ()  # the files the zip held
    attached: tuple[str, ...] = ()  # files handed in beside it in the same attempt (Canvas)
    late: bool | None = None  # Canvas's LATE flag; None where nothing says (``check``)
    notes: tuple[str, ...] = ()  # what intake did that the report says: notebook cells not run


def is_junk(name: str) -> bool:
    """Whether a file or folder name is an operating system's or a tool's leftover (macOS
    resource forks and ``.DS_Store``, caches, hidden files): never a student's work."""
    hidden = name.startswith(".") and name not in (".", "..")
    return name in _JUNK or hidden or name.endswith(".pyc")


def _junk_path(name: str) -> bool:
    return any(is_junk(part) for part in PurePosixPath(name).parts)


def _find_main(root: Path, main: str, label: str) -> Path:
    """The folder holding ``main``: ``root`` itself or the single folder inside it that does."""
    if (root / main).is_file():
        return root
    found = [p.parent for p in root.rglob(main) if not _junk_path(str(p.relative_to(root)))]
    nested = [p for p in found if p.parent == root]
    if len(found) == 1 and nested:
        return found[0]
    if not found:
        return _missing(root, main, label)
    places = ", ".join(sorted(str(p.relative_to(root) / main) for p in found))
    raise GraderError(f"{label} holds several {main} files ({places}); submit exactly one")


def _missing(root: Path, main: str, label: str) -> Path:
    others = sorted(
        p.name for p in root.rglob("*") if p.is_file() and not _junk_path(str(p.relative_to(root)))
    )
    hint = f" (it holds {', '.join(others[:5])})" if others else " (it is empty)"
    books = [n for n in others if n.lower().endswith(".ipynb")]
    if len(books) > 1:
        hint += f"; it holds {len(books)} notebooks: hand in one"
    hint += next(  # another homework's folder, told by its marker file
        (
            f"; it is {a.interface.layout.kind}: grade it with --assignment {a.name}"
            for a in ASSIGNMENTS.values()
            if a.interface.layout is not None
            and a.main_file != main
            and any(name.endswith(a.interface.layout.marker) for name in others)
        ),
        "",
    )
    raise GraderError(f"{label} holds no {main}{hint}")


def _notebook_in(root: Path) -> Path | None:
    """The one notebook in ``root`` (at any depth, leftovers aside), or None."""
    found = [
        p
        for p in root.rglob("*")
        if p.is_file()
        and p.suffix.lower() == ".ipynb"
        and not _junk_path(str(p.relative_to(root)))
        and ".ipynb_checkpoints" not in p.parts
    ]
    return found[0] if len(found) == 1 else None


def _as_module(folder: Path, main: str, label: str, notebook: Path | None) -> tuple[str, ...]:
    """Turn ``notebook`` (else ``main``, when it is a script export) into ``folder/main``, its
    code cells in order; the report's notes on the cells left out."""
    target = folder / main
    if notebook is not None:
        made = from_notebook(notebook.read_bytes(), admit(notebook.name, "file"))
    else:
        try:
            text = target.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return ()  # the import reports an unreadable file, in its own words
        if not is_script_export(text):
            return ()
        made = from_script_export(text, main)
    target.write_text(made.source, "utf-8")
    return made.notes(admit(notebook.name if notebook else label, "file"))


def unpack(
    archive: Path,
    target: Path,
    main: str = "game.py",
    *,
    max_bytes: int = MAX_UNPACKED,
    max_entries: int = MAX_ENTRIES,
) -> list[str]:
    """Extract ``archive`` safely into ``target``; returns the names of the files it held.

    Nothing is written outside ``target``; junk (``__MACOSX/``, ``.DS_Store``, caches, hidden
    files) is skipped. ``main`` names the homework's file in the advice of a message.

    :raises GraderError: for an unreadable or damaged zip, an entry pointing outside (``..``,
        absolute), a symlink, more than ``max_entries`` entries or more than ``max_bytes``
        unpacked; files already written stay in ``target``.
    """
    label = admit(archive.name, "file")
    try:
        bundle = zipfile.ZipFile(archive)
    except zipfile.BadZipFile:
        raise GraderError(f"{label} is not a readable zip file; zip {main} again") from None
    except OSError as err:
        raise GraderError(f"cannot read {admit(str(archive), 'path')}: {err.strerror}") from None
    names: list[str] = []
    with bundle:
        entries = bundle.infolist()
        if len(entries) > max_entries:
            raise GraderError(f"{label} holds {len(entries)} entries; the limit is {max_entries}")
        total = 0
        for entry in entries:
            name = entry.filename
            path = PurePosixPath(name)
            if path.is_absolute() or ".." in path.parts or "\\" in name:
                raise GraderError(f"{label} holds the entry {name!r}, which points outside the zip")
            if _junk_path(name):
                continue
            _check_name(label, name, path.parts)
            if stat.S_ISLNK(entry.external_attr >> 16):
                raise GraderError(f"{label} holds the symlink {name!r}; zip the file itself")
            if entry.is_dir():
                continue
            total += entry.file_size
            if total > max_bytes:
                raise GraderError(
                    f"{label} unpacks to more than {max_bytes >> 20} MB; submit only {main}"
                )
            destination = target.joinpath(*path.parts)
            _make_parent(destination, target, label, name)
            try:
                with bundle.open(entry) as source, destination.open("xb") as sink:
                    _copy_capped(source, sink, entry.file_size, max_bytes, label)
            except (FileExistsError, IsADirectoryError):
                raise GraderError(
                    f"{label} holds {name!r} twice, or both as a file and as a folder; zip it again"
                ) from None
            except (
                zipfile.BadZipFile,
                OSError,
                EOFError,
                RuntimeError,
                NotImplementedError,
            ) as err:
                raise GraderError(f"{label} is damaged ({name!r}: {err}); zip it again") from None
            names.append(name)
    return names


def _check_name(label: str, name: str, parts: tuple[str, ...]) -> None:
    """Refuse a name no file system will take, before anything is written."""
    longest = max(parts, key=lambda part: len(part.encode()), default="")
    if len(longest.encode()) > MAX_NAME or len(name) > MAX_PATH:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise GraderError(
            f"{label} holds a file or folder with a name too long to unpack ({shown!r}); "
            f"keep names under {MAX_NAME} characters"
        )


def _make_parent(destination: Path, target: Path, label: str, name: str) -> None:
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise GraderError(
            f"{label} holds {str(PurePosixPath(name).parent)!r} both as a file and as a folder; "
            "zip it again"
        ) from None


def _copy_capped(source: IO[bytes], sink: IO[bytes], declared: int, cap: int, label: str) -> None:
    """Copy, trusting no header: an entry that inflates past its declared size is refused."""
    written = 0
    while chunk := source.read(1 << 16):
        written += len(chunk)
        if written > declared or written > cap:
            raise GraderError(f"{label} holds an entry larger than it declares; zip it again")
        sink.write(chunk)


def packaging_problems(
    submission: Submission, pattern: str, example: str, files: tuple[str, ...]
) -> list[str] | None:
    """What is wrong with how a zip was made: its name (``pattern``, told as ``example``) and
    anything beside the homework's ``files``; and files handed in beside it in the same
    attempt. None when the submission was no zip and came alone."""
    wanted = " and ".join(files)
    others = [name for name in submission.attached if name not in files]
    beside = (
        [f"the attempt also holds {', '.join(others)}; hand in only {wanted}"] if others else []
    )
    if submission.archive is None:
        return beside or None
    problems = beside
    if not re.fullmatch(pattern, submission.archive):
        problems.append(f"the zip is named {submission.archive!r}, not {example or pattern}")
    extra = sorted(n for n in submission.names if n not in files)
    if extra:
        problems.append(
            f"the zip should hold only {wanted} at its top level, but holds {extra[:5]}"
        )
    return problems


def unnamed_files(submission: Submission, files: tuple[str, ...]) -> tuple[str, ...]:
    """The files of the submission the homework does not name (``files``), as paths relative
    to its folder: reported under packaging ("also handed in: _ref/board.py"), never charged
    there, so that code handed in beside the homework's files is in sight of the grader."""
    root = submission.source_dir
    found = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not is_junk(d))
        for name in sorted(names):
            relative = (Path(folder) / name).relative_to(root).as_posix()
            if not is_junk(name) and relative not in files:
                found.append(relative)
    return tuple(found)


def _copy_folder(folder: Path, target: Path, label: str, budget: list[int]) -> None:
    """Copy ``folder``'s files into ``target``, hidden files and caches aside; ``budget`` holds
    the bytes and entries still allowed, shared by everything one submission copies.

    :raises GraderError: for a symlink, or a folder too large or with too many files.
    """
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not is_junk(d))
        here = Path(root)
        for name in [*dirs, *sorted(names)]:
            if is_junk(name):
                continue
            path = here / name
            shown = path.relative_to(folder.parent)
            if path.is_symlink():
                raise GraderError(
                    f"{label} holds the symbolic link {str(shown)!r}; submit the file"
                )
            if path.is_dir():
                continue
            _take(budget, path.stat().st_size, label, str(shown))
            destination = target / path.relative_to(folder)
            destination.parent.mkdir(parents=True, exist_ok=True)
            destination.write_bytes(path.read_bytes())


def _take(budget: list[int], size: int, label: str, name: str) -> None:
    budget[0] -= size
    budget[1] -= 1
    if budget[0] < 0:
        raise GraderError(
            f"{label} holds more than {MAX_UNPACKED >> 20} MB ({name!r} is {size >> 20} MB); "
            "submit only your homework's files and the modules they import"
        )
    if budget[1] < 0:
        raise GraderError(
            f"{label} holds more than {MAX_ENTRIES} files; submit only your homework's files"
        )


def _local_imports(source: bytes) -> set[str]:
    """Top-level names of the modules ``source`` imports, relative imports included."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()  # the runner reports the syntax error itself
    names: set[str] = set()
    for node in _statements(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
            elif node.level > 0:
                names.update([node.module.split(".")[0]] if node.module else [])
                names.update(alias.name for alias in node.names)
    return names


def _statements(tree: ast.Module) -> Iterator[ast.AST]:
    """Every statement of ``tree``, at any depth (in functions, classes, branches, handlers,
    cases): an import is a statement, and expressions hold none, so they are not walked."""
    pending: list[ast.AST] = list(tree.body)
    while pending:
        node = pending.pop()
        yield node
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                pending.extend(inner)


def _with_its_modules(
    path: Path, target: Path, main: str, label: str, companions: tuple[str, ...] = ()
) -> None:
    """``path`` as ``target/<main>``, the ``companions`` beside it (the homework's other
    files) and the modules beside it that any of them imports, recursively."""
    budget = [MAX_UNPACKED, MAX_ENTRIES]
    target.mkdir(parents=True, exist_ok=True)
    _take(budget, path.stat().st_size, label, path.name)
    pending = [(path, target / main)]
    seen = {path.resolve()}
    for name in companions:
        beside = path.parent / name
        if beside.is_file() and not beside.is_symlink() and beside.resolve() not in seen:
            seen.add(beside.resolve())
            _take(budget, beside.stat().st_size, label, name)
            pending.append((beside, target / name))
    while pending:
        source, destination = pending.pop()
        data = source.read_bytes()
        destination.write_bytes(data)
        for name in sorted(_local_imports(data)):
            module, package = path.parent / f"{name}.py", path.parent / name
            if module.is_file() and not module.is_symlink() and module.resolve() not in seen:
                seen.add(module.resolve())
                _take(budget, module.stat().st_size, label, module.name)
                pending.append((module, target / module.name))
            elif package.is_dir() and not package.is_symlink() and package.resolve() not in seen:
                seen.add(package.resolve())
                _copy_folder(package, target / name, label, budget)


def open_submission(
    path: Path, workdir: Path, main: str = "game.py", files: tuple[str, ...] = ()
) -> Submission:
    """A private folder in ``workdir`` holding exactly the submission in ``path`` (a .py file,
    a folder or a zip) with the homework's ``main`` file, and how reports name it. A .py file
    brings the homework's other ``files`` from beside it (the book's four), and any of them
    names the homework whose ``main`` lies beside it.

    :raises GraderError: when there is nothing gradable, in one sentence saying what to submit.
    """
    if not path.exists():
        raise GraderError(f"{path} does not exist")
    label = admit(str(path), "path")
    target = workdir / "submission"
    try:
        if path.is_dir():
            _copy_folder(path, target, label, [MAX_UNPACKED, MAX_ENTRIES])
            target.mkdir(parents=True, exist_ok=True)
            found, notes = _main_or_notebook(target, main, label)
            return Submission(found, label, notes=notes)
        if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip":
            target.mkdir(parents=True, exist_ok=True)
            names = unpack(path, target, main)
            found, notes = _main_or_notebook(target, main, admit(path.name, "file"))
            kept = tuple(admit(name, "file") for name in names)
            return Submission(found, label, admit(path.name, "file"), kept, notes=notes)
        if path.suffix.lower() == ".ipynb":
            target.mkdir(parents=True, exist_ok=True)
            notes = _as_module(target, main, label, path)
            return Submission(target, f"{label} (graded as {main})", notes=notes)
        if path.suffix == ".py":
            if path.name != main and path.name in files and (path.parent / main).is_file():
                path = path.parent / main
            _with_its_modules(path, target, main, label, files)
            shown = label if path.name == main else f"{label} (graded as {main})"
            return Submission(target, shown, notes=_as_module(target, main, path.name, None))
    except OSError as err:
        raise GraderError(f"cannot read {label}: {err.strerror or err}") from None
    raise GraderError(
        f"{label} is not a {main}, a notebook, a folder or a zip; submit {main} or your notebook"
    )


def _main_or_notebook(target: Path, main: str, label: str) -> tuple[Path, tuple[str, ...]]:
    """The folder holding ``main`` (made of the one notebook there when there is no ``main``,
    or as the homework's layout makes it: a Processing sketch's ``.pyde``), and the report's
    notes on what intake did."""
    notebook = None
    if not any(p.is_file() for p in target.rglob(main)):
        notebook = _notebook_in(target)
        layout = _layout(main)
        if notebook is None and layout is not None:
            laid = _main_from_layout(target, main, label, layout)
            if laid is not None:
                return laid
    if notebook is not None:
        return notebook.parent, _as_module(notebook.parent, main, label, notebook)
    found = _find_main(target, main, label)
    return found, _as_module(found, main, label, None)


def _layout(main: str) -> Layout | None:
    """The layout declared by the homework whose submissions import ``main`` first, if any."""
    layouts = (a.interface.layout for a in ASSIGNMENTS.values() if a.main_file == main)
    return next((layout for layout in layouts if layout is not None), None)


def _main_from_layout(
    root: Path, main: str, label: str, layout: Layout
) -> tuple[Path, tuple[str, ...]] | None:
    """``main`` made by ``layout`` in the folder of the one marker file in ``root`` (at any
    depth, leftovers aside); the folder and the report's note. None when there is no marker
    file, or the layout makes no ``main`` of its folder.

    :raises GraderError: when the layout says a file is misnamed."""
    found = [
        p
        for p in root.rglob(f"*{layout.marker}")
        if p.is_file() and not _junk_path(str(p.relative_to(root)))
    ]
    if len(found) != 1:
        return None
    marker, folder = found[0], found[0].parent
    files = {p.name: p.read_bytes() for p in sorted(folder.glob("*.py")) if p.is_file()}
    files[marker.name] = marker.read_bytes()
    try:
        made = layout.main_from(marker.name, files, main, lambda name: admit(name, "file"))
    except ValueError as err:
        raise GraderError(f"{label}: {err}") from None
    if made is None:
        return None
    (folder / main).write_bytes(made[0])
    return folder, (made[1],)


def require_files(submission: Submission, pack: AnyPack) -> None:
    """Refuse a submission that lacks one of the homework's files (the book's four), in one
    sentence naming it and what to hand in.

    :raises GraderError: when the pack says a file is missing.
    """
    sources = {}
    try:
        for found in sorted(submission.source_dir.glob("*.py")):
            if found.is_file() and not found.is_symlink():
                sources[found.name] = found.read_bytes()
    except OSError as err:
        raise GraderError(f"cannot read {submission.label}: {err.strerror or err}") from None
    problem = pack.missing(sources)
    if problem is not None:
        raise GraderError(f"{submission.label}: {problem}")


def holds_files(path: Path, files: tuple[str, ...]) -> bool:
    """Whether ``path`` (a .py file, a folder or a zip) is a submission of a game whose
    submissions hold ``files``: it is one of them, or holds the first (the one imported)."""
    main, layout = files[0], _layout(files[0])
    try:
        if path.is_dir():
            if layout is not None and any(p.is_file() for p in path.rglob(f"*{layout.marker}")):
                return True  # marked as the homework's, whatever its files are named
            return any(found.is_file() for found in path.rglob(main))
        if path.suffix.lower() == ".zip" and zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                names = [PurePosixPath(n).name for n in archive.namelist()]
            if layout is not None and any(n.endswith(layout.marker) for n in names):
                return True
            return main in names
    except (OSError, zipfile.BadZipFile):
        return False
    return path.name in files


def main_file_of(submission: Path) -> str:
    """The file an unnamed submission must hold: the first game's (``game.py``) unless the
    submission holds another homework's files (the first of them imported) or its marker."""
    # the games' own homeworks are tried first, then other courses' interfaces to them: a
    # folder holding a game's homework stays that homework when it also holds, by chance, a
    # file named as an interface's main module
    assignments = sorted(ASSIGNMENTS.values(), key=lambda a: bool(a.interface.name))
    packs = [a.pack for a in assignments]
    for pack in packs[1:]:
        if pack.files[0] != packs[0].files[0] and holds_files(submission, pack.files):
            return pack.files[0]
    return packs[0].files[0]


def choose_assignment(
    name: str | None, submission: Submission, main: str
) -> tuple[Assignment, str | None]:
    """The assignment ``name`` (when given), else the one whose player class the submission's
    ``main`` file defines; with a sentence saying it was inferred (None when it was given).

    :raises GraderError: for an unknown name, or when no known player class is defined.
    """
    if name:
        try:
            return find_assignment(name), None
        except KeyError as err:
            raise GraderError(f"--assignment: {err}") from None
    owners = [a for a in ASSIGNMENTS.values() if a.main_file == main]
    if len(owners) == 1:  # the only game whose submissions import this file
        return owners[0], f"assignment {owners[0].name} inferred from {main}"
    try:
        text = (submission.source_dir / main).read_bytes()
    except OSError as err:
        raise GraderError(f"cannot read {main}: {err.strerror}") from None
    found = infer_assignment(text, main)
    if found is None:
        classes = ", ".join(defined_classes(text)) or "none"
        raise GraderError(
            f"cannot tell the assignment: {main} defines no {' or '.join(player_classes(main))} "
            f"(classes found: {classes}); pass --assignment"
        )
    return found
