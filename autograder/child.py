"""The player runner: the only code that runs inside a submission's process.

Started by the host as a script (``python -I child.py ...``) so that it needs nothing from the
grader: it imports ``game.py``, then answers the host's requests over a private pipe pair with
length-prefixed JSON. It never decides a score; it only reports what the submission did.
Everything here is untrusted once the submission is imported: the host checks every reply.
"""

from __future__ import annotations

import contextlib
import json
import linecache
import os
import random
import resource
import select
import signal
import struct
import sys
import threading
import types
import warnings

# The submission may patch builtins and the standard modules it shares with this runner
# (``builtins.type``, ``json.dumps``, ``os.write`` ...). What the runner uses is bound here,
# before the submission is imported, and the replies are written without Python-level library
# code (which looks builtins up when it runs), so such patches change nothing in what it
# reports. A submission determined to lie can still patch this module itself: docs/sandbox.md.
from builtins import (  # noqa: UP029
    BaseException,
    ChildProcessError,
    EOFError,
    KeyboardInterrupt,
    StopIteration,
    SyntaxError,
    SystemExit,
    bool,
    callable,
    compile,
    dict,
    exec,
    getattr,
    hasattr,
    int,
    isinstance,
    issubclass,
    len,
    list,
    memoryview,
    min,
    open,
    range,
    repr,
    sorted,
    str,
    tuple,
    type,
    vars,
)
from json.encoder import encode_basestring as _quote  # C code where available
from json.scanner import make_scanner

_scan = make_scanner(json.JSONDecoder())
_write, _read, _getline = os.write, os.read, linecache.getline

_HEADER = struct.Struct(">I")
_MAX_REQUEST = 1 << 20
_MAX_ITEMS = 16  # longest list or tuple reported item by item
_MAX_NODES = 64  # values described in one reply, all levels together: a reply stays small
_MAX_TEXT = 200
_BIG = 1 << 63  # larger integers are reported as this, with their sign


def _to_json(value: object) -> str:
    """JSON for the runner's own replies (dicts, lists, str, int, bool, None)."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is list or kind is tuple:
        return "[" + ",".join([_to_json(item) for item in value]) + "]"
    if kind is dict:
        pairs = [_quote(str(key)) + ":" + _to_json(item) for key, item in dict.items(value)]
        return "{" + ",".join(pairs) + "}"
    return _quote(value if kind is str else str(value))


def _send(fd: int, message: dict) -> None:
    data = _to_json(message).encode("utf-8", "replace")
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[_write(fd, view) :]


def _read_exact(fd: int, size: int) -> bytes:
    chunks = []
    while size:
        chunk = _read(fd, size)
        if not chunk:
            raise EOFError
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def _receive(fd: int) -> dict:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    if size > _MAX_REQUEST:
        raise EOFError
    try:
        return _scan(_read_exact(fd, size).decode("utf-8"), 0)[0]
    except (StopIteration, ValueError):
        raise EOFError from None


def _short(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _type_name(value: object) -> str:
    kind = type(value)
    try:
        module = getattr(kind, "__module__", "?")
        name = getattr(kind, "__qualname__", "?")
        text = name if module == "builtins" else f"{module}.{name}"
    except BaseException:  # a metaclass may make even these attributes lie
        return "?"
    return _short(text if type(text) is str else "?")


def _safe_repr(value: object) -> str:
    try:
        if type(value) in (str, bytes):  # a 100 MB string is not copied to be shown
            return _short(repr(value[: _MAX_TEXT + 1]))
        return _short(repr(value))
    except BaseException as err:  # a lying __repr__ is the submission's problem, not ours
        return f"<unprintable {_type_name(value)}: {type(err).__name__}>"


def encode(value: object, depth: int = 0, room: list[int] | None = None) -> dict:
    """A JSON description of a returned value that keeps the exact types the rubric cares about.

    At most ``_MAX_NODES`` values are described (``room`` counts them down) and texts are cut
    to ``_MAX_TEXT`` characters, so whatever is returned, the reply stays a few kilobytes.
    """
    room = [_MAX_NODES] if room is None else room
    room[0] -= 1
    kind = type(value)
    if kind is bool:
        return {"bool": value}
    if kind is int:
        return {"int": value if -_BIG < value < _BIG else _BIG if value > 0 else -_BIG}
    if value is None:
        return {"none": True}
    base = list if issubclass(kind, list) else tuple if issubclass(kind, tuple) else None
    if base is not None and depth < 3:
        try:  # the base type's own methods: a subclass cannot lie about its items
            size = base.__len__(value)
            get = base.__getitem__
            items = []
            for index in range(min(size, _MAX_ITEMS)):
                if room[0] <= 0 and index >= 3:  # three items show any wrong length
                    break
                items.append(encode(get(value, index), depth + 1, room))
        except BaseException:
            return {"other": _type_name(value), "repr": _safe_repr(value)}
        described = {base.__name__: items, "size": size}
        if kind is not base:  # a namedtuple, say: judged on its values, reported by name
            described["type"] = _type_name(value)
        return described
    if hasattr(kind, "__index__") and not isinstance(value, bool):
        try:
            number = int(kind.__index__(value))
        except BaseException:
            number = None
        if number is not None and -_BIG < number < _BIG:
            return {"index": number, "type": _type_name(value), "repr": _safe_repr(value)}
    return {"other": _type_name(value), "repr": _safe_repr(value)}


def _plain_board(board: object) -> list[list[str]] | None:
    """The board's cells as strings, or None when it is no 5x5 grid we can read."""
    try:
        return [[str(board[r][c]) for c in range(5)] for r in range(5)]  # type: ignore[index]
    except BaseException:
        return None


