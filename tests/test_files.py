"""Files replaced whole or not at all."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from autograder.files import (
    atomic_file,
    remove_stale,
    remove_stale_folders,
    replace_folder,
    write_atomic,
)


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


def test_a_folder_is_replaced_whole(tmp_path):
    folder = tmp_path / "students" / "alice"
    replace_folder(folder, {"feedback.md": "old", "feedback.html": "<p>old</p>"})
    replace_folder(folder, {"feedback.md": "new", "record.json": b"{}"})
    assert sorted(p.name for p in folder.iterdir()) == ["feedback.md", "record.json"]
    assert (folder / "feedback.md").read_text() == "new"
    assert [p.name for p in folder.parent.iterdir()] == ["alice"], "nothing left beside it"


def test_a_folder_whose_write_fails_is_left_as_it_was(tmp_path, monkeypatch):
    folder = tmp_path / "students" / "alice"
    replace_folder(folder, {"feedback.md": "old", "record.json": "{}"})
    real_open, opened = open, []

    def full(path, mode="r", *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(Path(path).name)
        if len(opened) == 2:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", full)
    with pytest.raises(OSError, match="No space left on device"):
        replace_folder(folder, {"feedback.md": "new", "record.json": '{"new": 1}'})
    monkeypatch.undo()
    assert opened == ["feedback.md", "record.json"]
    assert (folder / "feedback.md").read_text() == "old"
    assert [p.name for p in folder.parent.iterdir()] == ["alice"], "no half-written folder"


def test_folders_left_by_a_dead_writer_go_and_a_live_writers_stay(tmp_path):
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    stale = tmp_path / f".alice.{dead}.abc_12.new"
    old = tmp_path / f".bob.{dead}.def_34.old"
    live = tmp_path / f".carol.{os.getpid()}.ghi_56.new"
    for folder in (stale, old, live):
        (folder).mkdir()
        (folder / "feedback.md").write_text("half")
    (tmp_path / "dave").mkdir()
    remove_stale_folders(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == [live.name, "dave"]
