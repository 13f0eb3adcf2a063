"""Turning what a student hands in (a game.py, a folder or a zip) into a private folder that
holds exactly the submission's files, game.py among them.

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
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from autograder.errors import GraderError
from autograder.untrusted import clean
from autograder.variants import VARIANTS, Variant, find_variant

__all__ = [
    "Submission",
    "open_submission",
    "infer_variant",
    "unpack",
    "MAX_UNPACKED",
    "MAX_ENTRIES",
]

MAX_UNPACKED = 50 << 20  # bytes, all entries together
MAX_ENTRIES = 500
MAX_NAME = 255  # bytes in one file or folder name, as most file systems allow
MAX_PATH = 1024  # characters in a path inside a submission
_IGNORED = ("__MACOSX/", ".DS_Store", "__pycache__/")


@dataclass(frozen=True)
class Submission:
    source_dir: Path  # the folder holding game.py (and any helper modules)
    label: str  # how reports name it
    packaging: list[str] | None  # problems with the zip; None when it was not a zip


def _ignored(name: str) -> bool:
    return any(part in name for part in _IGNORED) or name.endswith(".pyc")


def _find_game(root: Path, label: str) -> Path:
    """The folder holding game.py: ``root`` itself or the single folder inside it that does."""
    if (root / "game.py").is_file():
        return root
    found = [p.parent for p in root.rglob("game.py") if not _ignored(str(p.relative_to(root)))]
    nested = [p for p in found if p.parent == root]
    if len(found) == 1 and nested:
        return found[0]
    if not found:
        return _missing(root, label)
    places = ", ".join(sorted(str(p.relative_to(root) / "game.py") for p in found))
    raise GraderError(f"{label} holds several game.py files ({places}); submit exactly one")


def _missing(root: Path, label: str) -> Path:
    others = sorted(p.name for p in root.rglob("*") if p.is_file() and not _ignored(str(p)))
    hint = f" (it holds {', '.join(others[:5])})" if others else " (it is empty)"
    if any(name.endswith(".ipynb") for name in others):
        hint += "; a notebook is not accepted: export it to game.py"
    raise GraderError(f"{label} holds no game.py{hint}")


def unpack(
    archive: Path, target: Path, *, max_bytes: int = MAX_UNPACKED, max_entries: int = MAX_ENTRIES
) -> list[str]:
    """Extract ``archive`` safely into ``target``; returns the names of the files it held.

    Nothing is written outside ``target``; ``__MACOSX/``, ``.DS_Store`` and caches are skipped.

    :raises GraderError: for an unreadable or damaged zip, an entry pointing outside (``..``,
        absolute), a symlink, more than ``max_entries`` entries or more than ``max_bytes``
        unpacked; files already written stay in ``target``.
    """
    label = archive.name
    try:
        bundle = zipfile.ZipFile(archive)
    except zipfile.BadZipFile:
        raise GraderError(f"{label} is not a readable zip file; zip game.py again") from None
    except OSError as err:
        raise GraderError(f"cannot read {archive}: {err.strerror}") from None
    names: list[str] = []
    with bundle:
        entries = bundle.infolist()
        if len(entries) > max_entries:
            raise GraderError(f"{label} holds {len(entries)} entries; the limit is {max_entries}")
        total = 0
        for entry in entries:
            name = entry.filename
            if _ignored(name):
                continue
            path = PurePosixPath(name)
            if path.is_absolute() or ".." in path.parts or "\\" in name:
                raise GraderError(f"{label} holds the entry {name!r}, which points outside the zip")
            _check_name(label, name, path.parts)
            if stat.S_ISLNK(entry.external_attr >> 16):
                raise GraderError(f"{label} holds the symlink {name!r}; zip the file itself")
            if entry.is_dir():
                continue
            total += entry.file_size
            if total > max_bytes:
                raise GraderError(
                    f"{label} unpacks to more than {max_bytes >> 20} MB; submit only game.py"
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


def _packaging_problems(archive: Path, names: list[str], pattern: str) -> list[str]:
    problems = []
    if not re.fullmatch(pattern, archive.name):
        problems.append(f"the zip is named {archive.name!r}, not hw8_<netid>.zip")
    extra = sorted(n for n in names if n != "game.py")
    if extra:
        problems.append(f"the zip should hold only game.py at its top level, but holds {extra[:5]}")
    return problems


def _junk_part(name: str) -> bool:
    return name.startswith(".") or name in ("__pycache__", "__MACOSX") or name.endswith(".pyc")


def _copy_folder(folder: Path, target: Path, label: str, budget: list[int]) -> None:
    """Copy ``folder``'s files into ``target``, hidden files and caches aside; ``budget`` holds
    the bytes and entries still allowed, shared by everything one submission copies.

    :raises GraderError: for a symlink, or a folder too large or with too many files.
    """
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not _junk_part(d))
        here = Path(root)
        for name in [*dirs, *sorted(names)]:
            if _junk_part(name):
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
            "submit only game.py and the modules it imports"
        )
    if budget[1] < 0:
        raise GraderError(f"{label} holds more than {MAX_ENTRIES} files; submit only game.py")


def _local_imports(source: bytes) -> set[str]:
    """Top-level names of the modules ``source`` imports, relative imports included."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return set()  # the runner reports the syntax error itself
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
            elif node.level > 0:
                names.update([node.module.split(".")[0]] if node.module else [])
                names.update(alias.name for alias in node.names)
    return names


