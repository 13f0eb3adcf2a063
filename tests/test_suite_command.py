"""The test command itself: CI runs exactly the README's, and its serial pass names real files."""

from __future__ import annotations

from tests.conftest import ROOT, SERIAL_FILES


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
        'python -m pytest -n 2 --dist worksteal -m "not serial" && python -m pytest -m serial'
    )


def test_every_serial_file_exists() -> None:
    """A renamed file would leave the list and run its timing tests beside others."""
    assert {p.name for p in (ROOT / "tests").glob("test_*.py")} >= SERIAL_FILES
