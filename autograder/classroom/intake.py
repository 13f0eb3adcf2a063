"""Turning what a student hands in (a file, a folder, a zip or a notebook) into a private folder
that holds exactly the submission's files, the homework's main file (``game.py``) among them.

Everything is read by :mod:`~autograder.classroom.reading`: no symbolic link is followed (a link
is refused in one sentence), archives are unpacked entry by entry with absolute paths, ``..``,
links, over-long names and a file and a folder of the same name refused, and size and entry
count capped. A lone ``.py`` file brings only the modules beside it that it imports, so a
teaching assistant's ``check`` on one student's file never shows that student the files sitting
next to it. After this module, nothing reads what the student handed in again: every command
works on the folder made here.
"""

from __future__ import annotations

import ast
import os
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath

from autograder.classroom.notebook import (
    Converted,
    from_notebook,
    from_script_export,
    is_script_export,
)
from autograder.classroom.reading import (
    MAX_ENTRIES,
    MAX_UNPACKED,
    Budget,
    copy_tree,
    holds_code,
    is_junk,
    junk_path,
    kind,
    open_zip,
    read_file,
    unpack,
)
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


@dataclass(frozen=True)
class Submission:
    source_dir: Path  # the folder holding the main file (and any helper modules)
    label: str  # how reports name it
    archive: str | None = None  # the zip's name, when it came as a zip
    names: tuple[str, ...] = ()  # the files the zip held
    attached: tuple[str, ...] = ()  # files handed in beside it in the same attempt (Canvas)
    late: bool | None = None  # Canvas's LATE flag; None where nothing says (``check``)
    notes: tuple[str, ...] = ()  # what intake did that the report says: notebook cells not run
    main: str = "game.py"  # the homework's main file, in source_dir


def _find_main(root: Path, main: str, label: str) -> Path:
    """The folder holding ``main`` nearest ``root``, when no other is as near: ``root``
    itself, ``hw8/`` beside an ``hw8/old/``, or the one folder however deep
    (``Users/bob/Desktop/hw8/``)."""
    if (root / main).is_file():
        return root
    found = [p.parent for p in root.rglob(main) if not junk_path(str(p.relative_to(root)))]
    if not found:
        return _missing(root, main, label)
    depth = min(len(p.relative_to(root).parts) for p in found)
    nearest = [p for p in found if len(p.relative_to(root).parts) == depth]
    if len(nearest) == 1:
        return nearest[0]
    places = ", ".join(sorted(str(p.relative_to(root) / main) for p in found))
    raise GraderError(f"{label} holds several {main} files ({places}); submit exactly one")


def _missing(root: Path, main: str, label: str) -> Path:
    others = sorted(
        p.name for p in root.rglob("*") if p.is_file() and not junk_path(str(p.relative_to(root)))
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
        and not junk_path(str(p.relative_to(root)))
        and ".ipynb_checkpoints" not in p.parts
    ]
    return found[0] if len(found) == 1 else None


def _as_module(folder: Path, main: str, label: str, notebook: Path | None) -> tuple[str, ...]:
    """Turn ``notebook`` (else ``main``, when it is a script export) into ``folder/main``, its
    code cells in order; the report's notes on the cells left out."""
    target = folder / main
    if notebook is not None:
        shown = admit(notebook.name, "file")
        return _place_notebook(from_notebook(notebook.read_bytes(), shown), folder, main, shown)
    try:
        text = target.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return ()  # the import reports an unreadable file, in its own words
    if not is_script_export(text):
        return ()
    made = from_script_export(text, main)
    target.write_text(made.source, "utf-8")
    return made.notes(admit(label, "file"))


