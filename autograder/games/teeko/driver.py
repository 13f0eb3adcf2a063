"""The child side of the Teeko homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported. The player is constructed for a colour (its board set to a
probe's position), told each move as a list of squares (``place_piece`` for its own,
``opponent_move`` for the opponent's) and asked ``make_move(self.board)``: the shared grid
driver (``autograder/games/grid_driver.py``) on a 5×5 board.
"""

from autograder.games.grid_driver import Grid, cells

make_handlers = Grid(pieces=("b", "r"), move=cells, shape=(5, 5)).make_handlers
