"""Files written whole or not at all: the one way the kit replaces a file.

A reader (a rerun, an instructor's spreadsheet, Gradescope) sees either the old content or all
of the new, never a part: the data goes to a temporary file beside the target, is flushed to
disk, and only then renamed over it. The temporary name carries the writer's pid, so a later
run can tell the leftovers of a writer that died (see :func:`remove_stale`).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO

__all__ = ["atomic_file", "write_atomic", "remove_stale"]


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
