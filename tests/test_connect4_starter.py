"""The Connect Four starter in starter/connect4/game.py: the course interface, checked against
the engine (autograder/games/connect4/rules.py).

The starter is loaded as a module from its file. As shipped, its make_move returns a random
column, even a full one (the unfinished homework loses the rules points there); succ,
heuristic_game_value, max_value and min_value raise NotImplementedError (TODOs 1, 3 and 4);
game_value finds rows and columns but not the diagonals (TODO 2). The rest, the course's part,
must agree with the engine on every board size: opponent_move, place_piece, print_board and
the terminal game.
"""

from __future__ import annotations

import ast
import builtins
import copy
import importlib.util
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from autograder.games.connect4.rules import (
    RED,
    YELLOW,
    Position,
    format_problem,
    is_legal,
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
)
from autograder.games.connect4.variants import Variant, find_variant
from autograder.games.pack import IllegalMoveError

ROOT = Path(__file__).resolve().parent.parent
STARTER = ROOT / "starter" / "connect4" / "game.py"
VARIANTS = ["connect4", "connect4-8x6", "connect4-5x4"]  # the code reads the size off the board
DIRECTIONS = {"row": (0, 1), "column": (1, 0), "down-right": (1, 1), "down-left": (1, -1)}


def _load(name: str = "_starter_connect4_game") -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, STARTER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def module() -> ModuleType:
    return _load()


@pytest.fixture(autouse=True)
def _seeded_random() -> Iterator[None]:
    """The starter uses the global random module: seed it and put its state back afterwards."""
    state = random.getstate()
    random.seed(20240607)
    yield
    random.setstate(state)


def _player(module: ModuleType, piece: str, board: list[list[str]]) -> Any:
    player = module.Connect4Player()
    player.my_piece, player.opp = piece, opponent(piece)
    player.board = board
    return player


def _positions(variant: Variant, seed: int, n: int, plies: range = range(30)) -> list[Position]:
    """``n`` seeded, reachable positions where the game goes on."""
    rng = random.Random(f"{variant.name}-{seed}")
    found: list[Position] = []
    while len(found) < n:
        pos = random_position(variant, rng, rng.choice(plies))
        if pos is not None:
            found.append(pos)
    return found


def _with_a_full_column(variant: Variant, seed: int, n: int) -> list[Position]:
    """``n`` seeded positions where the game goes on and at least one column is full.

    Random games rarely fill a column before they end: these drop into a favourite column
    half of the time.
    """
    rng = random.Random(f"full-{variant.name}-{seed}")
    found: list[Position] = []
    while len(found) < n:
        favourite = rng.randrange(variant.columns)
        pos = start(variant)
        for _ in range(rng.randrange(variant.rows, 3 * variant.rows)):
            moves = legal_moves(pos)
            keen = favourite in moves and rng.random() < 0.5
            pos = play(pos, favourite if keen else rng.choice(moves))
            if result(pos) is not None:
                break
        if result(pos) is None and len(legal_moves(pos)) < variant.columns:
            found.append(pos)
    return found


def _lines(board: list[list[str]]) -> set[tuple[str, str]]:
    """Every (direction, piece) with four discs of ``piece`` in a line on ``board``."""
    rows, columns = len(board), len(board[0])
    found = set()
    for kind, (d_row, d_col) in DIRECTIONS.items():
        for row in range(rows):
            for col in range(columns):
                cells = [(row + k * d_row, col + k * d_col) for k in range(4)]
                if not all(0 <= r < rows and 0 <= c < columns for r, c in cells):
                    continue
                discs = {board[r][c] for r, c in cells}
                if len(discs) == 1 and discs != {" "}:
                    found.add((kind, discs.pop()))
    return found


