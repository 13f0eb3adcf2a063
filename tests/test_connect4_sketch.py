"""Seed 003's homework as written: a Processing Python-mode sketch graded headless. The move is
the one disc ``aiBrain(board).autoPlay()`` adds to the student's own ``GameBoard``; the
chapter's final sketch (section 9.1.7, in tests/data/sketch_course/) earns full marks, as a folder
and as a zip."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.classroom.check import open_one
from autograder.classroom.intake import holds_files, open_submission
from autograder.errors import GraderError
from autograder.games import find_assignment
from autograder.games.connect4 import rules
from autograder.games.connect4.sketch import format_problem, missing, read_move, render, state
from autograder.games.connect4.variants import VARIANTS
from tests.conftest import ROOT

SEED = ROOT / "tests" / "data" / "sketch_course"
DRIVER = ROOT / "autograder" / "games" / "connect4" / "sketch_driver.py"
RUBRIC = ROOT / "autograder" / "games" / "connect4" / "sketch.toml"
STANDARD = VARIANTS["connect4"]


def _position(*columns: int) -> rules.Position:
    pos = rules.start(STANDARD)
    for column in columns:
        pos = rules.play(pos, column)
    return pos


def _after(pos: rules.Position, cells: dict[tuple[int, int], str], books: str) -> list[str]:
    """The driver's reply for ``pos`` with ``cells`` set: six rows of letters and the books."""
    rows = [["".join(c or ".") for c in row] for row in state(pos)]
    for (r, c), letter in cells.items():
        rows[r][c] = letter
    return ["".join(row) for row in rows] + [books]


# ---- the grader's side: the position in, the disc out ------------------------------------------


def test_the_side_to_move_is_yellow_on_the_students_board_row_0_at_the_top():
    pos = _position(3)  # red dropped into column 3; yellow, the AI, to move
    grid = state(pos)
    assert grid[5][3] == "R" and grid[0] == [""] * 7
    pos = _position(3, 4)  # now red moves: the AI is red in the kit's terms, 'Y' on its board
    assert state(pos)[5][3] == "Y" and state(pos)[5][4] == "R"
    assert render(pos).splitlines()[5] == "|.|.|.|Y|R|.|.|"


def test_the_one_yellow_disc_added_is_the_move():
    pos = _position(3)
    assert read_move(_after(pos, {(5, 2): "Y"}, "0011000|R|0"), pos) == 2
    assert read_move(_after(pos, {(4, 3): "Y"}, "0002000|R|0"), pos) == 3
    assert read_move(4, pos) == 4  # a replay's ply (the HTML feedback's), as plain data


def test_reports_say_what_autoplay_did_not_a_value_it_returned():
    """``autoPlay`` returns nothing: a report says where it dropped its disc, or the board it
    left, never the driver's raw list as a value returned."""
    from autograder.games import find_assignment

    pack, pos = find_assignment("connect4-sketch").pack, _position(3)
    assert pack.shown(_after(pos, {(5, 2): "Y"}, "0011000|R|0"), pos) == (
        "nothing; it dropped a disc in column 2"
    )
    twice = pack.shown(_after(pos, {(5, 2): "Y", (5, 4): "Y"}, "0011000|R|0"), pos)
    assert twice.startswith("nothing; it left the board as ....... / ") and "|R|" not in twice
    assert pack.shown(["not", "a", "board"], pos) == "['not', 'a', 'board']"


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (
            {(5, 2): "Y", (5, 4): "Y"},
            "autoPlay() added 2 discs (row 5, column 2 and row 5, column 4)",
        ),
        ({(5, 2): "R"}, "autoPlay() put a red disc 'R' at row 5, column 2: the AI plays 'Y'"),
        ({(3, 3): "Y"}, "above empty spots: a disc dropped into column 3 lands on row 4"),
        ({(5, 3): "Y"}, "autoPlay() changed row 5, column 3, which held 'R'"),
        ({}, "autoPlay() added no disc to the board"),
    ],
    ids=["two discs", "wrong colour", "floating", "overwritten", "none"],
)
def test_anything_but_one_yellow_disc_is_a_rules_fault_shown_with_the_board(cells, message):
    pos = _position(3)
    with pytest.raises(rules.IllegalMoveError) as caught:
        read_move(_after(pos, cells, "0001000|R|0"), pos)
    assert message in str(caught.value)
    if cells:  # the board after the move, as the student's code left it
        assert "the board after it, top row first: ......." in str(caught.value)


