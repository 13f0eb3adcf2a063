"""Which protections the machine offers a submission's process, decided once per grader run.

Layers, each used where available (KIT_SPEC §5, docs/sandbox.md):

- always: a separate process in its own session, killed with its whole group, stdin closed,
  a private empty working folder, the grader's own clock;
- resource limits (POSIX): memory, file size, no core dumps, and a process count when the
  child runs as its own user;
- another user: when the grader is root, each child drops to an unused uid of its own;
- namespaces (the ``unshare`` tool, as root): a private mount namespace with a fresh ``/tmp``
  and everything else read-only, the kit's solutions and rubrics and the batch's inputs and
  outputs hidden, no network, and a pid namespace so nothing the child starts outlives it,
  with at most ``PROCESS_LIMIT`` processes where the kernel lets pid_max be set per namespace.

``TEEKO_SANDBOX=off`` turns the optional layers off (for debugging a submission).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "Protections",
    "available",
    "command_prefix",
    "next_uid",
    "kit_hidden_paths",
    "descendants",
    "PROCESS_LIMIT",
]

_UNSHARE = [
    "unshare",
    "--mount",
    "--net",
    "--pid",
    "--fork",
    "--kill-child",
    "--mount-proc",
    "--propagation",
    "private",
    "--",
]
_FIRST_UID = 61000
PROCESS_LIMIT = 301  # pids (processes and threads) in a child's pid namespace: the least allowed
_UID_SLOTS = 4000
_uids = itertools.count()


@dataclass(frozen=True)
class Protections:
    resource_limits: bool
    other_user: bool
    namespaces: bool
    process_limit: int = 0  # pid_max of the child's pid namespace (Linux 6.14+); 0: none

    def describe(self) -> list[str]:
        """One line per layer, for the report header; a warning where a layer is missing."""
        lines = ["own process group, killed whole; stdin closed; private working folder"]
        lines.append(
            "resource limits: memory, file size" + (", processes" if self.other_user else "")
            if self.resource_limits
            else "warning: no resource limits on this platform"
        )
        if self.other_user:
            lines.append("runs as its own unprivileged user")
        elif self.namespaces:
            lines.append(
                "runs as root with every capability dropped (Python is not readable "
                "by other users here)"
            )
        else:
            lines.append(
                "warning: runs as the grader's user, so it can read and write what the grader can"
            )
        lines.append(
            "private /tmp, read-only filesystem, solutions and other submissions hidden, "
            "no network, own process ids"
            + (f", at most {self.process_limit} processes" if self.process_limit else "")
            if self.namespaces
            else "warning: no namespaces (needs root and the unshare tool): the filesystem "
            "and the network are not fenced off"
        )
        if not (self.process_limit or self.other_user):
            lines.append("warning: no limit on the number of processes (no fork-bomb brake)")
        return lines


def _unshare_works(command: str = "true") -> bool:
    if shutil.which("unshare") is None:
        return False
    try:
        done = subprocess.run(
            [*_UNSHARE, "sh", "-c", command],
            capture_output=True,
            timeout=10,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _process_limit_works() -> bool:
    """Whether pid 1 of a new pid namespace may lower its namespace's pid_max (Linux 6.14+)."""
    path = "/proc/sys/kernel/pid_max"
    return _unshare_works(
        f'echo {PROCESS_LIMIT} > {path} && test "$(cat {path})" = {PROCESS_LIMIT}'
    )


def _python_works_as_another_user() -> bool:
    """Whether an unprivileged uid can run this Python: an interpreter installed under a
    private home folder (pyenv under /root) cannot even import its standard library."""
    if shutil.which("setpriv") is None:
        return False
    command = [
        "setpriv",
        f"--reuid={_FIRST_UID}",
        f"--regid={_FIRST_UID}",
        "--clear-groups",
        sys.executable,
        "-s",
        "-c",
        "import os, subprocess, json, ctypes, select, threading, resource; print(os.__file__)",
    ]
    try:
        done = subprocess.run(command, capture_output=True, timeout=10, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError):
        return False
    # Where it cannot read our interpreter's home, Python silently falls back to another
    # standard library (seen: /usr/lib/python3.11 instead of pyenv's): that is a "no".
    return done.returncode == 0 and done.stdout.decode().strip() == os.__file__


@functools.cache
def available() -> Protections:
    """The layers this machine offers, probed once per grader run."""
    if os.environ.get("TEEKO_SANDBOX", "").lower() in ("off", "0", "no"):
        return Protections(resource_limits=_has_resource(), other_user=False, namespaces=False)
    root = hasattr(os, "geteuid") and os.geteuid() == 0
    namespaces = root and _unshare_works()
    return Protections(
        resource_limits=_has_resource(),
        other_user=root and _python_works_as_another_user(),
        namespaces=namespaces,
        process_limit=PROCESS_LIMIT if namespaces and _process_limit_works() else 0,
    )


def _has_resource() -> bool:
    try:
        import resource  # noqa: F401
    except ImportError:
        return False
    return True


def command_prefix(protections: Protections) -> list[str]:
    """What goes before ``python child.py ...``: the namespace tool, or nothing."""
    return list(_UNSHARE) if protections.namespaces else []


def next_uid(protections: Protections) -> int | None:
    """A uid no other running child shares (so they cannot signal each other), or None."""
    if not protections.other_user:
        return None
    return _FIRST_UID + next(_uids) % _UID_SLOTS


def kit_hidden_paths() -> list[Path]:
    """The kit's own secrets: reference solutions, rubric files and the oracle's tables."""
    package = Path(__file__).resolve().parent
    cache = os.environ.get("TEEKO_ORACLE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "teeko-autograder"
    )
    candidates = [package.parent / "solution", package / "rubrics", Path(cache)]
    return [path for path in candidates if path.exists()]


def descendants(root: int) -> list[int]:
    """Every live process below ``root``, children first; read from /proc (Linux), so empty
    where there is none (macOS: the host's process-group kill is all there is)."""
    parents: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            with (
                contextlib.suppress(OSError, ValueError, IndexError),
                open(f"/proc/{name}/stat", "rb") as handle,
            ):
                state, parent = handle.read().rsplit(b")", 1)[1].split()[:2]
                if state != b"Z":  # a zombie is dead already, waiting for its parent
                    parents[int(name)] = int(parent)
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found, queue = [], list(children.get(root, []))
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found
