"""Play Connect Four against the computer in the terminal: python connectfour_ai.py

You are black (B) and move first; type the number of a column, 0 to 6 from the left. The
computer (R) answers with find_best_move from minimax.py, looking SEARCH_DEPTH + 1 moves
ahead. End the game early with Ctrl-D (or Ctrl-C).
"""

from __future__ import annotations

import sys

from board import Board, Move
from connectfour import C4Board
from minimax import find_best_move

SEARCH_DEPTH = 3  # the max_depth passed to find_best_move: deeper is stronger but slower
COLUMNS = C4Board.NUM_COLUMNS


def get_player_move(board: Board) -> Move:
    """Ask for a column until the player names one with room. EOFError ends the game."""
    last = COLUMNS - 1
    while True:
        text = input(f"Your move, a column (0-{last}): ").strip()
        try:
            column = int(text)
        except ValueError:
            print(f"{text!r} is not a column: type a number from 0 to {last}.")
            continue
        if column in board.legal_moves:
            return Move(column)
        if 0 <= column <= last:
            print(f"Column {column} is full: choose another one.")
        else:
            print(f"There is no column {column}: type a number from 0 to {last}.")


def game_over(board: Board, winner: str) -> bool:
    """Print the result and return True if the game has ended; ``winner`` names the mover."""
    if board.is_win:
        print(f"{winner} won!")
        return True
    if board.is_draw:
        print("It's a draw!")
        return True
    return False


def show(board: Board) -> None:
    """Print the board, top row first, with the column numbers underneath."""
    print(board, end="")
    print(" " + " ".join(str(c) for c in range(COLUMNS)))


def play() -> None:
    board: Board = C4Board()
    print("You are B, the computer is R. Pieces drop to the bottom of the column.")
    show(board)
    while True:
        board = board.move(get_player_move(board))
        if board.is_win or board.is_draw:
            show(board)
        if game_over(board, "You"):
            return
        computer_move = find_best_move(board, SEARCH_DEPTH)
        if computer_move not in board.legal_moves:
            raise RuntimeError(f"find_best_move chose {computer_move}, which is not a legal move")
        print(f"The computer plays column {computer_move}.")
        board = board.move(computer_move)
        show(board)
        if game_over(board, "The computer"):
            return


def main() -> int:
    try:
        play()
    except EOFError:
        print()  # the input ended: leave quietly
    except KeyboardInterrupt:
        print()
        return 130
    except NotImplementedError as error:
        print(f"Not written yet: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
