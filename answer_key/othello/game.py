"""Othello: a minimax player (answer key).

The homework starter with every TODO done, in the starter's own methods: hand it out after the
deadline. It is written to be read, not to be strong: plain minimax to a fixed depth, without
pruning, on the course's lists of rows. The reference player in solution/othello/game.py is
the strong one (the kit's benchmark).

Othello is played by black ('b') and white ('w') on a square board of 6 rows and 6 columns;
black moves first. The game starts with four discs in the centre, two of each colour.

* A move puts one of your discs on an empty square so that it outflanks the opponent: in at
  least one of the eight directions (across, up and down, or diagonal) the squares next to
  it hold a line of one or more of the opponent's discs, closed at the far end by one of
  yours. Every disc you outflank that way, in every direction, turns over to your colour.
* If you have no such square you must pass, and the opponent moves again.
* The game ends when neither side can move (often because the board is full). Whoever has
  more discs then wins; equal counts are a draw.

The board is a list of rows, row 0 at the top as it is printed, each row a list of cells
holding ' ', 'b' or 'w'; columns are numbered from 0 at the left. A square is named
(row, col). The code plays on any even board size: it reads the size from the board, as
len(state).

How the AI chooses (the TODOs of the starter, in order):

  TODO 1  succ plays each legal square on a copy of the board, with the square.
  TODO 2  game_value counts the discs once neither side has a legal square.
  TODO 3  heuristic_game_value weighs corners, mobility and discs.
  TODO 4  max_value / min_value: plain minimax, cut off at DEPTH_LIMIT plies; a side with no
          legal square passes and the other moves again.
  TODO 5  make_move keeps the legal square with the best minimax value.

make_move never returns a pass: the grader (and the terminal game below) passes for the AI
when it has no legal square, and make_move is only called when it has one.

Play against the AI with:  python game.py
"""

import random

COLOURS = {"b": "black", "w": "white"}
DEPTH_LIMIT = 2  # plies searched: the AI's move and the opponent's reply, then the heuristic
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


class OthelloPlayer:
    """An AI that plays Othello against one opponent."""

    board = [[" "] * 6 for _ in range(6)]  # 6 rows of 6 columns, row 0 at the top
    board[2][2], board[2][3], board[3][2], board[3][3] = "w", "b", "b", "w"
    pieces = ["b", "w"]

    def __init__(self):
        """Pick this AI's colour at random; the opponent gets the other one."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # The class attribute above is one list shared by every player; give this player a
        # fresh copy so that two players never write on the same board.
        self.board = [row[:] for row in self.board]

    # ---- the AI ------------------------------------------------------------------------------

    def make_move(self, state) -> tuple:
        """Choose the square where the AI puts its next disc on the board ``state``.

        ``state`` is a list of rows (row 0 at the top) holding ' ', 'b' or 'w'. Do not change
        it, nor self.board: work on copies when you try moves out. It is only called when
        the AI has a legal square.

        Returns:
            The square as a tuple of two plain ints (row, col), each from 0 to len(state) - 1,
            for example (2, 4). It must be legal: empty, and outflanking at least one disc.
            Not a list, a string or a pass.
        """
        best_square, best_value = None, -2.0
        for square, board in self.succ(state, self.my_piece):
            value = self.min_value(board, 1)
            if value > best_value:
                best_square, best_value = square, value
        return best_square

    def succ(self, state, piece):
        """Return every board that ``piece`` can reach from ``state`` with one legal move.

        Each successor comes with the square that leads to it, as (square, board), row by
        row; a side with no legal square has none (it must pass).
        """
        found = []
        for square in legal_moves(state, piece):
            board = [row[:] for row in state]
            play_move(board, square, piece)
            found.append((square, board))
        return found

    def game_value(self, state):
        """Return 1 if the game is over and the AI has more discs, -1 if it is over and the
        opponent has more, and 0 otherwise (the game goes on, or it ended in a draw).

        The game is over when neither side has a legal square.
        """
        if legal_moves(state, self.my_piece) or legal_moves(state, self.opp):
            return 0
        mine, theirs = count(state, self.my_piece), count(state, self.opp)
        return 1 if mine > theirs else -1 if theirs > mine else 0

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        A finished game is worth its game_value. Otherwise corners count ten, legal squares
        (mobility) two and discs one, each as the AI's less the opponent's, squashed into
        (-1, 1).
        """
        if self.is_over(state):
            return self.game_value(state)
        last = len(state) - 1
        corners = [state[r][c] for r in (0, last) for c in (0, last)]
        total = 10 * (corners.count(self.my_piece) - corners.count(self.opp))
        mobility = len(legal_moves(state, self.my_piece)) - len(legal_moves(state, self.opp))
        total += 2 * mobility + count(state, self.my_piece) - count(state, self.opp)
        return total / (abs(total) + 20)

    def is_over(self, state):
        """Whether neither side has a legal square."""
        return not legal_moves(state, self.my_piece) and not legal_moves(state, self.opp)

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        A side with no legal square passes: the other side moves again on the same board.
        """
        if self.is_over(state) or depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(state)
        boards = self.succ(state, self.my_piece)
        if not boards:
            return self.min_value(state, depth + 1)
        return max(self.min_value(board, depth + 1) for _, board in boards)

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        The mirror image of max_value.
        """
        if self.is_over(state) or depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(state)
        boards = self.succ(state, self.opp)
        if not boards:
            return self.max_value(state, depth + 1)
        return min(self.max_value(board, depth + 1) for _, board in boards)

    # ---- keeping track of the game: no changes needed below in this class ---------------------

    def opponent_move(self, move):
        """Check the opponent's ``move``, a square (row, col), against self.board and play it.

        Raises:
            ValueError: saying why the square cannot take a disc; the board is then left
            unchanged.
        """
        check_square(self.board, move, self.opp)
        self.place_piece(move, self.opp)

    def place_piece(self, move, piece):
        """Put ``piece`` on the square ``move`` of self.board and turn over what it outflanks.

        This does not check the move: call it only with a legal square.
        """
        play_move(self.board, move, piece)

    def print_board(self):
        """Print self.board: the column numbers on top, then each row after its number."""
        size = len(self.board)
        print("   " + " ".join(str(col % 10) for col in range(size)))
        for number, row in enumerate(self.board):
            print(f"{number % 10} |" + "|".join(row) + "|")


