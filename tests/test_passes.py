"""Games where a side must pass (the toy pack in ``tests/toy``): the referee plays the forced
pass itself and records it as a ply, the sync tells a player every ply since its last move,
``autograder play`` passes for the AI and for the person, tactics follow the real next mover,
and the pack's outcome says why a game ended. No process is started: stand-in players answer
in this process, so every test here takes a fraction of a second."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from autograder.games import tactics
from autograder.games.pack import Assignment, must_pass
from autograder.grading.html import replay_frames
from autograder.grading.report import games_data
from autograder.live.table import Table
from autograder.play.budget import Budget
from autograder.play.host import Reply, Status
from autograder.play.match import Entrant, play_match
from autograder.play.protocol import encode
from autograder.play.records import Game, Plan, Session
from autograder.play.referee import Referee
from tests.toy import PASS, TOY, Pos, Variant, first_move, last_move, legal_moves, play

pytestmark = pytest.mark.timeout(30)

FLANK = Assignment(TOY, Variant())
PLAN = Plan(games=2, ply_cap=50)
PASSED = "white passes (no legal move)"
# black 3, white 1, black 0; white must pass; black 5, white 6: black has 4 cells to 3
FIRST_MOVES = [3, 1, 0, PASS, 5, 6]


class _Tracker:
    """A stand-in submission process: a player that keeps its own board from the sync's
    ``plies`` (every ply since it was last told, each with its side), as a student's does; it
    plays the lowest cell it may fill, and returns None (an illegal move) if it is ever asked
    where it must pass."""

    def __init__(self, seed: int, syncs: list[dict[str, Any]]) -> None:
        self.launch = SimpleNamespace(seed=seed)
        self.dead: Reply | None = None
        self.syncs = syncs
        self.side, self.cells = "x", [" "] * 7
        self.asked = 0

    def start(self) -> Reply:
        return Reply(Status.OK, {"ok": True}, 0.01)

    def _fill(self, move: Any, side: str) -> None:
        if move != PASS:
            self.cells[move] = side

    def request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        notes: list[str] = []
        if message["op"] == "new":
            self.side, self.cells = message["side"], list(message["state"] or message["start"])
        elif message["op"] == "sync":
            self.syncs.append(message)
            for side, move in message["plies"]:
                self._fill(move, side)
            if self.cells != message["state"]:
                notes, self.cells = ["drift"], list(message["state"])
        elif message["op"] == "move":
            self.asked += 1
            moves = legal_moves(Pos(tuple(self.cells), self.side))
            return Reply(
                Status.OK, {"ok": True, "move": encode(None if moves == [PASS] else moves[0])}
            )
        return Reply(Status.OK, {"ok": True, "notes": notes}, 0.01)

    def close(self) -> None:
        pass


def _referee(syncs: list[dict[str, Any]] | None = None) -> Referee:
    kept = [] if syncs is None else syncs
    return Referee(lambda seed: _Tracker(seed, kept), FLANK, PLAN, 0, Budget(2))  # type: ignore[arg-type,return-value]


def _random_games() -> list[Game]:
    """Sixteen games against a seeded random player, the submission on each side in turn."""
    referee = _referee()
    return [
        referee.game(number, ("the random player", lambda pos, rng: rng.choice(legal_moves(pos))))
        for number in range(1, 17)
    ]


def _passed(game: Game) -> set[str]:
    """The moves of the submission that follow a forced pass since it was last told."""
    expected, passed = set(), False
    for number, ply in enumerate(game.moves, 1):
        if ply.text.endswith(" passes (no legal move)"):
            passed = True
        elif ply.side == game.ai_side:
            if passed:
                expected.add(f"before ply {number}: drift")
            passed = False
    return expected


def test_the_referee_plays_a_forced_pass_itself_and_records_it_as_a_ply():
    syncs: list[dict[str, Any]] = []
    game = _referee(syncs).game(2, ("the lowest-cell player", first_move))
    assert [p.move for p in game.moves] == FIRST_MOVES
    assert game.moves[3].text == PASSED and game.moves[3].seconds is None
    assert len(game.calls) == 2, "white was asked for its two moves, never for its pass"
    assert syncs[-1]["plies"] == [["o", 1], ["x", 0], ["o", PASS], ["x", 5]], (
        "every ply since it was last told, its own move 1 first, each with its side"
    )


def test_a_board_tracker_told_each_ply_with_its_side_never_drifts():
    games = _random_games()
    assert any(_passed(g) for g in games), "some game passes, then moves"
    assert [g.notes for g in games] == [()] * len(games)


def test_the_packs_outcome_says_why_the_game_ended_and_the_kit_words_it_without_one():
    won = _referee().game(1, ("the lowest-cell player", first_move))
    lost = _referee().game(2, ("the lowest-cell player", first_move))
    assert (won.result, won.reason) == ("win", "you won on ply 6: more cells: 4 to 3")
    assert lost.reason == "the lowest-cell player won on ply 6: more cells: 4 to 3"
    plain = dataclasses.replace(TOY, outcome=None)
    referee = Referee(
        lambda seed: _Tracker(seed, []),  # type: ignore[arg-type,return-value]
        Assignment(plain, Variant()),
        PLAN,
        0,
        Budget(2),
    )
    game = referee.game(1, ("the lowest-cell player", first_move))
    assert game.reason == "you completed a majority on ply 6"


def test_forced_passes_are_plies_in_the_json_and_html_reports():
    game = _referee().game(2, ("the lowest-cell player", first_move))
    session = Session("flank.py", FLANK, 0, PLAN, games=(game,))
    grade = SimpleNamespace(session=session)
    (data,) = games_data(grade)  # type: ignore[arg-type]
    assert data["moves"][3] == {
        "side": "white",
        "move": PASSED,
        "seconds": None,
        "refused": None,
        "printed": "",
    }
    frames, moves = replay_frames(FLANK, game.moves, lambda ply: "who", "loss: why")
    assert moves[3]["text"] == f"ply 4, who (white): {PASSED}"
    assert frames[4]["rows"] == frames[3]["rows"] == ["xoxxo  "], "a pass changes no cell"
    assert frames[-1]["rows"] == ["xoxxoxo"]


def test_a_tournament_game_between_kit_players_passes_for_them():
    match = play_match(
        FLANK,
        PLAN,
        Entrant("lowest", opponent=first_move),
        Entrant("highest", opponent=last_move),
        0,
    )
    passes = [p for p in match.moves if p.text.endswith("passes (no legal move)")]
    assert passes and match.plies == len(match.moves)
    assert match.reason.startswith(f"{match.winner} won on ply {match.plies}: more cells")


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Table:
    """A live table whose AI is a stand-in tracker (it returns None where it must pass)."""
    monkeypatch.setattr(Table, "_referee", lambda self, source_dir: _referee())
    rubric = SimpleNamespace(plan=PLAN, ply_cap=PLAN.ply_cap)
    return Table(FLANK, rubric, tmp_path, tmp_path)  # type: ignore[arg-type]


def test_play_passes_for_the_ai_instead_of_asking_it(table: Table):
    table.new("play", "o", "random")  # the person plays black
    for cell in (3, 0, 5):
        table.click(0, cell)
    state = table.state()
    assert state["over"] == "you (black) won", state["message"]
    assert state["message"] == "game over: you (black) won on ply 6: more cells: 4 to 3"
    assert state["moves"][3] == f"4. white: {PASSED}"


def test_play_passes_for_the_person_and_goes_on(table: Table):
    table.new("play", "x", "random")  # the AI plays black first: 3
    table.click(0, 1)  # black 0, then white must pass, then black 5
    state = table.state()
    assert state["moves"][3] == f"4. white: {PASSED}"
    assert state["moves"][4].startswith("5. black: 5 (")
    assert state["message"] == "your move (white)" and not state["over"]
    table.click(0, 6)
    assert table.state()["over"] == "the AI (black) won"


def test_watching_steps_through_a_forced_pass(table: Table):
    table.new("watch", "x", "random")
    for _ in range(20):
        if table.state()["over"]:
            break
        table.step()
    assert PASSED in " ".join(table.state()["moves"]) and table.state()["over"]


# ---- tactics follow the real next mover -------------------------------------------------------


def _skipping_play(pos: Pos, move: Any) -> Pos:
    """The toy's rules, with a forced pass played inside ``play``: the same side moves again."""
    after = play(pos, move)
    return play(after, PASS) if must_pass(TOY, after) else after


