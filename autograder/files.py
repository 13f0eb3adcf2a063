"""Files written whole or not at all: the one way the kit replaces a file; the one way a name
from outside (a student's id) becomes a file name; and where the kit's own course files
(starters, answer keys, solutions, example classes) are.

A reader (a rerun, an instructor's spreadsheet, Gradescope) sees either the old content or all
of the new, never a part: the data goes to a temporary file beside the target, is flushed to
disk, and only then renamed over it. The temporary name carries the writer's pid, so a later
run can tell the leftovers of a writer that died (see :func:`remove_stale`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO

__all__ = [
    "atomic_file",
    "write_atomic",
    "replace_folder",
    "remove_stale",
    "remove_stale_folders",
    "file_name",
    "NAME_BYTES",
    "KIT_FOLDER",
    "kit_path",
]

# The course's folders, kept at the top of a checkout (starter/, answer_key/, solution/,
# examples/), are copied into the installed package under this folder (setup.py).
KIT_FOLDER = "kit"
_PACKAGE = Path(__file__).resolve().parent


def kit_path(relative: str = "") -> Path:
    """Where the kit's own file or folder ``relative`` is (``"starter/teeko2/game.py"``; with
    no argument, the folder holding ``starter/``, ``answer_key/``, ``solution/`` and
    ``examples/``): the copy installed inside the package by ``pip install .``, else the
    checkout's (an editable install, or running from the source tree). It may not exist: a
    game without an answer key, say."""
    shipped = _PACKAGE / KIT_FOLDER
    return (shipped if shipped.is_dir() else _PACKAGE.parent) / relative


@contextlib.contextmanager
def atomic_file(path: Path) -> Iterator[IO[bytes]]:
    """A binary file that replaces ``path`` when the block ends normally, and is removed
    otherwise (an exception, a generator closed early).

    :raises OSError: when the folder cannot be made or the file cannot be written.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(
        prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent
    )
    tmp = Path(name)
    try:
        with os.fdopen(handle, "wb") as out:
            yield out
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, with ``\\n`` line ends) so that ``path`` holds either the
    old content or all of the new."""
    with atomic_file(path) as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)


def replace_folder(folder: Path, files: Mapping[str, str | bytes]) -> None:
    """Make ``folder`` hold exactly ``files`` (name -> content), or leave it as it was.

    The files are written into a hidden folder beside it (named with the writer's pid, see
    :func:`remove_stale_folders`), which is then renamed into place: a reader sees the old
    folder, the new one whole, or (after a crash between two renames) none, never a mix.

    :raises OSError: when a file cannot be written (a full disk, a read-only folder); the
        old folder is then untouched and nothing is left beside it.
    """
    parent = folder.parent
    parent.mkdir(parents=True, exist_ok=True)
    stem = f".{folder.name}.{os.getpid()}."
    new = Path(tempfile.mkdtemp(prefix=stem, suffix=".new", dir=parent))
    old = new.with_name(new.name.removesuffix(".new") + ".old")
    try:
        for name, data in files.items():
            with open(new / name, "wb") as out:
                out.write(data.encode("utf-8") if isinstance(data, str) else data)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(new / name, 0o644)
        os.chmod(new, 0o755)
        if folder.exists():
            os.replace(folder, old)
        os.replace(new, folder)
    finally:
        shutil.rmtree(new, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)


_PLAIN_PART = re.compile(r"[a-z0-9_]+(?:[.-][a-z0-9_]+)*")
_DIGESTED = re.compile(r".*-[0-9a-f]{12}")
_READABLE = re.compile(r"[^\w.-]+")
# names Windows keeps for devices, whatever the extension
_DEVICES = {"con", "prn", "aux", "nul", *(f"{d}{n}" for d in ("com", "lpt") for n in range(10))}
NAME_BYTES = 100  # of a name the kit makes: room left for a suffix and a writer's temporary name


def file_name(*parts: str, limit: int = NAME_BYTES) -> str:
    """A file or folder name for ``parts`` (ids from outside: a student's, a pair's), never
    the same for other parts: ``parts`` joined by ``--`` as they are when each is plain
    (lower-case letters, digits, ``_``, and single ``.`` or ``-`` inside) and the whole is
    short; else a readable part of each, cut to share ``limit`` UTF-8 bytes, and a digest of
    all of them. No plain name ends as a digested one does, so the two kinds never meet; a
    name never starts with a dot nor is a device Windows keeps.

    >>> file_name("ann"), file_name("jo!")
    ('ann', 'jo_-c8ccd274bf62')
    """
    joined = "--".join(parts)
    if (
        all(_PLAIN_PART.fullmatch(part) for part in parts)
        and len(joined) <= limit
        and not _DIGESTED.fullmatch(joined)
        and joined.split(".")[0] not in _DEVICES
    ):
        return joined
    digest = hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:12]
    room = max(1, (limit - len(digest) - 1) // len(parts) - 2)
    readable = [_cut(_READABLE.sub("_", part).lstrip(".-") or "_", room) for part in parts]
    return f"{'--'.join(readable)}-{digest}"


def _cut(text: str, size: int) -> str:
    """``text`` cut to at most ``size`` UTF-8 bytes, never inside a character."""
    return text.encode()[:size].decode("utf-8", "ignore")


def remove_stale_folders(parent: Path) -> None:
    """Delete the hidden folders :func:`replace_folder` left in ``parent`` when its writer
    died."""
    for old in parent.glob(".*.*.new"):
        _remove_if_dead(old)
    for old in parent.glob(".*.*.old"):
        _remove_if_dead(old)


def _remove_if_dead(path: Path) -> None:
    pid = path.name.rsplit(".", 3)[-3] if path.name.count(".") >= 3 else ""
    if pid.isdigit() and not alive(int(pid)):
        shutil.rmtree(path, ignore_errors=True)


def remove_stale(path: Path) -> None:
    """Delete the temporary files of earlier writers of ``path`` whose process is gone."""
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        pid = old.name.removeprefix(f".{path.name}.").split(".", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            with contextlib.suppress(OSError):
                old.unlink()


def alive(pid: int) -> bool:
    """Whether process ``pid`` is still there (another user's counts: it cannot be signalled)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