def test_a_disc_put_by_hand_leaves_the_boards_bookkeeping_behind():
    pos = _position(3)
    after = _after(pos, {(5, 2): "Y"}, "0001000|Y|0")
    assert read_move(after, pos) == 2
    problem = format_problem(after, pos)
    assert problem is not None and "colHeight is [0, 0, 0, 1, 0, 0, 0]" in problem
    assert "[0, 0, 1, 1, 0, 0, 0] discs" in problem
    turn = format_problem(_after(pos, {(5, 2): "Y"}, "0011000|Y|0"), pos)
    assert turn is not None and "currentPlayer is still 'Y'" in turn
    assert format_problem(_after(pos, {(5, 2): "Y"}, "0011000|R|0"), pos) is None
    assert format_problem(_after(pos, {(5, 2): "Y"}, "-|?|?"), pos) is None  # unsure: no charge
    three = _position(0, 1, 0, 1, 0, 6)  # the side to move wins in column 0: no turn to pass
    assert format_problem(_after(three, {(2, 0): "Y"}, "4200001|Y|?"), three) is None
    assert format_problem(_after(three, {(5, 2): "Y"}, "3210001|Y|?"), three) is not None


def test_the_sketch_needs_the_chapters_classes_in_any_of_its_files():
    board = b"class GameBoard(object):\n    pass\n\n\nclass Spot(object):\n    pass\n"
    assert missing({"gameBoard.py": board, "ai.py": b"class AIBrain(object):\n    pass\n"}) is None
    problem = missing({"gameBoard.py": board})
    assert problem == (
        "no file of the sketch defines class aiBrain (the chapter's AIBrain.py): hand in the "
        "sketch folder (connectFour_AI.pyde, gameBoard.py, spot.py and AIBrain.py), or its zip"
    )


def test_a_sketch_folder_graded_as_another_homework_is_told_which_one(run_cli):
    done = run_cli("check", str(SEED), "--assignment", "connect4", expect_ok=False)
    assert done.returncode != 0
    assert "holds no game.py" in done.stderr
    assert "it is a Processing sketch: grade it with --assignment connect4-sketch" in done.stderr


def test_a_board_homework_with_a_gameboard_file_stays_the_board_homework(tmp_path):
    """The book's exercise 3 keeps one GameBoard class, perhaps in gameBoard.py: with the
    book's minimax.py beside it, the folder is the Board homework, not the sketch."""
    folder = tmp_path / "student"
    shutil.copytree(ROOT / "solution" / "board-abc", folder)
    shutil.copy(ROOT / "tests/data/board_abc_exercise3/gameboard.txt", folder / "gameBoard.py")
    work = tmp_path / "work"
    work.mkdir()
    _, assignment, _ = open_one(folder, None, work)
    assert assignment.name == "board-abc"
    sketch = tmp_path / "work2"
    sketch.mkdir()
    _, assignment, _ = open_one(SEED, None, sketch)
    assert assignment.name == "connect4-sketch"


def test_the_sketch_is_its_own_assignment_on_the_standard_board_only():
    sketch = find_assignment("connect4-processing")
    assert sketch.name == "connect4-sketch" and sketch.main_file == "gameBoard.py"
    assert sketch.game.name == "connect4" and sketch.variant.name == "connect4"
    with pytest.raises(KeyError):
        find_assignment("connect4-sketch-8x6")


# ---- the child's side: headless Processing ---------------------------------------------------


def _driven(folder: Path, script: str) -> subprocess.CompletedProcess[str]:
    """``script`` run in a fresh Python after the driver is loaded (as the runner loads it) and
    ``gameBoard`` imported from ``folder``; ``handlers`` and ``state`` are set for it."""
    prelude = f"""
import json, sys, types
sys.path.insert(0, {str(folder)!r})
driver = types.ModuleType("_kit_driver")
exec(compile(open({str(DRIVER)!r}).read(), {str(DRIVER)!r}, "exec"), driver.__dict__)
import gameBoard
encode = lambda value: value
handlers = driver.make_handlers(gameBoard, encode, repr, lambda module, name: None)
"""
    return subprocess.run(
        [sys.executable, "-c", prelude + script],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=folder,
    )


