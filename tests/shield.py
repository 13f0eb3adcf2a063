"""A cgroup the CPU scheduler favours over everything else on the machine: what an
administrator does (as root) to keep a wall-clock grader's measurements its own on a shared
machine. The tests of the portable runner's fairness use it, so that the load they create
themselves is the only load their wall clock sees."""

from __future__ import annotations

import contextlib
import os
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

__all__ = ["favoured"]

# (the cpu controller's folder, its weight file, the highest weight it takes)
_V1 = (Path("/sys/fs/cgroup/cpu"), "cpu.shares", 262144)  # everything else: 1024 a task
_V2 = (Path("/sys/fs/cgroup"), "cpu.weight", 10000)  # everything else: 100 a group


def _controller() -> tuple[Path, str, int] | None:
    """Where a favoured group can be made: cgroup v1's cpu hierarchy, or v2's root when it
    hands the cpu controller down; None when not root or neither is there."""
    if os.geteuid() != 0:
        return None
    root, weight, _ = _V1
    if (root / weight).is_file():
        return _V1
    root = _V2[0]
    with contextlib.suppress(OSError):
        if "cpu" in (root / "cgroup.subtree_control").read_text().split():
            return _V2
    return None


@contextlib.contextmanager
def favoured() -> Iterator[Callable[[], None] | None]:
    """A fresh favoured cgroup for the block: yields a ``preexec_fn`` that moves the process
    being started into it (its children follow), or None where none can be made. The group is
    removed on the way out, once the processes in it have ended."""
    found = _controller()
    if found is None:
        yield None
        return
    root, weight, highest = found
    group = root / f"teeko-test-favoured-{uuid.uuid4().hex[:8]}"
    group.mkdir()
    try:
        (group / weight).write_text(str(highest))
        procs = str(group / "cgroup.procs")

        def join() -> None:
            with open(procs, "w") as handle:
                handle.write(str(os.getpid()))

        yield join
    finally:
        deadline = time.monotonic() + 60
        while True:
            try:
                group.rmdir()
                break
            except OSError:  # a process of the group is still ending
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
