"""A seccomp filter that refuses the system calls a game never needs, as raw classic BPF.

Built here, in the grader, and handed to the child runner as bytes: the runner loads it with
``prctl(PR_SET_SECCOMP)`` just before it imports ``game.py`` (``child.py``, ``_seccomp``).
Refused calls fail with ``EPERM`` (``clone3`` with ``ENOSYS``, so the C library falls back to
``clone``, whose namespace flags are checked); everything else is allowed. A call of another
ABI (i386's ``int 0x80`` on x86-64, whose numbers mean other calls, and x32's) fails with
``EPERM`` too, whatever it is: it is never run, so failing it is as safe as killing the
process, and unlike a kill (``SECCOMP_RET_KILL_*`` is written to the kernel's audit log for
every call, whatever the filter's flags) an errno leaves no line in the host's log, so a
submission cannot flood it. No action of this filter is logged. Only the architectures below
have a filter; elsewhere :func:`filter_for` returns None and the report says so.
"""

from __future__ import annotations

import errno
import platform
import struct

__all__ = ["REFUSED", "filter_for"]

# What a game never needs, grouped by why: leaving the sandbox (namespaces, mounts, tracing
# other processes), reaching the kernel's less-used surfaces (keys, BPF, io_uring, modules),
# and changing the machine (clock, swap, reboot).
REFUSED = (
    "unshare",
    "setns",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "open_tree",
    "move_mount",
    "fsopen",
    "fsconfig",
    "fsmount",
    "fspick",
    "mount_setattr",
    "open_by_handle_at",
    "name_to_handle_at",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "kcmp",
    "pidfd_getfd",
    "process_madvise",
    "keyctl",
    "add_key",
    "request_key",
    "bpf",
    "perf_event_open",
    "userfaultfd",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "lookup_dcookie",
    "quotactl",
    "syslog",
    "init_module",
    "finit_module",
    "delete_module",
    "kexec_load",
    "kexec_file_load",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "vhangup",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
)

_X86_64 = {
    "unshare": 272, "setns": 308, "mount": 165, "umount2": 166, "pivot_root": 155,
    "chroot": 161, "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431,
    "fsmount": 432, "fspick": 433, "mount_setattr": 442, "open_by_handle_at": 304,
    "name_to_handle_at": 303, "ptrace": 101, "process_vm_readv": 310,
    "process_vm_writev": 311, "kcmp": 312, "pidfd_getfd": 438, "process_madvise": 440,
    "keyctl": 250, "add_key": 248, "request_key": 249, "bpf": 321, "perf_event_open": 298,
    "userfaultfd": 323, "io_uring_setup": 425, "io_uring_enter": 426,
    "io_uring_register": 427, "lookup_dcookie": 212, "quotactl": 179, "syslog": 103,
    "init_module": 175, "finit_module": 313, "delete_module": 176, "kexec_load": 246,
    "kexec_file_load": 320, "reboot": 169, "swapon": 167, "swapoff": 168, "acct": 163,
    "vhangup": 153, "settimeofday": 164, "clock_settime": 227, "clock_adjtime": 305,
    "adjtimex": 159, "clone": 56, "clone3": 435, "socket": 41,
}  # fmt: skip
_AARCH64 = {
    "unshare": 97, "setns": 268, "mount": 40, "umount2": 39, "pivot_root": 41, "chroot": 51,
    "open_tree": 428, "move_mount": 429, "fsopen": 430, "fsconfig": 431, "fsmount": 432,
    "fspick": 433, "mount_setattr": 442, "open_by_handle_at": 265, "name_to_handle_at": 264,
    "ptrace": 117, "process_vm_readv": 270, "process_vm_writev": 271, "kcmp": 272,
    "pidfd_getfd": 438, "process_madvise": 440, "keyctl": 219, "add_key": 217,
    "request_key": 218, "bpf": 280, "perf_event_open": 241, "userfaultfd": 282,
    "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    "lookup_dcookie": 18, "quotactl": 60, "syslog": 116, "init_module": 105,
    "finit_module": 273, "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294,
    "reboot": 142, "swapon": 224, "swapoff": 225, "acct": 89, "vhangup": 58,
    "settimeofday": 170, "clock_settime": 112, "clock_adjtime": 266, "adjtimex": 171,
    "clone": 220, "clone3": 435, "socket": 198,
}  # fmt: skip
# machine -> (AUDIT_ARCH_* value, syscall numbers, first number of a foreign ABI or None)
_ARCHES = {
    "x86_64": (0xC000003E, _X86_64, 0x40000000),  # x32 calls carry bit 30: refuse them all
    "aarch64": (0xC00000B7, _AARCH64, None),
}
_ARCHES["amd64"], _ARCHES["arm64"] = _ARCHES["x86_64"], _ARCHES["aarch64"]

_NAMESPACE_FLAGS = 0x7E020000  # CLONE_NEW{NS,CGROUP,UTS,IPC,USER,PID,NET}
_SOCKET_FAMILIES = (1, 2, 10)  # AF_UNIX, AF_INET, AF_INET6 (the network namespace has no route)

# classic BPF, as in linux/filter.h and linux/seccomp.h
_LD_W_ABS, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _ERRNO = 0x7FFF0000, 0x00050000
_NR, _ARCH, _ARG0 = 0, 4, 16  # offsets in struct seccomp_data (args: little-endian low word)


def _op(code: int, k: int, jt: int = 0, jf: int = 0) -> bytes:
    return struct.pack("=HBBI", code, jt, jf, k)


def _refuse(number: int, error: int = errno.EPERM) -> bytes:
    """If the syscall number is ``number``, fail it with ``error``."""
    return _op(_JEQ, number, 0, 1) + _op(_RET, _ERRNO | error)


def filter_for(machine: str | None = None) -> bytes | None:
    """The filter for ``machine`` (default: this one) as ``struct sock_filter`` records, or
    None where the kit knows no syscall table. A call from another ABI fails with EPERM."""
    arch = _ARCHES.get((machine or platform.machine()).lower())
    if arch is None:
        return None
    audit, numbers, foreign = arch
    program = [_op(_LD_W_ABS, _ARCH), _op(_JEQ, audit, 1, 0), _op(_RET, _ERRNO | errno.EPERM)]
    program.append(_op(_LD_W_ABS, _NR))
    if foreign is not None:
        program += [_op(_JGE, foreign, 0, 1), _op(_RET, _ERRNO | errno.EPERM)]
    program += [_refuse(numbers[name]) for name in REFUSED]
    program.append(_refuse(numbers["clone3"], errno.ENOSYS))
    # clone: refused when it asks for a new namespace; the number is still in the accumulator
    program += [
        _op(_JEQ, numbers["clone"], 0, 4),
        _op(_LD_W_ABS, _ARG0),
        _op(_JSET, _NAMESPACE_FLAGS, 0, 1),
        _op(_RET, _ERRNO | errno.EPERM),
        _op(_RET, _ALLOW),
    ]
    # socket: only local and internet families (the latter reach nothing in the namespace)
    families = len(_SOCKET_FAMILIES)
    program += [_op(_JEQ, numbers["socket"], 0, families + 3), _op(_LD_W_ABS, _ARG0)]
    program += [_op(_JEQ, f, families - i, 0) for i, f in enumerate(_SOCKET_FAMILIES)]
    program += [_op(_RET, _ERRNO | errno.EAFNOSUPPORT), _op(_RET, _ALLOW)]
    program.append(_op(_RET, _ALLOW))
    return b"".join(program)