def test_modules_drawing_at_import_load_headless_and_autoplay_drops_one_disc(tmp_path):
    folder = tmp_path / "sketch"
    shutil.copytree(SEED, folder)
    spot = folder / "spot.py"
    spot.write_text(
        "size(700, 600)\nbackground(200)\nellipseMode(CENTER)\nfont = createFont('Arial', 32)\n"
        "textFont(font)\nfill(color(255, 0, 0))\nstart = millis()\n"
        "middle = floor(constrain(random(10), 0, 7) + dist(0, 0, 3, 4) * 0)\n" + spot.read_text()
    )
    grid = [[""] * 7 for _ in range(6)]
    grid[5][3] = "R"
    done = _driven(
        folder,
        f"handlers['new']({{'state': {grid!r}, 'start': None}})\n"
        "print(json.dumps(handlers['move']({})), file=sys.stderr)\n",
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stderr.strip().splitlines()[-1])
    rows, books = reply["move"][:6], reply["move"][6]
    assert sum(row.count("Y") for row in rows) == 1 and rows[5][3] == "R"
    assert books.endswith("|R|0")  # trigger() passed the turn to red


def test_an_aibrain_importing_the_board_back_imports_as_in_processing(tmp_path):
    """gameBoard.py is imported first, as the .pyde imports it: an AIBrain.py that imports
    gameBoard in turn still defines aiBrain before the board needs it."""
    folder = tmp_path / "sketch"
    shutil.copytree(SEED, folder)
    brain = folder / "AIBrain.py"
    brain.write_text("from gameBoard import *\n" + brain.read_text())
    done = _driven(
        folder,
        "handlers['new']({'state': None, 'start': [[''] * 7 for _ in range(6)]})\n"
        "print(json.dumps(handlers['move']({})), file=sys.stderr)\n",
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stderr.strip().splitlines()[-1])
    assert sum(row.count("Y") for row in reply["move"][:6]) == 1


def test_a_board_that_renames_its_bookkeeping_is_set_up_all_the_same(tmp_path):
    """A student's own names for the column heights and the turn (a list of seven zeros, a
    'R' under a name with "turn" in it) are set to the position too: the disc lands on top."""
    folder = tmp_path / "sketch"
    shutil.copytree(SEED, folder)
    board = folder / "gameBoard.py"
    board.write_text(
        board.read_text().replace("colHeight", "heights").replace("currentPlayer", "turn")
    )
    brain = folder / "AIBrain.py"
    brain.write_text(brain.read_text().replace("currentPlayer", "turn"))
    grid = [[""] * 7 for _ in range(5)] + [["R", "Y", "R", "Y", "R", "Y", "R"]]
    done = _driven(
        folder,
        f"handlers['new']({{'state': {grid!r}, 'start': None}})\n"
        "print(json.dumps(handlers['move']({})), file=sys.stderr)\n",
    )
    assert done.returncode == 0, done.stderr
    after = json.loads(done.stderr.strip().splitlines()[-1])["move"]
    rows = after[:6]
    assert rows[5] == "RYRYRYR" and rows[4].count("Y") == 1 and rows[4].count(".") == 6
    assert after[6] == "-|?|0"  # no colHeight or currentPlayer to judge: nothing charged


def test_a_sketch_without_the_chapters_grid_is_told_what_to_keep(tmp_path):
    folder = tmp_path / "sketch"
    shutil.copytree(SEED, folder)
    board = folder / "gameBoard.py"
    board.write_text(board.read_text().replace("self.grids", "self.cells"))
    done = _driven(
        folder,
        "handlers['new']({'state': None, 'start': [[''] * 7] * 6})\n"
        "print(json.dumps(handlers['move']({})), file=sys.stderr)\n",
    )
    assert done.returncode == 0, done.stderr
    reply = json.loads(done.stderr.strip().splitlines()[-1])
    assert reply["ok"] is False
    assert "keep self.grids[row][column].value" in reply["error"]


