"""An Othello player: iterative-deepening alpha-beta over bitboards, and a terminal game.

Othello is played by black and white on a square board, 6×6 in the homework (this file plays
any even size from 4×4 to 10×10); black moves first, from four discs in the centre. A move
puts a disc on an empty square that outflanks a line of the opponent's discs (across, down or
diagonal, closed by one of the mover's discs), and every outflanked disc turns over. A side
with no such square passes; when neither can move, more discs wins.

Run ``python game.py`` to play against the AI (``python game.py 8`` for an 8×8 board).
Standard library only.
"""

from __future__ import annotations

import sys
import time

__all__ = ["OthelloPlayer", "main"]

# ==== constants ================================================================================

TIME_BUDGET = 0.3  # seconds of search per move; half of it spent means no new iteration starts
EXACT_EMPTIES = 10  # with this few empty squares left the search plays the game out to the end
SIZE = 6  # the homework's board; every method reads the size of the board it is given
EMPTY = " "
WIN = 10_000  # a finished game scores WIN plus the disc difference
COLOURS = {"b": "black", "w": "white"}

# ==== rules ====================================================================================
# A board of N×N squares is two bitboards: square (row, col) is bit row * N + col. A step in a
# direction is a shift by row_step * N + col_step, masked so that nothing wraps round an edge.
# A position is ``(mine, theirs)``: the discs of the side to move and of the other side.


class _Geometry:
    """The masks and tables of one board size, built once per size (see ``_geometry``)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.full = (1 << size * size) - 1
        left = sum(1 << r * size for r in range(size))
        right = left << size - 1
        self.steps = [
            (dr * size + dc, self.full & ~(left if dc == 1 else right if dc == -1 else 0))
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if dr or dc
        ]
        last = size - 1
        self.corners = sum(1 << r * size + c for r in (0, last) for c in (0, last))
        # the squares next to a corner: a disc there tends to give the corner away
        near = 0
        for r, c in ((0, 0), (0, last), (last, 0), (last, last)):
            for dr in (-1, 0, 1):
                for dc in (-1, 0, 1):
                    if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size:
                        near |= 1 << (r + dr) * size + c + dc
        self.near_corners = near
        edges = sum(1 << r * size + c for r in range(size) for c in range(size) if r in (0, last))
        edges |= left | right
        self.edges = edges & ~self.corners & ~near
        # squares tried first: corners, then edges, then the rest, with the neighbours of
        # corners last
        self.rank = [
            3 if bit & self.corners else 2 if bit & self.edges else 0 if bit & near else 1
            for bit in (1 << i for i in range(size * size))
        ]


_GEOMETRIES: dict[int, _Geometry] = {}


def _geometry(size: int) -> _Geometry:
    if size not in _GEOMETRIES:
        _GEOMETRIES[size] = _Geometry(size)
    return _GEOMETRIES[size]


def _moves(g: _Geometry, mine: int, theirs: int) -> int:
    """Every square where ``mine`` outflanks some of ``theirs``."""
    empty = g.full & ~(mine | theirs)
    found = 0
    reach = g.size - 3
    for step, mask in g.steps:
        if step > 0:
            run = (mine << step) & mask & theirs
            for _ in range(reach):
                run |= (run << step) & mask & theirs
            found |= (run << step) & mask & empty
        else:
            back = -step
            run = (mine >> back) & mask & theirs
            for _ in range(reach):
                run |= (run >> back) & mask & theirs
            found |= (run >> back) & mask & empty
    return found


def _flips(g: _Geometry, mine: int, theirs: int, square: int) -> int:
    """The discs of ``theirs`` a disc of ``mine`` on ``square`` (a bit) turns over."""
    turned = 0
    for step, mask in g.steps:
        line = 0
        if step > 0:
            at = (square << step) & mask
            while at & theirs:
                line |= at
                at = (at << step) & mask
        else:
            at = (square >> -step) & mask
            while at & theirs:
                line |= at
                at = (at >> -step) & mask
        if at & mine:
            turned |= line
    return turned


def _bits(mask: int) -> list[int]:
    found = []
    while mask:
        low = mask & -mask
        found.append(low)
        mask ^= low
    return found


# ==== search ===================================================================================


class _OutOfTime(Exception):
    """The search's time is up: the iteration in progress is thrown away."""


