"""Tactical probes judged by value, in process: the probes of a seed, each verdict, and what
scoring charges for it (Connect Four's exact solver; tic-tac-toe's full solve).

No child process runs here; the Connect Four positions are the seeded probes of the default
rubric, solved by the kit's solver as a graded submission's are.
"""

from __future__ import annotations

import functools
import random
from dataclasses import replace

from autograder.games.boardabc import checks as board_checks
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.connect4.rules import legal_moves, play, winning_moves
from autograder.games.pack import Noted
from autograder.games.tactics import (
    DEEPER,
    MISSED,
    SOLVED,
    SOONER,
    UNSURE,
    Probe,
    classify,
    judge,
    tactic_positions,
)
from autograder.grading.rubric import load_rubric
from autograder.grading.scoring import Criterion, score
from autograder.oracle.player import tactics_solver
from autograder.play.host import Status
from autograder.play.records import Call, Checked, Session
from tests.conftest import assignment

C4 = assignment("connect4")
RUBRIC = load_rubric(None, C4.pack)
PROBES = tactic_positions(C4.pack, C4.variant, 0, 6, tactics_solver(C4))


@functools.cache
def _later_win() -> tuple[Probe, int, int]:
    """A win in 1 of the first seeds' probes with a column that wins at once, another that
    keeps a forced win without winning at once, and one that does not keep the win (the
    probes are picked where a move at random is rarely right, so such a one is rare)."""
    for seed in range(40):
        for probe in tactic_positions(C4.pack, C4.variant, seed, 6, tactics_solver(C4)):
            if probe.kind != "win in 1" or probe.values is None:
                continue
            now = winning_moves(probe.position)
            later = [c for c, outcome in probe.values if outcome == "win" and c not in now]
            if later and any(outcome != "win" for _, outcome in probe.values):
                return probe, now[0], later[0]
    raise AssertionError("no seed up to 40 has a win in 1 with a later forced win")


def _losing(probe: Probe) -> int:
    assert probe.values is not None
    return next(c for c, outcome in probe.values if outcome != probe.best)


def _call(probe: Probe, column: int | None, number: int = 1, **changes: object) -> Call:
    call = Call(
        f"tactic {number} (you play red)",
        probe.position,
        "play",
        Status.OK,
        0.1,
        returned=repr(column),
        move=column,
        raw=column,
    )
    return replace(call, **changes)


def _tactics(session: Session, rubric=RUBRIC) -> Criterion:  # type: ignore[no-untyped-def]
    return next(c for c in score(session, rubric).criteria if c.id == "tactics")


def _session(*pairs: tuple[Probe, Call]) -> Session:
    return Session("game.py", C4, 0, RUBRIC.plan, tactics=pairs)


def test_the_probes_of_a_seed_are_solved_and_the_same_every_run():
    again = tactic_positions(C4.pack, C4.variant, 0, 6, tactics_solver(C4))
    assert again == PROBES
    assert [p.kind for p in PROBES] == ["win in 1", "block"] * 3
    for probe in PROBES:
        assert probe.values is not None
        assert [c for c, _ in probe.values] == legal_moves(probe.position)
        assert probe.best != "loss"  # no block where every move loses anyway


def test_a_block_that_loses_anyway_is_never_asked():
    """The solver says the first block position found is lost whatever is played: it is
    passed over, and another block is asked in its place."""
    solver = tactics_solver(C4)
    assert solver is not None
    lost: list[object] = []

    def exact(pos):  # type: ignore[no-untyped-def]
        values = solver(pos)
        if values is not None and not winning_moves(pos) and not lost:
            lost.append(pos)
            return [(c, "loss") for c, _ in values]
        return values

    probes = tactic_positions(C4.pack, C4.variant, 0, 6, exact)
    assert lost and lost[0] not in [p.position for p in probes]
    assert [p.kind for p in probes] == ["win in 1", "block"] * 3


