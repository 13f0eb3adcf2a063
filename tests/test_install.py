"""The kit as a newcomer installs it: ``pip install .`` (not editable) of a copy of the checkout
into a fresh virtualenv, by the README's own first command, then the README's other commands
run as written from a folder outside the checkout. Each finds what it needs (the starter, the
answer key, the reference solution) in the installed kit, not beside the package's source."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from autograder.classroom.gradescope import BUNDLE_NAME, build_bundle
from autograder.games import find_assignment
from autograder.games.teeko.solved import ENV_VAR, cache_path
from autograder.grading.scoring import CRITERIA
from tests.conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800), pytest.mark.long(150)]

EXAMPLES = ROOT / "examples" / "submissions"
STARTER_STUDENT = "nguyenlinh_10002_500002_hw8_lnguyen.zip"  # the untouched starter
PRINTING_STUDENT = "schmidtanna_10005_500005_hw8_aschmidt.zip"


def _readme_lines() -> list[str]:
    """Every line of the README's ``sh`` blocks, its trailing comment taken off."""
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)
    return [re.sub(r"\s+#.*$", "", line) for block in blocks for line in block.splitlines()]


def _readme_command(start: str) -> str:
    """The README's command line that starts with ``start``."""
    found = [line for line in _readme_lines() if line.startswith(start)]
    assert found, f"the README shows no command starting with {start!r}"
    return found[0]


def _checkout_copy(folder: Path) -> Path:
    """The checkout's files as git knows them (committed or not, ignored ones left out): what
    a clone or the course's copy of the kit holds."""
    if not (ROOT / ".git").exists():  # a copy of the kit without its history: taken whole
        leftovers = shutil.ignore_patterns(".*", "__pycache__", "*.egg-info", "build", "dist")
        return Path(shutil.copytree(ROOT, folder, ignore=leftovers))
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
        cwd=ROOT,
        timeout=120,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


def _environment(bin_folder: Path | None) -> dict[str, str]:
    """This environment (pip's settings among it) without the test's virtualenv and its
    package path; ``bin_folder`` first on the path."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    interpreter = str(Path(sys.executable).parent)  # a python3 of 3.11 or newer
    folders = [str(bin_folder)] if bin_folder else []
    env["PATH"] = os.pathsep.join([*folders, interpreter, env.get("PATH", "/usr/bin:/bin")])
    env["COLUMNS"] = "120"
    return env


def _run(command: str, folder: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["bash", "-c", command],
        capture_output=True,
        text=True,
        cwd=folder,
        env=env,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


def _grades(path: Path, roster: Path | None = None) -> dict[str, tuple[str, ...]]:
    """Each student's points per criterion; with ``roster``, a student known by a Canvas
    user id is named by the roster's login, as ``grade --roster`` names them."""
    logins = {}
    if roster is not None:
        with roster.open() as handle:
            logins = {row["ID"]: row["SIS Login ID"] for row in csv.DictReader(handle)}
    with path.open() as handle:
        return {
            logins.get(row["student"], row["student"]): tuple(row[c] for c in ("score", *CRITERIA))
            for row in csv.DictReader(handle)
        }


def _score(path: Path) -> float:
    return float(json.loads(path.read_text())["score"])


def test_the_readmes_commands_work_after_pip_install_outside_the_checkout(tmp_path):
    """The README's first command (a virtualenv, ``pip install .``, the example class graded)
    in a copy of the checkout gives the grades on record; then, from another folder, with that
    virtualenv's ``autograder``: the starter and the answer key taken from the installed kit
    and checked, a tournament with the reference solution, the similarity report (which reads
    the starter), the Gradescope bundle (the same bytes as the checkout's: the course files an
    installed kit carries are not in it) and an oracle query."""
    if not cache_path("teeko2").exists():
        pytest.skip("the oracle query needs `autograder oracle build --variant teeko2`")
    kit = _checkout_copy(tmp_path / "teeko-kit")
    first = _readme_command("python3 -m venv .venv && . .venv/bin/activate && pip install . &&")
    _run(first, kit, _environment(None))
    on_record = _grades(
        ROOT / "tests" / "data" / "example_grades.csv", ROOT / "examples/roster.csv"
    )
    assert _grades(kit / "grades" / "grades.csv") == on_record, "the grades on record"
    assert (kit / "grades" / "canvas_import.csv").is_file(), "the roster's Canvas import"
    site = next((kit / ".venv" / "lib").glob("python3*/site-packages"))
    assert (site / "autograder" / "kit" / "examples" / "submissions" / STARTER_STUDENT).is_file()

    here = tmp_path / "elsewhere"
    here.mkdir()
    env = _environment(kit / ".venv" / "bin")
    assert _readme_command("autograder check game.py") == "autograder check game.py"
    _run("autograder starter teeko2", here, env)
    _run("autograder check game.py --json starter.json", here, env)
    assert _score(here / "starter.json") == 50, "the untouched starter's grade (examples/)"
    _run("autograder starter teeko2 --answer-key --to key", here, env)
    _run("autograder check key/game.py --json key.json", here, env)
    assert _score(here / "key.json") == 100, "the answer key gets every point"

    with zipfile.ZipFile(here / "canvas_download.zip", "w") as download:
        download.write(EXAMPLES / STARTER_STUDENT, STARTER_STUDENT)
    _run(_readme_command("autograder tournament canvas_download.zip"), here, env)
    with (here / "tourney" / "leaderboard.csv").open() as handle:
        ranked = [row["player"] for row in csv.DictReader(handle)]
    assert ranked[0] == "kit-solution" and set(ranked) == {"kit-solution", "kit-random", "lnguyen"}

    (here / "class_folder").mkdir()
    for student in (STARTER_STUDENT, PRINTING_STUDENT):
        shutil.copy(EXAMPLES / student, here / "class_folder" / student)
    (here / "last_term").mkdir()
    shutil.copy(here / "key" / "game.py", here / "last_term" / "game.py")
    done = _run(_readme_command("autograder similarity class_folder/"), here, env)
    assert "2 submissions compared with one another and with 1 archived" in done.stderr
    assert (here / "similar" / "similarity.html").is_file()

    _run(_readme_command("autograder gradescope --assignment teeko2"), here, env)
    bundled = (here / "dist" / BUNDLE_NAME).read_bytes()
    from_checkout = build_bundle(find_assignment("teeko2"), tmp_path / "checkout", None)
    assert bundled == from_checkout.read_bytes(), "the same bundle as the checkout's"

    if os.environ.get(ENV_VAR):
        env[ENV_VAR] = os.environ[ENV_VAR]
    query = _readme_command('echo "b.b.b...............rr... r" | autograder oracle query')
    done = _run(query, here, env)
    assert set(json.loads(done.stdout)) == {"value", "plies"}
