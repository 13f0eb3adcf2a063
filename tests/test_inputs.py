"""What a submission's source and imports are graded as: the file as an import reads it, with a
warning where ``python game.py`` refuses it; the packages the rubric allows, no more, and a
grader that says so before grading where one of them is missing (the issue's parts 5 and 6).

The grades themselves, fenced and unfenced, are in the corpus (``tests/corpus/``: the
``saved-as-*``, ``coding-line-*``, ``imports-*`` and ``missing-import`` entries)."""

from __future__ import annotations

import ast
import csv
import re
from pathlib import Path

import pytest

from autograder.classroom.fingerprint import Fingerprint
from autograder.games import PACKS
from autograder.grading.rubric import load_rubric
from autograder.play.host import PlayerProcess
from autograder.play.launch import Limits
from autograder.play.sandbox import Protections, available
from autograder.play.source import script_warning
from tests.conftest import COURSE_TOML, ROOT, fast_solution, launch

MISSING = "no_such_package_anywhere"  # allowed by the rubrics below, installed nowhere

# ---- the source as Python reads it -------------------------------------------------------------

LATIN_COMMENT = "# Auteur : Jos\u00e9\n".encode("latin-1") + b"x = 1\n"


@pytest.mark.parametrize(
    ("source", "warned"),
    [
        (LATIN_COMMENT, "line 1 holds the byte 0xe9"),
        (b"x = 1\n# caf\xe9\n", "line 2 holds the byte 0xe9"),
        (b"# -*- coding: latin-1 -*-\n" + LATIN_COMMENT, None),  # declared: both read it
        (b"#!/usr/bin/env python\n# vim: set fileencoding=cp1252 :\n# caf\xe9\n", None),
        (b"\xef\xbb\xbf# caf\xe9\n", None),  # a UTF-8 byte-order mark declares UTF-8
        ("# caf\u00e9 au lait\n".encode(), None),  # UTF-8: nothing to say
        (b"x = 1\n\n\n# -*- coding: latin-1 -*-\n# caf\xe9\n", "line 5"),  # too late to count
    ],
    ids=["latin-1", "latin-1 later", "coding line", "vim line 2", "bom", "utf-8", "late coding"],
)
def test_python_game_py_refusing_the_file_is_one_warning(source, warned):
    warning = script_warning(source, "game.py")
    if warned is None:
        assert warning is None
    else:
        assert warning is not None and warned in warning
        assert "running python game.py stops with a SyntaxError" in warning
        assert "save it with the UTF-8 encoding" in warning
        assert "\n" not in warning


def _load(folder: Path, source: bytes, protections: Protections, packages=("numpy",)):  # type: ignore[no-untyped-def]
    folder.mkdir()
    (folder / "game.py").write_bytes(source)
    limits = Limits(call_seconds=5.0, import_seconds=5.0, packages=packages)
    with PlayerProcess(launch(folder, limits, protections)) as proc:
        return proc.start()


LAYERS = {"this machine's sandbox": available(), "no sandbox": Protections(resource_limits=True)}


@pytest.mark.parametrize("layers", list(LAYERS))
@pytest.mark.parametrize(
    ("source", "kind", "error"),
    [
        (LATIN_COMMENT, None, None),
        (b'GREETING = "caf\xe9"\n', "encoding", "'utf-8' codec can't decode byte 0xe9 on line 1"),
        (b"# coding: klingon\nx = 1\n", "encoding", "its coding line names klingon"),
        (b"# coding: ascii\n# caf\xe9\n", "encoding", "'ascii' codec can't decode byte 0xe9"),
        (b"import rich\n", "package", "rich"),  # the grader has it; the rubric does not allow it
        (b"import autograder\n", "package", "autograder"),  # the kit, installed editable here
        (f"import {MISSING}.sub\n".encode(), "package", MISSING),
        (b"import numpy\nBOARD = numpy.zeros((5, 5))\n", None, None),
        (b"import json, xml.dom\ntry:\n    import scipy\nexcept ImportError:\n    pass\n",
         None, None),
    ],
    ids=["latin-1 comment", "latin-1 string", "unknown coding", "bad for its coding", "rich",
         "the kit", "missing", "numpy", "stdlib and a guarded import"],
)  # fmt: skip
def test_the_runner_imports_what_an_import_reads_and_the_rubric_allows(
    tmp_path, layers, source, kind, error
):
    reply = _load(tmp_path / "submission", source, LAYERS[layers])
    if kind is None:
        assert reply.ok, reply.data
    else:
        assert reply.data.get("kind") == kind, reply.data
        assert error in reply.data.get("error", "")