def _won_games(variant: Variant, kinds: set[str], n: int) -> list[Position]:
    """``n`` seeded final positions of random games won with lines of ``kinds`` only."""
    rng = random.Random(f"won-{variant.name}-{sorted(kinds)}")
    found: list[Position] = []
    while len(found) < n:
        pos = start(variant)
        while result(pos) is None:
            pos = play(pos, rng.choice(legal_moves(pos)))
        if winner(pos) is None:
            continue
        lines = _lines(to_board(pos))
        assert {piece for _, piece in lines} == {winner(pos)}, "the test's lines disagree"
        if {kind for kind, _ in lines} <= kinds:
            found.append(pos)
    return found


# ---- the interface -------------------------------------------------------------------------------


def test_only_the_standard_library_is_imported() -> None:
    tree = ast.parse(STARTER.read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        (node.module or "").split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
    }
    assert "random" in imported
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


def test_class_attributes_and_colours(module: ModuleType) -> None:
    cls = module.Connect4Player
    assert cls.board == [[" "] * 7 for _ in range(6)]
    assert cls.pieces == ["r", "y"]
    colours = set()
    for _ in range(40):
        player = cls()
        assert {player.my_piece, player.opp} == {RED, YELLOW}
        assert player.board == cls.board
        assert player.board is not cls.board and player.board[5] is not cls.board[5]
        colours.add(player.my_piece)
    assert colours == {RED, YELLOW}, "my_piece should be chosen at random"


def test_importing_prints_nothing_and_main_is_guarded(capfd: pytest.CaptureFixture[str]) -> None:
    _load("_quiet_connect4")
    assert 'if __name__ == "__main__":\n    main()' in STARTER.read_text()
    assert capfd.readouterr() == ("", "")


# ---- the shipped make_move: a random column ------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_make_move_returns_a_plain_int_on_the_board_and_does_not_mutate(
    module: ModuleType, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = find_variant(name)
    for pos in _positions(variant, seed=1, n=40):
        player = _player(module, pos.turn, to_board(pos))
        # The grader passes the player's own board; a separate copy is checked too.
        for state in (player.board, to_board(pos)):
            raw = player.make_move(state)
            assert format_problem(raw, pos) is None, (render(pos), raw)
            assert 0 <= raw < variant.columns
            assert state == to_board(pos) and player.board == to_board(pos)
    assert capsys.readouterr().out == "", "make_move must not print"


def test_make_move_sometimes_picks_a_full_column(module: ModuleType) -> None:
    """Deliberate: the unfinished homework plays any column, so it loses the rules points."""
    variant = find_variant("connect4")
    full_picks = 0
    for pos in _with_a_full_column(variant, seed=2, n=20):
        player = _player(module, pos.turn, to_board(pos))
        for _ in range(5):
            raw = player.make_move(player.board)
            assert type(raw) is int and 0 <= raw < variant.columns
            if not is_legal(pos, raw):
                with pytest.raises(IllegalMoveError, match="is full"):
                    read_student_move(raw, pos)
                full_picks += 1
    assert full_picks > 0


def test_the_search_methods_are_the_todos(module: ModuleType) -> None:
    board = to_board(start(find_variant("connect4")))
    player = _player(module, RED, board)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("TODO 1", lambda: player.succ(board, RED)),
        ("TODO 3", lambda: player.heuristic_game_value(board)),
        ("TODO 4", lambda: player.max_value(board, 0)),
        ("TODO 4", lambda: player.min_value(board, 0)),
    ]
    for todo, call in calls:
        with pytest.raises(NotImplementedError, match=todo):
            call()


# ---- game_value ----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("kind", ["row", "column"])
def test_game_value_finds_rows_and_columns_for_both_sides(
    module: ModuleType, name: str, kind: str
) -> None:
    variant = find_variant(name)
    games = _won_games(variant, {kind}, 12)
    assert {winner(pos) for pos in games} == {RED, YELLOW}
    for pos in games:
        for me in (RED, YELLOW):
            board = to_board(pos)
            value = _player(module, me, to_board(pos)).game_value(board)
            assert value == (1 if me == winner(pos) else -1), (render(pos), me)
            assert board == to_board(pos), "game_value changed the state"


