"""A Connect Four player: iterative-deepening alpha-beta over bitboards, and a terminal game.

Connect Four is played by red and yellow on an upright board, 7 columns by 6 rows as a rule
(this file plays any size from 4x4 to 10x10); red moves first. A move drops a disc into a
column that is not full, and the disc falls to the lowest empty cell. The first side to hold
four discs in a line (across, down or diagonally) wins; a full board without one is a draw.

Run ``python game.py`` to play against the AI (``python game.py 8x6`` for another board).
Standard library only.
"""

from __future__ import annotations

import functools
import random
import sys
import time

__all__ = ["Connect4Player", "main"]

# ==== constants ================================================================================

TIME_BUDGET = 1.0  # seconds of search per move; half of it spent means no new iteration starts
CONNECT = 4  # discs in a line to win
COLUMNS, ROWS = 7, 6  # the course's board; every method reads the size of the board it is given
MINIMAX_DEPTH = 3  # plies searched by the course's max_value/min_value (make_move searches deeper)
EMPTY = " "

# ==== rules ====================================================================================
# A board of C columns and R rows is kept as bitboards: bit c * (R + 1) + r is the cell of
# column c, r rows up from the bottom (the course's row R - 1 - r). Each column has one spare
# bit above its top cell that is always empty, so that no line can run from one column into
# the next: a line is four bits at equal steps of 1 (up a column), R + 1 (along a row), R + 2
# and R (the two diagonals). A position is ``(cur, mask)``: the discs of the side to move and
# all discs. ``mask + bottom`` sets, in each column, the cell where its next disc lands.


class _Geometry:
    """The masks and tables of one board size, built once per size (see ``_geometry``)."""

    def __init__(self, columns: int, rows: int) -> None:
        self.columns, self.rows = columns, rows
        self.height = height = rows + 1
        column = (1 << rows) - 1
        self.column_masks = [column << c * height for c in range(columns)]
        self.bottom = sum(1 << c * height for c in range(columns))
        self.full = sum(self.column_masks)
        # columns from the centre out, the left one first at equal distance
        self.order = sorted(range(columns), key=lambda c: (abs(2 * c - columns + 1), c))
        self.rank = [0] * columns  # the centre column ranks highest
        for place, c in enumerate(self.order):
            self.rank[c] = columns - place
        # Filled column by column to the end, red gets the odd rows (1st, 3rd, ... from the
        # bottom), yellow the even ones: with an even number of rows this decides which threats
        # win late, by zugzwang (_evaluate); with an odd number, threats count alike.
        self.zugzwang = rows % 2 == 0
        self.odd_rows = sum(
            1 << (c * height + r) for c in range(columns) for r in range(0, rows, 2)
        )
        # (cells kept, shift): spreads cells up their columns, never past a column's top
        self.spread = [
            (sum(((1 << (rows - k)) - 1) << c * height for c in range(columns)), k)
            for k in (1, 2, 4, 8)
            if k < rows
        ]
        # a cell's weight, by bit: the lines of four through it (the search sums them)
        self.weight = [0] * (columns * height)
        for bit, count in _lines_through(columns, rows).items():
            self.weight[bit] = count
        self.weight_classes: dict[int, int] = {}  # weight -> cells (a whole board's sum)
        for bit, count in enumerate(self.weight):
            if count:
                self.weight_classes[count] = self.weight_classes.get(count, 0) | 1 << bit

    def cell(self, row: int, col: int) -> int:
        """The bit of the course's (row, col): row 0 is the top row."""
        return 1 << (col * self.height + self.rows - 1 - row)

    def column_of(self, bit: int) -> int:
        return (bit.bit_length() - 1) // self.height

    def moves(self, mask: int) -> int:
        """One bit per column that is not full: the cell where its next disc lands."""
        return (mask + self.bottom) & self.full


