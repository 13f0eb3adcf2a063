"""Seed 004's notebook homework (``connect4-notebook``): a notebook read as its cells, the game
cell left out and listed, and the student's own ``Agent`` and ``Connect4State`` graded.

``tests/data/notebook_course/Connect4_AlphaBeta.ipynb`` is the seed's notebook as its student handed
it in, built from the seed's cells (its last cell plays a person against the bot)."""

from __future__ import annotations

import csv
import json
import re
import subprocess
import sys
import types
import zipfile
from pathlib import Path

import nbformat
import pytest

from autograder.classroom.notebook import from_notebook, from_script_export
from autograder.errors import GraderError
from autograder.games import find_assignment, infer_assignment, looks_like
from autograder.games.connect4 import notebook, rules
from autograder.grading.rubric import load_rubric, reference
from autograder.play.judge import _looks_like
from tests.conftest import ROOT

SEED = ROOT / "tests" / "data" / "notebook_course" / "Connect4_AlphaBeta.ipynb"
BOARD = "connect4-notebook-8x6"  # the seed's own board


def _export(notebook: Path, target: Path) -> Path:
    """The notebook as ``jupyter nbconvert --to script`` writes it: markdown as comments, each
    code cell after an ``# In[ ]:`` marker."""
    book = nbformat.read(notebook, as_version=4)
    lines = ["#!/usr/bin/env python", "# coding: utf-8", ""]
    for cell in book.cells:
        if cell.cell_type == "markdown":
            lines += [f"# {line}".rstrip() for line in cell.source.split("\n")] + [""]
        else:
            lines += ["# In[ ]:", "", "", cell.source, "", "", ""]
    target.write_text("\n".join(lines))
    return target


def _edited(tmp_path: Path, name: str, old: str, new: str) -> Path:
    """The seed's notebook with ``old`` replaced by ``new`` in the cell that holds it."""
    book = nbformat.read(SEED, as_version=4)
    cells = [c for c in book.cells if c.cell_type == "code" and old in c.source]
    assert len(cells) == 1, old
    cells[0].source = cells[0].source.replace(old, new)
    path = tmp_path / name
    nbformat.write(book, path)
    return path


def _check(run_cli, path: Path, tmp_path: Path, *extra: str) -> tuple[dict, str]:  # type: ignore[no-untyped-def]
    out = tmp_path / f"{path.stem}.json"
    done = run_cli("check", str(path), "--json", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), " ".join(done.stdout.split())


def _scores(results: dict) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


# ---- the notebook as a module -------------------------------------------------------------------


def test_the_seeds_game_cell_is_left_out_and_listed():
    made = from_notebook(SEED.read_bytes(), "Connect4_AlphaBeta.ipynb")
    assert made.skipped == ((13, "it runs a game loop at top level (line 15: a while loop)"),)
    assert made.notes("nb.ipynb") == (
        "nb.ipynb: cell 13 was not run: it runs a game loop at top level (line 15: a while loop)",
    )
    assert "env.step()" not in made.source and "class Agent" in made.source


def test_the_script_export_is_the_same_cells(tmp_path):
    export = _export(SEED, tmp_path / "Connect4_AlphaBeta.py")
    made = from_script_export(export.read_text(), "x")
    assert made.skipped == from_notebook(SEED.read_bytes(), "x").skipped
    assert made.source.count("# %% cell ") == 13


def _in_process(source: str) -> dict:  # type: ignore[type-arg]
    """The notebook driver's handlers for ``source``, in this process (no sandbox)."""
    module = types.ModuleType("game")
    exec(source, module.__dict__)
    driver = types.ModuleType("_kit_driver")
    exec(compile(DRIVER.read_text(), str(DRIVER), "exec"), driver.__dict__)
    return driver.make_handlers(module, lambda v: v, repr, getattr)  # type: ignore[no-any-return]


