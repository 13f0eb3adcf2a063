"""A class tournament (``autograder tournament``): every student's AI against every other's.

The class comes in exactly as ``grade`` takes it (:func:`~autograder.classroom.collect.collect`
and the same identity rules); each submission is staged as the batch stages it and travels to
the game as bytes, so a game runs the same in a local thread or on a Dask worker on another
machine. Each game's record is written the moment it ends (``games/<first>--<second>--<n>.json``)
and names what it was played from, so a rerun plays only the games missing or made otherwise;
the table is rated from the records in the schedule's order, so the same inputs and seed give
the same table however the games were spread.
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.classroom.fingerprint import kit_version
from autograder.classroom.intake import open_submission, require_files
from autograder.classroom.openings import fair_openings
from autograder.classroom.records import Entry
from autograder.errors import GraderError
from autograder.files import kit_path, write_atomic
from autograder.games import find_assignment
from autograder.games.pack import Assignment, Opponent
from autograder.games.perfect import OracleError
from autograder.grading.html import replay_frames
from autograder.grading.rubric import Rubric
from autograder.oracle.player import oracle_for, perfect_opponent, within_reach
from autograder.play.match import Entrant, play_match
from autograder.play.records import Ply
from autograder.play.sandbox import available

__all__ = [
    "Player",
    "Pairing",
    "GameTask",
    "KIT_PLAYERS",
    "KIT_PREFIX",
    "TournamentResult",
    "class_players",
    "kit_players",
    "round_robin",
    "swiss_round",
    "play_game",
    "run_tournament",
    "saved_game",
    "short_layers",
]

_ROOT = kit_path()  # solution/ lies here, in a checkout or an installed kit
KIT_PREFIX = "kit-"  # the kit's players' ids: kit-random, kit-solution ...
# what --with takes beyond the pack's own opponents (random, greedy, minimax2 ...)
KIT_PLAYERS = {
    "solution": "the reference solution",
    "answer-key": "the answer key",
    "perfect": "the perfect player",
}
_MAX_FILES = 200  # files of one staged submission sent to a game; more is not a homework


@dataclass(frozen=True)
class Player:
    """One entrant, as a game needs it anywhere: its files as bytes, or the kit player's id."""

    id: str
    kind: str  # "student" or "kit"
    name: str = ""  # as people know it: a Canvas name, "the random player"
    files: tuple[tuple[str, bytes], ...] = ()  # the staged submission: path -> content
    opponent: str = ""  # a kit player played in-process: random, greedy, minimax2, perfect

    @functools.cached_property
    def digest(self) -> str:
        """What a saved game was played from: a changed file replays this player's games."""
        h = hashlib.sha256(self.opponent.encode())
        for path, data in self.files:
            h.update(path.encode() + b"\0" + hashlib.sha256(data).digest())
        return h.hexdigest()[:16]


@dataclass(frozen=True)
class Pairing:
    """One game of the schedule: ``first`` moves first, from opening number ``opening`` (0:
    the game's start) in Swiss round ``round`` (1 in a round robin)."""

    first: str
    second: str
    round: int
    opening: int = 0

    @property
    def id(self) -> str:
        played_from = f"-o{self.opening}" if self.opening else ""
        return f"{self.first}--{self.second}--{self.round}{played_from}"


@dataclass(frozen=True)
class GameTask:
    """Everything one game needs, picklable: sent as is to a Dask worker."""

    pairing: Pairing
    first: Player
    second: Player
    assignment: str
    rubric: Rubric
    seed: int  # the tournament's
    opening: tuple[Any, ...] = ()  # the pack's moves played first, by the kit


@dataclass(frozen=True)
class TournamentResult:
    games: tuple[dict[str, Any], ...]  # every game of the schedule, in the rating's order
    played: int  # played in this run (the rest were saved already)
    seconds: float  # spent playing them
    interrupted: bool
    workers: tuple[tuple[str, str], ...] = ()  # (machine, its sandbox layers) that played
    failed: tuple[str, ...] = ()  # games the grader could not play, one sentence each


# ---- who plays ----------------------------------------------------------------------------------


