"""Which protections the machine offers a submission's process, probed once per grader run.

Layers, each used where available (KIT_SPEC §5, docs/sandbox.md):

- always: a separate process in its own session, killed with its whole group, stdin closed,
  a private empty working folder, the grader's own clock;
- resource limits (POSIX): address space, file size, open files, no core dumps;
- the fence (bubblewrap, ``fence.py``): an allowlist filesystem, no network, own process ids;
- an unprivileged identity: when the grader is root, each child switches to a uid of its own
  and holds no capability; otherwise it keeps the grader's (non-root) user;
- cgroups (``cgroups.py``): memory for all its processes, a process count, one CPU core, its
  CPU time, and a freezer that stops it between calls;
- seccomp (``seccomp.py``): the system calls a game never needs are refused.

Each layer is tried for real before it is reported: the probe runs the child runner through
the same launch as a submission (``child.py --probe``) and reads back what it could do.
``TEEKO_SANDBOX=off`` turns every optional layer off (a student's laptop, debugging);
``TEEKO_SANDBOX=portable`` uses the runner Windows uses (no ``fork``, ``resource`` or
``pass_fds``), so that Linux CI can prove it grades the same.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.play import cgroups, fence, seccomp

__all__ = [
    "Protections",
    "available",
    "runner_command",
    "next_uid",
    "descendants",
    "tree_cpu_seconds",
    "CHILD",
    "INSTALL_BWRAP",
    "LAYERS",
    "missing_line",
]

CHILD = Path(__file__).with_name("child.py")
PORTABLE_WHY = "Windows, or TEEKO_SANDBOX=portable"
INSTALL_BWRAP = "apt install bubblewrap"  # Debian and Ubuntu; dnf and pacman call it the same
# The optional layers a class should not be graded without: id -> (name, what their absence
# allows, how to get it). Said once at the top of a class's outputs (docs/sandbox.md).
LAYERS = {
    "fence": (
        "the filesystem fence",
        "a submission can read every file the grader can, and reach the network",
        f"{INSTALL_BWRAP}, on a kernel that allows namespaces",
    ),
    "cgroups": (
        "cgroups",
        "no memory or CPU limit holds a submission's processes together",
        "run the grader as root, with a writable cgroup hierarchy",
    ),
    "seccomp": (
        "the seccomp filter",
        "system calls a game never needs are allowed",
        "Linux on x86-64 or arm64",
    ),
}
_FIRST_UID = 61000
_UID_SLOTS = 4000
_uids = itertools.count()
_PROBE_SECONDS = 20


@dataclass(frozen=True)
class Protections:
    resource_limits: bool
    fence: bool = False  # bubblewrap: allowlist filesystem, no network, own pid namespace
    own_uid: bool = False  # as root: each child runs as an unprivileged uid of its own
    cgroups: cgroups.Support | None = None
    seccomp: bool = False
    root: bool = False  # the grader runs as root
    portable: bool = False  # the runner without fork, resource or pass_fds (Windows)

    def missing(self) -> tuple[str, ...]:
        """The ids (keys of :data:`LAYERS`) of the optional layers this machine lacks."""
        have = {"fence": self.fence, "cgroups": self.cgroups is not None, "seccomp": self.seccomp}
        return tuple(layer for layer in LAYERS if not have[layer])

    def describe(self) -> list[str]:
        """One line per layer, for the report header; a warning where a layer is missing."""
        if self.portable:
            lines = [
                "own process, killed with what it started; stdin closed; private working folder",
                f"warning: portable runner ({PORTABLE_WHY}): no memory, file-size or "
                "open-file limit, and a process the submission starts and detaches may "
                "outlive it",
            ]
        else:
            lines = ["own process group, killed whole; stdin closed; private working folder"]
            lines.append(
                "resource limits: address space, file size, open files"
                if self.resource_limits
                else "warning: no resource limits on this platform"
            )
        if self.own_uid:
            lines.append("runs as an unprivileged user of its own, with no capability")
        elif self.root:
            lines.append(
                f"warning: runs as root without capabilities: no other user can run this "
                f"Python and bubblewrap is missing ({INSTALL_BWRAP})"
            )
        elif self.fence:
            lines.append("runs as the grader's own (non-root) user, with no capability")
        else:
            lines.append(
                "warning: runs as the grader's user, so it can read and write what the grader can"
            )
        lines.append(
            "fence: sees only Python, its standard library, the runner and its own files; "
            "private /tmp; no network; own process ids; /proc/sys read-only"
            if self.fence
            else f"warning: no filesystem fence ({INSTALL_BWRAP}, and a kernel that allows "
            "namespaces): the submission sees every file the grader can, and the network"
        )
        lines.append(
            f"cgroups v{self.cgroups.version}: memory for all its processes together, "
            "a process count, one CPU core, frozen between calls"
            if self.cgroups
            else "warning: no cgroups (needs a writable cgroup hierarchy, usually root): memory "
            "is limited per process, and the submission can run between calls"
        )
        if not self.cgroups and not self.own_uid:
            lines.append("warning: no limit on the number of processes (no fork-bomb brake)")
        lines.append(
            "seccomp: namespaces, mounts, ptrace, keys, bpf, io_uring and other calls a game "
            "never needs are refused"
            if self.seccomp
            else "warning: no seccomp filter (needs Linux on x86-64 or arm64)"
        )
        return lines


def missing_line(layers: tuple[str, ...] | list[str], subject: str) -> str:
    """One sentence for the top of a class's outputs: ``subject`` (who was graded) without
    which layers, what that allows and how to get each; "" when no layer was missing."""
    parts = [
        f"{name} ({harm}; to get it: {how})"
        for layer, (name, harm, how) in LAYERS.items()
        if layer in layers
    ]
    if not parts:
        return ""
    return f"warning: {subject} without {' and '.join(parts)}; see docs/sandbox.md"


def runner_command(
    protections: Protections,
    submission: Path,
    driver: Path | None,
    tmp_mb: int,
    packages: tuple[str, ...] = (),
    library: tuple[Path, ...] = (),
    identity: tuple[int, int] | None = None,
) -> list[str]:
    """How to start ``child.py`` for ``submission``: inside the fence where there is one.

    The runner's own arguments follow. Fenced, the submission is at ``fence.SUBMISSION``, the
    game's ``driver`` at ``fence.DRIVER`` and the shared driver modules (``library``) in
    ``fence.LIBRARY``; ``identity`` the descriptors of its ``passwd`` and ``group``.
    """
    if not protections.fence:
        return [sys.executable, "-u", "-s", "-P", "-B", str(CHILD)]
    where = fence.layout(packages)
    prefix = fence.command(
        where,
        CHILD,
        submission,
        driver,
        tmp_mb,
        privileged=protections.root,
        library=library,
        identity=identity,
    )
    return [*prefix, where.interpreter, "-u", "-s", "-P", "-B", fence.CHILD]


def next_uid(protections: Protections) -> int | None:
    """A uid no other running child shares (so they cannot signal each other), or None."""
    if not protections.own_uid:
        return None
    return _FIRST_UID + next(_uids) % _UID_SLOTS


def _probe_child(protections: Protections, uid: int | None) -> dict[str, Any] | None:
    """Run the child runner's self-test exactly as a submission is started; what it reports."""
    filter_bytes = seccomp.filter_for()
    settings = {"uid": uid, "seccomp": filter_bytes.hex() if filter_bytes else None}
    with tempfile.TemporaryDirectory(prefix="teeko-probe-") as empty:
        command = [
            *runner_command(protections, Path(empty), None, 1),
            "--probe",
            json.dumps(settings),
        ]
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                timeout=_PROBE_SECONDS,
                stdin=subprocess.DEVNULL,
                cwd=empty,
                env={"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"},
            )
        except (OSError, subprocess.SubprocessError):
            return None
    if done.returncode != 0:
        return None
    try:
        found = json.loads(done.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    return found if isinstance(found, dict) else None


def _has_resource() -> bool:
    try:
        import resource  # noqa: F401
    except ImportError:
        return False
    return True


@functools.cache
def available() -> Protections:
    """The layers this machine offers, each tried once per grader run."""
    mode = os.environ.get("TEEKO_SANDBOX", "").lower()
    if mode == "portable" or os.name == "nt":
        return Protections(resource_limits=False, portable=True)
    resource_limits = _has_resource()
    if mode in ("off", "0", "no") or sys.platform != "linux":
        return Protections(resource_limits)
    root = os.geteuid() == 0
    groups = cgroups.probe()
    trial = _FIRST_UID + _UID_SLOTS if root else None  # a uid no submission gets
    found: dict[str, Any] | None = None
    fenced = False
    if fence.bwrap() is not None:
        found = _probe_child(Protections(resource_limits, fence=True, root=root), trial)
        fenced = found is not None
    if found is None and root:
        found = _probe_child(Protections(resource_limits, root=root), trial)
    own_uid = bool(root and found and found.get("uid") == trial and found.get("stdlib"))
    return Protections(
        resource_limits,
        fence=fenced and (own_uid or not root),
        own_uid=own_uid,
        cgroups=groups,
        seccomp=bool(found and found.get("seccomp")),
        root=root,
    )


def _processes() -> dict[int, tuple[int, int]]:
    """Every live process: pid -> (parent, CPU clock ticks of it and its reaped children),
    read from /proc (Linux); empty where there is none."""
    table: dict[int, tuple[int, int]] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if not name.isdigit():
                continue
            with (
                contextlib.suppress(OSError, ValueError, IndexError),
                open(f"/proc/{name}/stat", "rb") as handle,
            ):
                fields = handle.read().rsplit(b")", 1)[1].split()
                if fields[0] != b"Z":  # a zombie is dead already, waiting for its parent
                    table[int(name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    return table


def _below(root: int, table: dict[int, tuple[int, int]]) -> list[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, queue = [], list(children.get(root, []))
    while queue:
        pid = queue.pop(0)
        found.append(pid)
        queue.extend(children.get(pid, []))
    return found


def descendants(root: int) -> list[int]:
    """Every live process below ``root``, children first; read from /proc (Linux), so empty
    where there is none (macOS: the host's process-group kill is all there is)."""
    return _below(root, _processes())


def tree_cpu_seconds(root: int) -> float | None:
    """CPU time of ``root`` and every process below it (the reaped ones included), from /proc:
    the measure where there are no cgroups. None where /proc does not show ``root``."""
    table = _processes()
    if root not in table:
        return None
    ticks = sum(table[pid][1] for pid in (root, *_below(root, table)))
    return ticks / os.sysconf("SC_CLK_TCK")