def _lines_through(columns: int, rows: int) -> dict[int, int]:
    """How many lines of four pass through each cell, keyed by bit."""
    height = rows + 1
    counts: dict[int, int] = {}
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((0, 1), (1, 0), (1, 1), (1, -1)):
                ends = c + (CONNECT - 1) * dc, r + (CONNECT - 1) * dr
                if 0 <= ends[0] < columns and 0 <= ends[1] < rows:
                    for k in range(CONNECT):
                        bit = (c + k * dc) * height + r + k * dr
                        counts[bit] = counts.get(bit, 0) + 1
    return counts


@functools.cache
def _geometry(columns: int, rows: int) -> _Geometry:
    return _Geometry(columns, rows)


def _threats(discs: int, empty: int, height: int) -> int:
    """The cells of ``empty`` where one more disc completes a line of four of ``discs``."""
    found = (discs << 1) & (discs << 2) & (discs << 3)  # up a column: three right below
    for step in (height, height + 1, height - 1):
        up, down = discs << step, discs >> step
        pair = up & (discs << 2 * step)  # the two cells before are held
        found |= pair & ((discs << 3 * step) | down)
        pair = down & (discs >> 2 * step)  # the two cells after
        found |= pair & (up | (discs >> 3 * step))
    return found & empty


def _has_line(discs: int, height: int) -> bool:
    for step in (1, height, height + 1, height - 1):
        pairs = discs & (discs >> step)
        if pairs & (pairs >> 2 * step):
            return True
    return False


def _read(state: list[list[str]], piece: str, other: str) -> tuple[_Geometry, int, int]:
    """The geometry of ``state`` and the bitboards of ``piece`` and ``other`` on it."""
    geometry = _geometry(len(state[0]), len(state))
    own = theirs = 0
    for row, cells in enumerate(state):
        for col, cell in enumerate(cells):
            if cell == piece:
                own |= geometry.cell(row, col)
            elif cell == other:
                theirs |= geometry.cell(row, col)
    return geometry, own, theirs


# ==== evaluation ===============================================================================

MATE = 100_000  # a win n plies from the root scores MATE - n; heuristics stay far below
MATE_BOUND = MATE - 1_000
THREAT = 10  # an empty cell that completes a line of the side's discs
GOOD_THREAT = 10  # more when it lies on a row of the side's parity (see _Geometry)
ZUGZWANG = 100  # the side that the threats' parity says wins when the board fills up
STACKED = 60  # two threats of one side one above the other: the lower one cannot be blocked
LOW_THREAT = 10  # a threat one cell above a column's next disc: the other side must keep off


def _above(cells: int, g: _Geometry) -> int:
    """The cells strictly above any of ``cells`` in their columns."""
    spread = cells
    for keep, shift in g.spread:
        spread |= (spread & keep) << shift
    return (spread & g.spread[0][0]) << 1 if g.spread else 0


def _evaluate(mine: int, theirs: int, possible: int, material: int, red: int, g: _Geometry) -> int:
    """A score for the side to move (red when ``red``), which cannot win at once: ``material``
    (its discs' cell weights minus the other side's), the threats of each side (``mine``,
    ``theirs``), more when stacked or right above a column's next cell (``possible``) and, with
    an even number of rows, by zugzwang (_Geometry): counting only a column's lowest threats,
    red wins with more threats on odd rows than yellow, else yellow with one on an even row."""
    above = possible << 1
    score = (
        material
        + THREAT * (mine.bit_count() - theirs.bit_count())
        + STACKED * (bool(mine & mine >> 1) - bool(theirs & theirs >> 1))
        + LOW_THREAT * ((mine & above).bit_count() - (theirs & above).bit_count())
    )
    if g.zugzwang and (mine or theirs):
        mine &= ~_above(theirs, g)
        theirs &= ~_above(mine, g)
        reds, yellows = (mine, theirs) if red else (theirs, mine)
        odd = g.odd_rows
        red_odd, yellow_odd = (reds & odd).bit_count(), (yellows & odd).bit_count()
        yellow_even = (yellows & ~odd).bit_count()
        verdict = GOOD_THREAT * (red_odd - yellow_even)  # red's view
        if red_odd > yellow_odd:
            verdict += ZUGZWANG
        elif yellow_even:
            verdict -= ZUGZWANG
        score += verdict if red else -verdict
    return score


