"""The games the kit grades, one pack each (``pack.py`` is the seam), and their assignments.

This is the one list of assignments: the command line, intake and the Gradescope bundle all
look names up here.
"""

from __future__ import annotations

import re

from autograder.games.boardabc import PACK as BOARD_ABC
from autograder.games.connect4 import PACK as CONNECT4
from autograder.games.pack import Assignment, GamePack, UnknownAssignmentError
from autograder.games.teeko import PACK as TEEKO

__all__ = [
    "PACKS",
    "ASSIGNMENTS",
    "Assignment",
    "find_assignment",
    "infer_assignment",
    "defined_classes",
    "player_classes",
]

PACKS: dict[str, GamePack] = {pack.name: pack for pack in (TEEKO, CONNECT4, BOARD_ABC)}
ASSIGNMENTS: dict[str, Assignment] = {
    name: Assignment(pack, variant)
    for pack in PACKS.values()
    for name, variant in pack.variants.items()
}
_CLASS = re.compile(rb"^\s*class\s+(\w+)", re.MULTILINE)


def find_assignment(name: str) -> Assignment:
    """The assignment called ``name`` (any case, or one of its aliases).

    :raises UnknownAssignmentError: listing the known names.
    """
    wanted = name.strip().casefold()
    for assignment in ASSIGNMENTS.values():
        names = (assignment.name, *assignment.variant.aliases)
        if wanted in (n.casefold() for n in names):
            return assignment
    for pack in PACKS.values():
        variant = pack.parse_variant(wanted)
        if variant is not None:
            return Assignment(pack, variant)
    known = ", ".join(ASSIGNMENTS)
    raise UnknownAssignmentError(f"unknown assignment {name!r}: choose one of {known}")


def defined_classes(source: bytes) -> list[str]:
    """The names of the classes ``source`` defines at any indentation, read without running it."""
    return [m.decode("ascii", "replace") for m in _CLASS.findall(source)]


def infer_assignment(source: bytes, main: str | None = None) -> tuple[Assignment, str] | None:
    """The assignment (of those importing ``main``, when given) whose player class ``source``
    defines, with a sentence saying so; None when it defines none (several assignments share a
    class: the first one listed wins)."""
    for name in defined_classes(source):
        for assignment in ASSIGNMENTS.values():
            if assignment.player_class == name and main in (None, assignment.main_file):
                return assignment, f"assignment {assignment.name} inferred from class {name}"
    return None


def player_classes(main: str | None = None) -> list[str]:
    """Every class name an assignment (importing ``main``, when given) asks for, once each."""
    return list(
        dict.fromkeys(a.player_class for a in ASSIGNMENTS.values() if main in (None, a.main_file))
    )
