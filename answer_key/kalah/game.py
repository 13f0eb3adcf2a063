"""Kalah: a minimax player (answer key).

The homework starter with every TODO done, in the starter's own methods: hand it out after the
deadline. It is written to be read, not to be strong: plain minimax to a fixed depth, without
pruning, on the course's board of two rows. The reference player in solution/kalah/game.py is
the strong one (the kit's benchmark).

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

How the AI chooses (the TODOs of the starter, in order):

  TODO 1  succ sows each of the side's pits that holds seeds, each time on a new board.
  TODO 2  game_value: the game is over when no pit holds a seed; the stores decide it.
  TODO 3  heuristic_game_value: the stores' difference, and a little for the seeds still on
          each side of the board.
  TODO 4  max_value / min_value: plain minimax, cut off at DEPTH_LIMIT plies, that asks each
          move who moves next: the same side after a move that ends in its own store.
  TODO 5  make_move tries every pit that holds seeds and keeps the one with the best value.

Play against the AI with:  python game.py
"""

import random

SIDES = {"S": "south", "N": "north"}
DEPTH_LIMIT = 4  # plies searched, the move made included (a move and its extra turn are two)
WIN_STEP = 0.01  # a game over one ply deeper in the search counts this much less (_value)


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
        best_value, best_pit = None, None
        for pit, board, again in self.succ(state, self.my_piece):
            value = self.max_value(board, 1) if again else self.min_value(board, 1)
            if best_value is None or value > best_value:
                best_value, best_pit = value, pit
        return best_pit

    def succ(self, state, piece):
        """Return every move ``piece`` can make on ``state``, as (pit, board, again) triples.

        There is one move for each of piece's pits that is not empty; sow_board gives the
        board after it (a new board) and whether the same side moves again.
        """
        row = self.pieces.index(piece)
        moves = []
        for pit in range(len(state[row]) - 1):
            if state[row][pit] > 0:
                board, again = sow_board(state, row, pit)
                moves.append((pit, board, again))
        return moves

    def heuristic_game_value(self, state):
        """Return a score between -1 and 1 for ``state``: higher is better for the AI.

        A finished game is worth its game_value. Otherwise: the stores' difference, plus a
        quarter of the difference of the seeds still on each side, squashed into (-1, 1).
        """
        value = self.game_value(state)
        if value != 0 or _is_over(state):
            return value
        mine, theirs = state[self.pieces.index(self.my_piece)], state[self.pieces.index(self.opp)]
        total = mine[-1] - theirs[-1] + (sum(mine[:-1]) - sum(theirs[:-1])) / 4
        return total / (abs(total) + 20)

    def max_value(self, state, depth):
        """Return the minimax value of ``state`` when the AI (the max player) is to move.

        A game over deep in the search is worth a little less than one over sooner, so a win
        at once is taken and a loss put off.
        """
        return self._value(state, depth, self.my_piece, max)

    def min_value(self, state, depth):
        """Return the minimax value of ``state`` when the opponent (the min player) is to move."""
        return self._value(state, depth, self.opp, min)

    def _value(self, state, depth, piece, best):
        """The minimax value of ``state`` with ``piece`` to move, choosing by ``best``."""
        if _is_over(state):  # a win sooner counts a little more, a loss later a little less
            return self.game_value(state) * (1 - WIN_STEP * depth)
        if depth >= DEPTH_LIMIT:
            return self.heuristic_game_value(state)
        values = []
        for _pit, board, again in self.succ(state, piece):
            # who moves next: the same side after its last seed lands in its own store
            mover = piece if again else (self.opp if piece == self.my_piece else self.my_piece)
            next_value = self.max_value if mover == self.my_piece else self.min_value
            values.append(next_value(board, depth + 1))
        return best(values)

    def game_value(self, state):
        """Return 1 if the game on ``state`` is over and the AI won it, -1 if it is over and the
        opponent won it, 0 otherwise (a game still going, or a draw).

        sow_board ends a game for you: when the player to move has no seed left in its pits,
        every seed left on the board goes to its side's store. So the game is over when no
        pit of either row holds a seed, and the stores decide it.
        """
        if not _is_over(state):
            return 0
        mine, theirs = state[self.pieces.index(self.my_piece)], state[self.pieces.index(self.opp)]
        return 1 if mine[-1] > theirs[-1] else -1 if theirs[-1] > mine[-1] else 0

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
