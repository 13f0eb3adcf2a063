"""The seccomp filter: its shape, and, loaded for real in a child, what it refuses and allows."""

from __future__ import annotations

import json
import platform
import subprocess
import sys

import pytest

from autograder.play.seccomp import REFUSED, filter_for

SUPPORTED = sys.platform == "linux" and filter_for() is not None
needs_seccomp = pytest.mark.skipif(not SUPPORTED, reason="needs Linux on x86-64 or arm64")


@pytest.mark.parametrize("machine", ["x86_64", "aarch64", "AMD64", "arm64"])
def test_each_known_machine_has_a_whole_bpf_program(machine):
    program = filter_for(machine)
    assert program is not None
    assert len(program) % 8 == 0 and 0 < len(program) // 8 <= 4096  # the kernel's limit


def test_an_unknown_machine_has_no_filter():
    assert filter_for("riscv64") is None
    assert filter_for("x86_64") != filter_for("aarch64")


_LOADED = r"""
import ctypes, errno, json, os, socket, subprocess, sys, threading
from autograder.play.child import _seccomp
from autograder.play.seccomp import filter_for

_seccomp(filter_for())
libc = ctypes.CDLL(None, use_errno=True)
found = {}


def call(name, *args):
    result = getattr(libc, name)(*args)
    found[name] = "ok" if result >= 0 else errno.errorcode[ctypes.get_errno()]


call("unshare", 0x10000000)
call("mount", None, b"/", None, 32 | 4096, None)
call("ptrace", 16, os.getppid(), None, None)
call("setns", 999, 0)  # EBADF without the filter
threading.Thread(target=lambda: None).start()
found["thread"] = "ok"
found["subprocess"] = str(subprocess.run([sys.executable, "-c", "pass"]).returncode)
for family in (socket.AF_UNIX, socket.AF_INET, 40):  # 40: AF_VSOCK
    try:
        socket.socket(family, socket.SOCK_STREAM).close()
        found[f"socket {family}"] = "ok"
    except OSError as err:
        found[f"socket {family}"] = errno.errorcode[err.errno]
print(json.dumps(found))
"""


@needs_seccomp
@pytest.mark.timeout(60)
def test_the_loaded_filter_refuses_what_a_game_never_needs():
    done = subprocess.run(
        [sys.executable, "-c", _LOADED], capture_output=True, text=True, timeout=50, check=True
    )
    found = json.loads(done.stdout)
    assert found == {
        "unshare": "EPERM",
        "mount": "EPERM",
        "ptrace": "EPERM",
        "setns": "EPERM",
        "thread": "ok",
        "subprocess": "0",
        "socket 1": "ok",
        "socket 2": "ok",
        "socket 40": "EAFNOSUPPORT",
    }


def test_the_refused_list_names_only_known_calls():
    assert "unshare" in REFUSED and "ptrace" in REFUSED and "setns" in REFUSED
    assert len(set(REFUSED)) == len(REFUSED)
    assert platform.machine()  # the filter is chosen by this name


_FOREIGN_ABI = r"""
import ctypes, json, mmap, os
from autograder.play.child import _seccomp
from autograder.play.seccomp import filter_for

_seccomp(filter_for())
page = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
found = {}
for name, code in (
    ("i386 getpid", b"\xb8\x14\x00\x00\x00\xcd\x80\xc3"),  # mov eax, 20; int 0x80; ret
    ("x32 getpid", b"\xb8\x27\x00\x00\x40\x0f\x05\xc3"),  # mov eax, 0x40000027; syscall; ret
):
    page.seek(0)
    page.write(code)
    call = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(page)))
    result = call()
    found[name] = "the pid" if result == os.getpid() else result
print(json.dumps(found))
"""


@needs_seccomp
@pytest.mark.skipif(platform.machine() != "x86_64", reason="machine code for x86-64")
@pytest.mark.timeout(60)
def test_a_call_of_another_abi_fails_with_eperm_and_the_process_lives():
    """i386's int 0x80 and x32's numbers get -EPERM, as every refused call does: no kill, so
    no line in the kernel's audit log per call (a kill is logged whatever the filter says)."""
    done = subprocess.run(
        [sys.executable, "-c", _FOREIGN_ABI], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, f"status {done.returncode}: {done.stderr}"
    assert json.loads(done.stdout) == {"i386 getpid": -1, "x32 getpid": -1}


@pytest.mark.parametrize("machine", ["x86_64", "aarch64"])
def test_no_action_of_the_filter_is_a_kill(machine):
    """Every return is ALLOW or ERRNO: nothing the filter does is written to the audit log."""
    program = filter_for(machine)
    assert program is not None
    records = [program[i : i + 8] for i in range(0, len(program), 8)]
    returns = [int.from_bytes(r[4:], "little") for r in records if r[0] == 0x06]
    assert returns and all(r >> 16 in (0x7FFF, 0x0005) for r in returns), [hex(r) for r in returns]