def _files(folder: Path) -> tuple[tuple[str, bytes], ...]:
    found = sorted(p for p in folder.rglob("*") if p.is_file())
    if len(found) > _MAX_FILES:
        raise GraderError(f"{len(found)} files: submit only the files of the homework")
    return tuple((p.relative_to(folder).as_posix(), p.read_bytes()) for p in found)


def _staged(path: Path, assignment: Assignment, work: Path) -> tuple[tuple[str, bytes], ...]:
    """The submission in ``path`` staged as the batch stages it, as bytes."""
    submission = open_submission(path, work, assignment.main_file, assignment.pack.files)
    require_files(submission, assignment.pack)
    return _files(submission.source_dir)


def class_players(
    entries: Sequence[Entry], assignment: Assignment, work: Path
) -> tuple[list[Player], list[str]]:
    """A player per student whose submission opens (as ``grade`` opens it), and one sentence
    per student left out, saying why."""
    players, problems = [], []
    for entry in entries:
        try:
            files = _staged(entry.path, assignment, work / "students" / entry.student)
        except GraderError as err:
            problems.append(f"{entry.student} does not play: {err}")
            continue
        players.append(Player(entry.student, "student", entry.name or "", files))
    return players, problems


def kit_players(names: Iterable[str], assignment: Assignment, work: Path) -> list[Player]:
    """The kit's players named in ``--with`` (the pack's opponents, the solution, the answer
    key, perfect play).

    :raises GraderError: for a name the kit has no player for, or files it does not ship.
    """
    pack, players = assignment.pack, []
    known = [*pack.opponents, *KIT_PLAYERS]
    for name in names:
        ident = KIT_PREFIX + name
        if name in pack.opponents:
            players.append(Player(ident, "kit", pack.opponents[name][0], opponent=name))
        elif name == "perfect":
            _perfect(assignment.name)  # fail now, in one sentence, not in every game
            players.append(Player(ident, "kit", KIT_PLAYERS[name], opponent=name))
        elif name in ("solution", "answer-key"):
            starter = (_ROOT / pack.starter(assignment.variant)).parent
            folder = (
                (_ROOT / pack.solution(assignment.variant)).parent
                if name == "solution"
                else _ROOT / "answer_key" / starter.relative_to(_ROOT / "starter")
            )
            if not (folder / assignment.main_file).is_file():
                raise GraderError(f"--with {name}: the kit has no {name} for {assignment.name}")
            files = _staged(folder, assignment, work / "kit" / name)
            players.append(Player(ident, "kit", KIT_PLAYERS[name], files))
        else:
            raise GraderError(
                f"--with: the kit has no player {name!r} for {assignment.name}; choose from "
                + ", ".join(known)
            )
    return players


@functools.cache
def _perfect(assignment: str) -> Opponent[Any, Any]:
    """Perfect play, loaded once per process (Teeko's table is large)."""
    chosen = find_assignment(assignment)
    try:
        oracle = oracle_for(chosen)
    except OracleError as err:
        raise GraderError(f"--with perfect: {err}") from None
    if not within_reach(oracle, chosen.pack.start(chosen.variant)):
        raise GraderError(
            f"--with perfect: {assignment} is too big for the kit's perfect player, which "
            "solves it only near the end of a game; take --with solution, the kit's strongest "
            "player, instead"
        )
    return perfect_opponent(oracle)


# ---- the schedule -------------------------------------------------------------------------------


def _both_colours(a: str, b: str, number: int, openings: int) -> list[Pairing]:
    low, high = sorted((a, b))
    return [
        Pairing(first, second, number, opening)
        for opening in range(openings)
        for first, second in ((low, high), (high, low))
    ]


def round_robin(ids: Sequence[str], openings: int = 1) -> list[Pairing]:
    """Every pair, both colours, from each of ``openings`` positions, pair by pair in the
    circle method's order; each game's id names its players and opening only, so a late
    student adds games and replays none."""
    order = sorted(ids)
    if len(order) % 2:
        order.append("")  # the bye
    pairings = []
    n = len(order)
    for _ in range(n - 1):
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if a and b:
                pairings += _both_colours(a, b, 1, openings)
        order = [order[0], order[-1], *order[1:-1]]
    return pairings


