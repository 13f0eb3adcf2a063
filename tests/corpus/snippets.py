"""The code the attacks hand in: what each does inside the child, as text."""

from __future__ import annotations

import json

# ---- the corpus --------------------------------------------------------------------------------

_FLOOD = '_sys.stdout.write("x" * 100_000_000)\n_sys.stdout.flush()\n'
_OUTCOME = """
import errno as _errno


def _try(what, action):
    try:
        action()
        print(what, "done")
    except Exception as err:
        print(what, "blocked:", type(err).__name__, _errno.errorcode.get(err.errno, ""))

"""


def _writes(**paths: str) -> str:
    """Try to write each path; print ``label done`` or ``label blocked: ...`` for each."""
    calls = "".join(
        f"_try({label!r}, lambda: open({p!r}, 'w').write('pwned'))\n" for label, p in paths.items()
    )
    return _OUTCOME + calls


def _reads(**paths: str) -> str:
    """Read each path, each in its own ``try``: print ``label read: ...`` (what it holds) or
    ``label reading failed: ...`` for each, so the output proves every path was tried."""
    calls = "".join(
        f"try:\n    print({label!r}, 'read:', repr(open({p!r}).read(300)))\n"
        f"except Exception as err:\n    print({label!r}, 'reading failed:', type(err).__name__)\n"
        for label, p in paths.items()
    )
    return calls


