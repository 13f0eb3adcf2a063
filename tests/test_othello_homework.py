"""The Othello homework's three files, in process: the starter (what students get), the answer
key (its TODOs done, plain minimax) and the reference solution (bitboards, alpha-beta), each
checked against the engine (autograder/games/othello/rules.py)."""

from __future__ import annotations

import ast
import importlib.util
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from autograder.games.othello.rules import (
    BLACK,
    PASS,
    WHITE,
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
)
from autograder.games.othello.variants import find_variant
from autograder.games.pack import DRAW
from tests.homework import code, in_order

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "starter" / "othello" / "game.py"
KEY = ROOT / "answer_key" / "othello" / "game.py"
SOLUTION = ROOT / "solution" / "othello" / "game.py"
TODO_METHODS = {"succ", "game_value", "heuristic_game_value", "max_value", "min_value", "make_move"}


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


@pytest.fixture(scope="module")
def starter() -> ModuleType:
    return _load(STARTER, "_othello_starter")


@pytest.fixture(scope="module")
def key() -> ModuleType:
    return _load(KEY, "_othello_key")


@pytest.fixture(scope="module")
def solution() -> ModuleType:
    return _load(SOLUTION, "_othello_solution")


@pytest.fixture(autouse=True)
def _seeded_random() -> Iterator[None]:
    state = random.getstate()
    random.seed(20261128)
    yield
    random.setstate(state)


def _player(module: ModuleType, piece: str, board: list[list[str]] | None = None) -> Any:
    player = module.OthelloPlayer()
    player.my_piece, player.opp = piece, opponent(piece)
    if board is not None:
        player.board = board
    return player


def _games(name: str, games: int) -> list[Position]:
    """Every position of ``games`` seeded random games, passes and final positions included."""
    rng = random.Random(f"games-{name}")
    found = []
    for _ in range(games):
        pos = start(find_variant(name))
        found.append(pos)
        while moves := legal_moves(pos):
            pos = play(pos, rng.choice(moves))
            found.append(pos)
    return found


def _playable(name: str, n: int, seed: str) -> list[Position]:
    """``n`` seeded positions where the side to move has a square."""
    rng = random.Random(f"{seed}-{name}")
    variant = find_variant(name)
    found: list[Position] = []
    while len(found) < n:
        pos = random_position(variant, rng, rng.randrange(variant.size * variant.size - 4))
        if pos is not None and legal_moves(pos) != [PASS]:
            found.append(pos)
    return found


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    return names | {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}


