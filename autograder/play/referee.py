"""The referee: plays graded games and probe positions against a submission's process.

It owns the rules (through the game's pack), the opponents, the clock and the record; the
submission only answers requests through the host. The result is a :class:`Session` of plain
records that scoring and the reports read; nothing here decides points.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autograder.games import looks_like
from autograder.games.pack import (
    DRAW,
    Assignment,
    Check,
    GamePack,
    MoveError,
    Noted,
    Opponent,
    Verdict,
    move_marks,
)
from autograder.games.tactics import Exact, Probe, tactic_positions
from autograder.play.busy import alone, busy_note, machine_load
from autograder.play.host import PlayerProcess, Reply, Status
from autograder.play.launch import Launch, Limits
from autograder.play.protocol import cut_size, decode
from autograder.play.sandbox import Protections, available
from autograder.play.source import script_warning
from autograder.play.untrusted import admit

__all__ = [
    "Plan",
    "Call",
    "Game",
    "Ply",
    "call_ply",
    "Checked",
    "Session",
    "Budget",
    "Referee",
    "Seat",
    "Spawner",
    "run_session",
    "default_spawner",
    "SHOWN_BEFORE",
]

SHOWN_BEFORE = 0.05  # seconds in the calls before make_move worth naming in a report
_NOTES_KEPT = 4  # notes kept from one sync reply (the runner writes at most three)


@dataclass(frozen=True)
class Plan:
    """What the referee plays and asks, from the rubric: games, probes per phase, limits."""

    games: int = 3
    ply_cap: int = 200
    probes: tuple[tuple[str, int], ...] = ()  # (phase, how many) for each of the game's phases
    limits: Limits = Limits()
    timeouts_before_giving_up: int = 2
    tactics: int = 0  # tactical probes (win in 1, block), where the rubric asks for them
    settings: tuple[tuple[str, int], ...] = ()  # the rubric's values of the pack's settings


# ---- records ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Call:
    """One ``make_move`` call: where, on what position, what came back and what was wrong."""

    where: str
    position: Any  # the pack's position
    phase: str  # the pack's phase of ``position``
    status: Status
    seconds: float
    returned: str = ""  # repr of the returned value, for reports
    illegal: str | None = None  # the engine's reason when the move is malformed or illegal
    format_problem: str | None = None
    changed: str | None = None  # what make_move modified
    printed: str = ""
    error: str | None = None  # crash, exit, timeout: what happened instead of a move
    move: Any = None  # the pack's move, when it was legal
    other_seconds: float = 0.0  # of ``seconds``: the calls before make_move (construction, sync)
    other_calls: str = ""  # what those were, for reports
    cpu_seconds: float | None = None  # CPU time of all its processes over those calls, if known
    child_seed: int | None = None  # the seed of the process it ran in: to play it again
    measured: tuple[float, float] | None = None  # (first, alone) when measured again alone
    raw: Any = None  # what the call returned, decoded (for drawing the move)
    own_seconds: float | None = None  # its own time over those calls (host.py); None: unknown
    skipped: bool = False  # not run: the timeout allowance was used up
    busy: str | None = None  # stopped by the wall clock while the machine was busy: the load

    @property
    def answered(self) -> bool:
        return self.status is Status.OK

    @property
    def judged(self) -> float:
        """The time the rubric judges: its own time where measured, else wall time."""
        return self.seconds if self.own_seconds is None else self.own_seconds


@dataclass(frozen=True)
class Ply:
    """One move of a graded game, kept for the replay: in the student's format, with its time."""

    side: str
    move: Any  # the move as plain data (``pack.student_move``); None when the rules refused it
    text: str  # as it was returned or played, for people
    seconds: float | None = None  # the submission's call, as timed; None for the opponent
    marks: tuple[tuple[int, int, str], ...] = ()  # its squares, as ``pack.marks`` draws them
    illegal: str | None = None  # why the rules refused it
    printed: str = ""  # what the submission printed during the call


