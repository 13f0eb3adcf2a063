"""The oracle's Python API on a small solved game: values, move values and best moves."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest

from autograder.games.teeko.rules import Move, start
from autograder.games.teeko.solved import Oracle, build, load, preference
from autograder.games.teeko.solved.codes import parent_code, verdict
from autograder.games.teeko.solved.game import Game, slide_goals
from autograder.games.teeko.solved.layout import Layout
from autograder.games.teeko.variants import find_variant
from autograder.oracle import OracleError, Verdict

pytest.importorskip("numpy")

LINES = [
    (((0, 0), (0, 1), (0, 2)), None),
    (((0, 0), (1, 0), (2, 0)), None),
    (((0, 0), (1, 1), (2, 2)), None),
    (((0, 2), (1, 1), (2, 0)), None),
]
TEE = [(((0, 1), (1, 0), (1, 2)), (1, 1))]
TINY = Game("tiny", 3, 3, slide_goals(3, LINES + TEE))


class Pos(NamedTuple):
    black: int
    red: int
    turn: str


@pytest.fixture(scope="module")
def oracle(tmp_path_factory: pytest.TempPathFactory) -> Oracle:
    path = tmp_path_factory.mktemp("oracle") / "tiny.oracle"
    for _ in build(TINY, path):
        pass
    return load(TINY, path)


def _positions(layout: Layout) -> list[Pos]:
    """Every position of the game, once with each colour to move where the counts allow."""
    found = []
    for index in range(layout.total):
        mover, other = layout.position(index)
        if mover.bit_count() == other.bit_count():
            found.append(Pos(mover, other, "b"))
        if mover.bit_count() in (other.bit_count(), other.bit_count() - 1):
            found.append(Pos(other, mover, "r"))
    return found


def test_colours_share_entries(oracle: Oracle) -> None:
    layout = oracle.layout
    for index in range(0, layout.total, 97):
        mover, other = layout.position(index)
        if mover.bit_count() == other.bit_count():
            assert oracle.value(Pos(mover, other, "b")) == oracle.value(Pos(other, mover, "r"))


def test_every_value_is_the_best_of_its_moves(oracle: Oracle) -> None:
    for pos in _positions(oracle.layout):
        own, theirs = (pos.black, pos.red) if pos.turn == "b" else (pos.red, pos.black)
        value = oracle.value(pos)
        rated = oracle.move_values(pos)
        if TINY.has_goal(own, own | theirs) or TINY.has_goal(theirs, own | theirs):
            assert rated == [] and value.plies == 0
            continue
        assert rated, "3 + 3 markers on 3x3 with these goals never block a side"
        best = max(rated, key=lambda mv: preference(_code(mv[1])))[1]
        assert value == best, pos
        assert all(v == best for _, v in rated if _ in oracle.best_moves(pos))


def _code(v: Verdict) -> int:
    if v.plies is None:
        return 0
    return v.plies + 1 if v.value == "win" else -(v.plies + 1)


def test_moves_come_in_engine_order(oracle: Oracle) -> None:
    start = Pos(0, 0, "b")
    assert [m for m, _ in oracle.move_values(start)] == [Move(sq) for sq in range(9)]
    full = Pos(1 << 1 | 1 << 4 | 1 << 8, 1 << 2 | 1 << 5 | 1 << 6, "b")
    moves = [m for m, _ in oracle.move_values(full)]
    assert moves == sorted(moves, key=lambda m: (m.source, m.to))
    assert all(m.source is not None for m in moves)


def test_verdicts_read_the_codes() -> None:
    assert verdict(0) == Verdict("draw", None)
    assert verdict(1) == Verdict("win", 0) and verdict(-1) == Verdict("loss", 0)
    assert verdict(40) == Verdict("win", 39)
    assert verdict(parent_code(-1)) == Verdict("win", 1)
    assert verdict(parent_code(5)) == Verdict("loss", 5)
    assert Verdict("win", 3).after_move() == Verdict("loss", 4)
    with pytest.raises(ValueError, match="did not finish"):
        verdict(-128)


def test_preference_orders_outcomes() -> None:
    codes = [-1, -2, -40, 0, 40, 2, 1]  # quick loss ... quick win
    assert sorted(codes, key=preference) == codes


def test_impossible_counts_are_refused(oracle: Oracle) -> None:
    with pytest.raises(OracleError, match="no position with 2 black and 0 red markers"):
        oracle.value(Pos(0b11, 0, "r"))
    with pytest.raises(OracleError, match="1 black and 3 red markers and 'b' to move"):
        oracle.value(Pos(0b1, 0b1110, "b"))
    # Colours do not matter to the rules: red to move on an empty board is the start, mirrored.
    assert oracle.value(Pos(0, 0, "r")) == oracle.value(Pos(0, 0, "b"))


def test_load_takes_an_explicit_path(oracle: Oracle, tmp_path: Path) -> None:
    with pytest.raises(OracleError, match="no oracle table"):
        load(TINY, tmp_path / "elsewhere.oracle")


def test_a_position_of_another_variant_is_refused(oracle: Oracle) -> None:
    pos = start(find_variant("teeko"))
    with pytest.raises(
        OracleError, match="a position of 'teeko' was given to the oracle of 'tiny'"
    ):
        oracle.value(pos)
    with pytest.raises(OracleError, match="oracle of 'tiny'"):
        oracle.move_values(pos)
