"""Text that came from a submission, made safe for every reader.

Everything a submission controls — what it printed, its exception messages and source lines,
the names and reprs of what it returned, its file names — goes through :func:`clean` once, where
it enters the grader (the host, intake): control characters become visible escapes (no terminal
escape sequence, no bidirectional override, no lone surrogate survives) and the length is capped.
Each report then escapes it for its own format with the functions below.
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any

__all__ = ["clean", "clean_tree", "md_code", "md_cell", "html_text", "csv_cell", "TEXT_LIMIT"]

TEXT_LIMIT = 2000  # characters kept of any one text a submission produced
_KEEP = "\n\t"
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
_NUMBER = re.compile(r"-?\d+(\.\d+)?")


def _visible(char: str) -> str:
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else (f"\\U{code:08x}")
    )


def clean(text: str, limit: int = TEXT_LIMIT) -> str:
    """``text`` with every control or invisible formatting character shown as an escape
    (``\\x1b``, ``\\u202e``), cut to ``limit`` characters with a note saying how much more."""
    if not isinstance(text, str):
        text = str(text)
    extra = len(text) - limit
    if extra > 0:
        text = text[:limit]
    if not text.isprintable():
        text = "".join(
            _visible(c) if c not in _KEEP and unicodedata.category(c) in _UNSAFE_CATEGORIES else c
            for c in text
        )
    return text + (f" [... {extra} more characters]" if extra > 0 else "")


def clean_tree(value: Any, limit: int = TEXT_LIMIT) -> Any:
    """``value`` (parsed JSON) with every text in it, keys too, passed through :func:`clean`."""
    if isinstance(value, str):
        return clean(value, limit)
    if isinstance(value, list):
        return [clean_tree(item, limit) for item in value]
    if isinstance(value, dict):
        return {clean(str(k), 200): clean_tree(v, limit) for k, v in value.items()}
    return value


def md_code(text: str, info: str = "text") -> list[str]:
    """A fenced Markdown code block holding ``text`` literally: the fence is longer than any
    run of backticks inside, so nothing in it can close the block."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return [fence + info, text, fence]


_MD_SPECIAL = re.compile(r"([\\`*\[\]<>|])")


def md_cell(text: str) -> str:
    """``text`` as one line of Markdown (a table cell, a list item): what could end the cell,
    start HTML, a link, an image, code or bold is escaped; ``make_move`` stays readable
    (an underscore inside a word is no markup)."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def html_text(text: str) -> str:
    return html.escape(text, quote=True)


def csv_cell(text: str) -> str:
    """``text`` safe in a spreadsheet: a cell that would start a formula (``= + - @``, tab,
    carriage return) gets a leading apostrophe; plain numbers stay numbers."""
    if text and text[0] in "=+-@\t\r" and not _NUMBER.fullmatch(text):
        return "'" + text
    return text
