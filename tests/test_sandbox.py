"""Which protections are probed and reported, how the runner is launched, and the process-tree
walk the host kills with."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from autograder.play import fence, sandbox
from autograder.play.cgroups import Support
from autograder.play.sandbox import (
    INSTALL_BWRAP,
    Protections,
    available,
    descendants,
    runner_command,
)

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
needs_fence = pytest.mark.skipif(not available().fence, reason=f"needs the fence: {INSTALL_BWRAP}")
CGROUPS = Support(1, (("memory", Path("/x")),))


def test_every_missing_layer_is_a_warning_in_the_header():
    lines = Protections(resource_limits=False).describe()
    warnings = [line for line in lines if line.startswith("warning:")]
    assert len(warnings) == 6
    assert f"warning: no filesystem fence ({INSTALL_BWRAP}" in lines[3]
    assert "warning: no limit on the number of processes (no fork-bomb brake)" in lines


def test_a_root_grader_without_bubblewrap_warns_that_the_child_is_root():
    lines = Protections(True, root=True).describe()
    assert lines[2].startswith("warning: runs as root without capabilities")
    assert INSTALL_BWRAP in lines[2]


def test_the_full_sandbox_has_no_warning():
    layers = Protections(True, fence=True, own_uid=True, cgroups=CGROUPS, seccomp=True, root=True)
    lines = layers.describe()
    assert not [line for line in lines if "warning" in line]
    assert "runs as an unprivileged user of its own, with no capability" in lines
    assert lines[-2].startswith("cgroups v1: memory for all its processes together")


def _probed_afresh() -> Protections:
    available.cache_clear()
    try:
        return available()
    finally:
        available.cache_clear()


def test_teeko_sandbox_off_turns_the_optional_layers_off(monkeypatch):
    monkeypatch.setenv("TEEKO_SANDBOX", "off")
    layers = _probed_afresh()
    assert layers == Protections(layers.resource_limits)


def test_without_bubblewrap_there_is_no_fence_and_the_child_is_still_tried(monkeypatch):
    """The probe runs the runner's self-test directly; the fence is never claimed."""
    monkeypatch.delenv("TEEKO_SANDBOX", raising=False)
    monkeypatch.setattr(fence, "bwrap", lambda: None)
    tried: list[bool] = []

    def probe(layers: Protections, uid: int | None) -> dict[str, object] | None:
        tried.append(layers.fence)
        return {"uid": uid, "stdlib": True, "seccomp": True}

    monkeypatch.setattr(sandbox, "_probe_child", probe)
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    layers = _probed_afresh()
    assert tried == [False]
    assert (layers.fence, layers.own_uid, layers.seccomp, layers.root) == (False, True, True, True)


def test_a_uid_that_cannot_read_python_is_not_claimed(monkeypatch):
    monkeypatch.delenv("TEEKO_SANDBOX", raising=False)
    monkeypatch.setattr(fence, "bwrap", lambda: None)
    monkeypatch.setattr(sandbox, "_probe_child", lambda layers, uid: {"uid": uid, "stdlib": False})
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    layers = _probed_afresh()
    assert not layers.own_uid
    assert "warning: runs as root" in layers.describe()[2]


def test_unfenced_the_runner_is_this_python_on_the_kit_file():
    command = runner_command(Protections(True), Path("/x"), None, 64)
    assert command[0] == sys.executable
    assert command[-1] == str(sandbox.CHILD)


@needs_fence
def test_fenced_the_runner_starts_under_bubblewrap_on_the_real_interpreter():
    layers = Protections(True, fence=True, root=os.geteuid() == 0)
    command = runner_command(layers, Path("/x"), None, 64)
    assert Path(command[0]).name == "bwrap"
    assert command[-1] == fence.CHILD
    assert command[command.index("--") + 1] == os.path.realpath(sys._base_executable)
    assert command[command.index("/x") - 1 : command.index("/x") + 2] == [
        "--ro-bind",
        "/x",
        fence.SUBMISSION,
    ]


@needs_fence
def test_the_probe_reports_what_the_runner_could_do():
    layers = available()
    assert layers.fence
    if layers.root:
        assert layers.own_uid, "as root the fenced runner switches to a uid of its own"


@needs_proc
def test_descendants_finds_grandchildren_in_another_session():
    script = (
        "import subprocess, sys, time\n"
        "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(30)'],"
        " start_new_session=True)\n"
        "time.sleep(30)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 10
        while len(descendants(child.pid)) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        below = descendants(child.pid)
        assert len(below) == 1
        assert child.pid in descendants(os.getpid())
        assert below[0] in descendants(os.getpid())
    finally:
        for pid in descendants(child.pid):
            os.kill(pid, 9)
        child.kill()
        child.wait()


def test_descendants_of_a_process_that_does_not_exist_is_empty():
    assert descendants(2**22 + 12345) == []