@dataclass(frozen=True)
class Game:
    number: int
    ai_side: str
    result: str  # "win", "loss" or "draw", for the submission
    reason: str
    plies: int
    final: Any  # the pack's position
    calls: tuple[Call, ...]
    notes: tuple[str, ...] = ()
    printed: str = ""  # printed outside make_move: construction, place_piece, opponent_move
    moves: tuple[Ply, ...] = ()  # every ply, both sides', for the replay


@dataclass(frozen=True)
class Checked:
    """One of the pack's checks, asked and judged: ``problem`` is None when the answer was right."""

    criterion: str
    kind: str
    where: str
    board: str
    problem: str | None
    seconds: float
    printed: str = ""
    explained_by: str = ""  # the verdict's: a kind of check whose fault explains this one
    note: Noted | None = None  # a right answer's remark, reported (see ``Noted``)


@dataclass(frozen=True)
class Session:
    """Everything the referee saw while grading one submission."""

    submission: str
    assignment: Assignment
    seed: int
    plan: Plan
    load_error: str | None = None  # the submission could not be started at all
    import_printed: str = ""
    games: tuple[Game, ...] = ()
    probes: tuple[Call, ...] = ()
    protections: tuple[str, ...] = ()  # the sandbox layers that were active, for the report
    tactics: tuple[tuple[Probe, Call], ...] = ()  # (the probe, the call) for each tactical probe
    checks: tuple[Checked, ...] = ()  # the pack's checks, where it has any
    # introspection the runner refused (its audit hook), for the report
    refused: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()  # about the submission's files, for every report's header

    @property
    def calls(self) -> tuple[Call, ...]:
        games = tuple(c for g in self.games for c in g.calls)
        return games + self.probes + tuple(call for _, call in self.tactics)


# ---- the timeout allowance ----------------------------------------------------------------------


class Budget:
    """Counts confirmed hard timeouts and watches the submission's wall-time cap; past either,
    the rest of the calls are scored as timeouts without waiting. A timeout is confirmed when
    it was judged on the submission's own time, when the machine had a core to spare, or when
    the call, asked again alone, was stopped again (``Referee._asked``)."""

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

    def confirm(self) -> None:
        """One more timeout, confirmed by asking again."""
        self.used += 1


# ---- judging one reply --------------------------------------------------------------------------


_SQUARES_SHOWN = 4  # changed squares named in a message; the rest are counted
_CELL_SHOWN = 8  # characters of a changed cell shown (a piece is one)


def _squares(pack: GamePack, pos: Any, changes: Any) -> str:
    """ ": squares B3 (' ' → 'b'), …" for the squares the child says ``make_move`` changed, in
    the pack's names; "" when it sent none we can read (it is the submission's process)."""
    try:
        rows = pack.cells(pos)
        count = int(changes["count"])
        named = []
        for row, col, was, now in changes["squares"][:_SQUARES_SHOWN]:
            if not (0 <= int(row) < len(rows) and 0 <= int(col) < len(rows[int(row)])):
                return ""
            before, after = (admit(repr(str(cell)[:_CELL_SHOWN]), "name") for cell in (was, now))
            named.append(f"{pack.square_name(int(row), int(col))} ({before} → {after})")
    except (TypeError, ValueError, KeyError, IndexError):
        return ""
    if not named or count < len(named):
        return ""
    more = f" and {count - len(named)} more" if count > len(named) else ""
    return f": square{'s' if count > 1 else ''} {', '.join(named)}{more}"