TOP_FIRST = """
class Agent:
    def __init__(self, depth, sign):
        self.depth = depth


class Connect4State:
    def __init__(self, board, agents_sign, curr_player_number=-1):
        self.board, self.curr_player_number = board, curr_player_number
        self.isTerminal, self.value = False, 0

    def empty_board(width, height, agents_sign):
        return Connect4State([[0] * width for _ in range(height)], agents_sign)

    def apply_action(self, action, player):
        if self.board[0][action] != 0:
            return None
        row = len(self.board) - 1  # row 0 is the top: a disc falls to the last empty row
        while self.board[row][action] != 0:
            row -= 1
        board = [list(r) for r in self.board]
        board[row][action] = player
        return Connect4State(board, None, -player)
"""


def test_a_board_with_row_0_at_the_top_is_asked_which_way_it_faces_and_followed():
    handlers = _in_process(TOP_FIRST)
    variant = find_assignment(BOARD).variant
    check = next(c for c in notebook.checks(variant, 0) if c.criterion == "successor")
    reply = handlers["check"](dict(check.request))
    assert reply["facing"] == "top"
    assert check.judge(reply) is None  # the disc lands where the student's own rows say
    unasked = _in_process(TOP_FIRST.replace("def empty_board", "def _no_empty_board"))
    said = check.judge(unasked["check"](dict(check.request)))
    assert "the kit built your boards with row 0 at the bottom, as the course's notebook does" in (
        str(said)
    )
    assert "Connect4State.empty_board(width, height, agents_sign) and apply_action" in str(said)


def test_the_agent_must_play_plain_minimaxs_move_not_only_prune():
    """Alpha and beta swapped at the root prunes well and plays the leftmost column; min and
    max swapped plays the opponent's best: both are charged, with the values."""
    judge = notebook._search_judge(3, "prune")
    reply = {
        "made": 40,
        "minimax": 300,
        "alphabeta": 120,
        "deepest": 3,
        "moves": [0, 1, 2],
        "values": ["1.0", "5.0", "-2.0"],
        "player": 1,
    }
    assert judge({**reply, "move": 1}) is None
    said = str(judge({**reply, "move": 0}))
    assert "Agent(3, sign).play played 0, worth 1 by plain minimax at depth 3" in said
    assert "[1] are worth 5 (the highest, player 1 maximises)" in said
    low = str(judge({**reply, "player": -1, "move": 1}))
    assert "[2] are worth -2 (the lowest, player -1 minimises)" in low
    depth = notebook._search_judge(2, "depth")
    assert "does not return minimax's move" in str(depth({**reply, "deepest": 2, "move": 0}))
    walked = judge({**reply, "move": 0, "mutated": True})  # apply_action changes its state
    assert walked.explained_by == notebook.SUCCESSOR_KIND  # charged there, not here


def test_the_assignment_names_and_inference():
    assert find_assignment(BOARD).variant.columns == 8
    assert find_assignment("connect4-notebook").pack.move_call == "play"
    assert find_assignment("connect4-colab-8x6").name == BOARD
    sized = find_assignment("connect4-notebook-9x7")
    assert (sized.name, sized.variant.columns, sized.variant.rows) == (
        "connect4-notebook-9x7",
        9,
        7,
    )
    assert find_assignment("connect4").pack.move_call == "make_move"  # the default is unchanged
    found = infer_assignment(b"class Agent:\n    pass\nclass Connect4State:\n    pass\n", "game.py")
    assert found is not None
    assert found[0].name == "connect4-notebook"
    assert found[1] == "assignment connect4-notebook inferred from classes Agent and Connect4State"
    assert looks_like(["Agent"]) is None  # one of the two classes is no homework of ours


# ---- the notebook's depths, rubric data ------------------------------------------------------


def _rubric_with(tmp_path: Path, **values: int) -> Path:
    """The notebook's default rubric with ``table__key = value`` set in its tables."""
    text = (ROOT / "autograder/games/connect4/notebook.toml").read_text()
    for name, value in values.items():
        table, key = name.split("__")
        text = re.sub(rf"(?m)^{key} = \d+", f"{key} = {value}", text)
        assert f"{key} = {value}" in text, (table, key)
    path = tmp_path / "rubric.toml"
    path.write_text(text)
    return path


