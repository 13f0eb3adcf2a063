"""The player host: process handling with stand-in processes (fp) and with real children."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import textwrap
import time
from pathlib import Path

import pytest

from autograder.games import grid_driver
from autograder.play.child import CHANNEL_FDS
from autograder.play.host import PlayerProcess, Status
from autograder.play.launch import LIBRARY, Limits
from autograder.play.own_time import Usage
from autograder.play.sandbox import INSTALL_BWRAP, Protections, available
from tests.conftest import launch

FAST = Limits(call_seconds=2.0, import_seconds=2.0)
BARE = Protections(resource_limits=True)  # no probing


def _stand_in(fp, returncode: int, stderr: bytes = b"") -> None:  # type: ignore[no-untyped-def]
    fp.register([fp.any()], returncode=returncode, stderr=stderr)


def test_a_child_that_exits_at_once_is_reported_with_its_status(fp, tmp_path):
    _stand_in(fp, returncode=3)
    with PlayerProcess(launch(tmp_path, FAST, BARE)) as proc:
        reply = proc.start()
    assert reply.status is Status.EXITED
    assert reply.detail == "the submission's process exited with status 3 during importing game.py"


def test_a_child_killed_by_the_kernel_is_named_with_a_likely_cause(fp, tmp_path):
    _stand_in(fp, returncode=-signal.SIGKILL)
    with PlayerProcess(launch(tmp_path, FAST, BARE)) as proc:
        reply = proc.start()
        again = proc.request({"op": "move"}, 1.0, "make_move")
    assert reply.status is Status.EXITED
    assert "was killed by SIGKILL (it may have run out of memory" in reply.detail
    assert again is reply, "a dead process answers every later request at once, the same way"


def test_a_stand_in_process_never_gets_our_own_group_killed(fp, tmp_path):
    """FakePopen's pid is 0; killpg(0) would kill the test run itself."""
    _stand_in(fp, returncode=0)
    with PlayerProcess(launch(tmp_path, FAST, BARE)) as proc:
        proc.start()
    assert os.getpgid(0) == os.getpgrp()  # still alive to ask


def _real(tmp_path: Path, source: str, limits: Limits = FAST) -> PlayerProcess:
    (tmp_path / "game.py").write_text(source)
    return PlayerProcess(launch(tmp_path, limits))


def _running(pattern: str) -> bool:
    found = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return found.stdout.strip() != ""


def test_a_timeout_stops_the_child_in_time(tmp_path):
    began = time.monotonic()
    source = "import time\ntime.sleep(300)\n"
    with _real(tmp_path, source, Limits(call_seconds=1.0, import_seconds=1.0)) as proc:
        reply = proc.start()
    assert reply.status is Status.TIMEOUT
    assert reply.detail == "importing game.py was still running after 1 s and was stopped"
    assert time.monotonic() - began < 10


def test_nothing_the_child_started_outlives_it(tmp_path):
    marker = f"{time.time() % 1000:.6f}"  # a sleep nobody else runs: sleep(123.456789)
    source = (
        "import subprocess, sys\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep({marker})'],"
        " start_new_session=True)\n"
    )
    with _real(tmp_path, source) as proc:
        assert proc.start().ok
        assert _running(f"sleep.{marker}"), "the helper process never started"
    deadline = time.monotonic() + 5
    while _running(f"sleep.{marker}") and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(f"sleep.{marker}"), "a process the submission started outlived it"


def test_printed_text_is_kept_per_call_and_capped(tmp_path):
    source = "print('x' * 10000)\nclass P:\n    pass\n"
    with _real(tmp_path, source, Limits(output_chars=100)) as proc:
        reply = proc.start()
    assert reply.ok
    assert reply.printed.startswith("x" * 100 + "\n[... ")
    assert "more bytes]" in reply.printed


def test_garbage_written_into_the_channel_is_a_bad_reply(tmp_path):
    source = (
        "import os\n"
        "for fd in range(3, 30):\n"
        "    try:\n"
        "        os.write(fd, b'\\xff' * 8)\n"
        "    except OSError:\n"
        "        pass\n"
    )
    with _real(tmp_path, source) as proc:
        reply = proc.start()
    assert reply.status is Status.BAD_REPLY
    assert "the submission wrote into the grader's private pipe" in reply.detail


