"""Teeko: a minimax player (answer key).

The homework starter with every TODO done, in the starter's own methods: hand it out after the
deadline. It is written to be read, not to be strong; the reference player in
solution/teeko/game.py is the strong one (the kit's benchmark).

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

How the AI chooses (the TODOs of the starter, in order):

  TODO 1  legal_moves counts a side's markers to know its phase.
  TODO 2  legal_moves lists every move; succ applies each one to a copy of the board.
  TODO 3  GOALS lists every goal once: rows, columns, both diagonals and 2x2 boxes;
          game_value looks for a goal held whole.
  TODO 4  heuristic_game_value counts, on each goal still open to one side, how many of its
          squares that side holds.
  TODO 5  max_value / min_value: plain minimax, cut off at DEPTH_LIMIT plies.
  TODO 6  make_move tries every legal move and keeps the one with the best minimax value.

Play against the AI with:  python game.py
"""

import random

MAX_PLIES = 200  # main() calls the game a draw after this many moves in total
COLUMNS = "ABCDE"
COLOURS = {"b": "black", "r": "red"}
DEPTH_LIMIT = 2  # plies searched: the AI's move and the reply; well under a second per move
NEIGHBOURS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _goals():
    """Every goal as (its four squares, the square that must stay empty or None)."""
    goals = []
    for row in range(5):
        for col in range(2):
            goals.append(([(row, col + k) for k in range(4)], None))  # across
            goals.append(([(col + k, row) for k in range(4)], None))  # down
    for row in range(2):
        for col in range(2):
            goals.append(([(row + k, col + k) for k in range(4)], None))  # down to the right
            goals.append(([(row + k, 4 - col - k) for k in range(4)], None))  # down to the left
    for row in range(4):
        for col in range(4):
            box = [(row + dr, col + dc) for dr in (0, 1) for dc in (0, 1)]
            goals.append((box, None))  # a 2x2 box
    return goals


GOALS = _goals()  # 44 goals: 10 across, 10 down, 8 diagonal and 16 boxes


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

        ``state`` is a 5x5 list of lists holding ' ', 'b' or 'r'; it is never changed: every
        move is tried on a copy.

        Returns:
            In the drop phase, a list with one (row, col) tuple: the empty square where the
            new marker goes, for example [(2, 3)].
            In the move phase, a list of two (row, col) tuples, destination first:
            [(row, col), (source_row, source_col)] moves the marker at the source to (row, col).
        """
        best_move, best_value = None, -2.0  # every value lies in [-1, 1]
        for move in self.legal_moves(state, self.my_piece):
            value = self.min_value(apply_move(state, move, self.my_piece), 1)
            if value > best_value:  # of equal moves the first is kept: same board, same move
                best_move, best_value = move, value
        return best_move

    def legal_moves(self, state, piece):
        """Return every move ``piece`` may play on ``state``, in make_move's format."""
        empty = [(r, c) for r in range(5) for c in range(5) if state[r][c] == " "]
        placed = sum(row.count(piece) for row in state)
        if placed < 4:  # the drop phase lasts while fewer than 4 markers are down
            return [[square] for square in empty]
        moves = []
        for r in range(5):
            for c in range(5):
                if state[r][c] != piece:
                    continue
                for dr, dc in NEIGHBOURS:
                    row, col = r + dr, c + dc
                    if 0 <= row < 5 and 0 <= col < 5 and state[row][col] == " ":
                        moves.append([(row, col), (r, c)])
        return moves

    def succ(self, state, piece):
        """Return every board that ``piece`` can reach from ``state`` in one legal move.

        Each is a new board (see apply_move): ``state`` itself never changes.
        """
        return [apply_move(state, move, piece) for move in self.legal_moves(state, piece)]

    def heuristic_game_value(self, state, mover=None):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        A finished game scores its game_value. Otherwise each goal still open to one side
        (the other holds none of its squares and, for corners, its centre is empty) adds the
        square of the number of squares that side holds there, for the AI, or takes it away,
        for the opponent. The total is squashed into (-1, 1) so that a real win or loss
        always ranks first. ``mover`` is the side that just moved (see game_value).
        """
        value = self.game_value(state, mover)
        if value != 0:
            return value
        total = 0
        for squares, centre in GOALS:
            if centre is not None and state[centre[0]][centre[1]] != " ":
                continue
            pieces = [state[r][c] for r, c in squares]
            mine, theirs = pieces.count(self.my_piece), pieces.count(self.opp)
            if theirs == 0:
                total += mine * mine
            elif mine == 0:
                total -= theirs * theirs
        return total / (abs(total) + 20)

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        The opponent has just moved into ``state``. The search stops at a goal or when
        ``depth`` reaches DEPTH_LIMIT, and there the board is estimated.
        """
        if depth >= DEPTH_LIMIT or self.game_value(state, self.opp) != 0:
            return self.heuristic_game_value(state, self.opp)
        values = [self.min_value(s, depth + 1) for s in self.succ(state, self.my_piece)]
        return max(values, default=self.heuristic_game_value(state, self.opp))

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        The mirror image of max_value: the AI has just moved into ``state``.
        """
        if depth >= DEPTH_LIMIT or self.game_value(state, self.my_piece) != 0:
            return self.heuristic_game_value(state, self.my_piece)
        values = [self.max_value(s, depth + 1) for s in self.succ(state, self.opp)]
        return min(values, default=self.heuristic_game_value(state, self.my_piece))

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

    def game_value(self, state, mover=None):
        """Return 1 if the AI holds a goal in ``state``, -1 if the opponent does, 0 otherwise.

        In Teeko a move never completes the other side's goal, so ``mover`` (the side that
        just moved) is never needed to tell who won; it is kept so that the search reads the
        same as in Teeko2.
        """
        holders = set()
        for squares, centre in GOALS:
            first = state[squares[0][0]][squares[0][1]]
            if first == " " or any(state[r][c] != first for r, c in squares):
                continue
            if centre is None or state[centre[0]][centre[1]] == " ":
                holders.add(first)
        if len(holders) == 2 and mover is not None:
            return 1 if mover == self.my_piece else -1
        if self.my_piece in holders:
            return 1
        return -1 if self.opp in holders else 0


# ---- rules shared by the AI and the terminal game ------------------------------------------------


def apply_move(board, move, piece):
    """Return a copy of ``board`` with ``piece`` played ``move`` (make_move's format)."""
    after = [row[:] for row in board]
    if len(move) > 1:
        source_row, source_col = move[1]
        after[source_row][source_col] = " "
    row, col = move[0]
    after[row][col] = piece
    return after


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
