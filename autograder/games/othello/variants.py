"""The boards the Othello pack knows: 6×6 (the homework's), 8×8 (the standard game) and 4×4
(small enough to solve at once, for tests)."""

from __future__ import annotations

from autograder.games.othello.rules import Variant
from autograder.games.pack import UnknownAssignmentError, by_name, named

__all__ = ["VARIANTS", "find_variant"]

VARIANTS: dict[str, Variant] = by_name(
    Variant(
        "othello",
        6,
        aliases=("othello-6x6", "reversi"),
        description="6×6 board, most discs wins (the homework's board)",
    ),
    Variant("othello-8x8", 8, description="8×8 board, most discs wins (the standard game)"),
    Variant("othello-4x4", 4),
)


def find_variant(name: str) -> Variant:
    """The variant called ``name`` (any case, or an alias).

    :raises UnknownAssignmentError: listing the known names.
    """
    found = named(VARIANTS, name)
    if found is not None:
        return found
    raise UnknownAssignmentError(
        f"unknown Othello board {name!r}: choose one of {', '.join(VARIANTS)}"
    )
