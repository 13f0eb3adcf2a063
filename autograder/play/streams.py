"""A child's pipes: made above the standard streams, and read with a timeout (``select``
where pipes can be polled, POSIX; a thread per pipe where they cannot, Windows). Both readers
give the host the same small interface."""

from __future__ import annotations

import os
import queue
import selectors
import threading

__all__ = ["Reader", "SelectReader", "ThreadReader", "pipe_above_streams"]

_CHUNK = 65536


def pipe_above_streams() -> tuple[int, int]:
    """``os.pipe()`` with both ends numbered 3 or more (POSIX). A grader started with its
    stdin, stdout or stderr closed (``0<&-``, some cron and CI jobs) gets the free number 0, 1
    or 2 for a pipe; handed to the runner, that end would be replaced by the runner's own
    stream, and the runner would read end-of-file for its first request."""
    import fcntl

    ends = []
    for end in os.pipe():
        if end < 3:
            low, end = end, fcntl.fcntl(end, fcntl.F_DUPFD_CLOEXEC, 3)
            os.close(low)
        ends.append(end)
    return ends[0], ends[1]


class Reader:
    """Chunks from several pipes, each known by a tag ("channel", "output")."""

    def read(self, timeout: float) -> list[tuple[str, bytes]]:
        """What arrived within ``timeout`` seconds (at least one chunk if any came); an empty
        chunk means that pipe closed."""
        raise NotImplementedError

    def ready(self, tag: str) -> bool:
        """Whether a chunk from ``tag`` can be read now without waiting."""
        raise NotImplementedError

    def is_open(self, tag: str) -> bool:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


class SelectReader(Reader):
    def __init__(self, pipes: dict[int, str]) -> None:
        self._selector = selectors.DefaultSelector()
        for fd, tag in pipes.items():
            self._selector.register(fd, selectors.EVENT_READ, tag)

    def read(self, timeout: float) -> list[tuple[str, bytes]]:
        got = []
        for key, _ in self._selector.select(timeout):
            chunk = os.read(key.fd, _CHUNK)
            if not chunk:
                self._selector.unregister(key.fd)
            got.append((key.data, chunk))
        return got

    def ready(self, tag: str) -> bool:
        return any(key.data == tag for key, _ in self._selector.select(0))

    def is_open(self, tag: str) -> bool:
        return any(key.data == tag for key in self._selector.get_map().values())

    def close(self) -> None:
        self._selector.close()


class ThreadReader(Reader):
    """A daemon thread per pipe, each reading its own duplicate of the pipe until the pipe
    closes (the process and all it started are gone), then closing that duplicate: the owner
    may close its pipes at any time without a thread reading some later file by their number."""

    def __init__(self, pipes: dict[int, str]) -> None:
        self._queue: queue.Queue[tuple[str, bytes]] = queue.Queue()
        self._pending: list[tuple[str, bytes]] = []
        self._open = set(pipes.values())
        for fd, tag in pipes.items():
            threading.Thread(
                target=self._pull, args=(os.dup(fd), tag), daemon=True, name=f"child-{tag}"
            ).start()

    def _pull(self, fd: int, tag: str) -> None:
        try:
            while True:
                try:
                    chunk = os.read(fd, _CHUNK)
                except OSError:
                    chunk = b""
                self._queue.put((tag, chunk))
                if not chunk:
                    return
        finally:
            os.close(fd)

    def _collect(self, timeout: float) -> None:
        if not self._pending:
            try:
                first = (
                    self._queue.get(timeout=timeout) if timeout > 0 else self._queue.get_nowait()
                )
            except queue.Empty:
                return
            self._pending.append(first)
        while True:
            try:
                self._pending.append(self._queue.get_nowait())
            except queue.Empty:
                return

    def read(self, timeout: float) -> list[tuple[str, bytes]]:
        self._collect(timeout)
        got, self._pending = self._pending, []
        for tag, chunk in got:
            if not chunk:
                self._open.discard(tag)
        return got

    def ready(self, tag: str) -> bool:
        self._collect(0)
        return any(t == tag for t, _ in self._pending)

    def is_open(self, tag: str) -> bool:
        return tag in self._open

    def close(self) -> None:
        self._pending = []
