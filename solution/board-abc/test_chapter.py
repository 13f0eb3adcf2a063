"""The chapter's own exercises as unit tests: python -m unittest test_chapter

Three fixed tic-tac-toe boards check the rules. Three Connect Four positions, red to move,
check the moves find_best_move(board, 3) picks: the move that completes four in a row; the
move that blocks black's diagonal (column 2 would win at once, but blocking leads to a forced
win that the evaluation scores a little higher, and the highest score decides); and a move
whose point only shows two moves later.
"""

from __future__ import annotations

import unittest

from connectfour import C4Board, C4Piece
from minimax import find_best_move
from tictactoe import TTTBoard, TTTPiece

X, O, E = TTTPiece.X, TTTPiece.O, TTTPiece.E  # noqa: E741 - the pieces' names
B, R = C4Piece.B, C4Piece.R


def c4_board(*columns: str, turn: C4Piece = R) -> C4Board:
    """A Connect Four board from seven strings, each a column listed from the bottom up."""
    position = []
    for text in columns:
        column = C4Board.Column()
        for letter in text:
            column.push(C4Piece(letter))
        position.append(column)
    return C4Board(position, turn)


class TicTacToeRulesTest(unittest.TestCase):
    def test_legal_moves(self) -> None:
        board = TTTBoard([X, O, X, X, X, O, O, E, O], X)
        self.assertEqual(board.legal_moves, [7])

    def test_is_win(self) -> None:
        board = TTTBoard([X, O, X, X, O, O, X, E, O], X)  # X holds the left column
        self.assertTrue(board.is_win)

    def test_is_draw(self) -> None:
        board = TTTBoard([X, O, X, X, O, O, O, X, O], X)  # full, no line of three
        self.assertTrue(board.is_draw)


class ConnectFourSearchTest(unittest.TestCase):
    def test_easy_position(self) -> None:
        board = c4_board("", "RB", "BRBRB", "BBRRB", "RRB", "", "")
        self.assertEqual(find_best_move(board, 3), 4)

    def test_block_position(self) -> None:
        board = c4_board("R", "BR", "BB", "RBRR", "BRB", "RBB", "")
        self.assertEqual(find_best_move(board, 3), 5)

    def test_hard_position(self) -> None:
        board = c4_board("B", "BR", "BBRB", "RBRR", "BRB", "R", "")
        self.assertEqual(find_best_move(board, 3), 3)


if __name__ == "__main__":
    unittest.main()