def _judge(assignment: Assignment, where: str, pos: Any, reply: Reply) -> Call:
    pack = assignment.pack
    phase = pack.phase(pos)
    if not reply.ok:
        return Call(
            where,
            pos,
            phase,
            reply.status,
            reply.seconds,
            printed=reply.printed,
            error=reply.detail,
            cpu_seconds=reply.cpu_seconds,
            own_seconds=reply.own_seconds,
        )
    raw = decode(reply.data.get("move"))
    changed = []
    state = _squares(pack, pos, reply.data.get("state_changes"))
    if reply.data.get("state_changed"):
        changed.append(f"the {pack.passed} passed to it{state}")
    if reply.data.get("board_changed"):
        board = _squares(pack, pos, reply.data.get("board_changes"))
        if not (reply.data.get("state_changed") and board == state):  # the same object
            changed.append(f"the player's own board (self.board){board}")
    try:
        move: Any = pack.read_move(raw, pos)
        illegal = None
    except MoveError as err:
        move, illegal = None, str(err)
    problem = pack.format_problem(raw, pos)
    size = cut_size(reply.data.get("move"))
    if size is not None:  # the child sent the first items only: name the real length
        shown, real = f"a list of {len(raw)} items", f"a list of {size} items"
        illegal = illegal and illegal.replace(shown, real)
        problem = problem and problem.replace(shown, real)
    return Call(
        where,
        pos,
        phase,
        Status.OK,
        reply.seconds,
        returned=admit(repr(raw), "repr"),
        raw=raw,
        illegal=illegal,
        format_problem=problem,
        changed=" and ".join(changed) or None,
        printed=reply.printed,
        move=move,
        cpu_seconds=reply.cpu_seconds,
        own_seconds=reply.own_seconds,
    )


def _checked(check: Check, reply: Reply) -> Verdict | Noted | None:
    """The judge's verdict on a check's reply; what happened instead when there is no answer."""
    if not reply.ok:
        return Verdict(reply.detail or "no answer came back")
    data = {k: decode(v) if k in _DECODED else v for k, v in reply.data.items()}
    try:
        verdict = check.judge(data)
    except Exception as err:  # the reply is the submission's data: it may be any shape
        return Verdict(f"its answer could not be read ({type(err).__name__})")
    return Verdict(verdict) if isinstance(verdict, str) else verdict


_DECODED = ("value", "move", "fair_move")  # a check's reply: the values the student's code made


def call_ply(pack: GamePack, side: str, pos: Any, call: Call) -> Ply:
    """The submission's move on ``pos``, as a replay shows it (refused ones too)."""
    move = None if call.move is None else pack.student_move(call.move)
    return Ply(
        side,
        move,
        call.returned or (call.error or "no move"),
        call.seconds,
        move_marks(pack, pos, call.raw),
        None if call.move is not None else (call.illegal or call.error or "no move"),
        call.printed,
    )


def _driver_text(assignment: Assignment) -> str:
    """How the homework's driver reaches the student's code, in its course's own terms."""
    if assignment.interface.entry:
        return f"the grader calls {assignment.entry}, as the homework's own code does"
    return f"the course's driver creates {assignment.entry}"


def _absent(assignment: Assignment, defined: object) -> str:
    """The homework's classes the submission does not define (its player class at least)."""
    names = [n.strip() for n in defined.split(",")] if isinstance(defined, str) else []
    absent = [c for c in assignment.classes if c not in names]
    return " and ".join(absent) or assignment.player_class


def _looks_like(assignment: Assignment, defined: object) -> str:
    """``; it looks like <homework>: ...`` when the classes defined are another homework's."""
    names = [n.strip() for n in defined.split(",")] if isinstance(defined, str) else []
    other = looks_like(names)
    if other is None or (other.game.name, other.interface.name) == (
        assignment.game.name,
        assignment.interface.name,  # by name: a rubric's settings give a configured copy
    ):
        return ""
    course = other.interface.course or f"the {other.game.title} homework"
    return f"; it looks like {course}: grade it with --assignment {other.name}"


