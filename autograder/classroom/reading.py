"""What is handed in, read without ever following a symbolic link.

Every file of a submission the kit reads is opened with ``O_NOFOLLOW`` and must be a regular
file; every folder it walks is opened the same way and listed without following its entries,
each one opened relative to its folder's descriptor, so no link anywhere below what the
instructor named -- to a file or a folder, pointing inside or outside -- is ever read through,
even one swapped in while the kit reads. A link is refused in one sentence. Sizes and counts
are capped by a :class:`Budget` shared by everything one submission brings. Archives are
unpacked by hand, entry by entry, so nothing lands outside the work folder.

The path the instructor typed is taken as given (a link there is the instructor's own); only
what lies below it is read this way.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from autograder.errors import GraderError
from autograder.play.untrusted import admit

__all__ = [
    "fitted",
    "Budget",
    "MAX_UNPACKED",
    "MAX_ENTRIES",
    "MAX_NAME",
    "is_junk",
    "junk_path",
    "kind",
    "listing",
    "read_file",
    "open_zip",
    "copy_tree",
    "holds_code",
    "unpack",
    "quoted",
]

MAX_UNPACKED = 50 << 20  # bytes, everything one submission brings together
MAX_ENTRIES = 500
MAX_NAME = 255  # bytes in one file or folder name, as most file systems allow
MAX_PATH = 1024  # characters in a path inside a submission
_JUNK = frozenset({"__MACOSX", "__pycache__", "Thumbs.db", "desktop.ini"})
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_LINK_ERRORS = frozenset({errno.ELOOP, errno.EMLINK})  # what O_NOFOLLOW says of a link
_FILE_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
_DIR_FLAGS = os.O_RDONLY | _NOFOLLOW | getattr(os, "O_DIRECTORY", 0)
# Folders walked through descriptors (POSIX): an entry is opened relative to its folder, so a
# folder swapped for a link after it was listed is never followed. Elsewhere (Windows), by path,
# each entry checked with lstat first.
_AT = bool(_NOFOLLOW) and os.open in os.supports_dir_fd and os.scandir in os.supports_fd


def is_junk(name: str) -> bool:
    """Whether a file or folder name is an operating system's or a tool's leftover (macOS
    resource forks and ``.DS_Store``, caches, hidden files): never a student's work."""
    hidden = name.startswith(".") and name not in (".", "..")
    return name in _JUNK or hidden or name.endswith(".pyc")


def junk_path(name: str) -> bool:
    return any(is_junk(part) for part in PurePosixPath(name).parts)


class Budget:
    """The bytes and files one submission may still bring; ``label`` names it in messages,
    ``main`` is the homework's file in the advice."""

    def __init__(
        self,
        label: str,
        main: str = "game.py",
        size: int = MAX_UNPACKED,
        entries: int = MAX_ENTRIES,
    ) -> None:
        self.label, self.main = label, main
        self.size, self.entries = size, entries
        self._left = [size, entries]

    @property
    def left(self) -> int:
        """Bytes still allowed."""
        return max(self._left[0], 0)

    def take(self, size: int, name: str) -> None:
        """Count one file of ``size`` bytes.

        :raises GraderError: past either cap, naming the file."""
        self._left[0] -= size
        self._left[1] -= 1
        if self._left[0] < 0:
            raise GraderError(
                f"{self.label} holds more than {self.size >> 20} MB ({quoted(name)} is "
                f"{size >> 20} MB); submit only your homework's files and the modules they import"
            )
        if self._left[1] < 0:
            raise GraderError(
                f"{self.label} holds more than {self.entries} files; submit only your "
                "homework's files"
            )


