"""A notebook handed in, read as the grader reads it for any homework: its code cells run in
order as Jupyter runs them (magics, help lines, Colab's own lines and display code left out,
a cell that would start a game left out with why), and one that cannot be read refused in
one sentence."""

from __future__ import annotations

import zipfile

import nbformat
import pytest

from autograder.classroom.notebook import module_text
from autograder.play.protocol import CELL_MARK


def _run(cells: list[str]):  # type: ignore[no-untyped-def]
    """The module of ``cells`` and the names it defines when run as a module is run."""
    made = module_text(cells, "hw.ipynb")
    space: dict[str, object] = {}
    exec(compile(made.source, "hw", "exec"), space)
    return made, space


def test_magics_are_dropped_and_a_prompting_cell_is_left_out():
    made, space = _run(
        [
            "%matplotlib inline\nimport math",
            "!pip install numpy\nif True:\n    %time x = 1\n    y = 2",
            "def ask():\n    return int(input('move? '))",
            "class Human:\n    def play(self):\n        return ask()",
            "Human().play()",
            "name = input('name? ')",
            "if __name__ == '__main__':\n    ask()",
            "Human?\n?Human.play\nfiles = !ls",
            "%%writefile notes.txt\nWhat I tried: a deeper search.",
            "%%time\nz = 3",
        ],
    )
    assert space["z"] == 3  # a %%time cell's body runs
    assert "%" not in made.source.replace("# %% cell", "") and "!pip" not in made.source
    assert not any(line in made.source for line in ("Human?", "?Human", "!ls", "What I tried"))
    assert made.skipped == (
        (5, "it calls play() calls ask() calls input() (line 1)"),
        (6, "it calls input() at top level (line 1)"),
    )


def test_colab_lines_and_display_code_are_left_out_listed_and_the_rest_runs():
    """A notebook from Colab: its drive, its folder, its installs and its drawings are not the
    agent; they are left out line by line (a method that draws gets a stand-in that does
    nothing), listed for the report, and what is left runs without them."""
    made = module_text(
        [
            "from google.colab import drive\ndrive.mount('/content/drive')\n"
            "%cd /content/drive/MyDrive/AI\n!pip install numpy\nimport math",
            "import matplotlib.pyplot as plt\nfrom IPython.display import clear_output\n\n"
            "def draw(board):\n    fig, ax = plt.subplots()\n    ax.imshow(board)\n"
            "    plt.show()\n\nclass Agent:\n    def play(self, state):\n"
            "        draw(state)\n        clear_output()\n        return 3",
            "draw([[0]])\nwith open('/content/drive/MyDrive/log.txt') as f:\n    pass\nx = 2",
        ],
        "Connect4.ipynb",
    )
    space: dict[str, object] = {}
    exec(compile(made.source, "game.py", "exec"), space)  # no google, no matplotlib, no Drive
    assert space["x"] == 2 and space["Agent"]().play([[0]]) == 3  # type: ignore[operator]
    notes = made.notes("Connect4.ipynb")
    assert notes[0].startswith(
        "Connect4.ipynb: cell 1: 4 lines left out: Colab's own lines and IPython magics"
    )
    assert "from google.colab import drive; drive.mount('/content/drive')" in notes[0]
    assert "display code, which draws nothing where the grader runs it" in notes[1]
    assert "cell 3" in notes[2] and "with open('/content/drive/MyDrive/log..." in notes[2]


def test_cells_run_as_jupyter_runs_them_a_future_import_in_any_cell_and_display_unimported():
    """Jupyter compiles each cell alone and gives ``display`` without an import: a module of
    the cells runs the same, each cell's lines where they were."""
    made, space = _run(
        [
            "import math",
            "from __future__ import annotations\n\ndef f(x: Later) -> int:\n    return 1",
            "display(f(1))\nvalue = f(2)\nwhere = __import__('inspect').currentframe().f_lineno",
        ],
    )
    assert space["value"] == 1
    lines = made.source.splitlines()
    assert lines[space["where"] - 4] == f"{CELL_MARK}3"  # the cell's third line, as written


