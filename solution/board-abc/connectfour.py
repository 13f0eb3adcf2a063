"""Connect Four on the Board interface.

The board stands upright: 7 columns of 6 cells. A move is the number of a column (0 to 6,
left to right); the piece drops to the lowest free cell of that column. Four pieces of one
colour in a row, a column or a diagonal win. Black (B) moves first, then red (R).

A cell is named (column, row), with row 0 at the BOTTOM of its column.
"""

from __future__ import annotations

from enum import Enum

from board import Board, Move, Piece


class C4Piece(Piece, Enum):
    B = "B"
    R = "R"
    E = " "  # an empty cell

    @property
    def opposite(self) -> C4Piece:
        """Black and red take turns; an empty cell has no opponent and stays empty."""
        if self is C4Piece.B:
            return C4Piece.R
        if self is C4Piece.R:
            return C4Piece.B
        return C4Piece.E

    def __str__(self) -> str:
        return str(self.value)


def generate_segments(
    num_columns: int, num_rows: int, segment_length: int
) -> list[list[tuple[int, int]]]:
    """Every straight run of ``segment_length`` cells on the board, as lists of (column, row).

    A player who fills one of these runs with their own pieces has won.
    """
    segments: list[list[tuple[int, int]]] = []
    # Up a column.
    for c in range(num_columns):
        for r in range(num_rows - segment_length + 1):
            segments.append([(c, r + t) for t in range(segment_length)])
    # Along a row.
    for r in range(num_rows):
        for c in range(num_columns - segment_length + 1):
            segments.append([(c + t, r) for t in range(segment_length)])
    # Diagonals going up to the right, from their lower left cell.
    for c in range(num_columns - segment_length + 1):
        for r in range(num_rows - segment_length + 1):
            segments.append([(c + t, r + t) for t in range(segment_length)])
    # Diagonals going down to the right, from their upper left cell.
    for c in range(num_columns - segment_length + 1):
        for r in range(segment_length - 1, num_rows):
            segments.append([(c + t, r - t) for t in range(segment_length)])
    return segments


def _segment_score(black_count: int, red_count: int, player: Piece) -> float:
    """How much one segment holding these pieces is worth to ``player``.

    A segment with both colours in it can never be completed, so it is worth nothing. Two,
    three or four pieces of one colour (the rest empty) are worth 1, 100 and 1000000; that is
    a gain when they are the player's colour and a loss otherwise.
    """
    if black_count > 0 and red_count > 0:
        return 0
    count = max(black_count, red_count)
    score: float = 0
    if count == 2:
        score = 1
    elif count == 3:
        score = 100
    elif count == 4:
        score = 1000000
    colour = C4Piece.R if red_count > black_count else C4Piece.B
    return score if colour == player else -score


class C4Board(Board):
    NUM_COLUMNS: int = 7
    NUM_ROWS: int = 6
    SEGMENT_LENGHT: int = 4  # (sic) the name the course's code uses
    SEGMENTS: list[list[tuple[int, int]]] = generate_segments(NUM_COLUMNS, NUM_ROWS, SEGMENT_LENGHT)

    class Column:
        """One column of the board, filled from the bottom (index 0) up; pieces never leave."""

        def __init__(self) -> None:
            self._container: list[C4Piece] = []

        @property
        def full(self) -> bool:
            return len(self._container) == C4Board.NUM_ROWS

        def push(self, item: C4Piece) -> None:
            """Drop ``item`` on top of the pieces already in the column."""
            if self.full:
                raise OverflowError("this column is full: no piece fits in it any more")
            self._container.append(item)

        def __getitem__(self, index: int) -> C4Piece:
            """The piece in row ``index``, or C4Piece.E above the topmost piece."""
            if index > len(self._container) - 1:
                return C4Piece.E
            return self._container[index]

        def __repr__(self) -> str:
            return repr(self._container)

        def copy(self) -> C4Board.Column:
            """An independent column holding the same pieces."""
            twin = C4Board.Column()
            twin._container = self._container.copy()
            return twin

    def __init__(
        self, position: list[C4Board.Column] | None = None, turn: C4Piece = C4Piece.B
    ) -> None:
        if position is None:
            self.position: list[C4Board.Column] = [
                C4Board.Column() for _ in range(C4Board.NUM_COLUMNS)
            ]
        else:
            self.position = position
        self._turn: C4Piece = turn

    @property
    def turn(self) -> Piece:
        return self._turn

    def move(self, location: Move) -> Board:
        """A new board with the mover's piece dropped into column ``location``.

        Every column is copied, so this board is left as it was. A full column raises
        OverflowError, a column number off the board ValueError.
        """
        if not 0 <= location < C4Board.NUM_COLUMNS:
            raise ValueError(f"column {location} is not on the board")
        new_position = [column.copy() for column in self.position]
        new_position[location].push(self._turn)
        return C4Board(new_position, self._turn.opposite)

    @property
    def legal_moves(self) -> list[Move]:
        """The columns that still have room, left to right."""
        return [Move(c) for c in range(C4Board.NUM_COLUMNS) if not self.position[c].full]

    def _count_segment(self, segment: list[tuple[int, int]]) -> tuple[int, int]:
        """How many black and how many red pieces lie in ``segment``."""
        black_count = 0
        red_count = 0
        for column, row in segment:
            piece = self.position[column][row]
            if piece is C4Piece.B:
                black_count += 1
            elif piece is C4Piece.R:
                red_count += 1
        return black_count, red_count

    def _cells(self) -> list[list[C4Piece]]:
        """A snapshot of the board as cells[column][row], padded with C4Piece.E.

        is_win and evaluate look at every segment; reading the cells from this snapshot is
        much quicker than going through Column.__getitem__ for each of them.
        """
        rows = C4Board.NUM_ROWS
        return [
            column._container + [C4Piece.E] * (rows - len(column._container))
            for column in self.position
        ]

    @property
    def is_win(self) -> bool:
        """True when some segment holds four pieces of the same colour."""
        cells = self._cells()
        for segment in C4Board.SEGMENTS:
            column, row = segment[0]
            first = cells[column][row]
            if first is C4Piece.E:
                continue
            if all(cells[c][r] is first for c, r in segment[1:]):
                return True
        return False

    def _evaluate_segment(self, segment: list[tuple[int, int]], player: Piece) -> float:
        """What ``segment`` is worth to ``player`` (see _segment_score)."""
        black_count, red_count = self._count_segment(segment)
        return _segment_score(black_count, red_count, player)

    def evaluate(self, player: Piece) -> float:
        """The sum over all segments of what each is worth to ``player``.

        A won board scores at least about a million for the winner, whatever else it holds.
        """
        cells = self._cells()
        total: float = 0
        for segment in C4Board.SEGMENTS:
            black_count = 0
            red_count = 0
            for column, row in segment:
                piece = cells[column][row]
                if piece is C4Piece.B:
                    black_count += 1
                elif piece is C4Piece.R:
                    red_count += 1
            if (black_count and red_count) or black_count + red_count < 2:
                continue  # worth nothing: mixed colours, or fewer than two pieces
            total += _segment_score(black_count, red_count, player)
        return total

    def __repr__(self) -> str:
        lines = []
        for r in reversed(range(C4Board.NUM_ROWS)):  # the top row first
            cells = "|".join(str(self.position[c][r]) for c in range(C4Board.NUM_COLUMNS))
            lines.append(f"|{cells}|\n")
        return "".join(lines)
