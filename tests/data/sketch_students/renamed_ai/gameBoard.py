# The board: 6 rows of 7 spots, row 0 at the top. trigger(column) drops the current player's
# disc into a column, checks for a winner and passes the turn.
from spot import *
from computer import *


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
        self.brain = ComputerPlayer(self)

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
