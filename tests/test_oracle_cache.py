"""Oracle table files: location, atomic writes, and refusing files that do not match."""

from __future__ import annotations

import argparse
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.games.teeko.solved import TABLES, build, cache_dir, cache_path, load
from autograder.games.teeko.solved.cache import MAGIC
from autograder.games.teeko.solved.game import Game, slide_goals
from autograder.oracle import OracleError, commands

pytest.importorskip("numpy")

ROW = (((0, 0), (0, 1), (0, 2)), None)
COLUMN = (((0, 0), (1, 0), (2, 0)), None)
TINY = Game("tiny", 3, 3, slide_goals(3, [ROW, COLUMN]))


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TEEKO_ORACLE_CACHE", str(tmp_path))
    return tmp_path


def _build(game: Game = TINY) -> Path:
    for _ in build(game):
        pass
    return cache_path(game.name)


def test_cache_dir_precedence(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert cache_dir() == tmp_path
    monkeypatch.delenv("TEEKO_ORACLE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", "/somewhere")
    assert cache_dir() == Path("/somewhere/teeko-autograder")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "teeko-autograder"
    assert cache_path("teeko2").name == "teeko2.oracle"


def test_build_writes_one_checked_file(cache: Path) -> None:
    path = _build()
    assert sorted(p.name for p in cache.iterdir()) == ["tiny.oracle"]
    raw = path.read_bytes()
    assert raw.startswith(MAGIC)
    header = json.loads(raw[len(MAGIC) :].split(b"\n", 1)[0])
    assert header["format"] == 2 and header["game"] == TINY.definition()
    assert header["levels"] == [1, 9, 72, 252, 756, 1260, 1680]
    # Rows and columns map onto each other by every turn and mirror of the board: one row per
    # orbit of the other side's placements of 0-3 markers is kept, 1, 3, 8 and 16 of them
    # (Burnside's count; of 1, 9, 36 and 84 placements).
    assert header["folded_levels"] == [1, 3, 24, 56, 168, 240, 320]
    assert header["compression"] == "zlib"
    assert header["stats"]["positions"] == sum(header["levels"])
    oracle = load(TINY)
    assert oracle.stats == header["stats"]


def test_the_last_report_carries_the_stats() -> None:
    reports = list(build(TINY))
    assert reports[-1].stage == "done" and reports[-1].fraction == 1.0
    assert reports[-1].stats is not None and "longest_move_phase_win" in reports[-1].stats
    assert "write" in {r.stage for r in reports}


@pytest.mark.parametrize("stop_at", ["classify", "retrograde", "drop", "write"])
def test_an_interrupted_build_leaves_nothing(cache: Path, stop_at: str) -> None:
    reports = build(TINY)
    for report in reports:
        if report.stage == stop_at:
            break
    reports.close()
    assert list(cache.iterdir()) == []
    with pytest.raises(OracleError, match="there is no oracle table for 'tiny'"):
        load(TINY)


def test_a_stale_temporary_file_is_cleaned_up(cache: Path) -> None:
    stale = cache / ".tiny.oracle.999999999.tmp"
    stale.write_bytes(b"half a table")
    mine = cache / f".tiny.oracle.{os.getpid()}.tmp.keep"
    mine.write_bytes(b"not ours to delete")
    _build()
    assert not stale.exists() and mine.exists()


def test_missing_file_names_the_build_command() -> None:
    with pytest.raises(OracleError, match=r"oracle build --variant tiny"):
        load(TINY)


def test_a_damaged_payload_is_refused() -> None:
    path = _build()
    raw = bytearray(path.read_bytes())
    raw[-10] ^= 0x40
    path.write_bytes(bytes(raw))
    with pytest.raises(OracleError, match=r"tiny.oracle is damaged \(its checksum"):
        load(TINY)


def test_a_truncated_file_is_refused() -> None:
    path = _build()
    path.write_bytes(path.read_bytes()[:-1])
    with pytest.raises(OracleError, match="damaged"):
        load(TINY)


def test_other_rules_are_refused_in_one_sentence() -> None:
    _build()
    changed = Game("tiny", 3, 3, slide_goals(3, [ROW]))
    with pytest.raises(OracleError) as caught:
        load(changed)
    message = str(caught.value)
    assert "was built for a different definition of 'tiny'" in message
    assert message.count(". ") == 0 and "\n" not in message


def test_another_format_is_refused() -> None:
    path = _build()
    raw = path.read_bytes()
    head, rest = raw[len(MAGIC) :].split(b"\n", 1)
    header = json.loads(head)
    header["format"] = 99
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + rest)
    with pytest.raises(OracleError, match="oracle format 99 but this kit reads format 2"):
        load(TINY)


def test_a_table_of_the_first_format_is_refused_and_rebuilt(
    cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Format 1 (one byte per position, unfolded, 97 MB) is what earlier kits cached."""
    game = TINY.definition()
    header = {"format": 1, "game": game, "levels": [1, 9, 72, 252, 756, 1260, 1680]}
    path = cache / "tiny.oracle"
    path.write_bytes(MAGIC + json.dumps(header).encode() + b"\n" + bytes(2330))
    with pytest.raises(OracleError) as caught:
        load(TINY)
    assert str(caught.value) == (
        f"{path} is in oracle format 1 but this kit reads format 2; "
        "rebuild it with `autograder oracle build --variant tiny`"
    )
    # `autograder oracle build` (no --force) says why and builds it again.
    tiny = replace(TABLES, load=lambda name: load(TINY), build=lambda name: build(TINY))
    monkeypatch.setattr(commands, "_games", lambda names: [(tiny, "tiny")])
    monkeypatch.setenv("COLUMNS", "1000")  # the path on one line, however deep the temp folder
    assert commands._build(argparse.Namespace(variant=None, force=False)) == 0
    said = capsys.readouterr().err
    assert "tiny: " + str(caught.value) + "; building it again" in " ".join(said.split())
    assert load(TINY).header["format"] == 2


@pytest.mark.parametrize("content", [b"", b"hello\n", MAGIC + b"{not json\n"])
def test_foreign_files_are_refused(cache: Path, content: bytes) -> None:
    (cache / "tiny.oracle").write_bytes(content)
    with pytest.raises(OracleError, match="not an oracle table|damaged header"):
        load(TINY)


def test_unknown_variant_lists_the_known_ones() -> None:
    with pytest.raises(OracleError, match="choose one of teeko, teeko2, teeko2-diamond"):
        load("teeko3")
