"""The player host: starts a submission in its own process, asks it for moves, times and kills it.

Nothing a child does surfaces here as an exception: each request yields a :class:`Reply` with
a status, the time the host measured, and what the child printed meanwhile. All process
creation goes through ``spawn`` (``subprocess.Popen`` by default) so tests can replace it.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from autograder.sandbox import (
    Protections,
    available,
    command_prefix,
    descendants,
    kit_hidden_paths,
    next_uid,
)

__all__ = ["Limits", "Status", "Reply", "PlayerProcess"]

_CHILD = Path(__file__).with_name("child.py")
_HEADER = struct.Struct(">I")
_MAX_REPLY = 1 << 20
_DRAIN_CHUNKS = 256  # at most 16 MB read after a reply: a process printing forever cannot stall us


@dataclass(frozen=True)
class Limits:
    """Per-process limits, resolved once from the rubric."""

    call_seconds: float = 10.5  # a call still running after this is killed
    import_seconds: float = 10.0
    memory_mb: int = 4096  # address space of the child; 0 = no limit
    file_mb: int = 64  # largest file the child may write
    output_chars: int = 4096  # printed text kept per call


class Status(Enum):
    OK = "ok"
    ERROR = "error"  # the submission raised; the process lives on
    TIMEOUT = "timeout"  # past the hard limit: killed
    EXITED = "exited"  # the process ended (exit, crash, kill) before answering
    BAD_REPLY = "bad reply"  # the channel carried something that is not a reply


@dataclass(frozen=True)
class Reply:
    status: Status
    data: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    printed: str = ""
    detail: str = ""  # for statuses other than OK: what happened, in a sentence

    @property
    def ok(self) -> bool:
        return self.status is Status.OK


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


class PlayerProcess:
    """One submission process. Use as a context manager; ``close`` always kills and reaps it."""

    def __init__(
        self,
        source_dir: Path,
        *,
        seed: int,
        limits: Limits,
        spawn: Callable[..., Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        protections: Protections | None = None,
        hidden: tuple[Path, ...] = (),
    ) -> None:
        self.source_dir = Path(source_dir)
        self.seed = seed
        self.limits = limits
        self._spawn = spawn or subprocess.Popen  # looked up now, so tests can patch it
        self._clock = clock
        self.protections = protections if protections is not None else available()
        self._hidden = hidden
        self._process: Any = None
        self._group: int | None = None
        self._workdir: str | None = None
        self._selector: selectors.BaseSelector | None = None
        self._to_child = -1
        self._from_child = -1
        self._buffer = b""
        self._sequence = 0  # the id of the request in flight; the import's reply is 0
        self._printed: list[bytes] = []
        self._printed_size = 0
        self.dead: Reply | None = None  # set once the process can answer no more

    def __enter__(self) -> PlayerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- starting ----------------------------------------------------------------------------

    def start(self) -> Reply:
        """Start the process and import ``game.py``; the reply's data says whether that worked."""
        self._workdir = tempfile.mkdtemp(prefix="teeko-player-")
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        settings = {
            "rlimits": self._rlimits(),
            "grader": os.getpid(),
            "sandbox": self._sandbox_settings(),
        }
        command = [
            *command_prefix(self.protections),
            sys.executable,
            "-s",
            "-P",
            str(_CHILD),
            str(request_read),
            str(reply_write),
            str(self.source_dir.resolve()),
            str(self.seed),
            json.dumps(settings),
        ]
        try:
            self._process = self._spawn(
                command,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(request_read, reply_write),
                cwd=self._workdir,
                env=self._environment(),
                start_new_session=True,
            )
        finally:
            os.close(request_read)
            os.close(reply_write)
        self._to_child, self._from_child = request_write, reply_read
        os.set_blocking(request_write, False)  # a child that stops reading cannot block us
        self._group = self._own_group(self._process)
        self._selector = selectors.DefaultSelector()
        self._selector.register(reply_read, selectors.EVENT_READ, "channel")
        for stream in (self._process.stdout, self._process.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                self._selector.register(stream.fileno(), selectors.EVENT_READ, "output")
        return self._await(self._clock(), self.limits.import_seconds, "importing game.py")

    @staticmethod
    def _own_group(process: Any) -> int | None:
        """The child's process group, known only when it leads one of its own (a stand-in
        process in tests does not, so its group is never ours to kill)."""
        pid = getattr(process, "pid", 0)
        if not isinstance(pid, int) or pid <= 0:
            return None
        try:
            return pid if os.getpgid(pid) == pid else None
        except ProcessLookupError:
            return None

    def _sandbox_settings(self) -> dict[str, Any] | None:
        layers = self.protections
        if not (layers.namespaces or layers.other_user):
            return None
        needed = [Path(p).resolve() for p in (sys.prefix, sys.base_prefix, _CHILD.parent)]
        hidden = [
            path
            for path in (Path(p).resolve() for p in (*kit_hidden_paths(), *self._hidden))
            if not any(n == path or path in n.parents for n in needed)  # never hide Python
        ]
        return {
            "namespaces": layers.namespaces,
            "uid": next_uid(layers),
            "hide": [str(path) for path in hidden],
            "tmp_mb": self.limits.file_mb,
            "processes": 64,
            "pid_max": layers.process_limit,
        }

    def _rlimits(self) -> dict[str, int]:
        limits = {"RLIMIT_FSIZE": self.limits.file_mb << 20}
        if self.limits.memory_mb:
            limits["RLIMIT_AS"] = self.limits.memory_mb << 20
        return limits

    def _environment(self) -> dict[str, str]:
        assert self._workdir is not None
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self._workdir,
            "TMPDIR": self._workdir,
            "LANG": "C.UTF-8",
            "PYTHONHASHSEED": "0",  # set and dict orders stay the same run to run
            "PYTHONDONTWRITEBYTECODE": "1",
            "PYTHONIOENCODING": "utf-8",
            "OMP_NUM_THREADS": "1",  # numpy's threads would take the other jobs' cores
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
        }

    # ---- requests ----------------------------------------------------------------------------

    def request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        """Send one request and wait at most ``seconds`` for its reply.

        ``doing`` names the call for messages ("make_move", "place_piece", ...).
        """
        if self.dead is not None:
            return self.dead
        self._sequence += 1
        data = json.dumps({**message, "id": self._sequence}).encode()
        began = self._clock()
        pending = memoryview(_HEADER.pack(len(data)) + data)
        while pending:
            try:
                pending = pending[os.write(self._to_child, pending) :]
            except BlockingIOError:
                if self._clock() - began >= seconds:
                    return self._timed_out(began, seconds, doing)
                time.sleep(0.001)
            except OSError:
                return self._ended(doing, began)
        return self._await(began, seconds, doing)

    def _await(self, began: float, seconds: float, doing: str) -> Reply:
        deadline = began + seconds
        while True:
            message = self._take_message()
            if message is not None:
                return self._answer(message, began, doing)
            if self.dead is not None:
                return self.dead
            remaining = deadline - self._clock()
            if remaining <= 0:
                return self._timed_out(began, seconds, doing)
            if not self._pump(remaining):
                return self._ended(doing, began)

    def _pump(self, timeout: float) -> bool:
        """Read whatever is ready; False once the reply channel has closed."""
        assert self._selector is not None
        open_channel = True
        for key, _ in self._selector.select(timeout):
            chunk = os.read(key.fd, 65536)
            if not chunk:
                self._selector.unregister(key.fd)
                open_channel = open_channel and key.data != "channel"
            elif key.data == "channel":
                self._buffer += chunk
            else:
                self._keep_output(chunk)
        return open_channel and self._channel_open()

    def _channel_open(self) -> bool:
        assert self._selector is not None
        return any(key.data == "channel" for key in self._selector.get_map().values())

    def _keep_output(self, chunk: bytes) -> None:
        room = self.limits.output_chars - self._printed_size
        if room > 0:
            self._printed.append(chunk[:room])
        self._printed_size += len(chunk)

    def _drain_output(self) -> str:
        """What the child printed since the last call, capped, with a note on what was cut."""
        assert self._selector is not None
        for _ in range(_DRAIN_CHUNKS):
            if not any(key.data == "output" for key, _ in self._selector.select(0)):
                break
            self._pump(0)
        text = b"".join(self._printed).decode("utf-8", "replace")
        if self._printed_size > self.limits.output_chars:
            text += f"\n[... {self._printed_size - self.limits.output_chars} more bytes]"
        self._printed, self._printed_size = [], 0
        return text

    def _take_message(self) -> dict[str, Any] | str | None:
        if len(self._buffer) < _HEADER.size:
            return None
        (size,) = _HEADER.unpack_from(self._buffer)
        if size > _MAX_REPLY:
            return f"a reply of {size} bytes (the limit is {_MAX_REPLY})"
        if len(self._buffer) < _HEADER.size + size:
            return None
        body = self._buffer[_HEADER.size : _HEADER.size + size]
        self._buffer = self._buffer[_HEADER.size + size :]
        try:
            message = json.loads(body)
        except ValueError:
            return "a reply that is not JSON"
        return message if isinstance(message, dict) else "a reply that is not a JSON object"

    def _answer(self, message: dict[str, Any] | str, began: float, doing: str) -> Reply:
        seconds = self._clock() - began
        if not isinstance(message, str) and message.get("id") != self._sequence:
            message = "a reply to another request (a forged or stray message)"
        if isinstance(message, str):
            self._kill()
            printed = self._drain_output()
            self.dead = Reply(
                Status.BAD_REPLY,
                seconds=seconds,
                printed=printed,
                detail=f"the grader's channel received {message} during {doing}: "
                "the submission wrote into the grader's private pipe",
            )
            return self.dead
        printed = self._drain_output()
        if message.get("ok") is True:
            return Reply(Status.OK, message, seconds, printed)
        detail = f"{doing} raised {message.get('error', 'an error')}"
        if message.get("kind") == "exit":
            detail = f"{doing} tried to end the program: {message.get('error', '')}"
        return Reply(Status.ERROR, message, seconds, printed, detail)

    def _timed_out(self, began: float, seconds: float, doing: str) -> Reply:
        self._kill()
        self.dead = Reply(
            Status.TIMEOUT,
            seconds=self._clock() - began,
            printed=self._drain_output(),
            detail=f"{doing} was still running after {seconds:g} s and was stopped",
        )
        return self.dead

    def _ended(self, doing: str, began: float) -> Reply:
        code = self._reap(1.0)
        if code is not None and 128 < code <= 128 + 64:
            code = 128 - code  # the runner's reaper reports a death by signal as shells do
        if code is None:
            how = "closed the grader's channel"
        elif code < 0:
            how = f"was killed by {_signal_name(-code)}"
            if -code in (signal.SIGKILL, signal.SIGSEGV):
                how += " (it may have run out of memory or recursed too deeply)"
        else:
            how = f"exited with status {code}"
        self._kill()
        self.dead = Reply(
            Status.EXITED,
            {"exit_code": code},
            self._clock() - began,
            self._drain_output(),
            f"the submission's process {how} during {doing}",
        )
        return self.dead

    # ---- stopping ----------------------------------------------------------------------------

    def _reap(self, seconds: float) -> int | None:
        try:
            return self._process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None

    def _kill(self) -> None:
        """Kill the whole process group; safe to call when it is already gone."""
        process = self._process
        if process is None:
            return
        if self._group is not None and not self.protections.namespaces:
            self._kill_tree(process.pid)  # first, while the reaper lives to adopt orphans
        if self._group is not None:  # in a pid namespace, this ends every process in it
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._group, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, OSError):
            process.kill()
        self._reap(5.0)

    @staticmethod
    def _kill_tree(root: int) -> None:
        """Kill every process below ``root`` (its reaper, which adopts their orphans) until none
        is left, whatever session or group they moved to; Linux only, elsewhere a no-op."""
        for _ in range(50):
            below = descendants(root)
            if not below:
                return
            for pid in below:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)  # let the killed die and their children pass to the reaper

    def abort(self) -> None:
        """Kill the process group now, from any thread; the call in flight ends as 'exited'."""
        if self._group is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._group, signal.SIGKILL)

    def close(self) -> None:
        """End the process and everything in its group, reap it and remove its work folder."""
        try:
            if self._to_child >= 0:
                os.close(self._to_child)
                self._to_child = -1
            self._kill()
        finally:
            for stream in (
                getattr(self._process, "stdout", None),
                getattr(self._process, "stderr", None),
            ):
                if stream is not None:
                    stream.close()
            if self._selector is not None:
                self._selector.close()
                self._selector = None
            if self._from_child >= 0:
                os.close(self._from_child)
                self._from_child = -1
            if self._workdir is not None:
                shutil.rmtree(self._workdir, ignore_errors=True)
                self._workdir = None
