"""Game-tree search that works for any game implementing the Board interface.

Everything here uses only what board.py promises (turn, legal_moves, is_win, is_draw, move and
evaluate), never a game's own attributes, so the same code plays tic-tac-toe and Connect Four.

Depth: a search with ``max_depth`` d stops on a board d moves below the board it starts from
(or earlier, when the game is over there). find_best_move(board, d) tries each legal move and
searches the resulting board with depth d, so it looks at most d + 1 moves ahead of ``board``.
"""

from __future__ import annotations

import math

from board import Board, Move, Piece

# find_best_move ranks the outcomes of a search by two numbers: first the evaluation (exactly
# the value minimax computes), then, among moves that evaluate the same, how soon a won or lost
# game ends: a win sooner is better, a loss later is better. Python compares tuples in order.
Score = tuple[float, float]

_BOTTOM: Score = (-math.inf, -math.inf)  # below every score
_TOP: Score = (math.inf, math.inf)  # above every score


def minimax(board: Board, maximizing: bool, original_player: Piece, max_depth: int = 8) -> float:
    """The value of ``board`` for ``original_player`` when both sides play their best.

    ``maximizing`` says whether the player to move here is ``original_player`` (who picks the
    highest value) or the opponent (who picks the lowest). The search ends on a won or drawn
    board, or after ``max_depth`` more moves, and returns board.evaluate(original_player) there.
    """
    if board.is_win or board.is_draw or max_depth <= 0:
        return board.evaluate(original_player)
    if maximizing:
        best = -math.inf
        for move in board.legal_moves:
            best = max(best, minimax(board.move(move), False, original_player, max_depth - 1))
        return best
    worst = math.inf
    for move in board.legal_moves:
        worst = min(worst, minimax(board.move(move), True, original_player, max_depth - 1))
    return worst


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
    tree, ``beta`` the value the minimizing player can already hold them to. Once a board is
    known to be worth at least beta (to the maximizer) or at most alpha (to the minimizer),
    nobody playing well would let the game reach it, so its remaining moves are skipped.

    When the true value lies strictly between alpha and beta, that value is returned; when it
    is alpha or less (beta or more), the result is alpha or less (beta or more) as well.
    Moves are tried from the middle of legal_moves outwards: in Connect Four the centre
    columns are usually the strongest, and trying strong moves first prunes the most.
    """
    score = _search(
        board, maximizing, original_player, max_depth, (alpha, 0), (beta, 0), timing=False
    )
    return score[0]


def find_best_move(board: Board, max_depth: int = 8) -> Move:
    """The best move for the player whose turn it is, looking ``max_depth`` + 1 moves ahead.

    The move chosen has the highest minimax value (computed with alpha-beta pruning). Among
    moves of equal value it prefers the one that wins soonest or, if every move loses, the one
    that loses latest; among moves that are still equal, the one listed first in legal_moves.
    So it takes a win in one when no other move scores higher, and it blocks a threat even in a
    lost position. Returns Move(-1) when there is no legal move.
    """
    if max_depth < 0:
        raise ValueError(f"max_depth must be 0 or more, not {max_depth}")
    moves = board.legal_moves
    player = board.turn
    best_move = Move(-1)
    best_score = _BOTTOM
    best_index = len(moves)
    for index in _centre_first(len(moves)):
        # Only a score above `floor` can replace the best move so far. A move listed before it
        # in legal_moves also wins a tie; scores' second numbers are whole numbers, so a score
        # ties or beats (v, s) exactly when it beats (v, s - 1).
        floor = (best_score[0], best_score[1] - 1) if index < best_index else best_score
        child = board.move(moves[index])
        score = _search(child, False, player, max_depth, floor, _TOP, timing=True)
        # Above the floor the search returns the exact score; at or below it, only a bound.
        if score > floor:
            best_move, best_score, best_index = moves[index], score, index
    return best_move


def _centre_first(count: int) -> list[int]:
    """The indexes 0 .. count - 1 from the middle outwards, the left one first on a tie."""
    middle = (count - 1) / 2
    return sorted(range(count), key=lambda i: (abs(i - middle), i))


def _search(
    board: Board,
    maximizing: bool,
    original_player: Piece,
    max_depth: int,
    alpha: Score,
    beta: Score,
    timing: bool,
) -> Score:
    """Alpha-beta on scores (value, timing). Without ``timing`` the second number stays 0."""
    won = board.is_win
    if won or board.is_draw or max_depth <= 0:
        value = board.evaluate(original_player)
        if not (timing and won) or value == 0:
            return (value, 0)
        # A finished game: the more depth is left, the sooner it ended.
        return (value, max_depth + 1) if value > 0 else (value, -(max_depth + 1))
    moves = board.legal_moves
    if maximizing:
        for index in _centre_first(len(moves)):
            child = board.move(moves[index])
            alpha = max(
                alpha, _search(child, False, original_player, max_depth - 1, alpha, beta, timing)
            )
            if beta <= alpha:
                break  # the minimizer will never let the game come here
        return alpha
    for index in _centre_first(len(moves)):
        child = board.move(moves[index])
        beta = min(beta, _search(child, True, original_player, max_depth - 1, alpha, beta, timing))
        if beta <= alpha:
            break  # the maximizer will never let the game come here
    return beta