def swiss_round(
    ids: Sequence[str], games: Sequence[Mapping[str, Any]], number: int, openings: int = 1
) -> list[Pairing]:
    """Round ``number`` of a Swiss tournament: players by points so far (a win 1, a draw ½;
    ties by id), each paired with the next one it has not met, both colours from each of
    ``openings`` positions; with an odd count the lowest-placed player not yet given a bye
    sits out."""
    points = dict.fromkeys(ids, 0.0)
    met: set[frozenset[str]] = set()
    byes = set()
    for game in games:
        if game["first"] in points and game["second"] in points:
            met.add(frozenset((game["first"], game["second"])))
            for pid in (game["first"], game["second"]):
                points[pid] += (
                    1.0 if game["winner"] == pid else 0.5 if game["winner"] is None else 0
                )
    for rnd in range(1, number):  # who sat out before: those in no game of that round
        played = {g[k] for g in games if g["round"] == rnd for k in ("first", "second")}
        byes |= set(ids) - played
    order = sorted(ids, key=lambda p: (-points[p], p))
    if len(order) % 2:
        out = next((p for p in reversed(order) if p not in byes), order[-1])
        order.remove(out)
    pairings = []
    while order:
        a = order.pop(0)
        b = next((p for p in order if frozenset((a, p)) not in met), order[0])
        order.remove(b)
        pairings += _both_colours(a, b, number, openings)
    return pairings


# ---- one game, anywhere -------------------------------------------------------------------------


def game_seed(seed: int, pairing: Pairing) -> int:
    """A game's seed: fixed by the tournament's seed and the game's id, nothing else."""
    digest = hashlib.sha256(f"{seed}:{pairing.id}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _entrant(player: Player, assignment: Assignment, work: Path) -> Entrant:
    if player.files:
        folder = work / player.id
        for path, data in player.files:
            target = folder / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return Entrant(player.id, folder)
    if player.opponent == "perfect":
        return Entrant(player.id, opponent=_perfect(assignment.name))
    return Entrant(player.id, opponent=assignment.pack.opponents[player.opponent][1])


def fingerprint(task: GameTask) -> dict[str, str]:
    """What a game's outcome depends on: a saved game with another one is played again."""
    return {
        "kit": kit_version(),
        "rubric": task.rubric.digest,
        "assignment": task.assignment,
        "seed": str(task.seed),
        "first": task.first.digest,
        "second": task.second.digest,
        "opening": repr(_student_moves(task)),
    }


def _student_moves(task: GameTask) -> list[Any]:
    """The task's opening as the homework writes moves (plain data, for records)."""
    pack = find_assignment(task.assignment).pack
    return [pack.student_move(move) for move in task.opening]


def play_game(task: GameTask) -> dict[str, Any]:
    """Play one game in this machine's sandbox and return its record: the result, the reason,
    the replay, and the machine and sandbox layers it was played with."""
    assignment = find_assignment(task.assignment)
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="teeko-game-") as work:
        first = _entrant(task.first, assignment, Path(work))
        second = _entrant(task.second, assignment, Path(work))
        match = play_match(
            assignment,
            task.rubric.plan,
            first,
            second,
            game_seed(task.seed, task.pairing),
            opening=task.opening,
        )
    names = {assignment.pack.sides[0]: match.first, assignment.pack.sides[1]: match.second}
    opening = {id(ply) for ply in match.moves[: len(task.opening)]}

    def who(ply: Ply) -> str:
        return "the opening" if id(ply) in opening else names[ply.side]

    ending = f"{match.winner} won" if match.winner else "a draw"
    frames, moves = replay_frames(assignment, match.moves, who, f"{ending}: {match.reason}")
    return {
        "id": task.pairing.id,
        "round": task.pairing.round,
        "opening": task.pairing.opening,
        "opening_moves": _student_moves(task),
        "first": match.first,
        "second": match.second,
        "winner": match.winner,
        "fault": match.fault,
        "reason": match.reason,
        "plies": match.plies,
        "seconds": [round(s, 3) for s in match.seconds],
        "wall_seconds": round(time.monotonic() - began, 3),
        "machine": platform.node(),
        "layers": available().describe(),
        "fingerprint": fingerprint(task),
        "frames": frames,
        "moves": moves,
    }


