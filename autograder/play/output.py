"""What a submission prints: kept per call up to a limit, the rest only counted."""

from __future__ import annotations

from autograder.play.untrusted import admit

__all__ = ["OutputTail"]


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