@pytest.mark.parametrize("name", VARIANTS)
def test_game_value_leaves_the_diagonals_as_todo(module: ModuleType, name: str) -> None:
    """TODO 2 in the starter: a line along a diagonal is not seen."""
    variant = find_variant(name)
    games = _won_games(variant, {"down-right", "down-left"}, 12)
    kinds = {kind for pos in games for kind, _ in _lines(to_board(pos))}
    assert kinds == {"down-right", "down-left"}
    for pos in games:
        for me in (RED, YELLOW):
            value = _player(module, me, to_board(pos)).game_value(to_board(pos))
            assert value == 0, f"the starter leaves this line to TODO 2:\n{render(pos)}"


@pytest.mark.parametrize("name", VARIANTS)
def test_game_value_is_zero_without_a_line(module: ModuleType, name: str) -> None:
    for pos in _positions(find_variant(name), seed=3, n=40):
        for me in (RED, YELLOW):
            assert _player(module, me, to_board(pos)).game_value(to_board(pos)) == 0


# ---- opponent_move, place_piece and print_board --------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_opponent_move_agrees_with_the_engine(module: ModuleType, name: str) -> None:
    """Every column, on the board or off it, is accepted exactly when the engine allows it."""
    variant = find_variant(name)
    positions = _positions(variant, seed=4, n=6) + _with_a_full_column(variant, seed=4, n=6)
    for pos in positions:
        player = _player(module, opponent(pos.turn), to_board(pos))
        for column in range(-2, variant.columns + 2):
            player.board = to_board(pos)
            if is_legal(pos, column):
                player.opponent_move(column)
                assert player.board == to_board(play(pos, column)), (render(pos), column)
                continue
            words = "is full" if 0 <= column < variant.columns else "off the board"
            with pytest.raises(ValueError, match=words):
                player.opponent_move(column)
            assert player.board == to_board(pos), f"column {column} changed the board"


@pytest.mark.parametrize("column", ["3", 3.0, True, [3], None], ids=repr)
def test_opponent_move_rejects_what_is_not_a_column(module: ModuleType, column: object) -> None:
    board = to_board(start(find_variant("connect4")))
    player = _player(module, RED, copy.deepcopy(board))
    with pytest.raises(ValueError, match="is not a column"):
        player.opponent_move(column)
    assert player.board == board


@pytest.mark.parametrize("name", VARIANTS)
def test_place_piece_drops_like_the_engine(module: ModuleType, name: str) -> None:
    variant = find_variant(name)
    for pos in _with_a_full_column(variant, seed=5, n=8):
        player = _player(module, pos.turn, to_board(pos))
        for column in range(variant.columns):
            player.board = to_board(pos)
            player.place_piece(column, pos.turn)
            expected = play(pos, column) if is_legal(pos, column) else pos
            assert player.board == to_board(expected), (render(pos), column)


