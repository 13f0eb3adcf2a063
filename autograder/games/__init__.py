"""The games the kit grades, one pack each (``pack.py`` is the seam), and their assignments.

This is the one list of assignments: the command line, intake and the Gradescope bundle all
look names up here.
"""

from __future__ import annotations

import re
from typing import Any

from autograder.games.boardabc import PACK as BOARD_ABC
from autograder.games.connect4 import PACK as CONNECT4
from autograder.games.kalah import PACK as KALAH
from autograder.games.othello import PACK as OTHELLO
from autograder.games.pack import (
    DEFAULT_INTERFACE,
    AnyPack,
    Assignment,
    Interface,
    UnknownAssignmentError,
)
from autograder.games.teeko import PACK as TEEKO

__all__ = [
    "PACKS",
    "ASSIGNMENTS",
    "Assignment",
    "find_assignment",
    "infer_assignment",
    "defined_classes",
    "player_classes",
    "looks_like",
]


def _plays(interface: Interface[Any, Any, Any], variant: object) -> bool:
    """Whether ``interface`` offers ``variant``: the Processing sketch plays the 7×6 board only."""
    return interface.variants is None or getattr(variant, "name", None) in interface.variants


PACKS: dict[str, AnyPack] = {
    pack.name: pack for pack in (TEEKO, CONNECT4, BOARD_ABC, OTHELLO, KALAH)
}
ASSIGNMENTS: dict[str, Assignment] = {
    a.name: a
    for pack in PACKS.values()
    for interface in (DEFAULT_INTERFACE, *pack.interfaces.values())
    for a in (Assignment(pack, variant, interface) for variant in pack.variants.values())
    if _plays(interface, a.variant)
}
_CLASS = re.compile(rb"^\s*class\s+(\w+)", re.MULTILINE)


def find_assignment(name: str) -> Assignment:
    """The assignment called ``name`` (any case, or one of its aliases).

    :raises UnknownAssignmentError: listing the known names.
    """
    wanted = name.strip().casefold()
    for assignment in ASSIGNMENTS.values():
        if wanted in (n.casefold() for n in _names(assignment)):
            return assignment
    for pack in PACKS.values():
        for interface in (DEFAULT_INTERFACE, *pack.interfaces.values()):
            for prefix in _prefixes(pack, interface):
                if not wanted.startswith(prefix):
                    continue
                # connect4-notebook-9x7 is the notebook on the board connect4-9x7
                sized = pack.name + wanted[len(prefix) :] if prefix else wanted
                variant = pack.parse_variant(sized)
                if variant is not None and _plays(interface, variant):
                    return Assignment(pack, variant, interface)
    known = ", ".join(ASSIGNMENTS)
    raise UnknownAssignmentError(f"unknown assignment {name!r}: choose one of {known}")


def _prefixes(pack: AnyPack, interface: Interface[Any, Any, Any]) -> tuple[str, ...]:
    """What an interface's assignment names begin with: ``connect4-notebook`` and aliases."""
    if not interface.name:
        return ("",)
    return (f"{pack.name}-{interface.name}".casefold(), *(a.casefold() for a in interface.aliases))


def _names(assignment: Assignment) -> tuple[str, ...]:
    """An assignment's name and aliases; an interface's aliases stand for its prefix."""
    interface, variant = assignment.interface, assignment.variant
    if not interface.name:
        return (assignment.name, *variant.aliases)
    tail = assignment.name[len(f"{assignment.game.name}-{interface.name}") :]
    return (assignment.name, *(alias + tail for alias in interface.aliases))


def defined_classes(source: bytes) -> list[str]:
    """The names of the classes ``source`` defines at any indentation, read without running it."""
    return [m.decode("ascii", "replace") for m in _CLASS.findall(source)]


def infer_assignment(source: bytes, main: str | None = None) -> tuple[Assignment, str] | None:
    """The assignment (of those importing ``main``, when given) whose player class ``source``
    defines, with a sentence saying so; None when it defines none (several assignments share a
    class: the first one listed wins)."""
    found = looks_like(defined_classes(source), main)
    if found is None:
        return None
    named = " and ".join(found.classes)
    plural = "es" if len(found.classes) > 1 else ""
    return found, f"assignment {found.name} inferred from class{plural} {named}"


def looks_like(classes: list[str], main: str | None = None) -> Assignment | None:
    """The first assignment (of those importing ``main``, when given) all of whose classes are
    among ``classes``, or None. The pack's own interfaces come first, so a submission that
    defines ``Connect4Player`` is the kit's Connect Four homework whatever else it defines."""
    have = set(classes)
    for assignment in ASSIGNMENTS.values():
        if main in (None, assignment.main_file) and have.issuperset(assignment.classes):
            return assignment
    return None


def player_classes(main: str | None = None) -> list[str]:
    """Every class name an assignment (importing ``main``, when given) asks for, once each;
    an interface asking for several names them together (``Agent and Connect4State``)."""
    return list(
        dict.fromkeys(
            " and ".join(a.classes) for a in ASSIGNMENTS.values() if main in (None, a.main_file)
        )
    )