@pytest.mark.parametrize("path", [STARTER, KEY, SOLUTION], ids=["starter", "key", "solution"])
def test_standard_library_only_and_silent_on_import(path: Path) -> None:
    assert _imports(path) - {"__future__"} <= sys.stdlib_module_names
    done = subprocess.run(
        [sys.executable, "-c", f"import runpy; runpy.run_path({str(path)!r})"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout == "", done.stderr


# ---- the starter -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["othello", "othello-8x8", "othello-4x4"])
def test_the_starters_rules_agree_with_the_engine(starter: ModuleType, name: str) -> None:
    """legal_moves, play_move (through opponent_move) and print_board are the course's code
    the students build on: they must be right on every board size."""
    for pos in _games(name, 3):
        board = to_board(pos)
        moves = legal_moves(pos)
        assert starter.legal_moves(board, pos.turn) == [m for m in moves if m != PASS]
        for move in moves[:3]:
            if move == PASS:
                continue
            player = _player(starter, opponent(pos.turn), [row[:] for row in board])
            player.opponent_move(move)
            assert player.board == to_board(play(pos, move))


def test_the_starter_prints_the_engines_board(
    starter: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = _games("othello", 1)[9]
    _player(starter, BLACK, to_board(pos)).print_board()
    assert capsys.readouterr().out == render(pos) + "\n"


def test_the_starter_refuses_an_illegal_opponent_move_with_a_reason(starter: ModuleType) -> None:
    player = _player(starter, WHITE)
    for move, reason in [
        ((0, 0), "outflanks nothing"),
        ((2, 2), "already holds"),
        ([2, 4], "not a square"),
    ]:
        with pytest.raises(ValueError, match=reason):
            player.opponent_move(move)
    assert player.board == to_board(start(find_variant("othello")))


def test_the_starter_plays_at_random_and_leaves_the_search_to_the_todos(
    starter: ModuleType,
) -> None:
    player = _player(starter, BLACK)
    pos = start(find_variant("othello"))
    moves = {player.make_move(to_board(pos)) for _ in range(60)}
    assert all(format_problem(m, pos) is None for m in moves)
    assert any(m not in legal_moves(pos) for m in moves), "the starter should break the rules"
    for method in ("succ", "heuristic_game_value"):
        with pytest.raises(NotImplementedError, match="TODO"):
            getattr(player, method)(to_board(pos), *(["b"] if method == "succ" else []))
    assert player.game_value(to_board(parse_over())) == 0  # TODO 2: not done


def parse_over() -> Position:
    from autograder.games.othello.rules import parse_position

    return parse_position("bbbb/bbbb/bbww/bbww w", "othello-4x4")


def test_python_game_py_runs_and_ends_at_eof() -> None:
    done = subprocess.run(
        [sys.executable, str(STARTER)], input="", capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    # a human to move reads the end of the input; the AI to move breaks the rules (TODO 5)
    assert "No more input" in done.stdout or "breaks the rules" in done.stdout, done.stdout


# ---- the answer key ----------------------------------------------------------------------------


def test_the_key_is_the_starter_with_the_todos_done() -> None:
    """Outside the TODO methods the key is the starter, statement for statement (it may add
    constants and methods); no TODO is left."""
    assert "NotImplementedError" not in KEY.read_text() and "# TODO" not in KEY.read_text()
    starter, key = code(STARTER), code(KEY)

    def top(tree: ast.Module) -> list[str]:
        return [ast.unparse(n) for n in tree.body if not isinstance(n, ast.ClassDef)]

    assert in_order(top(starter), top(key)), "a top-level statement of the starter changed"
    starter_cls, key_cls = (
        next(n for n in tree.body if isinstance(n, ast.ClassDef)) for tree in (starter, key)
    )
    key_body = {f.name: f for f in key_cls.body if isinstance(f, ast.FunctionDef)}
    for node in starter_cls.body:
        if not isinstance(node, ast.FunctionDef):
            assert ast.unparse(node) in [ast.unparse(n) for n in key_cls.body]
        elif node.name in TODO_METHODS:
            params = [a.arg for a in node.args.args]
            assert [a.arg for a in key_body[node.name].args.args][: len(params)] == params
        else:
            assert ast.unparse(node) == ast.unparse(key_body[node.name]), node.name


@pytest.mark.parametrize("name", ["othello", "othello-4x4"])
def test_the_keys_succ_and_game_value_agree_with_the_engine(key: ModuleType, name: str) -> None:
    positions = _games(name, 6)
    assert {result(pos) for pos in positions} >= {None, BLACK, WHITE}
    for pos in positions:
        board = to_board(pos)
        for me in (BLACK, WHITE):
            player = _player(key, me)
            expected = [
                (m, to_board(play(pos._replace(turn=me), m)))
                for m in legal_moves(pos._replace(turn=me))
                if m != PASS
            ]
            assert player.succ(board, me) == expected, render(pos)
            won = result(pos)
            value = 0 if won in (None, DRAW) else (1 if won == me else -1)
            assert player.game_value(board) == value, render(pos)
            heuristic = player.heuristic_game_value(board)
            assert heuristic == value if won is not None else -1 < heuristic < 1
            assert board == to_board(pos), "the key changed the state"


@pytest.mark.parametrize("name", ["othello", "othello-8x8", "othello-4x4"])
def test_the_keys_and_the_solutions_moves_are_legal_exact_and_leave_the_state_alone(
    key: ModuleType, solution: ModuleType, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for pos in _playable(name, 4, "legal"):
        board = to_board(pos)
        for module in (key, solution):
            player = _player(module, pos.turn, [row[:] for row in board])
            returned = player.make_move(player.board)
            assert format_problem(returned, pos) is None, (render(pos), returned)
            read_student_move(returned, pos)  # raises on an illegal move
            assert player.board == board, "make_move changed the state"
    assert capsys.readouterr().out == ""


def test_the_keys_search_passes_when_a_side_has_no_square(key: ModuleType) -> None:
    """max_value on a board where the AI must pass goes on with the opponent's move instead
    of scoring the board as if the game were over."""
    from autograder.games.othello.rules import parse_position

    pos = parse_position("..../bbb./.bb./.www b", "othello-4x4")  # black must pass
    assert legal_moves(pos) == [PASS]
    player = _player(key, BLACK)
    passed = player.max_value(to_board(pos), 0)
    assert passed == player.min_value(to_board(pos), 1)
    assert -1 < passed < 1


# ---- the solution ------------------------------------------------------------------------------


def test_the_solution_beats_the_random_player(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two 6×6 games, one a colour, against uniformly random moves: the solution wins both.
    Its search is timed on this process's CPU clock, so that its depth is the machine's load's
    no more: on the wall clock a busy machine cuts its 0.05 s budget short (once, in the fast
    tests beside a serial pass and two CPU burners per core at load 23, it did not win both;
    six runs beside four burners per core could not make it lose again)."""
    monkeypatch.setattr(solution, "TIME_BUDGET", 0.05)  # its depth is not what this checks
    monkeypatch.setattr(solution, "time", SimpleNamespace(perf_counter=time.process_time))
    rng = random.Random(3)
    for me in (BLACK, WHITE):
        pos = start(find_variant("othello"))
        player = _player(solution, me)
        while moves := legal_moves(pos):
            if pos.turn == me and moves != [PASS]:
                move = player.make_move(to_board(pos))
            else:
                move = rng.choice(moves)
            pos = play(pos, move)
        assert result(pos) == me, render(pos)


def test_the_solution_plays_out_the_end_exactly(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With few empty squares it searches to the end: on 4×4 from the start (twelve empty) it
    finds white's win, so as white it never loses to any reply."""
    monkeypatch.setattr(solution, "TIME_BUDGET", 5.0)
    variant = find_variant("othello-4x4")
    player = _player(solution, WHITE)

    def worst(pos: Position) -> str:
        """The worst result for white over every black line, white playing the solution."""
        moves = legal_moves(pos)
        if not moves:
            return str(result(pos))
        if pos.turn == WHITE:
            move = PASS if moves == [PASS] else player.make_move(to_board(pos))
            return worst(play(pos, move))
        results = {worst(play(pos, m)) for m in moves}
        return BLACK if BLACK in results else DRAW if DRAW in results else WHITE

    assert worst(start(variant)) == WHITE