def test_a_cell_nested_deeper_than_ast_unparse_goes_is_run_and_magic_lines_are_gated():
    deep = " + ".join(["''"] * 900)
    made, space = _run(
        [f"if {deep}:\n    pass\nran = True", "%cd \x1b[2J\x1b[31mSCORE\u202e" + "!" * 5000]
    )
    assert space["ran"]
    (note,) = made.notes("hw.ipynb")
    assert "\x1b" not in note and "\u202e" not in note
    assert len(note) < 1100 and note.endswith(" more characters]")  # a sentence's bound
    assert note.startswith("hw.ipynb: cell 2: 1 line left out") and "\\x1b[2J" in note


def test_a_while_loop_building_a_table_runs_and_one_that_plays_is_left_out():
    made, space = _run(
        [
            "NEIGHBOURS, k = [], 0\nwhile k < 9:\n    if k != 4:\n        NEIGHBOURS.append(k)\n"
            "    k += 1",
            "class Game:\n    def step(self):\n        return True",
            "game = Game()\nwhile not game.step():\n    pass",
            "while True:\n    break",
        ],
    )
    assert space["NEIGHBOURS"] == [0, 1, 2, 3, 5, 6, 7, 8]
    assert made.skipped == (
        (3, "it runs a game loop at top level (line 2: a while loop)"),
        (4, "it runs a game loop at top level (line 1: a while loop)"),
    )


def test_a_cell_awaiting_at_top_level_is_left_out_as_jupyter_alone_runs_it():
    made, space = _run(
        [
            "import asyncio\n\nasync def think():\n    await asyncio.sleep(0)\n    return 4",
            "depth = await think()\nprint(depth)",
            "async def later():\n    async with asyncio.timeout(1):\n        return await think()",
            "best = asyncio.run(later())",
        ],
    )
    assert space["best"] == 4 and "depth" not in space
    assert made.skipped == (
        (2, "it awaits at top level (line 1), which Jupyter runs and a module cannot"),
    )


def test_a_notebook_of_any_homework_is_opened_as_its_main_module(tmp_path):
    """A Teeko notebook in a zip: its cells become game.py, and the assignment is inferred."""
    from autograder.classroom.intake import choose_assignment, open_submission

    book = nbformat.v4.new_notebook()
    book.cells = [
        nbformat.v4.new_markdown_cell("# HW8"),
        nbformat.v4.new_code_cell("%load_ext autoreload\nclass TeekoPlayer:\n    pass"),
        nbformat.v4.new_code_cell("TeekoPlayer()\nmove = input('your move: ')"),
    ]
    with zipfile.ZipFile(tmp_path / "hw8.zip", "w") as archive:
        archive.writestr("hw8/teeko.ipynb", nbformat.writes(book))
    work = tmp_path / "work"
    work.mkdir()
    submission = open_submission(tmp_path / "hw8.zip", work, "game.py", ("game.py",))
    source = (submission.source_dir / "game.py").read_text()
    assert "class TeekoPlayer" in source and "move = input(" not in source
    assert "%load_ext" not in source
    assert submission.notes == (
        "teeko.ipynb: cell 2 was not run: it calls input() at top level (line 2)",
        "teeko.ipynb: cell 1: 1 line left out: Colab's own lines and IPython magics, which the "
        "grader has no use for (%load_ext autoreload)",
    )
    found, how = choose_assignment(None, submission, "game.py")
    assert (found.name, how) == ("teeko", "assignment teeko inferred from class TeekoPlayer")


def test_an_unreadable_notebook_is_one_sentence(tmp_path):
    from autograder.classroom.intake import open_submission
    from autograder.errors import GraderError

    for book, why in [
        ('{"cells": 3}', "it has no cells"),
        ('{"cells": [{"cell_type": "code", "source": [1, 2, null]}]}', "a code cell's source is"),
    ]:
        (tmp_path / "hw.ipynb").write_text(book)
        with pytest.raises(
            GraderError, match=rf"^hw.ipynb is not a notebook that can be read \({why}"
        ):
            open_submission(tmp_path / "hw.ipynb", tmp_path, "game.py", ("game.py",))
