"""``autograder check`` on the book's Board homework, as a student runs it on their folder: the
reference solution gets full marks, the untouched starter a message per missing piece, and a
board class the kit cannot build one sentence saying why."""

from __future__ import annotations

import csv
import json
import shutil
import zipfile
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
    assert "all 28 checks right" in stdout
    assert "all 6 checks right" in stdout  # the chapter's own unit tests, reported


def test_one_file_of_the_four_brings_the_others(run_cli, tmp_path):
    folder = tmp_path / "mine"
    shutil.copytree(SOLUTION, folder)
    results, _ = _check(run_cli, folder / "tictactoe.py", tmp_path)
    assert results["score"] == 100


def test_the_starter_names_each_missing_piece(run_cli, tmp_path):
    results, stdout = _check(run_cli, STARTER, tmp_path)
    # given in both games: turn (1 each), and Connect Four's evaluate (5): 7 of 42
    assert _scores(results)["boards"] == 7
    assert results["score"] == 7
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
    assert _scores(results)["boards"] == 21  # every tic-tac-toe kind lost, Connect Four's kept


def test_a_missing_board_class_is_one_sentence(run_cli, tmp_path):
    renamed = ("class C4Board(Board):", "class Board4(Board):")
    folder = _copy(SOLUTION, tmp_path, connectfour=renamed)
    results, stdout = _check(run_cli, folder, tmp_path)
    assert "connectfour.py defines no C4Board and C4Piece; keep the book's names" in stdout
    assert "Traceback" not in stdout


FALLING = """    # Diagonals going down to the right, from their upper left cell.
    for c in range(num_columns - segment_length + 1):
        for r in range(segment_length - 1, num_rows):
            segments.append([(c + t, r - t) for t in range(segment_length)])
"""


def test_a_board_missing_one_diagonal_direction_loses_board_points_named(run_cli, tmp_path):
    folder = _copy(SOLUTION, tmp_path, connectfour=(FALLING, ""))
    results, stdout = _check(run_cli, folder, tmp_path)
    assert _scores(results)["boards"] == 35  # Connect Four is_win (7), and nothing else
    assert (
        "C4Board.is_win misses the diagonal falling to the right: it says no win on this board, "
        "where B has four from column 0, row 3 to column 3, row 0"
    ) in stdout
    assert "|B| | | | | | |" in stdout  # the board, drawn
    chapter = next(t for t in results["tests"] if t["tags"][0] == "chapter")
    assert chapter["max_score"] == 0  # the chapter's tests are reported, worth nothing
    # the missing segments weaken evaluate too: a right is_win does not put the search right
    assert "exercise 2 test_block_position: 1 of 1 wrong" in chapter["output"]
    assert "not charged" not in chapter["output"]


def test_a_tic_tac_toe_win_test_of_2_4_8_is_charged_to_the_board_not_the_search(run_cli, tmp_path):
    folder = _copy(SOLUTION, tmp_path, tictactoe=("    (2, 4, 6),", "    (2, 4, 8),"))
    results, stdout = _check(run_cli, folder, tmp_path)
    scores = _scores(results)
    assert (scores["boards"], scores["search"]) == (35, 25)
    assert "TTTBoard.is_win misses the diagonal 2-4-6: it says no win on this board" in stdout
    search = next(t for t in results["tests"] if t["tags"][0] == "search")
    assert "not charged: the tic-tac-toe is_win fault explains it" in search["output"]


def test_the_chapters_exercise_3_one_gameboard_for_both_games_is_graded(run_cli, tmp_path):
    folder = tmp_path / "exercise3"
    folder.mkdir()
    for name in ("minimax.py", "board.py"):
        shutil.copy(SOLUTION / name, folder / name)
    shutil.copy(ROOT / "tests/data/board_abc_exercise3/gameboard.txt", folder / "gameboard.py")
    results, stdout = _check(run_cli, folder, tmp_path)
    scores = _scores(results)
    assert scores["boards"] == 42  # the book's GameBoard follows both games' rules
    assert (scores["rules"], scores["wins"]) == (8, 8)  # its Connect Four is played
    assert "all 6 checks right" in stdout  # the chapter's own tests, on GameBoard


