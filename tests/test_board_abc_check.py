"""``autograder check`` on the book's Board homework, as a student runs it on their folder: the
reference solution gets full marks, the untouched starter a message per missing piece, and a
board class the kit cannot build one sentence saying why."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import ROOT

SOLUTION = ROOT / "solution" / "board-abc"
STARTER = ROOT / "starter" / "board-abc"
FILES = ("minimax.py", "board.py", "tictactoe.py", "connectfour.py")

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]


def _check(run_cli, path: Path, tmp_path: Path) -> tuple[dict, str]:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.json"
    done = run_cli("check", str(path), "--json", str(out))
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), " ".join(done.stdout.split())


def _scores(results: dict) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


def _copy(source: Path, tmp_path: Path, **changes: tuple[str, str]) -> Path:
    """The four files of ``source`` in a folder of their own, each (old, new) in ``changes[stem]``
    made once."""
    folder = tmp_path / "student"
    folder.mkdir()
    for name in FILES:
        text = (source / name).read_text()
        old, new = changes.get(name.removesuffix(".py"), ("", ""))
        if old:
            assert text.count(old) == 1, old
            text = text.replace(old, new)
        (folder / name).write_text(text)
    return folder


def test_the_solution_folder_scores_100_without_being_told_the_homework(run_cli, tmp_path):
    results, stdout = _check(run_cli, SOLUTION, tmp_path)
    assert results["score"] == 100, stdout
    assert "assignment board-abc inferred from minimax.py" in stdout
    assert "all 16 checks right" in stdout


def test_one_file_of_the_four_brings_the_others(run_cli, tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(SOLUTION, folder)
    results, _ = _check(run_cli, folder / "tictactoe.py", tmp_path)
    assert results["score"] == 100


def test_the_starter_names_each_missing_piece(run_cli, tmp_path):
    results, stdout = _check(run_cli, STARTER, tmp_path)
    assert _scores(results)["boards"] == 6  # turn is given in both games: 2 of 10 kinds
    assert results["score"] == 6
    for todo in (
        "TODO 1: write TTTBoard.legal_moves in tictactoe.py",
        "TODO 5: write C4Board.legal_moves in connectfour.py",
    ):
        assert todo in stdout


def test_a_constructor_of_another_shape_is_one_sentence(run_cli, tmp_path):
    folder = _copy(
        SOLUTION,
        tmp_path,
        tictactoe=(
            "class TTTBoard(Board):",
            "class TTTBoard(Board):\n    def __new__(cls):\n        return super().__new__(cls)\n",
        ),
    )
    results, stdout = _check(run_cli, folder, tmp_path)
    assert (
        "building the board with TTTBoard(position, turn), as the book's constructor takes it, "
        "raised TypeError"
    ) in stdout
    assert _scores(results)["boards"] == 15  # every tic-tac-toe kind lost, Connect Four's kept


def test_a_missing_board_class_is_one_sentence(run_cli, tmp_path):
    renamed = ("class C4Board(Board):", "class Board4(Board):")
    folder = _copy(SOLUTION, tmp_path, connectfour=renamed)
    results, stdout = _check(run_cli, folder, tmp_path)
    assert "connectfour.py defines no C4Board and C4Piece; keep the book's names" in stdout
    assert "Traceback" not in stdout


# The chapter's minimax.py, as printed (its comments translated): a finished game scores
# evaluate(), the same for a win now and a win later.
BOOK_MINIMAX = """from __future__ import annotations
from board import Piece, Board, Move


def minimax(board: Board, maximizing: bool, original_player: Piece, max_depth: int = 8) -> float:
    # base case: a finished game or the maximum depth
    if board.is_win or board.is_draw or max_depth == 0:
        return board.evaluate(original_player)

    # recursive case: maximize your gain or minimize the opponent's
    if maximizing:
        best_eval: float = float("-inf")
        for move in board.legal_moves:
            result: float = minimax(board.move(move), False, original_player, max_depth - 1)
            best_eval = max(result, best_eval)
        return best_eval
    else:
        worst_eval: float = float("inf")
        for move in board.legal_moves:
            result = minimax(board.move(move), True, original_player, max_depth - 1)
            worst_eval = min(result, worst_eval)
        return worst_eval


def find_best_move(board: Board, max_depth: int = 8) -> Move:
    best_eval: float = float("-inf")
    best_move: Move = Move(-1)
    for move in board.legal_moves:
        result: float = minimax(board.move(move), False, board.turn, max_depth)
        if result > best_eval:
            best_eval = result
            best_move = move
    return best_move
"""


def test_the_books_minimax_keeps_every_point_when_it_takes_a_later_forced_win(run_cli, tmp_path):
    """In seed 0's third tic-tac-toe win in 1, square 6 wins at once and square 0 wins by force
    later; the book's minimax, which scores both alike, plays 0. That keeps the win: reported
    with the sooner square, not charged (the rubric does not prefer the sooner win)."""
    folder = _copy(SOLUTION, tmp_path)
    (folder / "minimax.py").write_text(BOOK_MINIMAX)
    results, stdout = _check(run_cli, folder, tmp_path)
    assert _scores(results)["search"] == 25, stdout
    assert results["score"] == 100, stdout
    assert (
        "tic-tac-toe win in 1 3: find_best_move played 0, which keeps the forced win; a sooner "
        "win was available at [6] (wins at once); not charged"
    ) in stdout
