"""``--cluster``: a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1 play
a tournament and grade a class; a worker killed mid-run costs nothing; the grades and the
table equal a local run's."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from autograder.classroom.cluster import INSTALL
from tests.conftest import ROOT
from tests.test_tournament import SIMPLE_ZIP, STARTER_ZIP

pytest.importorskip("distributed", reason=f"Dask's distributed is not installed: {INSTALL}")

STARTUP = 90.0  # seconds for the scheduler and the workers to come up on a busy machine


def _dask(*args: str, log: Path) -> subprocess.Popen[bytes]:
    """``dask ARGS`` from this Python's environment, its output in ``log``."""
    dask = Path(sys.executable).with_name("dask")
    with log.open("wb") as out:
        return subprocess.Popen(
            [str(dask), *args],
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
            start_new_session=True,
        )


def _until(what: str, ok: Callable[[], bool], deadline: float) -> None:
    while not ok():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        time.sleep(0.2)


@contextlib.contextmanager
def cluster(folder: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A scheduler and two single-threaded workers (no nanny: killing one kills it) on
    127.0.0.1; the scheduler's address and the workers. Every process is ended on the way out."""
    from distributed import Client

    started: list[subprocess.Popen[bytes]] = []
    file = folder / "scheduler.json"
    try:
        started.append(
            _dask(
                "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                "--scheduler-file", str(file), log=folder / "scheduler.log",
            )
        )  # fmt: skip
        _until("the scheduler's file", file.exists, time.monotonic() + STARTUP)
        workers = [
            _dask(
                "worker", "--scheduler-file", str(file), "--nthreads", "1", "--no-nanny",
                "--no-dashboard", "--name", f"w{i}", log=folder / f"worker{i}.log",
            )
            for i in (1, 2)
        ]  # fmt: skip
        started += workers
        with Client(scheduler_file=str(file), timeout="30s") as client:
            client.wait_for_workers(2, timeout=STARTUP)
            address = client.scheduler.address
        yield address, workers
    finally:
        # The workers first, each while the scheduler is still up: a worker told to stop while
        # its scheduler closes can hang in its own shutdown (30 s until the kill below).
        for proc in reversed(started):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _class(folder: Path) -> Path:
    folder.mkdir()
    for zipped in (STARTER_ZIP, SIMPLE_ZIP):
        shutil.copy(zipped, folder)
    return folder


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_tournament_on_a_cluster_survives_a_killed_worker_and_equals_a_local_run(
    tmp_path, run_cli
):
    students = _class(tmp_path / "class")
    args = ["tournament", str(students), "-a", "teeko2", "--with", "random,greedy"]
    local = run_cli(*args, "--out", str(tmp_path / "local"), "--jobs", "2")
    assert local.returncode == 0, local.stderr
    out = tmp_path / "dask"
    with cluster(tmp_path) as (address, workers):
        command = [sys.executable, "-m", "autograder", *args, "--out", str(out)]
        run = subprocess.Popen(
            [*command, "--cluster", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            games = out / "games"
            _until(
                "the first game on the cluster",
                lambda: games.is_dir() and any(games.glob("*.json")),
                time.monotonic() + 300,
            )
            os.killpg(workers[0].pid, signal.SIGKILL)  # mid-run: its game is lost with it
            saved_at_kill = len(list(games.glob("*.json")))
            stdout, stderr = run.communicate(timeout=600)
        finally:
            if run.poll() is None:
                run.kill()
                run.communicate()
    assert run.returncode == 0, stderr
    assert "worker tcp://127.0.0.1:" in stderr and "fence" in stderr  # each worker's layers
    assert saved_at_kill < 36, "the run ended before the worker was killed: nothing was tried"
    assert "36 games played in" in stderr  # 4 players, 3 openings, both colours
    assert (out / "leaderboard.csv").read_text() == (
        tmp_path / "local" / "leaderboard.csv"
    ).read_text()


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_grades_on_a_cluster_equal_a_local_runs(tmp_path, run_cli):
    students = _class(tmp_path / "class")
    args = ["grade", str(students), "-a", "teeko2"]
    local = run_cli(*args, "--out", str(tmp_path / "local"), "--jobs", "2")
    assert local.returncode == 0, local.stderr
    with cluster(tmp_path) as (address, _):
        remote = run_cli(*args, "--out", str(tmp_path / "dask"), "--cluster", address)
    assert remote.returncode == 0, remote.stderr
    grades = (tmp_path / "dask" / "grades.csv").read_text()
    assert grades == (tmp_path / "local" / "grades.csv").read_text()
    assert "lnguyen,50," in grades and "aschmidt,90," in grades
    feedback = tmp_path / "dask" / "students" / "aschmidt" / "feedback.html"
    assert "Score: 90/100" in feedback.read_text()


@pytest.mark.slow
@pytest.mark.long(10)  # the client's 10 s of trying to connect
def test_an_unreachable_cluster_is_one_sentence_saying_how_to_start_one(tmp_path, run_cli):
    students = _class(tmp_path / "class")
    done = run_cli(
        "grade", str(students), "-a", "teeko2", "--out", str(tmp_path / "o"),
        "--cluster", "tcp://127.0.0.1:9", expect_ok=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot reach a Dask scheduler at tcp://127.0.0.1:9" in done.stderr
    assert "dask worker" in done.stderr and "Traceback" not in done.stderr