class _Searcher:
    """One move's search: negamax with alpha-beta, deepened one ply at a time."""

    def __init__(self, g: _Geometry, deadline: float) -> None:
        self.g = g
        self.deadline = deadline
        self.nodes = 0
        self.best: dict[tuple[int, int], int] = {}  # a position's best square last time

    def evaluate(self, mine: int, theirs: int) -> int:
        """For the side to move: corners, then mobility, edges and the squares by corners."""
        g = self.g
        score = 25 * ((mine & g.corners).bit_count() - (theirs & g.corners).bit_count())
        # a square by a corner hurts only while that corner is empty
        open_near = g.near_corners
        for corner in _bits(g.corners & (mine | theirs)):
            open_near &= ~_near(g, corner)
        score -= 8 * ((mine & open_near).bit_count() - (theirs & open_near).bit_count())
        score += 3 * ((mine & g.edges).bit_count() - (theirs & g.edges).bit_count())
        score += 5 * (_moves(g, mine, theirs).bit_count() - _moves(g, theirs, mine).bit_count())
        return score

    def ordered(self, mine: int, theirs: int, moves: int) -> list[int]:
        first = self.best.get((mine, theirs), 0)
        rank = self.g.rank
        squares = sorted(_bits(moves), key=lambda b: -rank[b.bit_length() - 1])
        if first & moves:
            squares.remove(first)
            squares.insert(0, first)
        return squares

    def negamax(self, mine: int, theirs: int, depth: int, alpha: int, beta: int) -> int:
        self.nodes += 1
        if not self.nodes & 1023 and time.perf_counter() > self.deadline:
            raise _OutOfTime
        g = self.g
        moves = _moves(g, mine, theirs)
        if not moves:
            if not _moves(g, theirs, mine):  # the game is over
                diff = mine.bit_count() - theirs.bit_count()
                return WIN + diff if diff > 0 else -WIN + diff if diff < 0 else 0
            return -self.negamax(theirs, mine, depth, -beta, -alpha)  # a pass
        if depth <= 0:
            return self.evaluate(mine, theirs)
        best, best_square = -2 * WIN, 0
        for square in self.ordered(mine, theirs, moves):
            turned = _flips(g, mine, theirs, square)
            score = -self.negamax(
                theirs & ~turned, mine | square | turned, depth - 1, -beta, -alpha
            )
            if score > best:
                best, best_square = score, square
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        self.best[(mine, theirs)] = best_square
        return best

    def choose(self, mine: int, theirs: int, budget: float) -> tuple[int, int]:
        """The best square found in time (a bit) and the depth reached."""
        g = self.g
        start = time.perf_counter()
        squares = self.ordered(mine, theirs, _moves(g, mine, theirs))
        chosen, reached = squares[0], 0
        empties = (g.full & ~(mine | theirs)).bit_count()
        depth = empties if empties <= EXACT_EMPTIES else 1
        while True:
            try:
                best, best_square = -2 * WIN - 1, squares[0]
                for square in self.ordered(mine, theirs, _moves(g, mine, theirs)):
                    turned = _flips(g, mine, theirs, square)
                    score = -self.negamax(
                        theirs & ~turned, mine | square | turned, depth - 1, -2 * WIN, -best
                    )
                    if score > best:
                        best, best_square = score, square
            except _OutOfTime:
                break
            chosen, reached = best_square, depth
            self.best[(mine, theirs)] = best_square
            if depth >= empties or time.perf_counter() - start > budget / 2:
                break
            depth += 1
        return chosen, reached


def _near(g: _Geometry, corner: int) -> int:
    """The squares next to ``corner`` (a bit)."""
    near = 0
    for step, mask in g.steps:
        near |= ((corner << step) if step > 0 else (corner >> -step)) & mask
    return near


# ==== the course's interface ===================================================================


def _split(board: list[list[str]], piece: str) -> tuple[int, int]:
    """The board as bitboards: ``piece``'s discs and the other side's."""
    size = len(board)
    mine = theirs = 0
    for r in range(size):
        for c in range(size):
            cell = board[r][c]
            if cell == piece:
                mine |= 1 << r * size + c
            elif cell != EMPTY:
                theirs |= 1 << r * size + c
    return mine, theirs


