"""Control groups for submission processes: memory for all of them together (shared memory
included), a process count, one CPU core (pinned where the cpuset controller is there, so that
a burst of its processes cannot spill onto a neighbour's core), the CPU time used, and a
freezer.

Probed, never assumed: :func:`probe` finds the hierarchies the grader may write (cgroup v2, or
the per-controller v1 hierarchies), makes one folder for this grader run and a test group in
it, and returns None when any of that fails. Each submission process then gets a
:class:`Cgroup` of its own, which the process joins before it runs anything (see
:func:`join_command`), so every process it ever starts is counted.
"""

from __future__ import annotations

import atexit
import collections
import contextlib
import errno
import itertools
import os
import re
import signal
import subprocess
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from autograder.files import alive

__all__ = ["Support", "Cgroup", "probe", "join_command", "CONTROLLERS"]

CONTROLLERS = ("memory", "pids", "cpu", "freezer")  # what a submission's group must have
_V1 = (*CONTROLLERS, "cpuacct")  # v1 keeps CPU time apart from the CPU limit
_V2 = ("memory", "pids", "cpu")  # v2's freezer is built in (cgroup.freeze)
_PINNING = "cpuset"  # used where it is there: one core per group
_PERIOD_US = 100_000
_names = itertools.count()
_core_lock = threading.Lock()  # the machine lock's fallback between one grader's threads
# Joins the groups named before "--", then becomes the command after it: the submission's
# processes are inside from their first instruction, without a preexec_fn in a threaded grader.
_JOIN = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"'
JOIN_FAILED = 97  # the exit status when a group could not be joined
# v1 only: a frozen task cannot die, not even of SIGKILL, until its group thaws. This guard
# waits on a pipe only the grader holds; when the grader ends, however it ends (kill -9
# included), it thaws every group left in the run's freezer folder ($1), and the kill each
# frozen process was sent as its grader died (its parent-death signal) takes effect; then it
# removes the run's folders ($@) as their groups empty, for 5 s at most (a grader that ends
# normally has removed them already).
_THAW_GUARD = (
    'read _; for state in "$1"/*/freezer.state; do echo THAWED > "$state"; done; '
    "for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do left=; "
    'for run in "$@"; do [ -d "$run" ] || continue; '
    'for group in "$run"/*/; do [ -d "$group" ] && rmdir "$group" 2> /dev/null; done; '
    'rmdir "$run" 2> /dev/null || left=1; done; [ -z "$left" ] && exit 0; sleep 0.25; done'
)
_guards: list[subprocess.Popen[bytes]] = []  # kept for the grader's life: their pipes stay open


@dataclass(frozen=True)
class Support:
    """Where this grader run makes its groups: one folder per v1 controller, or one (v2)."""

    version: int
    folders: tuple[tuple[str, Path], ...]  # controller -> this run's folder ("" for v2)
    cores: tuple[int, ...] = ()  # the cores groups are pinned to, one each; () when not pinned

    def folder(self, controller: str) -> Path | None:
        key = "" if self.version == 2 else controller
        return next((path for name, path in self.folders if name == key), None)


def _mounts(mountinfo: str) -> list[tuple[str, str, str, set[str]]]:
    """(mount point, root inside the hierarchy, type, options) of each cgroup mount."""
    found = []
    for line in mountinfo.splitlines():
        left, _, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) < 5 or len(tail) < 3 or tail[0] not in ("cgroup", "cgroup2"):
            continue
        unescape = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), fields[4])
        found.append((unescape, fields[3], tail[0], set(tail[2].split(","))))
    return found


def _own_paths(own: str) -> dict[str, str]:
    """Controller (or "" for v2) -> this process's group path, from /proc/self/cgroup."""
    paths = {}
    for line in own.splitlines():
        _, controllers, path = line.split(":", 2)
        for name in controllers.split(",") if controllers else [""]:
            paths[name] = path
    return paths


def _inside(mount_point: str, mount_root: str, path: str) -> Path | None:
    if path != mount_root and not path.startswith(mount_root.rstrip("/") + "/"):
        return None
    return Path(mount_point) / path[len(mount_root) :].lstrip("/")


# Plain system calls, not Python's file objects: the host reads and writes these files several
# times a call (freezer, CPU time, each thread's waits), and file objects cost ten times more.
_WRITING = os.O_WRONLY | os.O_CREAT | os.O_TRUNC


def _write(path: Path | str, value: str) -> None:
    fd = os.open(path, _WRITING, 0o644)
    try:
        os.write(fd, value.encode())
    finally:
        os.close(fd)


