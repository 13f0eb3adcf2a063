"""A class tournament (``autograder tournament``): the class collected as ``grade`` collects
it, the kit's players beside it when asked, every game played (here or on a Dask cluster) and
the leaderboard and replay pages written. Changes no grade.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autograder.classroom.canvas import Roster, match_roster, roster_names
from autograder.classroom.class_run import (
    ClassRun,
    Listener,
    class_at_hand,
    command_line,
    set_up,
    write_output,
)
from autograder.classroom.records import Entry, Record
from autograder.classroom.tournament import (
    GameTask,
    Player,
    TournamentResult,
    class_players,
    kit_players,
    play_game,
    replay_games,
    run_tournament,
)
from autograder.errors import GraderError
from autograder.games.pack import Assignment
from autograder.grading.html import replay_page
from autograder.grading.tournament import (
    RATING,
    Standing,
    leaderboard_csv,
    leaderboard_html,
    leaderboard_json,
    pair_file,
    rate,
)

__all__ = ["TournamentRequest", "ClassTournament", "class_tournament"]


@dataclass(frozen=True)
class TournamentRequest(ClassRun):
    """A class tournament, as ``autograder tournament`` takes it: the rubric's limits and ply
    cap hold, and a roster names the players."""

    format: str = "roundrobin"  # or "swiss"
    rounds: int = 0  # rounds of a Swiss tournament
    kit: str | None = None  # the kit's players as benchmarks, comma-separated (``--with``)

    @property
    def swiss(self) -> bool:
        return self.format == "swiss"


@dataclass(frozen=True)
class ClassTournament:
    """What the tournament did: the files written, its games as run, and the table."""

    written: tuple[Path, ...]
    result: TournamentResult
    table: tuple[Standing, ...] = ()


def _check_format(request: TournamentRequest) -> None:
    """Refuse a format the request cannot be played in.

    :raises GraderError: in one sentence saying what to give."""
    if request.swiss and request.rounds < 1:
        raise GraderError("--format swiss needs --rounds N, at least 1")
    if not request.swiss and request.rounds:
        raise GraderError("--rounds goes with --format swiss; a round robin plays every pair")


def class_tournament(request: TournamentRequest, listener: Listener) -> ClassTournament:
    """Every player against every other (or Swiss rounds), rated, into ``request.out``; a
    game saved by an earlier run the same way is not played again.

    :raises GraderError: for a bad setting or input, or fewer than two players."""
    setup = set_up(request, lambda: _check_format(request))
    assignment, rubric, jobs, roster = setup.assignment, setup.rubric, setup.jobs, setup.roster
    out = request.out
    benchmarks = [name.strip() for name in (request.kit or "").split(",") if name.strip()]
    with (
        class_at_hand(request, setup, listener) as at_hand,
        ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="game") as pool,
    ):
        collection, cluster, work = at_hand.collection, at_hand.cluster, at_hand.work
        players, problems = class_players(collection.entries)
        for problem in problems:
            listener.say(f"skipped: {problem}")
        left_out = [*collection.problems, *problems]
        if roster is not None:
            players = _roster_names(roster, collection.entries, players, listener)
        kit = kit_players(benchmarks, assignment, work)
        clash = {p.id for p in players} & {k.id for k in kit}
        if clash:
            raise GraderError(f"a student's id is also a kit player's: {', '.join(sorted(clash))}")
        players += kit
        if len(players) < 2:
            raise GraderError(
                f"a tournament needs two players; found {len(players)} in "
                + ", ".join(request.inputs)
            )
        where = f"on the Dask cluster at {request.cluster}" if cluster else f"{jobs} at a time"
        form = f"Swiss, {request.rounds} rounds" if request.swiss else "round robin"
        listener.say(
            f"tournament of {len(players)} players ({len(kit)} of the kit's) as "
            f"{assignment.name}, {form}, seed {request.seed}, {where}, into {out}"
        )

        def submit(task: GameTask) -> Future[dict[str, Any]]:
            if cluster is not None:
                return cluster.submit(play_game, task)
            return pool.submit(play_game, task)

        with listener.track("playing") as update:
            result = run_tournament(
                players,
                assignment,
                rubric,
                out,
                seed=request.seed,
                submit=submit,
                swiss_rounds=request.rounds if request.swiss else 0,
                on_game=lambda g, done, total: update(
                    done, total, f"{g['id']}: {g['winner'] or 'draw'}"
                ),
            )
    table = rate([(p.id, p.kind, p.name) for p in players], result.games, rubric.tournament_bands)
    written = _write_tournament(table, result, players, assignment, request, left_out)
    return ClassTournament(tuple(written), result, tuple(table))


def _roster_names(
    roster: Roster, entries: Sequence[Entry], players: Sequence[Player], listener: Listener
) -> list[Player]:
    """The players with their names as the roster spells them, matched as ``grade`` matches
    a grade to its row; each mismatch said."""
    playing = {p.id for p in players}
    records = [
        Record(e.student, "", 0, 0, {}, late=e.late, canvas_id=e.canvas_id, name=e.name, id=e.key)
        for e in entries
        if e.student in playing
    ]
    found = match_roster(roster, records)
    for problem in found.problems:
        listener.say(f"roster: {problem}")
    names = {r.student: r.name or "" for r in roster_names(roster, found, records)}
    return [replace(p, name=names.get(p.id, p.name)) for p in players]


_GAMES_NAMED = 5  # games named in a line about games played without a sandbox layer


def _without_layers(games: Sequence[Mapping[str, Any]]) -> list[str]:
    """One warning per set of sandbox layers some games were played without, naming them."""
    by_layers: dict[tuple[str, ...], list[str]] = {}
    for game in games:
        missing = tuple(game.get("missing_layers") or ())
        if missing:
            by_layers.setdefault(missing, []).append(str(game["id"]))
    lines = []
    for missing, ids in sorted(by_layers.items()):
        more = f" and {len(ids) - _GAMES_NAMED} more" if len(ids) > _GAMES_NAMED else ""
        lines.append(
            f"warning: {len(ids)} games were played without {', '.join(missing)} "
            f"({', '.join(ids[:_GAMES_NAMED])}{more}); see docs/sandbox.md"
        )
    return lines


def _byes(players: Sequence[Player], games: Sequence[Mapping[str, Any]], rounds: int) -> list[str]:
    """Who sat a Swiss round out (an odd count leaves one player without a game), so that a
    player with fewer games is seen to have had a bye, not a forfeit."""
    sat = []
    for number in range(1, rounds + 1):
        played = {g[k] for g in games if g.get("round") == number for k in ("first", "second")}
        if played:
            sat += [f"round {number}: {p.id}" for p in players if p.id not in played]
    return [f"byes (a round without a game): {'; '.join(sat)}"] if sat else []


def _write_tournament(
    table: Sequence[Standing],
    result: TournamentResult,
    players: Sequence[Player],
    assignment: Assignment,
    request: TournamentRequest,
    left_out: Sequence[str] = (),
) -> list[Path]:
    """leaderboard.csv, .json and .html, and a replay page per pair of players.

    :raises GraderError: when one cannot be written."""
    out, games, workers = request.out, result.games, result.workers
    title = f"{assignment.pack.title} tournament ({assignment.name})"
    form = f"Swiss, {request.rounds} rounds" if request.swiss else "round robin, both colours"
    rounds = ["--rounds", str(request.rounds)] if request.swiss else []
    command = command_line(
        ["tournament", *request.inputs, "--assignment", assignment.name, "--out", str(out)],
        ["--seed", str(request.seed)],
        ["--format", request.format, *rounds],
        ["--with", request.kit] if request.kit else [],
        ["--rubric", request.rubric] if request.rubric else [],
        ["--roster", request.roster] if request.roster else [],
    )
    incomplete = result.incomplete
    lines = [
        *(
            [f"{incomplete}: the table rates only these; run the same command again"]
            if incomplete
            else []
        ),
        f"{len(players)} players, {len(games)} games, {form}, seed {request.seed}; "
        f"rating: {RATING}",
        "An illegal move, a crash, a timeout or a broken protocol loses that game (a forfeit).",
        *(f"played on {machine}: {layers}" for machine, layers in workers),
        *_without_layers(games),
        *(_byes(players, games, request.rounds) if request.swiss else []),
        *(f"did not play: {why}" for why in left_out),
        f"made by: {command}",
    ]
    about = {
        "assignment": assignment.name,
        "format": request.format,
        "rounds": request.rounds if request.swiss else None,
        "seed": request.seed,
        "games": len(games),
        "incomplete": incomplete,  # None when every game of the schedule was played
        "workers": [{"machine": m, "layers": layers} for m, layers in workers],
        "left_out": list(left_out),  # inputs and students that did not play, and why
    }
    written = [out / "leaderboard.csv", out / "leaderboard.json", out / "leaderboard.html"]
    write_output(written[0], leaderboard_csv(table, incomplete))
    write_output(written[1], leaderboard_json(table, games, about))
    write_output(written[2], leaderboard_html(title, table, games, lines))
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
        write_output(out / pair_file(low, high), page)
    return written
