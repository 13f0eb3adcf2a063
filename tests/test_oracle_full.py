"""Checks of the full 5x5 tables against KIT_SPEC's figures and the rules engine.

Each variant's checks run only when its table is cached (``autograder oracle build``); the
suite never builds one. The figures live in tests/data/oracle_expectations.toml.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

from autograder.oracle import Oracle, Verdict, cache_path, load
from autograder.oracle.codes import verdict
from autograder.rules import (
    BLACK,
    RED,
    Move,
    Position,
    from_board,
    legal_moves,
    parse_position,
    parse_square,
    play,
    position_text,
    read_student_move,
    start,
    to_board,
    winner,
)
from autograder.variants import VARIANTS, find_variant

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
_LOADED: dict[str, Oracle] = {}


def _oracle(name: str) -> Oracle:
    if name not in _LOADED:
        _LOADED[name] = load(name)
    return _LOADED[name]


def _codes(oracle: Oracle):  # type: ignore[no-untyped-def]
    return np.frombuffer(oracle.table, dtype=np.int8)


def _census(codes) -> dict[str, int]:  # type: ignore[no-untyped-def]
    return {
        "win": int((codes > 0).sum()),
        "draw": int((codes == 0).sum()),
        "loss": int((codes < 0).sum()),
    }


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_figures_match_kit_spec(name: str) -> None:
    oracle = _oracle(name)
    expected = EXPECTED[name]
    layout = oracle.layout
    assert layout.sizes[:-1] == EXPECTED["layout"]["drop_phase_positions"]
    assert layout.sizes[-1] == EXPECTED["layout"]["move_phase_placements"]
    codes = _codes(oracle)
    by_level = {
        k: _census(codes[layout.offsets[k] : layout.offsets[k] + layout.sizes[k]])
        for k in range(layout.levels)
    }
    breakdown = f"win/draw/loss by marker count: {by_level}"
    move = codes[layout.offsets[layout.move_phase] :]
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
    oracle = _oracle(name)
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
    oracle = _oracle(name)
    rng = random.Random(1)
    pos = start(find_variant(name))
    for _ in range(60):
        assert oracle.value(pos) == Verdict("draw", None), repr(pos)
        pos = play(pos, rng.choice(oracle.best_moves(pos)))


@pytest.mark.parametrize("name", VARIANT_PARAMS)
def test_a_longest_win_takes_that_long(name: str) -> None:
    """Follow best moves from a position of the longest forced win until the goal."""
    oracle = _oracle(name)
    layout = oracle.layout
    move = _codes(oracle)[layout.offsets[layout.move_phase] :]
    index = int(np.argmax(move))
    mover, other = layout.position(layout.offsets[layout.move_phase] + index)
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
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(answers) == len(lines)
    oracle = _oracle(name)
    for text, got in zip(lines[: len(positions)], answers, strict=False):
        value = oracle.value(parse_position(text, name))
        assert got == {"value": value.value, "plies": value.plies}
    assert answers[0] == {"value": "draw", "plies": None}
    assert set(answers[-2]) == {"error"} and "not a position" in answers[-2]["error"]
    assert "25 black and 0 red" in answers[-1]["error"]


def _solution(variant: str) -> ModuleType:
    """The reference solution at its default budget: its book exists for what that misses."""
    path = ROOT / "solution" / variant / "game.py"
    spec = importlib.util.spec_from_file_location(f"_booked_{variant}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _book_position(variant: str, key: str) -> Position:
    """The position of an OPENING_BOOK key "my squares|their squares"; fewer of mine: red."""
    mine, theirs = ([parse_square(n) for n in part.split()] for part in key.split("|"))
    me = RED if len(mine) < len(theirs) else BLACK
    cells = ["."] * 25
    for squares, piece in ((mine, me), (theirs, RED if me == BLACK else BLACK)):
        for sq in squares:
            cells[sq] = piece
    return parse_position("".join(cells) + " " + me, variant)


def _solution_move(module: ModuleType, variant: str, pos: Position) -> Move:
    player = getattr(module, find_variant(variant).player_class)()
    player.my_piece = pos.turn
    player.opp = RED if pos.turn == BLACK else BLACK
    player.board = to_board(pos)
    return read_student_move(player.make_move(player.board), pos)


@pytest.mark.parametrize("name", [p for p in VARIANT_PARAMS if p.values[0] in ("teeko", "teeko2")])
def test_every_opening_book_move_keeps_the_draw(name: str) -> None:
    """The books hold moves the search gets wrong, so each entry must be one perfect play
    allows, and the solution must play it."""
    module, oracle = _solution(name), _oracle(name)
    for key, reply in module.OPENING_BOOK.items():
        pos = _book_position(name, key)
        move = _solution_move(module, name, pos)
        assert str(move) == reply, key
        assert oracle.value(play(pos, move)).after_move() == oracle.value(pos), key


@pytest.mark.parametrize("name", [p for p in VARIANT_PARAMS if p.values[0] == "teeko"])
def test_teeko_answers_a_centre_drop_from_its_book(name: str) -> None:
    """At the default budget on a quiet machine the search answered C2 with D3, which loses in
    14 plies to perfect play (bench/solution_strength.py --opponent perfect, game 77); which
    reply it finds depends on the load, so the answer must come from the book, not the clock."""
    module = _solution(name)
    player = getattr(module, find_variant(name).player_class)()
    player.my_piece, player.opp = RED, BLACK
    player.board = to_board(play(start(find_variant(name)), Move(parse_square("C2"))))
    pos = from_board(player.board, find_variant(name), RED)
    move = read_student_move(player.make_move(player.board), pos)
    assert player.last_depth == 0  # no search ran
    assert _oracle(name).value(play(pos, move)).after_move() == Verdict("draw", None), move
