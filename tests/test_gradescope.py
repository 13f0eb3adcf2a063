"""The Gradescope bundle: built, unzipped into a fake /autograder root and run like Gradescope."""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from autograder.classroom.gradescope import (
    BUNDLE_NAME,
    BUNDLED_RUBRIC,
    REQUIREMENTS,
    build_bundle,
)
from autograder.cli.lms import add_gradescope_command
from autograder.errors import GraderError
from autograder.games import find_assignment
from tests.conftest import COURSE_TOML, ROOT, STARTERS, fast_solution

TEEKO2 = find_assignment("teeko2")
CRITERION_IDS = ["rules", "state", "format", "time", "wins", "output", "packaging"]


def _fake_root(tmp_path: Path, bundle: Path) -> Path:
    """A Gradescope root: source/ (the unzipped bundle), an empty submission/ and results/."""
    root = tmp_path / "gradescope"
    with zipfile.ZipFile(bundle) as archive:
        archive.extractall(root / "source")
    (root / "submission").mkdir()
    (root / "results").mkdir()
    return root


def _run_autograder(root: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Run the bundle's run_autograder with the kit from the bundle, not installed."""
    env = {
        "PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin",  # a python3 that has rich
        "PYTHONPATH": str(root / "source"),
        "AUTOGRADER_ROOT": str(root),
        "COLUMNS": "120",
    }
    done = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        capture_output=True,
        text=True,
        env=env,
        cwd=root,
        timeout=300,
    )
    if done.returncode != 0:
        print(done.stdout, done.stderr, sep="\n")
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    return done, results


@pytest.fixture
def bundle(tmp_path: Path) -> Path:
    return build_bundle(TEEKO2, tmp_path / "built", None)


def test_bundle_holds_the_scripts_the_kit_and_the_rubric(bundle):
    assert bundle.name == BUNDLE_NAME
    with zipfile.ZipFile(bundle) as archive:
        infos = {info.filename: info for info in archive.infolist()}
        names = set(infos)
        assert {"setup.sh", "run_autograder", BUNDLED_RUBRIC, "pyproject.toml"} <= names
        assert {
            "autograder/__main__.py",
            "autograder/cli/__init__.py",
            "autograder/games/teeko/rubric.toml",
        } <= (names)
        assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
        assert not [
            n for n in names if n.startswith(("tests/", "solution/", "starter/", "answer_key/"))
        ]
        for script in ("setup.sh", "run_autograder"):
            mode = infos[script].external_attr >> 16
            assert mode & stat.S_IXUSR, f"{script} must be executable"
            assert archive.read(script).startswith(b"#!/usr/bin/env bash\n")
        course = COURSE_TOML.read_bytes()
        assert archive.read(BUNDLED_RUBRIC) == course
        run = archive.read("run_autograder").decode()
    assert '--assignment "$ASSIGNMENT"' in run and "ASSIGNMENT=teeko2\n" in run
    assert "ROOT=${AUTOGRADER_ROOT:-/autograder}" in run


def test_the_bundle_requires_the_packages_the_rubric_allows(tmp_path, bundle):
    with zipfile.ZipFile(bundle) as archive:
        assert archive.read(REQUIREMENTS) == b"numpy\n"
    book = build_bundle(find_assignment("board-abc"), tmp_path / "book", None)
    with zipfile.ZipFile(book) as archive:
        assert archive.read(REQUIREMENTS) == b""  # the book's homework: standard library only
    mine = tmp_path / "mine.toml"
    mine.write_text(
        COURSE_TOML.read_text().replace('packages = ["numpy"]', 'packages = ["numpy", "scipy"]')
    )
    course = build_bundle(TEEKO2, tmp_path / "course", mine)
    with zipfile.ZipFile(course) as archive:
        assert archive.read(REQUIREMENTS) == b"numpy\nscipy\n"


def test_building_twice_gives_the_same_bytes(tmp_path, bundle):
    again = build_bundle(TEEKO2, tmp_path / "again", None)
    assert again.read_bytes() == bundle.read_bytes()


def test_a_course_rubric_is_bundled_as_given(tmp_path):
    text = COURSE_TOML.read_text()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace("games = 3 ", "games = 5 "))
    built = build_bundle(find_assignment("teeko"), tmp_path / "out", mine)
    with zipfile.ZipFile(built) as archive:
        assert archive.read(BUNDLED_RUBRIC) == mine.read_bytes()
        assert "ASSIGNMENT=teeko\n" in archive.read("run_autograder").decode()


