"""A Teeko2 player: iterative-deepening alpha-beta over 25-bit masks, and a terminal game.

Teeko2 is played on a 5x5 board by black and red, four markers each; black moves first. A side
with fewer than four markers on the board drops one on any empty square; once all four are
down it slides one of them to an adjacent empty square (diagonals count). The first side to
hold four in a row (any direction), or the four corners of a 3x3 square whose centre is empty,
wins. A move that leaves both sides with a goal (by vacating a centre) wins for the mover.

Run ``python game.py`` to play against the AI. Standard library only.
"""

from __future__ import annotations

import random
import time

__all__ = ["Teeko2Player", "main"]

# ==== constants ================================================================================

TIME_BUDGET = 1.0  # seconds of search per move; half of it spent means no new iteration starts
MAX_PLIES = 200  # the terminal game is a draw after this many plies in total, as when graded
SIZE = 5
MARKERS = 4  # per side
SQUARES = range(SIZE * SIZE)
COLUMNS = "ABCDE"

# ==== rules ====================================================================================
# Squares are 0-24, row-major from the top left; a set of squares is a 25-bit int. A goal is a
# pair (squares, centre): the four squares to hold and a square that must be empty (0: none).

Shape = tuple[tuple[tuple[int, int], ...], tuple[int, int] | None]  # (offsets, empty centre)
LINES: list[Shape] = [
    (((0, 0), (0, 1), (0, 2), (0, 3)), None),
    (((0, 0), (1, 0), (2, 0), (3, 0)), None),
    (((0, 0), (1, 1), (2, 2), (3, 3)), None),
    (((0, 3), (1, 2), (2, 1), (3, 0)), None),
]


def _placements(shapes: list[Shape]) -> list[tuple[int, int]]:
    """Every goal obtained by sliding each shape of (row, col) offsets over the board."""
    goals = []
    for offsets, centre in shapes:
        height = max(r for r, _ in offsets) + 1
        width = max(c for _, c in offsets) + 1
        for top in range(SIZE - height + 1):
            for left in range(SIZE - width + 1):
                squares = sum(1 << (top + r) * SIZE + left + c for r, c in offsets)
                empty = 0 if centre is None else 1 << (top + centre[0]) * SIZE + left + centre[1]
                goals.append((squares, empty))
    return goals


# ---- the variant: Teeko2's goals and book; all that differs from solution/teeko/game.py ----


def _variant_goals() -> list[tuple[int, int]]:
    """Four in a row in any direction, or the corners of a 3x3 square whose centre (1, 1) is
    empty; so a move can also complete the opponent's goal by vacating its centre."""
    corners = (((0, 0), (0, 2), (2, 0), (2, 2)), (1, 1))
    return _placements([*LINES, corners])


# Where the search's own choice loses too slowly for it to see, found by playing this file
# against the solved game: "my squares|their squares" (like B3, in board order) -> my drop.
OPENING_BOOK: dict[str, str] = {
    "C2 C4|A1 B2": "C1",  # B3, the search's choice at 1 s, loses in 10 plies
}


# ---- end of the variant ----------------------------------------------------------------------


def _adjacent(sq: int) -> list[int]:
    row, col = divmod(sq, SIZE)
    return [
        r * SIZE + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if 0 <= r < SIZE and 0 <= c < SIZE and (r, c) != (row, col)
    ]


GOALS = _variant_goals()
ADJACENT = [_adjacent(sq) for sq in SQUARES]
NEIGHBOURS = [sum(1 << n for n in ADJACENT[sq]) for sq in SQUARES]
GOALS_AT = [[g for g in GOALS if g[0] >> sq & 1] for sq in SQUARES]  # goals using a square
CENTRED_AT = [[g for g in GOALS if g[1] >> sq & 1] for sq in SQUARES]  # goals it must leave empty

# A move is an int: the target square, plus (source + 1) << 5 for a slide; a drop is < 32.