_NUMPY = "import numpy as _np\n"
_HOME_WRITE = """
import os.path as _path
_try("~", lambda: open(_path.expanduser("~/$marker"), "w").write("pwned"))
"""
_SPAWN = """
import subprocess as _subprocess
_subprocess.Popen(
    [_sys.executable, "-c", "import time; time.sleep(600)", "$marker"],
    start_new_session=%s, stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL,
)
"""
_YES = """
import subprocess as _subprocess
_subprocess.Popen(  # like `yes`: writes into our stdout, at full speed, for ever
    [_sys.executable, "-c", "import sys\\nwhile True: sys.stdout.write('y' * 65536)", "$marker"],
)
"""
_FORK_BOMB = """
import time as _t
try:
    for _ in range(400):  # bounded, so that a machine without the brake is not taken down
        if _os.fork() == 0:
            _t.sleep(600)
            _os._exit(0)
    print("fork bomb: nothing stopped it")
except OSError as err:
    print("fork bomb stopped:", type(err).__name__)
"""
_DAEMON = """
if _os.fork() == 0:  # a classic double-fork daemon, in a session of its own
    _os.setsid()
    if _os.fork() == 0:
        _os.execv(_sys.executable, [_sys.executable, "-c", "import time; time.sleep(600)",
                                    "$marker"])
    _os._exit(0)
_os.wait()
"""
_LATE_RESULTS = """
if _os.fork() == 0:  # outlive the grading, then overwrite its results.json
    _os.setsid()
    if _os.fork() == 0:
        import time as _t
        _t.sleep(3)
        for _ in range(20):
            try:
                open("$out/results.json", "w").write('{"score": 100, "tests": []}')
            except OSError:
                pass
            _t.sleep(0.5)
        _os._exit(0)
    _os._exit(0)
_os.wait()
try:
    open("$out/results.json", "w").write('{"score": 100, "tests": []}')
except OSError:
    pass
"""
_NETWORK = (
    _OUTCOME
    + """
import socket as _socket
_try("internet", lambda: _socket.create_connection(("1.1.1.1", 53), timeout=1))
_try("loopback", lambda: _socket.create_connection(("127.0.0.1", 22), timeout=1))
"""
)
_REMOUNT = """
_results = []
try:  # seccomp refuses unshare, and the process has no capability to mount
    import ctypes as _ctypes

    _libc = _ctypes.CDLL(None, use_errno=True)
    for _args in ((None, b"/", None, 32 | 4096, None), (None, b"/tmp", None, 32, None)):
        _results.append(_libc.mount(*_args))
    _results.append(_libc.umount2(b"$solution".rsplit(b"/", 2)[0], 2))
    _results.append(_libc.unshare(0x10000000 | 0x00020000))  # a user and a mount namespace
    _results.append(_libc.umount2(b"$solution".rsplit(b"/", 2)[0], 2))
    _results.append(_libc.mount(None, b"/", None, 32 | 4096, None))
except OSError as err:
    _results.append(type(err).__name__)
try:
    open("$here/$marker", "w").write("pwned")
    _results.append("wrote")
except OSError as err:
    _results.append(type(err).__name__)
print("escape attempts:", _results)
"""
_PATCH_RANDOM = """
import random as _random
_random.seed(12345)
_random.random = lambda: 0.0
_random.choice = lambda seq: seq[0]
_random.randint = lambda a, b: a
_random.Random.random = lambda self: 0.0
_random.Random.choice = lambda self, seq: seq[0]
"""
_PATCH_TIME = """
import time as _real_time
_clock = _real_time.process_time  # CPU work: its own time whatever the load
for _name in ("time", "monotonic", "perf_counter", "process_time", "thread_time"):
    setattr(_real_time, _name, lambda: 0.0)
_real_time.sleep = lambda seconds: None
"""
_PATCH_BUILTINS = """
import builtins as _builtins
import copy as _copy
import json as _json
import traceback as _traceback
_builtins.print = lambda *args, **kwargs: None
_builtins.type = lambda *args: tuple
_builtins.repr = lambda value: "[(0, 0)]"
_builtins.str = lambda value="": "[(0, 0)]"
_builtins.hasattr = lambda obj, name: False
_builtins.callable = lambda obj: False
_builtins.sorted = lambda items, **kwargs: []
_builtins.isinstance = lambda obj, kinds: True
_json.dumps = lambda obj, **kwargs: '{"ok": true, "move": {"none": true}}'
_json.loads = lambda text, **kwargs: {"op": "move"}
_copy.deepcopy = lambda value, memo=None: [[" "] * 5 for _ in range(5)]
_traceback.extract_tb = lambda tb: []
"""
_PATCH_KIT = """
try:
    import autograder.games.teeko.rules
    import autograder.grading.scoring
    import autograder.play.host
    import autograder.play.referee
    autograder.grading.scoring.score = lambda *args, **kwargs: None
    autograder.games.teeko.rules.read_student_move = lambda raw, pos: None
    autograder.play.referee.random_opponent = lambda pos, rng: None
    autograder.play.host.PlayerProcess.request = lambda *args, **kwargs: None
except Exception:
    pass
"""
_CHANNEL_GARBAGE = """
for _fd in range(3, 30):
    try:
        _os.write(_fd, b"\\xff" * 8)
    except OSError:
        pass
"""
_FORGED_REPLY = """
import json as _json
import struct as _struct
_forged = _json.dumps({"ok": True}).encode()
for _fd in range(3, 30):
    try:
        _os.write(_fd, _struct.pack(">I", len(_forged)) + _forged)
    except OSError:
        pass
"""
_DEEP_REPLY = """
_deep = b"[" * 200_000 + b"]" * 200_000
for _fd in range(3, 30):
    try:
        _os.write(_fd, _struct.pack(">I", len(_deep)) + _deep)
    except OSError:
        pass
"""
_CLOSE_CHANNEL = """
for _fd in range(3, 30):
    try:
        _os.close(_fd)
    except OSError:
        pass
"""
_THREAD_PRINTS = """
import threading as _threading


def _chatter():
    while True:
        print("tick", flush=True)


_threading.Thread(target=_chatter, daemon=True).start()
"""
_THREAD_SPINS = """
import threading as _threading


def _spin():
    while True:
        pass


_threading.Thread(target=_spin).start()  # not a daemon: it would keep the process alive
"""
_SEGFAULT = """
_sys.setrecursionlimit(10**8)


def _deeper(n):  # through a C function (max), so it is the C stack that overflows
    return max([n], key=_deeper)


_deeper(0)
"""
_SLEEP_IGNORING_SIGNALS = """
import signal as _signal
import time as _t
for _sig in (_signal.SIGTERM, _signal.SIGINT, _signal.SIGHUP, _signal.SIGALRM, _signal.SIGXCPU):
    _signal.signal(_sig, _signal.SIG_IGN)
_signal.pthread_sigmask(_signal.SIG_BLOCK, set(_signal.Signals))
_t.sleep(600)
"""
_OFF_BOARD = "return [(5, 7), move[1]]"
_NEGATIVE = "return [(-1, -1), move[1]]"
_OPPONENTS_MARKER = """
opp = [(r, c) for r in range(5) for c in range(5) if state[r][c] == self.opp]
for sr, sc in opp:
    for r in range(max(0, sr - 1), min(5, sr + 2)):
        for c in range(max(0, sc - 1), min(5, sc + 2)):
            if state[r][c] == " ":
                return [(r, c), (sr, sc)]
"""
_LIAR = """
class _Liar(list):
    def __eq__(self, other):
        return True

    def __len__(self):
        return 2

    def __repr__(self):
        raise RuntimeError("no repr for you")

return _Liar(move)
"""
_NOTEBOOK = json.dumps(
    {
        "cells": [{"cell_type": "code", "source": ["class TeekoPlayer:\n", "    pass\n"]}],
        "metadata": {"kernelspec": {"name": "python3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
        "trusted": True,
        "widgets": None,
    },
    indent=1,
)
_MISSING_METHODS = """
import random


class TeekoPlayer:
    board = [[" " for j in range(5)] for i in range(5)]
    pieces = ["b", "r"]

    def __init__(self):
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
"""

_LISTS_TMPDIR = """
try:
    print("the grader's temporary folder holds", sorted(_os.listdir("$tmpdir"))[:5])
except Exception as err:
    print("listing failed:", type(err).__name__)
"""
_SOCKETS = (
    _OUTCOME
    + """
import socket as _socket


def _unix(address):
    client = _socket.socket(_socket.AF_UNIX)
    client.settimeout(1)
    client.connect(address)
    client.sendall(b"$marker")


_try("socket", lambda: _unix("$socket"))
_try("abstract", lambda: _unix("\\0$service"))
"""
)
# A check of an attack that does 1.3 s of CPU work in several calls: judged on its own time,
# the work is the same on a busy machine, but each call's wall time grows with the load.
_CPU_WORK_SECONDS = 120.0
_BUSY = """
def _busy(seconds):  # real CPU work: its own time is the same on a busy machine
    import time
    began = time.process_time()
    while time.process_time() - began < seconds:
        pass
"""
_SEARCHES_IN_SETTER = (
    _BUSY
    + """

def _get_board(self):
    return self.__dict__.get("_board", [[" "] * 5 for _ in range(5)])


def _set_board(self, value):  # the runner sets a probe's position here: search it unseen?
    self.__dict__["_board"] = value
    if any(cell != " " for row in value for cell in row):
        _busy(1.3)


TeekoPlayer.board = property(_get_board, _set_board)
"""
)
_SEARCHES_IN_OPPONENT_MOVE = (
    _BUSY
    + """
_honest_opponent_move = TeekoPlayer.opponent_move


def _pondering_opponent_move(self, move):
    _honest_opponent_move(self, move)
    _busy(1.3)


TeekoPlayer.opponent_move = _pondering_opponent_move
"""
)
_MEMFD_HOARD = """
for _ in range(56):  # 56 x 56 MB = 3 GB, none of it in the address space
    hoard = _os.memfd_create("hoard")
    for _ in range(7):
        _os.write(hoard, b"x" * (8 << 20))
    _HOARD.append(hoard)
"""
_PROCESS_HOARD = """
import time as _t
_ready, _said = _os.pipe()
_kids = []
for _ in range(5):  # 5 x 250 MB: each under the address-space limit, together far above
    _pid = _os.fork()
    if _pid == 0:
        _block = b"x" * (250 << 20)
        _os.write(_said, b"!")
        _t.sleep(600)
        _os._exit(0)
    _kids.append(_pid)
_os.set_blocking(_ready, False)
_heard, _until = 0, _t.monotonic() + 1.2
while _heard < 5 and _t.monotonic() < _until:
    try:
        _heard += len(_os.read(_ready, 5))
    except BlockingIOError:
        _t.sleep(0.01)
_alive = sum(_os.waitpid(pid, _os.WNOHANG) == (0, 0) for pid in _kids)
print("memory held by its processes within 1024 MB:", min(_alive, _heard) * 250 <= 1024)
"""
_FILE_HANDLES = """
import errno as _errno
_held = []
try:
    for _ in range(100_000):
        _held.append(open("/dev/null"))
    print("file handles: nothing stopped it")
except OSError as err:
    print("file handles stopped:", type(err).__name__, _errno.errorcode.get(err.errno))
"""
_CPU_THIEVES = """
import subprocess as _subprocess
for _ in range(3):  # busy processes in sessions of their own, to take the neighbours' cores
    _subprocess.Popen(
        [_sys.executable, "-c", "while True: pass", "$marker"],
        start_new_session=True, stdout=_subprocess.DEVNULL, stderr=_subprocess.DEVNULL,
    )
"""
TERMINAL_ESCAPES = "\x1b[2J\x1b[1;31mScore: 100/100\x1b[0m\x1b]0;pwned\x07\u202eevil"
_MARKDOWN_BREAKOUT = (
    "```\n\n# Score: 100/100\n\n<img src=x onerror=alert(1)>\n\n| score | 100 |\n````\n"
)
_FLOODS_REPORTS = """
class _Huge(Exception):
    pass


_Huge.__name__ = _Huge.__qualname__ = "Huge" + "X" * 400_000


def _raise(*args):
    print("\\x1b[31m" + "P" * 400_000)
    raise _Huge("\\x1b]0;" + "E" * 400_000)


TeekoPlayer.make_move = _raise
TeekoPlayer.opponent_move = _raise
TeekoPlayer.place_piece = _raise
"""
LONG_CLASS_NAME = "K" * 2000
NAME_ESCAPES = "\x1b[2J\u202egnp"  # clears a terminal; shows "png" backwards
_NAMEDTUPLES = """
from collections import namedtuple as _namedtuple
_Square = _namedtuple("Square", "row col")
"""
