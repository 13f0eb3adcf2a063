"""The game the oracle solves, as plain data: board size, markers per side and goal masks.

A :class:`Game` is what a rule variant means to the solver. The kit's variants give 5x5 games
with 4 markers a side (:func:`game_for`); tests build smaller boards from shapes with
:func:`slide_goals`, so the whole solver runs in a unit test. Pure Python: no numpy here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from autograder.games.teeko.variants import Variant

__all__ = ["Game", "game_for", "slide_goals"]

Shape = tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]

# Squares are kept in int64 numpy arrays and shifted as such; 30 leaves room for a sentinel bit.
_MAX_SQUARES = 30


@dataclass(frozen=True)
class Game:
    """A Teeko-like game on a ``size`` x ``size`` board, ``markers`` per side.

    Squares are numbered row-major from 0; a goal is ``(squares, empty)``, two masks: the side
    holding every square of ``squares`` wins provided no marker stands on ``empty`` (0 when the
    goal has no such condition). Black moves first; moves slide to one of the 8 neighbours.

    :raises ValueError: when the board is too large for the solver's masks or too full to move.
    """

    name: str
    size: int
    markers: int
    goals: tuple[tuple[int, int], ...]
    neighbours: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        squares = self.size * self.size
        if self.size < 2 or squares > _MAX_SQUARES:
            raise ValueError(f"board size {self.size!r} is outside 2..5 for the oracle")
        if self.markers < 1 or 2 * self.markers >= squares:
            raise ValueError(
                f"{self.markers!r} markers a side leave no empty square on a "
                f"{self.size}x{self.size} board"
            )
        full = (1 << squares) - 1
        for squares_mask, empty in self.goals:
            if not squares_mask or squares_mask & ~full or empty & ~full or squares_mask & empty:
                raise ValueError(
                    f"goal {(squares_mask, empty)!r} of {self.name!r} does not fit the board"
                )
        object.__setattr__(self, "neighbours", tuple(self._neighbours(sq) for sq in range(squares)))

    @property
    def squares(self) -> int:
        return self.size * self.size

    def _neighbours(self, sq: int) -> int:
        row, col = divmod(sq, self.size)
        mask = 0
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                r, c = row + dr, col + dc
                if (dr or dc) and 0 <= r < self.size and 0 <= c < self.size:
                    mask |= 1 << (r * self.size + c)
        return mask

    def has_goal(self, own: int, occupied: int) -> bool:
        return any(own & s == s and not occupied & e for s, e in self.goals)

    def definition(self) -> dict[str, Any]:
        """The JSON-ready definition stored in a cache header; equal definitions, equal tables."""
        return {
            "name": self.name,
            "size": self.size,
            "markers": self.markers,
            "goals": sorted([s, e] for s, e in self.goals),
        }


def game_for(variant: Variant) -> Game:
    """The 5x5, 4-marker game played under ``variant``'s goals."""
    return Game(variant.name, 5, 4, tuple(variant.masks))


def slide_goals(size: int, shapes: Iterable[Shape]) -> tuple[tuple[int, int], ...]:
    """Every placement on a ``size`` board of each shape: (row, col) offsets and an optional
    must-be-empty offset, as in :mod:`autograder.games.teeko.variants`."""
    goals = []
    for offsets, centre in shapes:
        cells = [*offsets, *([centre] if centre else [])]
        height = max(r for r, _ in cells) + 1
        width = max(c for _, c in cells) + 1
        for top in range(size - height + 1):
            for left in range(size - width + 1):
                mask = sum(1 << ((top + r) * size + left + c) for r, c in offsets)
                empty = 0 if centre is None else 1 << ((top + centre[0]) * size + left + centre[1])
                goals.append((mask, empty))
    return tuple(goals)
