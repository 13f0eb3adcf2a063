"""The wire between the grader and the child runner: frames, and how a returned value travels.

Both sides load this module: the host imports it, the child runner loads it from beside itself
(in the sandbox, ``/sandbox/protocol.py``) before the submission is imported. So it is
standard library only, and the child's half binds every builtin it uses at load time: a
submission that patches ``builtins`` or ``json`` changes nothing in what the runner writes.

A frame is a 4-byte big-endian length and that many bytes of UTF-8 JSON, one object. A value
``make_move`` returned travels as :func:`encode` describes it (exact types kept, at most
``MAX_NODES`` values, texts cut) and comes back through :func:`decode` as a value of the same
shape whose foreign types carry their names.
"""

from __future__ import annotations

import functools
import json
import os
import struct

# Bound before any submission runs (see the module's docstring).
from builtins import (  # noqa: UP029
    BaseException,
    EOFError,
    StopIteration,
    TypeError,
    ValueError,
    bool,
    dict,
    getattr,
    hasattr,
    int,
    isinstance,
    issubclass,
    len,
    list,
    memoryview,
    min,
    range,
    repr,
    str,
    tuple,
    type,
)
from json.encoder import encode_basestring as _quote  # C code where available
from json.scanner import make_scanner
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

_scan = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]  # the C scanner takes a decoder
_write, _read = os.write, os.read

HEADER = struct.Struct(">I")
# A notebook handed in becomes a module whose first line starts with NOTEBOOK_HEADER and whose
# cells each start after a line ``CELL_MARK<n>`` (classroom/notebook.py): the child reads its
# line numbers back as "cell n, line m".
NOTEBOOK_HEADER = "# Made by the grader from the notebook"
CELL_MARK = "# %% cell "
MAX_MESSAGE = 1 << 20  # bytes in one frame, either way
MAX_DEPTH = 12  # nesting of a reply: the runner's are three lists deep at most
_MAX_ITEMS = 16  # longest list or tuple reported item by item
_MAX_NODES = 64  # values described in one reply, all levels together: a reply stays small
_MAX_TEXT = 200
_BIG = 1 << 63  # larger integers are reported as this, with their sign

# ---- the child's side ------------------------------------------------------------------------


def to_json(value: Any) -> str:
    """JSON for the runner's own replies (dicts, lists, str, int, bool, None)."""
    kind = type(value)
    if value is None:
        return "null"
    if kind is bool:
        return "true" if value else "false"
    if kind is int:
        return int.__repr__(value)
    if kind is list or kind is tuple:
        return "[" + ",".join([to_json(item) for item in value]) + "]"
    if kind is dict:
        pairs = [_quote(str(key)) + ":" + to_json(item) for key, item in dict.items(value)]
        return "{" + ",".join(pairs) + "}"
    return _quote(value if kind is str else str(value))


def send(fd: int, message: dict[str, Any]) -> None:
    data = to_json(message).encode("utf-8", "replace")
    view = memoryview(HEADER.pack(len(data)) + data)
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


def receive(fd: int) -> dict[str, Any]:
    """The next request; EOFError for a closed pipe or anything that is not one."""
    (size,) = HEADER.unpack(_read_exact(fd, HEADER.size))
    if size > MAX_MESSAGE:
        raise EOFError
    try:
        request = _scan(_read_exact(fd, size).decode("utf-8"), 0)[0]
    except (StopIteration, ValueError):
        raise EOFError from None
    if type(request) is not dict:
        raise EOFError
    return cast(dict[str, Any], request)


def short(text: str) -> str:
    return text if len(text) <= _MAX_TEXT else text[: _MAX_TEXT - 3] + "..."


def _type_name(value: Any) -> str:
    kind = type(value)
    try:
        module = getattr(kind, "__module__", "?")
        name = getattr(kind, "__qualname__", "?")
        text = name if module == "builtins" else f"{module}.{name}"
    except BaseException:  # a metaclass may make even these attributes lie
        return "?"
    return short(text if type(text) is str else "?")


def _safe_repr(value: Any) -> str:
    try:
        if type(value) in (str, bytes):  # a 100 MB string is not copied to be shown
            return short(repr(value[: _MAX_TEXT + 1]))
        return short(repr(value))
    except BaseException as err:  # a lying __repr__ is the submission's problem, not ours
        return f"<unprintable {_type_name(value)}: {type(err).__name__}>"


def encode(value: Any, depth: int = 0, room: list[int] | None = None) -> dict[str, Any]:
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


# ---- the host's side -----------------------------------------------------------------------


class _Foreign:
    """A returned value the grader only knows by its type name and repr (numpy ints, objects)."""

    def __init__(self, text: str, number: int | None) -> None:
        self._text, self._number = text, number

    def __repr__(self) -> str:
        return self._text

    def __index__(self) -> int:
        if self._number is None:
            raise TypeError("not an integer")
        return self._number


@functools.lru_cache(maxsize=256)  # bounded: a submission may invent a name per call
def _stand_in(base: type, type_name: str) -> type:
    """A subclass of ``base`` named as the submission's class was, for reports and format."""
    module, _, name = type_name.rpartition(".")
    namespace: dict[str, Any] = {"__module__": module or "builtins", "__qualname__": name}
    if base is tuple:  # shown as the submission would print it: Square(2, 3)
        namespace["__repr__"] = lambda self: f"{name}{tuple.__repr__(self)}"
    return type(name, (base,), namespace)


def _foreign(type_name: str, text: str, number: int | None) -> _Foreign:
    return cast(_Foreign, _stand_in(_Foreign, type_name)(text, number))


def decode(description: Any) -> Any:
    """Rebuild a returned value from the child's JSON description (see :func:`encode`)."""
    if not isinstance(description, dict):
        return _foreign("unknown", repr(description), None)
    if "bool" in description:
        return bool(description["bool"])
    if "int" in description and isinstance(description["int"], int):
        return description["int"]
    if "none" in description:
        return None
    for kind in (list, tuple):
        if isinstance(description.get(kind.__name__), list):
            items = [decode(item) for item in description[kind.__name__]]
            size = description.get("size", len(items))
            if isinstance(size, int) and size > len(items):
                items.append(_foreign("ellipsis", f"... {size - len(items)} more", None))
            if "type" in description:  # a subclass (a namedtuple): its values, its own name
                return _stand_in(kind, str(description["type"]))(items)
            return kind(items)
    if "index" in description:
        return _foreign(
            str(description.get("type")), str(description.get("repr")), description["index"]
        )
    return _foreign(
        str(description.get("other", "object")), str(description.get("repr", "?")), None
    )


def cut_size(description: Any) -> int | None:
    """The real length of a returned list or tuple the child described only in part."""
    if not isinstance(description, dict):
        return None
    items = description.get("list", description.get("tuple"))
    size = description.get("size")
    if isinstance(items, list) and isinstance(size, int) and size > len(items):
        return size
    return None


class FrameReader:
    """The host's reading end: bytes in, whole messages out, anything else named."""

    def __init__(self) -> None:
        self.buffer = b""

    def take(self) -> dict[str, Any] | str | None:
        """The next whole message; a sentence saying what was wrong instead; None: wait."""
        if len(self.buffer) < HEADER.size:
            return None
        (size,) = HEADER.unpack_from(self.buffer)
        if size > MAX_MESSAGE:
            return f"a reply of {size} bytes (the limit is {MAX_MESSAGE})"
        if len(self.buffer) < HEADER.size + size:
            return None
        body = self.buffer[HEADER.size : HEADER.size + size]
        self.buffer = self.buffer[HEADER.size + size :]
        try:
            message = json.loads(body)
        except (ValueError, RecursionError):
            return "a reply that is not JSON"
        if not isinstance(message, dict):
            return "a reply that is not a JSON object"
        if nesting(message) > MAX_DEPTH:
            return f"a reply nested more than {MAX_DEPTH} levels deep"
        return message


def nesting(value: Any) -> int:
    """How deeply lists and objects nest in parsed JSON, without recursing."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def request_frame(message: dict[str, Any]) -> bytes:
    data = json.dumps(message).encode()
    return HEADER.pack(len(data)) + data


def end_marker(token: str) -> bytes:
    """What the portable runner writes on stderr after a reply's printed text: the host keeps
    the text up to it for that reply (stderr and the channel are read by separate threads)."""
    return b"\x00\x1eend " + token.encode("ascii", "replace") + b"\x1e\x00"


def notebook_cells(lines: Sequence[str]) -> Callable[[int], tuple[str, int] | None]:
    """For a module made of a notebook's cells, the (cell, line within it) of each 1-based
    line, so that a report names the notebook's own coordinates; for any other module, None.
    Reads ``lines`` once: a file's thousands of findings cost no more than one."""
    import bisect

    if not lines or not lines[0].startswith(NOTEBOOK_HEADER):
        return lambda line: None
    starts = [n for n, text in enumerate(lines, 1) if text.startswith(CELL_MARK)]
    names = [lines[n - 1][len(CELL_MARK) :].split()[0] for n in starts]

    def place(line: int) -> tuple[str, int] | None:
        at = bisect.bisect_right(starts, line) - 1  # the last cell's mark at or above it
        return None if at < 0 else (names[at], line - starts[at])

    return place
