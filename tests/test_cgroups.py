"""Control groups: probing and limits on fake cgroup trees (v1 and v2), and for real where the
machine lets the grader make groups."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.play import cgroups
from autograder.play.cgroups import Cgroup, Support, join_command, probe

REAL = probe()
needs_cgroups = pytest.mark.skipif(
    REAL is None, reason="needs cgroups: root and a writable cgroup hierarchy"
)


def _v2_tree(root: Path, controllers: str = "cpuset cpu io memory pids") -> tuple[str, str]:
    mine = root / "grader.slice"
    mine.mkdir(parents=True)
    for folder in (root, mine):
        (folder / "cgroup.controllers").write_text(controllers + "\n")
        (folder / "cgroup.subtree_control").write_text("\n")
    mountinfo = f"30 23 0:26 / {root} rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
    return mountinfo, "0::/grader.slice\n"


def _v1_tree(root: Path) -> tuple[str, str]:
    lines, own = [], []
    for number, name in enumerate(("cpu", "cpuacct", "memory", "pids", "freezer", "cpuset")):
        folder = root / name
        folder.mkdir(parents=True)
        if name == "cpuset":
            (folder / "cpuset.cpus").write_text("0-1\n")
            (folder / "cpuset.mems").write_text("0\n")
        lines.append(f"{40 + number} 31 0:{50 + number} / {folder} rw - cgroup cgroup rw,{name}")
        own.append(f"{number + 1}:{name}:/")
    return "\n".join(lines) + "\n", "\n".join(own) + "\n"


def test_no_cgroup_file_system_means_no_cgroups():
    assert probe("22 1 0:5 / /proc rw - proc proc rw\n", "0::/\n") is None


def test_v2_groups_go_under_the_graders_own_group_with_the_controllers_on(tmp_path):
    support = probe(*_v2_tree(tmp_path))
    assert support is not None and support.version == 2
    run = tmp_path / "grader.slice" / f"teeko-{os.getpid()}"
    assert support.folders == (("", run),)
    assert "+memory" in (tmp_path / "grader.slice" / "cgroup.subtree_control").read_text()
    group = Cgroup(support, 256 << 20, 32)
    folder = group.procs_files[0].parent
    assert (folder / "memory.max").read_text() == str(256 << 20)
    assert (folder / "memory.swap.max").read_text() == "0"
    assert (folder / "pids.max").read_text() == "32"
    assert (folder / "cpu.max").read_text() == "100000 100000"
    assert (folder / "cpuset.cpus").read_text() == str(group.core)
    (folder / "cgroup.events").write_text("populated 1\nfrozen 1\n")
    assert group.freeze(0.1)
    assert (folder / "cgroup.freeze").read_text() == "1"
    (folder / "cpu.stat").write_text("usage_usec 1500000\nuser_usec 1\n")
    assert group.cpu_seconds() == 1.5
    (folder / "memory.events").write_text("low 0\nhigh 0\nmax 3\noom 1\noom_kill 1\n")
    assert group.out_of_memory()


def test_v2_without_the_memory_controller_is_not_used(tmp_path):
    assert probe(*_v2_tree(tmp_path, controllers="cpu io pids")) is None


def test_v1_groups_are_made_in_each_controllers_hierarchy(tmp_path):
    support = probe(*_v1_tree(tmp_path))
    assert support is not None and support.version == 1
    assert support.cores == tuple(sorted(os.sched_getaffinity(0)))
    group = Cgroup(support, 128 << 20, 16)
    memory = support.folder("memory")
    assert memory is not None
    names = {p.parents[2].name for p in group.procs_files}
    assert names == {"cpu", "cpuacct", "memory", "pids", "freezer", "cpuset"}
    folder = next(p.parent for p in group.procs_files if p.parents[2].name == "memory")
    assert (folder / "memory.limit_in_bytes").read_text() == str(128 << 20)
    (folder / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 0\n")
    assert not group.out_of_memory()


def test_two_live_groups_are_pinned_to_different_cores(tmp_path):
    support = probe(*_v1_tree(tmp_path))
    assert support is not None
    if len(support.cores) < 2:
        pytest.skip("needs two cores")
    first, second = Cgroup(support, 1 << 26, 8), Cgroup(support, 1 << 26, 8)
    assert first.core != second.core
    freed = first.core
    first.remove()
    assert Cgroup(support, 1 << 26, 8).core == freed, "a freed core is the next one taken"


def test_a_core_another_grader_on_the_machine_uses_is_not_taken_first(tmp_path):
    """Another run's folder beside ours (a second ``grade``, a Dask worker process) is counted
    with our own, or both graders would pin to core 0."""
    support = probe(*_v1_tree(tmp_path))
    assert support is not None
    if len(support.cores) < 2:
        pytest.skip("needs two cores")
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.strip()
    for run, name, cpus in (
        ("teeko-1", "p0", f"{support.cores[0]}"),  # a live grader's (pid 1 is always there)
        ("teeko-1", "p1", "0-1"),  # started ahead, not pinned yet: every core
        (f"teeko-{gone}", "p0", f"{support.cores[1]}"),  # a grader that has died: not counted
        (f"teeko-{gone}", "p1", f"{support.cores[1]}"),
    ):
        group = tmp_path / "cpuset" / run / name
        group.mkdir(parents=True)
        (group / "cpuset.cpus").write_text(cpus + "\n")
    assert Cgroup(support, 1 << 26, 8).core == support.cores[1]
    going = Cgroup(support, 1 << 26, 8)  # core 0, beside the other run's
    going.remove(seconds=0)  # its folder stays (a fake tree's files), as one still emptying
    counted = cgroups._cores_in_use(tmp_path / "cpuset")
    assert counted == {support.cores[0]: 1, support.cores[1]: 1}, "a group going still counts"


_PIN_ELSEWHERE = """
import sys, time
from autograder.play.cgroups import Cgroup, probe
group = Cgroup(probe(), 1 << 26, 8)
print(group.core, flush=True)
sys.stdin.read()
group.remove()
"""


@needs_cgroups
@pytest.mark.serial  # alone: another test's groups would change the count
@pytest.mark.timeout(60)
def test_two_grader_processes_pin_their_groups_to_different_cores():
    assert REAL is not None
    if len(REAL.cores) < 2:
        pytest.skip("needs two cores")
    run = REAL.folder("cpuset")
    assert run is not None
    deadline = time.monotonic() + 30  # a group the test before killed may still be emptying
    while cgroups._cores_in_use(run.parent) and time.monotonic() < deadline:
        time.sleep(0.05)
    held = cgroups._cores_in_use(run.parent)
    assert not held, f"submissions of another grader still hold cores: {dict(held)}"
    graders, cores = [], []
    try:
        for _ in range(2):  # one after the other, each holding its group
            grader = subprocess.Popen(
                [sys.executable, "-c", _PIN_ELSEWHERE],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
            graders.append(grader)
            assert grader.stdout is not None
            cores.append(int(grader.stdout.readline()))
        assert cores[0] != cores[1], "two graders on one machine both pinned to one core"
    finally:
        for grader in graders:
            grader.communicate("", timeout=30)


def test_a_mount_seen_from_inside_a_cgroup_namespace_is_mapped(tmp_path):
    folder = tmp_path / "docker" / "abc"
    mountinfo = f"30 23 0:26 /docker {tmp_path / 'docker'} rw - cgroup2 cgroup2 rw\n"
    places = cgroups._candidates(mountinfo, "0::/docker/abc\n")
    assert places[0] == (2, {"": folder})


def _in_group(group: Cgroup, code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*join_command(group), sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
    )


@needs_cgroups
@pytest.mark.timeout(120)
def test_memory_held_in_memfds_counts_against_the_group():
    assert REAL is not None
    group = Cgroup(REAL, 96 << 20, 16)
    try:
        hoard = (
            "import os\nfds = []\nfor _ in range(20):\n"
            "    fd = os.memfd_create('x'); os.write(fd, b'x' * (16 << 20)); fds.append(fd)\n"
            "print('held 320 MB')\n"
        )
        done = _in_group(group, hoard)
        assert done.returncode == -9 and "held" not in done.stdout
        assert group.out_of_memory()
    finally:
        group.remove()


@needs_cgroups
@pytest.mark.timeout(120)
def test_the_process_count_is_limited_for_the_whole_group():
    assert REAL is not None
    group = Cgroup(REAL, 512 << 20, 12)
    try:
        forks = (
            "import os, time\nn = 0\ntry:\n    while n < 100:\n"
            "        if os.fork() == 0:\n"
            "            os.close(1); os.close(2); time.sleep(30); os._exit(0)\n"
            "        n += 1\nexcept OSError as err:\n"
            "    print('stopped after', n, type(err).__name__)\n"
        )
        done = _in_group(group, forks)
        assert "stopped after" in done.stdout and "BlockingIOError" in done.stdout
        assert int(done.stdout.split()[2]) < 12
    finally:
        group.remove()
    assert group.pids() == []


@needs_cgroups
@pytest.mark.timeout(120)
def test_a_frozen_group_uses_no_cpu_and_runs_again_when_thawed():
    assert REAL is not None
    group = Cgroup(REAL, 256 << 20, 8)
    spinner = subprocess.Popen([*join_command(group), sys.executable, "-c", "while True: pass"])
    try:
        deadline = time.monotonic() + 10
        while (group.cpu_seconds() or 0) < 0.2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert group.freeze()
        frozen_at = group.cpu_seconds()
        time.sleep(0.3)
        assert group.cpu_seconds() == frozen_at
        assert group.thaw()
        while group.cpu_seconds() == frozen_at and time.monotonic() < deadline:
            time.sleep(0.02)
        assert group.cpu_seconds() != frozen_at
    finally:
        group.remove()
        spinner.wait(10)
    assert spinner.returncode == -9


_FROZEN_GRADER = """
import ctypes, subprocess, sys, time
from autograder.play.cgroups import Cgroup, join_command, probe
support = probe()
group = Cgroup(support, 256 << 20, 8)
# the submission's runner: killed when its parent (this grader) dies, as the kit's runner is
dies_with_parent = (
    "import ctypes, signal, sys, time; "
    "ctypes.CDLL(None).prctl(1, signal.SIGKILL); print('up', flush=True); time.sleep(600)"
)
child = subprocess.Popen(
    [*join_command(group), sys.executable, "-c", dies_with_parent], stdout=subprocess.PIPE
)
child.stdout.readline()
assert group.freeze()
print(child.pid, flush=True)
time.sleep(600)
"""


@needs_cgroups
@pytest.mark.timeout(120)
def test_a_submission_frozen_when_its_grader_is_killed_does_not_outlive_it():
    """kill -9 of the grader while a submission's group is frozen (between two calls): the
    submission's process dies as it would thawed, and the run's cgroup folders go with it.
    (In cgroup v1 a frozen task cannot die until its group thaws: the run's thaw guard does
    that, then removes the folders.)"""
    grader = subprocess.Popen(
        [sys.executable, "-c", _FROZEN_GRADER],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert grader.stdout is not None
    pid = int(grader.stdout.readline())
    grader.kill()
    grader.wait(10)
    deadline = time.monotonic() + 20
    while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{pid}").exists(), "the frozen submission outlived its grader"
    assert REAL is not None
    left = [folder.parent / f"teeko-{grader.pid}" for _, folder in REAL.folders]
    while any(folder.exists() for folder in left) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(folder.exists() for folder in left), "its run's cgroup folders were left"


def test_join_names_every_hierarchy_before_the_command(tmp_path):
    support = Support(1, (("memory", tmp_path / "m"), ("pids", tmp_path / "p")))
    group = Cgroup.__new__(Cgroup)
    group.support = support
    group._dirs = {"memory": tmp_path / "m" / "g", "pids": tmp_path / "p" / "g"}
    command = join_command(group)
    assert command[:3] == ["/bin/sh", "-c", cgroups._JOIN]
    assert command[4:] == [
        str(tmp_path / "m/g/cgroup.procs"),
        str(tmp_path / "p/g/cgroup.procs"),
        "--",
    ]