def _load_problem(reply: Reply, assignment: Assignment, limits: Limits) -> str:
    """One sentence on why the submission could not be started, and what to do."""
    main = assignment.main_file
    guard = 'move the code that plays a game under `if __name__ == "__main__":`'
    kind, error = reply.data.get("kind"), reply.data.get("error")
    if reply.status is Status.TIMEOUT:
        return (
            f"importing {main} did not finish within {limits.import_seconds:g} s; if it "
            f"plays a game or waits for input when imported, {guard}"
        )
    messages = {
        "input": f"{main} called input() while being imported, and the grader gives it no "
        f"keyboard: {guard}",
        "syntax": f"the notebook has a syntax error ({error}); fix that cell and run it"
        if isinstance(error, str) and " at cell " in error
        else f"{main} has a syntax error ({error}); run `python {main}` to see where",
        "sandbox": f"the grader could not fence the submission in ({error}), so it was not "
        "run: this is the grader's problem, not yours; it needs grading again",
        "files": f"{error}; submit only the files of the homework",
        "encoding": f"Python cannot read {main}: {error}, so no import can run it; "
        + (
            "remove that line and save it with the UTF-8 encoding"
            if str(error).startswith("its coding line")
            else "save it with the UTF-8 encoding (in most editors: Save with Encoding, UTF-8)"
        ),
        "package": _package_problem(main, str(error), limits.packages),
        "exit": f"{main} tried to end the program while being imported ({error}): {guard}",
        "class": f"{main} defines no class {_absent(assignment, error)} (it defines: "
        f"{error or 'no classes'}); "
        f"{_driver_text(assignment)}, so keep that name{_looks_like(assignment, error)}",
    }
    if isinstance(kind, str) and kind in messages:
        return messages[kind]
    if reply.status is Status.ERROR:
        return f"importing {main} raised {error}; fix it and run `python {main}`"
    return f"{reply.detail}; {main} must import without ending the program"


def _allowed_text(packages: tuple[str, ...]) -> str:
    """``numpy and the standard library``: what a submission may import, in words."""
    if not packages:
        return "only the standard library"
    return ", ".join(packages) + " and the standard library"


def _package_problem(main: str, name: str, allowed: tuple[str, ...]) -> str:
    if name in allowed:
        return (
            f"{main} imports {name}, which the rubric allows but the grading machine does not "
            f"have (pip install {name}): this is the grader's problem, not yours; it needs "
            "grading again"
        )
    return (
        f"{main} imports {name}, which this course does not allow: the rubric allows "
        f"{_allowed_text(allowed)}; if {name} is a file of yours, hand it in beside {main}"
    )


# ---- the referee --------------------------------------------------------------------------------

Spawner = Callable[[int], PlayerProcess]  # child seed -> a process not yet started


@dataclass
class _Record:
    """A game as it goes: the position, the plies, the calls, and what was printed meanwhile."""

    number: int
    ai: str
    pos: Any
    plies: int = 0
    calls: list[Call] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    printed: list[str] = field(default_factory=list)
    moves: list[Ply] = field(default_factory=list)

    def end(self, result: str, reason: str) -> Game:
        return Game(
            self.number,
            self.ai,
            result,
            reason,
            self.plies,
            self.pos,
            tuple(self.calls),
            tuple(self.notes),
            "".join(self.printed),
            tuple(self.moves),
        )


