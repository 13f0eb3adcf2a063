"""The player runner: the only code that runs inside a submission's process.

Started by the host as a script (``python -I child.py ...``) so that it needs nothing from the
grader: it imports ``game.py``, then answers the host's requests over a private pipe pair with
length-prefixed JSON. It never decides a score; it only reports what the submission did.
Everything here is untrusted once the submission is imported: the host checks every reply.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import random
import resource
import select
import signal
import struct
import sys
import threading
import traceback
import types
import warnings

_HEADER = struct.Struct(">I")
_MAX_REQUEST = 1 << 20
_MAX_ITEMS = 16  # longest list or tuple reported item by item
_MAX_TEXT = 200


def _send(fd: int, message: dict) -> None:
    data = json.dumps(message).encode()
    os.write(fd, _HEADER.pack(len(data)) + data)


def _read_exact(fd: int, size: int) -> bytes:
    chunks = []
    while size:
        chunk = os.read(fd, size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int) -> dict:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    if size > _MAX_REQUEST:
        raise EOFError
    return json.loads(_read_exact(fd, size))


def _short(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _type_name(value: object) -> str:
    kind = type(value)
    module = getattr(kind, "__module__", "?")
    name = getattr(kind, "__qualname__", "?")
    return name if module == "builtins" else f"{module}.{name}"


def _safe_repr(value: object) -> str:
    try:
        return _short(repr(value))
    except BaseException as err:  # a lying __repr__ is the submission's problem, not ours
        return f"<unprintable {_type_name(value)}: {type(err).__name__}>"


def encode(value: object, depth: int = 0) -> dict:
    """A JSON description of a returned value that keeps the exact types the rubric cares about."""
    kind = type(value)
    if kind is bool:
        return {"bool": value}
    if kind is int:
        return (
            {"int": value} if abs(value) < 1 << 31 else {"other": "int", "repr": _short(str(value))}
        )
    if value is None:
        return {"none": True}
    if kind in (list, tuple) and depth < 3:
        items = list.__getitem__(value, slice(_MAX_ITEMS)) if kind is list else value[:_MAX_ITEMS]
        size = list.__len__(value) if kind is list else tuple.__len__(value)
        return {
            kind.__name__: [encode(item, depth + 1) for item in items],
            "size": size,
        }
    if hasattr(kind, "__index__") and not isinstance(value, bool):
        try:
            number = int(kind.__index__(value))
        except BaseException:
            number = None
        if number is not None and abs(number) < 1 << 31:
            return {"index": number, "type": _type_name(value), "repr": _safe_repr(value)}
    return {"other": _type_name(value), "repr": _safe_repr(value)}


def _plain_board(board: object) -> list[list[str]] | None:
    """The board's cells as strings, or None when it is no 5x5 grid we can read."""
    try:
        return [[str(board[r][c]) for c in range(5)] for r in range(5)]  # type: ignore[index]
    except BaseException:
        return None


def _user_frames(err: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(err.__traceback__) if f.filename != __file__]
    lines = [f"line {f.lineno} in {f.name}: {(f.line or '').strip()}" for f in frames[-3:]]
    head = f"{type(err).__name__}: {_short(str(err))}"
    return head + ("" if not lines else " (" + "; ".join(lines) + ")")


