"""Connect Four solved exactly by search: positions near the end, and whole small boards.

Teeko's oracle reads a table built once; a Connect Four board is far too big for that, so
:class:`Solver` searches instead, with the same interface and the same answers
(:class:`~autograder.games.perfect.Perfect`): ``value``, ``move_values`` and ``best_moves``,
each a :class:`~autograder.games.perfect.Verdict` for the side to move (or making the move),
with the plies to the end of the game when the winner hurries and the loser delays.

It is meant for small work: a standard board with 24 empty cells or fewer, or a whole 4x4 or
5x4 board (``docs/connect4-solver.md`` has the figures). A search that needs more than
``node_limit`` nodes stops with :class:`~autograder.games.perfect.OracleError` instead of running
for minutes; :meth:`Solver.solvable` guesses beforehand whether it would.

How: negamax with alpha-beta on the engine's bitboards (one ``rows + 1`` bit column each,
see :mod:`autograder.games.connect4.rules`), a transposition table of score bounds, the root
narrowed by null-window searches, immediate wins and forced blocks settled without a search,
moves that hand the opponent a win never tried, and the rest ordered by the threats they make,
centre first. A score says when the game ends, so the plies of a verdict are exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from autograder.games import pack
from autograder.games.connect4.rules import (
    Position,
    Variant,
    legal_moves,
    opponent,
    play,
    random_position,
    winning_moves,
)
from autograder.games.connect4.rules import result as game_result
from autograder.games.connect4.variants import find_variant
from autograder.games.perfect import DRAW, LOSS, WIN, Exact, OracleError, Verdict

__all__ = [
    "NODE_LIMIT",
    "REACH",
    "TACTICS_NODES",
    "Solver",
    "positions_with_empty",
    "tactics_exact",
]

# Nodes one call may search before it gives up: about 5 s of pure Python (some 100,000
# nodes a second on 7x6, see docs/connect4-solver.md).
NODE_LIMIT = 500_000
# Empty cells of a position that a call solves within about 5 s: every quiet 7x6 position
# bench/connect4_solver.py tried with 24 did (random ones reach 28; some quiet ones with 28 need
# more than the default limit). Boards of at most SMALL_BOARD cells are solvable whole.
REACH = 24
SMALL_BOARD = 20
# Moves are ordered by the threats they make while more than this many cells are empty;
# nearer the end the centre-first order alone is cheaper (fewer nodes per second lost than
# nodes saved, measured on 24- and 26-empty positions).
_ORDER_FROM = 5
# Table entries kept from call to call: about 120 bytes each. A call starting with more
# empties the table first (one call adds at most one entry per node searched).
TABLE_LIMIT = 1_000_000

_OFFSET = 128  # a stored bound is shifted into 0..255 (|score| <= cells + 1 <= 101)


class _OutOfNodes(Exception):
    """The search spent its node budget (turned into OracleError by the public calls)."""


def _winning_cells(variant: Variant) -> Callable[[int, int], int]:
    """A function of (discs, occupied) giving the empty cells that would complete a line of
    ``discs``: the heart of the search's threat tests, so the usual four-in-a-line is
    unrolled."""
    free_cells = variant.full
    shifts = variant.shifts
    connect = variant.connect
    if connect == 4:
        h, up, down = shifts[1], shifts[2], shifts[3]
        h2, h3, up2, up3, down2, down3 = 2 * h, 3 * h, 2 * up, 3 * up, 2 * down, 3 * down

        def four(p: int, occupied: int) -> int:
            r = (p << 1) & (p << 2) & (p << 3)  # a column: only three below can matter
            # Along each other line: two on one side and the third beyond them or just past
            # the cell on the other side.
            before, after = p << h, p >> h
            r |= before & (p << h2) & ((p << h3) | after) | after & (p >> h2) & (before | (p >> h3))
            before, after = p << up, p >> up
            r |= before & (p << up2) & ((p << up3) | after) | after & (p >> up2) & (
                before | (p >> up3)
            )
            before, after = p << down, p >> down
            r |= before & (p << down2) & ((p << down3) | after) | after & (p >> down2) & (
                before | (p >> down3)
            )
            return r & (free_cells ^ occupied)

        return four

    def any_length(p: int, occupied: int) -> int:
        r = 0
        for s in shifts:
            # before[i]: i discs on one side of the cell; after[i]: i on the other.
            before, after = [-1], [-1]
            for i in range(1, connect):
                before.append(before[-1] & (p << i * s))
                after.append(after[-1] & (p >> i * s))
            for i in range(connect):
                r |= before[i] & after[connect - 1 - i]
        return r & (free_cells ^ occupied)

    return any_length


class Solver:
    """Exact values of Connect Four positions on ``variant``, found by search on demand.

    The transposition table is kept between calls, so asking about related positions (a
    position, then its moves) costs little more than asking about one. Not thread-safe.
    """

    def __init__(
        self,
        variant: Variant | str,
        node_limit: int = NODE_LIMIT,
        table_limit: int = TABLE_LIMIT,
    ) -> None:
        if isinstance(variant, str):
            try:
                variant = find_variant(variant)
            except pack.UnknownAssignmentError as err:
                raise OracleError(str(err)) from None
        self.variant = variant
        self.node_limit = node_limit
        self.table_limit = table_limit
        self.nodes = 0  # nodes searched by the last call
        self._cells = variant.columns * variant.rows
        self._top = self._cells + 1  # a game ending at ply k scores top - k for its winner
        middle = variant.columns - 1
        self._order = sorted(range(variant.columns), key=lambda c: (abs(2 * c - middle), c))
        self._winning = _winning_cells(variant)
        self._table: dict[int, int] = {}
        self._budget = [0]
        self._search = self._make_search()

    # ---- the oracle's interface -----------------------------------------------------------

    def value(self, pos: Position) -> Verdict:
        """Win, draw or loss for the side to move, and the plies to the end with best play.

        A finished game is worth ``Verdict('loss', 0)`` to the side to move (the side that
        just moved made the line), ``Verdict('draw', None)`` when the board is full.

        :raises OracleError: when the position is of another board, or too big to solve
            within ``node_limit`` nodes.
        """
        self._check_variant(pos)
        self._start()
        try:
            return self._value(pos)
        except _OutOfNodes:
            raise self._too_big(pos) from None
        finally:
            self._finish()

    def move_values(self, pos: Position) -> list[tuple[int, Verdict]]:
        """Every legal column, left to right, with its value for the side dropping into it;
        empty when the game is over.

        :raises OracleError: as :meth:`value` (the node limit covers all the moves together).
        """
        self._check_variant(pos)
        if game_result(pos) is not None:
            return []
        self._start()
        try:
            return [(col, self._value(play(pos, col)).after_move()) for col in legal_moves(pos)]
        except _OutOfNodes:
            raise self._too_big(pos) from None
        finally:
            self._finish()

    def best_moves(self, pos: Position) -> list[int]:
        """The columns that keep the value of ``pos`` (quickest win, slowest loss, any draw),
        left to right; empty when the game is over.

        :raises OracleError: as :meth:`move_values`.
        """
        rated = [(col, _preference(v)) for col, v in self.move_values(pos)]
        if not rated:
            return []
        top = max(rank for _, rank in rated)
        return [col for col, rank in rated if rank == top]

    def solvable(self, pos: Position) -> bool:
        """A cheap guess whether :meth:`value` finishes within the default node limit: a game
        over, a small board, or few empty cells (see ``REACH``)."""
        empty = self._cells - pos.occupied.bit_count()
        return self._cells <= SMALL_BOARD or empty <= REACH or game_result(pos) is not None

    def clear(self) -> None:
        """Forget every stored result (to free memory; answers do not change)."""
        self._table.clear()

    # ---- the search -------------------------------------------------------------------------

    def _check_variant(self, pos: Position) -> None:
        if pos.variant.name != self.variant.name:
            raise OracleError(
                f"a position of {pos.variant.name!r} was given to the solver of "
                f"{self.variant.name!r}"
            )

    def _start(self) -> None:
        self._budget[0] = self.node_limit
        if len(self._table) > self.table_limit:
            self._table.clear()

    def _finish(self) -> None:
        self.nodes = self.node_limit - max(self._budget[0], 0)

    def _too_big(self, pos: Position) -> OracleError:
        empty = self._cells - pos.occupied.bit_count()
        return OracleError(
            f"this position of {self.variant.name!r} ({empty} empty cells) is too big to solve "
            f"exactly within {self.node_limit:,} nodes"
        )

    def _value(self, pos: Position) -> Verdict:
        ended = game_result(pos)
        if ended == pack.DRAW:
            return Verdict(DRAW, None)
        if ended is not None:
            return Verdict(WIN if ended == pos.turn else LOSS, 0)
        mask = pos.occupied
        n = mask.bit_count()
        return self._verdict(self._solve(pos.discs(pos.turn), mask, n), n)

    def _verdict(self, score: int, n: int) -> Verdict:
        """Read a score of a position with ``n`` discs (see :meth:`_make_search`)."""
        if score > 0:
            return Verdict(WIN, self._top - score - n)
        if score < 0:
            return Verdict(LOSS, self._top + score - n)
        return Verdict(DRAW, None)

    def _solve(self, cur: int, mask: int, n: int) -> int:
        """The exact score of a game in progress, ``cur`` the discs of the side to move.

        An immediate win is settled here (the search assumes there is none); the rest by
        null-window searches that halve the interval the score lies in, tried near a draw
        first: each is cheaper than one full-window search, and the table carries their bounds
        from one to the next.
        """
        top = self._top
        possible = (mask + self.variant.bottoms) & self.variant.full
        if self._winning(cur, mask) & possible:
            return top - n - 1
        low, high = min(n + 2 - top, 0), max(top - n - 3, 0)
        search = self._search
        while low < high:
            middle = low + (high - low) // 2
            if middle <= 0 and low // 2 < middle:
                middle = low // 2
            elif middle >= 0 and high // 2 > middle:
                middle = high // 2
            score = search(cur, mask, n, middle, middle + 1, -1)
            if score <= middle:
                high = score
            else:
                low = score
        return low

    def _make_search(self) -> Callable[[int, int, int, int, int, int], int]:
        """The negamax search, a closure over the board's constants (faster than attributes).

        ``search(cur, mask, n, alpha, beta, threats)``: ``cur`` the discs of the side to move,
        ``mask`` every disc, ``n`` their number, ``threats`` the empty cells where the opponent
        would complete a line (-1: work them out; the parent often has them already); the
        side to move cannot win at once and the game goes on.

        The score is for the side to move: ``top - k`` when it wins with the game ending after
        ply ``k`` (``k`` discs on the board), ``-(top - k)`` when it loses so, 0 for a draw.
        Fail-soft: a score at most ``alpha`` is an upper bound, at least ``beta`` a lower
        bound, in between exact. The table keeps both bounds of every position searched,
        keyed by ``cur + mask`` (unique thanks to the empty top bit of each column).
        """
        variant = self.variant
        full, bottoms = variant.full, variant.bottoms
        top, cells = self._top, self._cells
        columns = [variant.column_masks[c] for c in self._order]
        ranked = [(len(columns) - i, column) for i, column in enumerate(columns)]
        winning = self._winning
        table = self._table
        budget = self._budget
        order_from = _ORDER_FROM

        def search(cur: int, mask: int, n: int, alpha: int, beta: int, threats: int) -> int:
            budget[0] -= 1
            if budget[0] < 0:
                raise _OutOfNodes
            possible = (mask + bottoms) & full
            if threats < 0:
                threats = winning(cur ^ mask, mask)  # where the opponent would complete a line
            forced = possible & threats
            if forced:
                if forced & (forced - 1):  # two threats to block: the opponent wins next
                    return n + 2 - top
                possible = forced  # block it: any other move loses at once
            safe = possible & ~(threats >> 1)  # never drop just below an opponent's threat
            if not safe:
                return n + 2 - top
            if n + 2 >= cells:  # neither side can win in the plies left
                return 0
            # We cannot win with this move, nor the opponent with the next: no win or loss
            # comes before ply n + 3 or n + 4, which bounds the score.
            low = n + 4 - top
            if low >= beta:
                return low
            high = top - n - 3
            if high <= alpha:
                return high
            key = cur + mask
            entry = table.get(key)
            if entry is not None:
                low, high = _tightened(entry, low, high)
                if low >= beta or low == high:
                    return low
                if high <= alpha:
                    return high
            if alpha < low:
                alpha = low
            if beta > high:
                beta = high
            window_low = alpha
            if cells - n > order_from:  # near the end, ordering costs more than it saves
                moves = _ranked_moves(safe, cur, mask, ranked, winning)
            else:
                moves = [(0, safe & column, -1) for column in columns if safe & column]
            opponent = cur ^ mask
            best = -top
            for _, move, ours in moves:
                score = -search(opponent, mask | move, n + 1, -beta, -alpha, ours)
                if score > best:
                    best = score
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            break
            table[key] = _entry(best, window_low, beta, low, high)
            return best

        return search


def _tightened(entry: int, low: int, high: int) -> tuple[int, int]:
    """A position's bounds ``low`` and ``high`` narrowed by its table entry."""
    return max(low, (entry >> 8) - _OFFSET), min(high, (entry & 255) - _OFFSET)