def test_a_broken_rubric_is_refused_before_building(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('title = "x"\n[play]\ngamez = 3\n')
    with pytest.raises(GraderError, match="unknown key 'play.gamez'"):
        build_bundle(TEEKO2, tmp_path / "out", broken)
    assert not (tmp_path / "out" / BUNDLE_NAME).exists()


def test_the_gradescope_command_builds_the_bundle(tmp_path):
    parser = argparse.ArgumentParser(prog="autograder")
    add_gradescope_command(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["gradescope", "-a", "Teeko2", "--out", str(tmp_path / "gs")])
    assert args.run(args) == 0
    assert (tmp_path / "gs" / BUNDLE_NAME).is_file()
    bad = parser.parse_args(["gradescope", "-a", "teeko3", "--out", str(tmp_path / "gs")])
    with pytest.raises(GraderError, match="--assignment"):
        bad.run(bad)


@pytest.mark.slow
def test_run_autograder_grades_a_strong_submission(tmp_path, bundle):
    root = _fake_root(tmp_path, bundle)
    (root / "submission" / "game.py").write_text(fast_solution("teeko2"))
    done, results = _run_autograder(root)
    assert done.returncode == 0
    assert results["score"] == 100
    assert [t["tags"] for t in results["tests"]] == [[i] for i in CRITERION_IDS]
    for test in results["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "tags"}
        assert test["score"] == test["max_score"], test
    assert f"[{root / 'source' / BUNDLED_RUBRIC}]" in results["output"]


@pytest.mark.slow
def test_run_autograder_grades_a_zip_that_gradescope_kept_whole(tmp_path, bundle):
    root = _fake_root(tmp_path, bundle)
    with zipfile.ZipFile(root / "submission" / "hw8_bbadger.zip", "w") as archive:
        archive.write(STARTERS["teeko2"], "game.py")
    done, results = _run_autograder(root)
    assert done.returncode == 0
    assert results["score"] == 50  # the untouched starter breaks the move-phase rules
    packaging = results["tests"][CRITERION_IDS.index("packaging")]
    assert packaging["output"] == "zip name and contents fine"


def test_a_submission_without_game_py_gets_zero_and_the_reason(tmp_path, bundle):
    root = _fake_root(tmp_path, bundle)
    (root / "submission" / "notes.txt").write_text("I ran out of time\n")
    done, results = _run_autograder(root)
    assert done.returncode == 0
    assert results["score"] == 0
    assert results["tests"] == []
    assert results["output"] == "your submission holds no game.py (it holds notes.txt)"
    assert "holds no game.py" in done.stderr  # the instructor sees the grader's own line too


def test_a_grader_that_cannot_start_still_leaves_results(tmp_path, bundle):
    root = _fake_root(tmp_path, bundle)
    (root / "submission" / "game.py").write_text("")
    (root / "source" / "autograder" / "__main__.py").write_text("raise SystemExit('broken kit')\n")
    done, results = _run_autograder(root)
    assert results["score"] == 0
    assert results["output"].startswith("the autograder failed (exit status 1)")
    assert "broken kit" in results["output"]


@pytest.mark.skipif(os.name != "posix", reason="run_autograder is a bash script")
def test_run_autograder_is_valid_bash(bundle, tmp_path):
    root = _fake_root(tmp_path, bundle)
    for script in ("run_autograder", "setup.sh"):
        done = subprocess.run(["bash", "-n", str(root / "source" / script)], capture_output=True)
        assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_run_autograder_grades_the_books_four_files(tmp_path):
    """The Board homework's bundle: the four uploaded files are graded as one submission, with
    the homework's own criteria among the tests."""
    root = _fake_root(tmp_path, build_bundle(find_assignment("board-abc"), tmp_path / "b", None))
    solution = Path(__file__).resolve().parent.parent / "solution" / "board-abc"
    for name in ("minimax.py", "board.py", "tictactoe.py", "connectfour.py"):
        (root / "submission" / name).write_text((solution / name).read_text())
    done, results = _run_autograder(root)
    assert done.returncode == 0
    assert results["score"] == 100
    tags = [t["tags"][0] for t in results["tests"]]
    assert {"boards", "search"} <= set(tags)


def test_the_bundled_pyproject_installs_the_kit_as_the_project_does(bundle):
    """The bundle makes its own pyproject.toml (an install has none to copy): it must say what
    the project's says about installing the package."""
    with zipfile.ZipFile(bundle) as archive:
        bundled = tomllib.loads(archive.read("pyproject.toml").decode())
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for key in ("name", "version", "requires-python", "scripts"):
        assert bundled["project"][key] == project["project"][key], key
    assert sorted(bundled["project"]["dependencies"]) == sorted(project["project"]["dependencies"])
    assert bundled["build-system"] == project["build-system"]
    for key in ("packages", "package-data"):
        assert bundled["tool"]["setuptools"][key] == project["tool"]["setuptools"][key], key


def _venv(where: Path, *install: str) -> Path:
    """A fresh virtual environment with ``pip install INSTALL``; its bin folder."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)
    pip = [str(where / "bin" / "python3"), "-m", "pip", "install", "-q", *install]
    done = subprocess.run(pip, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return where / "bin"


@pytest.mark.slow
@pytest.mark.long(12)
def test_the_bundle_installs_on_gradescope(tmp_path, bundle):
    """The bundle's own setup (pip install of source/) gives a kit that grades the reference
    solution to 100. (Built by a kit installed with `pip install .`, away from its checkout,
    the bundle has the same bytes: tests/test_install.py.)"""
    root = _fake_root(tmp_path, bundle)
    _venv(root / "venv", str(root / "source"))  # what setup.sh does, without apt
    (root / "submission" / "game.py").write_text(fast_solution("teeko2"))
    graded = subprocess.run(
        ["bash", str(root / "source" / "run_autograder")],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "AUTOGRADER_ROOT": str(root), "COLUMNS": "120"},
        cwd=tmp_path,
        timeout=300,
    )
    assert graded.returncode == 0, graded.stderr
    results = json.loads((root / "results" / "results.json").read_text("utf-8"))
    assert results["score"] == 100, results["output"]