def _read(path: Path | str) -> str:
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = [os.read(fd, 65536)]
        while chunks[-1]:
            chunks.append(os.read(fd, 65536))
    finally:
        os.close(fd)
    return b"".join(chunks).decode()


def _candidates(mountinfo: str, own: str) -> list[tuple[int, dict[str, Path]]]:
    """Places groups could go, best first: v2 (under our own group, then at the top of the
    hierarchy), then the v1 controllers under our own groups."""
    mounts, paths = _mounts(mountinfo), _own_paths(own)
    found: list[tuple[int, dict[str, Path]]] = []
    for point, root, kind, _ in mounts:
        if kind == "cgroup2" and "" in paths:
            mine = _inside(point, root, paths[""])
            for parent in (mine, Path(point)):
                if parent is not None:
                    found.append((2, {"": parent}))
    v1: dict[str, Path] = {}
    for point, root, kind, options in mounts:
        for name in (*_V1, _PINNING):
            if kind == "cgroup" and name in options and name in paths and name not in v1:
                folder = _inside(point, root, paths[name])
                if folder is not None:
                    v1[name] = folder
    if all(name in v1 for name in _V1):
        found.append((1, v1))
    return found


def _enable(folder: Path, controllers: list[str]) -> None:
    _write(folder / "cgroup.subtree_control", " ".join(f"+{c}" for c in controllers))


def _pinnable(version: int, parents: dict[str, Path]) -> bool:
    """Whether groups can be pinned to a core; the run folder copies its parent's cpuset."""
    if version == 1:
        return _PINNING in parents
    offered = set(_read(parents[""] / "cgroup.controllers").split())
    return _PINNING in offered


def _make_run_folder(version: int, parents: dict[str, Path]) -> Support | None:
    """This run's folder under each parent, with the controllers on; None if not allowed."""
    name = f"teeko-{os.getpid()}"
    made: list[Path] = []
    try:
        pinned = _pinnable(version, parents)
        if version == 2:
            parent = parents[""]
            wanted = [*_V2, *([_PINNING] if pinned else [])]
            offered = set(_read(parent / "cgroup.controllers").split())
            if not set(_V2) <= offered:
                return None
            if not set(wanted) <= set(_read(parent / "cgroup.subtree_control").split()):
                _enable(parent, wanted)
            folder = parent / name
            folder.mkdir(exist_ok=True)
            made.append(folder)
            _enable(folder, wanted)
            folders: tuple[tuple[str, Path], ...] = (("", folder),)
        else:
            controllers = [*_V1, *([_PINNING] if pinned else [])]
            for parent in dict.fromkeys(parents[c] for c in controllers):
                (parent / name).mkdir(exist_ok=True)
                made.append(parent / name)
            folders = tuple((c, parents[c] / name) for c in controllers)
            if pinned:  # a v1 cpuset takes no process until it has cpus and mems
                for knob in ("cpuset.cpus", "cpuset.mems"):
                    _write(parents[_PINNING] / name / knob, _read(parents[_PINNING] / knob))
        cores = tuple(sorted(os.sched_getaffinity(0))) if pinned else ()
        support = Support(version, folders, cores)
        Cgroup(support, 64 << 20, 8).remove()  # a whole group made, limited and removed
        if version == 1:
            _guard(dict(folders)["freezer"], made)
    except OSError:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
        return None
    atexit.register(_remove_run_folders, tuple(made))
    return support


