"""The command line: each command parses its options, calls the core and hands the result to a
renderer. The kit's :class:`GraderError` becomes one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import webbrowser
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from autograder.classroom.batch import (
    OUTPUT_FILES,
    BatchResult,
    check_output,
    grade_batch,
    write_grades_csv,
)
from autograder.classroom.canvas import (
    Roster,
    match_roster,
    read_roster,
    roster_logins,
    roster_names,
    write_canvas_import,
)
from autograder.classroom.canvas_push import add_canvas_commands
from autograder.classroom.cluster import Cluster, remote_grader
from autograder.classroom.collect import collect
from autograder.classroom.fingerprint import kit_version
from autograder.classroom.gradescope import add_gradescope_command
from autograder.classroom.handout import add_starter_command
from autograder.classroom.intake import (
    Submission,
    choose_assignment,
    holds_files,
    open_submission,
    require_files,
)
from autograder.classroom.records import Entry, Record
from autograder.classroom.similarity import compare_class, kit_boilerplate, write_similarity
from autograder.classroom.submission import grade_submission, load_warning
from autograder.classroom.summary import write_summary
from autograder.classroom.tournament import (
    KIT_PLAYERS,
    GameTask,
    Player,
    Submit,
    TournamentResult,
    class_players,
    kit_players,
    play_game,
    replay_games,
    run_tournament,
)
from autograder.errors import GraderError, run_command
from autograder.files import write_atomic
from autograder.games import ASSIGNMENTS, find_assignment
from autograder.games.pack import Assignment
from autograder.grading.html import feedback_html, replay_page
from autograder.grading.report import markdown, results_json_text, terminal
from autograder.grading.rubric import ExtraOptions, Rubric, load_rubric
from autograder.grading.similarity import Settings
from autograder.grading.tournament import (
    Standing,
    leaderboard_csv,
    leaderboard_html,
    leaderboard_json,
    pair_file,
    rate,
)
from autograder.live.server import make_server, serve
from autograder.live.table import PROJECT_ROOT, Table
from autograder.oracle.commands import add_oracle_commands
from autograder.play.busy import machine_load
from autograder.play.launch import missing_packages
from autograder.play.sandbox import available, missing_line
from autograder.play.untrusted import shell_word

__all__ = ["main", "build_parser"]

DEFAULT_SEED = 0
SEED_HELP = "seed for probes and the random opponent; same seed and submission, same grade"
ASSIGNMENT_HELP = f"{', '.join(ASSIGNMENTS)} (default: inferred from the player class)"
RUBRIC_HELP = "rubric TOML file (default: the course's published rubric)"
CLUSTER_HELP = (
    "run on the Dask cluster whose scheduler is here (`dask scheduler`); needs the cluster extra"
)


def _main_file(name: str | None, submission: Path) -> str:
    """The file a submission must hold: the named assignment's; else the first game's
    (``game.py``) unless the submission holds another game's files (the book's four)."""
    if name:
        return _assignment(name).main_file
    # every interface's files too, after the games' own: a Board homework folder holding a
    # gameBoard.py (its exercise 3) stays the Board homework, not seed 003's sketch
    assignments = sorted(ASSIGNMENTS.values(), key=lambda a: bool(a.interface.name))
    packs = [a.pack for a in assignments]
    for pack in packs[1:]:
        if pack.files[0] != packs[0].files[0] and holds_files(submission, pack.files):
            return pack.files[0]
    return packs[0].files[0]


def _open(args: argparse.Namespace, work: str) -> tuple[Submission, Assignment, tuple[str, ...]]:
    """The submission named on the command line, in ``work``, and its assignment."""
    main = _main_file(args.assignment, Path(args.submission))
    files = next((a.pack.files for a in ASSIGNMENTS.values() if a.pack.files[0] == main), ())
    submission = open_submission(Path(args.submission), Path(work), main, files)
    assignment, how = choose_assignment(args.assignment, submission, main)
    require_files(submission, assignment.pack)
    return submission, assignment, (*submission.notes, *((how,) if how else ()))


def _check(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="teeko-check-") as work:
        submission, assignment, notes = _open(args, work)
        rubric = load_rubric(args.rubric, assignment.pack)
        missing = _not_installed(rubric)
        if missing:
            raise GraderError(missing)
        print(
            f"grading {submission.label} as {assignment.name}, seed {args.seed} ...",
            file=sys.stderr,
        )
        loads = [machine_load()]
        graded = grade_submission(
            submission, assignment, rubric, args.seed, extras=_extra_options(rubric.extras, args)
        )
        loads.append(machine_load())
    reproduce = _command(
        ["check", args.submission, "--assignment", assignment.name, "--seed", str(args.seed)],
        ["--rubric", args.rubric] if args.rubric else [],
        _extra_args(args),
    )
    terminal(graded.grade, notes, extras=graded.extras, reproduce=reproduce)
    warning = load_warning(loads, graded.grade.session)
    if warning is not None:
        print(warning, file=sys.stderr)
    if args.json:
        _write(Path(args.json), results_json_text(graded.grade, notes, graded.extras, reproduce))
    if args.markdown:
        _write(Path(args.markdown), markdown(graded.grade, notes, graded.extras, reproduce))
    if args.html:
        _write(Path(args.html), feedback_html(graded.grade, notes, graded.extras, reproduce))
    return 0


def _not_installed(rubric: Rubric) -> str:
    """One line naming the packages the rubric allows that this Python lacks; "" if none.
    A submission that imports one would be graded by the grading machine, not its code."""
    missing = missing_packages(rubric.limits.packages)
    if not missing:
        return ""
    verb = "is" if len(missing) == 1 else "are"
    return (
        f"{' and '.join(missing)} {verb} allowed by the rubric but not installed here: "
        f"pip install {' '.join(missing)}"
    )


def _play(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="teeko-play-") as work:
        submission, assignment, _ = _open(args, work)
        rubric = load_rubric(args.rubric, assignment.pack)
        table = Table(assignment, rubric, submission.source_dir, PROJECT_ROOT, args.seed)
        table.new("play", assignment.pack.sides[1], "random")
        try:
            server = make_server(table, args.port)
        except OSError as err:
            table.close()
            raise GraderError(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror}") from None
        url = server.url  # with the session's token: no other page can drive this game
        print(f"playing {submission.label} as {assignment.name}: open {url} (Ctrl-C to stop)")
        sys.stdout.flush()
        if not args.no_browser:
            webbrowser.open(url)
        signal.signal(signal.SIGTERM, _interrupt)  # a polite kill closes the AI's processes too
        serve(server, table)
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _command(*parts: list[str]) -> str:
    """``autograder`` with these arguments, quoted for a shell, and the kit it was run with."""
    words = ["autograder", *(word for part in parts for word in part)]
    return f"{' '.join(shell_word(word) for word in words)}  # kit {kit_version()}"


def _extra_args(args: argparse.Namespace) -> list[str]:
    """The switches of ``check`` that add to the report (the extras), as given: part of the
    command that gives the same report again."""
    words = [
        flag
        for flag, on in (
            ("--ladder", args.ladder),
            ("--move-quality", args.move_quality),
            ("--challenge", args.challenge),
        )
        if on
    ]
    return words + (["--puzzles", str(args.puzzles)] if args.puzzles is not None else [])


def _extra_options(options: ExtraOptions, args: argparse.Namespace) -> ExtraOptions:
    """The rubric's [extras], with the command line's switches turned on over them."""
    return replace(
        options,
        ladder_games=max(options.ladder_games, 2 if args.ladder else 0),
        move_quality=options.move_quality or args.move_quality,
        puzzles=args.puzzles if args.puzzles is not None else options.puzzles,
        challenge_games=max(options.challenge_games, 2 if args.challenge else 0),
    )


def _grade(args: argparse.Namespace) -> int:
    assignment = _assignment(args.assignment)
    rubric = load_rubric(args.rubric, assignment.pack)
    out = Path(args.out)
    cores = os.cpu_count() or 1
    jobs = args.jobs if args.jobs is not None else cores
    if jobs < 1:
        raise GraderError(f"--jobs must be at least 1, got {jobs}")
    if args.roster and not Path(args.roster).is_file():
        raise GraderError(f"--roster: {args.roster} is not a file")
    roster = read_roster(Path(args.roster)) if args.roster else None
    err = _stderr_console()
    warnings = []
    missing = _not_installed(rubric)
    if missing:
        warnings.append(
            f"{missing}; submissions that import it are not graded here (their reason says "
            "so), and the same command grades them again once it is installed"
        )
        _say(err, f"warning: {warnings[-1]}")
    if jobs > cores and not args.cluster:
        _say(
            err,
            f"warning: --jobs {jobs} is more than the {cores} cores: moves may time out "
            "that would not on a quiet machine",
        )
    with (
        tempfile.TemporaryDirectory(prefix="teeko-intake-") as work,
        _cluster(args.cluster, err) as cluster,
    ):
        if cluster is not None:
            jobs = cluster.threads
        collection = collect(
            [Path(p) for p in args.inputs],
            Path(work),
            rubric.packaging_pattern,
            assignment.main_file,
            roster_logins(roster) if roster is not None else None,
        )
        for problem in collection.problems:
            _say(err, f"skipped: {problem}")
        identity = [f"identity: {warning}" for warning in collection.warnings]
        for warning in identity:
            _say(err, warning)
        if not collection.entries:
            raise GraderError("no submissions found in " + ", ".join(args.inputs))
        check_output(out, len(collection.entries))
        _say(
            err,
            f"grading {len(collection.entries)} students as {assignment.name}, seed {args.seed}, "
            f"{jobs} at a time, rubric {rubric.source}, into {out}",
        )
        unfenced = missing_line(available().missing(), "this machine grades the submissions")
        if unfenced and cluster is None:  # on a cluster, each worker says its own layers
            err.print(unfenced, style="bold red", markup=False, highlight=False, soft_wrap=True)
        result = _run_batch(collection.entries, assignment, rubric, out, args, jobs, err, cluster)
    records, notes = list(result.records), identity
    if roster is not None:
        found = match_roster(roster, records)
        records = roster_names(roster, found, records)
        notes = [*identity, *(f"roster: {problem}" for problem in found.problems)]
        for note in notes:
            _say(err, note)
    notes = [*warnings, *notes]
    try:
        written, unwritten = _write_outputs(records, out, rubric, notes, roster), ""
    except OSError as error:  # the students' own files are saved: a rerun writes these
        written, unwritten = (
            [],
            f"cannot write the grade sheet and summary into {out}: " + str(error.strerror or error),
        )
    if args.similarity and not result.interrupted and not unwritten and not result.write_failed:
        try:  # the grades are written whatever happens here
            written += _compare(args.inputs, assignment, rubric, out / "similarity", args, err)
        except GraderError as problem:
            _say(err, f"similarity not compared: {problem}")
    for path in written:
        print(path)
    saved = f"{len(result.records)} students are graded and saved in {out / 'students'}"
    if result.write_failed:
        also = f"; {unwritten}" if unwritten else ""
        raise GraderError(
            f"{result.write_failed}, so grading stopped{also}; {saved}, and the same command "
            "grades the rest once the folder has space and can be written (the grades saved "
            "are kept)"
        )
    if unwritten:
        raise GraderError(
            f"{unwritten}; {saved}: run the same command again once the folder has space and "
            "can be written, it grades nobody again and writes the grade sheet"
        )
    for name in OUTPUT_FILES:  # what an earlier run wrote and this one does not: not left stale
        path = out / name
        if path not in written and path.is_file():
            path.unlink()
            _say(err, f"removed {path}: {_STALE.get(name, 'an earlier run wrote it')}")
    if result.interrupted:
        _say(
            err,
            f"interrupted: {len(result.records)} students are graded and saved; run the "
            "same command again to grade the rest",
        )
        return 130
    return 0


def _similarity(args: argparse.Namespace) -> int:
    assignment = _assignment(args.assignment)
    rubric = load_rubric(args.rubric, assignment.pack)
    for path in _compare(args.inputs, assignment, rubric, Path(args.out), args, _stderr_console()):
        print(path)
    return 0


def _compare(
    inputs: Sequence[str],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    args: argparse.Namespace,
    err: Console,
) -> list[Path]:
    """The class in ``inputs`` compared (``autograder similarity``, ``grade --similarity``);
    the files written."""
    threshold = getattr(args, "threshold", Settings.threshold)
    if not 0 < threshold <= 1:
        raise GraderError(f"--threshold must be a share between 0 and 1, got {threshold}")
    settings = Settings(threshold=threshold)
    own = [Path(p) for p in getattr(args, "ignore", None) or ()]
    for path in own:
        if not path.exists():
            raise GraderError(f"--ignore: {path} does not exist")
    ignore = [
        *kit_boilerplate(
            assignment,
            starter=not getattr(args, "no_starter", False),
            answer_key=getattr(args, "ignore_answer_key", False),
        ),
        *own,
    ]
    comparison, problems = compare_class(
        [Path(p) for p in inputs],
        assignment,
        rubric.packaging_pattern,
        archives=[Path(p) for p in getattr(args, "archive", None) or ()],
        ignore=ignore,
        settings=settings,
    )
    for problem in problems:
        _say(err, f"skipped: {problem}")
    flagged = sum(p.flagged for p in comparison.pairs)
    archived = sum(d.archived for d in comparison.documents)
    _say(
        err,
        f"similarity: {len(comparison.documents) - archived} submissions compared with one "
        f"another and with {archived} archived; {flagged} pairs at or above "
        f"{threshold:.0%} flagged (no grade changed)",
    )
    return write_similarity(comparison, out, f"{assignment.pack.title} ({assignment.name})")


_STALE = {
    "canvas_import.csv": "it held an earlier run's grades; give --roster to write it again",
}


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
        write_canvas_import(records, roster, out / "canvas_import.csv")
        written.append(out / "canvas_import.csv")
    return written


def _stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


def _say(err: Console, text: str) -> None:
    """A plain line on stderr: no markup in student-made names, no wrapping mid-sentence."""
    err.print(text, markup=False, soft_wrap=True)


def _run_batch(
    entries: Sequence[Entry],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    args: argparse.Namespace,
    jobs: int,
    err: Console,
    cluster: Cluster | None = None,
) -> BatchResult:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=False) as progress:
        task = progress.add_task("grading", total=None)

        def done(record: Record, count: int, total: int) -> None:
            progress.update(
                task,
                completed=count,
                total=total,
                description=f"graded {record.student}: {record.score:g}",
            )

        result = grade_batch(
            entries,
            assignment,
            rubric,
            out,
            seed=args.seed,
            jobs=jobs,
            regrade=args.regrade,
            only=args.only or (),
            on_done=done,
            reproduce=lambda student: _command(
                ["grade", *args.inputs, "--assignment", assignment.name],
                ["--seed", str(args.seed), "--out", str(out)],
                ["--rubric", args.rubric] if args.rubric else [],
                ["--roster", args.roster] if args.roster else [],
                ["--only", student],
            ),
            runner=remote_grader(cluster) if cluster is not None else None,
        )
    if result.why:
        reasons = "; ".join(f"{why}: {count}" for why, count in result.why)
        _say(err, f"graded again: {reasons}")
    skipped = len(result.records) - result.graded_now
    if skipped > 0 and not result.interrupted:
        _say(
            err,
            f"{skipped} students already had a grade in {out}, made the same way, and were not "
            "graded again (--regrade grades everyone again)",
        )
    if result.measured_again:
        _say(
            err,
            f"measured again alone after the batch: {result.measured_again} students had moves "
            "whose time cost a time tier; the better of the two times counts",
        )
    if result.strangers:
        _say(
            err,
            f"left out of the grade sheet: {len(result.strangers)} student folders in "
            f"{out / 'students'} that none of these inputs holds: "
            f"{', '.join(result.strangers[:10])}; remove them, or grade with their inputs too",
        )
    if result.stale:
        _say(
            err,
            f"left out of the grade sheet: {len(result.stale)} students graded another way "
            f"(another rubric, seed, assignment or kit): {', '.join(result.stale[:10])}; run "
            "the same command again to grade them this way",
        )
    return result


@contextmanager
def _cluster(address: str | None, err: Console) -> Iterator[Cluster | None]:
    """The Dask cluster at ``address`` (None: none), its workers' sandboxes said on stderr."""
    if not address:
        yield None
        return
    cluster = Cluster(address)
    try:
        workers = cluster.workers()
        for worker, layers in sorted(workers.items()):
            _say(err, f"worker {worker} on {layers}")
        if len({layers.partition(": ")[2] for layers in workers.values()}) > 1:
            _say(err, "warning: the workers' sandboxes differ (above): a limit may bite unevenly")
        yield cluster
    finally:
        cluster.close()


