"""Play tic-tac-toe against the computer in the terminal: python tictactoe_ai.py

You are X and move first; type the number of a square. The computer (O) answers with
find_best_move from minimax.py. End the game early with Ctrl-D (or Ctrl-C).
"""

from __future__ import annotations

import sys

from board import Board, Move
from minimax import find_best_move
from tictactoe import TTTBoard

SQUARES = "0|1|2\n-----\n3|4|5\n-----\n6|7|8"


def get_player_move(board: Board) -> Move:
    """Ask for a square until the player names a free one. EOFError ends the game."""
    while True:
        text = input("Your move (0-8): ").strip()
        try:
            square = int(text)
        except ValueError:
            print(f"{text!r} is not a square: type a number from 0 to 8.")
            continue
        if square in board.legal_moves:
            return Move(square)
        if 0 <= square <= 8:
            print(f"Square {square} is taken: choose an empty one.")
        else:
            print(f"There is no square {square}: type a number from 0 to 8.")


def game_over(board: Board, winner: str) -> bool:
    """Print the result and return True if the game has ended; ``winner`` names the mover."""
    if board.is_win:
        print(f"{winner} won!")
        return True
    if board.is_draw:
        print("It's a draw!")
        return True
    return False


def play() -> None:
    board: Board = TTTBoard()
    print("You are X, the computer is O. The squares are numbered:")
    print(SQUARES)
    while True:
        board = board.move(get_player_move(board))
        if board.is_win or board.is_draw:
            print(board)
        if game_over(board, "You"):
            return
        computer_move = find_best_move(board)
        if computer_move not in board.legal_moves:
            raise RuntimeError(f"find_best_move chose {computer_move}, which is not a legal move")
        print(f"The computer plays {computer_move}.")
        board = board.move(computer_move)
        print(board)
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