def test_a_move_is_judged_by_the_outcome_it_keeps():
    probe, now, later = _later_win()
    assert judge(C4.pack, probe, now).status == SOLVED
    sooner = judge(C4.pack, probe, later)
    assert sooner.status == SOONER
    assert f"column {later} kept the forced win" in sooner.text
    assert f"a sooner win was available at column {now}" in sooner.text
    missed = judge(C4.pack, probe, _losing(probe))
    assert missed.status == MISSED
    assert f"column {now}" in missed.text and "wins at once" in missed.text


def test_a_block_made_is_not_charged_for_an_outcome_lost_later_and_one_let_through_is():
    """A block tests the block: a move that lets no win through is not charged where best
    play loses later (a depth-limited search cannot see that far; reported), and a move that
    lets the opponent win next move is charged, naming the moves that do not (values as the
    solver would give them)."""
    position = _block_with_two_stops()
    safe = [c for c in legal_moves(position) if not _lets_win(position, c)]
    others = [c for c in legal_moves(position) if c not in safe]
    values = tuple((c, "draw" if c in safe[1:] else "loss") for c in legal_moves(position))
    probe = Probe("block", position, values)
    later = judge(C4.pack, probe, safe[0])
    keeps = " or ".join(f"column {c}" for c in safe[1:])
    assert (later.status, later.text) == (
        DEEPER,
        f"column {safe[0]} lets no win through, though with best play it turns the draw into a "
        f"loss later ({keeps} keeps the draw)",
    )
    through = judge(C4.pack, probe, others[0])
    named = " or ".join(f"column {c}" for c in safe)
    assert (through.status, through.text) == (
        MISSED,
        f"column {others[0]} lets the opponent win next move; {named} does not",
    )
    assert judge(C4.pack, probe, safe[1]).status == SOLVED
    criterion = _tactics(_session((probe, _call(probe, safe[0]))))
    assert criterion.tally == (1, 1)
    assert "block: 1 of 1 (1 lost the outcome later with best play, not charged)" in (
        criterion.summary
    )


def _block_with_two_stops():  # type: ignore[no-untyped-def]
    """A block of random play where two moves or more let no win through."""
    rng = random.Random("two stops")
    while True:
        pos = C4.pack.random_position(C4.variant, rng, rng.randint(4, 40))
        blocks = pos is not None and classify(C4.pack, pos) == "block"
        if blocks and sum(not _lets_win(pos, c) for c in legal_moves(pos)) >= 2:
            return pos


def _lets_win(pos, column):  # type: ignore[no-untyped-def]
    after = play(pos, column)
    return bool(winning_moves(after))


def test_a_later_forced_win_is_reported_and_not_charged_unless_the_rubric_asks():
    probe, now, later = _later_win()
    session = _session((probe, _call(probe, later)), (probe, _call(probe, now, 2)))
    kept = _tactics(session)
    assert (kept.points, kept.max_points, kept.tally) == (35, 35, (2, 2))
    assert "win in 1: 2 of 2 (1 kept a forced win instead of the win at once, not charged)" in (
        kept.summary
    )
    assert [e.problem for e in kept.evidence] == [
        f"column {later} kept the forced win (a sooner win was available at column {now}); "
        "not charged"
    ]
    strict = _tactics(session, replace(RUBRIC, prefer_sooner=True))
    assert strict.tally == (1, 2) and strict.points < kept.points
    assert "the rubric asks for the sooner win" in strict.evidence[0].problem


def test_a_miss_names_the_right_columns_and_shows_the_board():
    probe, now, _ = _later_win()
    wrong = _losing(probe)
    criterion = _tactics(_session((probe, _call(probe, wrong))))
    assert (criterion.points, criterion.tally) == (0, (0, 1))
    (miss,) = criterion.evidence
    assert f"column {wrong} turns the win into a loss with best play" in miss.problem
    assert f"column {now}" in miss.problem
    assert miss.board == C4.pack.render(probe.position)
    assert miss.rows == tuple(C4.pack.cells(probe.position)) and miss.marks


