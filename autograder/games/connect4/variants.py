"""The boards the Connect Four pack knows by name, and any other ``connect4-<C>x<R>``.

``connect4`` is the standard 7 columns by 6 rows; ``connect4-8x6`` a wider board (the
notebook course plays on any m×n); ``connect4-5x4`` and ``connect4-4x4`` are small enough to
solve exactly, for tests and perfect play. A name ``connect4-<columns>x<rows>`` (4 to 10
each) is a board of that size too.
"""

from __future__ import annotations

import re

from autograder.games.connect4.rules import Variant
from autograder.games.pack import UnknownAssignmentError, by_name, named

__all__ = ["VARIANTS", "find_variant", "parse_variant"]

VARIANTS: dict[str, Variant] = by_name(
    Variant(
        "connect4",
        7,
        6,
        aliases=("connect-four", "c4"),
        description="7 columns by 6 rows, four in a line wins (the standard board)",
    ),
    Variant("connect4-8x6", 8, 6),
    Variant("connect4-5x4", 5, 4),
    Variant("connect4-4x4", 4, 4),
)
_SIZED = re.compile(r"connect4-(\d+)x(\d+)")
_SIDE = range(4, 11)


def parse_variant(name: str) -> Variant | None:
    """The board a name like ``connect4-9x7`` asks for, or None when it asks for none."""
    match = _SIZED.fullmatch(name.strip().casefold())
    if match is None:
        return None
    columns, rows = int(match[1]), int(match[2])
    if columns not in _SIDE or rows not in _SIDE:
        return None
    for known in VARIANTS.values():  # connect4-7x6 is the standard board, by its own name
        if (known.columns, known.rows) == (columns, rows):
            return known
    return Variant(f"connect4-{columns}x{rows}", columns, rows)


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (any case, an alias, or a size).

    :raises UnknownAssignmentError: listing the known names.
    """
    found = named(VARIANTS, name) or parse_variant(name)
    if found is not None:
        return found
    known = ", ".join(VARIANTS)
    raise UnknownAssignmentError(
        f"unknown Connect Four board {name!r}: choose one of {known}, or connect4-<C>x<R> "
        "with 4 to 10 columns and rows"
    )
