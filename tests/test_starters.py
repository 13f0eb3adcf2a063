"""The starters in starter/<variant>/game.py: the course interface, checked against the engine.

Each starter is loaded as a module from its file. The shipped AI drops on a random empty square
in every phase, so the drop-phase tests expect legal, exact moves and the move-phase tests expect
the engine to reject every move because all 8 markers are down. game_value is expected to find
rows and columns only: the diagonals, boxes and 3x3 corners are the students' TODO 3.
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

from autograder.games.pack import IllegalMoveError
from autograder.games.teeko.probes import random_position
from autograder.games.teeko.rules import (
    BLACK,
    RED,
    Move,
    Position,
    format_problem,
    from_board,
    has_goal,
    is_drop_phase,
    is_legal,
    legal_moves,
    opponent,
    play,
    read_student_move,
    render,
    square,
    to_board,
)
from autograder.games.teeko.variants import Variant, find_variant
from tests.homework import code

ROOT = Path(__file__).resolve().parent.parent
STARTERS = {
    "teeko": ROOT / "starter" / "teeko" / "game.py",
    "teeko2": ROOT / "starter" / "teeko2" / "game.py",
}
PROBES = 40  # seeded positions per phase and variant


@pytest.fixture(scope="module", params=sorted(STARTERS))
def starter(request: pytest.FixtureRequest) -> tuple[Variant, ModuleType]:
    """The variant and its starter module, loaded from the file under a private name."""
    name = request.param
    spec = importlib.util.spec_from_file_location(f"_starter_{name}_game", STARTERS[name])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return find_variant(name), module


@pytest.fixture(autouse=True)
def _seeded_random() -> Iterator[None]:
    """The starters use the global random module: seed it and put its state back afterwards."""
    state = random.getstate()
    random.seed(20210413)
    yield
    random.setstate(state)


def _player_class(variant: Variant, module: ModuleType) -> type:
    return getattr(module, variant.player_class)


def _player(variant: Variant, module: ModuleType, piece: str, board: list[list[str]]) -> Any:
    player = _player_class(variant, module)()
    player.my_piece, player.opp = piece, opponent(piece)
    player.board = board
    return player


def _positions(variant: Variant, drop: bool, seed: int = 2, n: int = PROBES) -> list[Position]:
    """``n`` seeded, reachable, non-terminal positions in the drop phase or in the move phase."""
    rng = random.Random(f"{variant.name}-{drop}-{seed}")
    found: list[Position] = []
    while len(found) < n:
        plies = rng.randrange(8) if drop else rng.randrange(8, 40)
        pos = random_position(variant, rng, plies)
        if pos is not None:
            assert is_drop_phase(pos) == drop
            found.append(pos)
    return found


# ---- the interface of KIT_SPEC §3 ----------------------------------------------------------------


def test_only_the_standard_library_is_imported(starter: tuple[Variant, ModuleType]) -> None:
    variant, module = starter
    tree = ast.parse(Path(module.__file__).read_text())
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
    assert imported, "the starter should at least import random"
    assert imported <= sys.stdlib_module_names, imported - sys.stdlib_module_names


def test_class_attributes_and_colours(starter: tuple[Variant, ModuleType]) -> None:
    variant, module = starter
    cls = _player_class(variant, module)
    assert cls.board == [[" "] * 5 for _ in range(5)]
    assert cls.pieces == ["b", "r"]
    colours = set()
    for _ in range(40):
        player = cls()
        assert {player.my_piece, player.opp} == {BLACK, RED}
        assert player.board == cls.board
        colours.add(player.my_piece)
    assert colours == {BLACK, RED}, "my_piece should be chosen at random"


def test_importing_prints_nothing_and_main_is_guarded(capfd: pytest.CaptureFixture[str]) -> None:
    for name, path in STARTERS.items():
        spec = importlib.util.spec_from_file_location(f"_quiet_{name}", path)
        assert spec is not None and spec.loader is not None
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
        assert 'if __name__ == "__main__":\n    main()' in path.read_text()
    assert capfd.readouterr() == ("", "")


# ---- make_move -----------------------------------------------------------------------------------


def test_drop_phase_moves_are_legal_exact_and_do_not_mutate(
    starter: tuple[Variant, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    variant, module = starter
    for pos in _positions(variant, drop=True):
        player = _player(variant, module, pos.turn, to_board(pos))
        # The grader passes the player's own board, the usual case; a separate copy is checked
        # too, so that a starter writing on either one fails.
        for state in (player.board, to_board(pos)):
            raw = player.make_move(state)
            assert format_problem(raw, pos) is None, (render(pos), raw)
            read_student_move(raw, pos)  # raises on an illegal move
            assert state == to_board(pos), f"make_move changed state:\n{render(pos)}"
            assert player.board == to_board(pos), f"make_move changed self.board:\n{render(pos)}"
    assert capsys.readouterr().out == "", "make_move must not print"


def test_move_phase_moves_are_drops_the_engine_rejects(
    starter: tuple[Variant, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    variant, module = starter
    for pos in _positions(variant, drop=False):
        board = to_board(pos)
        player = _player(variant, module, pos.turn, board)
        raw = player.make_move(board)
        assert type(raw) is list and len(raw) == 1, raw
        with pytest.raises(IllegalMoveError) as caught:
            read_student_move(raw, pos)
        message = str(caught.value)
        assert "all 8 markers are down" in message and "move phase" in message, message
        assert "should be [(row, col), (source_row, source_col)]" in (
            format_problem(raw, pos) or ""
        )
        assert board == to_board(pos), f"make_move changed its board:\n{render(pos)}"
    assert capsys.readouterr().out == ""


# ---- game_value ----------------------------------------------------------------------------------


def _goals(variant: Variant, kind: str) -> list[int]:
    """Masks of the variant's goals of one kind: 'row', 'column', 'diagonal' or 'shape'."""
    found = []
    for goal in variant.goals:
        squares = [sq for sq in range(25) if goal.squares >> sq & 1]
        rows = {sq // 5 for sq in squares}
        cols = {sq % 5 for sq in squares}
        steps = {b - a for a, b in zip(squares, squares[1:], strict=False)}
        if len(rows) == 1:
            found.append(("row", goal.squares))
        elif len(cols) == 1:
            found.append(("column", goal.squares))
        elif len(steps) == 1 and steps <= {4, 6}:
            found.append(("diagonal", goal.squares))
        else:
            found.append(("shape", goal.squares))
    return [mask for k, mask in found if k == kind]


def _with_goal(variant: Variant, side: str, goal: int, rng: random.Random) -> Position:
    """A move-phase position where ``side`` holds ``goal`` and the other side holds none."""
    free = [sq for sq in range(25) if not goal >> sq & 1]
    while True:
        other = sum(1 << sq for sq in rng.sample(free, 4))
        black, red = (goal, other) if side == BLACK else (other, goal)
        pos = Position(black, red, opponent(side), variant)
        if has_goal(pos, side) and not has_goal(pos, opponent(side)):
            return pos


@pytest.mark.parametrize("kind", ["row", "column"])
def test_game_value_finds_rows_and_columns_for_both_sides(
    starter: tuple[Variant, ModuleType], kind: str
) -> None:
    variant, module = starter
    rng = random.Random(kind)
    goals = _goals(variant, kind)
    assert len(goals) == 10
    for goal in goals:
        for side in (BLACK, RED):
            pos = _with_goal(variant, side, goal, rng)
            for me in (BLACK, RED):
                board = to_board(pos)
                value = _player(variant, module, me, to_board(pos)).game_value(board)
                assert value == (1 if me == side else -1), (render(pos), me)
                assert board == to_board(pos), "game_value changed the state"


@pytest.mark.parametrize("kind", ["diagonal", "shape"])
def test_game_value_leaves_diagonals_and_shapes_as_todo(
    starter: tuple[Variant, ModuleType], kind: str
) -> None:
    """TODO 3 in the starter: diagonals, boxes (teeko) and 3x3 corners (teeko2) are not seen."""
    variant, module = starter
    rng = random.Random(kind)
    goals = _goals(variant, kind)
    assert len(goals) == (8 if kind == "diagonal" else 16 if variant.name == "teeko" else 9)
    for goal in goals:
        pos = _with_goal(variant, BLACK, goal, rng)
        for me in (BLACK, RED):
            player = _player(variant, module, me, to_board(pos))
            value = player.game_value(to_board(pos))
            assert value == 0, f"the starter leaves this goal to TODO 3:\n{render(pos)}"


def test_game_value_is_zero_without_a_goal(starter: tuple[Variant, ModuleType]) -> None:
    variant, module = starter
    for pos in _positions(variant, drop=False, seed=3) + _positions(variant, drop=True, seed=3):
        for me in (BLACK, RED):
            assert _player(variant, module, me, to_board(pos)).game_value(to_board(pos)) == 0


# ---- opponent_move and place_piece ---------------------------------------------------------------


def _candidate_moves() -> Iterator[list[tuple[int, int]]]:
    """Every drop and every (source, target) pair on the board, plus a few off the board."""
    cells = [(r, c) for r in range(5) for c in range(5)]
    for to in cells:
        yield [to]
        for source in cells:
            yield [to, source]
    for off in [(5, 0), (0, 5), (-1, 2), (2, -1)]:
        yield [off]
        yield [off, (2, 2)]
        yield [(2, 2), off]


def _engine_legal(pos: Position, move: list[tuple[int, int]]) -> bool:
    if any(not (0 <= r < 5 and 0 <= c < 5) for r, c in move):
        return False
    squares = [square(r, c) for r, c in move]
    return is_legal(pos, Move(squares[0], squares[1] if len(squares) == 2 else None))


@pytest.mark.parametrize("drop", [True, False], ids=["drop", "move"])
def test_opponent_move_agrees_with_the_engine(
    starter: tuple[Variant, ModuleType], drop: bool
) -> None:
    """Every candidate move of the side to move is accepted exactly when the engine allows it."""
    variant, module = starter
    for pos in _positions(variant, drop=drop, seed=4, n=8):
        player = _player(variant, module, opponent(pos.turn), to_board(pos))
        accepted = 0
        for move in _candidate_moves():
            if _engine_legal(pos, move):
                player.board = to_board(pos)
                player.opponent_move(move)
                squares = [square(r, c) for r, c in move]
                after = play(pos, Move(squares[0], squares[1] if len(squares) == 2 else None))
                assert player.board == to_board(after), (render(pos), move)
                accepted += 1
            else:
                player.board = to_board(pos)
                with pytest.raises(Exception) as caught:
                    player.opponent_move(move)
                assert str(caught.value), f"no message for {move} in\n{render(pos)}"
                assert player.board == to_board(pos), f"{move} changed the board"
        assert accepted == len(list(legal_moves(pos)))


# A move-phase position, red to move: black holds A0 B0 C1 E4, red A1 C2 D3 E0.
_CASES = {
    "target occupied": ([(1, 2), (2, 2)], "occupied"),
    "not adjacent": ([(4, 2), (2, 2)], "not next to"),
    "not the opponent's marker": ([(2, 3), (1, 2)], "does not hold"),
    "source empty": ([(2, 4), (3, 4)], "does not hold"),
    "drop after the drop phase": ([(4, 0)], "drop phase is over"),
    "off the board": ([(5, 2), (3, 3)], "off the board"),
}


@pytest.mark.parametrize("case", list(_CASES), ids=list(_CASES))
def test_opponent_move_rejects_with_a_clear_message(
    starter: tuple[Variant, ModuleType], case: str
) -> None:
    variant, module = starter
    board = [
        ["b", "b", " ", " ", "r"],
        ["r", " ", "b", " ", " "],
        [" ", " ", "r", " ", " "],
        [" ", " ", " ", "r", " "],
        [" ", " ", " ", " ", "b"],
    ]
    pos = from_board(board, variant, turn=RED)
    move, words = _CASES[case]
    assert not _engine_legal(pos, move)
    player = _player(variant, module, BLACK, copy.deepcopy(board))
    with pytest.raises(Exception, match=words):
        player.opponent_move(move)
    assert player.board == board


def test_place_piece_drops_and_slides(starter: tuple[Variant, ModuleType]) -> None:
    variant, module = starter
    player = _player(variant, module, BLACK, [[" "] * 5 for _ in range(5)])
    player.place_piece([(1, 1)], "b")
    player.place_piece([(2, 2), (1, 1)], "b")
    player.place_piece([(0, 4)], "r")
    expected = [[" "] * 5 for _ in range(5)]
    expected[2][2], expected[0][4] = "b", "r"
    assert player.board == expected


# ---- print_board ---------------------------------------------------------------------------------


def test_print_board_matches_the_engine(
    starter: tuple[Variant, ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    variant, module = starter
    positions = _positions(variant, drop=True, seed=5, n=5) + _positions(
        variant, drop=False, seed=5, n=5
    )
    for pos in positions:
        _player(variant, module, BLACK, to_board(pos)).print_board()
        assert capsys.readouterr().out == render(pos) + "\n"


# ---- main(): the terminal game -------------------------------------------------------------------


class _Script:
    """Stands in for input(): answers from a list, or from a function of (prompt, board)."""

    def __init__(self, answers: list[str] | Callable[[str, list[list[str]]], str | None]):
        self.answers = answers
        self.prompts: list[str] = []
        self.player: Any = None

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if callable(self.answers):
            answer = self.answers(prompt, self.player.board)
        else:
            answer = self.answers.pop(0) if self.answers else None
        if answer is None:
            raise EOFError
        return answer


def _run_main(
    module: ModuleType,
    variant: Variant,
    monkeypatch: pytest.MonkeyPatch,
    script: _Script,
    ai_piece: str,
    board: list[list[str]] | None = None,
) -> None:
    """Run main() with ``script`` as stdin, the AI's colour fixed and maybe a preset board."""
    cls = _player_class(variant, module)
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


def test_main_accepts_lower_case_reprompts_on_garbage_and_stops_at_eof(
    starter: tuple[Variant, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variant, module = starter
    script = _Script(["Z9", "hello", "", "c2"])
    _run_main(module, variant, monkeypatch, script, ai_piece=RED)
    out = capsys.readouterr().out
    assert out.count("is not a square") == 3, out
    assert "like B3" in out
    assert len(script.prompts) == 5  # three re-prompts, c2, then end of input
    assert len(set(script.prompts)) == 1, script.prompts
    board = script.player.board
    assert board[2][2] == BLACK  # the human's c2
    assert sum(row.count(RED) for row in board) == 1  # the AI answered once
    assert "No more input" in out and "Traceback" not in out


def test_main_move_phase_asks_from_and_to_and_reports_the_illegal_ai_move(
    starter: tuple[Variant, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variant, module = starter
    chosen: dict[str, tuple[int, int]] = {}

    def name(row: int, col: int) -> str:
        return "ABCDE"[col] + str(row)

    def free_around(board: list[list[str]], row: int, col: int) -> list[tuple[int, int]]:
        near = [(row + dr, col + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1)]
        return [(r, c) for r, c in near if 0 <= r < 5 and 0 <= c < 5 and board[r][c] == " "]

    def human(prompt: str, board: list[list[str]]) -> str:
        cells = [(r, c) for r in range(5) for c in range(5)]
        if prompt.startswith("Place"):
            # At most two black per row and column: the starter's game_value, which sees rows
            # and columns only, cannot end the game before the move phase.
            return name(
                *next(
                    (r, c)
                    for r, c in cells
                    if board[r][c] == " "
                    and board[r].count(BLACK) < 2
                    and [board[i][c] for i in range(5)].count(BLACK) < 2
                )
            )
        if prompt.startswith("Move from"):
            if "wrong" not in chosen:
                chosen["wrong"] = (0, 4)
                return "e0" if board[0][4] != BLACK else "e1"  # not the human's: re-prompt
            chosen["source"] = next(
                sq for sq in cells if board[sq[0]][sq[1]] == BLACK and free_around(board, *sq)
            )
            return name(*chosen["source"])
        if prompt.startswith("Move to"):
            return name(*free_around(board, *chosen["source"])[0]).lower()
        raise AssertionError(f"unexpected prompt {prompt!r}")

    script = _Script(human)
    _run_main(module, variant, monkeypatch, script, ai_piece=RED)
    out = capsys.readouterr().out
    prompts = [p for p in script.prompts if not p.startswith("Place")]
    assert prompts[:3] == ["Move from: ", "Move from: ", "Move to: "], script.prompts
    assert "does not hold one of your markers" in out
    assert "breaks the rules" in out and "the drop phase is over" in out, out
    assert "Traceback" not in out
    board = script.player.board
    assert sum(row.count(BLACK) for row in board) == 4
    assert sum(row.count(RED) for row in board) == 4  # the illegal drop was not applied


def test_main_announces_the_human_winner(
    starter: tuple[Variant, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variant, module = starter
    board = [
        ["b", "b", "b", " ", " "],
        [" ", " ", " ", " ", " "],
        [" ", "r", " ", "r", " "],
        [" ", " ", " ", " ", " "],
        [" ", " ", "r", " ", " "],
    ]
    script = _Script(["d0"])
    _run_main(module, variant, monkeypatch, script, ai_piece=RED, board=board)
    out = capsys.readouterr().out
    assert "You (black) win" in out
    assert script.prompts == ["Place a marker on (for example B3): "]


def test_main_calls_a_capped_game_a_draw(
    starter: tuple[Variant, ModuleType],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    variant, module = starter
    assert module.MAX_PLIES == 200
    monkeypatch.setattr(module, "MAX_PLIES", 3)
    script = _Script(["a0", "e4"])
    _run_main(module, variant, monkeypatch, script, ai_piece=RED)
    out = capsys.readouterr().out
    assert "draw" in out and "3 moves" in out, out
    assert sum(row.count(BLACK) for row in script.player.board) == 2
    assert sum(row.count(RED) for row in script.player.board) == 1


@pytest.mark.parametrize("variant", sorted(STARTERS))
def test_python_game_py_runs_and_ends_at_eof(variant: str) -> None:
    path = STARTERS[variant]
    done = subprocess.run(
        [sys.executable, path.name],
        cwd=path.parent,
        input="hello\nB2\n",
        capture_output=True,
        text=True,
        timeout=20,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert "'hello' is not a square" in done.stdout
    assert "No more input" in done.stdout
    assert "   A B C D E" in done.stdout


def _code_without_docstrings(path: Path) -> str:
    """The module's code as Python reads it, docstrings and comments left out, the class name
    made the same for both variants."""
    return ast.unparse(code(path)).replace("Teeko2", "Teeko")


def test_the_two_starters_differ_only_in_their_words():
    """The starters are one program: what differs between Teeko and Teeko2 is only what the
    student reads (docstrings, the TODO comments for the goals, the greeting's name)."""
    assert _code_without_docstrings(STARTERS["teeko"]) == _code_without_docstrings(
        STARTERS["teeko2"]
    )