def _place_notebook(made: Converted, folder: Path, main: str, shown: str) -> tuple[str, ...]:
    """Write the files the notebook's ``%%writefile`` cells write into ``folder``, as running
    it does (not over a file handed in), and ``main``: the one a cell writes, else the module
    of its cells. The report's notes on what was done."""
    notes: list[str] = []
    files = made.files()
    if len(files) > MAX_ENTRIES:
        raise GraderError(
            f"{shown} writes {len(files)} files with %%writefile; a submission holds at most "
            f"{MAX_ENTRIES} files: write only those your homework needs"
        )
    for name, text in files.items():
        numbers = [str(w.cell) for w in made.written if w.name == name]
        cells = f"cell{'s' if len(numbers) > 1 else ''} {', '.join(numbers)}"
        place = folder / name
        if os.path.lexists(place):
            kept = f"{name}, written by {cells}, was handed in too: kept as handed in"
            notes.append(f"{shown}: {kept}")
            continue
        place.write_text(text, "utf-8")
        if name == main:
            return (f"{shown}: graded the {main} written by {cells} (%%writefile)",)
        notes.append(f"{shown}: {name}, written by {cells} (%%writefile), is put beside it")
    (folder / main).write_text(made.source, "utf-8")
    return (*made.notes(shown), *notes)


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
                found.append(admit(relative, "path"))
    return tuple(found)


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
    path: Path, target: Path, main: str, budget: Budget, companions: tuple[str, ...] = ()
) -> None:
    """``path`` as ``target/<main>``, the ``companions`` beside it (the homework's other
    files) and the modules beside it that any of them imports, recursively; each read without
    following a link."""
    target.mkdir(parents=True, exist_ok=True)
    folder, label = path.parent, budget.label
    pending = [(read_file(path, label, budget), target / main)]
    seen = {path.name}
    for name in companions:
        if name not in seen and kind(folder / name) == "file":
            seen.add(name)
            pending.append((read_file(folder / name, label, budget), target / name))
    while pending:
        data, destination = pending.pop()
        destination.write_bytes(data)
        for name in sorted(_local_imports(data)):
            module, package = f"{name}.py", folder / name
            if module not in seen and kind(folder / module) == "file":
                seen.add(module)
                pending.append((read_file(folder / module, label, budget), target / module))
            elif name not in seen and kind(package) == "folder":
                seen.add(name)
                copy_tree(package, target / name, budget, f"{path.parent.name}/{name}")


def open_submission(
    path: Path,
    workdir: Path,
    main: str = "game.py",
    files: tuple[str, ...] = (),
    label: str | None = None,
) -> Submission:
    """A private folder in ``workdir`` holding exactly the submission in ``path`` (a .py file,
    a folder, a zip or a notebook) with the homework's ``main`` file, and how reports name it
    (``label``, default: the path). A .py file brings the homework's other ``files`` from
    beside it (the book's four), and any of them names the homework whose ``main`` lies beside
    it. Nothing is read through a symbolic link; what was copied stays in
    ``workdir/submission`` even when it cannot be graded.

    :raises GraderError: when there is nothing gradable, in one sentence saying what to submit.
    """
    label = label or admit(str(path), "path")
    what = kind(path)
    if what == "missing":
        raise GraderError(f"{label} does not exist")
    if what == "link":
        raise GraderError(f"{label} is a symbolic link; the grader reads no link: hand in the file")
    if what == "other":
        raise GraderError(f"{label} is not a regular file; hand in {main}, a folder or a zip")
    target = workdir / "submission"
    try:
        return replace(_open(path, what, target, main, files, label), main=main)
    except OSError as err:
        raise GraderError(f"cannot read {label}: {err.strerror or err}") from None


def _open(
    path: Path, what: str, target: Path, main: str, files: tuple[str, ...], label: str
) -> Submission:
    budget = Budget(label, main)
    if what == "folder":
        copy_tree(path, target, budget, path.name)
        found, notes = _main_or_notebook(target, main, label)
        return Submission(found, label, notes=notes)
    if _is_zip(path):
        target.mkdir(parents=True, exist_ok=True)
        names = unpack(path, target, main)
        found, notes = _main_or_notebook(target, main, admit(path.name, "file"))
        kept = tuple(admit(name, "path") for name in names)
        return Submission(found, label, admit(path.name, "file"), kept, notes=notes)
    if path.suffix.lower() == ".ipynb":
        target.mkdir(parents=True, exist_ok=True)
        shown = admit(path.name, "file")
        made = from_notebook(read_file(path, label, budget), shown)
        notes = _place_notebook(made, target, main, shown)
        return Submission(target, f"{label} (graded as {main})", notes=notes)
    if path.suffix == ".py":
        if path.name != main and path.name in files and kind(path.parent / main) == "file":
            path = path.parent / main
        _with_its_modules(path, target, main, budget, files)
        shown = label if path.name == main else f"{label} (graded as {main})"
        notes = _as_module(target, main, admit(path.name, "file"), None)
        return Submission(target, shown, notes=notes)
    raise GraderError(
        f"{label} is not a {main}, a notebook, a folder or a zip; submit {main} or your notebook"
    )


def _is_zip(path: Path) -> bool:
    if path.suffix.lower() == ".zip":
        return True
    try:
        with open_zip(path, "") as bundle:
            return bundle is not None
    except (zipfile.BadZipFile, GraderError, OSError, ValueError):
        return False


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
        if p.is_file() and not junk_path(str(p.relative_to(root)))
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
        what = kind(path)
        if what == "folder":
            if layout is not None and holds_code(path, (layout.marker,)):
                return True  # marked as the homework's, whatever its files are named
            return holds_code(path, name=main)
        if what == "file" and path.suffix.lower() == ".zip":
            with open_zip(path, "") as archive:
                names = [PurePosixPath(n).name for n in archive.namelist()]
            if layout is not None and any(n.endswith(layout.marker) for n in names):
                return True
            return main in names
    except (OSError, zipfile.BadZipFile, GraderError):
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