def _play(board: list[list[str]], move: tuple[int, int], piece: str) -> None:
    """Put ``piece`` on ``move`` and turn over what it outflanks, on ``board`` itself."""
    size = len(board)
    g = _geometry(size)
    mine, theirs = _split(board, piece)
    square = 1 << move[0] * size + move[1]
    for bit in _bits(_flips(g, mine, theirs, square) | square):
        r, c = divmod(bit.bit_length() - 1, size)
        board[r][c] = piece


def legal_moves(board: list[list[str]], piece: str) -> list[tuple[int, int]]:
    """The squares ``piece`` may play on ``board``, row by row."""
    size = len(board)
    mine, theirs = _split(board, piece)
    return [divmod(b.bit_length() - 1, size) for b in _bits(_moves(_geometry(size), mine, theirs))]


class OthelloPlayer:
    """An AI that plays Othello: ``make_move`` searches for ``TIME_BUDGET`` seconds at most."""

    board = [[EMPTY] * SIZE for _ in range(SIZE)]
    board[2][2], board[2][3], board[3][2], board[3][3] = "w", "b", "b", "w"
    pieces = ["b", "w"]

    def __init__(self) -> None:
        self.my_piece = "b"
        self.opp = "w"
        self.board = [row[:] for row in self.board]
        self.last_depth = 0

    def make_move(self, state: list[list[str]]) -> tuple[int, int]:
        """The square (row, col) to play on ``state`` (which is not changed); called only
        when the AI has a legal square."""
        size = len(state)
        g = _geometry(size)
        mine, theirs = _split(state, self.my_piece)
        moves = _moves(g, mine, theirs)
        if moves & (moves - 1) == 0:  # one square: nothing to search
            chosen = moves
        else:
            deadline = time.perf_counter() + TIME_BUDGET
            chosen, self.last_depth = _Searcher(g, deadline).choose(mine, theirs, TIME_BUDGET)
        row, col = divmod(chosen.bit_length() - 1, size)
        return (row, col)

    def opponent_move(self, move: tuple[int, int]) -> None:
        """Check the opponent's square against self.board and play it.

        Raises:
            ValueError: when the square is not a legal move for the opponent.
        """
        if tuple(move) not in legal_moves(self.board, self.opp):
            raise ValueError(f"{move!r} is not a legal square for {COLOURS[self.opp]}")
        self.place_piece(move, self.opp)

    def place_piece(self, move: tuple[int, int], piece: str) -> None:
        """Put ``piece`` on ``move`` of self.board and turn over what it outflanks."""
        _play(self.board, move, piece)

    def print_board(self) -> None:
        size = len(self.board)
        print("   " + " ".join(str(col % 10) for col in range(size)))
        for number, row in enumerate(self.board):
            print(f"{number % 10} |" + "|".join(row) + "|")


# ==== the terminal game ========================================================================


def main(argv: list[str] | None = None) -> None:
    """You against the AI in the terminal; ``python game.py 8`` plays on an 8×8 board."""
    args = sys.argv[1:] if argv is None else argv
    size = int(args[0]) if args else SIZE
    ai = OthelloPlayer()
    half = size // 2
    ai.board = [[EMPTY] * size for _ in range(size)]
    ai.board[half - 1][half - 1] = ai.board[half][half] = "w"
    ai.board[half - 1][half] = ai.board[half][half - 1] = "b"
    ai.my_piece, ai.opp = "w", "b"
    print("Othello: you play black (b) and move first; type a square as: row col")
    turn = "b"
    try:
        while legal_moves(ai.board, "b") or legal_moves(ai.board, "w"):
            ai.print_board()
            if not legal_moves(ai.board, turn):
                print(f"{COLOURS[turn]} has no legal square and passes.")
            elif turn == ai.my_piece:
                move = ai.make_move(ai.board)
                ai.place_piece(move, ai.my_piece)
                print(f"The AI played {move}.")
            else:
                while True:
                    try:
                        row, col = (int(x) for x in input("Your move: ").replace(",", " ").split())
                        ai.opponent_move((row, col))
                        break
                    except ValueError as error:
                        print(f"Not a legal square ({error}); type its row and column.")
            turn = ai.opp if turn == ai.my_piece else ai.my_piece
    except (EOFError, KeyboardInterrupt):
        print("\nGoodbye!")
        return
    ai.print_board()
    mine = sum(row.count(ai.my_piece) for row in ai.board)
    theirs = sum(row.count(ai.opp) for row in ai.board)
    print(f"The AI has {mine} discs, you have {theirs}.")


if __name__ == "__main__":
    main()
