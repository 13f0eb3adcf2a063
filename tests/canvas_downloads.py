"""Students' files as Canvas names its downloads, and a class collected from them, for the
tests of how a class comes in."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Any

from autograder.classroom.collect import Collection, collect
from tests.conftest import course_rubric

GAME = "class Teeko2Player:\n    pass\n"


def zip_of(path: Path, entries: dict[str, str | bytes] | None = None) -> Path:
    """A zip holding ``entries`` (default: a student's game.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as bundle:
        for name, data in (entries if entries is not None else {"game.py": GAME}).items():
            bundle.writestr(name, data)
    return path


def student_zip_bytes(tmp_path: Path) -> bytes:
    return zip_of(tmp_path / "scratch" / "student.zip").read_bytes()


def write_file(path: Path, data: str | bytes = GAME) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data)
    return path


def submission(path: Path) -> Path:
    """A student's file named ``path``: a zip holding game.py, or game.py's text."""
    return zip_of(path) if path.suffix == ".zip" else write_file(path)


NETID_PATTERN = course_rubric().packaging_pattern  # hw8_<netid>.zip


def collect_into(tmp_path: Path, *inputs: Path, **options: Any) -> Collection:
    options.setdefault("netid_pattern", NETID_PATTERN)
    return collect(list(inputs), tmp_path / "work", **options)


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
