"""The Connect Four reference solution (``solution/connect4/game.py``), checked against the rules
engine (``autograder.games.connect4``).

The file is imported as a module of its own with its ``TIME_BUDGET`` line rewritten to 0.02 s
(the tests of tactics and of the interface need no depth), then asked for moves in seeded random
positions of three board sizes; one test keeps a larger budget to check the clock is obeyed.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import random
import re
import subprocess
import sys
import tempfile
import time
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
from autograder.games.connect4.variants import find_variant
from autograder.games.pack import DRAW
from tests.conftest import ROOT

SOLUTION = ROOT / "solution" / "connect4" / "game.py"
BUDGET = 0.02  # seconds per move: the tactics here are found without a search
SIZES = ["connect4", "connect4-8x6", "connect4-5x4"]
_TIME_BUDGET = re.compile(r"^TIME_BUDGET = .*$", re.M)


def _load(folder: Path, budget: float | None = BUDGET) -> ModuleType:
    """The solution imported from a copy in ``folder`` whose ``TIME_BUDGET`` line is rewritten
    to ``budget`` (as the benchmarks and the corpus do); ``budget=None`` keeps the file's own."""
    source = SOLUTION.read_text()
    if budget is not None:
        source, count = _TIME_BUDGET.subn(f"TIME_BUDGET = {budget}", source)
        assert count == 1, "the solution should set TIME_BUDGET once, on one line"
    # a folder of its own for each copy: two copies of one size written within a second would
    # otherwise share the cached bytecode of the first
    path = Path(tempfile.mkdtemp(dir=folder)) / "game.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("solution_connect4", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def solution(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _load(tmp_path_factory.mktemp("connect4"))


def _player(module: ModuleType, piece: str, pos: Position | None = None) -> Any:
    """A fresh player of ``piece`` whose board shows ``pos`` (an empty 7x6 board if None)."""
    player = module.Connect4Player()
    player.my_piece, player.opp = piece, opponent(piece)
    if pos is not None:
        player.board = to_board(pos)
    return player


# ---- positions --------------------------------------------------------------------------------


def _positions(
    variant: str, seed: int, count: int, accept: Callable[[Position], bool] = lambda pos: True
) -> list[Position]:
    """``count`` distinct positions, none over, from seeded random games (the engine's
    ``random_position``), that ``accept`` likes."""
    board = find_variant(variant)
    rng = random.Random(f"{variant}-{seed}")
    found: dict[Position, None] = {}
    for _ in range(200 * count):
        pos = random_position(board, rng, rng.randrange(board.columns * board.rows))
        if pos is not None and accept(pos):
            found[pos] = None
            if len(found) == count:
                return list(found)
    raise AssertionError(f"only {len(found)} of {count} positions found")


def _games(variant: str, seed: int, count: int) -> Iterator[Position]:
    """Every position of ``count`` seeded random games played to the end, the last included."""
    rng = random.Random(f"games-{variant}-{seed}")
    for _ in range(count):
        pos = start(find_variant(variant))
        yield pos
        while result(pos) is None:
            pos = play(pos, rng.choice(legal_moves(pos)))
            yield pos


def _threats_of_the_other_side(pos: Position) -> list[int]:
    """The columns where the side not to move would complete a line at once."""
    return winning_moves(pos._replace(turn=opponent(pos.turn)))


def _ask(module: ModuleType, pos: Position) -> tuple[int, Any]:
    """The solution's column in ``pos``, after checking it is legal, a plain int, and that the
    board was left alone; and the player."""
    player = _player(module, pos.turn, pos)
    before = copy.deepcopy(player.board)
    raw = player.make_move(player.board)
    assert format_problem(raw, pos) is None, f"{pos!r}: {raw!r}"
    move = read_student_move(raw, pos)  # raises when illegal
    assert player.board == before, f"{pos!r}: make_move changed the board"
    return move, player


# ---- the file ---------------------------------------------------------------------------------


