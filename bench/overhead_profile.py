"""Where a fast submission's grading time goes: one batch of fast submissions graded with
``--jobs 1``, every step of the grader timed, and the table of steps per submission.

    python bench/overhead_profile.py [--students 5] [--budget 0.02]

Each step's time is its own (exclusive): a step timed inside another is taken out of the
outer one, so the rows add up to the whole grading. The steps the submission's own moves and
constructions take (the ``new``, ``sync`` and ``move`` requests) are what batch_speed.py
counts as its thinking; everything else is the grader's overhead. Figures are medians over
the students. The grader's own CPU time is printed beside the wall time: on a busy machine
the wall time of a step is inflated by other work, its CPU time much less so.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from autograder.classroom import batch, staging, student_folder, submission, worker
from autograder.classroom.batch import grade_batch
from autograder.classroom.records import Entry, Record
from autograder.classroom.worker import Grading
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.play import cgroups, host, referee

ROOT = Path(__file__).resolve().parent.parent
_OTHER = "grader: the rest (referee, probes, opponents, judging)"

_local = threading.local()
_totals: collections.Counter[str] = collections.Counter()  # label -> seconds, this student
_counts: collections.Counter[str] = collections.Counter()  # label -> times, this student
_cpu: collections.Counter[str] = collections.Counter()  # label -> grader CPU seconds


@contextlib.contextmanager
def _span(label: str) -> Iterator[None]:
    """Time ``label``, less the spans inside it."""
    stack: list[list[Any]] = _local.__dict__.setdefault("stack", [])
    frame = [label, time.perf_counter(), 0.0, time.thread_time(), 0.0]
    stack.append(frame)
    try:
        yield
    finally:
        stack.pop()
        spent = time.perf_counter() - frame[1]
        used = time.thread_time() - frame[3]
        _totals[label] += spent - frame[2]
        _cpu[label] += used - frame[4]
        _counts[label] += 1
        if stack:
            stack[-1][2] += spent
            stack[-1][4] += used


def _wrap(owner: Any, name: str, label: str | Callable[..., str]) -> None:
    """Replace ``owner.name`` (a function, method or static method) by a timed one; a name
    the code does not have (an older version of the kit, for comparison) is left out."""
    if name not in owner.__dict__:
        return
    raw = owner.__dict__[name]
    static = isinstance(raw, staticmethod)
    original = raw.__func__ if static else raw

    def timed(*args: Any, **kwargs: Any) -> Any:
        with _span(label if isinstance(label, str) else label(*args, **kwargs)):
            return original(*args, **kwargs)

    setattr(owner, name, staticmethod(timed) if static else timed)


def _request_label(_proc: Any, message: dict[str, Any], *_: Any) -> str:
    op = message.get("op")
    if op == "load":
        return "process: first reply (interpreter, fence, runner, import game.py)"
    return f"submission: '{op}' requests (its own time, with the round trip)"


def _instrument() -> None:
    _wrap(batch, "grade_one", _OTHER)
    _wrap(staging, "open_submission", "stage the submission (unzip/copy into a work folder)")
    _wrap(worker, "save_graded", "reports: record and leaderboard")
    _wrap(student_folder, "markdown", "reports: Markdown (feedback.md)")
    _wrap(student_folder, "results_json_text", "reports: JSON (results.json)")
    _wrap(student_folder, "feedback_html", "reports: HTML (feedback.html)")
    _wrap(student_folder, "games_data", "reports: the games, move by move, for record.json")
    _wrap(Record, "to_json", "reports: record and leaderboard")
    _wrap(student_folder, "replace_folder", "files: write the student's folder (rename, rmtree)")
    _wrap(submission, "_score", "scoring")
    _wrap(worker, "graded_again", "measure again")
    _wrap(referee, "tactic_positions", "probes: tactical positions")
    _wrap(host.PlayerProcess, "_request", _request_label)
    _wrap(host.PlayerProcess, "_start_posix", "process: fork and exec (Popen)")
    _wrap(host.PlayerProcess, "_kill", "process: kill and reap")
    _wrap(host.PlayerProcess, "close", "process: close pipes, remove its work folder")
    _wrap(host.PlayerProcess, "_launch", "process: make its work folder")
    _wrap(host.PlayerProcess, "start", "process: pin its cgroup to a core")
    _wrap(host.PlayerProcess, "_drain_output", "process: read what it printed")
    _wrap(cgroups.Cgroup, "__init__", "cgroup: make it, set its limits, pin it")
    _wrap(cgroups.Cgroup, "_set_frozen", "cgroup: freeze and thaw (and wait for it)")
    _wrap(cgroups.Cgroup, "cpu_seconds", "cgroup: read its CPU time and waits")
    _wrap(cgroups.Cgroup, "waits", "cgroup: read its CPU time and waits")
    _wrap(cgroups.Cgroup, "kill", "cgroup: kill what is in it")
    _wrap(cgroups.Cgroup, "remove", "cgroup: remove its folders")
    original_fsync = os.fsync

    def fsync(fd: int) -> None:
        with _span("files: fsync"):
            original_fsync(fd)

    os.fsync = fsync
    popen = subprocess.Popen.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        _counts["processes started"] += 1
        popen(self, *args, **kwargs)

    subprocess.Popen.__init__ = counted  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=5)
    parser.add_argument("--budget", type=float, default=0.02, help="the solution's TIME_BUDGET")
    args = parser.parse_args()
    source = (ROOT / "solution" / "teeko2" / "game.py").read_text()
    source = re.sub(r"^TIME_BUDGET = .*$", f"TIME_BUDGET = {args.budget}", source, flags=re.M)
    assignment = find_assignment("teeko2")
    rubric = load_rubric(None, assignment.pack)
    _instrument()
    seen: list[tuple[dict[str, float], dict[str, float], dict[str, int], float, Record]] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.py"
        path.write_text(source)
        for index in range(args.students + 1):  # the first warms the caches: not counted
            for counter in (_totals, _cpu, _counts):
                counter.clear()
            began = time.perf_counter()
            out = Path(folder) / f"out{index}"
            grading = Grading(assignment, rubric, 0, out)
            result = grade_batch([Entry(f"s{index:03d}", path)], grading, jobs=1)
            wall = time.perf_counter() - began
            if index:
                seen.append((dict(_totals), dict(_cpu), dict(_counts), wall, result.records[0]))

    def median(figures: Iterator[float]) -> float:
        return statistics.median(list(figures))

    labels = sorted(
        {label for totals, *_ in seen for label in totals},
        key=lambda label: -median(s[0].get(label, 0.0) for s in seen),
    )
    print(
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.students} "
        f"submissions (solution/teeko2, TIME_BUDGET {args.budget}), --jobs 1; medians per "
        "submission"
    )

    def row(label: str, calls: str = "", wall: str = "", cpu: str = "") -> None:
        print(f"| {label:<66} | {calls:>5} | {wall:>8} | {cpu:>7} |")

    row("step", "calls", "wall ms", "CPU ms")
    print(f"|{'-' * 68}|{'-' * 6}:|{'-' * 9}:|{'-' * 8}:|")
    for label in labels:
        calls = median(s[2].get(label, 0) for s in seen)
        wall = median(s[0].get(label, 0.0) for s in seen) * 1000
        cpu = median(s[1].get(label, 0.0) for s in seen) * 1000
        row(label, f"{calls:g}", f"{wall:.1f}", f"{cpu:.1f}")
    row("processes started", f"{median(s[2].get('processes started', 0) for s in seen):g}")
    row(
        "whole grading, reports and files included", wall=f"{median(s[3] for s in seen) * 1000:.1f}"
    )
    overhead = median(s[4].seconds - s[4].thinking_seconds for s in seen) * 1000
    row("overhead as batch_speed.py counts it (seconds - thinking)", wall=f"{overhead:.1f}")


if __name__ == "__main__":
    main()
