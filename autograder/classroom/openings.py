"""Fair openings for a tournament: short sequences of moves played before the players take
over, so two deterministic players meet in more than the two games of the start position.

An opening is fair when neither side is lost after it. Where the kit knows the exact value of
the position (Teeko's solved table after ``autograder oracle build``; Connect Four on boards
its solver reaches), the opening must keep the value the game has at its start (Teeko: a
draw). Elsewhere (Connect Four on 7x6, Othello, ...) it must leave neither side a win it can
force within a few plies, found by a search of every reply. Openings that are mirror images of
one another are the same game and are kept once. The same seed gives the same openings, and
every pair of players plays all of them, in both colours.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from autograder.errors import GraderError
from autograder.games.pack import Assignment, must_pass
from autograder.games.perfect import LOSS, WIN
from autograder.oracle.player import oracle_for, within_reach

__all__ = ["fair_openings", "forced_winner", "SEARCH_PLIES"]

SEARCH_PLIES = 4  # where no exact value is known: no win forced within this many plies
_NODES = 200_000  # nodes one search may visit; past it the opening is not judged fair
_TRIES = 400  # candidate openings looked at, at most, when there are too many to list


class _OutOfNodes(Exception):
    pass


def forced_winner(assignment: Assignment, pos: Any, plies: int) -> str | None:
    """The side that can force a win within ``plies`` plies from ``pos``, or None.

    :raises GraderError: when the search would visit more than its node budget."""
    pack = assignment.pack
    budget = [_NODES]

    def wins(pos: Any, side: str, depth: int) -> bool:
        """Whether ``side`` can force a win within ``depth`` plies."""
        budget[0] -= 1
        if budget[0] < 0:
            raise _OutOfNodes
        ended = pack.result(pos)
        if ended is not None:
            return ended == side
        if depth == 0:
            return False
        moves = [pack.pass_move] if must_pass(pack, pos) else list(pack.legal_moves(pos))
        replies = [pack.play(pos, move) for move in moves]
        if not replies:
            return False
        check = any if pack.turn(pos) == side else all
        return check(wins(after, side, depth - 1) for after in replies)

    try:
        for side in pack.sides:
            if wins(pos, side, plies):
                return side
    except _OutOfNodes:
        raise GraderError(f"more than {_NODES:,} positions to search") from None
    return None


def _exact(assignment: Assignment) -> Callable[[Any], str | None] | None:
    """The value of a position for the side to move first in the game ("win", "draw" or
    "loss"), or None where it cannot be had; None when the kit has no perfect play here."""
    try:
        oracle = oracle_for(assignment)
    except GraderError:
        return None
    first = assignment.pack.sides[0]

    def value(pos: Any) -> str | None:
        if not within_reach(oracle, pos):
            return None
        verdict = oracle.value(pos).value
        if assignment.pack.turn(pos) == first or verdict not in (WIN, LOSS):
            return str(verdict)
        return LOSS if verdict == WIN else WIN

    return value


def _shape(assignment: Assignment, pos: Any) -> str:
    """The position up to a mirror image (left to right), and whose turn it is."""
    rows = [[str(cell) for cell in row] for row in assignment.pack.cells(pos)]
    forward = "/".join(",".join(row) for row in rows)
    mirrored = "/".join(",".join(row[::-1]) for row in rows)
    return min(forward, mirrored) + assignment.pack.turn(pos)


def _candidates(assignment: Assignment, plies: int, rng: random.Random) -> list[tuple[Any, ...]]:
    """Every sequence of ``plies`` legal moves from the start, shuffled; where they are too
    many to list, as many random ones as will be looked at."""
    pack = assignment.pack
    start = pack.start(assignment.variant)
    every: list[tuple[Any, ...]] = [()]
    for _ in range(plies):
        grown = []
        for moves in every:
            pos = start
            for move in moves:
                pos = pack.play(pos, move)
            if pack.result(pos) is None:
                grown += [(*moves, move) for move in pack.legal_moves(pos)]
        every = grown
        if len(every) > _TRIES * 4:
            break
    if len(every) and len(every[0]) == plies:
        rng.shuffle(every)
        return every
    found = []
    for _ in range(_TRIES):
        pos, walk = start, []
        for _ in range(plies):
            legal = list(pack.legal_moves(pos))
            if not legal or pack.result(pos) is not None:
                break
            walk.append(rng.choice(legal))
            pos = pack.play(pos, walk[-1])
        if len(walk) == plies:
            found.append(tuple(walk))
    return found


def fair_openings(
    assignment: Assignment, count: int, plies: int, seed: int
) -> list[tuple[Any, ...]]:
    """``count`` openings for every pair to play, the first the game's own start (no move),
    the others ``plies`` moves long and fair (see the module's docstring); fewer when the
    game has fewer fair ones. Each is a tuple of the pack's moves."""
    pack = assignment.pack
    start = pack.start(assignment.variant)
    value = _exact(assignment)
    at_start = value(start) if value is not None else None
    chosen: list[tuple[Any, ...]] = [()]
    seen = {_shape(assignment, start)}
    rng = random.Random(f"openings:{assignment.name}:{seed}:{plies}")
    for moves in itertools.islice(_candidates(assignment, plies, rng), _TRIES):
        if len(chosen) >= count:
            break
        pos = start
        for move in moves:
            pos = pack.play(pos, move)
        shape = _shape(assignment, pos)
        if shape in seen or pack.result(pos) is not None:
            continue
        exact = value(pos) if value is not None else None
        if exact is not None and at_start is not None:
            fair = exact == at_start
        else:
            try:
                fair = forced_winner(assignment, pos, SEARCH_PLIES) is None
            except GraderError:
                fair = False
        if fair:
            seen.add(shape)
            chosen.append(moves)
    return chosen[:count]