def _material(own: int, theirs: int, g: _Geometry) -> int:
    """The cell weights of ``own`` minus those of ``theirs`` (kept incrementally in search)."""
    return sum(
        w * ((own & m).bit_count() - (theirs & m).bit_count()) for w, m in g.weight_classes.items()
    )


# ==== search ===================================================================================

LATE = 2  # moves after this many (in the search's order) are searched one ply less first
EXACT, LOWER, UPPER = 0, 1, 2  # what a table score is: the value, a lower or an upper bound


class _OutOfTime(Exception):
    pass


def _to_table(score: int, ply: int) -> int:
    """A score as stored: a win or loss counted in plies from the position, not the root
    (``-ply`` turns a stored score back into one from the root)."""
    return score + ply if score > MATE_BOUND else score - ply if score < -MATE_BOUND else score


def _known(entry: tuple[int, int, int, int], ply: int, alpha: int, beta: int) -> int | None:
    """The score a table entry deep enough settles within (``alpha``, ``beta``), if any."""
    _, flag, score, _ = entry
    score = _to_table(score, -ply)
    if flag == EXACT or (flag == LOWER and score >= beta) or (flag == UPPER and score <= alpha):
        return score
    return None


class _Searcher:
    """Negamax with alpha-beta and a transposition table, for one move (fresh tables each
    time, so the move depends only on the board and how deep the clock lets it go). Scores
    are from the side to move."""

    def __init__(self, g: _Geometry) -> None:
        self.g = g
        self.table: dict[int, tuple[int, int, int, int]] = {}
        self.history = [0] * (g.columns * g.height)
        self.deadline, self.nodes, self.root_move, self.red_root = 0.0, 0, 0, 0

    def choose(self, cur: int, mask: int, red: bool, budget: float) -> tuple[int, int]:
        """The best move (a bit) found in ``budget`` seconds, and the deepest completed depth.

        The root has at least two moves that do not lose at once and no win at once."""
        start = time.perf_counter()
        self.deadline = start + budget
        self.red_root = int(red)
        g = self.g
        opp, empty = cur ^ mask, g.full ^ mask
        mine, theirs = _threats(cur, empty, g.height), _threats(opp, empty, g.height)
        safe = g.moves(mask) & ~(theirs >> 1)  # should not even depth 1 finish: centre first
        self.root_move = next(safe & m for m in (g.column_masks[c] for c in g.order) if safe & m)
        material = _material(cur, opp, g)
        completed = 0
        for depth in range(1, empty.bit_count() + 1):
            try:
                score = self.negamax(cur, mask, mine, theirs, depth, -MATE, MATE, 0, material)
            except _OutOfTime:
                break
            completed = depth
            if abs(score) > MATE_BOUND or time.perf_counter() - start > budget / 2:
                break
        return self.root_move, completed

    def negamax(
        self,
        cur: int,
        mask: int,
        mine: int,
        theirs: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        material: int,
    ) -> int:
        """The score of the side to move, holding ``cur`` of the discs ``mask``; ``mine`` and
        ``theirs`` are the threats of each side, ``material`` the cell weights' difference."""
        self.nodes += 1
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        g = self.g
        possible = (mask + g.bottom) & g.full
        if not possible:
            return 0  # a full board: a draw (the last move made no line, or we would not be here)
        if mine & possible:
            if not ply:
                self.root_move = mine & possible & -(mine & possible)
            return MATE - ply - 1
        moves = possible & theirs
        if moves:
            if moves & (moves - 1):
                return ply + 2 - MATE  # two threats to block: the other side wins next
        else:
            moves = possible
        moves &= ~(theirs >> 1)  # never drop right under the other side's winning cell
        if not moves:
            return ply + 2 - MATE
        single = not moves & (moves - 1)
        if single:
            depth += 1  # a forced reply costs no depth: such lines are searched to their end
        # the other side cannot win next move now, and we cannot win before the move after
        if alpha < ply + 4 - MATE:
            alpha = ply + 4 - MATE
        if beta > MATE - ply - 3:
            beta = MATE - ply - 3
        if alpha >= beta:
            return alpha
        if depth <= 0:
            return _evaluate(mine, theirs, possible, material, self.red_root ^ (ply & 1), g)

        entry = self.table.get(cur + mask)
        if entry is not None and ply and entry[0] >= depth:
            known = _known(entry, ply, alpha, beta)
            if known is not None:
                return known
        tt_move = 0 if entry is None else entry[3]
        return self.expand(
            cur, mask, mine, theirs, depth, alpha, beta, ply, material, moves, tt_move
        )

    def expand(
        self,
        cur: int,
        mask: int,
        mine: int,
        theirs: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        material: int,
        moves: int,
        tt_move: int,
    ) -> int:
        """The score of a node from its ``moves``, the table's ``tt_move`` first (stored in the
        table with the best move).

        Moves are ordered by the table's move, then by the threats they make (the children's
        ``theirs``), the history of cut-offs, centre first; all but the first are tried with
        a null window (principal variation search), and those after the first ``LATE`` that
        make no new threat one ply less deep first (late move reduction: only a move that then
        looks better than the best so far is searched again at full depth)."""
        g, history = self.g, self.history
        empty = g.full ^ mask
        children = []
        for col in g.order:
            move = moves & g.column_masks[col]
            if move:
                made = _threats(cur | move, empty ^ move, g.height)  # the mover's, after it
                index = move.bit_length() - 1
                order = made.bit_count() << 40 | history[index] << 4 | g.rank[col]
                children.append((1 << 60 if move == tt_move else order, move, made))
        if moves & (moves - 1):
            children.sort(reverse=True)
        opp, best, best_move, alpha0 = cur ^ mask, -MATE, children[0][1], alpha
        for number, (_, move, made) in enumerate(children):
            index = move.bit_length() - 1
            after, worth, left = mask | move, -(material + g.weight[index]), theirs & ~move
            if not number:  # the first move: a full window
                score = -self.negamax(
                    opp, after, left, made, depth - 1, -beta, -alpha, ply + 1, worth
                )
            else:  # the others: only prove they are worse, unless one is not
                reduced = depth - 1
                if number >= LATE and depth >= 3 and not made & ~mine:
                    reduced -= 1  # a late move making no new threat: searched less deep first
                score = -self.negamax(
                    opp, after, left, made, reduced, -alpha - 1, -alpha, ply + 1, worth
                )
                if score > alpha and reduced < depth - 1:
                    score = -self.negamax(
                        opp, after, left, made, depth - 1, -alpha - 1, -alpha, ply + 1, worth
                    )
                if alpha < score < beta:
                    score = -self.negamax(
                        opp, after, left, made, depth - 1, -beta, -score, ply + 1, worth
                    )
            if score > best:
                best, best_move = score, move
                if not ply:
                    self.root_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        history[index] += depth * depth
                        break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        self.table[cur + mask] = (depth, flag, _to_table(best, ply), best_move)
        return best