def _board_copy(board: list[list[str]]) -> list[list[str]]:
    return [list(row) for row in board]


def _user_frames(err: BaseException) -> str:
    """``Kind: message (line N in f: source; ...)``, the submission's last three frames."""
    frames = []
    trace = err.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        if code.co_filename != __file__:
            frames.append((code.co_filename, trace.tb_lineno, code.co_name))
        trace = trace.tb_next
    lines = [
        f"line {line} in {_short(name)}: {_short(_source(path, line))}"
        for path, line, name in frames[-3:]
    ]
    try:
        text = _short(str(err))
    except BaseException:  # an exception whose message cannot be made is still reported
        text = "<unprintable message>"
    head = f"{type(err).__name__}: {text}"
    return head + ("" if not lines else " (" + "; ".join(lines) + ")")


def _source(path: str, line: int) -> str:
    try:
        return _getline(path, line).strip()
    except BaseException:
        return ""


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
                source = handle.read()
            if b"\0" in source:
                return {"ok": False, "kind": "encoding", "error": "it holds NUL bytes"}
            code = compile(source, path, "exec")
        except SyntaxError as err:
            where = f"line {err.lineno}" if err.lineno else "somewhere"
            kind = "encoding" if "codec can't decode" in str(err.msg) else "syntax"
            return {"ok": False, "kind": kind, "error": f"{err.msg} at {where}"}
        except BaseException as err:  # a parser out of memory or recursion
            return {"ok": False, "kind": "crash", "error": _user_frames(err)}
        try:
            exec(code, module.__dict__)
        except EOFError as err:
            return {"ok": False, "kind": "input", "error": _user_frames(err)}
        except (SystemExit, KeyboardInterrupt) as err:
            return {"ok": False, "kind": "exit", "error": _user_frames(err)}
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
            player.board = _board_copy(request["board"])
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
                player.board = _board_copy(expected)
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
        # not contextlib.suppress: its __exit__ is library code the submission may have patched
        try:  # noqa: SIM105
            stream.flush()
        except BaseException:
            pass


def _limit(which: int, value: int) -> None:
    # Where the platform does not offer a limit, the host's wall clock still applies.
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(which, (value, value))