def test_own_modules_import_whatever_their_name(tmp_path):
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "rich.py").write_text("MINE = True\n")
    (folder / "helpers").mkdir()
    (folder / "helpers" / "__init__.py").write_text("")
    (folder / "lib").mkdir()
    (folder / "lib" / "tables.py").write_text("SIZE = 5\n")
    (folder / "game.py").write_text(
        "import os, sys\n"
        "sys.path.append(os.path.join(os.path.dirname(__file__), 'lib'))\n"
        "import rich, helpers, tables\n"
        "assert rich.MINE and tables.SIZE == 5\n"
    )
    for layers in LAYERS.values():
        with PlayerProcess(launch(folder, Limits(packages=()), layers)) as proc:
            reply = proc.start()
            assert reply.ok, reply.data


# ---- packages: what check, grade and Gradescope do -----------------------------------------


def _rubric_allowing(tmp_path: Path, *packages: str) -> Path:
    text = COURSE_TOML.read_text()
    listed = ", ".join(f'"{name}"' for name in packages)
    text, count = re.subn(r"^packages = .*$", f"packages = [{listed}]", text, flags=re.M)
    assert count == 1
    for old, new in (("games = 3 ", "games = 1 "), ("_probes = 10 ", "_probes = 2 ")):
        text = text.replace(old, new)
    path = tmp_path / "rubric.toml"
    path.write_text(text)
    return path


def test_check_stops_in_one_line_when_an_allowed_package_is_missing(tmp_path, run_cli):
    game = tmp_path / "game.py"
    game.write_text(fast_solution("teeko"))
    rubric = _rubric_allowing(tmp_path, "numpy", MISSING)
    done = run_cli("check", str(game), "--rubric", str(rubric), expect_ok=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"autograder: {MISSING} is allowed by the rubric but not installed here: "
        f"pip install {MISSING}"
    ]
    assert done.stdout == ""


@pytest.mark.slow
def test_grade_warns_once_and_says_so_in_the_summary_and_the_reason(tmp_path, run_cli):
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "alice.py").write_text(f"import {MISSING}\n")
    (folder / "bob.py").write_text("class Teeko2Player(:\n")
    rubric = _rubric_allowing(tmp_path, MISSING)
    done = run_cli("grade", str(folder), "-a", "teeko2", "--out", str(out), "--rubric", str(rubric))
    assert done.returncode == 0, done.stderr
    said = f"warning: {MISSING} is allowed by the rubric but not installed here: pip install"
    assert " ".join(done.stderr.split()).count(said) == 1, done.stderr
    summary = (out / "summary.md").read_text()
    warnings = summary[summary.index("## Warnings") : summary.index("## Scores")]
    assert f"{MISSING} is allowed by the rubric but not installed here" in warnings
    with (out / "grades.csv").open() as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert rows["alice"]["reason"] == (
        f"game.py imports {MISSING}, which the rubric allows but the grading machine does not "
        f"have (pip install {MISSING}): this is the grader's problem, not yours; it needs "
        "grading again"
    )
    assert "syntax error" in rows["bob"]["reason"]


def test_installing_an_allowed_package_grades_the_class_again():
    before = Fingerprint("kit", "rubric", "teeko", "0", "files", "")
    after = Fingerprint("kit", "rubric", "teeko", "0", "files", "numpy")
    assert after.changes(before.as_dict()) == ["the allowed packages installed here changed"]
    assert not after.same_grading(before.as_dict())


def test_the_starters_say_what_their_rubric_allows():
    """Every game's starter (each variant's, in the game's own interface) tells the student
    what its rubric lets it import: numpy and the standard library, or the standard library
    only (in its docstring, or in the README beside it)."""
    said = {
        ("numpy",): "You may use Python's standard library and numpy, nothing else",
        (): "Standard library only",
    }
    for pack in PACKS.values():
        allowed = load_rubric(None, pack).limits.packages
        for variant in pack.variants.values():
            path = ROOT / pack.starter(variant)
            readme = path.parent / "README.md"
            text = (ast.get_docstring(ast.parse(path.read_text())) or "") + (
                readme.read_text() if readme.is_file() else ""
            )
            assert said[allowed] in " ".join(text.split()), path


@pytest.mark.parametrize("layers", list(LAYERS))
def test_an_import_inside_a_method_names_what_the_rubric_allows(tmp_path, layers):
    source = "class Player:\n    def move(self):\n        import rich\n"
    folder = tmp_path / "submission"
    folder.mkdir()
    (folder / "game.py").write_text(source + "Player().move()\n")
    with PlayerProcess(launch(folder, Limits(packages=("numpy",)), LAYERS[layers])) as proc:
        reply = proc.start()
    assert reply.data.get("kind") == "package"  # at import: the reply names the package
    (folder / "game.py").write_text(
        "try:\n    import rich\nexcept ImportError as err:\n    print(err)\n"
    )
    with PlayerProcess(launch(folder, Limits(packages=("numpy",)), LAYERS[layers])) as proc:
        reply = proc.start()
    assert reply.ok
    assert reply.printed.strip() == (
        "No module named 'rich' (the rubric allows numpy and the standard library)"
    )
