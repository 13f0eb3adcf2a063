"""Kalah: the reference player (the kit's benchmark, not a model answer to hand out).

Iterative-deepening alpha-beta (negamax) on a flat tuple of counts, with a transposition
table and moves ordered extra turns first, then captures, then the previous iteration's best.
An extra turn needs no special case in the search but one: the value changes sign only when
the turn passes to the other side, so a side that moves twice in a row maximises twice.
Standard library only; the course's interface (``KalahPlayer``, ``make_move``, ``sow``,
``opponent_move``) is kept so the grader drives it like any submission.

Play against it with:  python game.py
"""

import random
import time

# ---- constants -----------------------------------------------------------------------------------

TIME_BUDGET = 1.0  # seconds of search per move; half of it spent means no new iteration starts
MAX_DEPTH = 40  # plies: far past the end of most games from the middle
WIN = 10_000  # a finished game's value is WIN times its seed difference sign, plus that difference
SIDES = {"S": "south", "N": "north"}
_EXACT, _LOWER, _UPPER = 0, 1, 2  # what a transposition table entry's value is


class _OutOfTime(Exception):
    """The search ran past its deadline: the iteration in progress is thrown away."""


# ---- rules on a flat board -------------------------------------------------------------------
# The flat board: south's pits 0..p-1, south's store p, north's pits p+1..2p, north's store 2p+1.


def _flat(board):
    """The course's [[south's pits, store], [north's pits, store]] as one tuple."""
    return tuple(board[0]) + tuple(board[1])


def _sow(cells, side, pit, pits):
    """(the cells after ``side`` (0 south, 1 north) sows its ``pit``, whether it moves again).

    The capture and the end-of-game sweep included; ``pit`` is an index in the side's row."""
    cells = list(cells)
    size = 2 * pits + 2
    own_store, their_store = side * (pits + 1) + pits, (1 - side) * (pits + 1) + pits
    at = side * (pits + 1) + pit
    hand, cells[at] = cells[at], 0
    while hand:
        at = (at + 1) % size
        if at == their_store:
            continue
        cells[at] += 1
        hand -= 1
    first = side * (pits + 1)
    if first <= at < own_store and cells[at] == 1:
        across = 2 * pits - at
        if cells[across]:
            cells[own_store] += 1 + cells[across]
            cells[at] = cells[across] = 0
    again = at == own_store
    mover = side if again else 1 - side
    start = mover * (pits + 1)
    if not any(cells[start : start + pits]):  # the side to move has no seed: the game is over
        for row in (0, pits + 1):
            cells[row + pits] += sum(cells[row : row + pits])
            for i in range(row, row + pits):
                cells[i] = 0
    return tuple(cells), again


def _moves(cells, side, pits):
    start = side * (pits + 1)
    return [pit for pit in range(pits) if cells[start + pit]]


def _over(cells, side, pits):
    start = side * (pits + 1)
    return not any(cells[start : start + pits])


# ---- evaluation ----------------------------------------------------------------------------------


def _final(cells, side, pits):
    """A finished game's value for ``side``: the seed difference, pushed past every estimate."""
    diff = sum(cells[side * (pits + 1) : side * (pits + 1) + pits + 1]) - sum(
        cells[(1 - side) * (pits + 1) : (1 - side) * (pits + 1) + pits + 1]
    )
    return diff + (WIN if diff > 0 else -WIN if diff < 0 else 0)


def _evaluate(cells, side, pits):
    """An unfinished game for ``side`` to move: the stores' lead, and a little for the seeds
    on its side (they are its own unless captured) and for the extra turns it has now."""
    mine, theirs = side * (pits + 1), (1 - side) * (pits + 1)
    lead = cells[mine + pits] - cells[theirs + pits]
    on_side = sum(cells[mine : mine + pits]) - sum(cells[theirs : theirs + pits])
    extra = sum(1 for pit in range(pits) if cells[mine + pit] == pits - pit)
    return 4 * lead + on_side + 2 * extra


# ---- search --------------------------------------------------------------------------------------


class _Searcher:
    """One move's search: a deadline and a transposition table."""

    def __init__(self, pits, deadline):
        self.pits, self.deadline, self.table, self.nodes = pits, deadline, {}, 0

    def _ordered(self, cells, side, hint):
        pits, start = self.pits, side * (self.pits + 1)

        def key(pit):
            seeds = cells[start + pit]
            lands = (pit + seeds) % (2 * pits + 1)
            captures = lands < pits and not cells[start + lands]
            return (pit != hint, seeds != pits - pit, not captures)

        return sorted(_moves(cells, side, pits), key=key)

    def negamax(self, cells, side, depth, alpha, beta):
        """The value of ``cells`` for ``side`` to move, ``depth`` plies deep: exact when it lies
        strictly between ``alpha`` and ``beta``, else a bound on the side it fell."""
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.monotonic() > self.deadline:
            raise _OutOfTime
        pits = self.pits
        if _over(cells, side, pits):
            return _final(cells, side, pits)
        if depth == 0:
            return _evaluate(cells, side, pits)
        key = (cells, side)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            stored_depth, flag, value, hint = entry
            if stored_depth >= depth and (
                flag == _EXACT
                or (flag == _LOWER and value >= beta)
                or (flag == _UPPER and value <= alpha)
            ):
                return value
        start_alpha, best, best_pit = alpha, -10 * WIN, None
        for pit in self._ordered(cells, side, hint):
            after, again = _sow(cells, side, pit, pits)
            if again:  # the same side moves again: its value, not the other's
                value = self.negamax(after, side, depth - 1, alpha, beta)
            else:
                value = -self.negamax(after, 1 - side, depth - 1, -beta, -alpha)
            if value > best:
                best, best_pit = value, pit
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (depth, flag, best, best_pit)
        return best

    def choose(self, cells, side, budget):
        """The best pit found by deepening until half of ``budget`` seconds is spent."""
        began = time.monotonic()
        moves = _moves(cells, side, self.pits)
        best = moves[0]
        for depth in range(1, MAX_DEPTH + 1):
            try:
                scored = []
                for pit in self._ordered(cells, side, best):
                    after, again = _sow(cells, side, pit, self.pits)
                    if again:
                        value = self.negamax(after, side, depth - 1, -10 * WIN, 10 * WIN)
                    else:
                        value = -self.negamax(after, 1 - side, depth - 1, -10 * WIN, 10 * WIN)
                    scored.append((value, pit))
            except _OutOfTime:
                break
            best = max(scored)[1]
            if abs(max(scored)[0]) >= WIN or time.monotonic() - began > budget / 2:
                break
        return best


