"""The answer keys in answer_key/<variant>/game.py: the starter with every TODO done, in the
starter's own methods, checked against the engine and graded by ``check``."""

from __future__ import annotations

import ast
import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from autograder.games.teeko.probes import random_position
from autograder.games.teeko.rules import (
    BLACK,
    RED,
    Position,
    format_problem,
    has_goal,
    legal_moves,
    opponent,
    play,
    read_student_move,
    to_board,
    winner,
)
from autograder.games.teeko.variants import Variant, find_variant
from tests.conftest import ROOT

KEYS = {name: ROOT / "answer_key" / name / "game.py" for name in ("teeko", "teeko2")}
STARTERS = {name: ROOT / "starter" / name / "game.py" for name in KEYS}
POSITIONS = 150  # seeded positions per variant, both phases


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"_answer_key_{name}", KEYS[name])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", params=sorted(KEYS))
def key(request: pytest.FixtureRequest) -> tuple[Variant, ModuleType]:
    return find_variant(request.param), _load(request.param)


def _positions(variant: Variant, seed: int = 5) -> list[Position]:
    rng = random.Random(f"key-{variant.name}-{seed}")
    found: list[Position] = []
    while len(found) < POSITIONS:
        pos = random_position(variant, rng, rng.randrange(40))
        if pos is not None:
            found.append(pos)
    return found


def _player(variant: Variant, module: ModuleType, piece: str) -> object:
    player = getattr(module, variant.player_class)()
    player.my_piece, player.opp = piece, opponent(piece)
    return player


def _methods(path: Path, cls: str) -> dict[str, list[str]]:
    tree = ast.parse(path.read_text())
    body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    return {f.name: [a.arg for a in f.args.args] for f in body if isinstance(f, ast.FunctionDef)}


def test_every_method_of_the_starter_is_there_with_its_parameters(key):
    """The grader and the course's own tests call the starter's methods: the key keeps each
    name and its parameters (it may add optional ones)."""
    variant, _ = key
    starter = _methods(STARTERS[variant.name], variant.player_class)
    answer = _methods(KEYS[variant.name], variant.player_class)
    for name, params in starter.items():
        assert answer[name][: len(params)] == params, name


def test_no_todo_is_left_and_only_the_standard_library_is_used(key):
    variant, _ = key
    text = KEYS[variant.name].read_text()
    assert "NotImplementedError" not in text and "# TODO" not in text
    tree = ast.parse(text)
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names


def test_succ_gives_exactly_the_engines_successors(key):
    variant, module = key
    for pos in _positions(variant):
        for piece in (BLACK, RED):
            player = _player(variant, module, piece)
            board = to_board(pos)
            if pos.turn != piece:
                continue
            expected = sorted(str(to_board(play(pos, m))) for m in legal_moves(pos))
            assert sorted(str(b) for b in player.succ(board, piece)) == expected
            assert board == to_board(pos), "succ changed the state"


def test_game_value_and_the_heuristic_agree_with_the_engine(key):
    variant, module = key
    for pos in _positions(variant):
        board = to_board(pos)
        player = _player(variant, module, BLACK)
        mover = opponent(pos.turn)  # the side that moved into pos
        won = winner(pos)
        expected = 0 if won is None else (1 if won == BLACK else -1)
        assert player.game_value(board, mover) == expected, board
        if has_goal(pos, BLACK) != has_goal(pos, RED):
            assert player.game_value(board) == expected
        value = player.heuristic_game_value(board, mover)
        assert value == expected if won else -1 < value < 1


def test_make_move_wins_at_once_blocks_and_returns_a_legal_exact_move(key):
    variant, module = key
    for pos in _positions(variant, seed=6):
        if winner(pos) is not None:
            continue
        board = to_board(pos)
        player = _player(variant, module, pos.turn)
        player.board = [row[:] for row in board]
        returned = player.make_move(board)
        assert board == to_board(pos) and player.board == board, "make_move changed the state"
        move = read_student_move(returned, pos)  # raises on an illegal or malformed move
        assert format_problem(returned, pos) is None
        wins = [m for m in legal_moves(pos) if winner(play(pos, m)) == pos.turn]
        if wins:
            assert winner(play(pos, move)) == pos.turn, (board, returned)


def test_the_two_keys_differ_only_in_the_goals_and_the_words():
    def code(path: Path) -> list[str]:
        tree = ast.parse(path.read_text())
        parts = []
        for node in tree.body[1:]:
            if isinstance(node, ast.FunctionDef) and node.name in ("_goals", "main"):
                continue
            for inner in ast.walk(node):
                if isinstance(inner, (ast.FunctionDef, ast.ClassDef)) and ast.get_docstring(inner):
                    inner.body = inner.body[1:]
            parts.append(ast.unparse(node).replace("Teeko2", "Teeko"))
        return parts

    assert code(KEYS["teeko"]) == code(KEYS["teeko2"])


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(KEYS))
def test_the_key_scores_full_marks_with_check(variant, run_cli, tmp_path):
    results = tmp_path / "results.json"
    done = run_cli("check", str(KEYS[variant]), "--assignment", variant, "--json", str(results))
    assert done.returncode == 0, done.stderr
    assert json.loads(results.read_text())["score"] == 100
