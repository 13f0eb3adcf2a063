"""Scoring, in process, on hand-built sessions: every criterion, phase and tier edge.

No child process runs here: these tests take a second and catch any change in how the rubric
turns what the referee saw into points.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from autograder.games.teeko.probes import probe_positions
from autograder.grading.scoring import Grade, score
from autograder.play.host import Status
from autograder.play.records import Call, Game, Session
from tests.conftest import assignment, course_rubric

RUBRIC = course_rubric()
TEEKO = assignment("teeko")
DROP, MOVE = probe_positions(TEEKO.variant, 0, {"drop": 1, "move": 1})
FULL = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30, "output": 0, "packaging": 0}


def _call(phase: str = "drop", **changes: object) -> Call:
    pos = DROP if phase == "drop" else MOVE
    call = Call(f"probe ({phase})", pos, phase, Status.OK, 0.5, returned="[(0, 0)]", move=object())
    return replace(call, **changes)


def _game(number: int, result: str = "win", calls: tuple[Call, ...] = ()) -> Game:
    return Game(number, "b" if number % 2 else "r", result, "because", 9, MOVE, calls)


def _session(
    probes: tuple[Call, ...] = (),
    games: tuple[Game, ...] | None = None,
    **changes: object,
) -> Session:
    if games is None:
        games = tuple(_game(n) for n in (1, 2, 3))
    base = Session("game.py", TEEKO, 0, RUBRIC.plan, games=games, probes=probes)
    return replace(base, **changes)


FINE = (_call("drop"), _call("move"))


def _points(grade: Grade) -> dict[str, float]:
    return {c.id: c.points for c in grade.criteria}


def _criterion(grade: Grade, ident: str):  # type: ignore[no-untyped-def]
    return next(c for c in grade.criteria if c.id == ident)


def test_a_clean_session_earns_everything():
    grade = score(_session(FINE), RUBRIC)
    assert _points(grade) == FULL
    assert (grade.score, grade.max_score) == (100, 100)


@pytest.mark.parametrize(
    ("calls", "rules"),
    [
        ((_call("drop", illegal="is occupied", move=None), _call("move")), 15),
        ((_call("drop"), _call("move", illegal="not adjacent", move=None)), 10),
        ((_call("drop", status=Status.ERROR, error="raised"), _call("move")), 15),
        ((_call("drop"), _call("move", status=Status.EXITED, error="died")), 10),
        ((_call("drop"), _call("move", status=Status.BAD_REPLY, error="forged")), 10),
        ((_call("drop"), _call("move", status=Status.TIMEOUT, seconds=11)), 10),
        ((_call("drop"),), 10),
    ],
    ids=["illegal drop", "illegal move", "error", "exited", "bad reply", "only a timeout", "none"],
)
def test_rules_are_earned_per_phase(calls, rules):
    grade = score(_session(calls), RUBRIC)
    assert _points(grade)["rules"] == rules


def test_a_phase_without_an_answer_says_so():
    grade = score(_session((_call("drop"),)), RUBRIC)
    assert "move phase 0/15: no move came back to judge" in _criterion(grade, "rules").summary


@pytest.mark.parametrize("phase", ["drop", "move"])
def test_changing_state_costs_that_phase(phase):
    changed = replace(_call(phase), changed="the state passed to it: square B3 (' ' → 'b')")
    other = _call("move" if phase == "drop" else "drop")
    grade = score(_session((changed, other)), RUBRIC)
    assert _points(grade)["state"] == 5
    evidence = _criterion(grade, "state").evidence[0]
    assert evidence.problem == (
        "make_move changed the state passed to it: square B3 (' ' → 'b'); work on a copy "
        "(copy.deepcopy(state))"
    )
    assert evidence.board.splitlines()[-1] == "   A B C D E"


@pytest.mark.parametrize("phase", ["drop", "move"])
def test_an_inexact_format_costs_that_phase(phase):
    inexact = _call(phase, format_problem="each square should be a tuple")
    other = _call("move" if phase == "drop" else "drop")
    assert _points(score(_session((inexact, other)), RUBRIC))["format"] == 5


@pytest.mark.parametrize(
    ("seconds", "points"),
    [(5.0, 25), (5.01, 13), (10.0, 13), (10.01, 0), (0.0, 25)],
)
def test_the_slowest_move_picks_the_time_tier(seconds, points):
    grade = score(_session((_call("drop", seconds=seconds), _call("move"))), RUBRIC)
    assert _points(grade)["time"] == points


def test_a_timeout_earns_no_time_points():
    timeout = _call("move", status=Status.TIMEOUT, seconds=10.6, error="stopped")
    grade = score(_session((_call("drop"), timeout)), RUBRIC)
    time = _criterion(grade, "time")
    assert time.points == 0
    assert time.summary.startswith("slowest make_move: past the hard limit")


def test_time_spent_before_make_move_is_named():
    slow = _call("drop", seconds=6.0, other_seconds=5.5, other_calls="TeekoPlayer()")
    grade = score(_session((slow, _call("move"))), RUBRIC)
    time = _criterion(grade, "time")
    assert time.points == 13
    assert "6.00 s, 5.50 s of it in TeekoPlayer(), called before make_move" in time.summary


@pytest.mark.parametrize(("won", "points"), [(3, 30), (2, 30), (1, 15), (0, 0)])
def test_games_won_pick_the_wins_tier(won, points):
    games = tuple(_game(n, "win" if n <= won else "loss") for n in (1, 2, 3))
    grade = score(_session(FINE, games), RUBRIC)
    assert _points(grade)["wins"] == points
    assert len(_criterion(grade, "wins").evidence) == 3 - won


def test_anything_printed_costs_the_penalty_once():
    loud = _call("drop", printed="thinking")
    games = (replace(_game(1), printed="hello"), _game(2), _game(3))
    grade = score(_session((loud, _call("move")), games, import_printed="import"), RUBRIC)
    output = _criterion(grade, "output")
    assert output.points == -10
    assert output.summary.startswith("printed in 3 places outside main()")


def test_a_print_in_the_constructor_is_named_by_the_constructor_once():
    built = _call("drop", printed_before="I am b", other_calls="Teeko2Player()")
    grade = score(_session((built, _call("move"))), RUBRIC)
    output = _criterion(grade, "output")
    assert output.summary == "printed in 1 place outside main(): -10; remove debug prints"
    assert [e.problem for e in output.evidence] == ["printed: I am b"]
    assert [e.where for e in output.evidence] == [f"{built.where}, during Teeko2Player()"]


def test_the_score_is_never_below_zero():
    nothing = _session((), games=(), load_error="it crashed", import_printed="x")
    grade = score(nothing, RUBRIC)
    assert _points(grade)["output"] == -10
    assert grade.score == 0


def test_a_submission_that_did_not_load_gets_zero_with_the_reason_everywhere():
    grade = score(_session((), games=(), load_error="game.py has a syntax error"), RUBRIC)
    assert _points(grade) == dict.fromkeys(FULL, 0)
    assert all(c.summary == "game.py has a syntax error" for c in grade.criteria[:5])


@pytest.mark.parametrize(
    ("problems", "summary"),
    [(None, "not checked (not a zip)"), ([], "zip name and contents fine"), (["bad"], "bad")],
)
def test_packaging_is_reported_and_costs_only_its_penalty(problems, summary):
    lenient = score(_session(FINE), RUBRIC, problems)
    assert _criterion(lenient, "packaging").summary == summary
    strict = score(_session(FINE), replace(RUBRIC, packaging_penalty=5), problems)
    assert _points(strict)["packaging"] == (-5 if problems else 0)


@pytest.mark.parametrize(
    ("late", "points", "summary"),
    [
        (True, -10, "Canvas marked the submission late: -10"),
        (False, 0, "on time"),
        (None, 0, "not known here: only a Canvas download marks a submission late"),
    ],
)
def test_a_late_penalty_is_a_line_of_its_own(late, points, summary):
    strict = replace(RUBRIC, late_penalty=10)
    grade = score(_session(FINE), strict, late=late)
    late_line = _criterion(grade, "late_penalty")
    assert (late_line.points, late_line.summary) == (points, summary)
    assert grade.score == 100 + points


def test_without_a_late_penalty_there_is_no_late_line():
    grade = score(_session(FINE), RUBRIC, late=True)
    assert "late_penalty" not in _points(grade) and grade.score == 100


def test_the_better_of_two_measurements_decides_the_tier_and_both_are_shown():
    again = _call("drop", seconds=3.1, cpu_seconds=3.0, measured=(6.4, 3.1))
    time = _criterion(score(_session((again, _call("move"))), RUBRIC), "time")
    assert time.points == 25
    assert "3.10 s wall, 3.00 s CPU" in time.summary
    assert "measured twice, 6.40 s while grading, 3.10 s alone after" in time.summary


def test_the_tier_is_judged_on_its_own_time_where_the_grader_measured_it():
    """6 s of wall time on a busy machine, 1.2 s of its own: the own time picks the tier, and
    the report shows all three figures."""
    starved = _call("drop", seconds=6.0, own_seconds=1.2, cpu_seconds=1.1)
    time = _criterion(score(_session((starved, _call("move"))), RUBRIC), "time")
    assert time.points == 25
    assert "slowest make_move: 1.20 s of its own time (6.00 s wall, 1.10 s CPU)" in time.summary


def _stopped(where: str, wall: float) -> Call:
    return _call(
        "move",
        where=where,
        status=Status.TIMEOUT,
        seconds=wall,
        own_seconds=10.5,
        cpu_seconds=10.4,
        error="make_move was still running after 10.5 s and was stopped",
    )


def test_every_stopped_call_is_shown_with_wall_and_cpu_and_a_call_not_run_never_is():
    skipped = _call(
        "move",
        where="probe 9",
        status=Status.TIMEOUT,
        seconds=float("inf"),
        skipped=True,
        error="not run: 2 calls already passed the 10.5 s limit, so the rest count as timeouts",
    )
    calls = (_call("drop"), _stopped("probe 3", 31.0), _stopped("probe 4", 12.0), skipped)
    time = _criterion(score(_session(calls), RUBRIC), "time")
    assert time.points == 0
    assert time.summary.startswith(
        "slowest make_move: past the hard limit (probe 3); 2 calls stopped at the 10.5 s limit; "
        "1 call not run: 2 calls already passed"
    )
    assert "slowest answered: 0.50 s (probe (drop))" in time.summary
    assert [e.where for e in time.evidence] == ["probe 3", "probe 4", "probe (drop)"]
    assert "10.50 s of its own time (31.00 s wall, 10.40 s CPU)" in time.evidence[0].problem
    assert time.evidence[2].problem == "took 0.50 s"


def test_calls_not_run_for_want_of_time_name_no_slowest_call():
    skipped = _call(
        "move",
        status=Status.TIMEOUT,
        seconds=float("inf"),
        skipped=True,
        error="not run: grading this submission used up its whole time allowance",
    )
    time = _criterion(score(_session((skipped,)), RUBRIC), "time")
    assert time.points == 0
    assert time.summary == (
        "1 call not run: grading this submission used up its whole time allowance; 0 moves timed"
    )
    assert time.evidence == ()


# ---- calls that raised, and calls the driver could not set up -----------------------------------


def test_calls_that_raised_never_earn_full_time_state_or_format():
    """A move that raised on 15 of 28 calls: no move to judge or to time on those, so time,
    state and format earn in proportion to the 13 that answered (rules: those are no moves)."""
    raised = tuple(
        _call("move", status=Status.ERROR, error="move raised KeyError") for _ in range(15)
    )
    answered = tuple(_call("move") for _ in range(13))
    grade = score(_session((_call("drop"), *answered, *raised)), RUBRIC)
    points = _points(grade)
    assert points["time"] == round(25 * 14 / 29)  # 14 answered (a drop too) of 29 calls
    assert points["state"] == 5 + round(5 * 13 / 28) and points["format"] == 5 + round(5 * 13 / 28)
    assert points["rules"] == 10
    time = _criterion(grade, "time").summary
    assert "15 calls raised and made no move to time: 14 of 29 timed" in time
    state = _criterion(grade, "state").summary
    assert "all 13 moves fine, but 15 calls raised and made no move to judge" in state
    assert _points(score(_session((_call("drop"), *answered)), RUBRIC)) == FULL


def test_a_position_the_driver_could_not_set_up_counts_for_nothing():
    """The Board homework's own board class cannot hold a probe's position (a column full one
    piece early): not a move the submission made, so neither charged nor counted."""
    unbuilt = _call(
        "move",
        status=Status.ERROR,
        error="find_best_move was not called: building the board raised OverflowError",
        unbuilt=True,
        move=None,
    )
    grade = score(_session((*FINE, unbuilt)), RUBRIC)
    assert _points(grade) == FULL
    assert _criterion(grade, "rules").summary == (
        "drop phase 10/10: all 1 moves fine; move phase 15/15: all 1 moves fine"
    )
