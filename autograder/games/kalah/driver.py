"""The child side of the Kalah homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported. The player is constructed for a side (its board set to a
probe's position, or to the variant's start when its constructor made another size), told
each ply as a pit number by the side that made it (``sow`` for its own, ``opponent_move`` for
the opponent's; a side with an extra turn makes two plies in a row) and asked
``make_move(self.board)``: the shared grid driver (``autograder/games/grid_driver.py``) on a
board of two rows, each a side's pits and its store.
"""

from autograder.games.grid_driver import Grid, column

make_handlers = Grid(
    pieces=("S", "N"), move=column, shape=(2, 7), fit_start=True, own="sow"
).make_handlers