def test_beyond_the_solvers_reach_only_what_the_rules_show_is_charged():
    probe, now, later = _later_win()
    unsolved = replace(probe, values=None)
    assert judge(C4.pack, unsolved, now).status == SOLVED
    quiet = [c for c in legal_moves(probe.position) if c not in winning_moves(probe.position)]
    hands = [c for c in quiet if _lets_win(probe.position, c)]
    calm = [c for c in quiet if not _lets_win(probe.position, c)]
    assert calm, "the position has a quiet move"
    unsure = judge(C4.pack, unsolved, calm[0])
    assert unsure.status == UNSURE and "not charged" in unsure.text
    criterion = _tactics(_session((unsolved, _call(unsolved, calm[0]))))
    assert (criterion.points, criterion.tally) == (35, (1, 1))
    assert "1 not judged, beyond the solver's reach" in criterion.summary
    assert "1 of 1 not charged (1 not judged)" in criterion.summary, "not called right"
    if hands:
        assert judge(C4.pack, unsolved, hands[0]).status == MISSED


def test_beyond_the_solvers_reach_a_missed_block_is_charged_by_the_rules():
    """Without a solver, a block's miss is still sure: after it the opponent wins at once."""
    probe = replace(next(p for p in PROBES if p.kind == "block"), values=None)
    moves = legal_moves(probe.position)
    stops = [c for c in moves if not _lets_win(probe.position, c)]
    misses = [c for c in moves if _lets_win(probe.position, c)]
    assert stops and misses, "a block has a move that stops the win and one that does not"
    assert judge(C4.pack, probe, stops[0]).status == SOLVED
    missed = judge(C4.pack, probe, misses[0])
    named = " or ".join(f"column {c}" for c in stops)
    assert (missed.status, missed.text) == (
        MISSED,
        f"column {misses[0]} lets the opponent win next move; {named} does not",
    )
    criterion = _tactics(_session((probe, _call(probe, misses[0]))))
    assert (criterion.points, criterion.tally) == (0, (0, 1))
    assert "block: 0 of 1;" in criterion.summary and "0 of 1 right" in criterion.summary


def test_no_move_on_a_probe_is_a_miss_saying_why():
    probe = PROBES[0]
    call = _call(probe, None, move=None, illegal="column 9 is off the board")
    criterion = _tactics(_session((probe, call)))
    assert criterion.points == 0
    assert criterion.evidence[0].problem == "column 9 is off the board"


# ---- tic-tac-toe: the book's board homework ------------------------------------------------------

BOARD_ABC = assignment("board-abc")
BOARD_RUBRIC = load_rubric(None, BOARD_ABC.pack)


def _win_in_1_checks():  # type: ignore[no-untyped-def]
    return [c for c in board_checks.checks(BOARD_ABC.variant, 0) if c.kind.endswith("win in 1")]


def test_tic_tac_toe_win_in_1_accepts_a_later_forced_win_with_a_remark():
    """Seed 0's third win in 1 (the book's minimax plays 0 there: 6 wins at once, 0 wins by
    force two moves later)."""
    check = _win_in_1_checks()[2]
    assert check.judge({"move": 6}) is None
    noted = check.judge({"move": 0})
    assert isinstance(noted, Noted) and noted.sooner
    assert "a sooner win was available at [6]" in noted.note
    wrong = check.judge({"move": 4})
    assert wrong == (
        "[6] win at once; find_best_move played 4, after which X loses against best play; "
        "[0, 6] keep the win"
    )


def _search(note: Noted | None, rubric=BOARD_RUBRIC) -> Criterion:  # type: ignore[no-untyped-def]
    checked = tuple(
        Checked("search", kind, f"{kind} 1", "board", None, 0.1, note=note if "1" in kind else None)
        for kind in ("tic-tac-toe win in 1", "tic-tac-toe best move")
    )
    session = Session("minimax.py", BOARD_ABC, 0, BOARD_RUBRIC.plan, checks=checked)
    return next(c for c in score(session, rubric).criteria if c.id == "search")


