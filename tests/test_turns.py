"""The turn engine (``autograder/play/turns.py``): whose turn it is comes from the position, ply
by ply, so a side that moves twice in a row is asked twice, a forced pass is played and asked
of no one, every seat is told every ply with the side that made it, and the game ends as the
rules (or the cap, or a refused move) say. No process is started: the seats here answer in
this process (the student's seat talks to a stand-in process)."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace
from typing import Any

import pytest

from autograder.games.pack import Assignment, Turns
from autograder.play.budget import Budget
from autograder.play.host import Reply, Status
from autograder.play.match import Entrant, play_match
from autograder.play.protocol import encode
from autograder.play.records import Plan, Ply
from autograder.play.referee import Referee
from autograder.play.seat import StudentSeat
from autograder.play.turns import Answer, Ending, Engine, KitSeat, ending_text
from tests.toy import PASS, TOY, Pos, Variant, first_move, legal_moves, play

pytestmark = pytest.mark.timeout(30)

EDGES = (0, 6)


def _edge_again(pos: Pos, move: Any) -> Pos:
    """The toy with an extra turn: a side that fills an end cell moves again (as Kalah's last
    seed in its own store does)."""
    after = play(pos, move)
    return dataclasses.replace(after, turn=pos.turn) if move in EDGES else after


EXTRA = dataclasses.replace(
    TOY,
    rules=dataclasses.replace(TOY.rules, play=_edge_again),
    kind=dataclasses.replace(TOY.kind, turns=Turns.EXTRA),
)


class _Scripted:
    """A seat that plays the lowest cell it may fill, logging what it is asked and told."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.asked: list[Pos] = []
        self.told: list[tuple[str, Any]] = []
        self.closed = False

    def open(self) -> str | None:
        return None

    def move(self, pos: Pos, plies: int) -> Answer[Any]:
        assert pos.turn == self.side, "only the side to move is asked"
        self.asked.append(pos)
        move = legal_moves(pos)[0]
        return Answer(move, Ply(self.side, move, repr(move)))

    def tell(self, side: str, move: Any) -> None:
        self.told.append((side, move))

    def close(self) -> None:
        self.closed = True


def _sides(plies: list[Ply]) -> list[str]:
    return [ply.side for ply in plies]


def test_a_side_with_an_extra_turn_is_asked_again_and_both_are_told_each_ply_with_its_side():
    black, white = _Scripted("x"), _Scripted("o")
    engine = Engine(EXTRA, {"x": black, "o": white}, Pos(), 50)
    ending = engine.run()
    sides = _sides(engine.plies)
    assert any(a == b for a, b in zip(sides, sides[1:], strict=False)), sides
    repeated = [n for n, ply in enumerate(engine.plies[:-1]) if ply.move in EDGES]
    assert repeated and all(sides[n + 1] == sides[n] for n in repeated), sides
    told = [(ply.side, ply.move) for ply in engine.plies]
    assert black.told == white.told == told, "every seat hears every ply, its own too"
    assert len(black.asked) == sides.count("x") - sum(
        p.move == PASS for p in engine.plies if p.side == "x"
    )
    assert ending.how == "outcome" and black.closed and white.closed


def test_the_toy_without_extra_turns_never_repeats_a_side_unless_it_passed():
    engine = Engine(TOY, {"x": _Scripted("x"), "o": _Scripted("o")}, Pos(), 50)
    engine.run()
    sides = _sides(engine.plies)
    for n in range(1, len(sides)):
        if sides[n] == sides[n - 1]:
            pytest.fail(f"ply {n + 1} repeats a side: {sides}")


def test_a_forced_pass_is_played_by_the_engine_and_asked_of_no_one():
    black, white = _Scripted("x"), _Scripted("o")
    engine = Engine(
        TOY, {"x": black, "o": white}, Pos(("x", "o", "x", "x", "o", " ", " "), "o"), 50
    )
    engine.open()
    assert engine.must_pass()
    played = engine.step()
    assert played.passed and played.move == PASS and not white.asked
    assert black.told == white.told == [("o", PASS)]
    assert engine.to_move() == "x" and not engine.must_pass()


def test_the_engine_steps_one_ply_at_a_time():
    black, white = _Scripted("x"), _Scripted("o")
    engine = Engine(EXTRA, {"x": black, "o": white}, Pos(), 50)
    engine.open()
    first = engine.step()
    assert (first.side, first.move) == ("x", 3) and len(engine.plies) == 1
    assert engine.to_move() == "o" and engine.ending is None


def test_an_opening_is_played_first_and_told_to_every_seat():
    black, white = _Scripted("x"), _Scripted("o")
    engine = Engine(TOY, {"x": black, "o": white}, Pos(), 50, opening=(3, 5))
    engine.open()
    assert engine.pos.cells == (" ", " ", "x", "x", "o", "o", " ")
    assert black.told == white.told == [("x", 3), ("o", 5)] and not black.asked