@dataclass
class Referee:
    """Plays one submission's games and asks its probes, in processes from ``spawn``; every
    call shares one timeout allowance (``budget``)."""

    spawn: Spawner
    assignment: Assignment
    plan: Plan
    seed: int
    budget: Budget
    load: Callable[[], tuple[float, int] | None] = machine_load  # (load average, cores)

    def __post_init__(self) -> None:
        self.assignment = self.assignment.configured(dict(self.plan.settings))

    @property
    def limits(self) -> Limits:
        return self.plan.limits

    def _colour(self, side: str) -> str:
        return self.assignment.side_name(side)

    def _skipped(self, where: str, pos: Any) -> Call:
        detail = self.budget.why(self.limits)
        phase = self.assignment.pack.phase(pos)
        return Call(where, pos, phase, Status.TIMEOUT, float("inf"), error=detail, skipped=True)

    def _new(self, side: str, pos: Any | None) -> dict[str, Any]:
        """Construct the player for ``side``; its board is set to ``pos`` when one is given
        (a probe). ``start``, the empty board, lets a driver fit a board of another size."""
        pack = self.assignment.pack
        state = None if pos is None else pack.state(pos)
        start = pack.state(pack.start(self.assignment.variant))
        return {
            "op": "new",
            "cls": self.assignment.player_class,
            "side": side,
            "state": state,
            "start": start,
        }

    def _ask(
        self, proc: PlayerProcess, where: str, pos: Any, before: Sequence[tuple[Reply, str]]
    ) -> Call:
        """``make_move`` on ``pos``. The calls ``before`` it since the last move (constructing
        the player, place_piece/opponent_move) count in its time: the submission cannot search
        there unseen. Their time also comes off the hard limit, which bounds the total.

        A timeout decided by the wall clock while the machine was busy is not counted against
        the allowance here: the call carries the load (``busy``) for ``_asked`` to confirm."""
        if self.budget.exhausted:
            return self._skipped(where, pos)
        limits = self.limits
        spent = sum(reply.seconds for reply, _ in before)
        left = limits.call_seconds - sum(reply.judged for reply, _ in before)  # on its clock
        doing = self.assignment.pack.move_call
        reply = proc.request({"op": "move"}, max(left, 0.0), doing)
        busy = busy_note(self.load()) if reply.status is Status.TIMEOUT and reply.by_wall else None
        if busy is None:
            self.budget.record(reply)
        call = replace(
            _judge(self.assignment, where, pos, reply), child_seed=proc.launch.seed, busy=busy
        )
        if not before:
            return call
        cpus = [r.cpu_seconds for r, _ in before] + [reply.cpu_seconds]
        owns = [r.own_seconds for r, _ in before] + [reply.own_seconds]
        error = call.error
        names = " and ".join(dict.fromkeys(doing for _, doing in before))
        if reply.status is Status.TIMEOUT:
            error = f"{doing} was still running after {limits.call_seconds:g} s and was stopped"
            if reply.by_wall and None not in owns:
                error = (
                    f"{doing} was stopped by the wall-clock backstop after "
                    f"{call.seconds + spent:.1f} s of wall time; it had used "
                    f"{sum(o or 0.0 for o in owns):.2f} s of its own time"
                )
            if spent >= SHOWN_BEFORE:
                error += f" ({spent:.2f} s of it in {names}, called before {doing})"
        return replace(
            call,
            seconds=call.seconds + spent,
            other_seconds=spent,
            other_calls=names,
            cpu_seconds=None if None in cpus else sum(c for c in cpus if c is not None),
            own_seconds=None if None in owns else sum(c for c in owns if c is not None),
            error=error,
        )

    def _asked(
        self, proc: PlayerProcess, where: str, pos: Any, before: Sequence[tuple[Reply, str]]
    ) -> tuple[Call, PlayerProcess]:
        """``_ask``; a call the wall clock stopped while the machine was busy is asked again
        alone (same position, same seed, a fresh process, no other call of this grader beside
        it) before it counts: answered, the second call stands (its move, its time); else the
        timeout is confirmed. Returns the call and the process to go on with (the fresh one
        after asking again)."""
        call = self._ask(proc, where, pos, before)
        if call.busy is None or call.child_seed is None:
            return call, proc
        proc.close()
        used = self.budget.used
        with alone():  # a batch's other workers finish their calls and wait
            again, fresh = self._fresh(where, pos, call.child_seed)
        if again.answered:
            return replace(again, measured=(call.seconds, again.judged), busy=call.busy), fresh
        if self.budget.used == used:  # the second stop was not counted either: count one
            self.budget.confirm()
        error = (
            f"{call.error} (the machine was busy, {call.busy}: asked again alone in a fresh "
            f"process, {again.error or 'it made no move'})"
        )
        return replace(call, error=error, busy=None), fresh

    def _fresh(self, where: str, pos: Any, child_seed: int) -> tuple[Call, PlayerProcess]:
        """``make_move`` on ``pos`` by a fresh player in a fresh process seeded ``child_seed``,
        its construction timed with it; the process is left running for the caller to use and
        close."""
        side = self.assignment.pack.turn(pos)
        construct = self.assignment.entry
        proc = self.spawn(child_seed)
        reply = proc.start()
        if reply.ok:
            reply = proc.request(self._new(side, pos), self.limits.import_seconds, construct)
        if not reply.ok:
            return _judge(self.assignment, where, pos, reply), proc
        return self._ask(proc, where, pos, [(reply, construct)]), proc

    def game(
        self, number: int, opponent: tuple[str, Opponent] | None = None, label: str = "game"
    ) -> Game:
        """One game from the start against ``opponent`` (name, function; default: the pack's
        random player), the submission first to move when ``number`` is odd.

        The opponent's generator is seeded from the seed, ``label`` and ``number`` and lives
        here, never in the submission's process.
        """
        pack, limits = self.assignment.pack, self.limits
        name, choose = opponent or pack.opponents["random"]
        first, second = pack.sides
        record = _Record(
            number, first if number % 2 == 1 else second, pack.start(self.assignment.variant)
        )
        rng = random.Random(
            f"opponent:{self.seed}:{number}" if label == "game" else f"{label}:{self.seed}:{number}"
        )
        if self.budget.exhausted:
            return record.end("loss", self.budget.why(limits))
        construct = self.assignment.entry
        proc = self.spawn(self.seed * 1000 + number)
        try:
            reply = proc.start()
            if not reply.ok:
                return record.end("loss", reply.detail)
            reply = proc.request(self._new(record.ai, None), limits.import_seconds, construct)
            record.printed.append(reply.printed)
            if not reply.ok:
                return record.end("loss", reply.detail)
            before: list[tuple[Reply, str]] = [(reply, construct)]
            own: Any = None
            theirs: Any = None
            while (result := pack.result(record.pos)) is None and record.plies < self.plan.ply_cap:
                if pack.turn(record.pos) != record.ai:
                    move = choose(record.pos, rng)
                    theirs = pack.student_move(move)
                    record.moves.append(
                        Ply(
                            pack.turn(record.pos),
                            theirs,
                            admit(repr(theirs), "repr"),
                            marks=move_marks(pack, record.pos, theirs),
                        )
                    )
                else:
                    sync = proc.request(
                        {"op": "sync", "own": own, "opp": theirs, "state": pack.state(record.pos)},
                        max(limits.call_seconds - sum(r.judged for r, _ in before), 0.0),
                        "place_piece/opponent_move",
                    )
                    before.append((sync, "place_piece/opponent_move"))
                    record.printed.append(sync.printed)
                    if not sync.ok:
                        return record.end("loss", sync.detail)
                    said = sync.data.get("notes")
                    if isinstance(said, list):  # the driver's list of what went wrong, if any
                        record.notes.extend(
                            f"before ply {record.plies + 1}: {n}" for n in said[:_NOTES_KEPT]
                        )
                    where = (
                        f"{label} {number} (you played {self._colour(record.ai)}), "
                        f"move {len(record.calls) + 1}"
                    )
                    call, proc = self._asked(proc, where, record.pos, before)
                    before = []
                    record.calls.append(call)
                    record.moves.append(call_ply(pack, record.ai, record.pos, call))
                    if call.move is None:
                        reason = call.error or (
                            f"{pack.move_call} returned an illegal move: {call.illegal}"
                        )
                        return record.end("loss", reason)
                    move, own, theirs = call.move, pack.student_move(call.move), None
                record.pos = pack.play(record.pos, move)
                record.plies += 1
        finally:
            proc.close()
        if result is None or result == DRAW:
            why = (
                "the board is full"
                if result == DRAW
                else f"no {pack.goal} within {self.plan.ply_cap} plies"
            )
            return record.end("draw", why)
        if result == record.ai:
            return record.end("win", f"you completed {pack.goal_one} on ply {record.plies}")
        return record.end("loss", f"{name} had {pack.goal_one} on ply {record.plies}")

    def ask(
        self, positions: Sequence[Any], label: str = "probe"
    ) -> tuple[list[Call], str | None, str]:
        """A ``make_move`` call on each position, a fresh player object for each, in one
        process while it lives (a killed one is replaced).

        Returns the calls, why the submission could not start (None when it could) and what it
        printed while being imported.
        """
        assignment, limits = self.assignment, self.limits
        calls: list[Call] = []
        import_printed = ""
        proc: PlayerProcess | None = None
        construct = assignment.entry
        try:
            for index, pos in enumerate(positions, 1):
                side = assignment.pack.turn(pos)
                phase = (
                    f"{assignment.pack.phase(pos)} phase, "
                    if len(assignment.pack.phases) > 1
                    else ""
                )
                where = f"{label} {index} ({phase}you play {self._colour(side)})"
                if self.budget.exhausted:
                    calls.append(self._skipped(where, pos))
                    continue
                if proc is None or proc.dead is not None:
                    if proc is not None:
                        proc.close()
                    proc = self.spawn(self.seed + index)
                    reply = proc.start()
                    if not reply.ok:
                        return calls, _load_problem(reply, assignment, limits), reply.printed
                    if index == 1:
                        import_printed = reply.printed
                reply = proc.request(self._new(side, pos), limits.import_seconds, construct)
                if reply.data.get("kind") == "class":
                    return calls, _load_problem(reply, assignment, limits), import_printed
                self.budget.record(reply)
                if not reply.ok:
                    calls.append(_judge(assignment, where, pos, reply))
                    continue
                call, proc = self._asked(proc, where, pos, [(reply, construct)])
                if reply.printed:
                    call = replace(call, printed=reply.printed + call.printed)
                calls.append(call)
        finally:
            if proc is not None:
                proc.close()
        return calls, None, import_printed

    def alone(self, where: str, pos: Any, child_seed: int) -> Call:
        """``make_move`` on ``pos`` by a fresh player in a fresh process seeded ``child_seed``,
        its construction timed with it: a call measured again."""
        call, proc = self._fresh(where, pos, child_seed)
        proc.close()
        return call

    def check(self, checks: Sequence[Check]) -> list[Checked]:
        """Each of the pack's checks asked in one process while it lives (a killed one is
        replaced), judged by the pack; a crash, a timeout or an answer the judge cannot read is
        that check's problem, in one sentence."""
        limits, done = self.limits, []
        proc: PlayerProcess | None = None
        try:
            for index, check in enumerate(checks, 1):
                verdict: Verdict | Noted | None
                if self.budget.exhausted:
                    verdict, seconds, printed = Verdict(self.budget.why(limits)), 0.0, ""
                else:
                    if proc is None or proc.dead is not None:
                        if proc is not None:
                            proc.close()
                        proc = self.spawn(self.seed + 5000 + index)
                        proc.start()
                    reply = proc.request(
                        {"op": "check", **check.request}, limits.call_seconds, check.kind
                    )
                    self.budget.record(reply)
                    verdict, seconds, printed = _checked(check, reply), reply.seconds, reply.printed
                failed = verdict if isinstance(verdict, Verdict) else None
                done.append(
                    Checked(
                        check.criterion,
                        check.kind,
                        check.where,
                        failed.board or check.board if failed else check.board,
                        failed.problem if failed else None,
                        seconds,
                        printed,
                        failed.explained_by if failed else "",
                        verdict if isinstance(verdict, Noted) else None,
                    )
                )
        finally:
            if proc is not None:
                proc.close()
        return done

    def opted_in(self) -> bool | None:
        """Whether the player's ``run_challenge_test()`` is True; None when it cannot say."""
        limits = self.limits
        with self.spawn(self.seed) as proc:
            if not proc.start().ok:
                return None
            construct = self.assignment.entry
            if not proc.request(
                self._new(self.assignment.pack.sides[0], None), limits.import_seconds, construct
            ).ok:
                return None
            reply = proc.request({"op": "challenge"}, limits.call_seconds, "run_challenge_test")
        return reply.ok and reply.data.get("opted_in") is True