def short_layers(layers: Iterable[str]) -> str:
    """Sandbox layers (``Protections.describe``) by their names alone: "fence; cgroups v1"."""
    return "; ".join(item.split(":")[0].split(";")[0] for item in layers)


# ---- the whole tournament -----------------------------------------------------------------------

Submit = Callable[[GameTask], Future[dict[str, Any]]]  # a game to a pool: local or Dask


def _game_path(out: Path, pairing: Pairing) -> Path:
    return out / "games" / f"{pairing.id}.json"


def saved_game(out: Path, task: GameTask) -> dict[str, Any] | None:
    """The game's saved record, when it was played from the same players, rubric and seed."""
    try:
        game: dict[str, Any] = json.loads(_game_path(out, task.pairing).read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return game if game.get("fingerprint") == fingerprint(task) else None


def run_tournament(
    players: Sequence[Player],
    assignment: Assignment,
    rubric: Rubric,
    out: Path,
    *,
    seed: int,
    submit: Submit,
    swiss_rounds: int = 0,
    on_game: Callable[[dict[str, Any], int, int], None] | None = None,
) -> TournamentResult:
    """Play every game of the schedule not saved in ``out`` yet (round robin; with
    ``swiss_rounds``, that many Swiss rounds, each paired from the ones before), through
    ``submit``; each record is written as it comes back. ``on_game(game, done, total)`` runs in
    this thread after each. Ctrl-C keeps what finished."""
    by_id = {p.id: p for p in players}
    ids = sorted(by_id)
    games: list[dict[str, Any]] = []
    played, spent, interrupted = 0, 0.0, False
    failed: list[str] = []
    machines: dict[str, str] = {}
    rounds = range(1, swiss_rounds + 1) if swiss_rounds else range(1, 2)
    openings = fair_openings(assignment, rubric.openings, rubric.opening_plies, seed)
    for number in rounds:
        schedule = (
            swiss_round(ids, games, number, len(openings))
            if swiss_rounds
            else round_robin(ids, len(openings))
        )
        tasks = [
            GameTask(
                p,
                by_id[p.first],
                by_id[p.second],
                assignment.name,
                rubric,
                seed,
                openings[p.opening],
            )
            for p in schedule
        ]
        done = {t.pairing.id: g for t in tasks if (g := saved_game(out, t)) is not None}
        missing = [t for t in tasks if t.pairing.id not in done]
        began = time.monotonic()
        futures: dict[Future[dict[str, Any]], GameTask] = {}
        try:
            futures = {submit(t): t for t in missing}
            remaining = set(futures)
            while remaining:
                ready, remaining = wait(remaining, return_when=FIRST_COMPLETED)
                for future in ready:
                    task = futures[future]
                    try:
                        game = future.result()
                    except Exception as err:  # a grader or cluster fault: this game, not all
                        failed.append(f"{task.pairing.id} was not played: {err!r}")
                        continue
                    write_atomic(_game_path(out, task.pairing), json.dumps(game) + "\n")
                    done[task.pairing.id] = game
                    machines[game["machine"]] = short_layers(game["layers"])
                    played += 1
                    if on_game is not None:
                        on_game(game, len(done), len(tasks))
        except KeyboardInterrupt:
            interrupted = True
            for future in futures:
                future.cancel()
        spent += time.monotonic() - began
        games += [done[t.pairing.id] for t in tasks if t.pairing.id in done]
        if interrupted or failed:
            break  # a Swiss round is paired from the whole round before
    return TournamentResult(
        tuple(games), played, spent, interrupted, tuple(sorted(machines.items())), tuple(failed)
    )


def replay_games(games: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], list[Any]]:
    """The games of each pair (ids sorted), in the schedule's order, for the replay pages."""
    pairs: dict[tuple[str, str], list[Any]] = {}
    for game in games:
        low, high = sorted((game["first"], game["second"]))
        pairs.setdefault((low, high), []).append(game)
    return pairs
