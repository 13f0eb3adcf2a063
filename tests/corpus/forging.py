"""The code of the attacks that forge from inside the child: the runner's and the driver's
code reached through introspection and patched."""

from __future__ import annotations

from tests.conftest import ROOT
from tests.corpus.model import in_move_phase

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