def _tournament(args: argparse.Namespace) -> int:
    assignment = _assignment(args.assignment)
    rubric = load_rubric(args.rubric, assignment.pack)
    out = Path(args.out)
    rate([], [])  # the rating library is there, or one line says how to install it
    if args.format == "swiss" and args.rounds < 1:
        raise GraderError("--format swiss needs --rounds N, at least 1")
    if args.format != "swiss" and args.rounds:
        raise GraderError("--rounds goes with --format swiss; a round robin plays every pair")
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise GraderError(f"--jobs must be at least 1, got {jobs}")
    benchmarks = [name for name in (args.with_ or "").split(",") if name.strip()]
    if args.roster and not Path(args.roster).is_file():
        raise GraderError(f"--roster: {args.roster} is not a file")
    roster = read_roster(Path(args.roster)) if args.roster else None
    err = _stderr_console()
    with (
        tempfile.TemporaryDirectory(prefix="teeko-intake-") as work,
        _cluster(args.cluster, err) as cluster,
        ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="game") as pool,
    ):
        collection = collect(
            [Path(p) for p in args.inputs],
            Path(work),
            rubric.packaging_pattern,
            assignment.main_file,
            roster_logins(roster) if roster is not None else None,
        )
        for problem in collection.problems:
            _say(err, f"skipped: {problem}")
        for warning in collection.warnings:
            _say(err, f"identity: {warning}")
        players, problems = class_players(collection.entries, assignment, Path(work))
        for problem in problems:
            _say(err, f"skipped: {problem}")
        left_out = [*collection.problems, *problems]
        if roster is not None:
            players = _roster_names(roster, collection.entries, players, err)
        kit = kit_players([b.strip() for b in benchmarks], assignment, Path(work))
        clash = {p.id for p in players} & {k.id for k in kit}
        if clash:
            raise GraderError(f"a student's id is also a kit player's: {', '.join(sorted(clash))}")
        players += kit
        if len(players) < 2:
            raise GraderError(
                f"a tournament needs two players; found {len(players)} in {', '.join(args.inputs)}"
            )
        where = f"on the Dask cluster at {args.cluster}" if cluster else f"{jobs} at a time"
        form = f"Swiss, {args.rounds} rounds" if args.format == "swiss" else "round robin"
        _say(
            err,
            f"tournament of {len(players)} players ({len(kit)} of the kit's) as "
            f"{assignment.name}, {form}, seed {args.seed}, {where}, into {out}",
        )

        def submit(task: GameTask) -> Future[dict[str, Any]]:
            if cluster is not None:
                return cluster.submit(play_game, task)
            return pool.submit(play_game, task)

        result = _play_tournament(players, assignment, rubric, out, args, submit, err)
    table = rate([(p.id, p.kind, p.name) for p in players], result.games, rubric.tournament_bands)
    written = _write_tournament(
        table, result.games, players, assignment, out, args, result.workers, left_out
    )
    for path in written:
        print(path)
    for problem in result.failed:
        _say(err, problem)
    speed = result.played / result.seconds if result.seconds > 0 else 0.0
    _say(
        err,
        f"{result.played} games played in {result.seconds:.1f} s: {speed:.2f} games per "
        f"second; {len(result.games) - result.played} were saved already",
    )
    if result.interrupted or result.failed:
        _say(err, "not every game was played: run the same command again to play the rest")
        return 130 if result.interrupted else 2
    return 0