def _player(make_move: str, prelude: str = "") -> str:
    """A game.py whose TeekoPlayer.make_move runs ``make_move``."""
    body = textwrap.indent(textwrap.dedent(make_move), " " * 8)
    return (
        f"{prelude}\nclass TeekoPlayer:\n    board = [[' '] * 5 for _ in range(5)]\n\n"
        f"    def make_move(self, state):\n{body}\n"
    )


def _constructed(proc: PlayerProcess) -> PlayerProcess:
    assert proc.start().ok
    assert proc.request({"op": "new", "cls": "TeekoPlayer", "side": "b"}, 2, "init").ok
    return proc


def test_exit_inside_a_call_is_an_error_and_the_process_lives_on(tmp_path):
    with _real(tmp_path, _player("exit()")) as proc:
        reply = _constructed(proc).request({"op": "move"}, 2, "make_move")
        again = proc.request({"op": "move"}, 2, "make_move")
    assert reply.status is Status.ERROR
    assert reply.detail.startswith("make_move tried to end the program: SystemExit")
    assert again.status is Status.ERROR


def test_the_child_random_module_is_seeded_by_the_grader(tmp_path):
    (tmp_path / "game.py").write_text("import random\nprint(random.random())\n")

    def first_number(seed: int) -> str:
        with PlayerProcess(launch(tmp_path, FAST, seed=seed)) as proc:
            return proc.start().printed

    assert first_number(7) == first_number(7)
    assert first_number(7) != first_number(8)


LAYERS = available()
needs_cgroups = pytest.mark.skipif(LAYERS.cgroups is None, reason="needs cgroups (root)")
needs_fence = pytest.mark.skipif(not LAYERS.fence, reason=f"needs the fence: {INSTALL_BWRAP}")

_TICKER = """
import threading, time
ticks = 0


def tick():
    global ticks
    while True:
        ticks += 1
        time.sleep(0.005)


threading.Thread(target=tick, daemon=True).start()


class TeekoPlayer:
    board = [[' '] * 5 for _ in range(5)]
    seen = 0

    def make_move(self, state):
        print(ticks - TeekoPlayer.seen)
        TeekoPlayer.seen = ticks
        return [(0, 0)]
"""


@needs_cgroups
def test_nothing_of_the_submission_runs_between_calls(tmp_path):
    """A thread ticking every 5 ms ticks while make_move runs, never during the 0.5 s the
    grader takes between two calls: the process is frozen then."""
    with _real(tmp_path, _TICKER) as proc:
        assert _constructed(proc).request({"op": "move"}, 2, "make_move").ok
        time.sleep(0.5)
        reply = proc.request({"op": "move"}, 2, "make_move")
    assert reply.ok
    assert int(reply.printed) < 5, f"{reply.printed.strip()} ticks between two calls"
    assert reply.cpu_seconds is not None and reply.cpu_seconds < 0.1


@needs_cgroups
def test_each_call_reports_the_cpu_time_of_all_its_processes(tmp_path):
    source = _player(
        """
        if os.fork() == 0:
            began = time.process_time()
            while time.process_time() - began < 0.3:
                pass
            os._exit(0)
        os.wait()
        return [(0, 0)]
        """,
        prelude="import os, time",
    )
    with _real(tmp_path, source) as proc:
        reply = _constructed(proc).request({"op": "move"}, 5, "make_move")
    assert reply.ok and reply.cpu_seconds is not None
    assert 0.25 < reply.cpu_seconds < reply.seconds + 0.05


@needs_cgroups
def test_sleeping_is_the_submissions_own_time_and_stopped_at_the_limit(tmp_path):
    """Its own time leaves out only its waits for a busy CPU: a make_move that sleeps spends
    its own time (the student made the grader wait), so a short sleep is timed whole and a long
    one is stopped at the limit on its own clock, not at the wall-clock backstop."""
    source = _player(
        """
        TeekoPlayer.calls = getattr(TeekoPlayer, "calls", 0) + 1
        time.sleep(0.3 if TeekoPlayer.calls == 1 else 30)
        return [(0, 0)]
        """,
        prelude="import time",
    )
    limits = Limits(call_seconds=1.0, import_seconds=5.0)
    with _real(tmp_path, source, limits) as proc:
        short = _constructed(proc).request({"op": "move"}, 1.0, "make_move")
        began = time.monotonic()
        long = proc.request({"op": "move"}, 1.0, "make_move")
        took = time.monotonic() - began
    assert short.ok and short.own_seconds is not None and short.cpu_seconds is not None
    assert short.own_seconds >= 0.29 and short.cpu_seconds < 0.1
    assert long.status is Status.TIMEOUT and not long.by_wall, long.detail
    assert long.own_seconds is not None and long.own_seconds >= 1.0
    assert took < limits.call_seconds * limits.wall_factor


