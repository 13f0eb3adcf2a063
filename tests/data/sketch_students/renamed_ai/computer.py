# My AI (renamed from the chapter's aiBrain): it plays yellow ('Y'). autoPlay() chooses a column and drops its disc with
# self.gameBoard.trigger(column). Scores are from red's side: a red win is positive, a
# yellow win negative, so the AI looks for the smallest score.
#
# The answer key: minimax over copies of the board, a win scored by how soon it comes
# (the chapter's 9.1.7: the depth left scales the score, so a win now beats a win later),
# with alpha-beta pruning so that depth 4 stays well under a second.
import copy
import random

DEPTH = 4


def copyBoard(_gameBoard):
    """A copy to try moves on: new spots and heights, everything else shared (faster than
    copy.deepcopy, which also copies the brain and every spot's position)."""
    possibleBoard = copy.copy(_gameBoard)
    possibleBoard.grids = [[copy.copy(spot) for spot in row] for row in _gameBoard.grids]
    possibleBoard.colHeight = list(_gameBoard.colHeight)
    return possibleBoard


def openColumns(_gameBoard):
    """The columns with room, the centre first (better moves first prune more); ties in a
    random order."""
    availableCol = [j for j in range(7) if _gameBoard.grids[0][j].value == '']
    random.shuffle(availableCol)
    availableCol.sort(key=lambda j: abs(j - 3))
    return availableCol


class ComputerPlayer(object):

    def __init__(self, _gameBoard):
        self.gameBoard = _gameBoard

    def autoPlay(self):
        bestScore = float('inf')
        bestMove = None
        for move in openColumns(self.gameBoard):
            possibleBoard = copyBoard(self.gameBoard)
            possibleBoard.trigger(move)
            score = self.minimax(possibleBoard, DEPTH - 1, True, float('-inf'), bestScore)
            if bestMove is None or score < bestScore:
                bestScore = score
                bestMove = move
        self.gameBoard.trigger(bestMove)

    def score(self, _winner):
        if _winner == 'R':
            return 10
        elif _winner == 'Y':
            return -10
        return 0  # a tie, or no winner yet

    def minimax(self, _gameBoard, _depth, _isMaximizing, alpha, beta):
        winner = _gameBoard.checkWin()
        if winner is not None or _depth == 0:
            return self.score(winner) * (_depth + 1)  # sooner is bigger

        if _isMaximizing:  # red to move: the largest score
            bestScore = float('-inf')
            for move in openColumns(_gameBoard):
                possibleBoard = copyBoard(_gameBoard)
                possibleBoard.trigger(move)
                bestScore = max(bestScore, self.minimax(possibleBoard, _depth - 1, False, alpha, beta))
                alpha = max(alpha, bestScore)
                if alpha >= beta:
                    break
            return bestScore

        bestScore = float('inf')  # yellow to move: the smallest score
        for move in openColumns(_gameBoard):
            possibleBoard = copyBoard(_gameBoard)
            possibleBoard.trigger(move)
            bestScore = min(bestScore, self.minimax(possibleBoard, _depth - 1, True, alpha, beta))
            beta = min(beta, bestScore)
            if alpha >= beta:
                break
        return bestScore
