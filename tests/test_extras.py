"""Beyond the rubric: ladder opponents, move quality and puzzles (no points, never a crash)."""

from __future__ import annotations

import json
import random
import shlex

import pytest

from autograder.games import find_assignment
from autograder.games.teeko.opponents import OPPONENTS, greedy_opponent
from autograder.games.teeko.rules import (
    Move,
    legal_moves,
    outcome,
    parse_position,
    phase,
    play,
    square,
    winner,
)
from autograder.games.teeko.solved import cache_path
from autograder.games.teeko.solved.codes import DRAW, LOSS, WIN, Verdict
from autograder.grading.extras import Judged, _kind, _solved, find_puzzles, judge_moves
from autograder.grading.report import REPRODUCE
from autograder.play.host import Status
from autograder.play.records import Call
from tests.conftest import fast_solution

# Black to move holds (0,0), (0,1), (0,2): (0,3) wins at once. Red holds three of row 4.
BLACK_WINS_NOW = parse_position("bbb..................rrr. b", "teeko2")


class ShortSightedOracle:
    """A stand-in for the oracle, exact for results within 3 plies and 'draw' beyond: enough to
    check the puzzle and move-quality logic without building the full tables."""

    def value(self, pos) -> Verdict:  # type: ignore[no-untyped-def]
        side = winner(pos)
        if side is not None:
            return Verdict(WIN if side == pos.turn else LOSS, 0)
        for plies in (1, 3):
            if self._forces(pos, plies):
                return Verdict(WIN, plies)
        if all(self._forces(play(pos, m), 1) for m in legal_moves(pos)):
            return Verdict(LOSS, 2)
        return Verdict(DRAW, None)

    def _forces(self, pos, plies: int) -> bool:  # type: ignore[no-untyped-def]
        for move in legal_moves(pos):
            after = play(pos, move)
            if winner(after) == pos.turn:
                return True
            if plies == 3 and outcome(after) is None:
                replies = list(legal_moves(after))
                if replies and all(
                    winner(play(after, r)) is None and self._forces(play(after, r), 1)
                    for r in replies
                ):
                    return True
        return False

    def move_values(self, pos):  # type: ignore[no-untyped-def]
        return [(m, self.value(play(pos, m)).after_move()) for m in legal_moves(pos)]


def _call(pos, move: Move | None) -> Call:  # type: ignore[no-untyped-def]
    returned = repr(move.student()) if move else ""
    return Call("probe 1", pos, phase(pos), Status.OK, 0.01, returned=returned, move=move)


def test_the_greedy_opponent_takes_a_win_and_blocks_one():
    rng = random.Random(0)
    assert greedy_opponent(BLACK_WINS_NOW, rng) == Move(square(0, 3))
    red_to_block = parse_position("bbb...............r..r... r", "teeko2")
    assert greedy_opponent(red_to_block, rng) == Move(square(0, 3))


def test_the_minimax_opponent_takes_a_win():
    assert OPPONENTS["minimax2"][1](BLACK_WINS_NOW, random.Random(0)) == Move(square(0, 3))


def test_puzzle_kinds_and_solutions():
    oracle = ShortSightedOracle()
    assert _kind(oracle, BLACK_WINS_NOW) == "win in 1"
    teeko2 = find_assignment("teeko2")
    winning = judge_moves(oracle, teeko2, [_call(BLACK_WINS_NOW, Move(square(0, 3)))])[0]
    missing = judge_moves(oracle, teeko2, [_call(BLACK_WINS_NOW, Move(square(2, 2)))])[0]
    assert _solved("win in 1", winning)
    assert not _solved("win in 1", missing)
    assert winning.loss_of_value == 0


def test_move_quality_names_a_thrown_away_win():
    judged = Judged(_call(BLACK_WINS_NOW, Move(square(2, 2))), (WIN, 1), (DRAW, None))
    assert judged.loss_of_value == 1
    assert Judged(judged.call, (WIN, 1), (LOSS, 2)).loss_of_value == 2


def test_found_puzzles_are_of_the_kinds_asked():
    oracle = ShortSightedOracle()
    positions = find_puzzles(oracle, find_assignment("teeko2"), seed=1, each=1)
    kinds = {_kind(oracle, pos) for pos in positions}
    assert kinds <= {"win in 1", "block", "win in 3"}
    assert "win in 1" in kinds


@pytest.mark.slow
@pytest.mark.long(14)
def test_the_ladder_runs_without_the_oracle_and_says_how_to_get_it(
    make_submission, run_cli, tmp_path
):
    path = make_submission(fast_solution("teeko2"))
    out = tmp_path / "results.json"
    done = run_cli(
        "check",
        str(path),
        "--ladder",
        "--move-quality",
        "--json",
        str(out),
        env={"TEEKO_ORACLE_CACHE": str(tmp_path / "no-tables")},
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "perfect-play features skipped" in text
    assert "autograder oracle build --variant teeko2" in text
    assert "random: 2 won, 0 drawn, 0 lost" in text
    results = json.loads(out.read_text())
    assert results["score"] == 100, "extras never change the score"
    tags = [t["tags"][0] for t in results["tests"]]
    assert "ladder" in tags and "notes" in tags
    assert "perfect:" not in text
    again = next(line for line in results["output"].splitlines() if line.startswith(REPRODUCE))
    words = shlex.split(again.removeprefix(REPRODUCE), comments=True)
    assert words[:2] == ["autograder", "check"] and {"--ladder", "--move-quality"} <= set(words)


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.skipif(
    not cache_path("teeko2").exists(),
    reason="no teeko2 oracle table: run `autograder oracle build --variant teeko2`",
)
@pytest.mark.long(25)
def test_every_extra_with_the_real_oracle(make_submission, run_cli, tmp_path):
    """The README's test command builds the tables first, so this runs in CI."""
    source = fast_solution("teeko2") + ("\n\nTeeko2Player.run_challenge_test = lambda self: True\n")
    out = tmp_path / "results.json"
    done = run_cli(
        "check",
        str(make_submission(source)),
        "--ladder",
        "--move-quality",
        "--puzzles",
        "2",
        "--challenge",
        "--json",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "perfect: " in text, "the ladder's top rung needs the oracle and it is there"
    assert "kept the position's true value in" in text
    assert "win in 1: " in text and "block: " in text and "win in 3: " in text
    assert "against the perfect player: game 1 " in text
    results = json.loads(out.read_text())
    assert results["score"] == 100
    assert {t["tags"][0] for t in results["tests"]} >= {
        "ladder",
        "move-quality",
        "puzzles",
        "challenge",
    }
    perfect = [line for line in done.stdout.splitlines() if "perfect: " in line]
    assert perfect and "0 won" in perfect[0], "nobody beats perfect play"