@needs_fence
def test_a_package_the_rubric_does_not_allow_cannot_be_imported_fenced(tmp_path):
    source = "import numpy\nimport rich\n"
    with _real(tmp_path, source, Limits(packages=("numpy",))) as proc:
        reply = proc.start()
    assert (reply.data.get("kind"), reply.data.get("error")) == ("package", "rich")


_WRITES_AFTER_ITS_REPLY = f"""
import os, threading, time
_reply_fd = {CHANNEL_FDS[1]}  # the runner's replies: always this descriptor


def _later():
    time.sleep(0.2)  # the runner has sent make_move's reply by then
    os.write(_reply_fd, b"\\0\\0\\0\\x02{{}}")
    open(MARKER, "w").close()
"""


def test_a_message_waiting_before_the_request_is_a_bad_reply(tmp_path):
    """The host's own check, whatever the runner: a frame written into the reply pipe after a
    reply (here by a thread of the submission, no cgroup freezing it) is found waiting when
    the next request is sent."""
    marker = tmp_path / "written"
    prelude = _WRITES_AFTER_ITS_REPLY.replace("MARKER", repr(str(marker)))
    source = _player("threading.Thread(target=_later).start()\nreturn [(0, 0)]", prelude)
    (tmp_path / "game.py").write_text(source)
    with PlayerProcess(launch(tmp_path, FAST, BARE)) as proc:  # no freeze, no fence
        assert _constructed(proc).request({"op": "move"}, 2, "make_move").ok
        deadline = time.monotonic() + 10
        while not marker.exists():
            assert time.monotonic() < deadline, "the thread never wrote"
            time.sleep(0.01)
        reply = proc.request({"op": "move"}, 2, "make_move")
    assert reply.status is Status.BAD_REPLY
    assert "a message before the request was sent during make_move" in reply.detail


_SIGNAL_HANDLER = """
import signal, time


def _handler(number, frame):
    print("handler frame:", type(frame).__name__)


old = signal.signal(signal.SIGALRM, _handler)
print("getsignal is the handler:", signal.getsignal(signal.SIGALRM) is _handler)
signal.setitimer(signal.ITIMER_REAL, 0.01)
time.sleep(0.2)
print("the handler comes back:", signal.signal(signal.SIGALRM, old) is _handler)
return [(0, 0)]
"""


def test_a_signal_handler_works_as_in_plain_python(tmp_path):
    """A handler is handed the frame it interrupted, as plain Python hands it, and the rest of
    ``signal`` behaves as always: the runner polices nothing inside the process."""
    with _real(tmp_path, _player(_SIGNAL_HANDLER)) as proc:
        reply = _constructed(proc).request({"op": "move"}, 2, "make_move")
    assert reply.ok, reply.detail
    assert reply.printed.split("\n")[:3] == [
        "getsignal is the handler: True",
        "handler frame: frame",
        "the handler comes back: True",
    ]


class _Starved(PlayerProcess):
    """A computing call on a core shared five ways, on a fake clock: its CPU time runs at a
    fifth of the wall clock's pace, and its thread waits for the CPU the rest of the time."""

    def __init__(self, folder: Path, load: tuple[float, int]) -> None:
        limits = Limits(call_seconds=1.0, wall_factor=3.0)
        super().__init__(launch(folder, limits, BARE), clock=lambda: self.now, load=lambda: load)
        self.now = 0.0

    def _cpu(self) -> float:
        return self.now / 5

    def _waits(self) -> dict[int, int]:
        return {1: int(self.now * 0.8e9)}

    def _pump(self, timeout: float) -> bool:
        self.now += max(timeout, 0.001)
        return True


