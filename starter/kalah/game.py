"""Kalah: your minimax player (homework starter).

Kalah is played by south ('S') and north ('N') on a board of two rows of 6 pits, 4 seeds in
each pit, and a store for each side; south moves first.

* A move takes every seed from one of your pits that is not empty and sows them one at a time
  into the pits that follow, counter-clockwise: the rest of your pits, then your store, then
  your opponent's pits (never your opponent's store), then your own pits again.
* If the last seed lands in your own store, you move again: one player can move twice (or
  more) in a row.
* If the last seed lands in one of your own pits that was empty, and the opponent's pit
  opposite it holds seeds, you capture: that seed and all the seeds of the opposite pit go
  into your store. (Opposite an empty pit, the seed just stays.)
* The game ends when the player to move has no seed in its pits: every seed still in a pit
  goes to the store of the side that pit belongs to. More seeds in your store wins; equal is
  a draw.

The board is a list of two rows: board[0] is south's and board[1] is north's. Each row holds
its side's pits in sowing order, numbered from 0, then its store: with 6 pits, board[0][6] is
south's store. The pit opposite pit i is pit (pits - 1 - i) of the other row. Your code must
work on any number of pits: read it from the board, as len(state[0]) - 1, never write 6.

As shipped, the AI sows a random pit every turn, even an empty one, which is against the
rules. Your job is to make it play well, in this order:

  TODO 1  succ: list every move of a side, with the board it leads to and whether the same
          side moves again (sow_board() below does the sowing for you).
  TODO 2  game_value: tell a finished game from one still going, and who won it.
  TODO 3  heuristic_game_value: score boards where the game is not over yet.
  TODO 4  max_value / min_value: minimax with a depth cutoff, that knows who moves next: after
          a move that ends in your own store it is your move again, not the opponent's.
  TODO 5  make_move: choose the pit with minimax and return it as an int.

You may add helper methods and functions, but keep the names and parameters of the methods
that are already here: the grader calls them. You may use Python's standard library and
numpy, nothing else (the grader has nothing else installed), and nothing may be printed
outside main() (debug output costs points).

Play against your AI with:  python game.py
"""

import random

SIDES = {"S": "south", "N": "north"}