def test_a_side_that_must_pass_has_no_tactic():
    pos = Pos(("x", "o", "x", "x", "o", " ", " "), "o")
    assert must_pass(TOY, pos) and tactics.classify(TOY, pos) is None
    rng = random.Random(0)
    for _ in range(300):
        found = TOY.random_position(Variant(), rng, rng.randint(1, 5))
        if found is not None and must_pass(TOY, found):
            assert tactics.classify(TOY, found) is None


def test_a_win_in_moves_of_one_side_in_a_row_is_a_win_in_one_and_a_reply_lets_win():
    """White 2 leaves black no cell, so white moves again (the pass played inside ``play``)
    and fills the last cell: 4 to 3, a win within white's turn. White 0 lets black fill cell
    2 and win at once."""
    skipping = dataclasses.replace(TOY, rules=dataclasses.replace(TOY.rules, play=_skipping_play))
    pos = Pos((" ", "x", " ", "o", "x", "x", "o"), "o")
    assert tactics.classify(skipping, pos) == "win in 1"
    assert tactics.judge(skipping, tactics.Probe("win in 1", pos), 2).status == tactics.SOLVED
    missed = tactics.judge(skipping, tactics.Probe("win in 1", pos), 0)
    assert missed.status == tactics.MISSED and "lets the opponent win" in missed.text
