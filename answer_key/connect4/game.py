"""Connect Four: a minimax player (answer key).

The homework starter with every TODO done, in the starter's own methods: hand it out after the
deadline. It is written to be read, not to be strong: plain minimax to a fixed depth, without
pruning, on the course's lists of rows. The reference player in solution/connect4/game.py is
the strong one (the kit's benchmark).

Connect Four is played by red ('r') and yellow ('y') on an upright board of 7 columns and 6
rows; red moves first.

* A move drops one of your discs into a column. The disc falls as far as it can: it lands on
  the lowest empty cell of that column. A full column takes no more discs.
* You win the moment you hold four discs in a line: across (a row), up and down (a column)
  or along either diagonal.
* If the board fills up and nobody has a line of four, the game is a draw.

The board is a list of rows, row 0 at the top as it is printed, each row a list of cells
holding ' ', 'r' or 'y'; columns are numbered from 0 at the left. A disc dropped into column
c lands in the largest row r with state[r][c] == ' '. The code plays on any board size: it
reads the number of rows and columns from the board, as len(state) and len(state[0]).

How the AI chooses (the TODOs of the starter, in order):

  TODO 1  succ drops the disc into each column that is not full, each time on a copy.
  TODO 2  game_value also walks the two diagonal directions.
  TODO 3  heuristic_game_value looks at every window of four cells in a line (windows())
          and counts, on those still open to one side, how many cells that side holds.
  TODO 4  max_value / min_value: plain minimax, cut off at DEPTH_LIMIT plies; a win found
          sooner scores a little more than one found later.
  TODO 5  make_move tries every column that is not full, the centre ones first, and keeps
          the one with the best minimax value.

Play against the AI with:  python game.py
"""

import functools
import random

COLOURS = {"r": "red", "y": "yellow"}
DEPTH_LIMIT = 4  # plies searched: the AI's move, the reply, its next move and the reply
WIN_STEP = 0.01  # a game over one ply deeper in the search counts this much less (max_value)
WINDOW_SCORE = [0, 1, 4, 16]  # an open window's worth by the discs its side holds there, 0-3


