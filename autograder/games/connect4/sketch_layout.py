"""A Processing sketch as Processing runs it, without its ``gameBoard.py``: read by intake
through the sketch interface's :class:`~autograder.games.layout.Layout`."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from autograder.games.layout import Layout

__all__ = ["LAYOUT"]


def _main_from(
    pyde: str, files: Mapping[str, bytes], main: str, shown: Callable[[str], str]
) -> tuple[bytes, str] | None:
    """A file named ``main`` in another case is imported when the ``.pyde`` imports it by that
    name (Processing's Jython matches an import's case, even on a case-insensitive file system;
    otherwise one sentence names the file to rename); a ``.pyde`` that defines the sketch's
    classes itself is imported in ``main``'s place (its ``setup()`` and ``draw()`` never run).
    None when neither is the case."""
    text, stem = files[pyde], main[: -len(".py")]
    for other in sorted(name for name in files if name.endswith(".py")):
        if other.casefold() != main.casefold():
            continue
        imported = re.search(
            rb"(?m)^\s*(from|import)\s+" + re.escape(other[: -len(".py")].encode()) + rb"\b", text
        )
        if imported is None:
            raise ValueError(
                f"the sketch has {shown(other)} where Processing imports {main}: rename it "
                f"{main} (Processing's Python matches an import's case even on a "
                "case-insensitive file system, so the sketch does not run there either)"
            )
        note = f"{shown(other)} is imported as {main}, as the sketch's {shown(pyde)} imports it"
        return files[other], note
    if re.search(rb"(?mi)^class\s+" + re.escape(stem.encode()) + rb"\b", text) is None:
        return None
    return text, (
        f"{shown(pyde)} defines the sketch's classes: it is imported in place of {main} (its "
        "setup() and draw() are not run)"
    )


LAYOUT = Layout(".pyde", "a Processing sketch", _main_from)