# ---- rules shared by the AI and the terminal game ------------------------------------------------


def flipped(board, row, col, piece):
    """Return the squares whose discs a disc of ``piece`` on (row, col) would turn over.

    The list is empty when the square outflanks nothing (or is taken): then it is no move.
    """
    size = len(board)
    if board[row][col] != " ":
        return []
    other = "w" if piece == "b" else "b"
    turned = []
    for dr, dc in DIRECTIONS:
        line = []
        r, c = row + dr, col + dc
        while 0 <= r < size and 0 <= c < size and board[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < size and 0 <= c < size and board[r][c] == piece:
            turned.extend(line)
    return turned


def legal_moves(board, piece):
    """Return the squares (row, col) where ``piece`` may play, row by row."""
    size = len(board)
    return [
        (row, col) for row in range(size) for col in range(size) if flipped(board, row, col, piece)
    ]


def play_move(board, move, piece):
    """Put ``piece`` on the square ``move`` of ``board`` and turn over every disc it outflanks.

    This changes ``board`` itself; it does not check that the move is legal.
    """
    row, col = move
    for r, c in flipped(board, row, col, piece):
        board[r][c] = piece
    board[row][col] = piece


def check_square(board, move, piece):
    """Do nothing if ``piece`` may play ``move`` on ``board``; raise ValueError if not.

    ``move`` has the format that make_move returns: a tuple of two ints (row, col).
    """
    size = len(board)
    if not isinstance(move, tuple) or len(move) != 2:
        raise ValueError(f"{move!r} is not a square: expected a tuple (row, col)")
    row, col = move
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in move):
        raise ValueError(f"{move!r} is not a square: row and column are ints")
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"({row}, {col}) is off the board: rows and columns run 0-{size - 1}")
    if board[row][col] != " ":
        raise ValueError(f"({row}, {col}) already holds a disc")
    if not flipped(board, row, col, piece):
        raise ValueError(f"({row}, {col}) outflanks nothing: it must turn over a disc")


def parse_square(text):
    """Return the square typed in ``text``, such as '2 4' or '2,4', as (row, col).

    Raises:
        ValueError: explaining how to name a square.
    """
    parts = text.replace(",", " ").split()
    try:
        row, col = (int(part) for part in parts)
    except ValueError:
        raise ValueError(
            f"{text.strip()!r} is not a square: type its row and column, like 2 4"
        ) from None
    return (row, col)


def count(board, piece):
    """The number of ``piece``'s discs on ``board``."""
    return sum(row.count(piece) for row in board)


# ---- the terminal game: you against your AI ------------------------------------------------------


def _human_turn(ai):
    """Ask the human for a legal square and play it on ai.board; EOFError passes through."""
    while True:
        text = input("Your move: type the row and column of a square (like 2 4): ")
        try:
            move = parse_square(text)
        except ValueError as error:
            print(f"{error}.")
            continue
        try:
            ai.opponent_move(move)
            return
        except ValueError as error:
            print(f"That move is not allowed: {error}. Try again.")


def _play(ai):
    turn = "b"  # black always moves first
    while legal_moves(ai.board, "b") or legal_moves(ai.board, "w"):
        ai.print_board()
        if not legal_moves(ai.board, turn):
            print(f"{COLOURS[turn].capitalize()} has no legal square and passes.")
        elif turn == ai.my_piece:
            move = ai.make_move(ai.board)
            try:
                check_square(ai.board, move, ai.my_piece)
            except ValueError as error:
                print(f"The AI returned {move!r}, which breaks the rules: {error}.")
                print("Fix make_move (see the TODOs in game.py). The game stops here.")
                return
            ai.place_piece(move, ai.my_piece)
            print(f"The AI ({COLOURS[ai.my_piece]}) played {move}.")
        else:
            _human_turn(ai)
        turn = ai.opp if turn == ai.my_piece else ai.my_piece
    ai.print_board()
    mine, theirs = count(ai.board, ai.my_piece), count(ai.board, ai.opp)
    if mine > theirs:
        print(f"The AI ({COLOURS[ai.my_piece]}) wins, {mine} discs to {theirs}.")
    elif theirs > mine:
        print(f"You ({COLOURS[ai.opp]}) win, {theirs} discs to {mine}. Well played!")
    else:
        print(f"Neither side can move and the discs are level, {mine} each: a draw.")


def main():
    """Play one game of Othello in the terminal: you against the AI."""
    ai = OthelloPlayer()
    print(
        f"Othello: you play {COLOURS[ai.opp]} ({ai.opp}), "
        f"the AI plays {COLOURS[ai.my_piece]} ({ai.my_piece})."
    )
    print("Black moves first. Type a square's row and column to put a disc there.")
    try:
        _play(ai)
    except EOFError:
        print("\nNo more input, so the game ends here. Goodbye!")
    except KeyboardInterrupt:
        print("\nGame interrupted. Goodbye!")


if __name__ == "__main__":
    main()
