"""Teeko: your minimax player (homework starter).

Teeko is played on a 5x5 board by black ('b') and red ('r'); black moves first and each side
has 4 markers.

* Drop phase: while you have fewer than 4 markers on the board, a move places one of them
  on any empty square.
* Move phase: once all 8 markers are down, a move slides one of your markers to an empty
  square next to it (diagonal neighbours count; nothing wraps around the edge).
* You win the moment you hold a goal: 4 markers in a row horizontally, vertically or
  diagonally, or 4 markers forming a 2x2 box.

Rows are numbered 0-4 from the top and columns 0-4 from the left. The terminal game names a
square by column letter then row digit, so B3 is row 3, column 1.

As shipped, the AI drops a marker on a random empty square every turn, even after the drop
phase is over, when that is against the rules. Your job is to make it play well, in this order:

  TODO 1  make_move: find out whether the AI is still in the drop phase.
  TODO 2  succ: list every position reachable in one legal move.
  TODO 3  game_value: also find diagonal lines and 2x2 boxes.
  TODO 4  heuristic_game_value: score positions that are not over yet.
  TODO 5  max_value / min_value: minimax with a depth cutoff.
  TODO 6  make_move: pick the best move with minimax and return it in the right format.

You may add helper methods and functions, but keep the names and parameters of the methods
that are already here: the grader calls them. You may use Python's standard library and
numpy, nothing else (the grader has nothing else installed), and nothing may be printed
outside main() (debug output costs points).

Play against your AI with:  python game.py
"""

import random

MAX_PLIES = 200  # main() calls the game a draw after this many moves in total
COLUMNS = "ABCDE"
COLOURS = {"b": "black", "r": "red"}