@pytest.mark.parametrize("name", VARIANTS)
def test_print_board_matches_the_engine(
    module: ModuleType, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = find_variant(name)
    positions = [start(variant)] + _positions(variant, seed=6, n=5)
    positions += _with_a_full_column(variant, seed=6, n=3)
    for pos in positions:
        _player(module, RED, to_board(pos)).print_board()
        assert capsys.readouterr().out == render(pos) + "\n"


# ---- main(): the terminal game -------------------------------------------------------------------


class _Script:
    """Stands in for input(): answers from a list, then end of input."""

    def __init__(self, answers: list[str]):
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.player: Any = None

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def _run_main(
    module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    script: _Script,
    ai_piece: str,
    board: list[list[str]] | None = None,
) -> None:
    """Run main() with ``script`` as stdin, the AI's colour fixed and maybe a preset board."""
    cls = module.Connect4Player
    original = cls.__init__

    def init(self: Any) -> None:
        original(self)
        self.my_piece, self.opp = ai_piece, opponent(ai_piece)
        if board is not None:
            self.board = copy.deepcopy(board)
        script.player = self

    monkeypatch.setattr(cls, "__init__", init)
    monkeypatch.setattr(builtins, "input", script)
    module.main()


def test_main_reasks_with_a_reason_and_stops_quietly_at_eof(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = find_variant("connect4")
    board = to_board(start(variant))
    for row in range(variant.rows):  # column 0 full, three discs of each colour
        board[row][0] = RED if row % 2 else YELLOW
    board[5][6] = RED
    board[5][5] = YELLOW  # red to move: 4 red, 4 yellow
    script = _Script(["hello", "", "9", "-1", "0", " 3 "])
    # The shipped AI may pick the full column too: here it answers in the last column.
    monkeypatch.setattr(module.Connect4Player, "make_move", lambda self, state: 6)
    _run_main(module, monkeypatch, script, ai_piece=YELLOW, board=board)
    out = capsys.readouterr().out
    assert out.count("is not a column") == 2 and "'hello' is not a column" in out, out
    assert out.count("off the board") == 2 and "column 0 is full" in out, out
    assert len(script.prompts) == 7 and len(set(script.prompts)) == 1, script.prompts
    final = script.player.board
    assert final[5][3] == RED  # the human's " 3 "
    assert final[4][6] == YELLOW  # the AI answered once
    assert "No more input" in out and "Traceback" not in out


def test_main_announces_the_human_winner(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = start(find_variant("connect4"))
    for column in (0, 0, 1, 1, 2, 2):
        pos = play(pos, column)
    script = _Script(["3"])
    _run_main(module, monkeypatch, script, ai_piece=YELLOW, board=to_board(pos))
    out = capsys.readouterr().out
    assert "You (red) win" in out, out
    assert out.endswith(render(play(pos, 3)) + "\nYou (red) win. Well played!\n")
    assert len(script.prompts) == 1


def test_main_calls_a_full_board_a_draw(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A 5x5 board (the terminal game reads the size off the board), one red drop from full."""
    variant = find_variant("connect4-5x5")
    rng = random.Random("draw")
    while True:
        moves: list[int] = []
        pos = start(variant)
        while result(pos) is None:
            moves.append(rng.choice(legal_moves(pos)))
            pos = play(pos, moves[-1])
        if winner(pos) is None:
            break
    before = start(variant)
    for column in moves[:-1]:
        before = play(before, column)
    assert before.turn == RED
    script = _Script([str(moves[-1])])
    _run_main(module, monkeypatch, script, ai_piece=YELLOW, board=to_board(before))
    out = capsys.readouterr().out
    assert "draw" in out and "win" not in out, out
    assert script.player.board == to_board(pos)


@pytest.mark.parametrize("returned", [0, "3"], ids=["full column", "a string"])
def test_main_reports_an_illegal_ai_move_and_stops(
    module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    returned: object,
) -> None:
    pos = start(find_variant("connect4"))
    for column in (0, 0, 0, 0, 0, 0):
        pos = play(pos, column)
    monkeypatch.setattr(module.Connect4Player, "make_move", lambda self, state: returned)
    script = _Script([])
    _run_main(module, monkeypatch, script, ai_piece=RED, board=to_board(pos))
    out = capsys.readouterr().out
    words = "column 0 is full" if returned == 0 else "'3' is not a column"
    assert "breaks the rules" in out and words in out, out
    assert "The game stops here" in out and "Traceback" not in out
    assert script.prompts == [] and script.player.board == to_board(pos)


def test_python_game_py_runs_and_ends_at_eof() -> None:
    for text in (None, "hello\n9\n3\n"):
        done = subprocess.run(
            [sys.executable, STARTER.name],
            cwd=STARTER.parent,
            input=text,
            stdin=subprocess.DEVNULL if text is None else None,
            capture_output=True,
            text=True,
            timeout=20,
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == ""
        assert "No more input" in done.stdout
        assert " 0 1 2 3 4 5 6" in done.stdout
        if text is not None:
            assert "'hello' is not a column" in done.stdout
            assert "column 9 is off the board" in done.stdout
