"""Turning what a student hands in (a game.py, a folder or a zip) into a folder holding game.py.

Archives are unpacked by hand, entry by entry, so nothing lands outside the work folder:
absolute paths, ``..`` and symlinks are refused, and size and entry count are capped.
"""

from __future__ import annotations

import re
import shutil
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from autograder.errors import GraderError
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
            destination.parent.mkdir(parents=True, exist_ok=True)
            try:
                with bundle.open(entry) as source, destination.open("wb") as sink:
                    _copy_capped(source, sink, entry.file_size, max_bytes, label)
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


def open_submission(path: Path, workdir: Path, packaging_pattern: str) -> Submission:
    """The folder to grade for ``path`` (a .py file, a folder or a zip), unpacking into ``workdir``.

    :raises GraderError: when there is nothing gradable, in one sentence saying what to submit.
    """
    if not path.exists():
        raise GraderError(f"{path} does not exist")
    label = str(path)
    if path.is_dir():
        return Submission(_find_game(path, label), label, None)
    if zipfile.is_zipfile(path) or path.suffix.lower() == ".zip":
        target = workdir / "unpacked"
        target.mkdir(parents=True, exist_ok=True)
        names = unpack(path, target)
        problems = _packaging_problems(path, names, packaging_pattern)
        return Submission(_find_game(target, path.name), label, problems)
    if path.suffix == ".py":
        if path.name == "game.py":
            return Submission(path.parent, label, None)
        copy = workdir / "renamed"
        copy.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, copy / "game.py")
        return Submission(copy, f"{label} (graded as game.py)", None)
    raise GraderError(f"{path} is not a game.py, a folder or a zip; submit game.py")


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