def _roster_names(
    roster: Roster, entries: Sequence[Entry], players: Sequence[Player], err: Console
) -> list[Player]:
    """The players with their names as the roster spells them, matched as ``grade`` matches
    a grade to its row; each mismatch said on stderr."""
    playing = {p.id for p in players}
    records = [
        Record(e.student, "", 0, 0, {}, late=e.late, canvas_id=e.canvas_id, name=e.name)
        for e in entries
        if e.student in playing
    ]
    found = match_roster(roster, records)
    for problem in found.problems:
        _say(err, f"roster: {problem}")
    names = {r.student: r.name or "" for r in roster_names(roster, found, records)}
    return [replace(p, name=names.get(p.id, p.name)) for p in players]


def _play_tournament(
    players: Sequence[Player],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    args: argparse.Namespace,
    submit: Submit,
    err: Console,
) -> TournamentResult:
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=err, transient=False) as progress:
        task = progress.add_task("playing", total=None)

        def done(game: dict[str, Any], count: int, total: int) -> None:
            won = game["winner"] or "draw"
            progress.update(task, completed=count, total=total, description=f"{game['id']}: {won}")

        return run_tournament(
            players,
            assignment,
            rubric,
            out,
            seed=args.seed,
            submit=submit,
            swiss_rounds=args.rounds if args.format == "swiss" else 0,
            on_game=done,
        )