def _entry(best: int, window_low: int, beta: int, low: int, high: int) -> int:
    """The table entry of a position searched in (``window_low``, ``beta``) whose score was
    ``best`` (fail-soft): its known bounds, narrowed by what the score proves."""
    if best <= window_low:
        high = best
    elif best >= beta:
        low = best
    else:
        low = high = best
    return ((low + _OFFSET) << 8) | (high + _OFFSET)


def _ranked_moves(
    safe: int,
    cur: int,
    mask: int,
    ranked: list[tuple[int, int]],
    winning: Callable[[int, int], int],
) -> list[tuple[int, int, int]]:
    """The safe moves, best first: (rank: threats made, then centre first; the move; our
    winning cells after it, which are the child's threats)."""
    moves = []
    for centre, column in ranked:
        move = safe & column
        if move:
            ours = winning(cur | move, mask | move)
            moves.append((ours.bit_count() * 16 + centre, move, ours))
    if len(moves) > 1:
        moves.sort(reverse=True)  # ranks differ: the moves are never compared
    return moves


def _preference(v: Verdict) -> int:
    """Sorts verdicts from worst to best for the side to move: a quick loss, a slow loss, a
    draw, a slow win, a quick win."""
    if v.plies is None:
        return 0
    return 1000 - v.plies if v.value == WIN else v.plies - 1000