class Connect4Player:
    """An AI that plays Connect Four against one opponent."""

    board = [[" "] * 7 for _ in range(6)]  # 6 rows of 7 columns, row 0 at the top
    pieces = ["r", "y"]

    def __init__(self):
        """Pick this AI's colour at random; the opponent gets the other one."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # The class attribute above is one list shared by every player; give this player a
        # fresh copy so that two players never write on the same board.
        self.board = [row[:] for row in self.board]

    # ---- the AI ------------------------------------------------------------------------------

    def make_move(self, state) -> int:
        """Choose the column where the AI drops its next disc on the board ``state``.

        ``state`` is a list of rows (row 0 at the top) holding ' ', 'r' or 'y', with at least
        one column that is not full; it is never changed: every move is tried on a copy.

        Returns:
            The column, a plain int from 0 (the left column) to len(state[0]) - 1.
        """
        columns = len(state[0])
        # Try the centre columns first: a disc there takes part in the most lines, and of
        # moves worth the same the first one tried is kept, so the AI leans to the centre.
        order = sorted(range(columns), key=lambda col: abs(2 * col - (columns - 1)))
        best_column, best_value = None, -2.0  # every value lies in [-1, 1]
        for col in order:
            if drop_row(state, col) is None:  # a full column is no move
                continue
            value = self.min_value(dropped(state, col, self.my_piece), 1)
            if value > best_value:
                best_column, best_value = col, value
        return best_column

    def succ(self, state, piece):
        """Return every board that ``piece`` can reach from ``state`` by dropping one disc.

        One board for each column that is not full, left to right, each a new list of rows
        (see dropped): ``state`` itself never changes.
        """
        boards = []
        for col in range(len(state[0])):
            if drop_row(state, col) is not None:
                boards.append(dropped(state, col, piece))
        return boards

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        A finished game scores its game_value. Otherwise every window of four cells in a line
        that holds discs of one side only is still open to that side: it adds WINDOW_SCORE of
        the number of discs the AI holds there, or takes away that of the opponent's. A window
        holding both colours can never become a line, and counts for nobody.
        """
        value = self.game_value(state)
        if value != 0:
            return value
        flat = "".join("".join(row) for row in state)  # the rows end to end, top row first
        total = 0
        for window in windows(len(state), len(state[0])):
            discs = flat[window]  # the window's four cells, as a string such as "r y "
            mine, theirs = discs.count(self.my_piece), discs.count(self.opp)
            if theirs == 0:
                total += WINDOW_SCORE[mine]
            elif mine == 0:
                total -= WINDOW_SCORE[theirs]
        # Squash the total into (-0.9, 0.9): a real win, worth at least
        # 1 - WIN_STEP * DEPTH_LIMIT = 0.96 in max_value, always ranks above any estimate.
        return 0.9 * total / (abs(total) + 50)

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        The opponent has just moved into ``state``, ``depth`` plies below make_move's board.
        The search stops when the game is over or when ``depth`` reaches DEPTH_LIMIT, and
        there the board is estimated.
        """
        value = self.game_value(state)
        if value != 0:
            # The game is over: here the opponent has just made a line. A loss deeper in the
            # search is a little less bad (the opponent still has to find it), and in
            # min_value a win found sooner is worth a little more: so the AI takes a win at
            # once rather than later, and puts off a loss it cannot avoid.
            return value * (1 - WIN_STEP * depth)
        if depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(state)
        boards = self.succ(state, self.my_piece)
        if not boards:  # the board is full without a line: a draw
            return 0
        return max(self.min_value(board, depth + 1) for board in boards)

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        The mirror image of max_value: the AI has just moved into ``state``.
        """
        value = self.game_value(state)
        if value != 0:
            return value * (1 - WIN_STEP * depth)
        if depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(state)
        boards = self.succ(state, self.opp)
        if not boards:
            return 0
        return min(self.max_value(board, depth + 1) for board in boards)

    # ---- keeping track of the game: no changes needed below in this class ---------------------

    def opponent_move(self, column):
        """Check the opponent's ``column`` against self.board and drop their disc there.

        Raises:
            ValueError: saying why the column cannot take a disc; the board is then left
            unchanged.
        """
        check_column(self.board, column)
        self.place_piece(column, self.opp)

    def place_piece(self, column, piece):
        """Drop ``piece`` into ``column`` of self.board: it lands on the lowest empty cell.

        This does not check the move: call it only with a column that is on the board and not
        full (a full column is left as it is).
        """
        row = drop_row(self.board, column)
        if row is not None:
            self.board[row][column] = piece

    def print_board(self):
        """Print self.board, one row per line from the top, with the column numbers underneath."""
        for row in self.board:
            print("|" + "|".join(row) + "|")
        print(" " + " ".join(str(col % 10) for col in range(len(self.board[0]))))

    def game_value(self, state):
        """Return 1 if the AI holds four in a line in ``state``, -1 if the opponent does, 0
        otherwise."""
        rows, columns = len(state), len(state[0])

        # Four in a row across: a line can start in any row, in columns 0 to columns - 4.
        for row in range(rows):
            for col in range(columns - 3):
                piece = state[row][col]
                if piece != " " and all(state[row][col + k] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        # Four in a row down: a line can start in rows 0 to rows - 4, in any column.
        for row in range(rows - 3):
            for col in range(columns):
                piece = state[row][col]
                if piece != " " and all(state[row + k][col] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        # Four in a line down to the right, such as (0, 0), (1, 1), (2, 2), (3, 3): a line
        # can start in rows 0 to rows - 4 and in columns 0 to columns - 4.
        for row in range(rows - 3):
            for col in range(columns - 3):
                piece = state[row][col]
                if piece != " " and all(state[row + k][col + k] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        # Four in a line down to the left, such as (0, 3), (1, 2), (2, 1), (3, 0): a line can
        # start in rows 0 to rows - 4 and in columns 3 to columns - 1.
        for row in range(rows - 3):
            for col in range(3, columns):
                piece = state[row][col]
                if piece != " " and all(state[row + k][col - k] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        return 0


# ---- rules shared by the AI and the terminal game ------------------------------------------------


def drop_row(board, column):
    """Return the row where a disc dropped into ``column`` lands, or None if it is full.

    That is the largest row index whose cell in ``column`` is empty: row 0 is the top.
    """
    for row in range(len(board) - 1, -1, -1):
        if board[row][column] == " ":
            return row
    return None


def dropped(board, column, piece):
    """Return a copy of ``board`` with a disc of ``piece`` dropped into ``column`` (not full)."""
    after = [row[:] for row in board]
    after[drop_row(board, column)][column] = piece
    return after


@functools.cache
def windows(rows, columns):
    """Return every window of four cells in a line on a board of ``rows`` x ``columns``.

    Lay the rows of the board end to end in one string, top row first: cell (row, col) is
    then at index row * columns + col. Each window of four cells in a line becomes a slice
    of that string with a step: 1 across, ``columns`` down, ``columns + 1`` down to the right
    and ``columns - 1`` down to the left (every cell is one character, so this works).
    Slicing is faster than looking the four cells up one by one, and the list depends only
    on the board's size, so it is built once per size (functools.cache): it is shared, do
    not change it.
    """
    found = []
    for row in range(rows):
        for col in range(columns):
            for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_row, end_col = row + 3 * d_row, col + 3 * d_col
                if end_row < rows and 0 <= end_col < columns:
                    first = row * columns + col
                    step = d_row * columns + d_col
                    found.append(slice(first, first + 3 * step + 1, step))
    return found


def check_column(board, column):
    """Do nothing if a disc may be dropped into ``column`` of ``board``; raise ValueError if not.

    ``column`` has the format that make_move returns: an int from 0 to len(board[0]) - 1.
    """
    columns = len(board[0])
    if isinstance(column, bool) or not isinstance(column, int):
        raise ValueError(f"{column!r} is not a column: expected an int from 0 to {columns - 1}")
    if not 0 <= column < columns:
        raise ValueError(f"column {column} is off the board: columns run 0-{columns - 1}")
    if drop_row(board, column) is None:
        raise ValueError(f"column {column} is full: all {len(board)} of its rows hold a disc")


def parse_column(text, columns):
    """Return the column number typed in ``text``, such as '3'.

    Raises:
        ValueError: explaining how to name a column.
    """
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(
            f"{text.strip()!r} is not a column: type a number from 0 to {columns - 1}, like 3"
        ) from None


# ---- the terminal game: you against your AI ------------------------------------------------------


def _is_full(board):
    return all(cell != " " for cell in board[0])


def _human_turn(ai):
    """Ask the human for a legal column and drop their disc into ai.board; EOFError passes
    through."""
    columns = len(ai.board[0])
    prompt = f"Your move: drop a disc into column (0-{columns - 1}): "
    while True:
        text = input(prompt)
        try:
            column = parse_column(text, columns)
        except ValueError as error:
            print(f"{error}.")
            continue
        try:
            ai.opponent_move(column)
            return
        except ValueError as error:
            print(f"That move is not allowed: {error}. Try again.")


def _play(ai):
    turn = "r"  # red always moves first
    while True:
        ai.print_board()
        if turn == ai.my_piece:
            column = ai.make_move(ai.board)
            try:
                check_column(ai.board, column)
            except ValueError as error:
                print(f"The AI returned {column!r}, which breaks the rules: {error}.")
                print("Fix make_move (see the TODOs in game.py). The game stops here.")
                return
            ai.place_piece(column, ai.my_piece)
            print(f"The AI ({COLOURS[ai.my_piece]}) dropped a disc into column {column}.")
        else:
            _human_turn(ai)

        value = ai.game_value(ai.board)
        if value != 0:
            ai.print_board()
            if value == 1:
                print(f"The AI ({COLOURS[ai.my_piece]}) wins. Better luck next time!")
            else:
                print(f"You ({COLOURS[ai.opp]}) win. Well played!")
            return
        if _is_full(ai.board):
            ai.print_board()
            print("The board is full and nobody has four in a line, so the game is a draw.")
            return
        turn = ai.opp if turn == ai.my_piece else ai.my_piece


def main():
    """Play one game of Connect Four in the terminal: you against the AI."""
    ai = Connect4Player()
    print(
        f"Connect Four: you play {COLOURS[ai.opp]} ({ai.opp}), "
        f"the AI plays {COLOURS[ai.my_piece]} ({ai.my_piece})."
    )
    print("Red moves first. Type the number of a column to drop a disc into it.")
    try:
        _play(ai)
    except EOFError:
        print("\nNo more input, so the game ends here. Goodbye!")
    except KeyboardInterrupt:
        print("\nGame interrupted. Goodbye!")


if __name__ == "__main__":
    main()
