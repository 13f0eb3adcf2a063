"""Checks of the full 5x5 tables against KIT_SPEC's figures and the rules engine.

Each variant's checks run only when its table is cached (``autograder oracle build``); the
suite never builds one. The figures live in tests/data/oracle_expectations.toml.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from autograder.games.teeko.rules import (
    BLACK,
    RED,
    Position,
    legal_moves,
    parse_position,
    play,
    position_text,
    start,
    winner,
)
from autograder.games.teeko.solved import Oracle, cache_path
from autograder.games.teeko.solved.codes import verdict
from autograder.games.teeko.variants import VARIANTS, find_variant
from autograder.oracle import Verdict
from tests.conftest import cached_oracle

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parent.parent
EXPECTED = tomllib.loads((ROOT / "tests" / "data" / "oracle_expectations.toml").read_text())


def _variant_param(name: str):  # type: ignore[no-untyped-def]
    built = cache_path(name).exists()
    reason = (
        f"no cached table at {cache_path(name)}: run `autograder oracle build --variant {name}`"
    )
    return pytest.param(name, id=name, marks=pytest.mark.skipif(not built, reason=reason))


VARIANT_PARAMS = [_variant_param(name) for name in VARIANTS]


def _level(oracle: Oracle, k: int):  # type: ignore[no-untyped-def]
    """Level ``k`` of the folded table: one row per canonical placement of the other side."""
    folding = oracle.folding
    codes = np.frombuffer(oracle.table, dtype=np.int8)
    level = codes[folding.offsets[k] : folding.offsets[k] + folding.sizes[k]]
    return level.reshape(-1, oracle.layout.stride[k])


def _census(oracle: Oracle, k: int) -> dict[str, int]:
    """Win, draw and loss counts of level ``k`` of the full table: each stored row stands for
    every placement in its orbit (the build's own census counted the full table)."""
    rows = _level(oracle, k)
    weights = np.array(oracle.folding.orbit[oracle.layout.sides[k][1]], dtype=np.int64)
    return {
        "win": int(((rows > 0).sum(axis=1) * weights).sum()),
        "draw": int(((rows == 0).sum(axis=1) * weights).sum()),
        "loss": int(((rows < 0).sum(axis=1) * weights).sum()),
    }


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_figures_match_kit_spec(name: str) -> None:
    oracle = cached_oracle(name)
    expected = EXPECTED[name]
    layout = oracle.layout
    assert layout.sizes[:-1] == EXPECTED["layout"]["drop_phase_positions"]
    assert layout.sizes[-1] == EXPECTED["layout"]["move_phase_placements"]
    by_level = {k: _census(oracle, k) for k in range(layout.levels)}
    breakdown = f"win/draw/loss by marker count: {by_level}"
    assert {str(k): by_level[k] for k in range(layout.move_phase)} == oracle.stats["drop_phase"]
    assert sum(sum(c.values()) for c in by_level.values()) == layout.total
    move = _level(oracle, layout.move_phase)
    start_value = oracle.value(start(find_variant(name))).value
    longest = int(move.max()) - 1
    assert start_value == expected.get("start", expected.get("measured_start")), breakdown
    assert longest == expected.get(
        "longest_move_phase_win", expected.get("measured_longest_move_phase_win")
    ), breakdown
    assert oracle.stats["goal_placements"] == expected["goal_placements"], breakdown
    assert oracle.stats["longest_move_phase_win"] == longest
    assert oracle.stats["move_phase"] == by_level[layout.move_phase]


def _sample(name: str, count: int, seed: int) -> list[Position]:
    """Positions from random games (both phases) and random move-phase placements."""
    variant = find_variant(name)
    rng = random.Random(seed)
    found = []
    while len(found) < count // 2:
        pos = start(variant)
        for _ in range(rng.randrange(1, 60)):
            if winner(pos):
                break
            pos = play(pos, rng.choice(list(legal_moves(pos))))
        found.append(pos)
    while len(found) < count:
        squares = rng.sample(range(25), 8)
        black = sum(1 << sq for sq in squares[:4])
        red = sum(1 << sq for sq in squares[4:])
        found.append(Position(black, red, rng.choice((BLACK, RED)), variant))
    return found


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_values_agree_with_the_engine_one_move_ahead(name: str) -> None:
    """Each value is the game's end by the engine's ``winner`` or the best of its children."""
    oracle = cached_oracle(name)
    for pos in _sample(name, 400, seed=6):
        value = oracle.value(pos)
        side = winner(pos)
        if side is not None:
            assert value == Verdict("win" if side == pos.turn else "loss", 0), repr(pos)
            continue
        children = [oracle.value(play(pos, move)).after_move() for move in legal_moves(pos)]
        assert children, f"a side to move with no legal move: {pos!r}"
        assert value == max(children, key=_preference), repr(pos)
        assert [v for _, v in oracle.move_values(pos)] == children


def _preference(v: Verdict) -> int:
    if v.plies is None:
        return 0
    return 256 - v.plies if v.value == "win" else v.plies - 256


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_perfect_play_from_the_start_stays_a_draw(name: str) -> None:
    oracle = cached_oracle(name)
    rng = random.Random(1)
    pos = start(find_variant(name))
    for _ in range(60):
        assert oracle.value(pos) == Verdict("draw", None), repr(pos)
        pos = play(pos, rng.choice(oracle.best_moves(pos)))


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_a_longest_win_takes_that_long(name: str) -> None:
    """Follow best moves from a position of the longest forced win until the goal."""
    oracle = cached_oracle(name)
    folding = oracle.folding
    move = _level(oracle, oracle.layout.move_phase).ravel()
    index = int(np.argmax(move))
    mover, other = folding.position(folding.offsets[oracle.layout.move_phase] + index)
    pos = Position(mover, other, BLACK, find_variant(name))
    plies = verdict(int(move[index])).plies
    assert plies is not None
    for played in range(plies + 1):
        assert oracle.value(pos).plies == plies - played
        if winner(pos):
            break
        pos = play(pos, oracle.best_moves(pos)[0])
    assert winner(pos) == BLACK and played == plies


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_query_command(name: str) -> None:
    positions = [start(find_variant(name)), *_sample(name, 6, seed=2)]
    lines = [position_text(p) for p in positions] + ["nonsense", "b" * 25 + " b"]
    done = subprocess.run(
        [sys.executable, "-m", "autograder.oracle", "query", "--variant", name],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 2, "two lines were not positions"
    assert done.stderr.startswith(
        f"autograder: 2 input lines were not answered (the first, line {len(positions) + 1}: "
        "'nonsense' is not a position"
    ), done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    oracle = cached_oracle(name)
    for text, got in zip(lines[: len(positions)], answers, strict=False):
        value = oracle.value(parse_position(text, name))
        assert got == {"value": value.value, "plies": value.plies}
    assert answers[0] == {"value": "draw", "plies": None}
    assert set(answers[-2]) == {"error"} and "not a position" in answers[-2]["error"]
    assert "25 black and 0 red" in answers[-1]["error"]