_PR_SET_PDEATHSIG, _PR_SET_CHILD_SUBREAPER = 1, 36
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2
_CLONE_NEWUSER = 0x10000000


def _prctl(option: int, value: int) -> None:
    with contextlib.suppress(Exception):  # Linux only; elsewhere the host's group kill remains
        import ctypes

        ctypes.CDLL(None).prctl(option, value, 0, 0, 0)


def _processes() -> dict[int, int]:
    """pid -> parent pid of every process in sight (Linux's /proc); empty elsewhere."""
    found: dict[int, int] = {}
    with contextlib.suppress(OSError):
        for name in os.listdir("/proc"):
            if name.isdigit():
                with (
                    contextlib.suppress(OSError, ValueError, IndexError),
                    open(f"/proc/{name}/stat", "rb") as handle,
                ):
                    found[int(name)] = int(handle.read().rsplit(b")", 1)[1].split()[1])
    return found


def _reap(runner: int) -> None:
    """The runner's parent for its whole life, holding nothing the submission can use; never
    returns.

    It is the subreaper (pid 1 in a pid namespace), so every process the submission starts and
    orphans, whatever session or group it moved to, becomes its child. When the runner ends,
    those are killed; then it leaves with the runner's status, 128 + the signal when the runner
    was killed (as shells report it: pid 1 of a namespace cannot die by its own signal).
    """
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT, signal.SIGPIPE):
        signal.signal(number, signal.SIG_IGN)
    os.closerange(0, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    me, status, finished = os.getpid(), 1, False
    while True:
        try:
            pid, code = os.wait()
        except ChildProcessError:
            os._exit(status)
        if pid == runner:
            finished = True
            status = 128 + os.WTERMSIG(code) if os.WIFSIGNALED(code) else os.WEXITSTATUS(code)
        if finished:  # kill what is left, and then what each of them leaves to us
            for child, parent in _processes().items():
                if parent == me:
                    with contextlib.suppress(OSError):
                        os.kill(child, signal.SIGKILL)


def _split_off_runner(grader: int) -> None:
    """Fork: the parent stays behind as the reaper (see ``_reap``), the child goes on to run the
    submission, killed by the kernel if its parent dies. Returns in the runner only.

    Called after the identity is dropped: a change of credentials clears the death signal."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() not in (grader, 0):  # pid 1 of a namespace has no parent in sight: 0
        os._exit(1)  # the grader died before the request took hold
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)
    reaper = os.getpid()
    runner = os.fork()
    if runner:
        _reap(runner)
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != reaper:
        os._exit(1)


def _watch_grader(fd_in: int) -> None:
    """End this process when the grader dies, even by kill -9: no child outlives a batch.

    PR_SET_PDEATHSIG covers the parent; this watchdog thread covers the grader, which may be
    further up (under bubblewrap): the request pipe hangs up when the grader is gone.
    """

    def watch() -> None:
        poller = select.poll()
        poller.register(fd_in, 0)  # hang-ups and errors only, never the data
        while True:
            for _, event in poller.poll():
                if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    os._exit(70)

    threading.Thread(target=watch, daemon=True, name="grader-watchdog").start()


_MAX_SUBMISSION = 50 << 20


class _TooLarge(Exception):
    """The submission's files are larger than the runner copies."""


def _read_tree(root: str) -> dict[str, bytes]:
    """The submission's files, read before the identity is dropped (the grader's copy may be
    readable by the grader alone). Intake refuses large submissions before this."""
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
                raise _TooLarge(
                    f"the submission's files are larger than {_MAX_SUBMISSION >> 20} MB"
                )
            with open(path, "rb") as handle:
                files[os.path.relpath(path, root)] = handle.read()
    return files


def _write_tree(files: dict[str, bytes], root: str) -> None:
    for relative, data in files.items():
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)


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
    libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)