# ---- a live game --------------------------------------------------------------------------------


class Seat:
    """The submission at the table of one live game (``autograder play``): one process, its
    player built once, told the moves between its turns and asked for a move on each, exactly
    as in a graded game, with the same time limit."""

    def __init__(self, referee: Referee, side: str) -> None:
        self.referee, self.side = referee, side
        self.proc: PlayerProcess | None = None
        self.own: Any = None  # its last move, as plain data, until it is told
        self.before: list[tuple[Reply, str]] = []
        self.number = 0

    def open(self) -> str | None:
        """Start the process and build the player; a sentence saying why not, or None."""
        referee = self.referee
        self.proc = referee.spawn(referee.seed)
        reply = self.proc.start()
        if not reply.ok:
            return _load_problem(reply, referee.assignment, referee.limits)
        construct = referee.assignment.entry
        reply = self.proc.request(
            referee._new(self.side, None), referee.limits.import_seconds, construct
        )
        if not reply.ok:
            return reply.detail
        self.before = [(reply, construct)]
        return None

    def move(self, pos: Any, theirs: Any) -> Call:
        """Its move on ``pos``, told first its own last move and ``theirs`` (plain data)."""
        referee, pack = self.referee, self.referee.assignment.pack
        assert self.proc is not None, "open the seat first"
        self.number += 1
        where = f"move {self.number}"
        sync = self.proc.request(
            {"op": "sync", "own": self.own, "opp": theirs, "state": pack.state(pos)},
            referee.limits.call_seconds,
            "place_piece/opponent_move",
        )
        if not sync.ok:
            return _judge(referee.assignment, where, pos, sync)
        call = referee._ask(self.proc, where, pos, [*self.before, (sync, "sync")])
        self.before = []
        self.own = None if call.move is None else pack.student_move(call.move)
        return call

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None


