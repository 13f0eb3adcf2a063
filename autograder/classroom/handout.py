"""The files a student starts from (or the answer key handed out after the deadline), copied
out of the kit into a folder, so that a kit installed with pip hands them out as a checkout
does (``autograder starter``)."""

from __future__ import annotations

import shutil
from pathlib import Path

from autograder.errors import GraderError
from autograder.files import kit_path
from autograder.games import find_assignment

__all__ = ["handout_files", "hand_out"]


def handout_files(assignment_name: str, answer_key: bool = False) -> list[Path]:
    """The kit's files of the assignment's starter, or of its answer key.

    :raises GraderError: for an unknown assignment, or one the kit has no such files for.
    """
    try:
        assignment = find_assignment(assignment_name)
    except KeyError as err:
        raise GraderError(str(err)) from None
    starter = Path(assignment.pack.starter(assignment.variant)).parent  # starter/teeko2
    relative = Path("answer_key", *starter.parts[1:]) if answer_key else starter
    folder = kit_path(relative.as_posix())
    files = sorted(p for p in folder.glob("*") if p.is_file()) if folder.is_dir() else []
    if not files:
        what = "answer key" if answer_key else "starter"
        raise GraderError(f"the kit has no {what} for {assignment.name} (looked in {folder})")
    return files


def hand_out(assignment_name: str, folder: Path, answer_key: bool = False) -> list[Path]:
    """The starter (or answer key) copied into ``folder``; the files written. Never overwrites.

    :raises GraderError: for an unknown assignment, a file already there, or a folder that
        cannot be written.
    """
    files = handout_files(assignment_name, answer_key)
    taken = [f.name for f in files if (folder / f.name).exists()]
    if taken:
        raise GraderError(
            f"{', '.join(taken)} already in {folder}: move it away, or choose another folder "
            "with --to FOLDER"
        )
    written = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for file in files:
            shutil.copyfile(file, folder / file.name)
            written.append(folder / file.name)
    except OSError as err:
        raise GraderError(f"--to: cannot write into {folder}: {err.strerror or err}") from None
    return written
