"""One submission graded as a student's ``autograder check`` grades it: the file, folder or zip
opened, its homework told (named, or inferred from its files and classes), and the course's
rubric applied, with what lies beyond the rubric when asked.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from autograder.classroom.class_run import (
    QUIET,
    Listener,
    assignment_named,
    command_line,
    not_installed,
)
from autograder.classroom.handin import Homework, take_in
from autograder.classroom.intake import Submission, choose_assignment, require_files
from autograder.classroom.reading import is_junk
from autograder.classroom.submission import Graded, grade_submission, load_warning
from autograder.errors import GraderError
from autograder.games.pack import Assignment
from autograder.grading.rubric import ExtraOptions, load_rubric
from autograder.play.busy import machine_load
from autograder.play.untrusted import admit

__all__ = ["CheckRequest", "Checked", "check_submission", "open_one"]

# other code and submissions, and documents: not files a game opens
_NOT_READ = (".py", ".ipynb", ".zip", ".md", ".pdf")


@dataclass(frozen=True)
class CheckRequest:
    """One submission to grade, as ``autograder check`` takes it."""

    submission: str  # a .py file, a folder or a zip, as given
    assignment: str | None = None  # None: told from the submission
    seed: int = 0
    rubric: str | None = None  # a rubric file; None: the assignment's own
    ladder: bool = False  # the extras beyond the rubric, over the rubric's [extras]
    move_quality: bool = False
    puzzles: int | None = None
    challenge: bool = False


@dataclass(frozen=True)
class Checked:
    """A graded submission and what its report says beside the grade."""

    graded: Graded
    assignment: Assignment
    notes: tuple[str, ...]  # what intake did, and how the assignment was told
    reproduce: str  # the command that gives the same grade again
    warning: str | None = None  # the machine was busy while grading, and what that changed


def open_one(
    path: Path, name: str | None, work: Path
) -> tuple[Submission, Assignment, tuple[str, ...]]:
    """The submission in ``path`` opened in ``work``, its assignment (``name``, else told from
    its files and classes), and the notes for its report.

    :raises GraderError: when it cannot be opened, or its assignment cannot be told."""
    main = assignment_named(name).main_file if name else None
    (entry,) = take_in([path], work, Homework(main), one=True).entries
    if entry.submission is None:
        raise GraderError(entry.refused)
    submission = entry.submission
    assignment, how = choose_assignment(name, submission, submission.main)
    require_files(submission, assignment.pack)
    left = _left_beside(path, submission)
    return submission, assignment, (*submission.notes, *((how,) if how else ()), *left)


def _left_beside(path: Path, submission: Submission) -> tuple[str, ...]:
    """A note when a lone file was checked and other files lie beside it: a data file it opens
    by name (an opening book) is not brought, and ``python game.py`` would find it."""
    if path.suffix.lower() != ".py" or not path.is_file():
        return ()
    taken = {p.name for p in submission.source_dir.iterdir()}
    try:
        beside = sorted(
            entry.name
            for entry in os.scandir(path.parent)
            if entry.is_file(follow_symlinks=False)
            and entry.name not in taken
            and entry.name != path.name
            and not is_junk(entry.name)
            and Path(entry.name).suffix.lower() not in _NOT_READ
        )
    except OSError:
        return ()
    if not beside:
        return ()
    shown = ", ".join(admit(name, "file") for name in beside[:5])
    more = f" and {len(beside) - 5} more" if len(beside) > 5 else ""
    folder = admit(str(path.parent), "path")
    return (
        f"checked {admit(path.name, 'file')} with the modules it imports, without the other "
        f"files beside it ({shown}{more}); if it opens one of them, check its folder: "
        f"autograder check {folder}",
    )


def check_submission(request: CheckRequest, listener: Listener = QUIET) -> Checked:
    """The submission in ``request`` graded as the course grades it; what it is graded as is
    said first.

    :raises GraderError: when it cannot be opened, or the rubric allows a package this Python
        lacks."""
    with tempfile.TemporaryDirectory(prefix="teeko-check-") as work:
        submission, assignment, notes = open_one(
            Path(request.submission), request.assignment, Path(work)
        )
        rubric = load_rubric(request.rubric, assignment.pack)
        missing = not_installed(rubric)
        if missing:
            raise GraderError(missing)
        listener.say(f"grading {submission.label} as {assignment.name}, seed {request.seed} ...")
        loads = [machine_load()]
        graded = grade_submission(
            submission, assignment, rubric, request.seed, extras=_extras(rubric.extras, request)
        )
        loads.append(machine_load())
    reproduce = command_line(
        ["check", request.submission, "--assignment", assignment.name],
        ["--seed", str(request.seed)],
        ["--rubric", request.rubric] if request.rubric else [],
        _extra_words(request),
    )
    warning = load_warning(loads, graded.grade.session)
    return Checked(graded, assignment, notes, reproduce, warning)


def _extra_words(request: CheckRequest) -> list[str]:
    """The switches that add to the report (the extras), as given: part of the command that
    gives the same report again."""
    words = [
        flag
        for flag, on in (
            ("--ladder", request.ladder),
            ("--move-quality", request.move_quality),
            ("--challenge", request.challenge),
        )
        if on
    ]
    return words + (["--puzzles", str(request.puzzles)] if request.puzzles is not None else [])


def _extras(options: ExtraOptions, request: CheckRequest) -> ExtraOptions:
    """The rubric's [extras], with the request's switches turned on over them."""
    return replace(
        options,
        ladder_games=max(options.ladder_games, 2 if request.ladder else 0),
        move_quality=options.move_quality or request.move_quality,
        puzzles=request.puzzles if request.puzzles is not None else options.puzzles,
        challenge_games=max(options.challenge_games, 2 if request.challenge else 0),
    )
