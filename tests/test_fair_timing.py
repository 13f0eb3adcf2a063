"""Fair timing on a busy grader: a move slowed by a neighbour is measured again alone, after the
batch, and the better time counts; the report shows both figures."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import COURSE_TOML, ROOT, fast_solution


def _slowed(clock: str, seconds: float) -> str:
    """The reference solution, its make_move first spinning until ``clock`` (a function of
    the time module) has advanced ``seconds``."""
    return (
        fast_solution("teeko2")
        + f"""
import time as _time

_quick_make_move = Teeko2Player.make_move


def _slow_make_move(self, state):
    began = _time.{clock}()
    while _time.{clock}() - began < {seconds}:
        pass
    return _quick_make_move(self, state)


Teeko2Player.make_move = _slow_make_move
"""
    )


# Three seconds of CPU per move: about 3 s of wall time alone, about 6 s beside one busy
# neighbour on the same core; the rubric's full time points stop at 5 s.
THREE_SECONDS = _slowed("process_time", 3.0)
# The neighbour: burns the CPU for 8 s of wall time in each move.
BURNER = _slowed("monotonic", 8.0)


def _two_probes(tmp_path: Path) -> Path:
    text = COURSE_TOML.read_text()
    for old, new in (
        ("games = 3 ", "games = 0 "),
        ("drop_probes = 10 ", "drop_probes = 2 "),
        ("move_probes = 10 ", "move_probes = 0 "),
    ):
        assert old in text
        text = text.replace(old, new)
    path = tmp_path / "two-probes.toml"
    path.write_text(text)
    return path


def _on_one_core() -> None:
    os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


@pytest.mark.slow
@pytest.mark.timeout(300)
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="needs Linux CPU affinity")
def test_a_move_slowed_by_a_busy_neighbour_is_measured_again_alone(tmp_path):
    """Both students on one core (no cgroups: ``TEEKO_SANDBOX=off``), so the neighbour takes
    half the player's CPU while both are graded; alone after the batch, the player's moves take
    their 3 s again and keep every time point."""
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "player.py").write_text(THREE_SECONDS)
    (folder / "neighbour.py").write_text(BURNER)
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "grade", str(folder), "-a", "teeko2", "--jobs", "2"]
        + ["--out", str(out), "--rubric", str(_two_probes(tmp_path))],
        capture_output=True,
        text=True,
        timeout=280,
        cwd=ROOT,
        env={**os.environ, "TEEKO_SANDBOX": "off", "PYTHONPATH": str(ROOT)},
        preexec_fn=_on_one_core,
    )
    assert done.returncode == 0, done.stderr
    record = json.loads((out / "students" / "player" / "record.json").read_text())
    feedback = (out / "students" / "player" / "feedback.md").read_text()
    twice = re.findall(r"measured twice, ([\d.]+) s while grading, ([\d.]+) s alone", feedback)
    assert twice, feedback
    first, alone = (float(x) for x in twice[0])
    assert first > 5.0, "beside the neighbour the move cost a time tier"
    assert alone < 5.0, "alone it did not"
    assert record["criteria"]["time"] == 25
    assert record["measured_again"] >= 1
    assert "measured again alone after the batch: 2 students" in done.stderr
    neighbour = json.loads((out / "students" / "neighbour" / "record.json").read_text())
    assert neighbour["criteria"]["time"] == 13, "8 s alone too: measured again, still 8 s"
    assert neighbour["measured_again"] >= 1
