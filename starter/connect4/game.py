"""Connect Four: your minimax player (homework starter).

Connect Four is played by red ('r') and yellow ('y') on an upright board of 7 columns and 6
rows; red moves first.

* A move drops one of your discs into a column. The disc falls as far as it can: it lands on
  the lowest empty cell of that column. A full column takes no more discs.
* You win the moment you hold four discs in a line: across (a row), up and down (a column)
  or along either diagonal.
* If the board fills up and nobody has a line of four, the game is a draw.

The board is a list of rows, row 0 at the top as it is printed, each row a list of cells
holding ' ', 'r' or 'y'; columns are numbered from 0 at the left. A disc dropped into column
c lands in the largest row r with state[r][c] == ' '. Your code must work on any board size:
always read the number of rows and columns from the board, as len(state) and len(state[0]),
never write 6 or 7.

As shipped, the AI drops its disc into a random column every turn, even a full one, which is
against the rules. Your job is to make it play well, in this order:

  TODO 1  succ: list every board reachable by dropping one disc.
  TODO 2  game_value: also find the lines of four along the two diagonals.
  TODO 3  heuristic_game_value: score boards where the game is not over yet.
  TODO 4  max_value / min_value: minimax with a depth cutoff.
  TODO 5  make_move: choose the column with minimax and return it as an int.

You may add helper methods and functions, but keep the names and parameters of the methods
that are already here: the grader calls them. You may use Python's standard library and
numpy, nothing else (the grader has nothing else installed), and nothing may be printed
outside main() (debug output costs points).

Play against your AI with:  python game.py
"""

import random

COLOURS = {"r": "red", "y": "yellow"}


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

        ``state`` is a list of rows (row 0 at the top) holding ' ', 'r' or 'y'. Do not change
        it, nor self.board: work on copies when you try moves out.

        Returns:
            The column, a plain int from 0 (the left column) to len(state[0]) - 1. It must not
            be full. Not a list, a tuple, a string or a bool: just the int, for example 3.
        """
        # TODO 5: Replace the random choice below with minimax. For each column that is not
        # full, drop self.my_piece into it on a copy of state (TODO 1 does the same work):
        # the opponent moves next, so that board's value is self.min_value(board, 1) (TODO 4).
        # Return the column whose board has the highest value. Until you do, the AI picks any
        # column at all, even a full one, which the rules forbid.
        return random.randrange(len(state[0]))

    def succ(self, state, piece):
        """Return every board that ``piece`` can reach from ``state`` by dropping one disc.

        TODO 1: There is one successor for each column that is not full (a column is full
        when its top cell, state[0][col], holds a disc). Build each successor on a copy of
        state ([row[:] for row in state], or copy.deepcopy(state)) so that ``state`` itself
        never changes, and put ``piece`` in the cell where the disc lands: drop_row(state,
        col) below finds that row for you. Minimax needs this list to look ahead; you may
        also return the column that leads to each board.
        """
        raise NotImplementedError("TODO 1: write succ")

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        TODO 3: First call self.game_value(state); if the game is over, return that value.
        Otherwise estimate who is closer to a line of four. One way: look at every window of
        four cells in a line (across, down and along both diagonals, the places game_value
        searches); a window that holds discs of one side only is still open to that side, and
        the more of its cells that side holds, the better for it. Add up what the AI's open
        windows are worth and take away what the opponent's are worth. Minimax uses this
        score at the depth cutoff, where it cannot see the end of the game; keep it strictly
        between -1 and 1 (for example total / (abs(total) + 20)) so that real wins and losses
        still rank first.
        """
        raise NotImplementedError("TODO 3: write heuristic_game_value")

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        TODO 4: If the game is over in state (game_value is not 0) or ``depth`` has reached
        your depth limit, return self.heuristic_game_value(state). Otherwise return the
        largest self.min_value(s, depth + 1) over the successors s of state for
        self.my_piece; a full board has no successors, and is a draw. The search starts at
        make_move's state with depth 0. Pick the depth limit by timing make_move: each move
        must take at most 5 seconds, and every extra level of depth multiplies the work by
        about the number of columns.

        Tip: a win found now should be worth a little more than a win found a few moves
        later (and a loss later a little less bad than a loss now); otherwise your AI may put
        off a win it could take at once, or give up early when it is losing.
        """
        raise NotImplementedError("TODO 4: write max_value")

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        TODO 4: The mirror image of max_value: the same stopping test, then the smallest
        self.max_value(s, depth + 1) over the successors s of state for self.opp.
        """
        raise NotImplementedError("TODO 4: write min_value")

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

        # TODO 2a: Diagonal lines going down to the right, such as (0, 0), (1, 1), (2, 2),
        # (3, 3): each cell is one row lower and one column further right than the last. Which
        # rows and columns can such a line start from without running off the board?
        # Without this check the AI cannot see these wins, for itself or for its opponent,
        # and neither can the terminal game.

        # TODO 2b: Diagonal lines going down to the left, such as (0, 3), (1, 2), (2, 1),
        # (3, 0): each cell is one row lower and one column further left than the last.

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
