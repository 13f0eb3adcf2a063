"""The test command itself: CI runs exactly the README's, and its serial pass names real files."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.conftest import ROOT, SERIAL_FILES, long_first


def _readme_test_command() -> str:
    readme = (ROOT / "README.md").read_text()
    return next(
        line
        for line in readme.splitlines()
        if line.startswith("python3 -m venv") and "python -m pytest" in line
    )


def test_ci_runs_the_readmes_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text().strip().splitlines()
    assert ci[-1] == _readme_test_command()


def test_the_command_runs_the_serial_tests_alone_after_the_others() -> None:
    command = _readme_test_command()
    assert command.endswith(
        '(first=0; python -m pytest -n 3 --dist worksteal -m "not serial" || first=$?; '
        "python -m pytest -m serial && exit $first)"
    )


@pytest.mark.parametrize(
    ("first", "second", "status"),
    [(0, 0, 0), (1, 0, 1), (0, 1, 1), (1, 1, 1)],
    ids=["both pass", "the first fails", "the second fails", "both fail"],
)
def test_both_passes_always_run_and_either_failing_fails_the_command(
    tmp_path: Path, first: int, second: int, status: int
) -> None:
    """The two passes of the README's command, each played by a stand-in ``python`` that
    logs its pass and exits as told, run under CI's ``set -euo pipefail``."""
    passes = _readme_test_command().split("autograder oracle build && ", 1)[1]
    stand_in = tmp_path / "python"
    stand_in.write_text(
        '#!/bin/sh\necho "$*" >> passes.log\n'
        f'case "$*" in *"not serial"*) exit {first};; *) exit {second};; esac\n'
    )
    stand_in.chmod(0o755)
    done = subprocess.run(
        ["bash", "-c", f"set -euo pipefail\n{passes}\necho after"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={"PATH": f"{tmp_path}:/usr/bin:/bin"},
    )
    assert (tmp_path / "passes.log").read_text().count("-m pytest") == 2, "both passes ran"
    assert (done.returncode != 0) == bool(status)
    assert ("after" in done.stdout) == (not status), "CI stops at a failure"


def test_a_misspelt_mark_is_an_error() -> None:
    """``--strict-markers`` in every run: ``@pytest.mark.serail`` would quietly run a timing
    test beside others."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    assert "--strict-markers" in options["ini_options"]["addopts"].split()


def test_every_serial_file_exists() -> None:
    """A renamed file would leave the list and run its timing tests beside others."""
    assert {p.name for p in (ROOT / "tests").glob("test_*.py")} >= SERIAL_FILES


class _Item:
    """A stand-in collected test: a name and, maybe, a ``long(seconds)`` mark."""

    def __init__(self, name: str, seconds: float = 0.0) -> None:
        self.name, self.seconds = name, seconds

    def get_closest_marker(self, name: str) -> SimpleNamespace | None:
        return SimpleNamespace(args=(self.seconds,)) if name == "long" and self.seconds else None


def test_each_workers_first_block_opens_with_its_share_of_the_long_tests() -> None:
    """Worksteal hands three workers 3, 3 and 4 of ten tests: each block opens with long tests
    worth about the same, the longest first; the short ones keep their order."""
    items = [_Item(f"short{i}") for i in range(6)]
    items[1:1] = [_Item("a", 100), _Item("b", 60)]
    items += [_Item("c", 50), _Item("d", 30)]
    ordered = [item.name for item in long_first(items, 3)]  # type: ignore[arg-type]
    assert ordered == [
        "a", "short0", "short1",
        "b", "short2", "short3",
        "c", "d", "short4", "short5",
    ]  # fmt: skip


SKIPS = """
import pytest
from autograder.play.sandbox import INSTALL_BWRAP
from tests.browser import SKIP_MESSAGE


def test_without_the_fence():
    pytest.skip(f"needs the fence: {INSTALL_BWRAP}")


@pytest.mark.skipif(True, reason=SKIP_MESSAGE)
def test_without_chromium():
    pass


def test_without_something_else():
    pytest.skip("needs Linux CPU affinity")
"""


@pytest.mark.parametrize(
    ("ci", "outcome"), [("true", "1 failed, 1 skipped, 1 error"), ("", "3 skipped")]
)
def test_in_ci_a_test_that_would_skip_for_want_of_bubblewrap_or_chromium_fails(
    tmp_path: Path, ci: str, outcome: str
) -> None:
    """CI installs both: there, a skip that says "install it" hides a test nobody ran (a skip
    in a test's setup, its skipif, fails as an error)."""
    (tmp_path / "test_skips.py").write_text(SKIPS)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-q", "-p", "no:cacheprovider"]
        + ["--rootdir", str(tmp_path), str(tmp_path / "test_skips.py")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "CI": ci, "PYTHONPATH": str(ROOT)},
    )
    assert done.stdout.splitlines()[-1].startswith(outcome), done.stdout
