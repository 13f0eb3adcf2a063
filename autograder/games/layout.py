"""How a homework's submission can hold its main module other than by that module's name.

A Processing sketch is a folder named by its ``.pyde``; the course's students may name its
files in another case, or keep the sketch's classes in the ``.pyde`` itself. An interface
declares a :class:`Layout` (``Interface.layout``) and intake reads it: no homework's files or
rules are written into intake.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

__all__ = ["Layout", "MainFrom"]

# (the marker file's name, the files of its folder by name (the marker and the .py files),
# the main module's name, the text gate that shows a file name in a message) -> (the main
# module's bytes, one note for the report), or None when the folder holds no main module
# either way; raises ValueError with one sentence when a file is named so that it cannot be
# the main module.
MainFrom = Callable[[str, Mapping[str, bytes], str, Callable[[str], str]], tuple[bytes, str] | None]


@dataclass(frozen=True)
class Layout:
    """A file ending in ``marker`` marks a folder (or a zip) as a submission of this homework,
    whatever its other files are named; where the folder has no main module, ``main_from``
    makes one from its files."""

    marker: str  # ".pyde"
    kind: str  # what such a folder is, in a message: "a Processing sketch"
    main_from: MainFrom
