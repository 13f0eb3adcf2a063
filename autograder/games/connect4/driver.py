"""The child side of the Connect Four homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported. The player is constructed for a colour (its board set to a
probe's position, or to the variant's empty board when its constructor made another size),
told each move as a column (``place_piece`` for its own, ``opponent_move`` for the
opponent's) and asked ``make_move(self.board)``: the shared grid driver
(``autograder/games/grid_driver.py``).
"""

from autograder.games.grid_driver import Grid, column

make_handlers = Grid(pieces=("r", "y"), move=column, shape=(6, 7), fit_start=True).make_handlers
