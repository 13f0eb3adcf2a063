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
``$course_rubric`` and ``$rubric`` (the kit's secrets), ``$marker`` (a unique file name) and
``$cwd`` (the grader's working folder) are filled in by the test.
"""

from __future__ import annotations

import codecs
import io
import json
import stat
import string
import textwrap
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.conftest import ROOT, SOLUTIONS, TWO_SQUARES, fast_solution

__all__ = [
    "Attack",
    "Context",
    "ATTACKS",
    "HONEST",
    "QUICK_RUBRIC",
    "COURSE_RUBRIC",
    "FULL",
    "ZERO",
    "quick_rubric",
]

FULL = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30, "output": 0, "packaging": 0}
ZERO = dict.fromkeys(FULL, 0)
PRINTED = {"output": -10}
MOVE_PHASE_LOST = {"rules": 10, "state": 5, "format": 5}  # no answer at all in the move phase
MOVE_PHASE_ILLEGAL = {"rules": 10, "format": 5}  # a malformed or illegal move-phase answer
MOVE_PHASE_TIMEOUT = {"rules": 10, "state": 5, "format": 5, "time": 0, "wins": 0}


def quick_rubric() -> str:
    """The course rubric with short limits and few games: the same points, a tenth of the time."""
    text = (ROOT / "autograder" / "rubrics" / "course.toml").read_text()
    for old, new in (
        ('title = "HW8 Teeko / Teeko2 (course rubric)"', 'title = "quick attack rubric"'),
        ("games = 3 ", "games = 2 "),
        ("drop_probes = 10 ", "drop_probes = 3 "),
        ("move_probes = 10 ", "move_probes = 3 "),
        ("call_seconds = 10.5 ", "call_seconds = 2.0 "),
        ("import_seconds = 10.0 ", "import_seconds = 2.0 "),
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
    course_rubric: Path = ROOT / "autograder" / "rubrics" / "course.toml"

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
    played exactly the same; ``fenced`` entries are only safe where namespaces are active, and
    ``brake`` ones only where the process-count limit is too.
    """

    kind: str  # baseline, exit, time, space, files, grader, moves, broken, archive
    payload: str | bytes | Callable[[Context], bytes]
    scores: dict[str, float] | None
    message: str
    suffix: str = ".py"
    rubric: str = QUICK_RUBRIC
    absent: tuple[str, ...] = ()
    secret: str | None = None
    same_games_as: str | None = None
    fenced: bool = False
    brake: bool = False
    survivors: str | None = None  # a command-line marker no process may carry afterwards
    seconds: float = 30.0  # the check must finish within this

    def content(self, ctx: Context) -> bytes:
        if callable(self.payload):
            return self.payload(ctx)
        if isinstance(self.payload, bytes):
            return self.payload
        return ctx.fill(self.payload).encode()

    @property
    def total(self) -> float | None:
        return None if self.scores is None else max(0, sum(self.scores.values()))


def _grade(**changes: float) -> dict[str, float]:
    return FULL | changes


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
    """Read each path and print what it holds, or ``reading failed: ...``."""
    calls = "".join(
        f"_try({label!r} + ' read: ' + repr(open({p!r}).read(300)), lambda: None)\n"
        for label, p in paths.items()
    )
    return (
        _OUTCOME
        + "try:\n"
        + textwrap.indent(calls, "    ")
        + ("except Exception as err:\n    print('reading failed:', type(err).__name__, err)\n")
    )


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
import ctypes as _ctypes
_libc = _ctypes.CDLL(None, use_errno=True)
_results = []
for _args in ((None, b"/", None, 32 | 4096, None), (None, b"/tmp", None, 32, None)):
    _results.append(_libc.mount(*_args))
_results.append(_libc.umount2(b"$solution".rsplit(b"/", 2)[0], 2))
_results.append(_libc.unshare(0x10000000 | 0x00020000))  # a user and a mount namespace
_results.append(_libc.umount2(b"$solution".rsplit(b"/", 2)[0], 2))
_results.append(_libc.mount(None, b"/", None, 32 | 4096, None))
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
_clock = _real_time.perf_counter
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
    import autograder.host, autograder.referee, autograder.rules, autograder.scoring
    autograder.scoring.score = lambda *args, **kwargs: None
    autograder.rules.read_student_move = lambda raw, pos: None
    autograder.referee.random_opponent = lambda pos, rng: None
    autograder.host.PlayerProcess.request = lambda *args, **kwargs: None
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
        _grade(**MOVE_PHASE_LOST),
        "make_move tried to end the program: SystemExit: 0",
    ),
    "os-exit-in-make-move": Attack(
        "exit",
        in_move_phase("_os._exit(1)"),
        _grade(**MOVE_PHASE_LOST),
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
        _grade(**MOVE_PHASE_LOST),
        "make_move tried to end the program: KeyboardInterrupt",
        rubric=COURSE_RUBRIC,
    ),
    "segfault-by-recursion": Attack(
        "exit",
        in_move_phase(_SEGFAULT),
        _grade(**MOVE_PHASE_LOST),
        "was killed by SIGSEGV (it may have run out of memory or recursed too deeply) "
        "during make_move",
    ),
    "kills-its-parent": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getppid(), signal.SIGKILL)"),
        FULL,  # its parent is the runner's reaper, pid 1 of the namespace: immune
        "won 2 of 2",
        fenced=True,
    ),
    "kills-itself": Attack(
        "exit",
        in_move_phase("import signal\n_os.kill(_os.getpid(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST),
        "the submission's process was killed by SIGKILL",
    ),
    "kills-its-process-group": Attack(
        "exit",
        in_move_phase("import signal\n_os.killpg(_os.getpgrp(), signal.SIGKILL)"),
        _grade(**MOVE_PHASE_LOST),
        "was killed by SIGKILL",
    ),
    "kills-every-process-it-can": Attack(
        "exit",
        in_move_phase(
            "import signal\ntry:\n    _os.kill(-1, signal.SIGKILL)\nexcept OSError:\n    pass"
        ),
        FULL,
        "won 2 of 2",
        fenced=True,  # kill(-1) outside a pid namespace reaches everything the user owns
    ),
    # -- time -------------------------------------------------------------------------------------
    "infinite-loop-at-import": Attack(
        "time",
        HONEST + "\nwhile True:\n    pass\n",
        ZERO,
        "importing game.py did not finish within 2 s",
    ),
    "infinite-loop-in-make-move": Attack(
        "time",
        in_move_phase("while True:\n    pass"),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
    ),
    "sleeps-ignoring-signals": Attack(
        "time",
        in_move_phase(_SLEEP_IGNORING_SIGNALS),
        _grade(**MOVE_PHASE_TIMEOUT),
        "make_move was still running after 2 s and was stopped",
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
        fenced=True,
        brake=True,
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
        _grade(**MOVE_PHASE_LOST),
        "make_move raised MemoryError",
    ),
    "memory-creep": Attack(
        "space",
        patched("_HOARD.append(bytes(350 << 20))", prelude="_HOARD = []\n"),
        _grade(rules=0, state=5, format=5, wins=0),  # the third call of each process fails
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
    # -- the filesystem (the effect must not happen; see ``absent`` and ``secret``) ---------------
    "writes-the-grader-output-folder": Attack(
        "files",
        patched(prelude=_writes(out="$out/$marker", feedback="$out/feedback.md")),
        _grade(**PRINTED),
        "out blocked: PermissionError EACCES",
        absent=("$out/$marker",),
        fenced=True,
    ),
    "fakes-results-json": Attack(
        "files",
        patched("return None", prelude=_LATE_RESULTS),
        _grade(rules=0, format=0, wins=0),
        "make_move must return a list like [(row, col)], got None",
        fenced=True,
    ),
    "writes-its-original-folder": Attack(
        "files",
        patched(prelude=_writes(new="$here/$marker", game="$here/game.py")),
        _grade(**PRINTED),
        "new blocked: PermissionError EACCES",
        absent=("$here/$marker",),
        fenced=True,
    ),
    "writes-the-current-folder": Attack(
        "files",
        patched(prelude=_writes(cwd="$marker", grader_cwd="$cwd/$marker")),
        _grade(**PRINTED),
        # The grader's folder is read-only, or, when it lies under /tmp (a CI checkout), only
        # the private /tmp's copy of the path is written: either way the real file is absent.
        "cwd done | grader_cwd ",
        absent=("$cwd/$marker",),
        fenced=True,
    ),
    "writes-home": Attack(
        "files",
        patched(prelude=_writes(root="/root/$marker") + _HOME_WRITE),
        _grade(**PRINTED),
        "root blocked: OSError EROFS | ~ done",
        absent=("/root/$marker",),
        fenced=True,
    ),
    "writes-tmp-and-shared-memory": Attack(
        "files",
        patched(
            prelude=_writes(tmp="/tmp/$marker", var="/var/tmp/$marker", shm="/dev/shm/$marker")
        ),
        _grade(**PRINTED),
        "tmp done | var blocked: OSError EROFS | shm blocked: OSError EROFS",
        absent=("/tmp/$marker", "/var/tmp/$marker", "/dev/shm/$marker"),
        fenced=True,
    ),
    "reads-the-reference-solution": Attack(
        "files",
        patched(prelude=_reads(solution="$solution")),
        _grade(**PRINTED),
        # PermissionError where hidden under an empty folder, FileNotFoundError where the
        # private /tmp covers it (a checkout under /tmp): never its content.
        "reading failed:",
        secret="$solution",
        fenced=True,
    ),
    "reads-the-rubric-config": Attack(
        "files",
        patched(prelude=_reads(course="$course_rubric", rubric="$rubric")),
        _grade(**PRINTED),
        "reading failed:",
        secret="$rubric",
        fenced=True,
    ),
    "reads-another-students-submission": Attack(
        "files",
        patched(prelude=_reads(other="$other")),
        _grade(**PRINTED),
        "reading failed:",
        secret="$other",
        fenced=True,
    ),
    "connects-to-the-network": Attack(
        "files",
        patched(prelude=_NETWORK),
        _grade(**PRINTED),
        "internet blocked: OSError ENETUNREACH | loopback blocked: OSError ENETUNREACH",
        fenced=True,
    ),
    "remounts-and-unshares-to-escape": Attack(
        "files",
        patched(prelude=_REMOUNT),
        _grade(**PRINTED),
        "escape attempts: [-1, -1, -1, -1, -1, -1, 'PermissionError']",
        absent=("$here/$marker",),
        fenced=True,
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
    "closes-the-channel": Attack(
        "grader",
        patched(prelude=_CLOSE_CHANNEL),
        ZERO,
        "the submission's process exited with status 1 during importing game.py",
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
        _grade(**MOVE_PHASE_ILLEGAL),
        "make_move must return a list like [(row, col)], got <unprintable game.",
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
        "game.py is not UTF-8 text ((unicode error) 'utf-8' codec can't decode byte 0xe9",
    ),
    "saved-as-utf-16": Attack(
        "broken",
        codecs.BOM_UTF16_LE + HONEST.encode("utf-16-le"),
        ZERO,
        "game.py is not UTF-8 text (it holds NUL bytes); save it with the UTF-8 encoding",
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
        "importing game.py raised ModuleNotFoundError: No module named "
        "'teeko_helpers_i_forgot_to_submit'",
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
    "zip-with-two-game-py": _archive(
        lambda ctx: _zip({"a/game.py": HONEST, "b/game.py": HONEST}),
        "holds several game.py files (a/game.py, b/game.py); submit exactly one",
    ),
}