def test_the_file_sets_a_one_line_time_budget_of_one_second(tmp_path: Path) -> None:
    found = _TIME_BUDGET.findall(SOLUTION.read_text())
    assert len(found) == 1 and re.fullmatch(r"TIME_BUDGET = 1\.0(  # .*)?", found[0]), found
    assert _load(tmp_path, budget=None).TIME_BUDGET == 1.0
    assert _load(tmp_path, budget=0.5).TIME_BUDGET == 0.5


def test_only_the_standard_library_is_imported() -> None:
    tree = ast.parse(SOLUTION.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "no relative imports: the file stands alone"
            names.add((node.module or "").split(".")[0])
    assert names and names <= set(sys.stdlib_module_names) | {"__future__"}, names


def test_importing_prints_nothing() -> None:
    # a fresh interpreter: nothing else has been imported or printed there
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('game', {str(SOLUTION)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "module.Connect4Player()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert (done.stdout, done.stderr) == ("", "")


# ---- the interface ----------------------------------------------------------------------------


def test_class_attributes_and_challenge_opt_in(solution: ModuleType) -> None:
    cls = solution.Connect4Player
    assert cls.pieces == ["r", "y"]
    assert cls.board == [[" "] * 7 for _ in range(6)]
    for name in (
        "make_move",
        "opponent_move",
        "place_piece",
        "print_board",
        "succ",
        "game_value",
        "heuristic_game_value",
        "max_value",
        "min_value",
    ):
        assert callable(getattr(cls, name)), name
    assert cls().run_challenge_test() is True


def test_init_picks_a_colour_at_random_and_a_board_of_its_own(solution: ModuleType) -> None:
    seen = set()
    for _ in range(64):
        player = solution.Connect4Player()
        assert {player.my_piece, player.opp} == {RED, YELLOW}
        seen.add(player.my_piece)
    assert seen == {RED, YELLOW}
    first = _player(solution, RED)
    first.place_piece(3, RED)
    assert _player(solution, YELLOW).board == [[" "] * 7 for _ in range(6)]
    assert solution.Connect4Player.board == [[" "] * 7 for _ in range(6)]


@pytest.mark.parametrize("variant", SIZES)
def test_moves_are_legal_plain_ints_silent_and_leave_the_state_alone(
    solution: ModuleType, variant: str, capsys: pytest.CaptureFixture[str]
) -> None:
    for pos in _positions(variant, 1, 25):
        player = _player(solution, pos.turn, pos)
        state = to_board(pos)  # a state that is not the player's own board
        board_before, state_before = copy.deepcopy(player.board), copy.deepcopy(state)
        raw = player.make_move(state)
        assert type(raw) is int and format_problem(raw, pos) is None, f"{pos!r}: {raw!r}"
        read_student_move(raw, pos)
        assert (player.board, state) == (board_before, state_before), f"{pos!r}"
    assert capsys.readouterr() == ("", "")


def test_plays_a_legal_move_on_every_size_from_4x4_to_10x10(solution: ModuleType) -> None:
    rng = random.Random(11)
    for columns in range(4, 11):
        for rows in range(4, 11):
            variant = find_variant(f"connect4-{columns}x{rows}")
            pos = None
            while pos is None:
                pos = random_position(variant, rng, rng.randrange(columns * rows // 2))
            _ask(solution, pos)


def test_a_column_left_alone_is_played_and_a_full_board_does_not_crash(
    solution: ModuleType,
) -> None:
    # from seeded random games on 4x4: a position with one column left, nobody holding a line
    rng = random.Random(3)
    pos = start(find_variant("connect4-4x4"))
    while result(pos) is not None or len(legal_moves(pos)) != 1:
        pos = start(pos.variant)
        while result(pos) is None and len(legal_moves(pos)) > 1:
            pos = play(pos, rng.choice(legal_moves(pos)))
    (column,) = legal_moves(pos)
    assert _ask(solution, pos)[0] == column
    full = pos
    while legal_moves(full):  # the engine lists moves even after a line: fill the board
        full = play(full, legal_moves(full)[0])
    assert type(_player(solution, full.turn, full).make_move(to_board(full))) is int


def test_make_move_falls_back_to_a_legal_move_when_the_search_fails(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("search bug")

    monkeypatch.setattr(solution._Searcher, "choose", broken)
    for pos in _positions("connect4", 4, 10):
        _ask(solution, pos)


def test_the_move_depends_only_on_the_board(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No randomness in the choice: with a clock that ticks per reading (so the search goes
    equally deep each time), two players, and the same player twice, choose the same."""

    class Ticking:
        def __init__(self) -> None:
            self.now = 0.0

        def perf_counter(self) -> float:
            self.now += 0.002
            return self.now

    for pos in _positions("connect4", 5, 8, lambda pos: pos.plies < 20):
        chosen = set()
        for _ in range(2):
            player = _player(solution, pos.turn, pos)
            for _ in range(2):
                monkeypatch.setattr(solution, "time", Ticking())
                chosen.add(player.make_move(to_board(pos)))
        assert len(chosen) == 1, f"{pos!r}: {chosen}"


@pytest.mark.serial
def test_make_move_keeps_to_the_time_budget(tmp_path: Path) -> None:
    module = _load(tmp_path, 0.25)
    times = []
    for variant in ("connect4", "connect4-10x10"):
        for pos in _positions(variant, 6, 4, lambda pos: pos.plies < 12):
            started = time.perf_counter()
            _, player = _ask(module, pos)
            times.append(time.perf_counter() - started)
            assert times[-1] < 0.75, f"{pos!r}: {times[-1]:.2f} s"
    assert max(times) > 0.1  # the budget was used: the search did not stop at once


# ---- tactics ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", SIZES)
def test_takes_a_win_in_one(solution: ModuleType, variant: str) -> None:
    def has_win(pos: Position) -> bool:
        wins = winning_moves(pos)
        return bool(wins) and len(wins) < len(legal_moves(pos))  # a wrong choice exists

    for pos in _positions(variant, 2, 15, has_win):
        move, player = _ask(solution, pos)
        assert winner(play(pos, move)) == pos.turn, f"{pos!r}: played {move}, missed the win"
        assert player.last_depth == 0, f"{pos!r}: searched for a win in one"


@pytest.mark.parametrize("variant", SIZES)
def test_blocks_an_immediate_threat(solution: ModuleType, variant: str) -> None:
    def must_block(pos: Position) -> bool:
        return not winning_moves(pos) and len(_threats_of_the_other_side(pos)) == 1

    for pos in _positions(variant, 3, 15, must_block):
        move, player = _ask(solution, pos)
        assert [move] == _threats_of_the_other_side(pos), f"{pos!r}: played {move}"
        assert player.last_depth == 0, f"{pos!r}: searched for a forced block"


def test_does_not_play_under_the_other_sides_winning_cell(solution: ModuleType) -> None:
    """Where a column's next disc would let the opponent win on top of it, and other moves do
    not lose at once, another column is chosen."""

    def trap(pos: Position) -> bool:
        if winning_moves(pos) or _threats_of_the_other_side(pos):
            return False
        losing = [
            col for col in legal_moves(pos) if winning_moves(play(pos, col))
        ]  # the reply wins
        return bool(losing) and len(losing) < len(legal_moves(pos))

    for pos in _positions("connect4", 7, 10, trap):
        move, _ = _ask(solution, pos)
        assert not winning_moves(play(pos, move)), f"{pos!r}: played {move}"


# ---- opponent_move, place_piece, print_board ---------------------------------------------------


@pytest.mark.parametrize("variant", SIZES)
def test_opponent_move_and_place_piece_drop_as_the_engine_does(
    solution: ModuleType, variant: str
) -> None:
    for pos in _positions(variant, 8, 10):
        for col in legal_moves(pos):
            player = _player(solution, opponent(pos.turn), pos)
            player.opponent_move(col)
            assert player.board == to_board(play(pos, col)), f"{pos!r} {col}"
            player = _player(solution, pos.turn, pos)
            player.place_piece(col, pos.turn)
            assert player.board == to_board(play(pos, col)), f"{pos!r} {col}"


def _full_column_position() -> Position:
    """7x6, red to move: column 3 is full (r y r y r y from the bottom), no line."""
    pos = start(find_variant("connect4"))
    for col in (3, 3, 3, 3, 3, 3):
        pos = play(pos, col)
    assert result(pos) is None and 3 not in legal_moves(pos)
    return pos


@pytest.mark.parametrize(
    ("column", "message"),
    [
        pytest.param(3, r"column 3 is full: all 6 of its rows hold a disc", id="full"),
        pytest.param(7, r"column 7 is off the board: columns are 0-6", id="off-right"),
        pytest.param(-1, r"column -1 is off the board: columns are 0-6", id="off-left"),
        pytest.param("2", r"a move is a column number, an int, got '2'", id="string"),
        pytest.param(True, r"a move is a column number, an int, got True", id="bool"),
        pytest.param(2.0, r"a move is a column number, an int, got 2.0", id="float"),
    ],
)
def test_opponent_move_rejects_illegal_columns_with_a_reason(
    solution: ModuleType, column: Any, message: str
) -> None:
    pos = _full_column_position()
    player = _player(solution, YELLOW, pos)
    before = copy.deepcopy(player.board)
    with pytest.raises(ValueError, match=f"^{message}$"):
        player.opponent_move(column)
    assert player.board == before


def test_opponent_move_reads_the_size_of_its_board(solution: ModuleType) -> None:
    pos = start(find_variant("connect4-8x6"))
    player = _player(solution, YELLOW, pos)
    player.opponent_move(7)
    assert player.board == to_board(play(pos, 7))
    with pytest.raises(ValueError, match="columns are 0-7"):
        player.opponent_move(8)


def test_place_piece_does_not_check(solution: ModuleType) -> None:
    player = _player(solution, RED)
    player.place_piece(0, RED)
    player.place_piece(0, RED)  # twice in a row, the same colour: not checked
    assert [row[0] for row in player.board] == [" "] * 4 + [RED, RED]


def test_print_board_matches_the_engines_render(
    solution: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    for variant in SIZES:
        pos = _positions(variant, 9, 1, lambda pos: pos.plies > 6)[0]
        _player(solution, RED, pos).print_board()
        assert capsys.readouterr().out == render(pos) + "\n"


# ---- the homework's methods -------------------------------------------------------------------


@pytest.mark.parametrize("variant", [*SIZES, "connect4-4x4"])
def test_game_value_agrees_with_the_engines_winner(solution: ModuleType, variant: str) -> None:
    won = 0
    for pos in _games(variant, 10, 40):
        side = winner(pos)
        won += side is not None
        for piece in (RED, YELLOW):
            expected = 0 if side is None else 1 if side == piece else -1
            assert _player(solution, piece).game_value(to_board(pos)) == expected, f"{pos!r}"
    assert won >= 20  # most random games end in a line


def test_heuristic_is_strictly_inside_unless_the_game_is_over(solution: ModuleType) -> None:
    for variant in SIZES:
        for pos in _games(variant, 12, 10):
            for piece in (RED, YELLOW):
                player = _player(solution, piece)
                value = player.heuristic_game_value(to_board(pos))
                end = result(pos)
                if end is None:
                    assert -1 < value < 1, f"{pos!r}: {value}"
                else:
                    assert value == player.game_value(to_board(pos)), f"{pos!r}"
    # the side about to win at once is far ahead
    pos = _positions("connect4", 13, 1, lambda pos: bool(winning_moves(pos)))[0]
    assert _player(solution, pos.turn).heuristic_game_value(to_board(pos)) > 0.5


def test_succ_lists_every_move_and_leaves_the_state_alone(solution: ModuleType) -> None:
    for variant in SIZES:
        for pos in _positions(variant, 14, 10):
            player = _player(solution, RED)
            state = to_board(pos)
            before = copy.deepcopy(state)
            boards = player.succ(state, pos.turn)
            assert boards == [to_board(play(pos, col)) for col in legal_moves(pos)]
            assert state == before


def test_max_and_min_value_see_a_win_in_one(solution: ModuleType) -> None:
    for pos in _positions("connect4", 15, 6, lambda pos: bool(winning_moves(pos))):
        state = to_board(pos)
        ai = _player(solution, pos.turn)  # the AI is to move: max_value
        assert ai.max_value(state, 0) == 1, f"{pos!r}"
        ai = _player(solution, opponent(pos.turn))  # the opponent is to move: min_value
        assert ai.min_value(state, 0) == -1, f"{pos!r}"
    for pos in _positions("connect4", 16, 4):
        value = _player(solution, pos.turn).max_value(to_board(pos), 0)
        assert -1 <= value <= 1


# ---- the terminal game ------------------------------------------------------------------------


def _run_main(
    module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    ai_piece: str,
    answer: Callable[[Any, str], str],
    *args: int,
) -> list[str]:
    """main() with the AI playing ``ai_piece`` and ``answer(ai, prompt)`` typing the human's
    lines; returns the prompts."""
    cls = module.Connect4Player
    original = cls.__init__
    players: list[Any] = []
    prompts: list[str] = []

    def init(self: Any) -> None:
        original(self)
        self.my_piece, self.opp = ai_piece, opponent(ai_piece)
        players.append(self)

    def typed(prompt: str = "") -> str:
        prompts.append(prompt)
        return answer(players[0], prompt)

    monkeypatch.setattr(cls, "__init__", init)
    monkeypatch.setattr("builtins.input", typed)
    module.main(*args)
    return prompts


def test_main_plays_a_game_and_asks_again_after_bad_input(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The human is red: two bad lines first, then column 0 until it is full (and once more),
    # then the leftmost legal column; the AI wins.
    script = ["x", "9"]
    tried_full = []

    def human(ai: Any, prompt: str) -> str:
        if script:
            return script.pop(0)
        if ai.board[0][0] != " " and not tried_full:
            tried_full.append(True)
            return " 0 "
        return str(next(c for c in range(7) if ai.board[0][c] == " "))

    prompts = _run_main(solution, monkeypatch, YELLOW, human)
    out = capsys.readouterr().out
    assert prompts[0] == "Your move, a column 0-6: "
    assert "'x' is not a column: type a number from 0 to 6." in out
    assert "Illegal move: column 9 is off the board: columns are 0-6. Try again." in out
    if tried_full:
        assert "Illegal move: column 0 is full: all 6 of its rows hold a disc. Try again." in out
    assert re.search(r"The AI drops into column \d\.", out)
    assert out.rstrip().endswith("The AI wins.")


def test_main_announces_a_draw(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # a seeded random game on 4x4 that fills the board without a line, both sides scripted
    rng = random.Random(0)
    while True:
        pos, moves = start(find_variant("connect4-4x4")), []
        while result(pos) is None:
            moves.append(rng.choice(legal_moves(pos)))
            pos = play(pos, moves[-1])
        if result(pos) == DRAW:
            break
    script = iter(moves)
    monkeypatch.setattr(solution.Connect4Player, "make_move", lambda self, state: next(script))
    _run_main(solution, monkeypatch, YELLOW, lambda ai, prompt: str(next(script)), 4, 4)
    out = capsys.readouterr().out
    assert out.rstrip().endswith("Draw: the board is full and nobody has four in a line.")
    assert out.count("The AI drops into column") == 8


@pytest.mark.parametrize("error", [EOFError, KeyboardInterrupt])
def test_main_ends_quietly_when_input_runs_out(
    solution: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    error: type[BaseException],
) -> None:
    def no_more(prompt: str = "") -> str:
        raise error

    monkeypatch.setattr("builtins.input", no_more)
    for ai in (RED, YELLOW):  # the AI moves first, or the human does
        monkeypatch.setattr(solution.random, "choice", lambda seq, ai=ai: ai)
        solution.main()
        captured = capsys.readouterr()
        assert captured.out.rstrip().endswith("Game abandoned.") and captured.err == ""
