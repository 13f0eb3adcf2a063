"""The test command itself: CI runs exactly the README's, and its serial pass names real files."""

from __future__ import annotations

from types import SimpleNamespace

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
        'python -m pytest -n 3 --dist worksteal -m "not serial" && python -m pytest -m serial'
    )


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