# ==== the player (the course's interface) ======================================================


class Connect4Player:
    """An AI that plays Connect Four: ``make_move`` searches for ``TIME_BUDGET`` seconds at
    most, on a board of any size (read from the ``state`` it is given)."""

    board = [[" " for j in range(7)] for i in range(6)]
    pieces = ["r", "y"]

    def __init__(self) -> None:
        """Pick this player's colour at random; the other one is the opponent's."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # Each player gets its own empty board: the class attribute is one list shared by
        # every instance, so a second game in the same process would start on the first's.
        self.board = [[" " for j in range(7)] for i in range(6)]
        self.last_depth = 0  # deepest search depth completed by the latest make_move

    # ---- the AI ---------------------------------------------------------------------------

    def make_move(self, state: list[list[str]]) -> int:
        """The column (a plain int, 0 at the left) to drop this player's disc into in
        ``state``. Neither ``state`` nor the board changes; the column returned is never full
        when any column is not (a fallback stands ready before searching).

        A win at once is taken and the other side's immediate win is blocked without a search;
        otherwise the search runs for ``TIME_BUDGET`` seconds at most."""
        columns = len(state[0])
        legal = [c for c in range(columns) if state[0][c] == EMPTY]
        if not legal:  # a full board: no legal move exists
            return 0
        centre = min(legal, key=lambda c: (abs(2 * c - columns + 1), c))
        move, self.last_depth = centre, 0
        try:
            g, cur, opp = _read(state, self.my_piece, self.opp)
            mask = cur | opp
            possible, empty = g.moves(mask), g.full ^ mask
            wins = _threats(cur, empty, g.height) & possible
            opp_threats = _threats(opp, empty, g.height)
            safe = possible & ~(opp_threats >> 1)
            if wins:
                chosen = wins
            elif possible & opp_threats:
                chosen = possible & opp_threats  # block (two threats cannot both be blocked)
            elif safe & (safe - 1):
                red = self.my_piece == self.pieces[0]
                chosen, self.last_depth = _Searcher(g).choose(cur, mask, red, TIME_BUDGET)
            else:
                chosen = safe or possible  # one move that does not lose at once, or none
            columns_chosen = [c for c in g.order if chosen & g.column_masks[c]]
            if columns_chosen and columns_chosen[0] in legal:
                move = columns_chosen[0]
        except Exception:  # the fallback is legal; a bug in the search must not lose the game
            pass
        return int(move)

    def succ(self, state: list[list[str]], piece: str) -> list[list[list[str]]]:
        """Every board ``piece`` can reach from ``state`` in one move, columns left to right;
        each is a new board, ``state`` never changes."""
        boards = []
        for col in range(len(state[0])):
            row = _landing_row(state, col)
            if row is not None:
                after = [list(cells) for cells in state]
                after[row][col] = piece
                boards.append(after)
        return boards

    def game_value(self, state: list[list[str]]) -> int:
        """1 if this player holds four in a line in ``state``, -1 if the opponent does, else 0;
        both at once (no real game) goes to the side that moved last, as in the rules engine."""
        g, own, theirs = _read(state, self.my_piece, self.opp)
        mine, other = _has_line(own, g.height), _has_line(theirs, g.height)
        if mine and other:
            reds = sum(row.count(self.pieces[0]) for row in state)
            yellows = sum(row.count(self.pieces[1]) for row in state)
            last = self.pieces[0] if reds > yellows else self.pieces[1]
            return 1 if last == self.my_piece else -1
        return 1 if mine else -1 if other else 0

    def heuristic_game_value(self, state: list[list[str]]) -> float:
        """A score of ``state`` for this player: ``game_value`` when the game is over (0 for a
        full board), else strictly between -1 and 1: the search's evaluation (cell weights and
        threats, see ``_evaluate``) for the side to move, squashed into (-1, 1)."""
        value = self.game_value(state)
        if value:
            return value
        g, own, theirs = _read(state, self.my_piece, self.opp)
        mask = own | theirs
        if mask == g.full:
            return 0
        reds = sum(row.count(self.pieces[0]) for row in state)
        yellows = sum(row.count(self.pieces[1]) for row in state)
        red_to_move = reds == yellows
        my_turn = red_to_move == (self.my_piece == self.pieces[0])
        cur, opp = (own, theirs) if my_turn else (theirs, own)
        empty, possible = g.full ^ mask, g.moves(mask)
        mine, theirs = _threats(cur, empty, g.height), _threats(opp, empty, g.height)
        if mine & possible:
            score = MATE_BOUND // 100  # the side to move wins at once
        else:
            material = _material(cur, opp, g)
            score = _evaluate(mine, theirs, possible, material, red_to_move, g)
        score = score if my_turn else -score
        return score / (abs(score) + 200)

    def max_value(self, state: list[list[str]], depth: int) -> float:
        """The minimax value of ``state`` with this player to move, ``depth`` plies below the
        state make_move started from: the heuristic once the game is over or ``depth`` reaches
        MINIMAX_DEPTH, else the largest min_value of the successors."""
        if depth >= MINIMAX_DEPTH or self.game_value(state):
            return self.heuristic_game_value(state)
        values = [self.min_value(s, depth + 1) for s in self.succ(state, self.my_piece)]
        return max(values, default=self.heuristic_game_value(state))

    def min_value(self, state: list[list[str]], depth: int) -> float:
        """The mirror image of max_value: the opponent is to move and picks the smallest."""
        if depth >= MINIMAX_DEPTH or self.game_value(state):
            return self.heuristic_game_value(state)
        values = [self.max_value(s, depth + 1) for s in self.succ(state, self.opp)]
        return min(values, default=self.heuristic_game_value(state))

    def run_challenge_test(self) -> bool:
        """Opt in to the games against the grader's strongest opponent."""
        return True

    # ---- keeping track of the game ----------------------------------------------------------

    def opponent_move(self, column: int) -> None:
        """Check the opponent's ``column`` against this player's board, then drop its disc.

        :raises ValueError: saying why the column is not a legal move; the board is unchanged.
        """
        columns, rows = len(self.board[0]), len(self.board)
        if isinstance(column, bool) or not isinstance(column, int):
            raise ValueError(f"a move is a column number, an int, got {column!r}")
        if not 0 <= column < columns:
            raise ValueError(f"column {column} is off the board: columns are 0-{columns - 1}")
        if _landing_row(self.board, column) is None:
            raise ValueError(f"column {column} is full: all {rows} of its rows hold a disc")
        self.place_piece(column, self.opp)

    def place_piece(self, column: int, piece: str) -> None:
        """Drop ``piece`` into ``column`` without checking (a full column takes nothing)."""
        row = _landing_row(self.board, column)
        if row is not None:
            self.board[row][column] = piece

    def print_board(self) -> None:
        for cells in self.board:
            print("|" + "|".join(cells) + "|")
        print(" " + " ".join(str(c % 10) for c in range(len(self.board[0]))))


