"""Honest code runs in the grader as it does in plain Python: the answer key of every game, with
a student's debugging habit added to its move call (a traceback printed in an ``except``,
``traceback.format_exc()``, ``inspect.stack()``, ``logging.exception``, ``gc.collect()``,
``warnings.warn``, a look at the caller's name, the user and time zone for a log), grades
exactly as the plain key does. Each habit is kept from printing, so that only its honesty is
tested, not the output deduction.

The grader polices nothing inside the submission's process (docs/sandbox.md): a habit that
was refused there raised, and cost every criterion its points."""

from __future__ import annotations

import json
import shutil
import textwrap
from functools import cache
from pathlib import Path

import pytest

from tests.conftest import ROOT, autograder_process

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

# assignment -> (the folder of its key, the file and the function or method of its move call)
KEYS = {
    "teeko": ("answer_key/teeko", "game.py", "TeekoPlayer.make_move"),
    "teeko2": ("answer_key/teeko2", "game.py", "Teeko2Player.make_move"),
    "connect4": ("answer_key/connect4", "game.py", "Connect4Player.make_move"),
    "connect4-notebook": ("answer_key/connect4-notebook", "game.py", "Agent.play"),
    "connect4-sketch": ("answer_key/connect4-sketch", "AIBrain.py", "aiBrain.autoPlay"),
    "othello": ("answer_key/othello", "game.py", "OthelloPlayer.make_move"),
    "board-abc": ("solution/board-abc", "minimax.py", "find_best_move"),
}

# Each habit as students write it in their move call, kept silent.
HABITS = {
    "traceback-print-exc": """
        import io, traceback
        try:
            raise ValueError("looking")
        except ValueError:
            traceback.print_exc(file=io.StringIO())
    """,
    "traceback-format-exc": """
        import traceback
        try:
            {}["missing"]
        except KeyError:
            _text = traceback.format_exc()
    """,
    "inspect-stack": """
        import inspect
        _callers = [frame.function for frame in inspect.stack()]
    """,
    "logging-exception": """
        import logging
        _log = logging.getLogger("habit")
        _log.addHandler(logging.NullHandler())
        _log.propagate = False
        try:
            1 / 0
        except ZeroDivisionError:
            _log.exception("thinking went wrong")
    """,
    "gc-collect": """
        import gc
        gc.collect()
    """,
    "warnings-warn": """
        import warnings
        with warnings.catch_warnings(record=True):
            warnings.warn("this search is slow")
    """,
    "who-and-when-for-a-log": """
        import getpass, grp, locale, os, pwd, sysconfig, zoneinfo
        _who = getpass.getuser(), pwd.getpwuid(os.getuid()).pw_dir, grp.getgrgid(os.getgid())
        _where = locale.setlocale(locale.LC_ALL, "")
        _zones = sysconfig.get_config_var("TZPATH"), zoneinfo.available_timezones
    """,
    "caller-name-and-pdb": """
        import pdb, sys
        _caller = sys._getframe(1).f_code.co_name
    """,
}


def _with_habit(habit: str, target: str) -> str:
    """Code that wraps the move call ``target`` (``Class.method`` or ``function``) so that
    ``habit`` runs at the start of each call."""
    body = textwrap.indent(textwrap.dedent(habit).strip(), " " * 8)
    return (
        "\n\ndef _habit_wrapped(function):\n"
        "    def habit(*args, **kwargs):\n"
        f"{body}\n"
        "        return function(*args, **kwargs)\n\n"
        "    return habit\n\n\n"
        f"{target} = _habit_wrapped({target})\n"
    )


def _grade(assignment: str, folder: Path, whole: bool = False) -> dict[str, float]:
    """``autograder check`` on the key in ``folder`` (on its main file when it is the only
    code, unless ``whole``): the points per criterion and the total."""
    _, main, _ = KEYS[assignment]
    single = not any(p.name != main for p in folder.iterdir() if p.suffix == ".py")
    path = folder / main if single and not whole else folder
    out = folder.parent / f"{folder.name}.json"
    done = autograder_process(
        ("check", str(path), "--assignment", assignment, "--json", str(out)), None, 600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    results = json.loads(out.read_text())
    return {**{t["tags"][0]: t["score"] for t in results["tests"]}, "total": results["score"]}


def _copy(assignment: str, into: Path) -> Path:
    source, main, _ = KEYS[assignment]
    folder = into / assignment
    shutil.copytree(ROOT / source, folder, ignore=shutil.ignore_patterns("*.ipynb", "__pycache__"))
    assert (folder / main).is_file()
    return folder


@cache
def _plain(assignment: str, base: str) -> dict[str, float]:
    return _grade(assignment, _copy(assignment, Path(base)))


def _graded_with(assignment: str, habits: list[str], base: Path) -> dict[str, float]:
    folder = _copy(assignment, base)
    _, main, target = KEYS[assignment]
    with (folder / main).open("a") as handle:
        for habit in habits:
            handle.write(_with_habit(HABITS[habit], target))
    return _grade(assignment, folder)


@pytest.mark.parametrize("assignment", sorted(KEYS))
def test_every_habit_in_the_move_call_changes_no_point(assignment, tmp_path_factory):
    """Every game's key, with all the habits wrapped around its move call."""
    plain = _plain(assignment, str(tmp_path_factory.mktemp("plain")))
    assert _graded_with(assignment, sorted(HABITS), tmp_path_factory.mktemp("all")) == plain


@pytest.mark.parametrize("habit", sorted(HABITS))
def test_each_habit_alone_changes_no_point(habit, tmp_path_factory):
    """The Teeko2 key (the course's homework), with one habit at a time."""
    plain = _plain("teeko2", str(tmp_path_factory.mktemp("plain")))
    assert _graded_with("teeko2", [habit], tmp_path_factory.mktemp(habit)) == plain


def test_a_file_handed_in_beside_the_key_opens_by_its_name(tmp_path_factory):
    """An opening book read as ``open("book.json")``, as ``python game.py`` run in the
    student's folder finds it: the grader runs the submission in its own folder's copy."""
    plain = _plain("teeko2", str(tmp_path_factory.mktemp("plain")))
    folder = _copy("teeko2", tmp_path_factory.mktemp("book"))
    (folder / "book.json").write_text('{"opening": []}')
    with (folder / "game.py").open("a") as handle:
        handle.write('\n\nimport json\n\nwith open("book.json") as book:\n')
        handle.write("    BOOK = json.load(book)\n")
    assert _grade("teeko2", folder, whole=True) == plain


def test_a_lone_file_checked_without_the_file_it_opens_says_to_check_its_folder(tmp_path):
    """``check game.py`` brings the modules it imports, not its data files: the report names
    the file left beside it and the command that grades the folder with it."""
    folder = _copy("teeko2", tmp_path)
    (folder / "book.json").write_text('{"opening": []}')
    (folder / ".DS_Store").write_text("")
    with (folder / "game.py").open("a") as handle:
        handle.write('\n\nimport json\n\nwith open("book.json") as book:\n')
        handle.write("    BOOK = json.load(book)\n")
    out = tmp_path / "lone.json"
    done = autograder_process(
        ("check", str(folder / "game.py"), "--assignment", "teeko2", "--json", str(out)), None, 600
    )
    assert done.returncode == 0, done.stdout + done.stderr
    said = json.loads(out.read_text())["output"]
    assert "without the other files beside it (book.json); if it opens one of them, " in said
    assert f"check its folder: autograder check {folder}\n" in said
