"""The portable runner (Windows's): no ``fork``, no ``resource``, no ``pass_fds``, no polled
pipes. Forced here on Linux, with those taken away from the child for real."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from autograder.play.host import PlayerProcess, Status
from autograder.play.sandbox import Protections
from autograder.play.streams import SelectReader, ThreadReader
from tests.conftest import ROOT, launch

PORTABLE = Protections(resource_limits=False, portable=True)
KEY = ROOT / "answer_key" / "teeko" / "game.py"

# Run child.py with what Windows lacks removed: importing resource, select or fcntl fails,
# and os has no fork.
_WITHOUT_POSIX = """
import os, runpy, sys
for name in ("resource", "select", "fcntl"):
    sys.modules[name] = None
for name in ("fork", "forkpty", "setsid", "killpg"):
    if hasattr(os, name):
        delattr(os, name)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def _windows_like(calls: list[dict[str, Any]]):  # type: ignore[no-untyped-def]
    def spawn(command: list[str], **options: Any) -> subprocess.Popen[bytes]:
        calls.append(options)
        at = next(i for i, part in enumerate(command) if part.endswith("child.py"))
        return subprocess.Popen([*command[:at], "-c", _WITHOUT_POSIX, *command[at:]], **options)

    return spawn


def _submission(tmp_path: Path, extra: str = "") -> Path:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(KEY.read_text() + extra)
    return folder


def _new(side: str) -> dict[str, Any]:
    return {"op": "new", "cls": "TeekoPlayer", "side": side, "state": None}


@pytest.mark.timeout(60)
def test_the_portable_runner_plays_without_fork_resource_or_pass_fds(tmp_path):
    calls: list[dict[str, Any]] = []
    folder = _submission(tmp_path, '\nprint("imported")\n')
    with PlayerProcess(launch(folder, protections=PORTABLE), spawn=_windows_like(calls)) as proc:
        loaded = proc.start()
        assert loaded.ok, loaded.detail
        assert loaded.printed == "imported\n"
        assert proc.request(_new("b"), 10, "TeekoPlayer()").ok
        reply = proc.request({"op": "move"}, 10, "make_move")
        assert reply.status is Status.OK, reply.detail
        assert reply.data["move"] is not None
    assert calls and all("pass_fds" not in options for options in calls)
    assert all(options["stdin"] == subprocess.PIPE for options in calls)


@pytest.mark.timeout(60)
def test_printed_text_belongs_to_the_call_that_printed_it(tmp_path):
    """stderr and the channel are read by separate threads: the end marker keeps each call's
    printed text with its own reply, even when it is printed just before the reply."""
    folder = _submission(
        tmp_path,
        """
_plain_make_move = TeekoPlayer.make_move
_calls = [0]


def _chatty(self, state):
    _calls[0] += 1
    print("call", _calls[0], "x" * 5000)
    return _plain_make_move(self, state)


TeekoPlayer.make_move = _chatty
""",
    )
    with PlayerProcess(launch(folder, protections=PORTABLE), spawn=_windows_like([])) as proc:
        assert proc.start().ok
        for number in range(1, 6):
            assert proc.request(_new("b"), 10, "TeekoPlayer()").ok
            reply = proc.request({"op": "move"}, 10, "make_move")
            assert reply.ok, reply.detail
            assert reply.printed.startswith(f"call {number} xxx"), reply.printed[:20]
            assert "\x1e" not in reply.printed


@pytest.mark.timeout(60)
def test_a_portable_timeout_kills_the_runner_and_says_so(tmp_path):
    folder = _submission(
        tmp_path, "\nimport time\nTeekoPlayer.make_move = lambda self, state: time.sleep(60)\n"
    )
    with PlayerProcess(launch(folder, protections=PORTABLE), spawn=_windows_like([])) as proc:
        assert proc.start().ok
        assert proc.request(_new("b"), 10, "TeekoPlayer()").ok
        reply = proc.request({"op": "move"}, 0.5, "make_move")
        assert reply.status is Status.TIMEOUT
        assert "make_move was still running after 0.5 s" in reply.detail
        pid = proc._process.pid
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


def test_the_report_names_what_the_portable_runner_lacks():
    lines = PORTABLE.describe()
    assert any(
        line.startswith("warning: portable runner (Windows, or TEEKO_SANDBOX=portable)")
        and "no memory, file-size or open-file limit" in line
        for line in lines
    )
    assert not any(line.startswith("resource limits") for line in lines)


@pytest.mark.timeout(10)
@pytest.mark.parametrize("reader", [SelectReader, ThreadReader])
def test_both_readers_give_chunks_by_tag_and_see_a_pipe_close(reader):
    channel_r, channel_w = os.pipe()
    output_r, output_w = os.pipe()
    pipes = reader({channel_r: "channel", output_r: "output"})
    try:
        assert pipes.read(0.05) == []
        os.write(output_w, b"hello")
        assert pipes.read(5) == [("output", b"hello")]
        os.write(channel_w, b"frame")
        got = pipes.read(5)
        assert got == [("channel", b"frame")]
        os.close(channel_w)
        closed: list[tuple[str, bytes]] = []
        while ("channel", b"") not in closed:
            closed += pipes.read(5)
        assert not pipes.is_open("channel") and pipes.is_open("output")
    finally:
        pipes.close()
        for fd in (channel_r, output_r, output_w):
            os.close(fd)


def test_the_portable_mode_is_what_windows_gets():
    code = "from autograder.play.sandbox import available; print(available().portable)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "TEEKO_SANDBOX": "portable"},
    )
    assert done.stdout.strip() == "True", done.stderr
