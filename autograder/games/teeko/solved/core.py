"""Build and load a variant's table; ask it for the value of a position and of each move.

>>> oracle = load("teeko")                                          # doctest: +SKIP
>>> oracle.value(start(find_variant("teeko")))                      # doctest: +SKIP
Verdict(value='draw', plies=None)

Lookups are pure Python over the loaded bytes (numpy is only needed to build): a position is
turned by a board symmetry into the one the folded table stores (``symmetry.py``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

from autograder.games.perfect import OracleError
from autograder.games.teeko.rules import BLACK, Move
from autograder.games.teeko.solved.cache import cache_path, read_table, write_table
from autograder.games.teeko.solved.codes import Verdict, parent_code, verdict
from autograder.games.teeko.solved.game import Game, game_for
from autograder.games.teeko.solved.layout import Layout
from autograder.games.teeko.solved.symmetry import Folding
from autograder.games.teeko.variants import UnknownVariantError, Variant, find_variant

__all__ = ["Oracle", "load", "build", "resolve_game", "preference"]


class _Position(Protocol):
    """What the oracle reads from a position: the engine's ``Position`` has it."""

    @property
    def black(self) -> int: ...
    @property
    def red(self) -> int: ...
    @property
    def turn(self) -> str: ...


def resolve_game(variant: Variant | Game | str) -> Game:
    """The game of a variant, a variant name or a game.

    :raises OracleError: naming the known variants when the name is unknown.
    """
    if isinstance(variant, Game):
        return variant
    if isinstance(variant, str):
        try:
            variant = find_variant(variant)
        except UnknownVariantError as err:
            raise OracleError(str(err)) from None
    return game_for(variant)


def preference(code: int) -> int:
    """A key that sorts codes from worst to best for the side to move: a quick loss, a slow
    loss, a draw, a slow win, a quick win."""
    if code > 0:
        return 256 - code
    if code < 0:
        return -256 - code
    return 0


