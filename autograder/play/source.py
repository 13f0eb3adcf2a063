"""How Python reads a submission's source: as ``import`` does (the grade) and as ``python
game.py`` does (the student's own run), which differ for one kind of file.

A file that declares no encoding (no PEP 263 coding line, no UTF-8 byte-order mark) is UTF-8
to both. ``python game.py`` refuses it as soon as a line is not UTF-8; an import, which compiles
the file's bytes, only decodes what it must (names, strings) and reads past a Latin-1 byte in a
comment. The grade follows the import (the course's harness imports ``game.py``); the report
then warns that the student's own run fails.
"""

from __future__ import annotations

import codecs
import re

__all__ = ["script_warning"]

# PEP 263: on line 1, or on line 2 below a comment or blank line 1
_COOKIE = re.compile(rb"^[ \t\f]*#.*?coding[:=][ \t]*([-\w.]+)")
_BLANK = re.compile(rb"^[ \t\f]*(?:[#\r\n]|$)")


def _declares_encoding(source: bytes) -> bool:
    if source.startswith(codecs.BOM_UTF8):
        return True
    lines = source.splitlines()[:2]
    if lines and _COOKIE.match(lines[0]):
        return True
    return len(lines) == 2 and bool(_BLANK.match(lines[0])) and bool(_COOKIE.match(lines[1]))


def _first_bad_line(source: bytes) -> tuple[int, int] | None:
    """(line number, the first byte UTF-8 refuses on it), or None when all of it is UTF-8."""
    for number, line in enumerate(source.splitlines(), start=1):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as err:
            return number, line[err.start]
    return None


def script_warning(source: bytes, main: str) -> str | None:
    """One line for the report when ``python main`` refuses ``source`` for its encoding (which
    an import read, or the grader would have said so instead); None when both read it."""
    if _declares_encoding(source):
        return None  # then both decode the whole file with the declared codec
    bad = _first_bad_line(source)
    if bad is None:
        return None
    line, byte = bad
    return (
        f"{main} is not UTF-8 (line {line} holds the byte 0x{byte:02x}) and has no coding "
        f"line, so running python {main} stops with a SyntaxError; an import reads it, so it was "
        "graded as usual: save it with the UTF-8 encoding (in most editors: Save with "
        "Encoding, UTF-8)"
    )