def _write_tournament(
    table: Sequence[Standing],
    games: Sequence[dict[str, Any]],
    players: Sequence[Player],
    assignment: Assignment,
    out: Path,
    args: argparse.Namespace,
    workers: Sequence[tuple[str, str]],
    left_out: Sequence[str] = (),
) -> list[Path]:
    """leaderboard.csv, .json and .html, and a replay page per pair of players."""
    title = f"{assignment.pack.title} tournament ({assignment.name})"
    form = f"Swiss, {args.rounds} rounds" if args.format == "swiss" else "round robin, both colours"
    command = _command(
        ["tournament", *args.inputs, "--assignment", assignment.name, "--out", str(out)],
        ["--seed", str(args.seed)],
        ["--format", args.format]
        + (["--rounds", str(args.rounds)] if args.format == "swiss" else []),
        ["--with", args.with_] if args.with_ else [],
        ["--rubric", args.rubric] if args.rubric else [],
    )
    lines = [
        f"{len(players)} players, {len(games)} games, {form}, seed {args.seed}; rating: "
        "OpenSkill (Plackett-Luce), mu - 3 sigma, games rated in the schedule's order",
        "An illegal move, a crash, a timeout or a broken protocol loses that game (a forfeit).",
        *(f"played on {machine}: {layers}" for machine, layers in workers),
        *(f"did not play: {why}" for why in left_out),
        f"made by: {command}",
    ]
    about = {
        "assignment": assignment.name,
        "format": args.format,
        "rounds": args.rounds if args.format == "swiss" else None,
        "seed": args.seed,
        "games": len(games),
        "workers": [{"machine": m, "layers": layers} for m, layers in workers],
        "left_out": list(left_out),  # inputs and students that did not play, and why
    }
    written = [out / "leaderboard.csv", out / "leaderboard.json", out / "leaderboard.html"]
    _write(written[0], leaderboard_csv(table))
    _write(written[1], leaderboard_json(table, games, about))
    _write(written[2], leaderboard_html(title, table, games, lines))
    colours = dict(assignment.pack.colours)
    for (low, high), pair in replay_games(games).items():
        replays = [
            {
                "title": f"{g['id']}: {g['first']} moved first; "
                f"{(g['winner'] + ' won') if g['winner'] else 'a draw'}: {g['reason']}",
                "frames": g["frames"],
                "moves": g["moves"],
            }
            for g in pair
        ]
        page = replay_page(f"{low} against {high}", [], replays, colours)
        _write(out / pair_file(low, high), page)
    return written