class Runner:
    def __init__(self, source_dir: str) -> None:
        self.source_dir = source_dir
        self.module: types.ModuleType | None = None
        self.player: object = None

    def load(self) -> dict:
        path = os.path.join(self.source_dir, "game.py")
        sys.path.insert(0, self.source_dir)
        sys.argv = [path]
        module = types.ModuleType("game")
        module.__file__ = path
        sys.modules["game"] = module
        try:
            with open(path, "rb") as handle:
                code = compile(handle.read(), path, "exec")
            exec(code, module.__dict__)
        except EOFError as err:
            return {"ok": False, "kind": "input", "error": _user_frames(err)}
        except SyntaxError as err:
            where = f"line {err.lineno}" if err.lineno else "somewhere"
            return {"ok": False, "kind": "syntax", "error": f"{err.msg} at {where}"}
        except BaseException as err:
            return {"ok": False, "kind": "crash", "error": _user_frames(err)}
        self.module = module
        return {"ok": True}

    def new(self, request: dict) -> dict:
        cls = getattr(self.module, request["cls"], None)
        if not isinstance(cls, type):
            names = sorted(
                n for n, v in vars(self.module).items() if isinstance(v, type) and n[0] != "_"
            )
            return {"ok": False, "kind": "class", "error": ", ".join(names)}
        player = cls()
        player.my_piece = request["piece"]
        player.opp = "r" if request["piece"] == "b" else "b"
        if request.get("board") is not None:
            player.board = copy.deepcopy(request["board"])
        self.player = player
        return {"ok": True}

    def sync(self, request: dict) -> dict:
        notes = []
        player = self.player
        for key, method, args in (
            ("own", "place_piece", (player.my_piece,)),
            ("opp", "opponent_move", ()),
        ):
            if request.get(key) is None:
                continue
            move = [tuple(square) for square in request[key]]
            try:
                getattr(player, method)(move, *args)
            except BaseException as err:
                notes.append(f"{method}({move!r}) raised {_user_frames(err)}")
        expected = request["board"]
        if _plain_board(getattr(player, "board", None)) != expected:
            notes.append("drift")
            try:
                for r in range(5):
                    for c in range(5):
                        player.board[r][c] = expected[r][c]
            except BaseException:
                player.board = copy.deepcopy(expected)
        return {"ok": True, "notes": notes}

    def challenge(self) -> dict:
        """Whether the player opts in to games against the strongest opponent (KIT_SPEC §3)."""
        ask = getattr(self.player, "run_challenge_test", None)
        return {"ok": True, "opted_in": callable(ask) and ask() is True}

    def move(self) -> dict:
        player = self.player
        state = player.board
        before = _plain_board(state)
        raw = player.make_move(state)
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": _plain_board(state) != before,
            "board_changed": _plain_board(getattr(player, "board", None)) != before,
        }


def _flush() -> None:
    """Push printed text into the host's pipes before the reply, so it counts for this call."""
    for stream in (sys.stdout, sys.stderr, sys.__stdout__, sys.__stderr__):
        with contextlib.suppress(BaseException):
            stream.flush()


def _limit(which: int, value: int) -> None:
    # Where the platform does not offer a limit, the host's wall clock still applies.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(which, (value, value))


def _die_with_grader(grader: int, fd_in: int) -> None:
    """End this process when the grader dies, even by kill -9: no child outlives a batch.

    PR_SET_PDEATHSIG covers a direct child; the watchdog thread covers a child under unshare,
    whose parent is not the grader: the request pipe hangs up when the grader is gone.
    """
    with contextlib.suppress(Exception):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() not in (grader, 0) and not _namespaced():
        os._exit(1)  # the grader died before the request took hold

    def watch() -> None:
        poller = select.poll()
        poller.register(fd_in, 0)  # hang-ups and errors only, never the data
        while True:
            for _, event in poller.poll():
                if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    os._exit(70)

    threading.Thread(target=watch, daemon=True, name="grader-watchdog").start()


def _namespaced() -> bool:
    return os.getpid() == 1


_MS_RDONLY, _MS_REMOUNT, _MS_BIND, _MS_NOSUID, _MS_NODEV = 1, 32, 4096, 2, 4
_MAX_SUBMISSION = 50 << 20