def _moves(me: int, opp: int) -> list[int]:
    """Every legal move of the side holding ``me``: drops while it has fewer than 4 markers."""
    occupied = me | opp
    if me.bit_count() < MARKERS:
        return [to for to in SQUARES if not occupied >> to & 1]
    return [
        to | (src + 1) << 5
        for src in SQUARES
        if me >> src & 1
        for to in ADJACENT[src]
        if not occupied >> to & 1
    ]


def _play(me: int, move: int) -> int:
    """The mover's markers after ``move``."""
    src = (move >> 5) - 1
    return me | 1 << (move & 31) if src < 0 else me ^ (1 << src | 1 << (move & 31))


def _has_goal(own: int, occupied: int) -> bool:
    return any(own & s == s and not occupied & c for s, c in GOALS)


def _result(mover: int, other: int, move: int) -> int:
    """1 if ``move`` (already played into ``mover``) wins, -1 if it hands ``other`` a goal by
    vacating a centre, else 0.

    Only goals holding the target can be new for the mover: four markers cannot cover a centre
    and its corners at once, so vacating a centre only ever helps the other side.
    """
    occupied = mover | other
    for s, c in GOALS_AT[move & 31]:
        if mover & s == s and not occupied & c:
            return 1  # checked first: when both sides hold a goal, the mover wins
    src = (move >> 5) - 1
    return -1 if src >= 0 and any(other & s == s for s, _ in CENTRED_AT[src]) else 0


# ==== evaluation ===============================================================================

MATE = 100_000  # a win found n plies from the root scores MATE - n; heuristics stay far below
MATE_BOUND = MATE - 1_000
WEIGHT = (0, 1, 6, 30, 30)  # an open goal (no enemy marker in it) holding 0-4 of a side's markers
DOUBLE_THREAT = 400  # the side not to move can complete two different goals next turn


def _finishes(own: int, occupied: int, goal: tuple[int, int], drop: bool) -> int:
    """The square (as a mask) on which ``own`` completes ``goal`` in one move, or 0.

    Called for a goal holding three or four of ``own``'s markers and none of the other side's.
    """
    squares, centre = goal
    missing = squares & ~own
    if not missing:  # all four held, so the centre is the other side's: only it can leave
        return 0
    if drop:
        return 0 if occupied & centre else missing
    sources = NEIGHBOURS[missing.bit_length() - 1] & own & ~squares
    if occupied & centre:  # only the marker on the centre can both fill the gap and vacate it
        sources &= centre
    return missing if sources else 0


def _evaluate(me: int, opp: int, ply: int) -> int:
    """A score for the side to move (holding ``me``): exact when it can win at once, else open
    goals weighted by how full they are, and a penalty when the other side has two threats."""
    occupied = me | opp
    my_drop, opp_drop = me.bit_count() < MARKERS, opp.bit_count() < MARKERS
    score = 0
    threats = 0
    for goal in GOALS:
        s = goal[0]
        mine, theirs = me & s, opp & s
        if theirs:
            if not mine:
                n = theirs.bit_count()
                score -= WEIGHT[n]
                if n >= 3:
                    threats |= _finishes(opp, occupied, goal, opp_drop)
        elif mine:
            n = mine.bit_count()
            if n >= 3 and _finishes(me, occupied, goal, my_drop):
                return MATE - ply - 1
            score += WEIGHT[n]
    if threats & (threats - 1):
        score -= DOUBLE_THREAT
    return score


# ==== search ===================================================================================

EXACT, LOWER, UPPER = 0, 1, 2  # what a table score is: the value, a lower or an upper bound
MAX_DEPTH = 64
TABLE_LIMIT = 200_000  # entries kept between moves; the table is cleared beyond this


class _OutOfTime(Exception):
    pass


def _to_table(score: int, ply: int) -> int:
    """A score as stored: a win or loss counted in plies from the position, not the root."""
    return score + ply if score > MATE_BOUND else score - ply if score < -MATE_BOUND else score


def _from_table(score: int, ply: int) -> int:
    return score - ply if score > MATE_BOUND else score + ply if score < -MATE_BOUND else score


