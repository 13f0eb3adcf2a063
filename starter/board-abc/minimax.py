"""Game-tree search that works for any game implementing the Board interface.

Use only what board.py promises (turn, legal_moves, is_win, is_draw, move and evaluate), never
a game's own attributes such as position: the same code must play tic-tac-toe, Connect Four
and the grader's own test games, which have nothing else.

Depth: a search with ``max_depth`` d stops on a board d moves below the board it starts from
(or earlier, when the game is over there). find_best_move(board, d) tries each legal move and
searches the resulting board with depth d, so it looks at most d + 1 moves ahead of ``board``.
Never look deeper than that: the grader counts the boards your search creates.

Your part:

  TODO 8   minimax
  TODO 9   find_best_move (as shipped it plays a random legal move, so you can already play)
  TODO 10  alphabeta, then make find_best_move use it
"""

from __future__ import annotations

import random

from board import Board, Move, Piece


def minimax(board: Board, maximizing: bool, original_player: Piece, max_depth: int = 8) -> float:
    """The value of ``board`` for ``original_player`` when both sides play their best.

    ``maximizing`` says whether the player to move here is ``original_player`` (who picks the
    highest value) or the opponent (who picks the lowest). The search ends on a won or drawn
    board, or after ``max_depth`` more moves, and returns board.evaluate(original_player) there.
    """
    # TODO 8: if the game is over here (board.is_win or board.is_draw) or max_depth is 0,
    # return board.evaluate(original_player). Otherwise call minimax on board.move(move) for
    # every legal move, with the other value of `maximizing` and max_depth - 1, and return the
    # highest result when maximizing, the lowest otherwise.
    raise NotImplementedError("TODO 8: write minimax in minimax.py")


def find_best_move(board: Board, max_depth: int = 8) -> Move:
    """The best move for the player whose turn it is, looking ``max_depth`` + 1 moves ahead."""
    # TODO 9: for every legal move, compute minimax(board.move(move), False, board.turn,
    # max_depth): after our move it is the opponent's turn, and the value is for us
    # (board.turn). Return the move with the highest value; on a tie keep the move that comes
    # first in legal_moves. Return Move(-1) when there is no legal move.
    # As shipped, a random legal move, so that the games can be played before the search works.
    moves = board.legal_moves
    if not moves:
        return Move(-1)
    return random.choice(moves)


def alphabeta(
    board: Board,
    maximizing: bool,
    original_player: Piece,
    max_depth: int = 8,
    alpha: float = float("-inf"),
    beta: float = float("inf"),
) -> float:
    """minimax with alpha-beta pruning: the same value, found while looking at fewer boards.

    ``alpha`` is the value the maximizing player can already make sure of elsewhere in the
    tree, ``beta`` the value the minimizing player can already hold them to.
    """
    # TODO 10: like minimax, but when maximizing raise alpha to each result, and stop trying
    # moves as soon as beta <= alpha (the opponent will never let the game get here); return
    # alpha. When minimizing, lower beta instead, stop on the same test, and return beta.
    # Then make find_best_move call alphabeta instead of minimax. Trying the middle columns
    # first makes Connect Four much faster: the best moves are often there.
    raise NotImplementedError("TODO 10: write alphabeta in minimax.py")