# ---- whole sketches, graded -------------------------------------------------------------------


def _check(run_cli, path: Path, tmp_path: Path, *extra: str) -> tuple[dict, str]:  # type: ignore[no-untyped-def]
    out = tmp_path / "results.json"
    done = run_cli("check", str(path), "--json", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), " ".join(done.stdout.split())


def _scores(results: dict) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


def _zipped(folder: Path, target: Path) -> Path:
    """``folder`` zipped as Processing users zip a sketch: the folder itself inside."""
    with zipfile.ZipFile(target, "w") as archive:
        for file in sorted(folder.iterdir()):
            archive.write(file, f"connectFour_AI/{file.name}")
    return target


def _staged(path: Path, work: Path) -> tuple[str, tuple[str, ...], dict[str, bytes]]:
    """What ``check`` grades for ``path``: its assignment, its notes and the staged files."""
    submission, assignment, notes = open_one(path, None, Path(work))
    root = submission.source_dir
    files = {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}
    return assignment.name, notes, files


def test_the_chapters_sketch_zipped_is_graded_as_its_folder(tmp_path):
    """Zipped as Processing users zip a sketch, the chapter's sketch is the same submission to
    ``check`` as its folder: the same assignment inferred from gameBoard.py, the same notes, the
    same files staged. (The chapter's sketch itself is graded whole, 100 with every tactic
    right, as wchen of the example class: ``test_the_example_class_keeps_its_grades``.)"""
    (tmp_path / "folder").mkdir()
    (tmp_path / "zip").mkdir()
    folder = _staged(SEED, tmp_path / "folder")
    zipped = _staged(_zipped(SEED, tmp_path / "connectFour_AI.zip"), tmp_path / "zip")
    assert zipped == folder
    assert folder[0] == "connect4-sketch"
    assert "assignment connect4-sketch inferred from gameBoard.py" in folder[1]
    assert "gameBoard.py" in folder[2]


SOLUTION = ROOT / "solution" / "connect4-sketch"


def test_the_strong_solution_makes_a_double_threat_headless(tmp_path):
    """The solution's AIBrain (bitboards, iterative deepening) under the kit's Processing
    stand-ins: with two discs in the bottom row it makes the open three that wins by force."""
    grid = [[""] * 7 for _ in range(4)]
    grid += [["", "R", "R", "", "", "", ""], ["", "Y", "Y", "", "", "", "R"]]
    done = _driven(
        SOLUTION,
        f"handlers['new']({{'state': {grid!r}, 'start': None}})\n"
        "print(json.dumps(handlers['move']({})), file=sys.stderr)\n",
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stderr.strip().splitlines()[-1])["move"][:6]
    assert rows[5] == ".YYY..R"  # both ends open: red cannot block both


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.long(21)
def test_the_strong_solution_gets_full_marks(run_cli, tmp_path):
    results, stdout = _check(run_cli, SOLUTION, tmp_path)
    assert results["score"] == 100, stdout
    assert "win in 1: 6 of 6; block: 6 of 6" in stdout  # twelve positions, all right


RENAMED = ROOT / "tests" / "data" / "sketch_students" / "renamed_ai"


def test_an_ai_class_under_another_name_is_the_one_with_autoplay():
    board = b"class GameBoard(object):\n    pass\n\n\nclass Spot(object):\n    pass\n"
    brain = (
        b"def helper(board):\n    return 3\n\n\nclass Computer(object):\n    def autoPlay(self):\n"
    )
    assert missing({"gameBoard.py": board, "computer.py": brain + b"        pass\n"}) is None
    assert "class aiBrain" in str(missing({"gameBoard.py": board, "computer.py": b"x = 1\n"}))


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_sketch_whose_ai_is_renamed_with_module_helpers_gets_full_marks(run_cli, tmp_path):
    """Written from the seed as a student would: aiBrain renamed ComputerPlayer in computer.py,
    module-level helpers beside it, gameBoard.py importing it."""
    results, stdout = _check(run_cli, RENAMED, tmp_path)
    assert results["score"] == 100, stdout