# ---- a whole submission -------------------------------------------------------------------------


def default_spawner(
    source_dir: Path, assignment: Assignment, limits: Limits, protections: Protections | None = None
) -> Spawner:
    """Processes for the submission in ``source_dir`` under ``limits``."""
    layers = protections if protections is not None else available()

    def spawn(child_seed: int) -> PlayerProcess:
        launch = Launch(
            source_dir, assignment.pack.driver, assignment.main_file, child_seed, limits, layers
        )
        return PlayerProcess(launch)

    return spawn


def _source_warnings(source_dir: Path, main: str) -> tuple[str, ...]:
    """What the report warns about the main file, which was imported: see ``source``."""
    try:
        warning = script_warning((source_dir / main).read_bytes(), main)
    except OSError:
        return ()
    return () if warning is None else (warning,)


def run_session(
    source_dir: Path,
    assignment: Assignment,
    plan: Plan,
    seed: int,
    spawn: Spawner | None = None,
    label: str | None = None,
    deadline: float | None = None,
    exact: Exact | None = None,
) -> Session:
    """Grade-ready records for the submission in ``source_dir``: probes first, then the games.
    ``exact`` solves tactical positions (the caller's: ``oracle.player.tactics_solver``): the
    tactical probes are then positions it solves, each with every move's outcome for scoring
    to judge by."""
    spawner = spawn or default_spawner(source_dir, assignment, plan.limits)
    started: list[PlayerProcess] = []

    def spawn_kept(child_seed: int) -> PlayerProcess:
        """The process, kept so that what its runner refused reaches the report."""
        started.append(spawner(child_seed))
        return started[-1]

    def refused() -> tuple[str, ...]:
        return tuple(dict.fromkeys(w for proc in started for w in getattr(proc, "refused", ())))

    referee = Referee(
        spawn_kept,
        assignment,
        plan,
        seed,
        Budget(plan.timeouts_before_giving_up, deadline),
    )
    assignment = referee.assignment  # with the rubric's settings
    base = Session(
        label or str(source_dir),
        assignment,
        seed,
        plan,
        protections=tuple(available().describe()),
    )
    counts: Mapping[str, int] = dict(plan.probes)
    positions = assignment.pack.probes(assignment.variant, seed, counts)
    probes, load_error, import_printed = referee.ask(positions)
    if load_error is not None:
        return replace(
            base, load_error=load_error, import_printed=import_printed, refused=refused()
        )
    found = tactic_positions(assignment.pack, assignment.variant, seed, plan.tactics, exact)
    asked, _, _ = referee.ask([probe.position for probe in found], "tactic")
    tactics = tuple(zip(found, asked, strict=False))
    # The checks ask other parts of the homework: timeouts in moves do not use up theirs.
    checker = replace(referee, budget=Budget(plan.timeouts_before_giving_up, deadline))
    checks = tuple(checker.check(assignment.pack.checks(assignment.variant, seed)))
    games = tuple(referee.game(number) for number in range(1, plan.games + 1))
    return replace(
        base,
        import_printed=import_printed,
        games=games,
        probes=tuple(probes),
        tactics=tactics,
        checks=checks,
        refused=refused(),
        warnings=_source_warnings(source_dir, assignment.main_file),
    )
