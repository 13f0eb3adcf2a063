"""Grading a class (``autograder grade``): the class collected from its inputs, every student
graded by the batch (here or on a Dask cluster), and the grade sheet, the summary and the Canvas
import written from the records; the class's code compared too, when asked.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from autograder.classroom.batch import BatchResult, grade_batch
from autograder.classroom.canvas import Roster, match_roster, roster_names, write_canvas_import
from autograder.classroom.class_run import (
    ClassRun,
    Listener,
    class_at_hand,
    command_line,
    not_installed,
    set_up,
)
from autograder.classroom.cluster import Cluster, remote_grader
from autograder.classroom.outputs import OUTPUT_FILES, check_output, write_grades_csv
from autograder.classroom.records import Entry, Record
from autograder.classroom.similarity import SimilarityRequest, class_similarity
from autograder.classroom.summary import write_summary
from autograder.classroom.worker import Grading
from autograder.errors import GraderError
from autograder.grading.rubric import Rubric
from autograder.play.sandbox import available, missing_line

__all__ = ["ClassRequest", "ClassGrades", "grade_class"]

# why an output an earlier run wrote is removed when this run does not write it
_STALE = {
    "canvas_import.csv": "it held an earlier run's grades; give --roster to write it again",
}


@dataclass(frozen=True)
class ClassRequest(ClassRun):
    """A class to grade, as ``autograder grade`` takes it; with a roster, the Canvas import
    is written too."""

    regrade: bool = False
    only: tuple[str, ...] = ()  # grade these students again, keep the others
    similarity: bool = False  # also compare the class's code into OUT/similarity/


@dataclass(frozen=True)
class ClassGrades:
    """What grading the class did: the files written at the top of ``out``, the outputs of an
    earlier run removed (and why), and whether it stopped before the end."""

    written: tuple[Path, ...]
    graded: int  # students graded and saved
    removed: tuple[tuple[Path, str], ...] = ()
    problem: str | None = None  # why the grader could not finish: a folder it could not write
    interrupted: bool = False


def grade_class(request: ClassRequest, listener: Listener) -> ClassGrades:
    """Grade the class in ``request.inputs`` into ``request.out``, telling ``listener`` how it
    goes; resumable (a student graded the same way before is not graded again).

    :raises GraderError: for a bad setting or input, before any grading."""
    setup = set_up(request)
    assignment, rubric, out, jobs = setup.assignment, setup.rubric, request.out, setup.jobs
    cores = os.cpu_count() or 1
    warnings = []
    missing = not_installed(rubric)
    if missing:
        warnings.append(
            f"{missing}; submissions that import it are not graded here (their reason says "
            "so), and the same command grades them again once it is installed"
        )
        listener.say(f"warning: {warnings[-1]}")
    if jobs > cores and not request.cluster:
        listener.say(
            f"warning: --jobs {jobs} is more than the {cores} cores: moves may time out "
            "that would not on a quiet machine"
        )
    grading = Grading(assignment, rubric, request.seed, out)
    with class_at_hand(request, setup, listener) as at_hand:
        collection, cluster = at_hand.collection, at_hand.cluster
        if cluster is not None:
            jobs = cluster.threads
        if not collection.entries:
            raise GraderError("no submissions found in " + ", ".join(request.inputs))
        check_output(out, len(collection.entries))
        listener.say(
            f"grading {len(collection.entries)} students as {assignment.name}, seed "
            f"{request.seed}, {jobs} at a time, by {rubric.title} [{rubric.source}], into {out}"
        )
        unfenced = missing_line(available().missing(), "this machine grades the submissions")
        if unfenced and cluster is None:  # on a cluster, each worker says its own layers
            listener.warn(unfenced)
        result = _run_batch(collection.entries, grading, request, jobs, listener, cluster)
    identity = [f"identity: {warning}" for warning in collection.warnings]
    if result.interrupted or result.write_failed:
        graded, total = len(result.records), len(collection.entries)
        warnings.insert(0, f"incomplete: {graded} of {total} students graded")
    return _finish(result, grading, request, setup.roster, warnings, identity, listener)


def _run_batch(
    entries: Sequence[Entry],
    grading: Grading,
    request: ClassRequest,
    jobs: int,
    listener: Listener,
    cluster: Cluster | None,
) -> BatchResult:
    """The batch over ``entries``, with a progress display; what it did said after."""
    out = grading.out

    def reproduce(student: str) -> str:
        return command_line(
            ["grade", *request.inputs, "--assignment", grading.assignment.name],
            ["--seed", str(request.seed), "--out", str(out)],
            ["--rubric", request.rubric] if request.rubric else [],
            ["--roster", request.roster] if request.roster else [],
            ["--only", student],
        )

    with listener.track("grading") as update:
        result = grade_batch(
            entries,
            grading,
            jobs=jobs,
            regrade=request.regrade,
            only=request.only,
            on_done=lambda r, done, total: update(done, total, f"graded {r.student}: {r.score:g}"),
            reproduce=reproduce,
            runner=remote_grader(cluster) if cluster is not None else None,
        )
    for line in _batch_notes(result, out):
        listener.say(line)
    return result


def _batch_notes(result: BatchResult, out: Path) -> list[str]:
    """What the batch did beyond grading: who was graded again and why, who not, and the
    students left out of the grade sheet."""
    notes = []
    if result.why:
        notes.append("graded again: " + "; ".join(f"{why}: {n}" for why, n in result.why))
    skipped = len(result.records) - result.graded_now
    if skipped > 0 and not result.interrupted:
        notes.append(
            f"{skipped} students already had a grade in {out}, made the same way, and were not "
            "graded again (--regrade grades everyone again)"
        )
    if result.measured_again:
        notes.append(
            f"measured again alone after the batch: {result.measured_again} students had moves "
            "whose time cost a time tier; the better of the two times counts"
        )
    if result.strangers:
        notes.append(
            f"left out of the grade sheet: {len(result.strangers)} student folders in "
            f"{out / 'students'} that none of these inputs holds: "
            f"{', '.join(result.strangers[:10])}; remove them, or grade with their inputs too"
        )
    if result.stale:
        notes.append(
            f"left out of the grade sheet: {len(result.stale)} students graded another way "
            f"(another rubric, seed, assignment or kit): {', '.join(result.stale[:10])}; run "
            "the same command again to grade them this way"
        )
    return notes


def _finish(
    result: BatchResult,
    grading: Grading,
    request: ClassRequest,
    roster: Roster | None,
    warnings: list[str],
    identity: list[str],
    listener: Listener,
) -> ClassGrades:
    """The outputs written from the records (and the class compared, when asked)."""
    out = grading.out
    records, notes = list(result.records), identity
    if roster is not None:
        found = match_roster(roster, records)
        records = roster_names(roster, found, records)
        notes = [*identity, *(f"roster: {problem}" for problem in found.problems)]
        for note in notes:
            listener.say(note)
    try:
        notes = [*warnings, *notes]
        written, unwritten = _write_outputs(records, out, grading.rubric, notes, roster), ""
    except OSError as error:  # the students' own files are saved: a rerun writes these
        written, unwritten = (
            [],
            f"cannot write the grade sheet and summary into {out}: " + str(error.strerror or error),
        )
    if request.similarity and not result.interrupted and not unwritten and not result.write_failed:
        written += _compare(request, grading, listener)
    graded = len(result.records)
    problem = _stopped(result, unwritten, out)
    if problem is not None:
        return ClassGrades(tuple(written), graded, problem=problem)
    removed = []
    for name in OUTPUT_FILES:  # what an earlier run wrote and this one does not: not left stale
        path = out / name
        if path not in written and path.is_file():
            path.unlink()
            removed.append((path, _STALE.get(name, "an earlier run wrote it")))
    return ClassGrades(tuple(written), graded, tuple(removed), interrupted=result.interrupted)


def _stopped(result: BatchResult, unwritten: str, out: Path) -> str | None:
    """Why the run could not finish, and what to do: None when it could."""
    saved = f"{len(result.records)} students are graded and saved in {out / 'students'}"
    if result.write_failed:
        also = f"; {unwritten}" if unwritten else ""
        return (
            f"{result.write_failed}, so grading stopped{also}; {saved}, and the same command "
            "grades the rest once the folder has space and can be written (the grades saved "
            "are kept)"
        )
    if unwritten:
        return (
            f"{unwritten}; {saved}: run the same command again once the folder has space and "
            "can be written, it grades nobody again and writes the grade sheet"
        )
    return None


def _compare(request: ClassRequest, grading: Grading, listener: Listener) -> list[Path]:
    """The class's code compared into ``out/similarity``; a failure is said, not raised: the
    grades are written whatever happens here."""
    similar = SimilarityRequest(
        request.inputs, grading.assignment.name, grading.out / "similarity", request.rubric
    )
    try:
        return class_similarity(similar, listener)
    except GraderError as problem:
        listener.say(f"similarity not compared: {problem}")
        return []


def _write_outputs(
    records: list[Record], out: Path, rubric: Rubric, notes: list[str], roster: Roster | None
) -> list[Path]:
    """Every file at the top of ``out``, from the same records; their paths.

    :raises OSError: when one cannot be written.
    """
    write_grades_csv(records, out / "grades.csv")
    written = [
        out / "grades.csv",
        *write_summary(records, out, rubric.title, rubric=rubric, notes=notes),
    ]
    if roster is not None:
        incomplete = next((n for n in notes if n.startswith("incomplete: ")), None)
        write_canvas_import(records, roster, out / "canvas_import.csv", incomplete=incomplete)
        written.append(out / "canvas_import.csv")
    return written