def kind(path: Path) -> str:
    """``"file"``, ``"folder"``, ``"link"``, ``"other"`` (a pipe, a device) or ``"missing"``:
    what ``path`` itself is, its link never followed."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "missing"
    if stat.S_ISLNK(mode):
        return "link"
    return "folder" if stat.S_ISDIR(mode) else "file" if stat.S_ISREG(mode) else "other"


def _entry_kind(entry: os.DirEntry[str]) -> str:
    if entry.is_symlink():
        return "link"
    if entry.is_dir(follow_symlinks=False):
        return "folder"
    return "file" if entry.is_file(follow_symlinks=False) else "other"


def quoted(name: str) -> str:
    """A name from outside, through the text gate, in quotes for a sentence."""
    return f"'{admit(name, 'path')}'"


def _refuse(label: str, what: str, name: str) -> GraderError:
    if what == "link":
        link = quoted(name)
        return GraderError(f"{label} holds the symbolic link {link}; submit the file itself")
    return GraderError(f"{label} holds {quoted(name)}, which is not a regular file; submit files")


@contextlib.contextmanager
def _folder(path: Path, parent: int | None = None) -> Iterator[int | Path]:
    """A folder to list and open in: its descriptor (opened without following a link, relative
    to ``parent`` when given), or on Windows its path."""
    if not _AT:
        yield path
        return
    fd = os.open(path.name if parent is not None else path, _DIR_FLAGS, dir_fd=parent)
    try:
        yield fd
    finally:
        os.close(fd)


def _entries(folder: int | Path) -> list[tuple[str, str]]:
    """(name, kind) of each entry of an opened folder, sorted, links not followed."""
    with os.scandir(folder) as found:
        listed = [(entry.name, _entry_kind(entry)) for entry in found]
    return sorted(listed)


def listing(folder: Path) -> list[tuple[Path, str]]:
    """The entries of ``folder`` with their kinds (:func:`kind`), sorted, junk aside.

    :raises OSError: when it cannot be listed."""
    with _folder(folder) as opened:
        return [(folder / name, what) for name, what in _entries(opened) if not is_junk(name)]


def _read(name: str, folder: int | Path | None, budget: Budget, shown: str) -> bytes:
    """The bytes of the regular file ``name`` (in the opened ``folder``, else a path), counted
    in ``budget``; never through a link.

    :raises GraderError: for a link, anything but a regular file, or past the budget.
    :raises OSError: when it cannot be read."""
    try:
        if folder is None or isinstance(folder, Path):
            path = Path(name) if folder is None else folder / name
            if not _NOFOLLOW and kind(path) == "link":  # no O_NOFOLLOW (Windows): look first
                raise OSError(errno.ELOOP, "a symbolic link")
            fd = os.open(path, _FILE_FLAGS)
        else:
            fd = os.open(name, _FILE_FLAGS, dir_fd=folder)
    except OSError as err:
        if err.errno in _LINK_ERRORS:
            raise _refuse(budget.label, "link", shown) from None
        raise
    with os.fdopen(fd, "rb") as handle:
        status = os.fstat(handle.fileno())
        if not stat.S_ISREG(status.st_mode):
            raise _refuse(budget.label, "other", shown)
        if status.st_size > budget.left:
            budget.take(status.st_size, shown)  # raises, naming the file and its size
        data = handle.read(budget.left + 1)  # a file growing as it is read counts whole
    budget.take(len(data), shown)
    return data


def read_file(path: Path, label: str, budget: Budget | None = None, shown: str = "") -> bytes:
    """The bytes of the regular file ``path``, never through a link; counted in ``budget``
    (default: a submission's whole allowance).

    :raises GraderError: for a link, anything but a regular file, or past the budget."""
    try:
        return _read(str(path), None, budget or Budget(label), shown or path.name)
    except OSError as err:
        raise GraderError(f"cannot read {label}: {err.strerror or err}") from None


_UTF8_FLAG = 0x800  # general purpose bit 11: the entry's name is UTF-8


def open_zip(path: Path, label: str) -> zipfile.ZipFile:
    """``path`` opened as a zip, never through a link.

    :raises GraderError: for a link, or anything but a regular file.
    :raises zipfile.BadZipFile: when it is no zip."""
    try:
        fd = os.open(path, _FILE_FLAGS)
    except OSError as err:
        if kind(path) == "link":
            raise _refuse(label, "link", path.name) from None
        raise GraderError(f"cannot read {label}: {err.strerror or err}") from None
    handle = os.fdopen(fd, "rb")
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        handle.close()
        raise _refuse(label, "other", path.name)
    try:
        archive = zipfile.ZipFile(handle)
    except BaseException:
        handle.close()
        raise
    _names_as_utf8(archive)
    return archive


def _names_as_utf8(archive: zipfile.ZipFile) -> None:
    """Read as UTF-8 the names that are UTF-8 but not flagged so: Info-ZIP's ``zip`` and
    macOS write ``García_..._game.py`` in UTF-8 without the flag, which ``zipfile`` then reads
    as cp437 (``Garc├¡a``), losing the student's Canvas name and id. A name that is not valid
    UTF-8 stays as cp437 reads it."""
    for info in archive.infolist():
        if info.flag_bits & _UTF8_FLAG or info.filename.isascii():
            continue
        try:
            name = info.filename.encode("cp437").decode("utf-8")
        except (UnicodeEncodeError, UnicodeDecodeError):
            continue
        archive.NameToInfo.pop(info.filename, None)
        info.filename = name
        archive.NameToInfo[name] = info


def copy_tree(folder: Path, target: Path, budget: Budget, shown: str = "") -> None:
    """Copy ``folder``'s files into ``target``, hidden files and caches aside, never through a
    link; ``shown`` is how messages name ``folder`` (default: its name).

    :raises GraderError: for a link or a special file anywhere, or past the budget."""
    try:
        with _folder(folder) as opened:
            _copy_into(opened, target, budget, PurePosixPath(shown or folder.name))
    except OSError as err:
        if err.errno in _LINK_ERRORS or kind(folder) == "link":
            raise _refuse(budget.label, "link", shown or folder.name) from None
        raise GraderError(f"cannot read {budget.label}: {err.strerror or err}") from None


def _copy_into(opened: int | Path, target: Path, budget: Budget, where: PurePosixPath) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name, what in _entries(opened):
        if is_junk(name):
            continue
        shown = str(where / name)
        if what in ("link", "other"):
            raise _refuse(budget.label, what, shown)
        if what == "folder":
            inner = opened / name if isinstance(opened, Path) else Path(name)
            with _folder(inner, None if isinstance(opened, Path) else opened) as sub:
                _copy_into(sub, target / name, budget, where / name)
            continue
        data = _read(name, opened, budget, shown)
        (target / name).write_bytes(data)


def holds_code(folder: Path, suffixes: tuple[str, ...] = (".py",), name: str = "") -> bool:
    """Whether ``folder`` holds a file ending in one of ``suffixes`` (or named ``name``, when
    given) at any depth, junk aside, no link followed; False when it cannot be read."""

    def wanted(found: str) -> bool:
        return found == name if name else found.endswith(suffixes)

    try:
        with _folder(folder) as opened:
            return _holds(opened, wanted)
    except OSError:
        return False


def _holds(opened: int | Path, wanted: Callable[[str], bool]) -> bool:
    for name, what in _entries(opened):
        if is_junk(name):
            continue
        if what == "file" and wanted(name):
            return True
        if what == "folder":
            inner = opened / name if isinstance(opened, Path) else Path(name)
            with _folder(inner, None if isinstance(opened, Path) else opened) as sub:
                if _holds(sub, wanted):
                    return True
    return False


# ---- archives -----------------------------------------------------------------------------------


def unpack(
    archive: Path,
    target: Path,
    main: str = "game.py",
    *,
    max_bytes: int = MAX_UNPACKED,
    max_entries: int = MAX_ENTRIES,
    shorten: bool = False,
) -> list[str]:
    """Extract ``archive`` safely into ``target``; returns the names of the files it held.

    Nothing is written outside ``target``; junk (``__MACOSX/``, ``.DS_Store``, caches, hidden
    files) is skipped. ``main`` names the homework's file in the advice of a message. With
    ``shorten`` (a class's zip), a name too long for the file system is shortened rather than
    refused: one student's long file name must not cost the class its grades.

    :raises GraderError: for an unreadable or damaged zip, an entry pointing outside (``..``,
        absolute), a symlink, more than ``max_entries`` entries or more than ``max_bytes``
        unpacked; files already written stay in ``target``.
    """
    label = admit(archive.name, "file")
    try:
        bundle = open_zip(archive, label)
    except (zipfile.BadZipFile, ValueError):
        raise GraderError(f"{label} is not a readable zip file; zip {main} again") from None
    names: list[str] = []
    with bundle:
        entries = bundle.infolist()
        if len(entries) > max_entries:
            raise GraderError(f"{label} holds {len(entries)} entries; the limit is {max_entries}")
        total = 0
        for entry in entries:
            name = entry.filename
            path = PurePosixPath(name)
            shown = quoted(name)
            if path.is_absolute() or ".." in path.parts or "\\" in name:
                raise GraderError(f"{label} holds the entry {shown}, which points outside the zip")
            if junk_path(name):
                continue
            parts = tuple(fitted(part) for part in path.parts) if shorten else path.parts
            _check_name(label, name, parts)
            if stat.S_ISLNK(entry.external_attr >> 16):
                raise GraderError(f"{label} holds the symlink {shown}; zip the file itself")
            if entry.is_dir():
                continue
            total += entry.file_size
            if total > max_bytes:
                raise GraderError(
                    f"{label} unpacks to more than {max_bytes >> 20} MB; submit only {main}"
                )
            _extract(bundle, entry, target.joinpath(*parts), label, max_bytes)
            names.append(name)
    return names


def fitted(part: str) -> str:
    """``part`` if the file system takes it; else its first bytes, a digest of it (two long
    names stay two files) and its extension, within :data:`MAX_NAME` bytes."""
    if len(part.encode()) <= MAX_NAME:
        return part
    stem, dot, extension = part.rpartition(".")
    extension = dot + extension if stem and len(extension) <= 10 else ""
    digest = hashlib.sha256(part.encode()).hexdigest()[:12]
    room = MAX_NAME - len(extension.encode()) - len(digest) - 1
    start = part.encode()[:room].decode(errors="ignore")
    return f"{start}-{digest}{extension}"


def _extract(
    bundle: zipfile.ZipFile, entry: zipfile.ZipInfo, destination: Path, label: str, cap: int
) -> None:
    name, shown = entry.filename, quoted(entry.filename)
    try:
        destination.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise GraderError(
            f"{label} holds {quoted(str(PurePosixPath(name).parent))} both as a file and as a "
            "folder; zip it again"
        ) from None
    try:
        with bundle.open(entry) as source, destination.open("xb") as sink:
            _copy_capped(source, sink, entry.file_size, cap, label)
    except (FileExistsError, IsADirectoryError):
        raise GraderError(
            f"{label} holds {shown} twice, or both as a file and as a folder; zip it again"
        ) from None
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError) as err:
        raise GraderError(f"{label} is damaged ({shown}: {err}); zip it again") from None


def _check_name(label: str, name: str, parts: tuple[str, ...]) -> None:
    """Refuse a name no file system will take, before anything is written."""
    longest = max(parts, key=lambda part: len(part.encode()), default="")
    if len(longest.encode()) > MAX_NAME or len(name) > MAX_PATH:
        shown = name if len(name) <= 60 else name[:57] + "..."
        raise GraderError(
            f"{label} holds a file or folder with a name too long to unpack "
            f"({quoted(shown)}); keep names under {MAX_NAME} characters"
        )


def _copy_capped(source: IO[bytes], sink: IO[bytes], declared: int, cap: int, label: str) -> None:
    """Copy, trusting no header: an entry that inflates past its declared size is refused."""
    written = 0
    while chunk := source.read(1 << 16):
        written += len(chunk)
        if written > declared or written > cap:
            raise GraderError(f"{label} holds an entry larger than it declares; zip it again")
        sink.write(chunk)
