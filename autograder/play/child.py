"""The player runner: the only code of the kit that runs inside a submission's process.

Started by the host as a script (``python -u -s -P -B child.py ...``), so that it needs nothing
from the grader but the game's driver module (``games/<pack>/driver.py``) and the kit's shared
driver code it imports (``games/grid_driver.py``), which it loads before the submission. It
sets the sandbox up from inside (identity, reaper, limits, seccomp), imports the submission's
main file when asked (``load``), then hands every other request to the driver, over a private
pipe pair with length-prefixed JSON. It never decides a score; it only reports what the
submission did. Everything here is untrusted once the submission is imported: the host checks
every reply.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import json
import linecache
import os
import random
import signal
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
    ModuleNotFoundError,
    SyntaxError,
    SystemExit,
    compile,
    exec,
    getattr,
    isinstance,
    open,
    range,
    sorted,
    str,
    type,
    vars,
)
from typing import Any

_getline = linecache.getline
_STANDARD = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names)
# sysconfig's data module, named for the platform (``_sysconfigdata__linux_x86_64-linux-gnu``):
# the standard library's, though ``stdlib_module_names`` leaves it out (``zoneinfo`` imports it)
_STANDARD_PREFIX = "_sysconfigdata_"
_write = os.write  # bound now: the submission may replace os.write
_portable = False  # set by main: the portable runner (see _portable_channel)
_HERE = os.path.dirname(os.path.abspath(__file__))


def _load_module(path: str, name: str) -> types.ModuleType:
    """A kit module from ``path`` (the wire protocol, the game's driver, the shared driver code),
    loaded before the submission and kept out of ``sys.modules``, where the submission would
    find it. Its builtins are a copy of its own, made now: a submission that patches
    ``builtins`` changes nothing in the kit's code (the runner binds its own above)."""
    module = types.ModuleType(name)
    module.__file__ = path
    module.__dict__["__builtins__"] = dict(vars(builtins))
    with open(path, "rb") as handle:
        exec(compile(handle.read(), path, "exec"), module.__dict__)
    return module


def _load_driver(path: str, library: dict[str, str]) -> tuple[types.ModuleType, list[str]]:
    """The game's driver, and the files of the kit's shared driver modules (``library``:
    module name -> file) it was lent: they are in ``sys.modules`` while the driver loads and
    never after, so the driver imports them by name and the submission cannot."""
    lent = {name: _load_module(file, name) for name, file in library.items()}
    sys.modules.update(lent)
    try:
        return _load_module(path, "_kit_driver"), [m.__file__ or "" for m in lent.values()]
    finally:
        for name in lent:
            del sys.modules[name]


protocol = _load_module(os.path.join(_HERE, "protocol.py"), "_kit_protocol")
_KIT_FILES = {os.path.abspath(__file__), protocol.__file__}  # frames never shown to students
# importlib's own frames (``<frozen importlib._bootstrap>``, its package's files) are no
# student's code either: an import that fails shows the student's line, not the machinery's
_IMPORT_MACHINERY = ("<frozen ", os.path.dirname(importlib.__file__) + os.sep)


def _user_frames(err: BaseException) -> str:
    """``Kind: message (line N in f: source; ...)``, the submission's last three frames."""
    frames = []
    trace = err.__traceback__
    while trace is not None:
        code = trace.tb_frame.f_code
        filename = code.co_filename
        if filename not in _KIT_FILES and not filename.startswith(_IMPORT_MACHINERY):
            frames.append((code.co_filename, trace.tb_lineno, code.co_name))
        trace = trace.tb_next
    lines = [
        f"{_where(path, line)} in {protocol.short(name)}: {protocol.short(_source(path, line))}"
        for path, line, name in frames[-3:]
    ]
    try:
        text = protocol.short(str(err))
    except BaseException:  # an exception whose message cannot be made is still reported
        text = "<unprintable message>"
    head = f"{type(err).__name__}: {text}"
    return head + ("" if not lines else " (" + "; ".join(lines) + ")")


def _where(path: str, line: int) -> str:
    """``line N``; ``cell C, line M`` in a module made of a notebook's cells."""
    try:
        if _getline(path, 1).startswith(protocol.NOTEBOOK_HEADER):
            for number in range(line, 1, -1):
                text = _getline(path, number)
                if text.startswith(protocol.CELL_MARK):
                    cell = text[len(protocol.CELL_MARK) :].split()[0]
                    return f"cell {cell}, line {line - number}"
    except BaseException:
        pass
    return f"line {line}"


def _source(path: str, line: int) -> str:
    try:
        return _getline(path, line).strip()
    except BaseException:
        return ""


def _find_class(module: types.ModuleType, name: str) -> object:
    """The class ``name`` in ``module``, or the reply naming the classes it does define."""
    cls = getattr(module, name, None)
    if isinstance(cls, type):
        return cls
    names = sorted(n for n, v in vars(module).items() if isinstance(v, type) and n[0] != "_")
    return {"ok": False, "kind": "class", "error": ", ".join(names)}


def _standard(name: str) -> bool:
    return name in _STANDARD or name.startswith(_STANDARD_PREFIX)


class _OnlyAllowed:
    """An import finder that lets a submission import only the standard library, its own files
    (wherever it puts them) and the third-party packages the rubric allows, whatever else this
    Python has installed (unfenced, the grader's site-packages are in sight): a grade must not
    depend on the grading machine. Fenced, the packages not allowed are not there anyway."""

    def __init__(self, allowed: list[str], root: str) -> None:
        self.allowed = frozenset(allowed)
        self.root = os.path.realpath(root) + os.sep  # holds its files and its working folder
        listed = ", ".join(allowed) + " and" if allowed else "only"
        self.refusal = f"the rubric allows {listed} the standard library"

    def find_spec(self, name: str, path: object = None, target: object = None) -> Any:
        if path is not None or _standard(name) or name in self.allowed:
            return None  # a submodule, or allowed: the usual finders decide
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            if finder is not self and find is not None:
                spec = find(name, None)
                if spec is not None:
                    break
        else:
            spec = None  # nothing has it: the same error, fenced or not, whenever it is imported
        where = spec and (spec.origin or next(iter(spec.submodule_search_locations or ()), ""))
        if where and os.path.realpath(where).startswith(self.root):
            return spec  # one of the submission's own modules
        raise ModuleNotFoundError(f"No module named {name!r} ({self.refusal})", name=name)


def _encoding_problem(err: SyntaxError) -> str | None:
    """What stops Python reading the file, when ``err`` is about its encoding, not its code."""
    message = str(err.msg)
    if message.startswith("unknown encoding"):
        return f"its coding line names {message[18:]}, an encoding Python does not know"
    if "codec can't decode" in message:
        where = f" on line {err.lineno}" if err.lineno else ""
        return message.removeprefix("(unicode error) ").split(" in position")[0] + where
    return None


def load(source_dir: str, main_file: str) -> tuple[dict[str, Any], types.ModuleType | None]:
    """Import the submission's ``main_file`` as the module it names; the reply, and the module
    when it imported. The source is compiled from its bytes, as ``import`` reads it."""
    path = os.path.join(source_dir, main_file)
    name = main_file.rsplit(".", 1)[0]
    sys.path.insert(0, source_dir)
    sys.argv = [path]
    module = types.ModuleType(name)
    module.__file__ = path
    sys.modules[name] = module
    sys.modules["__main__"] = module  # the runner is no module the submission can look up
    try:
        with open(path, "rb") as handle:
            source = handle.read()
        if b"\0" in source:
            return {"ok": False, "kind": "encoding", "error": "it holds NUL bytes"}, None
        code = compile(source, path, "exec", dont_inherit=True)
    except SyntaxError as err:
        unreadable = _encoding_problem(err)
        if unreadable is not None:
            return {"ok": False, "kind": "encoding", "error": unreadable}, None
        where = _where(path, err.lineno) if err.lineno else "somewhere"
        return {"ok": False, "kind": "syntax", "error": f"{err.msg} at {where}"}, None
    except BaseException as err:  # a parser out of memory or recursion
        return {"ok": False, "kind": "crash", "error": _user_frames(err)}, None
    try:
        exec(code, module.__dict__)
    except EOFError as err:
        return {"ok": False, "kind": "input", "error": _user_frames(err)}, None
    except (SystemExit, KeyboardInterrupt) as err:
        return {"ok": False, "kind": "exit", "error": _user_frames(err)}, None
    except ModuleNotFoundError as err:
        top = str(err.name or "").split(".")[0]
        if top.isidentifier() and not _standard(top):  # a package or file it does not have
            return {"ok": False, "kind": "package", "error": protocol.short(top)}, None
        return {"ok": False, "kind": "crash", "error": _user_frames(err)}, None
    except BaseException as err:
        return {"ok": False, "kind": "crash", "error": _user_frames(err)}, None
    return {"ok": True}, module


def _limit(name: str, value: int) -> None:
    # Where the platform does not offer a limit, the host's wall clock still applies.
    import resource  # POSIX only: the portable runner sets no limit

    with contextlib.suppress(ValueError, OSError, AttributeError):
        resource.setrlimit(getattr(resource, name), (value, value))


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
    import resource

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
    further up (under bubblewrap): the request pipe hangs up when the grader is gone. A pipe
    the submission closed itself ends the runner too, with :data:`CHANNEL_LOST` as a failed
    reply does (``_reply``), so the report does not depend on which of the two noticed first.
    """

    import select

    def watch() -> None:
        poller = select.poll()
        poller.register(fd_in, 0)  # hang-ups and errors only, never the data
        while True:
            for _, event in poller.poll():
                if event & (select.POLLHUP | select.POLLERR | select.POLLNVAL):
                    os._exit(CHANNEL_LOST)

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


def _drop_identity(settings: dict[str, Any]) -> None:
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


def _probe(settings: dict[str, Any]) -> None:
    """``child.py --probe SETTINGS``: set up as for a submission and print what held, as JSON."""
    _drop_identity(settings)
    report: dict[str, Any] = {"uid": os.getuid()}
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
    print(protocol.to_json(report))


def _settle(source_dir: str, settings: dict[str, Any]) -> str:
    """Everything before the submission may run: identity, reaper, private copy of its files,
    limits, seccomp. Returns the folder holding the submission's files.

    :raises Exception: when a layer the host asked for cannot be set up (fail closed).
    """
    files = _read_tree(source_dir)
    _drop_identity(settings)
    if not settings.get("portable"):
        _split_off_runner(settings.get("grader", os.getppid()))
    root = "/tmp" if settings.get("fenced") else os.getcwd()
    submission, work = os.path.join(root, "submission"), os.path.join(root, "work")
    _write_tree(files, submission)
    os.makedirs(work, exist_ok=True)
    for name in ("HOME", "TMPDIR"):
        os.environ[name] = work
    os.chdir(submission)  # as ``python game.py`` in its folder: files handed in open by name
    if settings.get("site"):
        sys.path.append(settings["site"])
    if not settings.get("portable"):
        _limit("RLIMIT_CORE", 0)
    for name, value in settings.get("rlimits", {}).items():
        _limit(name, value)
    if settings.get("seccomp"):
        _seccomp(bytes.fromhex(settings["seccomp"]))
    return submission


def _portable_channel() -> tuple[int, int]:
    """The portable runner's channel: requests on what was stdin, replies on what was stdout.
    Afterwards stdin reads as empty and stdout goes where stderr goes, so whatever the
    submission prints reaches the host as printed text, never the channel."""
    fd_in, fd_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    if sys.platform == "win32":  # no newline translation on the channel
        import msvcrt

        for fd in (fd_in, fd_out):
            msvcrt.setmode(fd, os.O_BINARY)
    return fd_in, fd_out


def main(argv: list[str]) -> None:
    if argv[1] == "--probe":
        _probe(json.loads(argv[2]))
        return
    global _portable
    portable = _portable = argv[1] == "--portable"
    if portable:
        argv = [argv[0], *map(str, _portable_channel()), *argv[2:]]
    fd_in, fd_out = int(argv[1]), int(argv[2])
    if not portable:
        fd_in, fd_out = _renumber(fd_in, fd_out)
    source_dir, settings = argv[3], json.loads(argv[4])
    try:
        source_dir = _settle(source_dir, settings)
        driver, library = _load_driver(settings["driver"], settings.get("library", {}))
        _KIT_FILES.update([driver.__file__, *library])
        failure = None
    except _TooLarge as err:
        failure = {"ok": False, "kind": "files", "error": str(err)}
    except Exception as err:  # fail closed: the submission is never imported unfenced
        failure = {"ok": False, "kind": "sandbox", "error": str(err)}
    if not portable:  # polling a pipe is POSIX; portable, the next read's EOF ends the runner
        _watch_grader(fd_in)
    warnings.simplefilter("ignore")
    # What answers a request is bound here, before the submission is imported. Nothing here
    # keeps the submission out: what the grader scores it reads from outside (docs/sandbox.md).
    make_handlers = driver.make_handlers if failure is None else None
    receive, encode, reply_to = protocol.receive, protocol.encode, _reply
    handlers: dict[str, Any] = {}

    def load_submission(request: dict[str, Any]) -> dict[str, Any]:
        if failure is not None or make_handlers is None:
            return failure or {}
        random.seed(int(request["seed"]))  # the seed comes with the load: see Launch
        root = os.path.dirname(source_dir)
        sys.meta_path.insert(0, _OnlyAllowed(settings.get("packages", []), root))
        reply, module = load(source_dir, settings["main"])
        if module is not None:
            handlers.update(make_handlers(module, encode, _user_frames, _find_class))
        return reply

    handlers["load"] = load_submission
    while True:
        try:
            request = receive(fd_in)
        except EOFError:
            return
        try:
            reply = handlers[request["op"]](request)
        except BaseException as err:
            kind = "exit" if isinstance(err, SystemExit | KeyboardInterrupt) else "crash"
            reply = {"ok": False, "kind": kind, "error": _user_frames(err)}
        reply_to(fd_out, reply, request.get("id"))
        if request.get("op") == "load" and not reply.get("ok"):
            return


CHANNEL_FDS = (3, 4)  # the requests, the replies
CHANNEL_LOST = 1  # the runner's status when its channel is closed or broken, whoever sees it


def _renumber(fd_in: int, fd_out: int) -> tuple[int, int]:
    """The channel moved to :data:`CHANNEL_FDS`, whatever numbers the grader's pipes had: what
    a submission reaches by guessing descriptors must not depend on how many the grader held
    open (a busy batch holds more)."""
    import fcntl

    spare = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (fd_in, fd_out)]
    os.close(fd_in)
    os.close(fd_out)
    for fd, number in zip(spare, CHANNEL_FDS, strict=True):
        os.dup2(fd, number)
        os.close(fd)
    return CHANNEL_FDS


def _reply(fd_out: int, reply: dict[str, Any], number: object) -> None:
    """Send ``reply`` to request ``number``; a channel the submission closed or filled with
    garbage ends the runner quietly, and the host reports what it saw. Printed text needs no
    flush: stdout and stderr are unbuffered (``python -u``), so it is in the host's pipes as
    soon as it is printed. Portable, this request's printed text ends with a marker on stderr."""
    if _portable and isinstance(number, str):
        try:  # noqa: SIM105  (contextlib is library code the submission may have patched)
            _write(2, protocol.end_marker(number))
        except BaseException:
            pass
    try:
        protocol.send(fd_out, {**reply, "id": number})
    except BaseException:
        os._exit(CHANNEL_LOST)


if __name__ == "__main__":
    main(sys.argv)