def test_a_refused_move_ends_the_game_with_the_fault_and_its_ply():
    class Refuses(_Scripted):
        def move(self, pos: Pos, plies: int) -> Answer[Any]:
            return Answer(None, Ply(self.side, None, "9"), "9 is off the board")

    engine = Engine(TOY, {"x": _Scripted("x"), "o": Refuses("o")}, Pos(), 50)
    ending = engine.run()
    assert (ending.how, ending.fault, ending.winner, ending.plies) == ("fault", "o", "x", 1)
    assert len(engine.plies) == 2 and engine.plies[-1].text == "9"
    names = {"x": "alice", "o": "bob"}.__getitem__
    assert ending_text(TOY, ending, names) == "bob lost on ply 2: 9 is off the board"


def test_the_cap_ends_a_game_as_a_draw():
    engine = Engine(TOY, {"x": _Scripted("x"), "o": _Scripted("o")}, Pos(), 3)
    ending = engine.run()
    assert (ending.how, ending.winner, ending.plies) == ("cap", None, 3)
    assert ending_text(TOY, ending, str) == "no majority within 3 plies"


@pytest.mark.parametrize(
    ("ending", "text"),
    [
        (Ending("outcome", 6, "x", "more cells: 4 to 3"), "alice won on ply 6: more cells: 4 to 3"),
        (Ending("outcome", 6, None, "equal cells"), "equal cells"),
        (Ending("goal", 9, "o"), "bob completed a majority on ply 9"),
        (Ending("full", 42), "the board is full"),
        (Ending("start", 0, "x", "no class", "o"), "bob could not start: no class"),
        (Ending("start", 0, None, "a; b"), "neither player could start: a; b"),
    ],
)
def test_every_ending_is_worded_by_one_function(ending: Ending, text: str):
    assert ending_text(TOY, ending, {"x": "alice", "o": "bob"}.__getitem__) == text


# ---- the student's seat: the sync names the side of every ply ---------------------------------


class _Process:
    """A stand-in submission process that plays the lowest cell and logs its syncs."""

    def __init__(self, syncs: list[dict[str, Any]]) -> None:
        self.launch, self.dead, self.syncs = SimpleNamespace(seed=0), None, syncs

    def start(self) -> Reply:
        return Reply(Status.OK, {"ok": True}, 0.01)

    def request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        if message["op"] == "sync":
            self.syncs.append(message)
            self.state = message["state"]
        if message["op"] == "move":
            pos = Pos(tuple(self.state), self.side)
            return Reply(Status.OK, {"ok": True, "move": encode(legal_moves(pos)[0])}, 0.01)
        if message["op"] == "new":
            self.side = message["side"]
        return Reply(Status.OK, {"ok": True, "notes": []}, 0.01)

    def close(self) -> None:
        pass


def test_the_sync_tells_each_ply_with_the_side_that_made_it_twice_in_a_row_too():
    syncs: list[dict[str, Any]] = []
    assignment = Assignment(EXTRA, Variant())
    referee = Referee(lambda seed: _Process(syncs), assignment, Plan(), 0, Budget(2))  # type: ignore[arg-type,return-value]
    seat = StudentSeat(referee, "x", 0, lambda n: f"move {n}")
    other = KitSeat(EXTRA, "o", first_move, random.Random(0))
    engine = Engine(
        EXTRA, {"x": seat, "o": other}, Pos((" ", "x", " ", "o", " ", " ", " "), "o"), 50
    )
    engine.run()
    plies = [[ply.side, ply.move] for ply in engine.plies]
    told = [pair for sync in syncs for pair in sync["plies"]]
    assert told == plies[: len(told)], "each ply once, in order, with its side"
    assert plies[:2] == [["o", 0], ["o", 2]], "white filled an end cell, then moved again"
    assert syncs[0]["plies"] == [["o", 0], ["o", 2]]
    assert engine.ending is not None and seat.calls and all(c.move is not None for c in seat.calls)


def test_a_tournament_game_starts_after_its_opening_told_to_both_players():
    """``play_match``'s opening: the kit plays it first, every player is told it, and the
    replay holds its plies."""
    match = play_match(
        Assignment(TOY, Variant()),
        Plan(ply_cap=50),
        Entrant("lowest", opponent=first_move),
        Entrant("lowest too", opponent=first_move),
        0,
        opening=(5, 3),
    )
    assert [(p.side, p.move) for p in match.moves[:2]] == [("x", 5), ("o", 3)]
    assert match.plies == len(match.moves) and match.winner is not None
