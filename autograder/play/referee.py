"""The referee: plays graded games and probe positions against a submission's process.

It owns the rules (through the game's pack), the opponents, the clock and the record; the
submission only answers requests through the host. The result is a :class:`Session` of plain
records that scoring and the reports read; nothing here decides points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from autograder.games.pack import (
    DRAW,
    Assignment,
    Check,
    Noted,
    Opponent,
    Verdict,
    move_marks,
    must_pass,
)
from autograder.games.tactics import Exact, tactic_positions
from autograder.play.budget import Budget
from autograder.play.busy import alone, busy_note, machine_load
from autograder.play.host import PlayerProcess, Reply, Status
from autograder.play.judge import judge, judge_check, load_problem
from autograder.play.launch import Launch, Limits
from autograder.play.records import (
    SHOWN_BEFORE,
    Call,
    Checked,
    Game,
    Plan,
    Ply,
    Session,
    call_ply,
    pass_ply,
)
from autograder.play.sandbox import Protections, available
from autograder.play.source import script_warning
from autograder.play.untrusted import admit

__all__ = ["Referee", "Told", "Spawner", "run_session", "planned_processes", "default_spawner"]

_NOTES_KEPT = 4  # notes kept from one sync reply (the runner writes at most three)


Spawner = Callable[[int], PlayerProcess]  # child seed -> a process not yet started


@dataclass
class Told:
    """What one side's player has not been told yet, for the sync before its next move: its
    own last move (``own``), the other side's last move, passes left out (``opp``, all the
    drivers written before passes read), and every ply since its own last move, forced passes
    of either side included, oldest first (``moves``). All in the student's format; a driver
    applies ``own`` and then ``moves`` (or ``opp``)."""

    side: str
    own: Any = None
    opp: Any = None
    moves: list[Any] = field(default_factory=list)

    def played(self, side: str, move: Any, passed: bool = False) -> None:
        """A ply this side was not asked for: the other side's move, or a forced pass."""
        self.moves.append(move)
        if side != self.side and not passed:
            self.opp = move

    def asked(self, move: Any) -> None:
        """Its own move, as it answered (None: refused); the next sync starts from it."""
        self.own, self.opp, self.moves = move, None, []

    def sync(self, state: Any) -> dict[str, Any]:
        return {
            "op": "sync",
            "own": self.own,
            "opp": self.opp,
            "moves": list(self.moves),
            "state": state,
        }


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

    def new_player(self, side: str, pos: Any | None) -> dict[str, Any]:
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

    def ask_move(
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
            judge(self.assignment, where, pos, reply), child_seed=proc.launch.seed, busy=busy
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
        """``ask_move``; a call the wall clock stopped while the machine was busy is asked again
        alone (same position, same seed, a fresh process, no other call of this grader beside
        it) before it counts: answered, the second call stands (its move, its time); else the
        timeout is confirmed. Returns the call and the process to go on with (the fresh one
        after asking again)."""
        call = self.ask_move(proc, where, pos, before)
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
            reply = proc.request(self.new_player(side, pos), self.limits.import_seconds, construct)
        if not reply.ok:
            return judge(self.assignment, where, pos, reply), proc
        return self.ask_move(proc, where, pos, [(reply, construct)]), proc

    def game(
        self,
        number: int,
        opponent: tuple[str, Opponent[Any, Any]] | None = None,
        label: str = "game",
    ) -> Game:
        """One game from the start against ``opponent`` (name, function; default: the pack's
        random player), the submission first to move when ``number`` is odd.

        The opponent's generator is seeded from the seed, ``label`` and ``number`` and lives
        here, never in the submission's process. A forced pass (``must_pass``) is played here
        for either side, never asked, and recorded as a ply; before each of its moves the
        submission is told every ply since its last one (``Told``).
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
            reply = proc.request(self.new_player(record.ai, None), limits.import_seconds, construct)
            record.printed.append(reply.printed)
            if not reply.ok:
                return record.end("loss", reply.detail)
            before: list[tuple[Reply, str]] = [(reply, construct)]
            told = Told(record.ai)
            while (result := pack.result(record.pos)) is None and record.plies < self.plan.ply_cap:
                side = pack.turn(record.pos)
                if must_pass(pack, record.pos):  # played here: the submission is not asked
                    move = pack.pass_move
                    record.moves.append(pass_ply(pack, side))
                    told.played(side, pack.student_move(move), passed=True)
                elif side != record.ai:
                    move = choose(record.pos, rng)
                    theirs = pack.student_move(move)
                    record.moves.append(
                        Ply(
                            side,
                            theirs,
                            admit(repr(theirs), "repr"),
                            marks=move_marks(pack, record.pos, theirs),
                        )
                    )
                    told.played(side, theirs)
                else:
                    sync = proc.request(
                        told.sync(pack.state(record.pos)),
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
                    move = call.move
                    told.asked(pack.student_move(move))
                record.pos = pack.play(record.pos, move)
                record.plies += 1
        finally:
            proc.close()
        if result is None:
            return record.end("draw", f"no {pack.goal} within {self.plan.ply_cap} plies")
        ended = pack.outcome(record.pos) if pack.outcome is not None else None
        if ended is not None:
            if ended.winner is None:
                return record.end("draw", ended.reason)
            won = "you" if ended.winner == record.ai else name
            return record.end(
                "win" if ended.winner == record.ai else "loss",
                f"{won} won on ply {record.plies}: {ended.reason}",
            )
        if result == DRAW:
            return record.end("draw", "the board is full")
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
                        return calls, load_problem(reply, assignment, limits), reply.printed
                    if index == 1:
                        import_printed = reply.printed
                reply = proc.request(self.new_player(side, pos), limits.import_seconds, construct)
                if reply.data.get("kind") == "class":
                    return calls, load_problem(reply, assignment, limits), import_printed
                self.budget.record(reply)
                if not reply.ok:
                    calls.append(judge(assignment, where, pos, reply))
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
                    verdict, seconds, printed = (
                        judge_check(check, reply),
                        reply.seconds,
                        reply.printed,
                    )
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
                        check.weight,
                        failed.share if failed else 1.0,
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
                self.new_player(self.assignment.pack.sides[0], None),
                limits.import_seconds,
                construct,
            ).ok:
                return None
            reply = proc.request({"op": "challenge"}, limits.call_seconds, "run_challenge_test")
        return reply.ok and reply.data.get("opted_in") is True


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


def planned_processes(plan: Plan, checks: bool) -> int:
    """The processes :func:`run_session` starts when none of them dies, for starting them ahead
    (``play/ahead.py``): one for the probes, one for the tactical probes, one for the pack's
    checks (``checks``: the pack has some), one per game."""
    probes = sum(count for _, count in plan.probes) > 0
    return int(probes) + int(plan.tactics > 0) + int(checks) + plan.games


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
    checker = replace(referee, budget=referee.budget.apart())
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