class TeekoPlayer:
    """An AI that plays Teeko against one opponent."""

    board = [[" " for j in range(5)] for i in range(5)]
    pieces = ["b", "r"]

    def __init__(self):
        """Pick this AI's colour at random; the opponent gets the other one."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # The class attribute above is one list shared by every player; give this player a
        # fresh copy so that two players never write on the same board.
        self.board = [row[:] for row in self.board]

    # ---- the AI ------------------------------------------------------------------------------

    def make_move(self, state) -> list:
        """Choose the AI's next move on the board ``state`` and return it.

        ``state`` is a 5x5 list of lists holding ' ', 'b' or 'r'. Do not change it, nor
        self.board: work on copies (copy.deepcopy) when you try moves out.

        Returns:
            In the drop phase, a list with one (row, col) tuple: the empty square where the
            new marker goes, for example [(2, 3)].
            In the move phase, a list of two (row, col) tuples, destination first:
            [(row, col), (source_row, source_col)] moves the marker at the source to (row, col).
        """
        # TODO 1: Replace True by a real test. The AI is in the drop phase while fewer than 4
        # of its own markers (self.my_piece) are on the board. The answer decides which
        # kind of move is legal now.
        drop_phase = True

        if not drop_phase:
            # TODO 6 (move phase): choose one of your markers and an empty square next to it,
            # and return [(row, col), (source_row, source_col)]. Until you do, the code below
            # keeps dropping new markers, which the rules forbid in this phase.
            pass

        # TODO 6: Replace the random choice below with minimax. For each successor s of
        # state for self.my_piece (TODO 2), the opponent moves next, so its value is
        # self.min_value(s, 1) (TODO 5). Keep the successor with the highest value and turn
        # the difference between it and ``state`` into a move in the format described above.
        empty = [(row, col) for row in range(5) for col in range(5) if state[row][col] == " "]
        row, col = random.choice(empty)
        return [(row, col)]

    def succ(self, state, piece):
        """Return every board that ``piece`` can reach from ``state`` in one legal move.

        TODO 2: In the drop phase (fewer than 4 markers of ``piece`` on the board), each
        successor has one more ``piece`` on an empty square. In the move phase, each successor
        has one marker of ``piece`` moved to an empty neighbouring square (8 directions,
        staying on the board: no wrapping from column 4 to column 0). Build each successor on
        a copy (copy.deepcopy(state)) so that ``state`` itself never changes. Minimax needs
        this list to look ahead; you may also return the move that leads to each board.
        """
        raise NotImplementedError("TODO 2: write succ")

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        TODO 4: First call self.game_value(state); if the game is over, return that value.
        Otherwise estimate who is closer to a goal, for example by counting, for each goal
        (line or box), how many of its squares each side holds when the other side holds none
        of them. Minimax uses this score at the depth cutoff, where it cannot see the end of
        the game; keep it strictly between -1 and 1 so real wins and losses still rank first.
        """
        raise NotImplementedError("TODO 4: write heuristic_game_value")

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        TODO 5: If state is over (game_value is not 0) or ``depth`` has reached your depth
        limit, return self.heuristic_game_value(state). Otherwise return the largest
        self.min_value(s, depth + 1) over the successors s of state for self.my_piece.
        The search starts at make_move's state with depth 0. Pick the depth limit by timing
        make_move: each move must take at most 5 seconds, and every extra level of depth
        multiplies the work by roughly the number of successors.
        """
        raise NotImplementedError("TODO 5: write max_value")

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        TODO 5: The mirror image of max_value: the same stopping test, then the smallest
        self.max_value(s, depth + 1) over the successors s of state for self.opp.
        """
        raise NotImplementedError("TODO 5: write min_value")

    # ---- keeping track of the game: no changes needed below in this class ---------------------

    def opponent_move(self, move):
        """Check the opponent's ``move`` against self.board and apply it.

        ``move`` has the same format as the return value of make_move.

        Raises:
            ValueError: saying which rule the move breaks; the board is then left unchanged.
        """
        check_move(self.board, move, self.opp)
        self.place_piece(move, self.opp)

    def place_piece(self, move, piece):
        """Put ``piece`` on the destination of ``move``, emptying the source if there is one.

        This does not check the move: call it only with legal moves.
        """
        if len(move) > 1:
            source_row, source_col = move[1]
            self.board[source_row][source_col] = " "
        row, col = move[0]
        self.board[row][col] = piece

    def print_board(self):
        """Print self.board, one row per line, with the column letters underneath."""
        for number, row in enumerate(self.board):
            line = str(number) + ": "
            for cell in row:
                line += cell + " "
            print(line)
        print("   A B C D E")

    def game_value(self, state):
        """Return 1 if the AI holds a goal in ``state``, -1 if the opponent does, 0 otherwise."""
        # Four in a row across: each row has two places for a line of 4 (columns 0-3, 1-4).
        for row in range(5):
            for col in range(2):
                piece = state[row][col]
                if piece != " " and all(state[row][col + k] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        # Four in a row down: each column has two places for a line of 4 (rows 0-3, 1-4).
        for row in range(2):
            for col in range(5):
                piece = state[row][col]
                if piece != " " and all(state[row + k][col] == piece for k in range(4)):
                    return 1 if piece == self.my_piece else -1

        # TODO 3a: Diagonal lines going down to the right, such as (0, 0), (1, 1), (2, 2),
        # (3, 3). There are 4 of them: they start at (0, 0), (0, 1), (1, 0) and (1, 1).
        # Without this check the AI cannot see these wins, for itself or for its opponent.

        # TODO 3b: Diagonal lines going down to the left, such as (0, 3), (1, 2), (2, 1),
        # (3, 0). There are 4 of them too: they start at (0, 3), (0, 4), (1, 3) and (1, 4).

        # TODO 3c: 2x2 boxes: (row, col), (row, col + 1), (row + 1, col) and
        # (row + 1, col + 1) all hold the same piece. There are 16 of them (row and col 0-3).

        return 0


# ---- rules shared by the AI and the terminal game ------------------------------------------------


def square_name(row, col):
    """Return the name of the square at (row, col) in the terminal game, like 'B3'."""
    return COLUMNS[col] + str(row)


def parse_square(text):
    """Return the (row, col) of a square name such as 'B3' or 'b3'.

    Raises:
        ValueError: explaining how to write a square.
    """
    name = text.strip().upper()
    if len(name) != 2 or name[0] not in COLUMNS or name[1] not in "01234":
        raise ValueError(
            f"{text.strip()!r} is not a square: type a column letter A-E and then "
            "a row digit 0-4, like B3"
        )
    return int(name[1]), COLUMNS.index(name[0])


def check_move(board, move, piece):
    """Do nothing if ``piece`` may play ``move`` on ``board``; raise ValueError if not.

    ``move`` has the format that make_move returns: [(row, col)] to drop a new marker, or
    [(row, col), (source_row, source_col)] to move the marker at the source.
    """
    colour = COLOURS.get(piece, repr(piece))
    if not isinstance(move, (list, tuple)) or len(move) not in (1, 2):
        raise ValueError(
            f"{move!r} is not a move: expected [(row, col)] or "
            "[(row, col), (source_row, source_col)]"
        )
    for square in move:
        if not (
            isinstance(square, (list, tuple))
            and len(square) == 2
            and all(isinstance(value, int) for value in square)
        ):
            raise ValueError(f"{square!r} is not a square: expected a (row, col) pair of ints")
        if not (0 <= square[0] < 5 and 0 <= square[1] < 5):
            raise ValueError(f"{tuple(square)} is off the board: rows and columns run 0-4")

    placed = sum(row.count(piece) for row in board)
    row, col = move[0]
    target = square_name(row, col)
    if len(move) == 1:
        if placed >= 4:
            raise ValueError(
                f"the drop phase is over for {colour}: all 4 of its markers are on the board, "
                "so it must move one of them to an adjacent empty square instead of "
                "placing another"
            )
    else:
        if placed < 4:
            raise ValueError(
                f"{colour} is still in the drop phase ({placed} of 4 markers placed), "
                "so it must place a new marker instead of moving one"
            )
        source_row, source_col = move[1]
        source = square_name(source_row, source_col)
        if board[source_row][source_col] != piece:
            raise ValueError(f"{source} does not hold a {colour} marker")
        if max(abs(row - source_row), abs(col - source_col)) != 1:
            raise ValueError(
                f"{target} is not next to {source}: a marker moves to one of the 8 squares "
                "around it"
            )
    if board[row][col] != " ":
        raise ValueError(f"{target} is already occupied")


# ---- the terminal game: you against your AI ------------------------------------------------------


def _count(board, piece):
    return sum(row.count(piece) for row in board)


def _describe(move):
    if len(move) == 1:
        return "placed a marker on " + square_name(*move[0])
    return f"moved {square_name(*move[1])} to {square_name(*move[0])}"


def _ask_square(prompt):
    """Ask until the answer is a square name; EOFError passes through."""
    while True:
        text = input(prompt)
        try:
            return parse_square(text)
        except ValueError as error:
            print(f"{error}.")


def _human_turn(ai):
    """Ask the human for a legal move and apply it to ai.board."""
    human = ai.opp
    while True:
        if _count(ai.board, human) < 4:
            move = [_ask_square("Place a marker on (for example B3): ")]
        else:
            source = _ask_square("Move from: ")
            if ai.board[source[0]][source[1]] != human:
                print(f"{square_name(*source)} does not hold one of your markers ({human}).")
                continue
            move = [_ask_square("Move to: "), source]
        try:
            ai.opponent_move(move)
            return
        except ValueError as error:
            print(f"That move is not allowed: {error}. Try again.")


def _play(ai):
    turn = "b"  # black always moves first
    for _ in range(MAX_PLIES):
        ai.print_board()
        if turn == ai.my_piece:
            move = ai.make_move(ai.board)
            try:
                check_move(ai.board, move, ai.my_piece)
            except ValueError as error:
                print(f"The AI returned {move!r}, which breaks the rules: {error}.")
                print("Fix make_move (see the TODOs in game.py). The game stops here.")
                return
            ai.place_piece(move, ai.my_piece)
            print(f"The AI ({COLOURS[ai.my_piece]}) {_describe(move)}.")
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
        turn = ai.opp if turn == ai.my_piece else ai.my_piece

    ai.print_board()
    print(f"Nobody won in {MAX_PLIES} moves, so the game is a draw.")


def main():
    """Play one game of Teeko in the terminal: you against the AI."""
    ai = TeekoPlayer()
    print(f"Teeko: you play {COLOURS[ai.opp]} ({ai.opp}), the AI plays {COLOURS[ai.my_piece]}.")
    print("Black moves first. Name a square by column and row, like B3.")
    try:
        _play(ai)
    except EOFError:
        print("\nNo more input, so the game ends here. Goodbye!")
    except KeyboardInterrupt:
        print("\nGame interrupted. Goodbye!")


if __name__ == "__main__":
    main()