# ---- the player ----------------------------------------------------------------------------------


class KalahPlayer:
    """An AI that plays Kalah: ``make_move`` searches for ``TIME_BUDGET`` seconds at most."""

    board = [[4] * 6 + [0], [4] * 6 + [0]]  # south's row, north's row: 6 pits, then the store
    pieces = ["S", "N"]

    def __init__(self):
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]
        self.board = [row[:] for row in self.board]

    def make_move(self, state) -> int:
        """The pit to sow on ``state`` (the AI's move), an int; ``state`` is not changed."""
        pits = len(state[0]) - 1
        side = self.pieces.index(self.my_piece)
        cells = _flat(state)
        moves = _moves(cells, side, pits)
        if len(moves) == 1:
            return moves[0]
        deadline = time.monotonic() + TIME_BUDGET
        return int(_Searcher(pits, deadline).choose(cells, side, TIME_BUDGET))

    def succ(self, state, piece):
        """Every move of ``piece`` on ``state``: (pit, the board after it, whether it moves
        again)."""
        pits, side = len(state[0]) - 1, self.pieces.index(piece)
        found = []
        for pit in _moves(_flat(state), side, pits):
            cells, again = _sow(_flat(state), side, pit, pits)
            found.append((pit, [list(cells[: pits + 1]), list(cells[pits + 1 :])], again))
        return found

    def game_value(self, state):
        """1 if the game is over and the AI won, -1 if the opponent did, 0 otherwise."""
        pits = len(state[0]) - 1
        if any(state[0][:pits]) or any(state[1][:pits]):
            return 0
        mine = state[self.pieces.index(self.my_piece)][pits]
        theirs = state[self.pieces.index(self.opp)][pits]
        return (mine > theirs) - (mine < theirs)

    def heuristic_game_value(self, state):
        """The search's estimate for the AI, squashed into (-1, 1)."""
        pits, side = len(state[0]) - 1, self.pieces.index(self.my_piece)
        value = self.game_value(state)
        if value:
            return value
        total = _evaluate(_flat(state), side, pits)
        return total / (abs(total) + 40)

    def opponent_move(self, pit):
        """Check the opponent's ``pit`` against self.board and sow it; ValueError if illegal."""
        pits, side = len(self.board[0]) - 1, self.pieces.index(self.opp)
        if isinstance(pit, bool) or not isinstance(pit, int) or not 0 <= pit < pits:
            raise ValueError(f"{pit!r} is not a pit: expected an int from 0 to {pits - 1}")
        if not self.board[side][pit]:
            raise ValueError(f"pit {pit} is empty: sow a pit that holds seeds")
        self.sow(pit, self.opp)

    def sow(self, pit, piece):
        """Sow ``piece``'s ``pit`` on self.board (not checked); True when it moves again."""
        pits = len(self.board[0]) - 1
        cells, again = _sow(_flat(self.board), self.pieces.index(piece), pit, pits)
        self.board[0][:], self.board[1][:] = list(cells[: pits + 1]), list(cells[pits + 1 :])
        return again

    def print_board(self):
        print(board_text(self.board))


def board_text(board):
    """The board as it lies between the players: north's pits along the top, right to left."""
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


# ---- the terminal game ---------------------------------------------------------------------------


def _ask_pit(ai):
    pits, side = len(ai.board[0]) - 1, ai.pieces.index(ai.opp)
    while True:
        text = input(f"Your move: sow one of your pits (0-{pits - 1}): ").strip()
        if text.isdigit() and int(text) < pits and ai.board[side][int(text)]:
            return int(text)
        print(f"{text!r} is not one of your pits that holds seeds. Try again.")


def main():
    """Play one game of Kalah in the terminal: you against the AI."""
    ai = KalahPlayer()
    print(f"Kalah: you play {SIDES[ai.opp]}, the AI plays {SIDES[ai.my_piece]}. South first.")
    turn = "S"
    try:
        while any(ai.board[0][:-1]) or any(ai.board[1][:-1]):
            ai.print_board()
            if turn == ai.my_piece:
                pit = ai.make_move(ai.board)
                print(f"The AI ({SIDES[ai.my_piece]}) sowed pit {pit}.")
            else:
                pit = _ask_pit(ai)
            if not ai.sow(pit, turn):
                turn = ai.opp if turn == ai.my_piece else ai.my_piece
        ai.print_board()
        value = ai.game_value(ai.board)
        print("The AI wins." if value > 0 else "You win. Well played!" if value < 0 else "A draw.")
    except EOFError:
        print("\nNo more input, so the game ends here. Goodbye!")
    except KeyboardInterrupt:
        print("\nGame interrupted. Goodbye!")


if __name__ == "__main__":
    main()