def _landing_row(board: list[list[str]], column: int) -> int | None:
    """The row where a disc dropped into ``column`` lands (the lowest empty one), or None."""
    for row in range(len(board) - 1, -1, -1):
        if board[row][column] == EMPTY:
            return row
    return None


# ==== terminal game ============================================================================


def _ask_move(ai: Connect4Player) -> int:
    """Read the human's column and play it on the AI's board; asks again until it is legal."""
    last = len(ai.board[0]) - 1
    while True:
        text = input(f"Your move, a column 0-{last}: ").strip()
        try:
            column = int(text)
        except ValueError:
            print(f"{text!r} is not a column: type a number from 0 to {last}.")
            continue
        try:
            ai.opponent_move(column)
            return column
        except ValueError as err:
            print(f"Illegal move: {err}. Try again.")


def main(columns: int = COLUMNS, rows: int = ROWS) -> None:
    """Play one game in the terminal, you against the AI; red moves first."""
    ai = Connect4Player()
    ai.board = [[EMPTY] * columns for _ in range(rows)]
    print(
        f"Connect Four: you play {ai.opp!r}, the AI plays {ai.my_piece!r}; red ('r') moves first."
    )
    print("Four discs in a line (across, down or diagonally) win. Type a column number to drop.")
    ai.print_board()
    turn = ai.pieces[0]
    try:
        while True:
            if turn == ai.my_piece:
                column = ai.make_move(ai.board)
                ai.place_piece(column, ai.my_piece)
                print(f"The AI drops into column {column}.")
            else:
                _ask_move(ai)
            ai.print_board()
            value = ai.game_value(ai.board)
            if value:
                print("The AI wins." if value > 0 else "You win!")
                return
            if all(cell != EMPTY for cell in ai.board[0]):
                print("Draw: the board is full and nobody has four in a line.")
                return
            turn = ai.opp if turn == ai.my_piece else ai.my_piece
    except (EOFError, KeyboardInterrupt):
        print("\nGame abandoned.")


if __name__ == "__main__":
    size = sys.argv[1].lower().split("x") if len(sys.argv) > 1 else [COLUMNS, ROWS]  # like 8x6
    main(int(size[0]), int(size[1]))
