"""Fair timing on a busy grader: time judged on the submission's own time where the grader
measures it; elsewhere a timeout on a busy machine is asked again alone before it counts, and a
move slowed by a neighbour is measured again alone after the batch, the better time counting;
the report shows both figures."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from autograder.classroom.submission import load_warning
from autograder.games.teeko.probes import probe_positions
from autograder.grading.scoring import score
from autograder.play.budget import Budget
from autograder.play.busy import alone, sharing
from autograder.play.host import Reply, Status
from autograder.play.protocol import encode
from autograder.play.records import Call, Session
from autograder.play.referee import Referee
from autograder.play.sandbox import available
from tests.conftest import COURSE_TOML, ROOT, assignment, course_rubric, fast_solution
from tests.shield import favoured


def _slowed(clock: str, seconds: float) -> str:
    """The reference solution, its make_move first spinning until ``clock`` (a function of
    the time module) has advanced ``seconds``."""
    return (
        fast_solution("teeko2")
        + f"""
import time as _time

_quick_make_move = Teeko2Player.make_move


def _slow_make_move(self, state):
    began = _time.{clock}()
    while _time.{clock}() - began < {seconds}:
        pass
    return _quick_make_move(self, state)


Teeko2Player.make_move = _slow_make_move
"""
    )


# Three seconds of CPU per move: about 3 s of wall time alone, about 6 s beside one busy
# neighbour on the same core; the rubric's full time points stop at 5 s.
THREE_SECONDS = _slowed("process_time", 3.0)
# The neighbour: burns the CPU for 8 s of wall time in each move.
BURNER = _slowed("monotonic", 8.0)


def _two_probes(tmp_path: Path) -> Path:
    text = COURSE_TOML.read_text()
    for old, new in (
        ("games = 3 ", "games = 0 "),
        ("drop_probes = 10 ", "drop_probes = 2 "),
        ("move_probes = 10 ", "move_probes = 0 "),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "two-probes.toml"
    path.write_text(text)
    return path


def _on_one_core() -> None:
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux CPU affinity")
def test_a_move_slowed_by_a_busy_neighbour_is_measured_again_alone(tmp_path):
    """Both students on one core (no cgroups: ``TEEKO_SANDBOX=off``), so the neighbour takes
    half the player's CPU while both are graded; alone after the batch, the player's moves take
    their 3 s again and keep every time point. The wall clock cannot tell the neighbour from
    any other load on the machine, so the grader runs in a cgroup the scheduler favours over
    everything outside it (tests/shield.py, as an administrator would): the only load its
    clock sees is the neighbour's (beside two CPU burners per core, the move measured alone
    took 8.77 s of wall time without it)."""
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "player.py").write_text(THREE_SECONDS)
    (folder / "neighbour.py").write_text(BURNER)
    with favoured() as join:
        if join is None:
            pytest.skip("needs root and a cpu cgroup to keep outside load off its wall clock")

        def start() -> None:
            join()
            _on_one_core()

        done = subprocess.run(
            [sys.executable, "-m", "autograder", "grade", str(folder), "-a", "teeko2"]
            + ["--jobs", "2", "--out", str(out), "--rubric", str(_two_probes(tmp_path))],
            capture_output=True,
            text=True,
            timeout=580,
            cwd=ROOT,
            env={**os.environ, "TEEKO_SANDBOX": "off", "PYTHONPATH": str(ROOT)},
            preexec_fn=start,
        )
    assert done.returncode == 0, done.stderr
    record = json.loads((out / "students" / "player" / "record.json").read_text())
    feedback = (out / "students" / "player" / "feedback.md").read_text()
    twice = re.findall(r"measured twice, ([\d.]+) s while grading, ([\d.]+) s alone", feedback)
    assert twice, feedback
    first, alone = (float(x) for x in twice[0])
    assert first > 5.0, "beside the neighbour the move cost a time tier"
    assert alone < 5.0, "alone it did not"
    assert record["criteria"]["time"] == 25
    assert record["measured_again"] >= 1
    assert "measured again alone after the batch: 2 students" in done.stderr
    neighbour = json.loads((out / "students" / "neighbour" / "record.json").read_text())
    assert neighbour["criteria"]["time"] == 13, "8 s alone too: measured again, still 8 s"
    assert neighbour["measured_again"] >= 1


# ---- a timeout on a busy machine, without an own clock: asked again before it counts ------------

TEEKO = assignment("teeko")
(DROP,) = probe_positions(TEEKO.variant, 0, {"drop": 1, "move": 0})
BUSY, QUIET = (6.0, 2), (1.0, 2)
MOVED = {"ok": True, "move": encode([(0, 0)])}


def _stopped(by_wall: bool = True) -> Reply:
    own = None if by_wall else 10.5
    return Reply(
        Status.TIMEOUT,
        seconds=10.6,
        detail="make_move was stopped",
        own_seconds=own,
        by_wall=by_wall,
    )


class _Stand:
    """A stand-in submission process: it starts and builds its player at once; each make_move
    takes the next of ``replies``, shared by every process the referee spawns."""

    def __init__(self, seed: int, replies: list[Reply], spawned: list[int]) -> None:
        self.launch = SimpleNamespace(seed=seed)
        self.dead: Reply | None = None
        self.replies = replies
        spawned.append(seed)

    def start(self) -> Reply:
        return Reply(Status.OK, {"ok": True}, 0.01)

    def request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        if self.dead is not None:
            return self.dead
        if message["op"] != "move":
            return Reply(Status.OK, {"ok": True}, 0.01)
        reply = self.replies.pop(0)
        if reply.status is Status.TIMEOUT:
            self.dead = reply
        return reply

    def close(self) -> None:
        pass


def _asked(load: tuple[float, int], *replies: Reply) -> tuple[list[Call], Referee, list[int]]:
    """The calls of the referee asking one probe, the referee, and the seeds of its processes."""
    spawned: list[int] = []
    queue = list(replies)
    referee = Referee(
        lambda seed: _Stand(seed, queue, spawned),  # type: ignore[arg-type,return-value]
        TEEKO,
        course_rubric().plan,
        7,
        Budget(2),
        load=lambda: load,
    )
    calls, problem, _ = referee.ask([DROP])
    assert problem is None and not queue, "every scripted reply was asked for"
    return calls, referee, spawned


def test_a_wall_clock_timeout_on_a_busy_machine_is_asked_again_alone_and_the_answer_counts():
    calls, referee, spawned = _asked(BUSY, _stopped(), Reply(Status.OK, MOVED, 3.0))
    (call,) = calls
    assert call.answered and call.seconds == pytest.approx(3.01)
    assert spawned == [8, 8], "asked again in a fresh process with the same seed"
    assert referee.budget.used == 0, "not a confirmed timeout"
    time = next(c for c in score(_session(call), course_rubric()).criteria if c.id == "time")
    assert time.points == 25
    assert (
        "stopped at the 10.5 s limit after 10.61 s of wall time while the machine was busy "
        "(load 6.00 on 2 cores), then asked again alone in a fresh process" in time.summary
    )


def test_a_call_stopped_again_when_asked_alone_is_a_confirmed_timeout():
    calls, referee, spawned = _asked(BUSY, _stopped(), _stopped())
    (call,) = calls
    assert call.status is Status.TIMEOUT and spawned == [8, 8]
    assert referee.budget.used == 1
    assert call.error is not None and "asked again alone in a fresh process" in call.error


@pytest.mark.parametrize(
    ("load", "by_wall"),
    [pytest.param(QUIET, True, id="quiet machine"), pytest.param(BUSY, False, id="own clock")],
)
def test_a_timeout_on_a_quiet_machine_or_on_the_own_clock_counts_at_once(load, by_wall):
    calls, referee, spawned = _asked(load, _stopped(by_wall))
    assert calls[0].status is Status.TIMEOUT and spawned == [8]
    assert referee.budget.used == 1


def test_a_game_goes_on_in_the_fresh_process_after_a_timeout_asked_again():
    spawned: list[int] = []
    queue = [_stopped(), Reply(Status.OK, MOVED, 3.0), Reply(Status.OK, {"ok": True}, 0.5)]
    referee = Referee(
        lambda seed: _Stand(seed, queue, spawned),  # type: ignore[arg-type,return-value]
        TEEKO,
        course_rubric().plan,
        7,
        Budget(2),
        load=lambda: BUSY,
    )
    game = referee.game(1)
    assert [c.status for c in game.calls] == [Status.OK, Status.OK]
    assert game.calls[0].busy is not None and spawned == [7001, 7001]
    assert referee.budget.used == 0


def _session(*probes: Call) -> Session:
    return Session("game.py", TEEKO, 0, course_rubric().plan, probes=probes)


# ---- judged on the submission's own time ---------------------------------------------------------

needs_cgroups = pytest.mark.skipif(
    available().cgroups is None, reason="needs cgroups: root and a writable cgroup hierarchy"
)
# One second of CPU per move: the same work whatever else the machine runs.
ONE_SECOND = _slowed("process_time", 1.0)


def _quick(tmp_path: Path) -> Path:
    """Three probes, full time points up to 1.5 s and 13 up to 3 s, killed at 3.5 s; nothing
    measured again, so the grade is the first judgement; a backstop far out, so that only the
    own clock decides."""
    text = COURSE_TOML.read_text()
    for old, new in (
        ("games = 3 ", "games = 0 "),
        ("drop_probes = 10 ", "drop_probes = 2 "),
        ("move_probes = 10 ", "move_probes = 1 "),
        ("call_seconds = 10.5 ", "wall_factor = 20.0\ncall_seconds = 3.5 "),
        ("seconds = 5.0,", "seconds = 1.5,"),
        ("seconds = 10.0,", "seconds = 3.0,"),
        ("measure_again = 3 ", "measure_again = 0 "),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "quick.toml"
    path.write_text(text)
    return path


@contextlib.contextmanager
def _burning() -> Iterator[None]:
    """One process spinning on each core this test may use, for as long as the block runs."""
    spin = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"
    burners = [
        subprocess.Popen([sys.executable, "-c", spin, str(core)], start_new_session=True)
        for core in sorted(os.sched_getaffinity(0))
    ]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait(timeout=30)


def _time_points(run_cli, tmp_path: Path, name: str) -> tuple[float, float, str]:  # type: ignore[no-untyped-def]
    """(score, time points, the time criterion's text) of ``check`` on the slow player."""
    player = tmp_path / "game.py"
    player.write_text(ONE_SECOND)
    out = tmp_path / f"{name}.json"
    done = run_cli(
        "check", str(player), "-a", "teeko2", "--rubric", str(_quick(tmp_path)), "--json", str(out)
    )
    assert done.returncode == 0, done.stderr
    results = json.loads(out.read_text())
    time = next(t for t in results["tests"] if "time" in t.get("tags", []))
    return results["score"], time["score"], time["output"]


@pytest.mark.slow
@pytest.mark.timeout(600)
@needs_cgroups
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux CPU affinity")
def test_a_slow_player_gets_the_same_grade_alone_and_beside_cpu_burners(run_cli, tmp_path):
    """A player that spends 1 s of CPU per move is graded alone, then beside a process spinning
    on every core: the neighbours stretch its wall time past the 1.5 s tier, but the grader
    judges its own time, so it keeps every time point both times."""
    score, alone, _ = _time_points(run_cli, tmp_path, "alone")
    with _burning():
        busy_score, busy, text = _time_points(run_cli, tmp_path, "busy")
    assert (alone, busy) == (25, 25), text
    assert busy_score == score
    own, wall = (
        float(x) for x in re.findall(r"([\d.]+) s of its own time \(([\d.]+) s wall", text)[0]
    )
    assert own < 1.5 < wall, f"the burners should have stretched its wall time: {text}"


@pytest.mark.parametrize(
    ("own", "loads", "warning"),
    [
        pytest.param(1.0, [QUIET, QUIET], None, id="quiet"),
        pytest.param(None, [None, None], None, id="load unknown"),
        pytest.param(
            1.0,
            [QUIET, BUSY],
            "warning: the machine was busy while grading (load 6.00 on 2 cores); each move was "
            "timed on the submission's own time",
            id="busy, own clock",
        ),
        pytest.param(
            None,
            [BUSY, QUIET],
            "warning: the machine was busy while grading (load 6.00 on 2 cores) and this grader "
            "can only time moves on the wall clock here (no cgroups), so the time criterion may "
            "be unfair: grade again on a quiet machine",
            id="busy, wall clock",
        ),
    ],
)
def test_check_warns_once_when_the_load_was_above_the_cores(own, loads, warning):
    session = _session(Call("probe 1", DROP, "drop", Status.OK, 2.0, own_seconds=own))
    said = load_warning(loads, session)
    assert said == warning if warning is None else said is not None and said.startswith(warning)


def test_check_says_nothing_of_the_clock_when_no_move_was_timed():
    """A submission that never got to move (its import hung) was timed on no clock: the
    warning would blame missing cgroups that are there."""
    assert load_warning([BUSY, BUSY], _session()) is None


def test_a_call_asked_again_alone_waits_for_the_calls_in_flight_and_holds_new_ones_back():
    """The batch's workers are threads: while one asks a call again alone, none of the others'
    calls runs beside it."""
    log: list[str] = []
    in_flight, release, alone_began = threading.Event(), threading.Event(), threading.Event()

    def neighbour() -> None:
        with sharing():
            in_flight.set()
            release.wait(30)
            log.append("neighbour's call ended")

    def latecomer() -> None:
        alone_began.wait(30)
        with sharing():
            log.append("latecomer's call ran")

    threads = [threading.Thread(target=neighbour), threading.Thread(target=latecomer)]
    threads[0].start()
    assert in_flight.wait(30)
    threads[1].start()
    threading.Timer(0.2, release.set).start()
    with alone():
        alone_began.set()
        log.append("alone")
        with sharing():  # its own calls run
            log.append("its own call ran")
        threads[1].join(0.2)
        assert threads[1].is_alive(), "the latecomer waits"
    for thread in threads:
        thread.join(30)
    assert log == ["neighbour's call ended", "alone", "its own call ran", "latecomer's call ran"]


# ---- the per-submission cap on a busy machine ---------------------------------------------------


def test_the_submission_cap_is_stretched_once_by_the_load_when_reached_on_a_busy_machine():
    """A 300 s cap reached at load 6 on 2 cores becomes 900 s, once; the skipped calls say so."""
    now = [100.0]
    budget = Budget(2, deadline=400.0, load=lambda: BUSY, clock=lambda: now[0])
    now[0] = 400.0
    assert not budget.exhausted, "stretched to 100 + 300 s x 3"
    now[0] = 999.0
    assert not budget.exhausted
    now[0] = 1000.0
    assert budget.exhausted, "stretched once only"
    assert budget.why(course_rubric().plan.limits) == (
        "not run: grading this submission used up its whole time allowance, stretched once for "
        "the busy machine (load 6.00 on 2 cores)"
    )


def test_the_checks_count_their_own_timeouts_but_their_cap_stretches_as_the_games():
    """The checks' budget, made later in the session, stretches the same 300 s cap to the same
    900 s: the span is measured from the start of the grading, not from the checks'."""
    now = [100.0]
    games = Budget(2, deadline=400.0, load=lambda: BUSY, clock=lambda: now[0])
    games.confirm()
    now[0] = 250.0
    checks = games.apart()
    assert checks.used == 0
    now[0] = 999.0
    assert not games.exhausted and not checks.exhausted
    now[0] = 1000.0
    assert games.exhausted and checks.exhausted


@pytest.mark.parametrize("load", [QUIET, None], ids=["quiet machine", "load unknown"])
def test_the_submission_cap_holds_on_a_quiet_machine(load):
    now = [100.0]
    budget = Budget(2, deadline=400.0, load=lambda: load, clock=lambda: now[0])
    now[0] = 399.9
    assert not budget.exhausted
    now[0] = 400.0
    assert budget.exhausted
    assert budget.why(course_rubric().plan.limits).endswith("its whole time allowance")