def test_a_remark_on_a_check_is_reported_and_charged_only_when_the_rubric_prefers_sooner():
    note = Noted("find_best_move played 0, which keeps the forced win", sooner=True)
    kept = _search(note)
    assert kept.points == 25
    assert "1 right with a remark, not charged" in kept.summary
    assert kept.evidence[0].problem.endswith("keeps the forced win; not charged")
    strict = _search(note, replace(BOARD_RUBRIC, prefer_sooner=True))
    assert strict.points == 12  # one kind of two right: 12.5, rounded to even
    assert "the rubric asks for the sooner win" in strict.evidence[0].problem


def test_tic_tac_toe_blocks_are_never_asked_where_every_move_loses():
    for check in board_checks.checks(BOARD_ABC.variant, 0):
        if check.kind.endswith("block"):
            pos = ttt.TicTacToe("".join(check.request["cells"]), check.request["turn"])
            assert ttt.value(pos) >= 0


# ---- chance is not skill ---------------------------------------------------------------------


def test_the_probes_are_where_a_move_at_random_is_rarely_right():
    """Of the positions random play turns up, the tactics ask those where at most a fifth of
    the legal moves answer them (win at once; keep a block's outcome), else the rarest found:
    a random mover's expected count of right answers is small."""
    shares = []
    for probe in PROBES:
        assert probe.values is not None and probe.best is not None
        if probe.kind == "win in 1":
            right = len(winning_moves(probe.position))
        else:
            right = sum(outcome == probe.best for _, outcome in probe.values)
        shares.append(right / len(probe.values))
    assert sum(shares) / len(shares) <= 0.25, shares


def test_a_random_mover_gets_about_none_of_the_tactics_and_a_right_one_all():
    """Moves at random on the seed's probes, many times over: their mean share of the points is
    near 0, and one right everywhere gets them all; one miss of ten costs a seventh or so."""
    rubric = replace(RUBRIC, tactics=len(PROBES))
    rng = random.Random(7)
    shares = []
    for _ in range(200):
        pairs = tuple(
            (p, _call(p, rng.choice(legal_moves(p.position)), n)) for n, p in enumerate(PROBES)
        )
        shares.append(_tactics(_session(*pairs), rubric).points / rubric.tactics_points)
    assert sum(shares) / len(shares) < 0.05
    right = [next(c for c, o in p.values or () if o == p.best) for p in PROBES]
    pairs = tuple((p, _call(p, c, n)) for n, (p, c) in enumerate(zip(PROBES, right, strict=True)))
    assert _tactics(_session(*pairs), rubric).points == rubric.tactics_points
    missed = tuple(
        (p, _call(p, _losing(p) if n == 0 else c, n))
        for n, (p, c) in enumerate(zip(PROBES, right, strict=True))
    )
    criterion = _tactics(_session(*missed), rubric)
    assert 0.6 * rubric.tactics_points < criterion.points < rubric.tactics_points
    assert "where moves at random get" in criterion.summary


def test_an_extra_turn_blocks_nothing_when_every_move_of_it_lets_the_win_through():
    """Kalah: north holds 28 of 48 seeds. Pit 5 earns south an extra turn, and every move of
    that turn lets north win next move, so pit 5 stops nothing: no move here keeps north from
    winning, and the position is no block to ask."""
    from autograder.games import find_assignment
    from autograder.games.kalah.rules import from_board
    from autograder.games.tactics import _lets_win as lets_win

    kalah = find_assignment("kalah")
    pack = kalah.pack
    pos = from_board([[2, 2, 1, 0, 0, 1, 13], [0, 0, 0, 0, 0, 1, 28]], "S", kalah.variant)
    after = pack.play(pos, 5)
    assert pack.turn(after) == pack.turn(pos), "pit 5 ends in south's store: an extra turn"
    assert lets_win(pack, pos, 5)
    assert all(lets_win(pack, pos, move) for move in pack.legal_moves(pos))
    assert classify(pack, pos) is None