@pytest.mark.parametrize(
    ("load", "wall", "by_wall"),
    [
        pytest.param((10.0, 2), 5.0, False, id="busy machine: stopped on its own time"),
        pytest.param((1.0, 2), 3.0, True, id="quiet machine: stopped by the backstop"),
    ],
)
def test_a_starved_call_is_stopped_on_its_own_time_or_by_a_backstop_stretched_by_the_load(
    tmp_path, load, wall, by_wall
):
    """On a machine five times oversubscribed the backstop (3 times the 1 s limit) stretches to
    15 s, so the call runs until its own time reaches the limit; where the load does not
    explain the wait, the backstop stops it at 3 s."""
    proc = _Starved(tmp_path, load)
    reply = proc._await(0.0, 1.0, "make_move", Usage(0.0, {1: 0}))
    assert reply.status is Status.TIMEOUT and reply.by_wall is by_wall, reply.detail
    assert reply.seconds == pytest.approx(wall, abs=0.02)
    assert reply.cpu_seconds == pytest.approx(wall / 5, abs=0.01)


class _WokenByTheThaw(PlayerProcess):
    """A call that slept 6 s of wall time with no CPU, whose thread waited ``wait`` seconds for
    a CPU in all, since the thaw that came ``lead`` seconds before the request."""

    def __init__(self, folder: Path, wait: float) -> None:
        super().__init__(launch(folder, FAST, BARE))
        self.wait = wait

    def _cpu(self) -> float:
        return 0.0

    def _waits(self) -> dict[int, int]:
        return {1: int(self.wait * 1e9)}


@pytest.mark.parametrize(
    ("wait", "lead", "own"),
    [
        pytest.param(0.3, 0.3, 6.0, id="every wait before the request: none taken off"),
        pytest.param(0.5, 0.3, 5.8, id="0.2 s after the request: that taken off"),
        pytest.param(0.5, 0.0, 5.5, id="no lead: the whole wait taken off"),
    ],
)
def test_a_wait_before_the_request_is_not_taken_off_the_calls_own_time(tmp_path, wait, lead, own):
    """A busy machine's delay in waking the submission before its request is sent is not
    the call's: taking it off would make a 6 s move look shorter than it was."""
    proc = _WokenByTheThaw(tmp_path, wait)
    cpu, measured = proc._own(Usage(0.0, {1: 0}, lead), 6.0)
    assert cpu == 0.0
    assert measured == pytest.approx(own)


class _SlowToFreeze(PlayerProcess):
    """A real child whose threads each wait ``wait`` seconds for a CPU as the freeze after each
    reply wakes them: on a busy machine the freeze takes its time, after the call's clock
    stopped."""

    wait = 0.5
    frozen_waits = 0

    def _pause(self) -> None:
        super()._pause()
        self.frozen_waits += int(self.wait * 1e9)

    def _waits(self) -> dict[int, int] | None:
        found = super()._waits()
        return None if found is None else {t: ns + self.frozen_waits for t, ns in found.items()}


@needs_cgroups
def test_a_wait_the_freeze_causes_after_the_reply_is_not_taken_off_the_calls_own_time(tmp_path):
    """A 0.3 s sleep is 0.3 s of its own time, though the freeze after the reply held each of
    its threads 0.5 s: that wait came after the call's clock stopped."""
    source = _player("time.sleep(0.3)\nreturn [(0, 0)]", prelude="import time")
    (tmp_path / "game.py").write_text(source)
    with _SlowToFreeze(launch(tmp_path, FAST)) as proc:
        reply = _constructed(proc).request({"op": "move"}, 2, "make_move")
        again = proc.request({"op": "move"}, 2, "make_move")
    for call in (reply, again):
        assert call.ok and call.own_seconds is not None, call.detail
        assert 0.29 <= call.own_seconds <= call.seconds


def test_logging_with_its_callers_line_and_frames_work_as_in_plain_python(tmp_path):
    """logging finds its caller's file and line (``sys._getframe``), and a submission's own
    ``sys._getframe(1)`` and ``inspect.stack()`` work: nothing is refused inside the process."""
    logs = """
import logging, sys, inspect
logging.basicConfig(format="%(filename)s:%(funcName)s %(message)s")
logging.getLogger("ai").warning("thinking %s", 1)
print("caller:", sys._getframe(1).f_code.co_name, len(inspect.stack()) > 2)
return [(0, 0)]
"""
    with _real(tmp_path, _player(logs)) as proc:
        reply = _constructed(proc).request({"op": "move"}, 2, "make_move")
    assert reply.ok, reply.detail
    assert "game.py:make_move thinking 1" in reply.printed
    assert re.search(r"caller: \w+ True", reply.printed), reply.printed


