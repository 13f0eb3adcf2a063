"""The referee: plays graded games and probe positions against a submission's process.

It owns the rules (through the game's pack), the opponents, the clock and the record; the
submission only answers requests through the host. The result is a :class:`Session` of plain
records that scoring and the reports read; nothing here decides points.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from autograder.games.pack import (
    Assignment,
    Check,
    Noted,
    Opponent,
    Verdict,
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
    Session,
)
from autograder.play.sandbox import Protections, available
from autograder.play.seat import StudentSeat
from autograder.play.source import script_warning
from autograder.play.turns import Engine, KitSeat, ending_text

__all__ = ["Referee", "Spawner", "run_session", "planned_processes", "default_spawner"]

Spawner = Callable[[int], PlayerProcess]  # child seed -> a process not yet started


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
        the player, telling it the plies since: ``Calls.told``) count in its time: the
        submission cannot search there unseen. Their time also comes off the hard limit,
        which bounds the total.

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
        if reply.ok:
            self.budget.answered()
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
        timeout is confirmed. A process a stopped call ended is replaced first: a fresh player,
        made on ``pos``, is asked (a game goes on after a stopped move). Returns the call and the
        process to go on with (the fresh one after asking again)."""
        if proc.dead is not None and proc.dead.status is Status.TIMEOUT:
            if self.budget.exhausted:
                return self._skipped(where, pos), proc
            proc.close()
            call, proc = self._fresh(where, pos, proc.launch.seed)
        else:
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

    def _played_for(self, call: Call, game: str, ply: int) -> Call:
        """A stopped move, with a random legal move from the grader's seeded generator played
        for it: the game goes on, and the call stays a time fault only (scoring judges rules,
        state and format on answered calls)."""
        pack = self.assignment.pack
        rng = random.Random(f"stand-in:{game}:{ply}")
        move = pack.opponents["random"][1](call.position, rng)
        shown = pack.student_move(move)
        error = f"{call.error}; a random legal move was played for it: {shown!r}"
        return replace(call, move=move, raw=shown, error=error)

    def game(
        self,
        number: int,
        opponent: tuple[str, Opponent[Any, Any]] | None = None,
        label: str = "game",
    ) -> Game:
        """One game from the start against ``opponent`` (name, function; default: the pack's
        random player), the submission first to move when ``number`` is odd, played by the
        turn engine (``turns.py``): forced passes are played there, never asked, and the
        submission is told every ply since its last move before each of its moves.

        The opponent's generator is seeded from the seed, ``label`` and ``number`` and lives
        here, never in the submission's process.
        """
        pack = self.assignment.pack
        name, choose = opponent or pack.opponents["random"]
        first, second = pack.sides
        ai, other = (first, second) if number % 2 == 1 else (second, first)
        start = pack.start(self.assignment.variant)
        rng = random.Random(
            f"opponent:{self.seed}:{number}" if label == "game" else f"{label}:{self.seed}:{number}"
        )
        if self.budget.exhausted:
            return Game(number, ai, "loss", self.budget.why(self.limits), 0, start, ())
        played = f"{label} {number} (you played {self._colour(ai)})"
        seat = StudentSeat(
            self,
            ai,
            self.seed * 1000 + number,
            lambda n: f"{played}, move {n}",
            stand_in=f"{label}:{self.seed}:{number}",
        )
        engine = Engine(
            pack, {ai: seat, other: KitSeat(pack, other, choose, rng)}, start, self.plan.ply_cap
        )
        ending = engine.run()
        result = "draw" if ending.winner is None else "win" if ending.winner == ai else "loss"
        return Game(
            number,
            ai,
            result,
            ending_text(pack, ending, lambda side: "you" if side == ai else name),
            ending.plies,
            engine.pos,
            tuple(seat.calls),
            tuple(seat.notes),
            "".join(seat.printed),
            tuple(engine.plies),
        )

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
                    call = replace(call, printed_before=reply.printed, other_calls=construct)
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
                    if reply.ok:
                        self.budget.answered()
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
    referee = Referee(
        spawner,
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
        return replace(base, load_error=load_error, import_printed=import_printed)
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
        warnings=_source_warnings(source_dir, assignment.main_file),
    )