def test_the_depths_are_the_rubrics_and_reach_the_calls(tmp_path):
    assignment = find_assignment(BOARD)
    default = load_rubric(None, assignment.pack)
    assert dict(default.settings) == {
        "play.agent_depth": 4,
        "alphabeta.search_depth": 3,
        "depth.decision_depth": 2,
    }
    path = _rubric_with(tmp_path, play__agent_depth=2, alphabeta__search_depth=5)
    rubric = load_rubric(path, assignment.pack)
    configured = assignment.configured(dict(rubric.plan.settings))
    pos = rules.start(assignment.variant)
    assert configured.pack.state(pos)["depth"] == 2
    assert configured.entry.startswith("Agent(2, sign).play(")
    asked = configured.pack.checks(assignment.variant, 0)
    depths = {c.criterion: c.request["depth"] for c in asked if c.request["ask"] == "search"}
    assert depths == {"alphabeta": 5, "depth": 2}
    said = asked[0].judge({"made": 900, "minimax": 900, "alphabeta": 300, "deepest": 5})
    assert "Agent(5, sign).play made 900 states; plain minimax at depth 5" in str(said)
    assert assignment.pack.state(pos)["depth"] == 4  # the assignment itself is unchanged


@pytest.mark.parametrize(
    ("values", "sentence"),
    [
        (
            {"play__agent_depth": 0},
            "play.agent_depth is 0; it must be at least 1 (the agent looks at least one move "
            "ahead)",
        ),
        (
            {"alphabeta__search_depth": 1},
            "alphabeta.search_depth is 1; it must be at least 2 (at depth 1 alpha-beta has "
            "nothing to prune)",
        ),
    ],
)
def test_a_depth_too_small_is_one_sentence(run_cli, tmp_path, values, sentence):
    path = _rubric_with(tmp_path, **values)
    done = run_cli("check", str(SEED), "--rubric", str(path), expect_ok=False, timeout=120)
    assert done.returncode == 2
    assert f"{path}: {sentence}" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_a_configured_notebook_is_not_told_it_looks_like_itself():
    configured = find_assignment(BOARD).configured({"play.agent_depth": 3})
    assert _looks_like(configured, "Agent, Connect4State, AgentType") == ""
    kit = find_assignment("connect4")
    assert "grade it with --assignment connect4-notebook" in _looks_like(
        kit, "Agent, Connect4State"
    )


def test_only_the_notebook_takes_the_depths(tmp_path):
    kit = find_assignment("connect4")
    path = tmp_path / "kit.toml"
    path.write_text(kit.pack.rubric.read_text().replace("[play]\n", "[play]\nagent_depth = 4\n"))
    with pytest.raises(GraderError, match="unknown key 'play.agent_depth'"):
        load_rubric(path, kit.pack)
    table = reference(find_assignment(BOARD).pack)
    assert "| `play.agent_depth` | int |" in table and "(optional, default 4)" in table


# ---- isTerminal as the student's own code reads it -------------------------------------------

DRIVER = ROOT / "autograder" / "games" / "connect4" / "notebook_driver.py"


@pytest.mark.parametrize(
    "terminal",
    [
        "np.bool_(any(abs(sum(row[c : c + 4])) == 4 for row in self.board for c in range(5)))",
        "lambda: any(abs(sum(row[c : c + 4])) == 4 for row in self.board for c in range(5))",
    ],
    ids=["numpy bool_", "a method"],
)
def test_is_terminal_counts_as_the_students_if_reads_it(terminal):
    """numpy's bool_ is true or false (``is True`` is not), and an isTerminal() method is
    called: a four in a row is seen either way."""
    np = pytest.importorskip("numpy")
    module = types.ModuleType("game")
    exec(
        "class Agent:\n    def __init__(self, depth, sign):\n        pass\n"
        "class Connect4State:\n"
        "    def __init__(self, board, agents_sign, player=-1):\n"
        "        self.board = board\n"
        f"        self.isTerminal = {terminal}\n"
        "        self.value = 100000 if self.isTerminal else 0\n",
        {**module.__dict__, "np": np},
        module.__dict__,
    )
    driver = types.ModuleType("_kit_driver")
    exec(compile(DRIVER.read_text(), str(DRIVER), "exec"), driver.__dict__)
    handlers = driver.make_handlers(module, lambda v: v, repr, getattr)
    board = [[1, 1, 1, 1, 0, 0, 0, 0]] + [[0] * 8 for _ in range(5)]
    assert handlers["new"]({"side": "r", "state": None, "start": {"board": board}})["ok"]
    reply = handlers["check"]({"ask": "terminal", "state": {"board": board, "player": -1}})
    assert reply["terminal"] is True


