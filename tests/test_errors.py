"""What a command says when it cannot finish: a bad input, or the kit's own failure."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from autograder.errors import GraderError, run_command


def _parser(fails: Exception) -> argparse.ArgumentParser:
    def run(args: argparse.Namespace) -> int:
        raise fails

    parser = argparse.ArgumentParser(prog="autograder")
    parser.set_defaults(run=run)
    return parser


def test_a_bad_input_is_one_line_and_status_2(capsys):
    assert run_command(_parser(GraderError("game.zip is not a zip file")), []) == 2
    assert capsys.readouterr().err == "autograder: game.zip is not a zip file\n"


@pytest.mark.parametrize(
    "failure",
    [RecursionError("maximum recursion depth exceeded"), OSError(5, "Input/output error")],
    ids=["a bug", "an error with no file"],
)
def test_the_kits_own_failure_is_one_line_naming_the_file_that_keeps_its_traceback(capsys, failure):
    assert run_command(_parser(failure), []) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(
        f"autograder: the kit itself failed ({type(failure).__name__}: "
    )
    assert "nothing in your input is at fault; please report it with the details in " in err
    kept = Path(err.rsplit(" ", 1)[1].strip())
    try:
        assert "Traceback (most recent call last)" in kept.read_text()
        assert f"{type(failure).__name__}: " in kept.read_text()
    finally:
        kept.unlink()