def _guard(freezer_folder: Path, run_folders: list[Path]) -> None:
    """Start the thaw guard of this run's v1 freezer folder and run folders (see
    ``_THAW_GUARD``), in a session of its own so that a Ctrl-C meant for the grader leaves it
    to do its work.

    :raises OSError: when it cannot be started."""
    _guards.append(
        subprocess.Popen(
            ["/bin/sh", "-c", _THAW_GUARD, "teeko-thaw-guard", str(freezer_folder)]
            + [str(folder) for folder in run_folders],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
    )


def _remove_run_folders(folders: tuple[Path, ...]) -> None:
    for folder in folders:
        with contextlib.suppress(OSError):
            folder.rmdir()


def probe(mountinfo: str | None = None, own: str | None = None) -> Support | None:
    """The cgroups this grader may use, with this run's folder made; None where there are
    none (no cgroup file system, not writable, controllers missing)."""
    try:
        mountinfo = mountinfo if mountinfo is not None else _read(Path("/proc/self/mountinfo"))
        own = own if own is not None else _read(Path("/proc/self/cgroup"))
    except OSError:
        return None
    for version, parents in _candidates(mountinfo, own):
        support = _make_run_folder(version, parents)
        if support is not None:
            return support
    return None


@contextlib.contextmanager
def _machine_lock(parent: Path) -> Iterator[None]:
    """Held while a core is chosen, against the other grader runs on this machine that make
    their folders beside ours (a second ``grade``, Dask workers in processes); a lock on the
    folder itself, so that nothing is written outside the cgroup tree. Where it cannot be
    taken, the choice goes on without it: the worst is two groups on one core."""
    import fcntl  # here, not at the top: the kit is imported on Windows too, where it has none

    try:
        fd = os.open(parent, os.O_RDONLY)
    except OSError:
        yield
        return
    try:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def _cores_in_use(runs: Path) -> collections.Counter[int]:
    """Live groups per core in every grader run's folder under ``runs``, this grader's own
    among them: the folders are the one count, so two graders on one machine (a second
    ``grade``, Dask workers in processes) do not both take the first core."""
    users: collections.Counter[int] = collections.Counter()
    with contextlib.suppress(OSError):
        for run in runs.glob("teeko-*"):
            if not _grader_alive(run):
                continue  # a run whose grader died: its groups are empty, or emptying
            for cpus in run.glob("p*/cpuset.cpus"):
                with contextlib.suppress(OSError):
                    text = _read(cpus).strip()
                    if text.isdigit():  # pinned: one core (unpinned: a range)
                        users[int(text)] += 1
    return users


def _grader_alive(run: Path) -> bool:
    """Whether the grader whose pid names the run folder ``run`` (``teeko-<pid>``) is there."""
    pid = run.name.removeprefix("teeko-")
    return pid.isdigit() and alive(int(pid))


def join_command(group: Cgroup) -> list[str]:
    """The prefix that runs a command inside ``group`` (exit status 97 if it cannot join)."""
    return ["/bin/sh", "-c", _JOIN, "teeko-join", *map(str, group.procs_files), "--"]


class Cgroup:
    """One submission process's group: made with its limits, removed by :meth:`remove`."""

    def __init__(
        self, support: Support, memory_bytes: int, processes: int, pin: bool = True
    ) -> None:
        """``pin``: pin the group to a core now; else it may use every core of the run's
        until :meth:`pin` (a process started ahead, still idle, takes no core from a
        neighbour's count)."""
        self.support = support
        name = f"p{next(_names)}"
        self._dirs = {c: folder / name for c, folder in support.folders}
        self.core: int | None = None
        # the files read or written on every call, joined once
        if support.version == 2:
            folder = self._dirs[""]
            self._usage, self._threads = str(folder / "cpu.stat"), str(folder / "cgroup.threads")
            self._freezer, self._state = (
                str(folder / "cgroup.freeze"),
                str(folder / "cgroup.events"),
            )
        else:
            self._usage = str(self._dir("cpuacct") / "cpuacct.usage")
            self._threads = str(self._dir("pids") / "tasks")
            self._freezer = self._state = str(self._dir("freezer") / "freezer.state")
        for folder in dict.fromkeys(self._dirs.values()):
            folder.mkdir()
        try:
            self._limit(memory_bytes, processes)
            if support.cores and pin:
                self.pin()
            elif support.cores and support.version == 1:  # a v1 cpuset needs cpus to join
                folder = self._dir(_PINNING)
                _write(folder / "cpuset.cpus", _read(folder.parent / "cpuset.cpus"))
                _write(folder / "cpuset.mems", _read(folder.parent / "cpuset.mems"))
        except OSError:
            self.remove()
            raise

    def pin(self) -> None:
        """Pin the group to the core fewest live groups use: with ``--jobs`` up to the cores,
        each submission has a core of its own. Once; a no-op where groups are not pinned.

        :raises OSError: when the core cannot be set."""
        if not self.support.cores or self.core is not None:
            return
        folder = self._dir(_PINNING)
        with _core_lock, _machine_lock(folder.parent.parent):
            users = _cores_in_use(folder.parent.parent)
            core = min(self.support.cores, key=lambda c: (users[c], c))
            self.core = core
            _write(folder / "cpuset.cpus", str(core))
        if self.support.version == 1:
            _write(folder / "cpuset.mems", _read(folder.parent / "cpuset.mems"))

    def _unpin(self) -> None:
        """Give the group every core again as it goes, so that the count of pinned groups
        (``_cores_in_use``, every grader's) leaves out one still emptying, or left behind."""
        folder = self._dir(_PINNING)
        whole = _read(folder.parent / "cpuset.cpus") if self.support.version == 1 else ""
        with contextlib.suppress(OSError):
            _write(folder / "cpuset.cpus", whole)

    def _dir(self, controller: str) -> Path:
        return self._dirs["" if self.support.version == 2 else controller]

    def _limit(self, memory_bytes: int, processes: int) -> None:
        if self.support.version == 2:
            folder = self._dirs[""]
            if memory_bytes:
                _write(folder / "memory.max", str(memory_bytes))
                with contextlib.suppress(OSError):  # no swap accounting: nothing to swap to
                    _write(folder / "memory.swap.max", "0")
            _write(folder / "pids.max", str(processes))
            _write(folder / "cpu.max", f"{_PERIOD_US} {_PERIOD_US}")
            return
        memory = self._dir("memory")
        if memory_bytes:
            _write(memory / "memory.limit_in_bytes", str(memory_bytes))
            with contextlib.suppress(OSError):  # present only with swap accounting
                _write(memory / "memory.memsw.limit_in_bytes", str(memory_bytes))
        _write(self._dir("pids") / "pids.max", str(processes))
        _write(self._dir("cpu") / "cpu.cfs_period_us", str(_PERIOD_US))
        _write(self._dir("cpu") / "cpu.cfs_quota_us", str(_PERIOD_US))

    @property
    def procs_files(self) -> list[Path]:
        return [folder / "cgroup.procs" for folder in dict.fromkeys(self._dirs.values())]

    # ---- reading -----------------------------------------------------------------------------

    def cpu_seconds(self) -> float | None:
        """CPU time used by every process of the group so far, or None if unreadable."""
        try:
            if self.support.version == 2:
                stat = _read(self._usage)
                return int(re.search(r"usage_usec (\d+)", stat)[1]) / 1e6  # type: ignore[index]
            return int(_read(self._usage)) / 1e9
        except (OSError, ValueError, TypeError):
            return None

    def waits(self) -> dict[int, int] | None:
        """How long each thread of the group has waited, runnable, for a CPU (nanoseconds, by
        thread id; the kernel's ``run_delay`` in /proc/<tid>/schedstat): the time a busy
        machine took from it. None where the kernel does not keep it."""
        try:
            tids = [int(t) for t in _read(self._threads).split()]
        except (OSError, ValueError):
            return None
        found: dict[int, int] = {}
        for tid in tids:
            try:
                found[tid] = int(_read(f"/proc/{tid}/schedstat").split()[1])
            except FileNotFoundError:
                continue  # it ended meanwhile: its wait is lost, which can only cost it
            except (OSError, ValueError, IndexError):
                return None
        return found

    def out_of_memory(self) -> bool:
        """Whether the kernel killed a process of the group for exceeding the memory limit."""
        try:
            if self.support.version == 2:
                events = _read(self._dirs[""] / "memory.events")
            else:
                events = _read(self._dir("memory") / "memory.oom_control")
        except OSError:
            return False
        found = re.search(r"oom_kill (\d+)", events)
        return bool(found and int(found[1]))

    def pids(self) -> list[int]:
        try:
            return [int(p) for p in _read(self._dir("pids") / "cgroup.procs").split()]
        except (OSError, ValueError):
            return []

    # ---- acting ------------------------------------------------------------------------------

    def freeze(self, seconds: float = 1.0) -> bool:
        """Stop every process of the group; True once the kernel says all are frozen."""
        return self._set_frozen(True, seconds)

    def thaw(self, seconds: float = 1.0) -> bool:
        return self._set_frozen(False, seconds)

    def _set_frozen(self, frozen: bool, seconds: float) -> bool:
        try:
            if self.support.version == 2:
                _write(self._freezer, "1" if frozen else "0")
                want = f"frozen {int(frozen)}"
            else:
                want = "FROZEN" if frozen else "THAWED"
                _write(self._freezer, want)
            deadline = time.monotonic() + seconds
            while want not in _read(self._state):
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.0002)
        except OSError:
            return False
        return True

    def kill(self) -> None:
        """SIGKILL every process of the group, frozen or not; safe to call again."""
        if self.support.version == 2:
            with contextlib.suppress(OSError):
                _write(self._dirs[""] / "cgroup.kill", "1")
        for _ in range(50):
            pids = self.pids()
            if not pids:
                break
            for pid in pids:
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)
            self.thaw(0.05)  # a frozen v1 task cannot die until it runs again
            time.sleep(0.001)

    def remove(self, seconds: float = 2.0) -> None:
        """Kill what is left and remove the group's folders (they empty as processes die)."""
        self.kill()
        if self.core is not None:
            self.core = None
            self._unpin()
        deadline = time.monotonic() + seconds
        for folder in dict.fromkeys(self._dirs.values()):
            while True:
                try:
                    folder.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError as err:
                    if err.errno != errno.EBUSY or time.monotonic() > deadline:
                        break
                    time.sleep(0.001)