@pytest.mark.slow
@pytest.mark.timeout(400)  # two gradings of a full notebook
@pytest.mark.long(15)
def test_the_seeds_notebook_scores_full_marks_and_its_export_the_same(run_cli, tmp_path):
    results, stdout = _check(run_cli, SEED, tmp_path, "--assignment", BOARD)
    assert results["score"] == 100, stdout
    assert "Connect4_AlphaBeta.ipynb: cell 13 was not run: it runs a game loop" in stdout
    export = _export(SEED, tmp_path / "Connect4_AlphaBeta.py")
    again, stdout = _check(run_cli, export, tmp_path, "--assignment", BOARD)
    assert _scores(again) == _scores(results), stdout
    assert "Connect4_AlphaBeta.py: cell 13 was not run" in stdout


@pytest.mark.slow
def test_a_missing_diagonal_loses_the_lines_with_its_board(run_cli, tmp_path):
    broken = _edited(
        tmp_path,
        "nodiagonal.ipynb",
        "directions = [(3, 0), (0, 3), (3, 3), (3, -3)]",
        "directions = [(3, 0), (0, 3), (3, 3)]",
    )
    results, stdout = _check(run_cli, broken, tmp_path)
    assert "assignment connect4-notebook inferred from classes Agent and Connect4State" in stdout
    assert _scores(results)["lines"] == 0
    output = next(t["output"] for t in results["tests"] if t["tags"][0] == "lines")
    assert "four in a falling diagonal: player 1 has four in a line (a falling diagonal), but " in (
        output
    )
    assert "|r|r|y| | | | |" in output  # the board: the diagonal held up by the other's discs


@pytest.mark.slow
def test_apply_action_writing_into_its_own_board_loses_points_with_the_board(run_cli, tmp_path):
    broken = _edited(
        tmp_path,
        "inplace.ipynb",
        "new_board = Connect4State.deepcopy(self.board)",
        "new_board = self.board",
    )
    results, stdout = _check(run_cli, broken, tmp_path, "--assignment", BOARD)
    scores = _scores(results)
    # apply_action wrong, next_states right: half the successor's points (docs/grading.md)
    assert (scores["successor"], scores["state"]) == (5, 0), stdout
    output = next(t["output"] for t in results["tests"] if t["tags"][0] == "successor")
    assert "wrote into the state's own board: it must return a new state" in output
    assert "position:" in output


def _checks_only(tmp_path: Path) -> Path:
    """The notebook's rubric without games, probes or tactics: only the checks of the search
    and the state are asked, as the full rubric asks them, in a second instead of a minute."""
    text = (ROOT / "autograder" / "games" / "connect4" / "notebook.toml").read_text()
    for old, new in (("games = 3 ", "games = 0 "), ("play_probes = 12", "play_probes = 0"),
                     ("probes = 8 ", "probes = 0 ")):  # fmt: skip
        assert old in text, old
        text = text.replace(old, new, 1)
    path = tmp_path / "checks-only.toml"
    path.write_text(text)
    return path


