"""The player host: the life of one submission process, from start to the last kill.

Nothing a child does surfaces here as an exception: each request yields a :class:`Reply` with
a status, the time the host measured, and what the child printed meanwhile. All process
creation goes through ``spawn`` (``subprocess.Popen`` by default) so tests can replace it.
What is started is the :class:`~autograder.play.launch.Launch`'s business; the frames are read
by :class:`~autograder.play.protocol.FrameReader`; printed text is kept by an
:class:`~autograder.play.output.Printed`, read from the child's stdout and stderr pipes.

Every request, the first (``load``: import the submission) included, carries an id the child
cannot guess; the reply must carry it back. Anything already waiting on the channel when a
request is sent is a violation: a reply cannot be written before its question. Where cgroups
are available the submission is frozen between requests, so nothing of it runs while the
grader's clock is not running.

Where the cgroup shows it, each call is timed on the submission's **own time** (its CPU time
and its own waits, not its waits for a CPU that other work held), with a wall-clock backstop
(``limits.wall_factor`` times the limit, stretched by the load per core); elsewhere on wall
time (docs/sandbox.md, "What is timed").
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from autograder.play.busy import machine_load, sharing
from autograder.play.cgroups import JOIN_FAILED, Cgroup
from autograder.play.launch import Launch, identity_pipes
from autograder.play.output import Printed, drain
from autograder.play.own_time import Usage, own_seconds
from autograder.play.protocol import FrameReader, end_marker, request_frame
from autograder.play.sandbox import descendants, next_uid, tree_cpu_seconds
from autograder.play.streams import Reader, SelectReader, ThreadReader, pipe_above_streams
from autograder.play.timed import Timed
from autograder.play.untrusted import admit_reply

__all__ = ["Status", "Reply", "PlayerProcess"]

_DRAIN_CHUNKS = 256  # at most 16 MB read after a reply: a process printing forever cannot stall us
_MARKER_SECONDS = 2.0  # portable: the longest wait for a reply's end marker on stderr
_CHECK_EVERY = 0.5  # seconds between looks at a call's own time once its wall time is past


class Status(Enum):
    OK = "ok"
    ERROR = "error"  # the submission raised; the process lives on
    TIMEOUT = "timeout"  # past the hard limit: killed
    EXITED = "exited"  # the process ended (exit, crash, kill) before answering
    BAD_REPLY = "bad reply"  # the channel carried something that is not a reply


@dataclass(frozen=True)
class Reply(Timed):
    status: Status
    data: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    printed: str = ""
    detail: str = ""  # for statuses other than OK: what happened, in a sentence
    cpu_seconds: float | None = None  # CPU time of all its processes during the call, if known
    own_seconds: float | None = None  # its own time (module docstring); None: not measured
    by_wall: bool = False  # a timeout decided by the wall clock (no own clock, or the backstop)

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
        launch: Launch,
        *,
        spawn: Callable[..., Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
        load: Callable[[], tuple[float, int] | None] = machine_load,
    ) -> None:
        self.launch = launch
        self._load = load
        self.limits = launch.limits
        self.protections = launch.protections
        self._spawn = spawn or subprocess.Popen  # looked up now, so tests can patch it
        self._clock = clock
        self._process: Any = None
        self._group: int | None = None
        self._cgroup: Cgroup | None = None
        self._workdir: str | None = None
        self._reader: Reader | None = None
        self._to_child = -1
        self._from_child = -1
        self._frames = FrameReader()
        self._printed = Printed(launch.limits.output_chars, launch.protections.portable)
        self._token = ""  # the id of the request in flight
        self.dead: Reply | None = None  # set once the process can answer no more
        self.on_started: Callable[[], None] | None = None  # called once start has its reply
        self._frozen = False  # the kernel said its group is frozen, and it was not thawed since
        self._kept: Usage | None = None  # its usage read while frozen: the next call's start

    def __enter__(self) -> PlayerProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- starting ----------------------------------------------------------------------------

    def start(self) -> Reply:
        """Start the process (unless :meth:`start_ahead` did) and import the submission, its
        ``random`` seeded with ``launch.seed``; the reply says whether that worked."""
        if self._workdir is None:
            self._launch(pin=True)
        if self.dead is not None:
            return self.dead
        if self._cgroup is not None:
            try:
                self._cgroup.pin()
            except OSError as err:
                self._kill()
                return self._refused(f"cannot pin its cgroup ({err.strerror or err})")
        doing = f"importing {self.launch.main_file}"
        message = {"op": "load", "seed": self.launch.seed}
        reply = self.request(message, self.limits.import_seconds, doing)
        if self.on_started is not None:
            self.on_started()
        return reply

    def start_ahead(self) -> None:
        """Start the process now, ready for :meth:`start` later: the interpreter, the fence and
        the runner come up meanwhile, and nothing of the submission runs until :meth:`start`
        (which may first give it another seed, see :meth:`reseed`). Its cgroup is pinned to a
        core only then. A failure is kept for :meth:`start` to report."""
        if self._workdir is None:
            self._launch(pin=False)

    def reseed(self, seed: int) -> None:
        """The seed :meth:`start` gives the submission's ``random``; before :meth:`start`."""
        self.launch = replace(self.launch, seed=seed)

    def _launch(self, pin: bool) -> None:
        self._workdir = tempfile.mkdtemp(prefix="teeko-player-")
        layers = self.protections
        uid = next_uid(layers)
        if uid is not None and not layers.fence:
            os.chown(self._workdir, uid, uid)  # its private folder, written after it drops root
        if layers.cgroups is not None:
            try:
                self._cgroup = Cgroup(
                    layers.cgroups, self.limits.memory_mb << 20, self.limits.processes, pin
                )
            except OSError as err:
                self._refused(f"cannot make its cgroup ({err.strerror or err})")
                return
        workdir = self._workdir
        started = (
            self._start_portable(workdir) if layers.portable else self._start_posix(uid, workdir)
        )
        if started is not None:
            self._refused(f"cannot start it ({started.strerror or started})")
            return
        self._group = self._own_group(self._process)

    def _start_posix(self, uid: int | None, workdir: str) -> OSError | None:
        """The runner gets a pipe pair of its own (``pass_fds``); its stdout and stderr are
        what the submission prints."""
        ends: list[int] = []
        try:
            ends.extend(pipe_above_streams())
            ends.extend(pipe_above_streams())
            if self.launch.protections.fence:
                ends.extend(identity_pipes(uid))
        except OSError as err:  # out of descriptors: none of those opened is kept
            for end in ends:
                os.close(end)
            return err
        request_read, request_write, reply_read, reply_write, *fenced = ends
        identity = (fenced[0], fenced[1]) if fenced else None
        try:
            self._process = self._spawn(
                self.launch.command(request_read, reply_write, uid, self._cgroup, identity),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(request_read, reply_write, *(identity or ())),
                cwd=workdir,
                env=Launch.environment(workdir),
                start_new_session=True,
            )
        except OSError as err:
            os.close(request_write)
            os.close(reply_read)
            return err
        finally:
            for end in (request_read, reply_write, *(identity or ())):
                os.close(end)
        self._to_child, self._from_child = request_write, reply_read
        os.set_blocking(request_write, False)  # a child that stops reading cannot block us
        pipes = {reply_read: "channel"}
        for stream in (self._process.stdout, self._process.stderr):
            with contextlib.suppress(AttributeError, OSError, ValueError):
                pipes[stream.fileno()] = "output"
        self._reader = SelectReader(pipes)
        return None

    def _start_portable(self, workdir: str) -> OSError | None:
        """No ``fork``, ``pass_fds`` or polled pipes (Windows): the requests go down the
        runner's stdin, the replies come up its stdout, and what the submission prints comes on
        stderr, each reply's share ended by a marker (``end_marker``)."""
        group: dict[str, Any] = (
            {"start_new_session": True}
            if os.name == "posix"
            else {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
        )
        try:
            self._process = self._spawn(
                self.launch.portable_command(),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=workdir,
                env=Launch.environment(workdir),
                **group,
            )
        except OSError as err:
            return err
        self._to_child = os.dup(self._process.stdin.fileno())
        self._from_child = os.dup(self._process.stdout.fileno())
        self._process.stdin.close()
        self._process.stdout.close()
        self._reader = ThreadReader(
            {self._from_child: "channel", self._process.stderr.fileno(): "output"}
        )
        return None

    def _refused(self, why: str) -> Reply:
        self.dead = Reply(
            Status.ERROR,
            {"ok": False, "kind": "sandbox", "error": why},
            detail=f"the grader could not start the submission: {why}",
        )
        return self.dead

    @staticmethod
    def _own_group(process: Any) -> int | None:
        """The child's process group, known only when it leads one of its own (a stand-in
        process in tests does not, so its group is never ours to kill)."""
        pid = getattr(process, "pid", 0)
        if not isinstance(pid, int) or pid <= 0 or not hasattr(os, "getpgid"):
            return None
        try:
            return pid if os.getpgid(pid) == pid else None
        except ProcessLookupError:
            return None

    # ---- requests ----------------------------------------------------------------------------

    def request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        """Send one request and wait at most ``seconds`` for its reply.

        ``doing`` names the call for messages ("make_move", "place_piece", ...).
        """
        with sharing():
            return self._request(message, seconds, doing)

    def _request(self, message: dict[str, Any], seconds: float, doing: str) -> Reply:
        if self.dead is not None:
            return self.dead
        thawed = self._clock()
        usage = self._kept or Usage(self._cpu(), self._waits())
        self._resume()
        if self._pump(0) and self._frames.buffer:
            return self._violation("a message before the request was sent", self._clock(), doing)
        self._token = secrets.token_hex(16)
        began = self._clock()
        usage = replace(usage, lead=began - thawed)
        pending = memoryview(request_frame({**message, "id": self._token}))
        while pending:
            try:
                pending = pending[os.write(self._to_child, pending) :]
            except BlockingIOError:
                if self._clock() - began >= seconds:
                    return self._timed_out(began, seconds, doing)
                time.sleep(0.001)
            except OSError:
                return self._ended(doing, began)
        return self._await(began, seconds, doing, usage)

    def _await(self, began: float, seconds: float, doing: str, usage: Usage) -> Reply:
        """Wait for the reply. With an own clock the call is stopped when its own time passes
        ``seconds`` or its wall time the backstop; its own time never runs faster than the
        wall clock, so it is first looked at when the wall time reaches the limit. The backstop
        is stretched by the load per core once, when first reached."""
        measured = usage.cpu is not None and usage.waits is not None
        factor = self.limits.wall_factor if measured else 1.0
        backstop, stretched = began + seconds * factor, not measured
        look = began + seconds
        while True:
            message = self._frames.take()
            if message is not None:
                return self._answer(message, began, doing, usage)
            if self.dead is not None:
                return self.dead
            now = self._clock()
            if now >= backstop and not stretched:
                load, stretched = self._load(), True
                factor *= max(1.0, load[0] / load[1]) if load is not None else 1.0
                backstop = began + seconds * factor
            if now >= backstop:
                return self._timed_out(began, seconds, doing, usage, factor)
            if measured and now >= look:
                own = self._own(usage, now - began)[1]
                if own is None or own >= seconds:
                    return self._timed_out(
                        began, seconds, doing, usage, 1.0 if own is None else None
                    )
                look = now + min(max(seconds - own, 0.01), _CHECK_EVERY)
            if not self._pump(min(look, backstop) - now):
                return self._ended(doing, began)

    def _own(
        self, usage: Usage, wall: float, ended: dict[int, int] | None = None
    ) -> tuple[float | None, float | None]:
        """(CPU seconds, own seconds) since ``usage``, each None where not measured: its own
        time is the wall time less its waits for a CPU, and never less than its CPU time. The
        waits are read from the thaw, ``lead`` seconds before the call's clock starts; as much
        of them may have passed before the request, so only the rest is taken from the call's
        time: a wait before the request never shortens it. They end at ``ended``, read when
        the reply came: a thread the freeze woke waits after the call's clock stopped.
        Read while the group is frozen, the figures are kept as the next call's start: they
        cannot change before it thaws."""
        cpu_now = self._cpu()
        cpu = cpu_now - usage.cpu if cpu_now is not None and usage.cpu is not None else None
        waits = self._waits()
        if self._frozen and cpu_now is not None and waits is not None:
            self._kept = Usage(cpu_now, waits)
        waits = waits if ended is None else ended
        if cpu is None or waits is None or usage.waits is None:
            return cpu, None
        return cpu, own_seconds(usage.waits, usage.lead, wall, cpu, waits)

    def _waits(self) -> dict[int, int] | None:
        return self._cgroup.waits() if self._cgroup is not None else None

    def _cpu(self) -> float | None:
        """CPU time of all its processes so far: the cgroup's count, else what /proc shows of
        its process tree (Linux; a child that double-forks away is missed), else None."""
        if self._cgroup is not None:
            return self._cgroup.cpu_seconds()
        return tree_cpu_seconds(self._group) if self._group is not None else None

    def _resume(self) -> None:
        self._frozen, self._kept = False, None
        if self._cgroup is not None:
            self._cgroup.thaw()

    def _pause(self) -> None:
        """Freeze the submission between calls: nothing of it runs while no clock runs."""
        if self._cgroup is not None:
            self._frozen = self._cgroup.freeze()

    def _pump(self, timeout: float) -> bool:
        """Read whatever is ready; False once the reply channel has closed."""
        assert self._reader is not None
        open_channel = True
        for tag, chunk in self._reader.read(timeout):
            if not chunk:
                open_channel = open_channel and tag != "channel"
            elif tag == "channel":
                self._frames.buffer += chunk
            else:
                self._printed.add(chunk)
        return open_channel and self._reader.is_open("channel")

    def _drain_output(self, token: str | None = None) -> str:
        """What the child printed since the last call, capped, with a note on what was cut:
        what its pipes hold once the reply came and it is frozen (``output.Printed``).

        Portable, the runner ends each reply's printed text with a marker on stderr: up to
        that marker is this call's (it can come after the reply; a runner killed or a stderr
        the submission closed ends the wait)."""
        reader = self._reader
        marker = end_marker(token) if token and self.protections.portable else None
        deadline = self._clock() + _MARKER_SECONDS
        while reader is not None and marker is not None and not self._printed.has(marker):
            remaining = deadline - self._clock()
            if remaining <= 0 or not reader.is_open("output"):
                break
            self._pump(remaining)
        if reader is not None:
            drain(self._pump, lambda: reader.ready("output"), _DRAIN_CHUNKS)
        return self._printed.take(marker)

    def _answer(
        self, message: dict[str, Any] | str, began: float, doing: str, usage: Usage
    ) -> Reply:
        seconds = self._clock() - began
        waits = self._waits()  # before the freeze, which makes each thread run (and wait) once
        self._pause()
        cpu, own = self._own(usage, seconds, waits)
        if not isinstance(message, str) and message.get("id") != self._token:
            message = "a reply to another request (a forged or stray message)"
        if isinstance(message, str):
            return self._violation(message, began, doing)
        data = admit_reply(message)
        printed = self._drain_output(self._token)
        if data.get("ok") is True:
            return Reply(Status.OK, data, seconds, printed, cpu_seconds=cpu, own_seconds=own)
        detail = f"{doing} raised {data.get('error', 'an error')}"
        if data.get("kind") == "exit":
            detail = f"{doing} tried to end the program: {data.get('error', '')}"
        if data.get("kind") == "unbuilt":  # the driver could not set the call up: it says why
            detail = f"{doing} was not called: {data.get('error', '')}"
        return Reply(Status.ERROR, data, seconds, printed, detail, cpu, own)

    def _violation(self, what: str, began: float, doing: str) -> Reply:
        return self._stop(
            Status.BAD_REPLY,
            began,
            f"the grader's channel received {what} during {doing}: "
            "the submission wrote into the grader's private pipe",
        )

    def _timed_out(
        self,
        began: float,
        seconds: float,
        doing: str,
        usage: Usage | None = None,
        backstop: float | None = 1.0,
    ) -> Reply:
        """Stop the call; ``backstop`` is how many times the limit the wall clock ran, or None
        when its own time passed the limit."""
        wall = self._clock() - began
        cpu, own = self._own(usage, wall) if usage is not None else (None, None)
        by_wall = backstop is not None
        detail = f"{doing} was still running after {seconds:g} s and was stopped"
        if own is not None and by_wall:
            detail = (
                f"{doing} was stopped by the wall-clock backstop after {wall:.1f} s of wall "
                f"time ({backstop:.3g} times the {seconds:g} s limit); it had used {own:.2f} s "
                "of its own time"
            )
        elif own is not None and wall - own >= 0.5:
            detail += f" ({wall:.1f} s of wall time: it also waited for the machine's CPU)"
        return self._stop(Status.TIMEOUT, began, detail, cpu, own, by_wall)

    def _stop(
        self,
        status: Status,
        began: float,
        detail: str,
        cpu: float | None = None,
        own: float | None = None,
        by_wall: bool = False,
    ) -> Reply:
        """Kill the process for good; every later request gets this same reply at once."""
        self._kill()
        self.dead = Reply(
            status,
            seconds=self._clock() - began,
            printed=self._drain_output(),
            detail=detail,
            cpu_seconds=cpu,
            own_seconds=own,
            by_wall=by_wall,
        )
        return self.dead

    def _ended(self, doing: str, began: float) -> Reply:
        code = self._reap(1.0)
        if code is not None and 128 < code <= 128 + 64:
            code = 128 - code  # the runner's reaper reports a death by signal as shells do
        if code is None:
            how = "closed the grader's channel"
        elif code == JOIN_FAILED and self._cgroup is not None and doing.startswith("importing"):
            how = "could not join its cgroup (the grader's problem: grade it again)"
        elif self._cgroup is not None and self._cgroup.out_of_memory():
            how = (
                f"was killed for using more than {self.limits.memory_mb} MB of memory, all its "
                "processes together"
            )
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
            code: int = self._process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return None
        return code

    def _kill(self) -> None:
        """Kill the whole process group; safe to call when it is already gone."""
        process = self._process
        if process is None:
            return
        if self._group is not None and not self.protections.fence:
            self._kill_tree(process.pid)  # first, while the reaper lives to adopt orphans
        if self._cgroup is not None:  # every process it ever started, wherever it went
            self._cgroup.kill()
        if self._group is not None:  # fenced, this ends bubblewrap and so its pid namespace
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._group, signal.SIGKILL)
        if os.name == "nt":  # no process groups to kill: end its tree by pid
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                subprocess.run(
                    ["taskkill", "/F", "/T", "/PID", str(process.pid)],
                    capture_output=True,
                    timeout=10,
                )
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
        if self._cgroup is not None:
            self._cgroup.kill()
        if self._group is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._group, signal.SIGKILL)
        elif self._process is not None:  # no process group (Windows): the process itself
            with contextlib.suppress(OSError):
                self._process.kill()

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
            if self._reader is not None:
                self._reader.close()
                self._reader = None
            if self._from_child >= 0:
                os.close(self._from_child)
                self._from_child = -1
            if self._cgroup is not None:
                self._cgroup.remove()
                self._cgroup = None
            if self._workdir is not None:
                shutil.rmtree(self._workdir, ignore_errors=True)
                self._workdir = None
