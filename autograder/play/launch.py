"""How a submission's process is started: the limits, the command line, the runner's settings
and the environment, decided in one place from the sandbox layers this machine offers."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from autograder.games import grid_driver
from autograder.play import fence, seccomp
from autograder.play.cgroups import Cgroup, join_command
from autograder.play.sandbox import Protections, runner_command
from autograder.play.streams import pipe_above_streams

__all__ = ["Limits", "Launch", "LIBRARY", "PACKAGES", "identity_pipes", "missing_packages"]

PACKAGES = ("numpy",)  # third-party packages a submission may import (the rubric's default)
# The kit's shared driver modules, by the name a driver imports them by: the fence shows them
# read-only and the runner lends them to the driver while it loads (docs/sandbox.md).
LIBRARY = {grid_driver.__name__: Path(grid_driver.__file__)}


@dataclass(frozen=True)
class Limits:
    """Per-process limits, resolved once from the rubric."""

    call_seconds: float = 10.5  # a call still running after this is killed
    wall_factor: float = 3.0  # where own time is measured: the wall-clock backstop, in limits
    import_seconds: float = 10.0
    memory_mb: int = 4096  # address space of each process; with cgroups, all of them together
    file_mb: int = 64  # largest file the child may write; also the size of its private /tmp
    output_chars: int = 4096  # printed text kept per call
    processes: int = 64  # processes and threads of one submission (cgroups or its own uid)
    open_files: int = 256  # file descriptors per process
    packages: tuple[str, ...] = PACKAGES


def missing_packages(packages: tuple[str, ...]) -> tuple[str, ...]:
    """The ``packages`` this Python cannot import: a submission that uses one of them would be
    graded by what the grading machine lacks, so the commands check them before grading."""
    return tuple(name for name in packages if not fence.package_paths(name))


def identity_pipes(uid: int | None) -> tuple[int, int]:
    """Read ends of two pipes holding the fence's ``/etc/passwd`` and ``/etc/group``, naming
    the runner's uid: its own, else the grader's (kept inside its user namespace, or root)."""
    ends: list[int] = []
    try:
        for text in fence.identity_files(os.getuid() if uid is None else uid):
            read, write = pipe_above_streams()
            ends.append(read)
            try:
                os.write(write, text)  # a line or two: far below a pipe's buffer
            finally:
                os.close(write)
    except OSError:
        for end in ends:
            os.close(end)
        raise
    return ends[0], ends[1]


@dataclass(frozen=True)
class Launch:
    """What to start: a submission (a folder holding exactly its files), the game's driver,
    the file to import, the seed of its ``random`` module (sent with the request to import
    it, so that a process can be started before its seed is known), its limits and the
    layers."""

    source_dir: Path
    driver: Path
    main_file: str
    seed: int
    limits: Limits
    protections: Protections

    def command(
        self,
        request_fd: int,
        reply_fd: int,
        uid: int | None,
        group: Cgroup | None,
        identity: tuple[int, int] | None = None,
    ) -> list[str]:
        """The command line: join the cgroup, enter the fence, run the runner; ``identity``:
        the descriptors its ``/etc/passwd`` and ``/etc/group`` are read from, when fenced."""
        fenced = self.protections.fence
        source = fence.SUBMISSION if fenced else str(self.source_dir.resolve())
        runner = runner_command(
            self.protections,
            self.source_dir.resolve(),
            self.driver,
            self.limits.file_mb,
            self.limits.packages,
            tuple(LIBRARY.values()),
            identity,
        )
        return [
            *(join_command(group) if group is not None else []),
            *runner,
            str(request_fd),
            str(reply_fd),
            source,
            json.dumps(self.settings(uid)),
        ]

    def portable_command(self) -> list[str]:
        """The command line of the portable runner (see ``PlayerProcess``): no cgroup, no
        fence, no inherited pipes; the channel is its stdin and stdout."""
        return [
            *runner_command(self.protections, self.source_dir.resolve(), self.driver, 0),
            "--portable",
            str(self.source_dir.resolve()),
            json.dumps(self.settings(None)),
        ]

    def settings(self, uid: int | None) -> dict[str, Any]:
        """What the runner sets up from inside before the submission may run."""
        limits, layers = self.limits, self.protections
        rlimits = {"RLIMIT_FSIZE": limits.file_mb << 20, "RLIMIT_NOFILE": limits.open_files}
        if limits.memory_mb:
            rlimits["RLIMIT_AS"] = limits.memory_mb << 20
        if uid is not None and layers.cgroups is None:
            rlimits["RLIMIT_NPROC"] = limits.processes  # a uid of its own: counts only its own
        if not layers.resource_limits:
            rlimits = {}
        program = seccomp.filter_for() if layers.seccomp else None
        return {
            "rlimits": rlimits,
            "grader": os.getpid(),
            "uid": uid,
            "fenced": layers.fence,
            "site": fence.SITE if layers.fence else None,
            "seccomp": program.hex() if program else None,
            "driver": fence.DRIVER if layers.fence else str(self.driver),
            "library": {
                name: f"{fence.LIBRARY}/{path.name}" if layers.fence else str(path)
                for name, path in LIBRARY.items()
            },
            "main": self.main_file,
            "portable": layers.portable,
            "packages": list(limits.packages),
        }

    @staticmethod
    def environment(workdir: str) -> dict[str, str]:
        # Windows's Python cannot start without SYSTEMROOT (it seeds its hashes from the OS)
        system = {k: os.environ[k] for k in ("SYSTEMROOT", "WINDIR") if k in os.environ}
        return system | {
            "PATH": "/usr/bin:/bin",
            "HOME": workdir,
            "TMPDIR": workdir,
            "USER": "student",  # getpass.getuser(), as /etc/passwd says inside the fence
            "LOGNAME": "student",
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",  # set and dict orders stay the same run to run
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONIOENCODING": "utf-8",
            "OMP_NUM_THREADS": "1",  # numpy's threads would take the other jobs' cores
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }
