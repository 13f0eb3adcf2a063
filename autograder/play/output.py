"""What a submission prints, read from outside: the bytes on its stdout and stderr pipes, each
given to the call during which it reached them, kept per call up to a limit, the rest counted.

The runner's stdout and stderr are unbuffered (``python -u``), so a print is in the pipe when
it happens; where cgroups freeze the submission once a reply has come, every byte in the pipes
then belongs to the call that just ended. The runner keeps no buffer and flushes nothing: a
submission that replaces the runner's functions, ``sys.stdout``, ``print`` or ``os.write``
changes nothing in what is read here, only in what it prints.
"""

from __future__ import annotations

from collections.abc import Callable

from autograder.play.untrusted import admit

__all__ = ["OutputTail", "Printed"]

_RAW_KEPT = 1 << 20  # portable: printed bytes held while looking for the marker
_MARKER_ROOM = 64


class OutputTail:
    """The printed bytes of the current call: the first ``limit`` kept, the rest counted."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._kept: list[bytes] = []
        self._size = 0

    def add(self, chunk: bytes) -> None:
        room = self.limit - self._size
        if room > 0:
            self._kept.append(chunk[:room])
        self._size += len(chunk)

    def take(self) -> str:
        """The text so far, cleaned, with a note on what was cut; the tail starts afresh."""
        text = admit(b"".join(self._kept).decode("utf-8", "replace"), "printed")
        if self._size > self.limit:
            text += f"\n[... {self._size - self.limit} more bytes]"
        self._kept, self._size = [], 0
        return text


class Printed:
    """The output pipes' bytes, given to calls. On POSIX every byte read goes to the call in
    flight. The portable runner (no freezing, threads reading each pipe) ends each reply's
    printed text with a marker on stderr (``protocol.end_marker``): bytes are held until the
    marker shows which call they belong to, a best effort."""

    def __init__(self, limit: int, portable: bool) -> None:
        self._tail = OutputTail(limit)
        self.portable = portable
        self._raw = bytearray()  # portable: printed bytes not yet matched to a reply

    def add(self, chunk: bytes) -> None:
        if not self.portable:
            self._tail.add(chunk)
            return
        self._raw += chunk
        if len(self._raw) > _RAW_KEPT:  # a flood: count it, keep a marker's length
            self._tail.add(bytes(self._raw[:-_MARKER_ROOM]))
            del self._raw[:-_MARKER_ROOM]

    def has(self, marker: bytes) -> bool:
        return marker in self._raw

    def take(self, marker: bytes | None = None) -> str:
        """This call's text: portable, what came before ``marker`` (everything held when it
        never came); the rest stays for the next call."""
        cut = self._raw.find(marker) if marker is not None else -1
        if cut < 0:
            self._tail.add(bytes(self._raw))
            self._raw.clear()
        else:
            self._tail.add(bytes(self._raw[:cut]))
            del self._raw[: cut + len(marker or b"")]
        return self._tail.take()


def drain(pump: Callable[[float], bool], ready: Callable[[], bool], chunks: int) -> None:
    """Read what the pipes hold now, at most ``chunks`` reads: a process printing for ever
    (a thread, or a child of its own while it is not frozen) cannot stall the grader."""
    for _ in range(chunks):
        if not ready():
            return
        pump(0)