def _become(uid: int) -> None:
    """Switch every id to ``uid``: the kernel then drops every capability too."""
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    if os.getuid() != uid or os.geteuid() != uid:
        raise OSError(1, f"could not switch to uid {uid}")


def _drop_identity(settings: dict) -> None:
    uid = settings.get("uid")
    if uid is not None:
        _become(int(uid))
    elif hasattr(os, "geteuid") and os.geteuid() == 0:
        _drop_capabilities()


def _seccomp(program: bytes) -> None:
    """Load the grader's seccomp filter (raw ``struct sock_filter`` records) for good."""
    import ctypes

    class Filter(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(program, len(program))
    prog = Filter(len(program) // 8, ctypes.addressof(buffer))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot set no_new_privs")
    if libc.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "cannot load the seccomp filter")


def _probe(settings: dict) -> None:
    """``child.py --probe SETTINGS``: set up as for a submission and print what held, as JSON."""
    _drop_identity(settings)
    report: dict = {"uid": os.getuid()}
    try:
        with open(os.__file__, "rb"):
            pass
        import fractions  # noqa: F401  (a module nothing has imported yet: the library reads)

        report["stdlib"] = True
    except BaseException:
        report["stdlib"] = False
    program = settings.get("seccomp")
    if program:
        import ctypes

        _seccomp(bytes.fromhex(program))
        libc = ctypes.CDLL(None, use_errno=True)
        refused = libc.unshare(_CLONE_NEWUSER) != 0 and ctypes.get_errno() == 1  # EPERM
        report["seccomp"] = refused
    print(_to_json(report))


def _settle(source_dir: str, settings: dict) -> str:
    """Everything before the submission may run: identity, reaper, private copy of its files,
    limits, seccomp. Returns the folder holding the submission's files.

    :raises Exception: when a layer the host asked for cannot be set up (fail closed).
    """
    files = _read_tree(source_dir)
    _drop_identity(settings)
    _split_off_runner(settings.get("grader", os.getppid()))
    root = "/tmp" if settings.get("fenced") else os.getcwd()
    submission, work = os.path.join(root, "submission"), os.path.join(root, "work")
    _write_tree(files, submission)
    os.makedirs(work, exist_ok=True)
    for name in ("HOME", "TMPDIR"):
        os.environ[name] = work
    os.chdir(work)
    if settings.get("site"):
        sys.path.append(settings["site"])
    _limit(resource.RLIMIT_CORE, 0)
    for name, value in settings.get("rlimits", {}).items():
        _limit(getattr(resource, name), value)
    if settings.get("seccomp"):
        _seccomp(bytes.fromhex(settings["seccomp"]))
    return submission


def main(argv: list[str]) -> None:
    if argv[1] == "--probe":
        _probe(json.loads(argv[2]))
        return
    fd_in, fd_out = int(argv[1]), int(argv[2])
    source_dir, seed, settings = argv[3], int(argv[4]), json.loads(argv[5])
    try:
        source_dir = _settle(source_dir, settings)
        failure = None
    except _TooLarge as err:
        failure = {"ok": False, "kind": "files", "error": str(err)}
    except Exception as err:  # fail closed: the submission is never imported unfenced
        failure = {"ok": False, "kind": "sandbox", "error": str(err)}
    _watch_grader(fd_in)
    warnings.simplefilter("ignore")
    random.seed(seed)
    runner = Runner(source_dir)
    handlers = {
        "load": lambda _request: failure or runner.load(),
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
        _reply(fd_out, reply, request.get("id"))
        if request.get("op") == "load" and not reply.get("ok"):
            return


def _reply(fd_out: int, reply: dict, number: object) -> None:
    """Send ``reply`` to request ``number``; a channel the submission closed or filled with
    garbage ends the runner quietly, and the host reports what it saw."""
    _flush()
    try:
        _send(fd_out, {**reply, "id": number})
    except BaseException:
        os._exit(1)


if __name__ == "__main__":
    main(sys.argv)
