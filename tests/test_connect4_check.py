"""``autograder check`` on Connect Four, as a student runs it: the solution and the answer key
get full marks, the starter what an unfinished homework earns, each broken rule its message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.homework import check as _check
from tests.homework import scores as _scores

SOLUTION = ROOT / "solution" / "connect4" / "game.py"
STARTER = ROOT / "starter" / "connect4" / "game.py"
KEY = ROOT / "answer_key" / "connect4" / "game.py"


def _student(tmp_path: Path, source: str) -> Path:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(source)
    return folder / "game.py"


@pytest.mark.slow
@pytest.mark.parametrize("path", [SOLUTION, KEY], ids=["solution", "answer key"])
@pytest.mark.long(10)
def test_the_solution_and_the_answer_key_score_100(path, run_cli, tmp_path):
    results, stdout = _check(run_cli, path, tmp_path)
    assert results["score"] == 100, stdout
    assert "assignment connect4 inferred from class Connect4Player" in stdout
    assert "win in 1: 5 of 5; block: 5 of 5" in stdout  # ten positions, all right


@pytest.mark.slow
def test_the_starter_loses_the_rules_on_full_columns_and_wins_nothing(run_cli, tmp_path):
    """As shipped it drops into a random column: legal and exact on most probes, but a full
    column now and then (rules 0), with seed 0 it loses all three games, and the tactical
    positions it answers right by chance earn nothing: no more than moves at random get."""
    results, stdout = _check(run_cli, STARTER, tmp_path)
    assert _scores(results) == {
        "rules": 0,
        "state": 10,
        "format": 5,
        "time": 10,
        "wins": 0,
        "tactics": 0,
        "output": 0,
        "packaging": 0,
    }
    assert "is full: all 6 of its rows hold a disc" in stdout


_CHOICE = "        return best_column\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("change", "points", "message"),
    [
        (
            "        return [best_column]\n",
            {"rules": 0, "format": 0, "wins": 0, "state": 10, "time": 10},
            "got [3] (a list) (return the column alone, not a list)",
        ),
        (
            "        return True if best_column == 1 else best_column\n",
            {"rules": 0, "format": 0, "state": 10},
            "make_move returned True, a bool: return the column, an int",
        ),
        (
            "        state[0][0] = self.opp  # a disc floating in the top corner\n" + _CHOICE,
            {"state": 0, "format": 5},
            "make_move changed the state passed to it: square [0][0] (' ' → '",
        ),
        (
            '        print("column", best_column)\n' + _CHOICE,
            {"output": -10, "rules": 25, "wins": 15},
            "printed in",
        ),
    ],
    ids=["a list", "a bool", "changes the state", "prints"],
)
def test_one_broken_rule_costs_its_points_and_says_why(change, points, message, run_cli, tmp_path):
    source = KEY.read_text()
    assert source.count(_CHOICE) == 1
    results, stdout = _check(run_cli, _student(tmp_path, source.replace(_CHOICE, change)), tmp_path)
    scores = _scores(results)
    assert {k: scores[k] for k in points} == points, stdout
    assert message in stdout


@pytest.mark.slow
def test_a_connect4_board_of_another_size_is_graded_by_name(run_cli, tmp_path):
    results, stdout = _check(run_cli, KEY, tmp_path, "--assignment", "connect4-8x6")
    assert results["score"] == 100, stdout
    assert "assignment: connect4-8x6 (8 columns by 6 rows, 4 in a line wins)" in stdout


# ---- tactics judged by value: AIs that beat the random player but do not see a threat --------

_LEFT_DIAGONAL = """        for row in range(rows - 3):
            for col in range(3, columns):
                piece = state[row][col]
                if piece != " " and all(state[row + k][col - k] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

"""


def _one_diagonal_missing() -> str:
    """The answer key whose evaluation never looks down to the left: not in game_value, not in
    the heuristic's windows."""
    source = KEY.read_text()
    windows = "for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):"
    assert source.count(_LEFT_DIAGONAL) == 1 and source.count(windows) == 1
    source = source.replace(_LEFT_DIAGONAL, "")
    return source.replace(windows, "for d_row, d_col in ((0, 1), (1, 0), (1, 1)):")


_SCRATCH_SEARCH = '''
    def make_move(self, state) -> int:
        """Choose a column: the search plays its discs on self.board and takes them back."""
        columns = len(state[0])
        order = sorted(range(columns), key=lambda col: abs(2 * col - (columns - 1)))
        saved = self.board
        self.board = [row[:] for row in state]
        best_column, best_value = None, -2.0
        for col in order:
            if drop_row(state, col) is None or drop_row(self.board, col) is None:
                continue
            self.place_piece(col, self.my_piece)
            value = self.search(1, False)
            self.take_back(col)
            if value > best_value:
                best_column, best_value = col, value
        self.board = saved
        if best_column is None:  # the search found no move: any column that is not full
            best_column = next(col for col in order if drop_row(state, col) is not None)
        return best_column

    def take_back(self, column):
        """Remove the disc last dropped into column of self.board."""
        row = drop_row(self.board, column)  # the empty cell above the disc, not the disc
        if row is not None:
            self.board[row][column] = " "

    def search(self, depth, mine):
        """Minimax on self.board: the AI to move when mine, else the opponent."""
        value = self.game_value(self.board)
        if value != 0:
            return value * (1 - WIN_STEP * depth)
        if depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(self.board)
        scores = []
        for col in range(len(self.board[0])):
            if drop_row(self.board, col) is None:
                continue
            self.place_piece(col, self.my_piece if mine else self.opp)
            scores.append(self.search(depth + 1, not mine))
            self.take_back(col)
        if not scores:
            return 0
        return max(scores) if mine else min(scores)
'''


def _search_writes_its_board() -> str:
    """The answer key searching on its own board, disc by disc, taking each back from the
    wrong cell: the discs pile up, so it searches almost nothing, fast, and legally."""
    source = KEY.read_text()
    start = source.index("\n    def make_move(self, state) -> int:")
    end = source.index("\n    def succ(self, state, piece):")
    return source[:start] + _SCRATCH_SEARCH + source[end:]


@pytest.mark.slow
@pytest.mark.parametrize(
    "source",
    [_one_diagonal_missing, _search_writes_its_board],
    ids=["one diagonal missing", "search writes its own board"],
)
def test_an_ai_blind_to_threats_loses_tactics_points_with_the_board_and_the_right_column(
    source, run_cli, tmp_path
):
    """Both beat the random player and break no rule; on the tactical positions the exact
    solver shows their moves give up a win, and names the columns that keep it."""
    results, _ = _check(run_cli, _student(tmp_path, source()), tmp_path)
    scores = _scores(results)
    fine = {"rules": 25, "state": 10, "format": 5, "time": 10}
    assert {k: scores[k] for k in fine} == fine
    assert scores["wins"] >= 8
    assert scores["tactics"] < 35 and results["score"] < 100
    tactics = next(t for t in results["tests"] if t["tags"][0] == "tactics")["output"]
    miss = re.search(
        r"(turns the (win|draw) into a (draw|loss) with best play|lets the opponent win next "
        r"move); (.*)",
        tactics,
    )
    assert miss is not None, tactics
    assert re.search(r"column \d", miss.group(4)), miss.group(4)
    assert "position before the move:" in tactics and "0 1 2 3 4 5 6" in tactics
