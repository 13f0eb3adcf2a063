"""One submission graded as a student's ``autograder check`` grades it: the file, folder or zip
opened, its homework told (named, or inferred from its files and classes), and the course's
rubric applied, with what lies beyond the rubric when asked.
"""

from __future__ import annotations

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
from autograder.classroom.intake import (
    Submission,
    choose_assignment,
    main_file_of,
    open_submission,
    require_files,
)
from autograder.classroom.submission import Graded, grade_submission, load_warning
from autograder.errors import GraderError
from autograder.games import ASSIGNMENTS
from autograder.games.pack import Assignment
from autograder.grading.rubric import ExtraOptions, load_rubric
from autograder.play.busy import machine_load

__all__ = ["CheckRequest", "Checked", "check_submission", "open_one"]


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
    main = assignment_named(name).main_file if name else main_file_of(path)
    files = next((a.pack.files for a in ASSIGNMENTS.values() if a.pack.files[0] == main), ())
    submission = open_submission(path, work, main, files)
    assignment, how = choose_assignment(name, submission, main)
    require_files(submission, assignment.pack)
    return submission, assignment, (*submission.notes, *((how,) if how else ()))


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
