"""Text that came from a submission, made safe for every reader.

Everything a submission controls — what it printed, its exception messages and source lines,
the type and class names and reprs of what it returned, its notes, its file and folder names —
goes through :func:`admit` once, where it enters the grader (the host for the child's replies
and printed text, intake for names): control characters become visible escapes (no terminal
escape sequence, no bidirectional override, no lone surrogate survives) and the text is cut to
the bound of its kind (:data:`BOUNDS`), so no report, whatever its format, can miss it or grow
with it. Each report then escapes it for its own format with the functions below.
"""

from __future__ import annotations

import csv
import html
import io
import re
import shlex
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "admit",
    "admit_reply",
    "clean",
    "md_code",
    "md_cell",
    "html_text",
    "csv_cell",
    "csv_text",
    "shell_word",
    "BOUNDS",
    "TEXT_LIMIT",
]

TEXT_LIMIT = 2000  # characters kept of a text of no known kind
# Characters kept of each kind of text a submission produced; what every report is built from.
BOUNDS = {
    "name": 100,  # a type, class, function or module name
    "repr": 300,  # a returned value's repr
    "message": 400,  # an exception's message with its source lines
    "note": 300,  # a note the game's driver passed on (board drift), any other reply text
    "printed": 4096,  # what one call printed (the rubric's output_chars keeps no more)
    "file": 255,  # a file or folder name (no file system takes longer), a person's name
    "path": 400,  # a path given to the grader
    "sentence": 1000,  # a sentence of the grader's built around file names (a batch's notes)
}
# Kinds of one line: a newline or tab in a name would start a line of its own in a terminal
# or a log (a file named "x\ngraded bob: 100"), so they are shown as escapes there too.
ONE_LINE = frozenset(("name", "repr", "file", "path", "sentence"))
CLASSES_SHOWN = 10  # class names listed when the player class is missing
_KEEP = "\n\t"
_UNSAFE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Zl", "Zp"}
_NUMBER = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?")
# What makes a spreadsheet read a cell as a formula (OWASP's "CSV Injection"): its first
# character one of these, or one of their full-width forms, also after leading blanks.
_FORMULA = frozenset("=+-@\t\r\uff1d\uff0b\uff0d\uff20")


def _visible(char: str) -> str:
    code = ord(char)
    return (
        f"\\x{code:02x}"
        if code < 0x100
        else f"\\u{code:04x}"
        if code < 0x10000
        else (f"\\U{code:08x}")
    )


def clean(text: str, limit: int = TEXT_LIMIT, keep: str = _KEEP) -> str:
    """``text`` with every control or invisible formatting character but those in ``keep``
    shown as an escape (``\\x1b``, ``\\u202e``), cut to ``limit`` characters with a note
    saying how much more."""
    if not isinstance(text, str):
        text = str(text)
    extra = len(text) - limit
    if extra > 0:
        text = text[:limit]
    if not text.isprintable():
        text = "".join(
            _visible(c) if c not in keep and unicodedata.category(c) in _UNSAFE_CATEGORIES else c
            for c in text
        )
    return text + (f" [... {extra} more characters]" if extra > 0 else "")


def admit(text: object, kind: str) -> str:
    """The one gate for submission text: ``text`` cleaned (:func:`clean`) and cut to the
    bound of its ``kind`` (a key of :data:`BOUNDS`); a kind of :data:`ONE_LINE` keeps no
    newline or tab either."""
    keep = "" if kind in ONE_LINE else _KEEP
    return clean(text if isinstance(text, str) else str(text), BOUNDS[kind], keep)


# The kind of each text field of a child's reply; any other text is a "note".
_REPLY_FIELDS = {
    "error": "message",
    "type": "name",
    "other": "name",
    "kind": "name",
    "repr": "repr",
    "shown": "repr",
}


def admit_reply(reply: dict[str, Any]) -> dict[str, Any]:
    """A child's reply (parsed JSON) with every text in it, keys too, through :func:`admit`,
    each by its field's kind; the class names of a missing player class cut one by one."""
    admitted: dict[str, Any] = _admit_tree(reply, "note")
    if isinstance(reply.get("error"), str):
        admitted["error"] = _admit_error(reply["error"])
    if admitted.get("kind") == "class" and isinstance(reply.get("error"), str):
        names = reply["error"].split(", ") if reply["error"] else []
        shown = [admit(name, "name") for name in names[:CLASSES_SHOWN]]
        more = len(names) - CLASSES_SHOWN
        admitted["error"] = ", ".join(shown) + (f" and {more} more" if more > 0 else "")
    return admitted


def _admit_error(text: str) -> str:
    """``Kind: message (frames)``, the exception's type name cut as a name, the rest as a
    message: a 400,000-character class name leaves room for what went wrong."""
    head, colon, rest = text.partition(": ")
    if colon and len(head) > BOUNDS["name"] and " " not in head:
        return f"{admit(head, 'name')}: {admit(rest, 'message')}"
    return admit(text, "message")


def _admit_tree(value: Any, kind: str) -> Any:
    if isinstance(value, str):
        return admit(value, kind)
    if isinstance(value, list):
        return [_admit_tree(item, kind) for item in value]
    if isinstance(value, dict):
        return {
            admit(k, "name"): _admit_tree(v, _REPLY_FIELDS.get(str(k), kind))
            for k, v in value.items()
        }
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
    """``text`` safe in a spreadsheet (OWASP's "CSV Injection"): a cell that would start a
    formula (``= + - @``, tab, carriage return, their full-width forms, or any of them after
    leading blanks) gets a leading apostrophe; a plain number (``-10``, ``0.5``) stays a
    number, which no spreadsheet runs."""
    if _NUMBER.fullmatch(text):
        return text
    if text[:1] in _FORMULA or text.lstrip()[:1] in _FORMULA:
        return "'" + text
    return text


def csv_text(rows: Iterable[Sequence[object]]) -> str:
    """``rows`` as the text of a CSV file: the one way the kit writes one (grades.csv,
    canvas_import.csv, similarity.csv, leaderboard.csv). Every cell goes through
    :func:`csv_cell`; None is an empty cell, a number is written as it is."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for row in rows:
        writer.writerow(
            [
                ""
                if cell is None
                else str(cell)
                if isinstance(cell, int | float) and not isinstance(cell, bool)
                else csv_cell(str(cell))
                for cell in row
            ]
        )
    return buffer.getvalue()


def shell_word(text: str) -> str:
    """``text`` as one word of a shell command that still reproduces it: quoted as ``shlex``
    does, or, when it holds a control or formatting character, in bash's ``$'...'`` with the
    character as an escape (a file name with ESC or U+202E prints nothing raw)."""
    if clean(text, len(text)) == text:
        return shlex.quote(text)
    escaped = "".join(
        "\\" + c
        if c in "\\'"
        else _visible(c)
        if c in _KEEP or unicodedata.category(c) in _UNSAFE_CATEGORIES
        else c
        for c in text
    )
    return f"$'{escaped}'"