_REACHES_FOR_THE_SHARED_DRIVER = """
import importlib.util, sys

tried = []
for name in ("grid_driver", "autograder.games.grid_driver"):
    try:
        __import__(name)
        tried.append(name + " imported")
    except ImportError as err:
        tried.append(f"{name}: {type(err).__name__}")
lent = [n for n, m in list(sys.modules.items()) if "Grid" in getattr(m, "__dict__", {})]
copies = []
for path in ("/sandbox/library/grid_driver.py", LIBRARY):
    spec = importlib.util.spec_from_file_location("copy", path)
    copy = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(copy)
    except OSError:
        continue
    copy._plain = lambda board, rows, columns: None  # would hide every change: in this copy
    copies.append(path)
print("tried:", tried, "lent:", lent, "copies:", copies)
"""


@pytest.mark.parametrize(
    "layers",
    [pytest.param(None, marks=needs_fence, id="fenced"), pytest.param(BARE, id="unfenced")],
)
def test_a_submission_cannot_reach_the_shared_driver_it_was_loaded_with(tmp_path, layers):
    """The runner lends the grid driver to the game's driver while it loads, never after: the
    submission cannot import it, finds no module holding it, and a copy it loads from the
    file the fence shows (/sandbox/library/) or the kit's is not the one answering the grader:
    patched, it hides nothing (docs/sandbox.md)."""
    library = str(LIBRARY[grid_driver.__name__])
    prelude = _REACHES_FOR_THE_SHARED_DRIVER.replace("LIBRARY", repr(library))
    (tmp_path / "game.py").write_text(_player("state[0][0] = '?'\nreturn [(2, 2)]", prelude))
    with PlayerProcess(launch(tmp_path, FAST, layers)) as proc:
        loaded = proc.start()
        assert proc.request({"op": "new", "cls": "TeekoPlayer", "side": "b"}, 2, "init").ok
        reply = proc.request({"op": "move"}, 2, "make_move")
    copy = "/sandbox/library/grid_driver.py" if layers is None else library
    imports = [f"{name}: ModuleNotFoundError" for name in ("grid_driver", grid_driver.__name__)]
    assert loaded.printed.strip() == f"tried: {imports} lent: [] copies: {[copy]}"
    assert reply.ok, reply.detail
    assert reply.data["state_changed"] is True
    assert reply.data["state_changes"] == {"squares": [[0, 0, " ", "?"]], "count": 1}


def test_a_submission_patching_builtins_changes_nothing_in_the_driver(tmp_path):
    """The driver and the shared code it imports were loaded with a copy of the builtins of
    their own: with ``str`` and ``range`` patched (every cell read as "?", or none read), the
    square make_move changed is still found (docs/sandbox.md, "runner hardening")."""
    patch = "import builtins\nbuiltins.str = lambda value='': '?'\nbuiltins.range = lambda *a: []\n"
    (tmp_path / "game.py").write_text(_player(patch + "state[0][0] = '?'\nreturn [(2, 2)]"))
    with PlayerProcess(launch(tmp_path, FAST)) as proc:
        reply = _constructed(proc).request({"op": "move"}, 2, "make_move")
    assert reply.ok, reply.detail
    assert reply.data["state_changes"] == {"squares": [[0, 0, " ", "?"]], "count": 1}


def _open_descriptors() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="counts descriptors in /proc")
def test_out_of_descriptors_while_starting_is_one_sentence_and_leaks_no_pipe(tmp_path, monkeypatch):
    """The fourth pipe (the fence's /etc/group) fails as with EMFILE: the three opened before
    it are closed, and the submission gets a reason, not a traceback."""
    from autograder.play import host, streams
    from autograder.play import launch as launching

    made = {"pipes": 0}

    def scarce() -> tuple[int, int]:
        made["pipes"] += 1
        if made["pipes"] == 4:
            raise OSError(24, "Too many open files")
        return streams.pipe_above_streams()

    monkeypatch.setattr(host, "pipe_above_streams", scarce)
    monkeypatch.setattr(launching, "pipe_above_streams", scarce)
    (tmp_path / "game.py").write_text("")
    before = _open_descriptors()
    with PlayerProcess(launch(tmp_path, FAST, Protections(resource_limits=True, fence=True))) as p:
        reply = p.start()
    assert made["pipes"] == 4
    assert reply.status is Status.ERROR
    assert reply.detail == (
        "the grader could not start the submission: cannot start it (Too many open files)"
    )
    assert _open_descriptors() == before
