"""The referee: plays graded games and probe positions against a submission's process.

It owns the rules, the random opponent, the clock and the record; the submission only answers
requests through the host. The result is a :class:`Session` of plain records that scoring and
the reports read; nothing here decides points.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, cast

from autograder.host import Limits, PlayerProcess, Reply, Status
from autograder.rubric import Rubric
from autograder.rules import (
    Move,
    MoveError,
    Position,
    format_problem,
    is_drop_phase,
    legal_moves,
    outcome,
    play,
    read_student_move,
    start,
    to_board,
)
from autograder.sandbox import available
from autograder.untrusted import clean
from autograder.variants import Variant

__all__ = [
    "Call",
    "Game",
    "Session",
    "Opponent",
    "run_session",
    "play_game",
    "ask_positions",
    "make_budget",
    "default_spawner",
    "Spawner",
    "random_opponent",
    "probe_positions",
    "random_position",
    "decode",
]

# ---- records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One ``make_move`` call: where, on what position, what came back and what was wrong."""

    where: str
    position: Position
    status: Status
    seconds: float
    returned: str = ""  # repr of the returned value, for reports
    illegal: str | None = None  # the engine's reason when the move is malformed or illegal
    format_problem: str | None = None
    changed: str | None = None  # what make_move modified
    printed: str = ""
    error: str | None = None  # crash, exit, timeout: what happened instead of a move
    move: Move | None = None  # the move, when it was legal
    other_seconds: float = 0.0  # of ``seconds``: the calls before make_move (construction, sync)
    other_calls: str = ""  # what those were, for reports
    cpu_seconds: float | None = None  # CPU time of all its processes over those calls (cgroups)

    @property
    def phase(self) -> str:
        return "drop" if is_drop_phase(self.position) else "move"

    @property
    def answered(self) -> bool:
        return self.status is Status.OK


@dataclass(frozen=True)
class Game:
    number: int
    ai_piece: str
    result: str  # "win", "loss" or "draw", for the submission
    reason: str
    plies: int
    final: Position
    calls: tuple[Call, ...]
    notes: tuple[str, ...] = ()
    printed: str = ""  # printed outside make_move: __init__, place_piece, opponent_move


