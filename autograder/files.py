"""Files written whole or not at all: the one way the kit replaces a file; and where the kit's
own course files (starters, answer keys, solutions, example classes) are.

A reader (a rerun, an instructor's spreadsheet, Gradescope) sees either the old content or all
of the new, never a part: the data goes to a temporary file beside the target, is flushed to
disk, and only then renamed over it. The temporary name carries the writer's pid, so a later
run can tell the leftovers of a writer that died (see :func:`remove_stale`).
"""

from __future__ import annotations

import contextlib
import os
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


def remove_stale_folders(parent: Path) -> None:
    """Delete the hidden folders :func:`replace_folder` left in ``parent`` when its writer
    died."""
    for old in parent.glob(".*.*.new"):
        _remove_if_dead(old)
    for old in parent.glob(".*.*.old"):
        _remove_if_dead(old)


def _remove_if_dead(path: Path) -> None:
    pid = path.name.rsplit(".", 3)[-3] if path.name.count(".") >= 3 else ""
    if pid.isdigit() and not _alive(int(pid)):
        shutil.rmtree(path, ignore_errors=True)


def remove_stale(path: Path) -> None:
    """Delete the temporary files of earlier writers of ``path`` whose process is gone."""
    for old in path.parent.glob(f".{path.name}.*.tmp"):
        pid = old.name.removeprefix(f".{path.name}.").split(".", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            with contextlib.suppress(OSError):
                old.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
