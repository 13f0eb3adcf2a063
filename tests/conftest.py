"""Shared fixtures: writing small submissions and running the command line in a real process."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autograder.games import PACKS, find_assignment
from autograder.games.pack import Assignment
from autograder.games.teeko.solved import ENV_VAR, Oracle, cache_path, load
from autograder.grading.rubric import Rubric, load_rubric
from autograder.play.launch import Launch, Limits
from autograder.play.sandbox import INSTALL_BWRAP, Protections, available
from tests.browser import SKIP_MESSAGE as BROWSER_MISSING

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = {
    "teeko": ROOT / "solution" / "teeko" / "game.py",
    "teeko2": ROOT / "solution" / "teeko2" / "game.py",
}
COURSE_TOML = ROOT / "autograder" / "games" / "teeko" / "rubric.toml"  # the course's rubric
TEEKO = PACKS["teeko"]

# Files whose tests time moves or calls on the wall clock, compare timings, send signals on a
# clock or watch the machine's processes: their outcome depends on the machine having nothing
# else to do, so they carry the ``serial`` mark and the test command (README) runs them in its
# second pass, one at a time, never beside another test. A test elsewhere that times itself,
# or an attack that spends time, memory or kills what it can reach, carries the mark by hand.
# Every other test, the ones that grade submissions under time limits among them, runs in the
# first pass on three workers (pytest-xdist): the grader judges calls on their own time, not the
# machine's (docs/grading.md), so a neighbour's load changes no grade, and those tests must
# hold on a busy machine anyway.
SERIAL_FILES = frozenset(
    f"test_{name}.py" for name in ("ahead", "cgroups", "fair_timing", "host", "portable")
)


def pytest_itemcollected(item: pytest.Item) -> None:
    if item.path.name in SERIAL_FILES:
        item.add_marker(pytest.mark.serial)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """After ``-m`` has deselected: the blocks are counted on what runs."""
    workers = getattr(config, "workerinput", {}).get("workercount")
    if workers:
        items[:] = long_first(items, int(workers))


def _seconds(item: pytest.Item) -> float:
    mark = item.get_closest_marker("long")
    return float(mark.args[0]) if mark else 0.0


def long_first(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """The collection reordered for ``--dist worksteal``, which hands each worker one
    contiguous block of it and lets an idle worker take from the end of another's: each block
    opens with its share of the ``long`` tests, the longest first and each given to the block
    with the fewest seconds so far, so that no worker starts a long test last. The other tests
    keep their order (and their modules' fixtures)."""
    long = sorted((i for i in items if _seconds(i)), key=_seconds, reverse=True)
    rest = [i for i in items if not _seconds(i)]
    shares: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for item in long:
        min(shares, key=lambda share: sum(map(_seconds, share))).append(item)
    ordered, left = [], len(items)
    for worker, share in enumerate(shares):
        size = left // (workers - worker)  # the block worksteal sends this worker at first
        left -= size
        take = max(0, size - len(share))
        ordered += share + rest[:take]
        del rest[:take]
    return ordered + rest


# Skip reasons that only mean "install it": CI installs bubblewrap and Chromium (.ci/run), so
# there (CI=true) such a skip is a failure, not a test quietly left out.
INSTALLED_IN_CI = (INSTALL_BWRAP, BROWSER_MISSING)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and os.environ.get("CI") == "true":
        longrepr = report.longrepr
        reason = str(longrepr[2] if isinstance(longrepr, tuple) else longrepr)
        if any(install in reason for install in INSTALLED_IN_CI):
            report.outcome = "failed"
            report.longrepr = f"CI=true, so this may not skip: {reason}"


def pytest_runtest_setup(item: pytest.Item) -> None:
    """A ``serial`` test refuses to run on a worker of ``-n``: beside other tests its timing
    would not be its own."""
    if os.environ.get("PYTEST_XDIST_WORKER") and item.get_closest_marker("serial"):
        pytest.fail("a serial test runs alone: select it with -m serial, without -n", False)


def course_rubric() -> Rubric:
    """The course's published rubric, as the kit loads it by default."""
    return load_rubric(None, TEEKO)


def assignment(name: str = "teeko") -> Assignment:
    return find_assignment(name)


DEFAULT_LIMITS = Limits()


def launch(
    folder: Path,
    limits: Limits = DEFAULT_LIMITS,
    protections: Protections | None = None,
    seed: int = 0,
) -> Launch:
    """How the kit starts the Teeko submission in ``folder``, in this machine's sandbox."""
    layers = protections if protections is not None else available()
    return Launch(folder, TEEKO.driver, "game.py", seed, limits, layers)


STARTERS = {
    "teeko": ROOT / "starter" / "teeko" / "game.py",
    "teeko2": ROOT / "starter" / "teeko2" / "game.py",
}


def fast_solution(variant: str, budget: float = 0.05) -> str:
    """The reference solution's source with a short search budget: strong and quick, a good
    base for submissions that break one rule each."""
    source = SOLUTIONS[variant].read_text()
    fast, count = re.subn(r"^TIME_BUDGET = .*$", f"TIME_BUDGET = {budget}", source, flags=re.M)
    assert count == 1, "the solution should set TIME_BUDGET once at the top"
    return fast


@functools.cache
def cached_oracle(variant: str) -> Oracle:
    """The variant's oracle, loaded once per test run (13 MB each); skips when it is not built."""
    if not cache_path(variant).exists():
        pytest.skip(f"no cached table: run `autograder oracle build --variant {variant}`")
    return load(variant)


# make_move bodies shared by the purpose-built submissions (test_check) and the corpus
TWO_SQUARES = """
own = [(r, c) for r in range(5) for c in range(5) if state[r][c] == self.my_piece]
for r in range(5):
    for c in range(5):
        for sr, sc in own:
            if state[r][c] == " " and max(abs(r - sr), abs(c - sc)) >= 2:
                return [(r, c), (sr, sc)]
"""


NO_STDIN = ["sh", "-c", 'exec "$@" 0<&-', "sh"]  # a command prefix: run it as ``0<&-`` would


def autograder_process(
    args: list[str] | tuple[str, ...],
    env: dict[str, str] | None = None,
    timeout: float = 600,
    stdin_closed: bool = False,
) -> subprocess.CompletedProcess[str]:
    """``python -m autograder ARGS`` in a real process, with a small, fixed environment (and
    the oracle cache the tests' skip conditions looked in, when ``TEEKO_ORACLE_CACHE`` is set);
    with ``stdin_closed``, started as ``0<&-`` starts it, with no file descriptor 0 at all."""
    cache = {ENV_VAR: os.environ[ENV_VAR]} if os.environ.get(ENV_VAR) else {}
    return subprocess.run(
        [*(NO_STDIN if stdin_closed else []), sys.executable, "-m", "autograder", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        env={
            "PATH": "/usr/bin:/bin",
            "COLUMNS": "120",
            "PYTHONPATH": str(ROOT),
            **cache,
            **(env or {}),
        },
    )


@dataclass
class CliRun:
    returncode: int
    stdout: str
    stderr: str

    def results(self, path: Path) -> dict[str, Any]:
        return json.loads(path.read_text())


@pytest.fixture(scope="session")
def arena() -> Iterator[Any]:
    """The attack tests' arena (``tests/attack_arena.py``), one for the run: an entry the tests
    of both attack files ask about is checked once."""
    from tests.attack_arena import open_arena  # here: it imports this module

    with open_arena() as opened:
        yield opened


@pytest.fixture
def make_submission(tmp_path: Path) -> Callable[..., Path]:
    """Write ``source`` as ``name`` in a fresh folder and return the file's path."""
    counter = iter(range(1_000))

    def make(source: str | bytes, name: str = "game.py") -> Path:
        folder = tmp_path / f"submission{next(counter)}"
        folder.mkdir()
        path = folder / name
        if isinstance(source, bytes):
            path.write_bytes(source)
        else:
            path.write_text(source)
        return path

    return make


def own_timeout(request: pytest.FixtureRequest) -> float:
    """The test's own time limit (its ``timeout`` mark, else the configured one), in seconds."""
    mark = request.node.get_closest_marker("timeout")
    if mark is not None and mark.args:
        return float(mark.args[0])
    return float(request.config.getini("timeout") or 300)


@pytest.fixture
def run_cli(request: pytest.FixtureRequest) -> Callable[..., CliRun]:
    """Run ``python -m autograder ARGS`` in a real process; echo its output when it fails. The
    process may take as long as the test may (less a little, to say what it was doing): a
    busy machine slows both alike."""
    limit = max(30.0, own_timeout(request) - 20)

    def run(
        *args: str,
        expect_ok: bool = True,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> CliRun:
        done = autograder_process(args, env, timeout or limit)
        if expect_ok and done.returncode != 0:
            print(done.stdout, done.stderr, sep="\n")
        return CliRun(done.returncode, done.stdout, done.stderr)

    return run


@contextlib.contextmanager
def playing(game: Path) -> Iterator[tuple[str, str]]:
    """``autograder play GAME --no-browser`` in a real process: the line it printed and the
    address in it; stopped (politely, as Ctrl-C would) on the way out."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "autograder", "play", str(game), "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "open http://127.0.0.1:" in line, line + (proc.stderr.read() if proc.stderr else "")
        yield line, line.split("open ", 1)[1].split(" ", 1)[0]
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def play_state(url: str) -> dict[str, Any]:
    """The game behind the address ``autograder play`` printed, as its page reads it: ``GET
    /state`` with the same token."""
    address = urllib.parse.urlsplit(url)
    state_url = urllib.parse.urlunsplit(address._replace(path="/state"))
    with urllib.request.urlopen(state_url, timeout=30) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]