ONE_PYDE = ROOT / "tests" / "data" / "sketch_students" / "one_pyde"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_sketch_with_its_classes_in_the_pyde_is_graded_with_the_pyde_imported(run_cli, tmp_path):
    """No gameBoard.py: Spot, aiBrain and GameBoard in connectFour_AI.pyde itself, beside
    setup(), draw() and mousePressed(), which are never run."""
    results, stdout = _check(run_cli, ONE_PYDE, tmp_path)
    assert results["score"] == 100, stdout
    assert "connectFour_AI.pyde defines the sketch's classes: it is imported in place of" in stdout


def test_a_gameboard_file_in_another_case_is_taken_as_processing_takes_it(tmp_path):
    folder = tmp_path / "connectFour_AI"
    shutil.copytree(SEED, folder)
    (folder / "gameBoard.py").rename(folder / "gameboard.py")
    files = find_assignment("connect4-sketch").pack.files
    assert holds_files(folder, files)
    with pytest.raises(
        GraderError
    ) as refused:  # the .pyde imports gameBoard: no Processing runs it
        open_submission(folder, tmp_path / "one", "gameBoard.py", files)
    assert str(refused.value).endswith(
        "the sketch has gameboard.py where Processing imports gameBoard.py: rename it "
        "gameBoard.py (Processing's Python matches an import's case even on a "
        "case-insensitive file system, so the sketch does not run there either)"
    )
    pyde = folder / "connectFour_AI.pyde"
    pyde.write_text(pyde.read_text().replace("from gameBoard import", "from gameboard import"))
    taken = open_submission(folder, tmp_path / "two", "gameBoard.py", files)
    assert (taken.source_dir / "gameBoard.py").read_bytes() == (
        folder / "gameboard.py"
    ).read_bytes()
    assert taken.notes == (
        "gameboard.py is imported as gameBoard.py, as the sketch's connectFour_AI.pyde imports it",
    )


def _quick_rubric(tmp_path: Path) -> Path:
    """The sketch's rubric with no games and three probes: enough to see a rules fault."""
    text = RUBRIC.read_text()
    text = text.replace("games = 2 ", "games = 0 ").replace("play_probes = 8 ", "play_probes = 3 ")
    text = text.replace("probes = 6\n", "probes = 0\n")
    path = tmp_path / "quick.toml"
    path.write_text(text)
    return path


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            (
                "        self.gameBoard.trigger(bestMove)\n",
                "        self.gameBoard.trigger(bestMove)\n"
                "        self.gameBoard.trigger(bestMove)\n",
            ),
            "autoPlay() added 2 discs",
        ),
        (
            (
                "        self.gameBoard.trigger(bestMove)\n",
                "        self.gameBoard.swapPlayer()\n        self.gameBoard.trigger(bestMove)\n",
            ),
            "autoPlay() put a red disc 'R'",
        ),
    ],
    ids=["two discs", "wrong colour"],
)
def test_an_autoplay_that_breaks_the_rules_loses_them_with_the_board(
    change, message, run_cli, tmp_path
):
    folder = tmp_path / "sketch"
    shutil.copytree(ROOT / "answer_key" / "connect4-sketch", folder)
    brain = folder / "AIBrain.py"
    text = brain.read_text()
    assert text.count(change[0]) == 1
    brain.write_text(text.replace(*change))
    rubric = _quick_rubric(tmp_path)
    results, stdout = _check(run_cli, folder, tmp_path, "--rubric", str(rubric))
    assert _scores(results)["rules"] == 0, stdout
    assert message in stdout
    assert "position before the move:" in stdout and "the board after it" in stdout


def test_the_example_files_are_current():
    """examples/connect4-sketch is what its script writes, byte for byte."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_connect4_sketch_examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.long(70)
def test_the_example_class_keeps_its_grades(run_cli, tmp_path):
    """The README's command on examples/connect4-sketch: the grades on record."""
    from tests.test_examples import _grade_example

    out, done = _grade_example(
        run_cli, tmp_path, "connect4-sketch", "connect4_sketch", ("tactics",)
    )
    assert "roster:" not in done.stderr
