"""Which protections are reported, and the process-tree walk the host kills with."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from autograder import sandbox
from autograder.sandbox import PROCESS_LIMIT, Protections, available, descendants

needs_proc = pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")


def test_every_missing_layer_is_a_warning_in_the_header():
    lines = Protections(resource_limits=False, other_user=False, namespaces=False).describe()
    warnings = [line for line in lines if line.startswith("warning:")]
    assert len(warnings) == 4
    assert "warning: no namespaces (needs root and the unshare tool)" in lines[3]
    assert lines[-1] == "warning: no limit on the number of processes (no fork-bomb brake)"


def test_the_full_sandbox_has_no_warning():
    layers = Protections(True, False, True, process_limit=PROCESS_LIMIT)
    lines = layers.describe()
    assert not [line for line in lines if "warning" in line]
    assert lines[-1].endswith(f"own process ids, at most {PROCESS_LIMIT} processes")


def test_teeko_sandbox_off_turns_the_optional_layers_off(monkeypatch):
    monkeypatch.setenv("TEEKO_SANDBOX", "off")
    available.cache_clear()
    try:
        layers = available()
    finally:
        available.cache_clear()
    assert (layers.other_user, layers.namespaces, layers.process_limit) == (False, False, 0)


def test_the_process_brake_is_probed_only_with_namespaces(monkeypatch):
    monkeypatch.delenv("TEEKO_SANDBOX", raising=False)
    monkeypatch.setattr(sandbox, "_unshare_works", lambda command="true": command == "true")
    monkeypatch.setattr(sandbox, "_python_works_as_another_user", lambda: False)
    monkeypatch.setattr(sandbox.os, "geteuid", lambda: 0)
    available.cache_clear()
    try:
        layers = available()
    finally:
        available.cache_clear()
    assert layers.namespaces and layers.process_limit == 0


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