class _Searcher:
    """Negamax with alpha-beta, a transposition table, killer and history move ordering.

    Scores are from the side to move. A position already on the search path, or seen earlier in
    this game (``seen``), scores 0: repeating cannot be worth more than the draw at the ply cap,
    so the side that is ahead looks for new positions.
    """

    def __init__(self) -> None:
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * 1024
        self.killers = [[-1, -1] for _ in range(MAX_DEPTH + 2)]
        self.seen: set[int] = set()
        self.path: set[int] = set()
        self.deadline = 0.0
        self.nodes = 0
        self.root_move = -1

    def choose(self, me: int, opp: int, budget: float) -> tuple[int, int]:
        """The best move found in ``budget`` seconds, and the deepest completed depth."""
        start = time.perf_counter()
        self.deadline = start + budget
        self.root_move = _moves(me, opp)[0]
        self.history = [h >> 2 for h in self.history]
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        completed = 0
        for depth in range(1, MAX_DEPTH + 1):
            try:
                score = self.negamax(me, opp, depth, -MATE, MATE, 0)
            except _OutOfTime:
                break
            completed = depth
            if abs(score) > MATE_BOUND or time.perf_counter() - start > budget / 2:
                break
        return self.root_move, completed

    def negamax(self, me: int, opp: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        key = me << 25 | opp
        if ply and (key in self.path or key in self.seen):
            return 0
        alpha, beta = max(alpha, ply - MATE), min(beta, MATE - ply - 1)
        if alpha >= beta:
            return alpha
        if depth <= 0:
            return _evaluate(me, opp, ply)
        tt_move = -1
        entry = self.table.get(key)
        if entry is not None:
            e_depth, flag, score, tt_move = entry
            score = _from_table(score, ply)
            within = score >= beta if flag == LOWER else score <= alpha if flag == UPPER else True
            if ply and e_depth >= depth and within:
                return score
        killers, history = self.killers[ply], self.history
        children = []
        for move in _moves(me, opp):
            after = _play(me, move)
            result = _result(after, opp, move)
            if result > 0:  # nothing beats winning now
                if not ply:
                    self.root_move = move
                self.table[key] = (MAX_DEPTH, EXACT, MATE - 1, move)
                return MATE - ply - 1
            rank = 1 << 41 if move == tt_move else 1 << 40 if move in killers else history[move]
            children.append((rank, move, after, result))
        if not children:  # four markers cannot all be walled in by four, but never crash
            return 0
        children.sort(reverse=True)
        best, best_move, alpha0 = -MATE, children[0][1], alpha
        self.path.add(key)
        try:
            for _, move, after, result in children:
                if result < 0:
                    score = ply + 1 - MATE
                else:
                    score = -self.negamax(opp, after, depth - 1, -beta, -alpha, ply + 1)
                if score > best:
                    best, best_move = score, move
                    if not ply:
                        self.root_move = move
                    if score > alpha:
                        alpha = score
                        if alpha >= beta:
                            if move != killers[0]:
                                killers[1], killers[0] = killers[0], move
                            history[move] += depth * depth
                            break
        finally:
            self.path.discard(key)
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[key] = (depth, flag, _to_table(best, ply), best_move)
        return best


# ==== the player (the course's interface) ======================================================


def _masks(state: list[list[str]], piece: str, other: str) -> tuple[int, int]:
    """The squares holding ``piece`` and ``other`` on a 5x5 board of ``' '``, ``'b'``, ``'r'``."""
    own = theirs = 0
    for sq in SQUARES:
        cell = state[sq // SIZE][sq % SIZE]
        if cell == piece:
            own |= 1 << sq
        elif cell == other:
            theirs |= 1 << sq
    return own, theirs


def _cell(row: int, col: int) -> str:
    return f"({row}, {col}) [{COLUMNS[col]}{row}]"


def _student(move: int) -> list[tuple[int, int]]:
    """The move in the course's format: a list of (row, col) tuples of plain ints."""
    to, src = move & 31, (move >> 5) - 1
    return [divmod(sq, SIZE) for sq in ([to] if src < 0 else [to, src])]


def _names(squares: int) -> str:
    return " ".join(f"{COLUMNS[sq % SIZE]}{sq // SIZE}" for sq in SQUARES if squares >> sq & 1)


def _book_move(me: int, opp: int) -> int:
    """The drop OPENING_BOOK gives for this position, or -1."""
    name = OPENING_BOOK.get(f"{_names(me)}|{_names(opp)}")
    return -1 if name is None else int(name[1]) * SIZE + COLUMNS.index(name[0])


class Teeko2Player:
    """An AI that plays Teeko2: ``make_move`` searches for ``TIME_BUDGET`` seconds at most."""

    board = [[" " for j in range(5)] for i in range(5)]
    pieces = ["b", "r"]

    def __init__(self) -> None:
        """Pick this player's colour at random; the other one is the opponent's."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # Each player gets its own empty board: the class attribute is one list shared by
        # every instance, so a second game in the same process would start on the first's.
        self.board = [[" " for j in range(5)] for i in range(5)]
        self.last_depth = 0  # deepest search depth completed by the latest make_move
        self._searcher = _Searcher()
        self._after = (-1, -1)  # (my markers, theirs) after my latest move

    def make_move(self, state: list[list[str]]) -> list[tuple[int, int]]:
        """This player's move in ``state``: ``[(row, col)]`` while it has markers to drop,
        else ``[(row, col), (source_row, source_col)]``. Neither ``state`` nor the board
        changes; the move returned is always legal (a fallback stands ready before searching).
        """
        me, opp = _masks(state, self.my_piece, self.opp)
        moves = _moves(me, opp)
        if not moves:  # no legal move exists (not reachable in a real game)
            return [(0, 0)]
        move, self.last_depth = moves[0], 0
        searcher = self._searcher
        try:
            # Repetitions count as draws only within one game: this position must follow from
            # my previous move by one slide of the opponent, else the history starts afresh.
            mine, theirs = self._after
            if me != mine or (opp ^ theirs).bit_count() != 2 or me.bit_count() < MARKERS:
                searcher.seen.clear()
            searcher.seen.add(me << 25 | opp)
            book = _book_move(me, opp)
            if book in moves:
                move = book
            elif len(moves) > 1:
                move, self.last_depth = searcher.choose(me, opp, TIME_BUDGET)
            after = _play(me, move)
            searcher.seen.add(opp << 25 | after)
            self._after = (after, opp)
        except Exception:  # the fallback is legal; a bug in the search must not lose the game
            move = move if move in moves else moves[0]
        return _student(move)

    def opponent_move(self, move: list[tuple[int, int]]) -> None:
        """Check the opponent's ``move`` against this player's board, then apply it.

        :raises ValueError: saying which rule the move breaks.
        """
        if not isinstance(move, list | tuple) or len(move) not in (1, 2):
            raise ValueError(f"a move is [(row, col)] or [(row, col), (source)], got {move!r}")
        for cell in move:
            if not isinstance(cell, list | tuple) or len(cell) != 2:
                raise ValueError(f"a square is a (row, col) pair, got {cell!r}")
            if not all(isinstance(v, int) and 0 <= v < SIZE for v in cell):
                raise ValueError(f"{tuple(cell)} is not on the board: rows and columns are 0-4")
        cells = [_cell(*cell) for cell in move]
        (row, col), placed = move[0], sum(r.count(self.opp) for r in self.board)
        if placed < MARKERS and len(move) == 2:
            raise ValueError(
                f"the opponent has {placed} of {MARKERS} markers down, so it must drop one "
                "with [(row, col)] instead of moving"
            )
        if placed >= MARKERS and len(move) == 1:
            raise ValueError(
                "all the opponent's markers are down: move one with "
                "[(row, col), (source_row, source_col)]"
            )
        if len(move) == 2:
            src_row, src_col = move[1]
            if self.board[src_row][src_col] != self.opp:
                raise ValueError(f"{cells[1]} holds no {self.opp!r} marker to move")
            if max(abs(src_row - row), abs(src_col - col)) != 1:
                raise ValueError(f"{cells[0]} is not adjacent to {cells[1]}")
        if self.board[row][col] != " ":
            raise ValueError(f"{cells[0]} is occupied")
        self.place_piece(move, self.opp)

    def place_piece(self, move: list[tuple[int, int]], piece: str) -> None:
        """Put ``piece`` on ``move[0]``, clearing ``move[1]`` when the move is a slide."""
        if len(move) > 1:
            self.board[move[1][0]][move[1][1]] = " "
        self.board[move[0][0]][move[0][1]] = piece

    def print_board(self) -> None:
        for row in range(len(self.board)):
            print(f"{row}: " + "".join(cell + " " for cell in self.board[row]))
        print("   A B C D E")

    def game_value(self, state: list[list[str]], mover: str | None = None) -> int:
        """1 if this player holds a goal in ``state``, -1 if the opponent does, else 0.

        If both do, the side that made the last move wins: ``mover`` when given, else guessed
        from the marker counts (black after an odd number of drops, red otherwise).
        """
        me, opp = _masks(state, self.my_piece, self.opp)
        occupied = me | opp
        mine, theirs = _has_goal(me, occupied), _has_goal(opp, occupied)
        if mine and theirs:
            if mover is None:
                counts = [sum(r.count(p) for r in state) for p in self.pieces]
                mover = self.pieces[0] if counts[0] > counts[1] else self.pieces[1]
            return 1 if mover == self.my_piece else -1
        return 1 if mine else -1 if theirs else 0


# ==== terminal game ============================================================================


def _ask_square(prompt: str) -> tuple[int, int]:
    """A (row, col) typed as a column letter and a row digit, like B3; asks again until valid."""
    while True:
        text = input(prompt).strip()
        name = text.upper()
        if len(name) == 2 and name[0] in COLUMNS and name[1] in "01234":
            return int(name[1]), COLUMNS.index(name[0])
        print(f"{text!r} is not a square: type a column A-E then a row 0-4, like B3.")


def _ask_move(ai: Teeko2Player) -> list[tuple[int, int]]:
    """Read the human's move and play it on the AI's board; asks again until it is legal."""
    while True:
        if sum(r.count(ai.opp) for r in ai.board) < MARKERS:
            move = [_ask_square("Place a marker on (e.g. B3): ")]
        else:
            source = _ask_square("Move a marker from: ")
            move = [_ask_square("              to: "), source]
        try:
            ai.opponent_move(move)
            return move
        except ValueError as err:
            print(f"Illegal move: {err}. Try again.")


def main() -> None:
    """Play one game in the terminal, you against the AI; black moves first."""
    ai = Teeko2Player()
    print(f"Teeko2: you play {ai.opp!r}, the AI plays {ai.my_piece!r}; black ('b') moves first.")
    print(
        "Four in a row, or the corners of a 3x3 square around an empty centre, wins. "
        "Squares are written like B3."
    )
    ai.print_board()
    turn = "b"
    try:
        for _ in range(MAX_PLIES):
            if turn == ai.my_piece:
                move = ai.make_move(ai.board)
                ai.place_piece(move, ai.my_piece)
                text = " to ".join(f"{COLUMNS[col]}{row}" for row, col in reversed(move))
                print(f"The AI {'drops on' if len(move) == 1 else 'moves from'} {text}.")
            else:
                _ask_move(ai)
            ai.print_board()
            value = ai.game_value(ai.board, turn)
            if value:
                print("The AI wins." if value > 0 else "You win!")
                return
            turn = ai.opp if turn == ai.my_piece else ai.my_piece
    except (EOFError, KeyboardInterrupt):
        print("\nGame abandoned.")
        return
    print(f"Draw: {MAX_PLIES} plies were played and nobody holds a goal.")


if __name__ == "__main__":
    main()