def _read_tree(root: str) -> dict[str, bytes]:
    """The submission's files, read before /tmp (where the grader unpacked them) is hidden."""
    files: dict[str, bytes] = {}
    total = 0
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__"]
        for name in names:
            path = os.path.join(folder, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            total += os.path.getsize(path)
            if total > _MAX_SUBMISSION:
                return files
            with open(path, "rb") as handle:
                files[os.path.relpath(path, root)] = handle.read()
    return files


def _mount(libc, source, target, kind, flags, data) -> bool:  # type: ignore[no-untyped-def]
    encode = lambda text: None if text is None else text.encode()  # noqa: E731
    return libc.mount(encode(source), encode(target), encode(kind), flags, encode(data)) == 0


def _fence_filesystem(hide: list[str], tmp_mb: int) -> None:
    """In our own mount namespace: everything read-only, a fresh /tmp, the kit's secrets hidden."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    with open("/proc/self/mountinfo") as handle:
        points = [line.split()[4] for line in handle]
    for point in points:
        if not point.startswith("/proc"):
            _mount(libc, None, point, None, _MS_REMOUNT | _MS_BIND | _MS_RDONLY, None)
    if not _mount(
        libc, "tmpfs", "/tmp", "tmpfs", _MS_NOSUID | _MS_NODEV, f"size={tmp_mb}m,mode=1777"
    ):
        raise OSError(ctypes.get_errno(), "cannot mount a private /tmp")
    for path in hide:
        if os.path.isdir(path):
            _mount(
                libc, "tmpfs", path, "tmpfs", _MS_RDONLY | _MS_NOSUID | _MS_NODEV, "size=4k,mode=0"
            )
        elif os.path.exists(path):
            _mount(libc, "/dev/null", path, None, _MS_BIND, None)


def _drop_capabilities() -> None:
    """Stay uid 0 (to read a Python installed under /root) but keep no privilege at all: no
    capability now or ever (bounding set emptied, no_new_privs), so no remount, no chown."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    for capability in range(64):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP; EINVAL past the last
            break

    class Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]

    class Data(ctypes.Structure):
        _fields_ = [(name, ctypes.c_uint32) for name in ("effective", "permitted", "inheritable")]

    header, data = Header(0x20080522, 0), (Data * 2)()  # _LINUX_CAPABILITY_VERSION_3
    if libc.capset(ctypes.byref(header), data) != 0:
        raise OSError(ctypes.get_errno(), "cannot drop capabilities")
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS


def _enter_sandbox(source_dir: str, workdir: str, sandbox: dict) -> tuple[str, str]:
    """Move into the fence the host asked for; returns the new submission and work folders."""
    files = _read_tree(source_dir)
    root = workdir
    if sandbox.get("namespaces"):
        _fence_filesystem(sandbox.get("hide", []), sandbox.get("tmp_mb", 64))
        root = "/tmp"
    submission, work = os.path.join(root, "submission"), os.path.join(root, "work")
    for relative, data in files.items():
        path = os.path.join(submission, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)
    os.makedirs(work, exist_ok=True)
    uid = sandbox.get("uid")
    if uid is not None:
        for folder, _, names in os.walk(root):
            os.chown(folder, uid, uid)
            for name in names:
                os.chown(os.path.join(folder, name), uid, uid)
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
        _limit(resource.RLIMIT_NPROC, sandbox.get("processes", 64))
    elif sandbox.get("namespaces"):
        _drop_capabilities()
    for name in ("HOME", "TMPDIR"):
        os.environ[name] = work
    os.chdir(work)
    return submission, work


def main(argv: list[str]) -> None:
    fd_in, fd_out = int(argv[1]), int(argv[2])
    source_dir, seed, settings = argv[3], int(argv[4]), json.loads(argv[5])
    _die_with_grader(settings.get("grader", os.getppid()), fd_in)
    if settings.get("sandbox"):
        source_dir, _ = _enter_sandbox(source_dir, os.getcwd(), settings["sandbox"])
    _limit(resource.RLIMIT_CORE, 0)
    for name, value in settings.get("rlimits", {}).items():
        _limit(getattr(resource, name), value)
    warnings.simplefilter("ignore")
    random.seed(seed)
    runner = Runner(source_dir)
    reply = runner.load()
    _flush()
    _send(fd_out, reply)
    if not reply["ok"]:
        return
    handlers = {
        "new": runner.new,
        "sync": runner.sync,
        "move": lambda _request: runner.move(),
        "challenge": lambda _request: runner.challenge(),
    }
    while True:
        try:
            request = _receive(fd_in)
        except EOFError:
            return
        try:
            reply = handlers[request["op"]](request)
        except BaseException as err:
            kind = "exit" if isinstance(err, SystemExit | KeyboardInterrupt) else "crash"
            reply = {"ok": False, "kind": kind, "error": _user_frames(err)}
        _flush()
        _send(fd_out, reply)


if __name__ == "__main__":
    main(sys.argv)
