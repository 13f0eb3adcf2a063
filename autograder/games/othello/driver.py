"""The child side of the Othello homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported. The player is constructed for a colour (its board set to a
probe's position, or to the variant's start when its constructor made another size), told
each move as ``(row, col)`` (``place_piece`` for its own, ``opponent_move`` for the
opponent's; a pass changes no square and is told to neither) and asked
``make_move(self.board)``: the shared grid driver (``autograder/games/grid_driver.py``). A
side that must pass is never asked: the referee plays its pass.
"""

from autograder.games.grid_driver import Grid, cell

make_handlers = Grid(
    pieces=("b", "w"), move=cell, shape=(6, 6), fit_start=True, pass_move="pass"
).make_handlers
