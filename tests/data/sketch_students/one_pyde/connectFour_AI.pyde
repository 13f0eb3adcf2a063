# Connect Four against the computer, all in one sketch file: the spots, the board, the AI.
import copy
import random

# One hole of the board: where it is drawn and which disc it holds.
# value is '' (empty), 'R' (red, the player) or 'Y' (yellow, the AI).


class Spot(object):

    def __init__(self, _i, _j, _x, _y, _value):
        self.i = _i  # row, 0 at the top
        self.j = _j  # column, 0 at the left
        self.x = _x
        self.y = _y
        self.value = _value

    def display(self):
        stroke('#000000')
        strokeWeight(2)
        fill(self.matchColor(self.value))
        ellipse(self.x, self.y, 80, 80)

    def matchColor(self, _value):
        colours = {'': '#FFFFFF', 'R': '#FF5641', 'Y': '#FFDF37'}
        return colours.get(_value, '#888888')

# The AI: it plays yellow ('Y'). autoPlay() chooses a column and drops its disc with
# self.gameBoard.trigger(column). Scores are from red's side: a red win is positive, a
# yellow win negative, so the AI looks for the smallest score.
#
# The answer key: minimax over copies of the board, a win scored by how soon it comes
# (the chapter's 9.1.7: the depth left scales the score, so a win now beats a win later),
# with alpha-beta pruning so that depth 4 stays well under a second.

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


class aiBrain(object):

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

# The board: 6 rows of 7 spots, row 0 at the top. trigger(column) drops the current player's
# disc into a column, checks for a winner and passes the turn.


class GameBoard(object):

    def __init__(self):
        self.grids = []
        for i in range(6):
            row = []
            for j in range(7):
                row.append(Spot(i, j, width / 7 * (j + .5), height / 6 * (i + .5), ''))
            self.grids.append(row)
        self.currentRow = 0
        self.currentCol = 0
        self.colHeight = [0, 0, 0, 0, 0, 0, 0]  # discs in each column
        self.currentPlayer = 'R'
        self.gameOver = False
        self.winner = None  # 'R', 'Y', or 'O' for a full board with no line
        self.brain = aiBrain(self)

    def display(self):
        for i in range(6):
            for j in range(7):
                self.grids[i][j].display()
        if self.gameOver:
            textAlign(CENTER, CENTER)
            textSize(100)
            fill('#0000FF')
            messages = {'R': 'YOU WIN!!!!', 'Y': 'GAME OVER', 'O': 'TIE'}
            text(messages[self.winner], width / 2, height / 2)

    def swapPlayer(self):
        self.currentPlayer = 'Y' if self.currentPlayer == 'R' else 'R'

    def trigger(self, i):
        if self.gameOver or self.colHeight[i] >= 6:
            return
        self.colHeight[i] += 1
        self.currentCol = i
        self.currentRow = 6 - self.colHeight[i]
        self.grids[self.currentRow][self.currentCol].value = self.currentPlayer
        self.winner = self.checkWin()
        if self.winner is not None:
            self.gameOver = True
            return
        self.swapPlayer()

    def checkWin(self):
        gs = self.grids
        # four in a line: along a row, down a column, and both diagonals
        for di, dj in ((0, 1), (1, 0), (1, 1), (1, -1)):
            for i in range(6):
                for j in range(7):
                    if not (0 <= i + 3 * di < 6 and 0 <= j + 3 * dj < 7):
                        continue
                    first = gs[i][j].value
                    if first != '' and all(
                        gs[i + k * di][j + k * dj].value == first for k in range(1, 4)
                    ):
                        return first
        # no line and no empty spot left: a tie
        for i in range(6):
            for j in range(7):
                if gs[i][j].value == '':
                    return None
        return 'O'

# Connect Four against the computer: a Processing Python-mode sketch.
# You play red by clicking a column; the AI (AIBrain.py) answers with yellow.

gameBoard = None


def setup():
    global gameBoard
    size(700, 600)
    ellipseMode(CENTER)
    frameRate(10)
    gameBoard = GameBoard()


def draw():
    background(200)
    gameBoard.display()


def mousePressed():
    for i in range(7):
        if width / 7 * i < mouseX < width / 7 * (i + 1):
            gameBoard.trigger(i)
            if gameBoard.currentPlayer == 'Y':
                gameBoard.brain.autoPlay()