def test_iterative_deepening_that_prunes_keeps_the_pruning_points(run_cli, tmp_path):
    """Passes at depths 1, 2, ... add their states to the last pass's, so an iterative
    deepening agent makes as many states as plain minimax in all; it prunes, and is judged by
    the states it makes at the depth asked: fewer than plain minimax makes there."""
    book = nbformat.read(ROOT / "solution" / "connect4-notebook" / "connect4.ipynb", 4)
    call = 'self.search(state, {}, -float("inf"), float("inf"), maximising)'
    old = f"        action, _ = {call.format('self.depth')}\n"
    new = "        for depth in range(1, self.depth + 1):\n"
    new += f"            action, _ = {call.format('depth')}\n"
    (cell,) = [c for c in book.cells if c.cell_type == "code" and old in c.source]
    cell.source = cell.source.replace(old, new)
    nbformat.write(book, tmp_path / "deepening.ipynb")
    rubric = ("--assignment", "connect4-notebook", "--rubric", str(_checks_only(tmp_path)))
    results, stdout = _check(run_cli, tmp_path / "deepening.ipynb", tmp_path, *rubric)
    assert (_scores(results)["alphabeta"], _scores(results)["depth"]) == (20, 5), stdout


@pytest.mark.slow
def test_a_search_without_pruning_or_deeper_than_asked_is_charged(run_cli, tmp_path):
    rubric = ("--assignment", BOARD, "--rubric", str(_checks_only(tmp_path)))
    results, stdout = _check(run_cli, SEED, tmp_path, *rubric)
    assert (_scores(results)["alphabeta"], _scores(results)["depth"]) == (20, 5), stdout
    book = nbformat.read(SEED, as_version=4)
    for cell in book.cells:
        for cut in (
            "        if minEval <= alpha:\n            break",
            "        if beta <= maxEval:\n            break",
        ):
            cell.source = cell.source.replace(cut, "        pass")
    nbformat.write(book, tmp_path / "noprune.ipynb")
    results, stdout = _check(run_cli, tmp_path / "noprune.ipynb", tmp_path, *rubric)
    assert (_scores(results)["alphabeta"], _scores(results)["depth"]) == (0, 5), stdout
    assert "it does not prune" in stdout
    deeper = _edited(
        tmp_path, "deeper.ipynb", "self.depth = decision_depth", "self.depth = decision_depth + 1"
    )
    results, stdout = _check(run_cli, deeper, tmp_path, *rubric)
    assert (_scores(results)["alphabeta"], _scores(results)["depth"]) == (20, 0), stdout
    assert "decision_depth 2 is not respected" in stdout


@pytest.mark.slow
def test_an_error_reads_cell_and_line(run_cli, tmp_path):
    broken = _edited(tmp_path, "nameerror.ipynb", "    index = 0\n", "    index = undefined_name\n")
    results, stdout = _check(run_cli, broken, tmp_path, "--assignment", BOARD)
    assert results["score"] < 50
    assert "cell 7, line 16 in apply_action: index = undefined_name" in json.dumps(results)


@pytest.mark.slow
def test_another_homework_is_told_which_assignment_it_looks_like(run_cli, tmp_path):
    results, _ = _check(run_cli, SEED, tmp_path, "--assignment", "connect4")
    assert results["score"] == 0
    assert results["tests"][0]["output"].startswith(
        "game.py defines no class Connect4Player (it defines: Agent, AgentType, Connect4Env, "
        "Connect4State, Enum); the course's driver creates Connect4Player(), so keep that name; "
        "it looks like the Colab notebook course (Agent and Connect4State): grade it with "
        "--assignment connect4-notebook"
    )


@pytest.mark.slow
@pytest.mark.timeout(400)  # two gradings of a full notebook
@pytest.mark.long(12)
def test_canvas_notebooks_and_a_zipped_one_are_graded(run_cli, tmp_path):
    download = tmp_path / "download"
    download.mkdir()
    (download / "khalafiilya_123_456_Connect4_AlphaBeta.ipynb").write_bytes(SEED.read_bytes())
    with zipfile.ZipFile(download / "doejane_124_457_connect4.zip", "w") as archive:
        archive.write(SEED, "hw4/hw.ipynb")
    out = tmp_path / "out"
    done = run_cli("grade", str(download), "-a", BOARD, "--out", str(out))
    assert done.returncode == 0, done.stderr
    with (out / "grades.csv").open() as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert {s: (r["score"], r["status"]) for s, r in rows.items()} == {
        "123": ("100", "graded"),
        "124": ("100", "graded"),
    }
    feedback = (out / "students" / "124" / "feedback.md").read_text()
    assert "hw.ipynb: cell 13 was not run: it runs a game loop at top level" in feedback
    assert str(tmp_path) not in (out / "grades.csv").read_text()