def _assignment(name: str) -> Assignment:
    try:
        return find_assignment(name)
    except KeyError as err:
        raise GraderError(f"--assignment: {err}") from None


def _write(path: Path, text: str) -> None:
    try:
        write_atomic(path, text)
    except OSError as err:
        raise GraderError(f"cannot write {path}: {err.strerror}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder",
        description=f"Grade minimax homework ({', '.join(ASSIGNMENTS)}) by the course rubric.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check", help="grade one submission (a game.py, a folder or a zip) and print the report"
    )
    check.add_argument("submission", help="game.py, a folder holding it, or a zip")
    check.add_argument("--assignment", "-a", help=ASSIGNMENT_HELP)
    check.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    check.add_argument("--rubric", help=RUBRIC_HELP)
    check.add_argument("--json", metavar="FILE", help="also write a Gradescope results.json")
    check.add_argument("--markdown", metavar="FILE", help="also write the feedback as Markdown")
    check.add_argument(
        "--html", metavar="FILE", help="also write the feedback as a web page, games replayable"
    )
    extras = check.add_argument_group(
        "beyond the rubric (no points; perfect play needs the oracle)"
    )
    extras.add_argument("--ladder", action="store_true", help="play random→greedy→minimax→perfect")
    extras.add_argument(
        "--move-quality", action="store_true", help="rate each probe move against perfect play"
    )
    extras.add_argument("--puzzles", type=int, metavar="N", help="N puzzles of each kind")
    extras.add_argument(
        "--challenge", action="store_true", help="games vs perfect play if run_challenge_test()"
    )
    check.set_defaults(run=_check)

    grade = commands.add_parser(
        "grade", help="grade a class: folders, zips or Canvas's Download Submissions zip"
    )
    grade.add_argument("inputs", nargs="+", metavar="INPUT", help="folder, zip or Canvas zip")
    grade.add_argument("--assignment", "-a", required=True, help=ASSIGNMENT_HELP)
    grade.add_argument("--out", "-o", required=True, help="folder for grades and feedback")
    grade.add_argument("--jobs", "-j", type=int, help="submissions at a time (default: cores)")
    grade.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    grade.add_argument("--rubric", help=RUBRIC_HELP)
    grade.add_argument("--regrade", action="store_true", help="grade everyone again")
    grade.add_argument(
        "--only",
        nargs="+",
        metavar="STUDENT",
        help="grade these students again (their ids as in grades.csv), keep the others",
    )
    grade.add_argument("--roster", help="Canvas gradebook export: also write canvas_import.csv")
    grade.add_argument(
        "--similarity",
        action="store_true",
        help="also compare the class's code (starter ignored) into OUT/similarity/",
    )
    grade.add_argument("--cluster", metavar="tcp://HOST:PORT", help=CLUSTER_HELP)
    grade.set_defaults(run=_grade)
    tourney = commands.add_parser(
        "tournament",
        help="every student's AI against every other's, rated, with replays",
        description="Play the class's AIs against one another (each sandboxed, the rubric's "
        "limits, the kit's referee between them), both colours, and rate them with OpenSkill. "
        "Writes leaderboard.csv, leaderboard.json, leaderboard.html and a replay page per "
        "pair; each game is saved as it ends, so the same command again plays only what is "
        "missing. Changes no grade.",
    )
    tourney.add_argument("inputs", nargs="+", metavar="CLASS", help="as for grade")
    tourney.add_argument("--assignment", "-a", required=True, help=ASSIGNMENT_HELP)
    tourney.add_argument("--out", "-o", required=True, help="folder for the leaderboard and games")
    tourney.add_argument(
        "--with",
        dest="with_",
        metavar="PLAYERS",
        help="the kit's players as benchmarks, comma-separated: the game's opponents (random, "
        f"greedy, minimax2 ...), {', '.join(KIT_PLAYERS)}",
    )
    tourney.add_argument(
        "--format",
        choices=("roundrobin", "swiss"),
        default="roundrobin",
        help="roundrobin: every pair, both colours (default); swiss: --rounds rounds, each "
        "player against one of like standing, both colours",
    )
    tourney.add_argument("--rounds", type=int, default=0, help="rounds of a Swiss tournament")
    tourney.add_argument(
        "--roster", help="Canvas gradebook export: the players' names as it has them"
    )
    tourney.add_argument("--jobs", "-j", type=int, help="games at a time (default: cores)")
    tourney.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    tourney.add_argument("--rubric", help=RUBRIC_HELP + "; its limits and ply cap hold")
    tourney.add_argument("--cluster", metavar="tcp://HOST:PORT", help=CLUSTER_HELP)
    tourney.set_defaults(run=_tournament)
    similar = commands.add_parser(
        "similarity",
        help="who shared code: the class compared, renaming and reordering seen through",
        description="Compare every submission with every other and with archived solutions "
        "(earlier terms, public copies): winnowed fingerprints of normalised Python tokens, "
        "the homework's starter never counted. Writes similarity.csv, similarity.html and a "
        "side-by-side page per flagged pair; changes no grade.",
    )
    similar.add_argument("inputs", nargs="+", metavar="CLASS", help="as for grade")
    similar.add_argument("--assignment", "-a", required=True, help=ASSIGNMENT_HELP)
    similar.add_argument("--out", "-o", required=True, help="folder for the report")
    similar.add_argument(
        "--archive",
        action="append",
        metavar="FOLDER",
        help="earlier or public solutions, one per file, zip or subfolder; compared with the "
        "class, not with one another (repeatable)",
    )
    similar.add_argument(
        "--threshold",
        type=float,
        default=Settings.threshold,
        help="flag a pair when either side has this share of its own code matched "
        f"(default {Settings.threshold})",
    )
    similar.add_argument(
        "--ignore-answer-key",
        action="store_true",
        help="also treat the kit's answer key as boilerplate (once it was handed out)",
    )
    similar.add_argument(
        "--ignore",
        action="append",
        metavar="PATH",
        help="more boilerplate: a file or folder of code that never counts as shared",
    )
    similar.add_argument(
        "--no-starter",
        action="store_true",
        help="do not read the kit's starter (the course's own goes in with --ignore)",
    )
    similar.add_argument("--rubric", help=RUBRIC_HELP + "; its zip name pattern finds netids")
    similar.set_defaults(run=_similarity)
    play = commands.add_parser(
        "play",
        help="play against the submission's AI, or watch it play, in the browser",
        description="Serve a page on 127.0.0.1 where you play against the submission's AI (in "
        "the grader's sandbox, with the rubric's time limit) or watch it play the kit's "
        "opponents.",
    )
    play.add_argument("submission", help="game.py, a folder holding it, or a zip")
    play.add_argument("--assignment", "-a", help=ASSIGNMENT_HELP)
    play.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    play.add_argument("--rubric", help=RUBRIC_HELP)
    play.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    play.add_argument("--no-browser", action="store_true", help="print the address only")
    play.set_defaults(run=_play)
    add_gradescope_command(commands)
    add_starter_command(commands)
    add_canvas_commands(commands)
    add_oracle_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    return run_command(build_parser(), argv)


if __name__ == "__main__":
    sys.exit(main())