class KalahPlayer:
    """An AI that plays Kalah against one opponent."""

    board = [[4] * 6 + [0], [4] * 6 + [0]]  # south's row, north's row: 6 pits, then the store
    pieces = ["S", "N"]

    def __init__(self):
        """Pick this AI's side at random; the opponent gets the other one."""
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        # The class attribute above is one list shared by every player; give this player a
        # fresh copy so that two players never write on the same board.
        self.board = [row[:] for row in self.board]

    # ---- the AI ------------------------------------------------------------------------------

    def make_move(self, state) -> int:
        """Choose the pit the AI sows next on the board ``state``; it is the AI's move.

        ``state`` is the board: [south's row, north's row], each its pits and then its store.
        Do not change it, nor self.board: work on copies when you try moves out.

        Returns:
            The pit, a plain int from 0 to len(state[0]) - 2, of the AI's own row. It must not
            be empty. Not a list, a tuple, a string or a bool: just the int, for example 3.
        """
        # TODO 5: Replace the random choice below with minimax. For each of your moves (TODO
        # 1 lists them with the board each leads to), the next mover decides how to value that
        # board: yourself again when the move ended in your store (self.max_value), else the
        # opponent (self.min_value), at depth 1 (TODO 4). Return the pit with the highest
        # value. Until you do, the AI picks any pit at all, even an empty one, which the rules
        # forbid.
        return random.randrange(len(state[0]) - 1)

    def succ(self, state, piece):
        """Return every move ``piece`` can make on ``state``, as (pit, board, again) triples.

        TODO 1: There is one move for each of piece's pits that is not empty. For each one,
        sow_board(state, row, pit) below gives the board after it (a new board: ``state``
        itself does not change) and whether the same side moves again; row is 0 for 'S' and
        1 for 'N' (self.pieces.index(piece)). Minimax needs this list to look ahead.
        """
        raise NotImplementedError("TODO 1: write succ")

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        TODO 3: First call self.game_value(state); if the game is over, return that value.
        Otherwise estimate who is ahead. The seeds in the stores are a good start (your store
        less your opponent's); the seeds still on each side of the board count too, a little
        less, since they may yet be captured. Minimax uses this score at the depth cutoff,
        where it cannot see the end of the game; keep it strictly between -1 and 1 (for example
        total / (abs(total) + 20)) so that real wins and losses still rank first.
        """
        raise NotImplementedError("TODO 3: write heuristic_game_value")

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        TODO 4: If the game is over in state or ``depth`` has reached your depth limit, return
        self.heuristic_game_value(state). Otherwise look at every (pit, board, again) in
        self.succ(state, self.my_piece): when ``again`` is true the AI moves again, so that
        board is worth self.max_value(board, depth + 1); otherwise the opponent moves next and
        it is worth self.min_value(board, depth + 1). Return the largest. The search starts at
        make_move's state with depth 0. Pick the depth limit by timing make_move: each move
        must take at most 5 seconds.
        """
        raise NotImplementedError("TODO 4: write max_value")

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move.

        TODO 4: The mirror image of max_value: the same stopping test, then the smallest value
        over the opponent's moves (self.succ(state, self.opp)); after one that ends in the
        opponent's store it is still the opponent's move (self.min_value), else the AI's
        (self.max_value).
        """
        raise NotImplementedError("TODO 4: write min_value")

    def game_value(self, state):
        """Return 1 if the game on ``state`` is over and the AI won it, -1 if it is over and the
        opponent won it, 0 otherwise (a game still going, or a draw).

        TODO 2: sow_board() ends a game for you: when the player to move has no seed left in
        its pits, every seed left on the board goes to its side's store. So the game is over
        when no pit of either row holds a seed; then compare the two stores (the last cell of
        each row). Without this check the AI cannot see the end of the game.
        """
        return 0

    # ---- keeping track of the game: no changes needed below in this class ---------------------

    def opponent_move(self, pit):
        """Check the opponent's ``pit`` against self.board and sow it.

        Raises:
            ValueError: saying why the pit cannot be sown; the board is then left unchanged.
        """
        check_pit(self.board, self.pieces.index(self.opp), pit)
        self.sow(pit, self.opp)

    def sow(self, pit, piece):
        """Sow ``piece``'s ``pit`` on self.board; return True when ``piece`` moves again.

        This does not check the move: call it only with a pit of piece's that is not empty.
        """
        board, again = sow_board(self.board, self.pieces.index(piece), pit)
        self.board[0][:], self.board[1][:] = board
        return again

    def print_board(self):
        """Print self.board as it lies between the players: north's pits along the top, right
        to left, south's along the bottom, the stores at the ends, the pit numbers outside."""
        print(board_text(self.board))


# ---- rules shared by the AI and the terminal game ------------------------------------------------


def sow_board(board, row, pit):
    """Return (the board after ``row``'s side sows ``pit``, whether that side moves again).

    ``board`` itself is not changed. The move follows every rule of the game: the sowing
    (skipping the other side's store), the capture, and, when the side to move next has no
    seed in its pits, the end of the game (every seed left goes to its own side's store).
    """
    pits = len(board[0]) - 1
    new = [list(board[0]), list(board[1])]
    hand, new[row][pit] = new[row][pit], 0
    side, cell = row, pit
    while hand:
        cell += 1
        if cell > pits or (cell == pits and side != row):  # past a store, or the other's
            side, cell = 1 - side, 0
        new[side][cell] += 1
        hand -= 1
    opposite = pits - 1 - cell
    if side == row and cell < pits and new[side][cell] == 1 and new[1 - row][opposite]:
        new[row][pits] += 1 + new[1 - row][opposite]
        new[side][cell] = new[1 - row][opposite] = 0
    again = side == row and cell == pits
    mover = row if again else 1 - row
    if not any(new[mover][:pits]):  # the side to move has no seed: the game is over
        for each in new:
            each[pits] += sum(each[:pits])
            each[:pits] = [0] * pits
    return new, again


def check_pit(board, row, pit):
    """Do nothing if ``row``'s side may sow ``pit`` on ``board``; raise ValueError if not.

    ``pit`` has the format that make_move returns: an int from 0 to len(board[0]) - 2.
    """
    pits = len(board[0]) - 1
    if isinstance(pit, bool) or not isinstance(pit, int):
        raise ValueError(f"{pit!r} is not a pit: expected an int from 0 to {pits - 1}")
    if not 0 <= pit < pits:
        raise ValueError(f"pit {pit} is off the board: pits run 0-{pits - 1}")
    if board[row][pit] == 0:
        raise ValueError(f"pit {pit} is empty: sow a pit that holds seeds")


def board_text(board):
    """The board as print_board prints it."""
    pits = len(board[0]) - 1
    south, north = board
    return "\n".join(
        [
            "    " + "".join(f" {i:2} " for i in reversed(range(pits))) + "  north's pits",
            "    " + "".join(f"[{n:2}]" for n in reversed(north[:pits])),
            f"N{north[pits]:3}" + " " * (4 * pits) + f"{south[pits]:3} S",
            "    " + "".join(f"[{s:2}]" for s in south[:pits]),
            "    " + "".join(f" {i:2} " for i in range(pits)) + "  south's pits",
        ]
    )


def parse_pit(text, pits):
    """Return the pit number typed in ``text``, such as '3'.

    Raises:
        ValueError: explaining how to name a pit.
    """
    try:
        return int(text.strip())
    except ValueError:
        raise ValueError(
            f"{text.strip()!r} is not a pit: type a number from 0 to {pits - 1}, like 3"
        ) from None


# ---- the terminal game: you against your AI ------------------------------------------------------


def _is_over(board):
    return not any(board[0][:-1]) and not any(board[1][:-1])


def _human_turn(ai):
    """Ask the human for a legal pit and sow it on ai.board; return True when the human moves
    again; EOFError passes through."""
    pits = len(ai.board[0]) - 1
    prompt = f"Your move: sow one of your pits (0-{pits - 1}): "
    while True:
        text = input(prompt)
        try:
            pit = parse_pit(text, pits)
            check_pit(ai.board, ai.pieces.index(ai.opp), pit)
        except ValueError as error:
            print(f"That move is not allowed: {error}. Try again.")
            continue
        return ai.sow(pit, ai.opp)


def _play(ai):
    turn = "S"  # south always moves first
    while not _is_over(ai.board):
        ai.print_board()
        if turn == ai.my_piece:
            pit = ai.make_move(ai.board)
            try:
                check_pit(ai.board, ai.pieces.index(ai.my_piece), pit)
            except ValueError as error:
                print(f"The AI returned {pit!r}, which breaks the rules: {error}.")
                print("Fix make_move (see the TODOs in game.py). The game stops here.")
                return
            again = ai.sow(pit, ai.my_piece)
            print(f"The AI ({SIDES[ai.my_piece]}) sowed pit {pit}.")
        else:
            again = _human_turn(ai)
        if again:
            print(f"{SIDES[turn].capitalize()}'s last seed landed in its store: it moves again.")
        else:
            turn = ai.opp if turn == ai.my_piece else ai.my_piece
    ai.print_board()
    mine = ai.board[ai.pieces.index(ai.my_piece)][-1]
    theirs = ai.board[ai.pieces.index(ai.opp)][-1]
    if mine > theirs:
        print(f"The AI ({SIDES[ai.my_piece]}) wins, {mine} to {theirs}. Better luck next time!")
    elif theirs > mine:
        print(f"You ({SIDES[ai.opp]}) win, {theirs} to {mine}. Well played!")
    else:
        print(f"A draw: {mine} seeds each.")


def main():
    """Play one game of Kalah in the terminal: you against the AI."""
    ai = KalahPlayer()
    print(f"Kalah: you play {SIDES[ai.opp]}, the AI plays {SIDES[ai.my_piece]}.")
    print("South moves first. Type the number of one of your pits to sow it.")
    try:
        _play(ai)
    except EOFError:
        print("\nNo more input, so the game ends here. Goodbye!")
    except KeyboardInterrupt:
        print("\nGame interrupted. Goodbye!")


if __name__ == "__main__":
    main()
