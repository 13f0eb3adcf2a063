"""``autograder oracle build | query | info`` without a full table: wiring, errors, progress."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.games.teeko.rules import parse_position
from autograder.games.teeko.solved import TABLES, cache_path
from autograder.games.teeko.solved.core import build
from autograder.games.teeko.solved.game import Game, game_for, slide_goals
from autograder.games.teeko.variants import find_variant
from autograder.oracle import Verdict
from autograder.oracle.commands import _run_with_progress, add_oracle_commands, answers
from tests.conftest import NO_STDIN

ROOT = Path(__file__).resolve().parent.parent


class StubOracle:
    """Answers every position with the number of black markers as its plies."""

    game = game_for(find_variant("teeko"))
    name = game.name
    stats: dict[str, int] = {}

    def value(self, position) -> Verdict:  # type: ignore[no-untyped-def]
        return Verdict("win", position.black.bit_count())


def _oracle_cli(
    *args: str, cache: Path, stdin: str | None = ""
) -> subprocess.CompletedProcess[str]:
    """``python -m autograder.oracle ARGS`` reading ``stdin``; None: started with no stdin."""
    return subprocess.run(
        [*(NO_STDIN if stdin is None else []), sys.executable, "-m", "autograder.oracle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "TEEKO_ORACLE_CACHE": str(cache)},
    )


def test_one_answer_per_line_and_errors_do_not_stop_the_rest() -> None:
    lines = [
        "b........................ r\n",
        "not a position\n",
        "b....x................... r\r\n",
        "\n",
        "bb.......r.............r. b",
    ]
    out = io.StringIO()
    errors = answers(TABLES, StubOracle(), lines, out)
    assert [error.split(":")[0] for error in errors] == ["line 2", "line 3", "line 4"]
    got = [json.loads(line) for line in out.getvalue().splitlines()]
    assert got[0] == {"value": "win", "plies": 1}
    assert got[1] == {
        "error": "'not a position' is not a position: write 25 characters of b, r or . "
        "(row 0 first), a space and the side to move"
    }
    assert got[2] == {"error": "character 6 of the position is 'x'; use b, r or ."}
    assert "is not a position" in got[3]["error"]
    assert got[4] == {"value": "win", "plies": 2}


@pytest.mark.skipif(not cache_path("teeko").exists(), reason="run `autograder oracle build`")
def test_query_answers_every_line_then_fails_in_one_line_when_one_was_not_a_position() -> None:
    """A script piping positions in learns from the exit status that an answer is missing."""
    good = "......................... b\n"
    cache = cache_path("teeko").parent
    done = _oracle_cli("query", "--variant", "teeko", cache=cache, stdin=good + "oops\n" + good)
    assert done.returncode == 2
    assert [json.loads(line).get("value") for line in done.stdout.splitlines()] == [
        "draw",
        None,
        "draw",
    ]
    assert done.stderr == (
        "autograder: 1 input line was not answered (line 2: 'oops' is not a position: write 25 "
        "characters of b, r or . (row 0 first), a space and the side to move)\n"
    )
    assert _oracle_cli("query", "--variant", "teeko", cache=cache, stdin=good).returncode == 0


def test_query_with_no_standard_input_says_how_to_give_positions(tmp_path: Path) -> None:
    done = _oracle_cli("query", "--variant", "teeko2", cache=tmp_path, stdin=None)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "autograder: there is no standard input to read positions from: pipe them in, one per "
        'line, as echo "......................... b" | autograder oracle query --variant teeko2\n'
    )


def test_query_without_a_table_fails_in_one_line(tmp_path: Path) -> None:
    done = _oracle_cli("query", "--variant", "teeko2", cache=tmp_path, stdin="x\n")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("autograder: there is no oracle table for 'teeko2' at ")
    assert "autograder oracle build --variant teeko2" in done.stderr


def test_unknown_variant(tmp_path: Path) -> None:
    done = _oracle_cli("build", "--variant", "teeko9", cache=tmp_path)
    assert done.returncode == 2
    assert done.stderr == (
        "autograder: --variant: unknown variant 'teeko9': choose one of teeko, teeko2, "
        "teeko2-diamond\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_info_lists_every_variant(tmp_path: Path) -> None:
    done = _oracle_cli("info", cache=tmp_path)
    assert done.returncode == 0
    assert done.stdout.splitlines() == [
        f"{name}: not built ({tmp_path / (name + '.oracle')})"
        for name in ("teeko", "teeko2", "teeko2-diamond")
    ]


def test_info_reports_an_unusable_file(tmp_path: Path) -> None:
    (tmp_path / "teeko.oracle").write_bytes(b"junk")
    done = _oracle_cli("info", "--variant", "teeko", cache=tmp_path)
    assert done.stdout.startswith("teeko: unusable: ")
    assert "is not an oracle table" in done.stdout


def test_wiring_into_a_parser() -> None:
    parser = argparse.ArgumentParser(prog="autograder")
    add_oracle_commands(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["oracle", "build", "--variant", "teeko", "--variant", "teeko2"])
    assert args.variant == ["teeko", "teeko2"] and not args.force and callable(args.run)
    args = parser.parse_args(["oracle", "query", "--variant", "teeko2"])
    assert args.variant == "teeko2"
    with pytest.raises(SystemExit):
        parser.parse_args(["oracle", "query"])  # the variant is required to answer


def test_progress_bar_runs_a_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numpy")
    from rich.console import Console

    monkeypatch.setenv("TEEKO_ORACLE_CACHE", str(tmp_path))
    game = Game("tiny", 3, 3, slide_goals(3, [(((0, 0), (0, 1), (0, 2)), None)]))
    console = Console(file=io.StringIO(), force_terminal=True, width=100)
    stats = _run_with_progress(build(game), game.name, console)
    assert stats["positions"] == 4030
    assert cache_path("tiny").exists()


def test_position_text_is_what_query_reads() -> None:
    pos = parse_position("b" + "." * 24 + " r", "teeko")
    assert (pos.black, pos.red, pos.turn) == (1, 0, "r")
