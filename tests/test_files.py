"""Files replaced whole or not at all."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from autograder.files import atomic_file, remove_stale, write_atomic


def test_a_write_replaces_the_whole_file(tmp_path):
    target = tmp_path / "deep" / "grades.csv"
    write_atomic(target, "student,score\n")
    write_atomic(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in target.parent.iterdir()] == ["grades.csv"]


def test_a_failed_write_leaves_the_old_file_and_no_leftover(tmp_path):
    target = tmp_path / "record.json"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_file(target) as out:
        out.write(b"half")
        raise RuntimeError("the writer died")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]


def test_leftovers_of_dead_writers_go_and_a_live_writers_stay(tmp_path):
    target = tmp_path / "teeko.oracle"
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    stale = tmp_path / f".teeko.oracle.{dead.stdout.strip()}.abc.tmp"
    live = tmp_path / f".teeko.oracle.{os.getpid()}.def.tmp"
    stale.write_bytes(b"x")
    live.write_bytes(b"y")
    remove_stale(target)
    assert not stale.exists() and live.exists()