def positions_with_empty(
    variant: Variant | str, seed: int, empty: int, count: int, quiet: bool = False
) -> list[Position]:
    """``count`` positions with exactly ``empty`` empty cells, from seeded random games.

    Each is a random game stopped when that many cells are left; a game that ended before
    (a line, or the board full) is skipped, so every position has a game left to play. Random
    play leaves threats everywhere, so most such positions are won at once; ``quiet`` keeps
    only those where neither side could complete a line with its next disc, which take a
    real search. The same arguments always give the same positions.

    :raises ValueError: when ``empty`` is not between 1 and the board's cells, or random
        games almost never give such a position (fewer than 1 in 100,000 do).
    """
    found = find_variant(variant) if isinstance(variant, str) else variant
    cells = found.columns * found.rows
    if not 1 <= empty <= cells:
        raise ValueError(f"{found.name} has {cells} cells: cannot leave {empty} empty")
    rng = random.Random(seed)
    positions: list[Position] = []
    tries = 0
    while len(positions) < count:
        tries += 1
        if tries > 100_000 * (len(positions) + 1):
            raise ValueError(
                f"random games on {found.name} rarely give a position with {empty} empty cells"
            )
        pos = random_position(found, rng, cells - empty)
        if pos is not None and not (quiet and _threatened(pos)):
            positions.append(pos)
    return positions


def _threatened(pos: Position) -> bool:
    """Whether either side could complete a line by dropping a disc now."""
    if winning_moves(pos):
        return True
    return bool(winning_moves(Position(pos.red, pos.yellow, opponent(pos.turn), pos.variant)))


# Nodes the solver may spend on one tactical position (all its moves together): about 2 s of
# pure Python; a position that needs more is not asked. Nodes, not seconds, so the probes of a
# seed are the same on a busy machine.
TACTICS_NODES = 200_000


def tactics_exact(variant: Variant) -> Exact:
    """Each legal move's exact outcome on a tactical position, for the referee to pick and
    judge its tactical probes by (the pack's ``exact``), or None out of reach.

    A fresh solver per call of this function, so a submission's probes do not depend on what
    was solved before.
    """
    solver = Solver(variant, node_limit=TACTICS_NODES)

    def exact(pos: Position) -> list[tuple[int, str]] | None:
        if not solver.solvable(pos):
            return None
        try:
            return [(column, verdict.value) for column, verdict in solver.move_values(pos)]
        except OracleError:
            return None

    return exact