def _with_its_modules(path: Path, target: Path, label: str) -> None:
    """``path`` as ``target/game.py``, and the modules beside it that it imports, recursively."""
    budget = [MAX_UNPACKED, MAX_ENTRIES]
    target.mkdir(parents=True, exist_ok=True)
    _take(budget, path.stat().st_size, label, path.name)
    pending = [(path, target / "game.py")]
    seen = {path.resolve()}
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


def open_submission(path: Path, workdir: Path, packaging_pattern: str) -> Submission:
    """A private folder in ``workdir`` holding exactly the submission in ``path`` (a .py file,
    a folder or a zip), and how reports name it.

    :raises GraderError: when there is nothing gradable, in one sentence saying what to submit.
    """
    if not path.exists():
        raise GraderError(f"{path} does not exist")
    label = clean(str(path), 300)
    target = workdir / "submission"
    try:
        if path.is_dir():
            _copy_folder(path, target, label, [MAX_UNPACKED, MAX_ENTRIES])
            target.mkdir(parents=True, exist_ok=True)
            return Submission(_find_game(target, label), label, None)
        if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip":
            target.mkdir(parents=True, exist_ok=True)
            names = unpack(path, target)
            problems = _packaging_problems(path, names, packaging_pattern)
            return Submission(_find_game(target, clean(path.name, 300)), label, problems)
        if path.suffix == ".py":
            _with_its_modules(path, target, label)
            shown = label if path.name == "game.py" else f"{label} (graded as game.py)"
            return Submission(target, shown, None)
    except OSError as err:
        raise GraderError(f"cannot read {label}: {err.strerror or err}") from None
    raise GraderError(f"{label} is not a game.py, a folder or a zip; submit game.py")


_CLASS = re.compile(rb"^\s*class\s+(\w+)", re.MULTILINE)


def infer_variant(source_dir: Path) -> tuple[Variant, str]:
    """The variant named by the player class in game.py, and a sentence saying how it was chosen.

    :raises GraderError: when no known player class is defined.
    """
    try:
        text = (source_dir / "game.py").read_bytes()
    except OSError as err:
        raise GraderError(f"cannot read {source_dir / 'game.py'}: {err.strerror}") from None
    classes = [m.decode("ascii", "replace") for m in _CLASS.findall(text)]
    by_class: dict[str, Variant] = {}
    for variant in VARIANTS.values():
        by_class.setdefault(variant.player_class, variant)
    for name in classes:
        if name in by_class:
            variant = find_variant(by_class[name].name)
            return variant, f"assignment {variant.name} inferred from class {name}"
    known = " or ".join(by_class)
    found = ", ".join(classes) or "none"
    raise GraderError(
        f"cannot tell the assignment: game.py defines no {known} (classes found: {found}); "
        "pass --assignment"
    )
