# Connect Four against the computer: a Processing Python-mode sketch.
# You play red by clicking a column; the AI (AIBrain.py) answers with yellow.
# The grader never runs this file.
from spot import *
from gameBoard import *

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