class Oracle:
    """The solved table of one game: values of positions and of moves, with best play."""

    def __init__(
        self, folding: Folding, codes: bytes, header: dict[str, Any] | None = None
    ) -> None:
        self.folding = folding
        self.layout: Layout = folding.layout
        self.game: Game = self.layout.game
        if len(codes) != folding.total:
            raise ValueError(f"{len(codes)} codes for a folded table of {folding.total}")
        self.header = header or {}
        self.stats: dict[str, Any] = self.header.get("stats", {})
        self._codes = memoryview(codes).cast("b")
        # Local copies for the hot path of code(): attribute lookups cost a third of it.
        self._rank = self.layout.rank
        self._sides = self.layout.sides
        self._stride = self.layout.stride
        self._offsets = folding.offsets
        # Per placement of the other side: its slot and where the mover's squares go (15,276
        # placements on 5x5, 0.03-0.07 s; made lazily, they cost a cold lookup 2x).
        self._frames = {other: folding.relative(other) for other in folding.frame}

    @property
    def name(self) -> str:
        """The variant it solves."""
        return self.game.name

    @property
    def table(self) -> memoryview:
        """Every stored code, one signed byte per position of the folded table, in
        :class:`~autograder.games.teeko.solved.symmetry.Folding` order (read-only)."""
        return self._codes

    def code(self, black: int, red: int, turn: str) -> int:
        """The table byte of a position given as masks (see
        :mod:`autograder.games.teeko.solved.codes`).

        :raises OracleError: when the marker counts are not those of a position of the game.
        """
        mover, other = (black, red) if turn == BLACK else (red, black)
        try:
            return self._code(mover, other)
        except IndexError:
            raise OracleError(
                f"the oracle has no position with {black.bit_count()} black and "
                f"{red.bit_count()} red markers and {turn!r} to move"
            ) from None

    def _code(self, mover: int, other: int) -> int:
        k = (mover | other).bit_count()
        a, b = self._sides[k]
        if mover.bit_count() != a or other.bit_count() != b or mover & other:
            raise IndexError(k)
        slot, turned = self._frames[other]
        rel = 0
        bits = mover
        while bits:
            low = bits & -bits
            rel |= turned[low.bit_length() - 1]
            bits ^= low
        return self._codes[self._offsets[k] + slot * self._stride[k] + self._rank[rel]]

    def value(self, position: _Position) -> Verdict:
        """Win, draw or loss for the side to move, and the plies to the end with best play.

        A finished game (a side holds a goal) is worth ``Verdict('win' or 'loss', 0)``.

        :raises OracleError: when the marker counts are not those of a position of the game, or
            the position is the engine's for another variant.
        """
        self._check_variant(position)
        return verdict(self.code(position.black, position.red, position.turn))

    def _check_variant(self, position: _Position) -> None:
        variant = getattr(position, "variant", None)
        if variant is not None and variant.name != self.game.name:
            raise OracleError(
                f"a position of {variant.name!r} was given to the oracle of {self.game.name!r}"
            )

    def move_values(self, position: _Position) -> list[tuple[Move, Verdict]]:
        """Every legal move, in the engine's order, with its value for the side making it.

        A finished game has no moves to rate: the list is empty, as it is for a side with no
        legal move.
        """
        self._check_variant(position)
        black, red, turn = position.black, position.red, position.turn
        own, theirs = (black, red) if turn == BLACK else (red, black)
        occupied = own | theirs
        game = self.game
        if game.has_goal(own, occupied) or game.has_goal(theirs, occupied):
            return []
        empty = ~occupied & ((1 << game.squares) - 1)
        moves: list[tuple[Move, int]] = []
        if own.bit_count() < game.markers:
            for to in _squares(empty):
                moves.append((Move(to), own | 1 << to))
        else:
            for source in _squares(own):
                for to in _squares(game.neighbours[source] & empty):
                    moves.append((Move(to, source), own & ~(1 << source) | 1 << to))
        return [(move, verdict(parent_code(self._code(theirs, after)))) for move, after in moves]

    def best_moves(self, position: _Position) -> list[Move]:
        """The moves that keep the value of ``position`` (quickest win, slowest loss), in the
        engine's order; empty when the game is over."""
        rated = [(move, _code_of(v)) for move, v in self.move_values(position)]
        if not rated:
            return []
        top = max(preference(code) for _, code in rated)
        return [move for move, code in rated if preference(code) == top]


def _code_of(v: Verdict) -> int:
    if v.plies is None:
        return 0
    return v.plies + 1 if v.value == "win" else -(v.plies + 1)


def _squares(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def load(variant: Variant | Game | str, path: Path | None = None) -> Oracle:
    """The oracle of ``variant`` from its cache file (default: :func:`cache_path`).

    :raises OracleError: when the file is missing, damaged or built for other rules.
    """
    game = resolve_game(variant)
    folding = Folding(Layout(game))
    codes, header = read_table(path or cache_path(game.name), folding)
    return Oracle(folding, codes, header)


def build(variant: Variant | Game | str, path: Path | None = None) -> Iterator[Any]:
    """Solve ``variant`` and save its table, yielding
    :class:`~autograder.games.teeko.solved.solver.Progress` reports.

    Nothing is saved unless the generator runs to its end; closing it early stops the build.
    Needs numpy (the ``oracle`` extra).

    :raises OracleError: when numpy is missing or the table cannot be written.
    """
    game = resolve_game(variant)
    try:
        from autograder.games.teeko.solved.solver import Progress, Solver, fraction
    except ImportError as err:
        raise OracleError(
            f"building the oracle needs numpy ({err}); install the kit with its oracle extra: "
            "pip install 'teeko-autograder[oracle]'"
        ) from None
    target = path or cache_path(game.name)
    solver = Solver(game)
    last = None
    for report in solver.run():
        last = report
        yield report
    assert last is not None
    folding = solver.folding
    total = folding.total
    with contextlib.closing(write_table(target, folding, solver.table.data, solver.stats)) as w:
        for written in w:
            share = written / total
            yield Progress("write", written, total, str(target), fraction("write", share))
    yield replace(
        last, stage="done", done=1, total=1, detail=str(target), fraction=1.0, stats=solver.stats
    )