# ---- the material: starter, answer key, solution and the example class ------------------------


def test_the_notebooks_and_the_example_class_are_current():
    """The starter's, answer key's and solution's notebooks and the example class are what
    examples/make_connect4_notebook_examples.py writes, byte for byte."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "make_connect4_notebook_examples.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.slow
@pytest.mark.timeout(400)  # six notebooks, graded whole
@pytest.mark.long(25)
def test_the_example_class_keeps_its_grades(run_cli, tmp_path):
    """The docs' command on examples/connect4-notebook: the points per criterion on record in
    tests/data/connect4_notebook_example_grades.csv, the roster matched whole."""
    out = tmp_path / "grades"
    folder = ROOT / "examples" / "connect4-notebook"
    done = run_cli(
        "grade",
        str(folder / "submissions"),
        "--assignment",
        BOARD,
        "--out",
        str(out),
        "--roster",
        str(folder / "roster.csv"),
    )
    assert done.returncode == 0, done.stderr
    assert "roster:" not in done.stderr
    with (ROOT / "tests" / "data" / "connect4_notebook_example_grades.csv").open() as handle:
        expected = list(csv.DictReader(handle))
    columns = tuple(expected[0])
    with (out / "grades.csv").open() as handle:
        graded = [tuple(row[c] for c in columns) for row in csv.DictReader(handle)]
    assert graded == [tuple(row[c] for c in columns) for row in expected]


@pytest.mark.slow
def test_an_agent_that_is_a_person_by_default_is_asked_as_a_bot(run_cli, tmp_path):
    """The driver passes ``AgentType.Bot`` where the notebook has it: an Agent whose default
    mode is Human still plays its search, never ``input()``."""
    human = _edited(
        tmp_path,
        "human.ipynb",
        "mode:AgentType = AgentType.Bot",
        "mode:AgentType = AgentType.Human",
    )
    results, stdout = _check(run_cli, human, tmp_path, "--assignment", BOARD)
    assert results["score"] == 100, stdout


@pytest.mark.slow
def test_a_syntax_error_names_its_cell(run_cli, tmp_path):
    broken = _edited(tmp_path, "syntax.ipynb", "def next_states(self):", "def next_states(self:")
    results, _ = _check(run_cli, broken, tmp_path, "--assignment", BOARD)
    assert results["score"] == 0
    assert results["tests"][0]["output"].startswith(
        "the notebook has a syntax error ('(' was never closed at cell 8, line 1); fix that cell "
        "and run it"
    )


# ---- written from the seed as other students write it ------------------------------------------

STUDENTS = ROOT / "tests" / "data" / "notebook_students"


@pytest.mark.slow
@pytest.mark.timeout(400)
@pytest.mark.parametrize(
    ("name", "skipped"),
    [
        # whole classes with their methods, helpers at module level, magics, a game cell last
        ("Connect4_classes.ipynb", "cell 5 was not run: it runs a game loop"),
        # a script export whose board is a numpy array: isTerminal is numpy's bool_
        ("connect4_numpy.py", "cell 7 was not run: it runs a game loop"),
    ],
)
def test_other_students_notebooks_get_full_marks(run_cli, tmp_path, name, skipped):
    results, stdout = _check(run_cli, STUDENTS / name, tmp_path, "--assignment", BOARD)
    assert results["score"] == 100, stdout
    assert _scores(results)["lines"] == 10, stdout  # numpy's True is True
    assert skipped in stdout
