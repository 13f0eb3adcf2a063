"""The corpus's model: an attack, its context and grade, the rubrics it is graded by."""

from __future__ import annotations

import io
import stat
import string
import textwrap
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autograder.play.sandbox import INSTALL_BWRAP, Protections
from tests.conftest import COURSE_TOML, ROOT, SOLUTIONS, fast_solution

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
