"""Rule variants as data: each is a list of goal patterns, some with a square that must be empty.

A new variant is one entry in ``_DEFINITIONS``: a name, the player class name the course's
``game.py`` uses for it, aliases, and goal shapes given as (row, col) offsets plus an optional
must-be-empty offset; each shape is slid over every place on the board where it fits.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Goal", "Variant", "VARIANTS", "UnknownVariantError", "find_variant"]

SIZE = 5

Shape = tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]

_LINES: tuple[Shape, ...] = (
    (((0, 0), (0, 1), (0, 2), (0, 3)), None),  # horizontal
    (((0, 0), (1, 0), (2, 0), (3, 0)), None),  # vertical
    (((0, 0), (1, 1), (2, 2), (3, 3)), None),  # diagonal, down to the right
    (((0, 3), (1, 2), (2, 1), (3, 0)), None),  # diagonal, down to the left
)
_BOX: Shape = (((0, 0), (0, 1), (1, 0), (1, 1)), None)
_CORNERS: Shape = (((0, 0), (0, 2), (2, 0), (2, 2)), (1, 1))
_DIAMOND: Shape = (((0, 1), (1, 0), (1, 2), (2, 1)), (1, 1))


@dataclass(frozen=True, slots=True)
class Goal:
    """Four squares (a 25-bit mask) that win for the side holding all of them if ``empty`` is."""

    squares: int
    empty: int = 0  # mask of the square that must be empty; 0 when there is none

    def holds(self, own: int, occupied: int) -> bool:
        return own & self.squares == self.squares and not occupied & self.empty


@dataclass(frozen=True, slots=True)
class Variant:
    """A rule set: its name, the course's player class name and its goals."""

    name: str
    player_class: str
    goals: tuple[Goal, ...]
    aliases: tuple[str, ...] = ()
    description: str = ""
    # (squares, empty) pairs: the hot loop of goal detection reads plain ints, not dataclasses.
    masks: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    # squares -> the empty masks of the goals on exactly those squares, when every goal is four
    # squares (then a side's four markers hold a goal only by being its squares); else None
    by_squares: dict[int, tuple[int, ...]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "masks", tuple((g.squares, g.empty) for g in self.goals))
        index: dict[int, tuple[int, ...]] = {}
        for squares, empty in self.masks:
            index[squares] = (*index.get(squares, ()), empty)
        four = all(squares.bit_count() == 4 for squares, _ in self.masks)
        object.__setattr__(self, "by_squares", index if four else None)

    def __repr__(self) -> str:
        return f"find_variant({self.name!r})"


def _slide(shape: Shape) -> list[Goal]:
    offsets, centre = shape
    height = max(r for r, _ in offsets) + 1
    width = max(c for _, c in offsets) + 1
    goals = []
    for top in range(SIZE - height + 1):
        for left in range(SIZE - width + 1):
            mask = sum(1 << ((top + r) * SIZE + left + c) for r, c in offsets)
            empty = 0 if centre is None else 1 << ((top + centre[0]) * SIZE + left + centre[1])
            goals.append(Goal(mask, empty))
    return goals


def _variant(
    name: str, player_class: str, shapes: tuple[Shape, ...], aliases: tuple[str, ...], doc: str
) -> Variant:
    goals = tuple(goal for shape in shapes for goal in _slide(shape))
    return Variant(name, player_class, goals, aliases, doc)


_DEFINITIONS = (
    _variant(
        "teeko",
        "TeekoPlayer",
        (*_LINES, _BOX),
        ("teeko1",),
        "four in a row in any direction, or a 2x2 box",
    ),
    _variant(
        "teeko2",
        "Teeko2Player",
        (*_LINES, _CORNERS),
        ("teeko-2",),
        "four in a row in any direction, or the corners of a 3x3 square with an empty centre",
    ),
    _variant(
        "teeko2-diamond",
        "Teeko2Player",
        (*_LINES, _DIAMOND),
        ("diamond", "teeko2_diamond"),
        "four in a row in any direction, or the four squares around an empty centre",
    ),
)

VARIANTS: dict[str, Variant] = {variant.name: variant for variant in _DEFINITIONS}


class UnknownVariantError(ValueError):
    """The name matches no variant; the message lists the known ones."""


def find_variant(name: str) -> Variant:
    """Return the variant called ``name`` (case-insensitive, aliases accepted).

    :raises UnknownVariantError: naming the known variants.
    """
    wanted = name.strip().lower()
    for variant in _DEFINITIONS:
        if wanted == variant.name or wanted in variant.aliases:
            return variant
    known = ", ".join(VARIANTS)
    raise UnknownVariantError(f"unknown variant {name!r}: choose one of {known}")
