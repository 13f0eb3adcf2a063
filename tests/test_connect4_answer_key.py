"""The Connect Four answer key in answer_key/connect4/game.py: the starter with every TODO done,
in the starter's own methods, checked against the engine (autograder/games/connect4/rules.py).

Its make_move searches with plain minimax: a few seconds of moves per test, on the standard
board and on two others (the key reads the size off the board, like the starter).
"""

from __future__ import annotations

import ast
import builtins
import importlib.util
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from autograder.games.connect4.rules import (
    RED,
    YELLOW,
    Position,
    format_problem,
    legal_moves,
    opponent,
    play,
    random_position,
    read_student_move,
    render,
    result,
    start,
    to_board,
    winner,
    winning_moves,
)
from autograder.games.connect4.variants import Variant, find_variant
from tests.homework import code, in_order

ROOT = Path(__file__).resolve().parent.parent
KEY = ROOT / "answer_key" / "connect4" / "game.py"
STARTER = ROOT / "starter" / "connect4" / "game.py"
VARIANTS = ["connect4", "connect4-8x6", "connect4-5x4"]
TODO_METHODS = {"succ", "heuristic_game_value", "max_value", "min_value", "make_move"}


@pytest.fixture(scope="module")
def module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("_answer_key_connect4", KEY)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.fixture(autouse=True)
def _seeded_random() -> Iterator[None]:
    state = random.getstate()
    random.seed(20240607)
    yield
    random.setstate(state)


def _player(module: ModuleType, piece: str, board: list[list[str]] | None = None) -> Any:
    player = module.Connect4Player()
    player.my_piece, player.opp = piece, opponent(piece)
    if board is not None:
        player.board = board
    return player


def _positions(variant: Variant, seed: str, n: int, plies: range = range(30)) -> list[Position]:
    """``n`` seeded, reachable positions where the game goes on."""
    rng = random.Random(f"key-{variant.name}-{seed}")
    found: list[Position] = []
    while len(found) < n:
        pos = random_position(variant, rng, rng.choice(plies))
        if pos is not None:
            found.append(pos)
    return found


def _every_ply_of_games(variant: Variant, games: int) -> list[Position]:
    """Every position of ``games`` seeded random games, the final ones (won, drawn) included."""
    rng = random.Random(f"games-{variant.name}")
    found = []
    for _ in range(games):
        pos = start(variant)
        found.append(pos)
        while result(pos) is None:
            pos = play(pos, rng.choice(legal_moves(pos)))
            found.append(pos)
    return found


def _opponent_wins(pos: Position) -> list[int]:
    """The columns where the side not to move would complete a line, were it its turn."""
    return winning_moves(pos._replace(turn=opponent(pos.turn)))


# ---- the shape of the key ------------------------------------------------------------------------


def _methods(path: Path) -> dict[str, list[str]]:
    tree = ast.parse(path.read_text())
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Connect4Player")
    return {
        f.name: [a.arg for a in f.args.args] for f in cls.body if isinstance(f, ast.FunctionDef)
    }


def test_every_method_of_the_starter_is_there_with_its_parameters() -> None:
    """The grader and the course's own tests call the starter's methods: the key keeps each
    name and its parameters (it may add optional ones)."""
    answer = _methods(KEY)
    for name, params in _methods(STARTER).items():
        assert answer[name][: len(params)] == params, name


def test_no_todo_is_left_and_only_the_standard_library_is_used() -> None:
    text = KEY.read_text()
    assert "NotImplementedError" not in text and "# TODO" not in text
    tree = ast.parse(text)
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= sys.stdlib_module_names


def test_the_key_differs_from_the_starter_only_where_the_todos_were():
    """Outside the TODO methods the key is the starter: the same course code (opponent_move,
    place_piece, print_board, the helpers, the terminal game), statement for statement. It
    may add constants and helper functions; game_value keeps the starter's rows and columns
    and adds the diagonals (TODO 2)."""
    starter, key = code(STARTER), code(KEY)

    def top(tree: ast.Module) -> list[str]:
        return [ast.unparse(n) for n in tree.body if not isinstance(n, ast.ClassDef)]

    assert in_order(top(starter), top(key)), "a top-level statement of the starter changed"

    def cls(tree: ast.Module) -> ast.ClassDef:
        return next(n for n in tree.body if isinstance(n, ast.ClassDef))

    starter_cls, key_cls = cls(starter), cls(key)
    assert starter_cls.name == key_cls.name == "Connect4Player"
    key_methods = {f.name: f for f in key_cls.body if isinstance(f, ast.FunctionDef)}
    for node in starter_cls.body:
        if not isinstance(node, ast.FunctionDef):
            assert ast.unparse(node) in [ast.unparse(n) for n in key_cls.body], ast.unparse(node)
        elif node.name == "game_value":
            kept = [ast.unparse(s) for s in node.body]
            assert in_order(kept, [ast.unparse(s) for s in key_methods[node.name].body])
        elif node.name not in TODO_METHODS:
            assert ast.unparse(node) == ast.unparse(key_methods[node.name]), node.name