@pytest.mark.slow
def test_pieces_numbered_not_lettered_are_read_by_their_names(run_cli, tmp_path):
    """``X = 1, O = -1, E = 0`` with ``__str__`` giving the letters plays the same game as
    the book's letters: the grader makes and reads such pieces by their names."""
    numbered = (
        '    X = "X"\n    O = "O"  # noqa: E741 - the letter O is the piece\'s name in the game\n'
        '    E = " "  # an empty square\n',
        "    X = 1\n    O = -1  # noqa: E741\n    E = 0\n",
    )
    lettered = (
        "        return str(self.value)",
        "        return {1: 'X', -1: 'O', 0: ' '}[self.value]",
    )
    folder = _copy(SOLUTION, tmp_path)
    text = (folder / "tictactoe.py").read_text()
    for old, new in (numbered, lettered):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    (folder / "tictactoe.py").write_text(text)
    results, stdout = _check(run_cli, folder, tmp_path)
    assert results["score"] == 100, stdout


def test_a_missing_file_is_one_sentence_and_exit_status_2(run_cli, tmp_path):
    folder = _copy(SOLUTION, tmp_path)
    (folder / "connectfour.py").unlink()
    done = run_cli("check", str(folder), expect_ok=False)
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"autograder: {folder}: connectfour.py is missing: hand in minimax.py, board.py, "
        "tictactoe.py and connectfour.py together (or, for the chapter's exercise 3, one "
        "GameBoard class for both games in place of tictactoe.py and connectfour.py)"
    )
    assert done.stdout == ""


def test_a_missing_file_is_the_reason_on_the_students_row(run_cli, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    with zipfile.ZipFile(inbox / "board-abc_kim.zip", "w") as archive:
        for name in ("minimax.py", "board.py", "connectfour.py"):
            archive.write(SOLUTION / name, name)
    out = tmp_path / "grades"
    done = run_cli("grade", str(inbox), "--assignment", "board-abc", "--out", str(out))
    assert done.returncode == 0, done.stderr
    with (out / "grades.csv").open() as handle:
        (row,) = list(csv.DictReader(handle))
    assert row["score"] == "0"
    assert row["reason"] == (
        "board-abc_kim.zip: tictactoe.py is missing: hand in minimax.py, board.py, tictactoe.py "
        "and connectfour.py together (or, for the chapter's exercise 3, one GameBoard class for "
        "both games in place of tictactoe.py and connectfour.py)"
    )
    for name in ("_Unbuilt", "importlib", "_gcd_import"):
        assert name not in (out / "grades.csv").read_text()


def test_a_file_that_fails_to_import_shows_the_students_line_not_the_kits(run_cli, tmp_path):
    folder = _copy(SOLUTION, tmp_path, connectfour=("from enum import Enum\n", "import numpyy\n"))
    results, stdout = _check(run_cli, folder, tmp_path)
    report = json.dumps(results)
    assert (
        "find_best_move was not called: importing connectfour.py raised ModuleNotFoundError: "
        "No module named 'numpyy' (the rubric allows only the standard library) (line"
    ) in report
    assert "import numpyy" in report  # the student's own line
    for kit in ("_Unbuilt", "<frozen", "importlib", "_gcd_import"):
        assert kit not in report, kit


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


def alphabeta(board, maximizing, original_player, max_depth=8, alpha=-1e9, beta=1e9):
    if board.is_win or board.is_draw or max_depth == 0:
        return board.evaluate(original_player)
    for move in board.legal_moves:
        result = alphabeta(board.move(move), not maximizing, original_player, max_depth - 1,
                           alpha, beta)
        if maximizing:
            alpha = max(result, alpha)
        else:
            beta = min(result, beta)
        if beta <= alpha:
            break
    return alpha if maximizing else beta


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