@dataclass(frozen=True)
class Session:
    """Everything the referee saw while grading one submission."""

    submission: str
    variant: Variant
    seed: int
    rubric: Rubric
    load_error: str | None = None  # the submission could not be started at all
    import_printed: str = ""
    games: tuple[Game, ...] = ()
    probes: tuple[Call, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    protections: tuple[str, ...] = ()  # the sandbox layers that were active, for the report

    @property
    def calls(self) -> tuple[Call, ...]:
        return tuple(c for g in self.games for c in g.calls) + self.probes


_RETURNED_SHOWN = 300  # characters of a returned value's repr kept for reports
SHOWN_BEFORE = 0.05  # seconds in the calls before make_move worth naming in a report
_NOTES_KEPT = 4  # notes kept from one sync reply (the runner writes at most three)

# ---- the values a child reports ----------------------------------------------------------------


class _Foreign:
    """A returned value the grader only knows by its type name and repr (numpy ints, objects)."""

    def __init__(self, text: str, number: int | None) -> None:
        self._text, self._number = text, number

    def __repr__(self) -> str:
        return self._text

    def __index__(self) -> int:
        if self._number is None:
            raise TypeError("not an integer")
        return self._number


@functools.lru_cache(maxsize=256)  # bounded: a submission may invent a name per call
def _stand_in(base: type, type_name: str) -> type:
    """A subclass of ``base`` named as the submission's class was, for reports and format."""
    module, _, name = type_name.rpartition(".")
    namespace: dict[str, Any] = {"__module__": module or "builtins", "__qualname__": name}
    if base is tuple:  # shown as the submission would print it: Square(2, 3)
        namespace["__repr__"] = lambda self: f"{name}{tuple.__repr__(self)}"
    return type(name, (base,), namespace)


def _foreign(type_name: str, text: str, number: int | None) -> _Foreign:
    return cast(_Foreign, _stand_in(_Foreign, type_name)(text, number))


def decode(description: Any) -> Any:
    """Rebuild a returned value from the child's JSON description (see ``child.encode``)."""
    if not isinstance(description, dict):
        return _foreign("unknown", repr(description), None)
    if "bool" in description:
        return bool(description["bool"])
    if "int" in description and isinstance(description["int"], int):
        return description["int"]
    if "none" in description:
        return None
    for kind in (list, tuple):
        if isinstance(description.get(kind.__name__), list):
            items = [decode(item) for item in description[kind.__name__]]
            size = description.get("size", len(items))
            if isinstance(size, int) and size > len(items):
                items.append(_foreign("ellipsis", f"... {size - len(items)} more", None))
            if "type" in description:  # a subclass (a namedtuple): its values, its own name
                return _stand_in(kind, str(description["type"]))(items)
            return kind(items)
    if "index" in description:
        return _foreign(
            str(description.get("type")), str(description.get("repr")), description["index"]
        )
    return _foreign(
        str(description.get("other", "object")), str(description.get("repr", "?")), None
    )


# ---- probes ------------------------------------------------------------------------------------


def random_position(variant: Variant, rng: random.Random, plies: int) -> Position | None:
    """The position after ``plies`` random moves from the start, or None if the game ended."""
    pos = start(variant)
    for _ in range(plies):
        pos = play(pos, rng.choice(list(legal_moves(pos))))
        if outcome(pos) is not None:
            return None
    return pos


def probe_positions(variant: Variant, seed: int, drop: int, move: int) -> list[Position]:
    """Seeded, reachable, non-terminal positions: ``drop`` from the drop phase, ``move`` after it.

    Drop probes cycle through 0-7 markers on the board, so both colours are asked; move probes
    come from random games 8 to 40 plies long.
    """
    rng = random.Random(f"probes:{seed}")
    positions: list[Position] = []
    index = 0
    while len(positions) < drop:
        found = random_position(variant, rng, index % 8)
        index += 1
        if found is not None:
            positions.append(found)
    while len(positions) < drop + move:
        found = random_position(variant, rng, rng.randint(8, 40))
        if found is not None:
            positions.append(found)
    return positions


# ---- asking for a move -------------------------------------------------------------------------


class _Budget:
    """Counts hard timeouts and watches the submission's wall-time cap; past either, the rest
    of the calls are scored as timeouts without waiting."""

    def __init__(self, allowed: int, deadline: float | None = None) -> None:
        self.allowed, self.used, self.deadline = allowed, 0, deadline

    @property
    def exhausted(self) -> bool:
        out_of_time = self.deadline is not None and time.monotonic() >= self.deadline
        return self.used >= self.allowed or out_of_time

    def why(self, limits: Limits) -> str:
        if self.used >= self.allowed:
            return (
                f"not run: {self.used} calls already passed the {limits.call_seconds:g} s limit, "
                "so the rest count as timeouts"
            )
        return "not run: grading this submission used up its whole time allowance"

    def record(self, reply: Reply) -> None:
        if reply.status is Status.TIMEOUT:
            self.used += 1


def _judge(where: str, pos: Position, reply: Reply) -> Call:
    if not reply.ok:
        return Call(
            where,
            pos,
            reply.status,
            reply.seconds,
            printed=reply.printed,
            error=reply.detail,
            cpu_seconds=reply.cpu_seconds,
        )
    raw = decode(reply.data.get("move"))
    changed = []
    if reply.data.get("state_changed"):
        changed.append("the state passed to make_move")
    if reply.data.get("board_changed"):
        changed.append("the player's own board")
    try:
        move: Move | None = read_student_move(raw, pos)
        illegal = None
    except MoveError as err:
        move, illegal = None, str(err)
    problem = format_problem(raw, pos)
    size = _cut_size(reply.data.get("move"))
    if size is not None:  # the child sent the first items only: name the real length
        shown, real = f"a list of {len(raw)} items", f"a list of {size} items"
        illegal = illegal and illegal.replace(shown, real)
        problem = problem and problem.replace(shown, real)
    return Call(
        where,
        pos,
        Status.OK,
        reply.seconds,
        returned=clean(repr(raw), _RETURNED_SHOWN),
        illegal=illegal,
        format_problem=problem,
        changed=" and ".join(changed) or None,
        printed=reply.printed,
        move=move,
        cpu_seconds=reply.cpu_seconds,
    )


def _cut_size(description: Any) -> int | None:
    """The real length of a returned list or tuple the child described only in part."""
    if not isinstance(description, dict):
        return None
    items = description.get("list", description.get("tuple"))
    size = description.get("size")
    if isinstance(items, list) and isinstance(size, int) and size > len(items):
        return size
    return None


def _skipped(where: str, pos: Position, limits: Limits, budget: _Budget) -> Call:
    detail = budget.why(limits)
    return Call(where, pos, Status.TIMEOUT, float("inf"), error=detail)


def _ask(
    proc: PlayerProcess,
    where: str,
    pos: Position,
    limits: Limits,
    budget: _Budget,
    before: Sequence[tuple[Reply, str]] = (),
) -> Call:
    """``make_move`` on ``pos``. The calls ``before`` it since the last move (constructing the
    player, place_piece/opponent_move) count in its time: the submission cannot search there
    unseen. Their time also comes off the hard limit, which bounds the total."""
    if budget.exhausted:
        return _skipped(where, pos, limits, budget)
    spent = sum(reply.seconds for reply, _ in before)
    reply = proc.request({"op": "move"}, max(limits.call_seconds - spent, 0.0), "make_move")
    budget.record(reply)
    call = _judge(where, pos, reply)
    if not before:
        return call
    cpus = [r.cpu_seconds for r, _ in before] + [reply.cpu_seconds]
    error = call.error
    names = " and ".join(dict.fromkeys(doing for _, doing in before))
    if reply.status is Status.TIMEOUT:
        error = f"make_move was still running after {limits.call_seconds:g} s and was stopped"
        if spent >= SHOWN_BEFORE:
            error += f" ({spent:.2f} s of it in {names}, called before make_move)"
    return replace(
        call,
        seconds=call.seconds + spent,
        other_seconds=spent,
        other_calls=names,
        cpu_seconds=None if None in cpus else sum(c for c in cpus if c is not None),
        error=error,
    )


# ---- games -------------------------------------------------------------------------------------


Spawner = Callable[[int], PlayerProcess]  # child seed -> a process not yet started


def _colour(piece: str) -> str:
    return "black" if piece == "b" else "red"


def _lost(
    number: int,
    ai: str,
    reason: str,
    pos: Position,
    plies: int,
    calls: list[Call],
    notes: list[str],
    printed: list[str],
) -> Game:
    return Game(
        number, ai, "loss", reason, plies, pos, tuple(calls), tuple(notes), "".join(printed)
    )


Opponent = Callable[[Position, random.Random], Move]


def random_opponent(pos: Position, rng: random.Random) -> Move:
    """The course's random player: a uniformly random legal move."""
    return rng.choice(list(legal_moves(pos)))


def play_game(
    spawn: Spawner,
    variant: Variant,
    number: int,
    seed: int,
    rubric: Rubric,
    budget: _Budget,
    opponent: Opponent = random_opponent,
    opponent_name: str = "the random player",
    label: str = "game",
) -> Game:
    """One game from the empty board against ``opponent``, the AI black when ``number`` is odd.

    The opponent's generator is seeded from ``seed``, ``label`` and ``number`` and lives here,
    never in the submission's process.
    """
    ai = "b" if number % 2 == 1 else "r"
    limits = rubric.limits
    rng = random.Random(
        f"opponent:{seed}:{number}" if label == "game" else f"{label}:{seed}:{number}"
    )
    pos, plies = start(variant), 0
    calls: list[Call] = []
    notes: list[str] = []
    printed: list[str] = []
    if budget.exhausted:
        return _lost(number, ai, budget.why(limits), pos, 0, calls, notes, printed)
    with spawn(seed * 1000 + number) as proc:
        construct = f"{variant.player_class}()"
        before: list[tuple[Reply, str]] = []
        for request, doing in (
            (None, "importing game.py"),
            ({"op": "new", "cls": variant.player_class, "piece": ai}, construct),
        ):
            reply = (
                proc.start()
                if request is None
                else proc.request(request, limits.import_seconds, doing)
            )
            printed.append(reply.printed if request is not None else "")
            if not reply.ok:
                return _lost(number, ai, reply.detail, pos, 0, calls, notes, printed)
        before.append((reply, construct))
        own: list[tuple[int, int]] | None = None
        opp: list[tuple[int, int]] | None = None
        while (end := outcome(pos, plies, rubric.ply_cap)) is None:
            if pos.turn != ai:
                move = opponent(pos, rng)
                opp = move.student()
            else:
                sync = proc.request(
                    {"op": "sync", "own": own, "opp": opp, "board": to_board(pos)},
                    max(limits.call_seconds - sum(r.seconds for r, _ in before), 0.0),
                    "place_piece/opponent_move",
                )
                before.append((sync, "place_piece/opponent_move"))
                printed.append(sync.printed)
                if not sync.ok:
                    return _lost(number, ai, sync.detail, pos, plies, calls, notes, printed)
                said = sync.data.get("notes")
                if isinstance(said, list):  # the runner's list of what went wrong, if any
                    notes.extend(f"before ply {plies + 1}: {n}" for n in said[:_NOTES_KEPT])
                where = f"{label} {number} (you played {_colour(ai)}), move {len(calls) + 1}"
                call = _ask(proc, where, pos, limits, budget, before)
                before = []
                calls.append(call)
                if call.move is None:
                    reason = call.error or f"make_move returned an illegal move: {call.illegal}"
                    return _lost(number, ai, reason, pos, plies, calls, notes, printed)
                move, own, opp = call.move, call.move.student(), None
            pos = play(pos, move)
            plies += 1
    if end.winner is None:
        result, reason = "draw", f"no goal within {rubric.ply_cap} plies"
    elif end.winner == ai:
        result, reason = "win", f"you completed a goal on ply {plies}"
    else:
        result, reason = "loss", f"{opponent_name} had a goal on ply {plies}"
    return Game(
        number, ai, result, reason, plies, pos, tuple(calls), tuple(notes), "".join(printed)
    )


# ---- a whole submission ------------------------------------------------------------------------


def _load_problem(reply: Reply, variant: Variant, limits: Limits) -> str:
    """One sentence on why the submission could not be started, and what to do."""
    guard = 'move the code that plays a game under `if __name__ == "__main__":`'
    kind = reply.data.get("kind")
    if reply.status is Status.TIMEOUT:
        return (
            f"importing game.py did not finish within {limits.import_seconds:g} s; if it "
            f"plays a game or waits for input when imported, {guard}"
        )
    if kind == "input":
        return (
            f"game.py called input() while being imported, and the grader gives it no "
            f"keyboard: {guard}"
        )
    if kind == "syntax":
        error = reply.data.get("error")
        return f"game.py has a syntax error ({error}); run `python game.py` to see where"
    if kind == "sandbox":
        return (
            f"the grader could not fence the submission in ({reply.data.get('error')}), so it "
            "was not run: this is the grader's problem, not yours; it needs grading again"
        )
    if kind == "encoding":
        return (
            f"game.py is not UTF-8 text ({reply.data.get('error')}); save it with the "
            "UTF-8 encoding (not UTF-16, not Latin-1)"
        )
    if kind == "exit":
        return (
            f"game.py tried to end the program while being imported ({reply.data.get('error')}): "
            f"{guard}"
        )
    if kind == "class":
        found = reply.data.get("error") or "no classes"
        return (
            f"game.py defines no class {variant.player_class} (it defines: {found}); "
            f"the course's driver creates {variant.player_class}(), so keep that name"
        )
    if reply.status is Status.ERROR:
        return (
            f"importing game.py raised {reply.data.get('error')}; fix it and run `python game.py`"
        )
    return f"{reply.detail}; game.py must import without ending the program"


def make_budget(rubric: Rubric, deadline: float | None = None) -> _Budget:
    """The timeout allowance of one submission's grading, shared by all its calls."""
    return _Budget(rubric.timeouts_before_giving_up, deadline)


def ask_positions(
    make: Spawner,
    variant: Variant,
    positions: Sequence[Position],
    limits: Limits,
    budget: _Budget,
    seed: int,
    label: str = "probe",
) -> tuple[list[Call], str | None, str]:
    """A ``make_move`` call on each position, a fresh player object for each, in one process
    while it lives (a killed one is replaced).

    Returns the calls, why the submission could not start (None when it could) and what it
    printed while being imported.
    """
    calls: list[Call] = []
    import_printed = ""
    proc: PlayerProcess | None = None
    try:
        for index, pos in enumerate(positions, 1):
            phase = "drop" if is_drop_phase(pos) else "move"
            where = f"{label} {index} ({phase} phase, you play {_colour(pos.turn)})"
            if budget.exhausted:
                calls.append(_skipped(where, pos, limits, budget))
                continue
            if proc is None or proc.dead is not None:
                if proc is not None:
                    proc.close()
                proc = make(seed + index)
                reply = proc.start()
                if not reply.ok:
                    return calls, _load_problem(reply, variant, limits), reply.printed
                if index == 1:
                    import_printed = reply.printed
            request = {
                "op": "new",
                "cls": variant.player_class,
                "piece": pos.turn,
                "board": to_board(pos),
            }
            reply = proc.request(request, limits.import_seconds, f"{variant.player_class}()")
            if reply.data.get("kind") == "class":
                return calls, _load_problem(reply, variant, limits), import_printed
            budget.record(reply)
            if not reply.ok:
                calls.append(_judge(where, pos, reply))
                continue
            call = _ask(proc, where, pos, limits, budget, [(reply, f"{variant.player_class}()")])
            if reply.printed:
                call = replace(call, printed=reply.printed + call.printed)
            calls.append(call)
    finally:
        if proc is not None:
            proc.close()
    return calls, None, import_printed


def default_spawner(source_dir: Path, rubric: Rubric) -> Spawner:
    """Processes for the ``game.py`` in ``source_dir`` under the rubric's limits."""

    def spawn(child_seed: int) -> PlayerProcess:
        return PlayerProcess(source_dir, seed=child_seed, limits=rubric.limits)

    return spawn


def run_session(
    source_dir: Path,
    variant: Variant,
    rubric: Rubric,
    seed: int,
    spawn: Spawner | None = None,
    label: str | None = None,
    deadline: float | None = None,
) -> Session:
    """Grade-ready records for the ``game.py`` in ``source_dir``: probes first, then the games."""

    make = spawn or default_spawner(source_dir, rubric)
    limits = rubric.limits
    budget = make_budget(rubric, deadline)
    base = Session(
        label or str(source_dir), variant, seed, rubric, protections=tuple(available().describe())
    )
    positions = probe_positions(variant, seed, rubric.drop_probes, rubric.move_probes)
    probes, load_error, import_printed = ask_positions(
        make, variant, positions, limits, budget, seed
    )
    if load_error is not None:
        return replace(base, load_error=load_error, import_printed=import_printed)
    games = tuple(
        play_game(make, variant, number, seed, rubric, budget)
        for number in range(1, rubric.games + 1)
    )
    return replace(base, import_printed=import_printed, games=games, probes=tuple(probes))