# ---- the rules: succ, game_value, heuristic_game_value -------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_succ_gives_exactly_the_engines_successors(module: ModuleType, name: str) -> None:
    variant = find_variant(name)
    for pos in _positions(variant, "succ", 60, range(3 * variant.columns)):
        for piece in (RED, YELLOW):
            board = to_board(pos)
            boards = _player(module, piece).succ(board, pos.turn)
            expected = [to_board(play(pos, column)) for column in legal_moves(pos)]
            assert boards == expected, render(pos)  # left to right, like legal_moves
            assert board == to_board(pos), "succ changed the state"
            assert all(b is not board and b[0] is not board[0] for b in boards), "shared rows"


@pytest.mark.parametrize("name", VARIANTS)
def test_game_value_and_the_heuristic_agree_with_the_engine(module: ModuleType, name: str) -> None:
    variant = find_variant(name)
    positions = _every_ply_of_games(variant, 30)
    assert {winner(pos) for pos in positions} == {None, RED, YELLOW}
    for pos in positions:
        won = winner(pos)
        for me in (RED, YELLOW):
            board = to_board(pos)
            player = _player(module, me)
            expected = 0 if won is None else (1 if won == me else -1)
            assert player.game_value(board) == expected, (render(pos), me)
            value = player.heuristic_game_value(board)
            if won is None:
                assert -1 < value < 1, (render(pos), value)
            else:
                assert value == expected
            assert board == to_board(pos), "game_value or the heuristic changed the state"


# ---- make_move -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_make_move_is_legal_exact_deterministic_and_does_not_mutate(
    module: ModuleType, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = find_variant(name)
    n = 3 if variant.columns > 7 else 6  # about half a second a move on 8 columns
    for pos in _positions(variant, "legal", n, range(4 * variant.columns)):
        board = to_board(pos)
        player = _player(module, pos.turn, [row[:] for row in board])
        returned = player.make_move(player.board)
        assert format_problem(returned, pos) is None, (render(pos), returned)
        read_student_move(returned, pos)  # raises on an illegal move
        assert player.board == board, "make_move changed the state"
        assert _player(module, pos.turn).make_move(board) == returned, "not deterministic"
        assert board == to_board(pos)
    assert capsys.readouterr().out == "", "make_move must not print"


@pytest.mark.parametrize("name", VARIANTS)
def test_make_move_takes_a_win_at_once(module: ModuleType, name: str) -> None:
    variant = find_variant(name)
    found = [
        pos
        for pos in _positions(variant, "win", 200, range(6, 4 * variant.columns))
        if winning_moves(pos)
    ][:6]
    assert len(found) == 6
    for pos in found:
        column = _player(module, pos.turn).make_move(to_board(pos))
        assert column in winning_moves(pos), (render(pos), column)


@pytest.mark.parametrize("name", VARIANTS)
def test_make_move_blocks_the_opponents_win(module: ModuleType, name: str) -> None:
    """The opponent threatens one column, and blocking it hands them no win on top of it."""
    variant = find_variant(name)
    found = []
    for pos in _positions(variant, "block", 400, range(6, 4 * variant.columns)):
        threats = _opponent_wins(pos)
        blockable = len(threats) == 1 and not winning_moves(play(pos, threats[0]))
        if blockable and not winning_moves(pos):
            found.append(pos)
    assert len(found) >= 6
    for pos in found[:6]:
        column = _player(module, pos.turn).make_move(to_board(pos))
        assert column == _opponent_wins(pos)[0], (render(pos), column)


def _match(module: ModuleType, variant: Variant, games: int, seed: str) -> dict[str, int]:
    """The key against a random player, half the games as red, refereed by the engine."""
    rng = random.Random(seed)
    tally = {"won": 0, "drawn": 0, "lost": 0}
    for game in range(games):
        ai_piece = RED if game % 2 == 0 else YELLOW
        pos = start(variant)
        ai = _player(module, ai_piece, to_board(pos))
        while result(pos) is None:
            if pos.turn == ai_piece:
                column = read_student_move(ai.make_move(ai.board), pos)
                ai.place_piece(column, ai_piece)
            else:
                column = rng.choice(legal_moves(pos))
                ai.opponent_move(column)
            pos = play(pos, column)
            assert ai.board == to_board(pos)
        outcome = result(pos)
        if outcome == ai_piece:
            tally["won"] += 1
        else:
            tally["lost" if outcome == opponent(ai_piece) else "drawn"] += 1
    return tally


@pytest.mark.slow
def test_the_key_beats_a_random_player(module: ModuleType) -> None:
    """Nearly always: it won 100 games of 100 when the key was written (50 as red, 50 as
    yellow); 6 games here, to keep the test short."""
    tally = _match(module, find_variant("connect4"), 6, "random opponent")
    assert tally["won"] == 6, tally


def test_main_plays_a_whole_game(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The key's terminal game against a human who always drops into the leftmost column
    that is not full: the AI wins it and says so."""
    players: list[Any] = []
    original = module.Connect4Player.__init__

    def init(self: Any) -> None:
        original(self)
        self.my_piece, self.opp = YELLOW, RED
        players.append(self)

    def human(prompt: str = "") -> str:
        board = players[0].board
        return str(next(c for c in range(len(board[0])) if board[0][c] == " "))

    monkeypatch.setattr(module.Connect4Player, "__init__", init)
    monkeypatch.setattr(builtins, "input", human)
    module.main()
    out = capsys.readouterr().out
    assert out.endswith("The AI (yellow) wins. Better luck next time!\n"), out
