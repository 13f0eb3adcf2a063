# The AI: it plays yellow ('Y'). autoPlay() chooses a column and drops its disc with
# self.gameBoard.trigger(column). Scores are from red's side: a red win is positive, a
# yellow win negative, so the AI looks for the smallest score.
import copy
import random


class aiBrain(object):

    def __init__(self, _gameBoard):
        self.gameBoard = _gameBoard

    def autoPlay(self):
        bestScore = float('inf')
        bestMove = None

        availableCol = []
        for j in range(7):
            if self.gameBoard.grids[0][j].value == '':
                availableCol.append(j)
        random.shuffle(availableCol)  # equal scores: not always the leftmost column

        for move in availableCol:
            possibleBoard = copy.deepcopy(self.gameBoard)
            possibleBoard.trigger(move)
            score = self.minimax(possibleBoard, 3, True)
            if score < bestScore:
                bestScore = score
                bestMove = move
        self.gameBoard.trigger(bestMove)

    def score(self, _winner):
        # TODO: 10 for a red win, -10 for a yellow win, 0 for a tie or no winner yet
        return 0

    def minimax(self, _gameBoard, _depth, _isMaximizing):
        # TODO: stop when the game is over or _depth is 0, and return the score. Make a
        # sooner win count for more than a later one: scale the score by the depth left.
        # TODO: otherwise try every column that has room on a copy of the board
        # (copy.deepcopy, then trigger), call minimax one level deeper with the other
        # player, and return the best score for the player to move: the largest when
        # _isMaximizing (red), the smallest otherwise (yellow).
        return 0
