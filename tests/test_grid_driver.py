"""The shared grid driver (``autograder/games/grid_driver.py``), driven here in the grader's own
process as the child runner drives it: what a student's player is told, and when its board
is reported as drifted."""

from __future__ import annotations

import types
from typing import Any

import pytest

from autograder.games.grid_driver import Grid, cell, cells

EMPTY = [["."] * 4 for _ in range(4)]


class Tracker:
    """A course-style player that keeps its own board from what it is told, and logs it."""

    def __init__(self) -> None:
        self.board = [row[:] for row in EMPTY]
        self.told: list[tuple[str, Any]] = []

    def place_piece(self, move: Any, piece: str) -> None:
        self.told.append(("place_piece", move))
        self.board[move[0]][move[1]] = piece

    def opponent_move(self, move: Any) -> None:
        self.told.append(("opponent_move", move))
        self.board[move[0]][move[1]] = self.opp

    def make_move(self, state: list[list[str]]) -> Any:
        return (3, 3)


def _board(*pieces: tuple[int, int, str]) -> list[list[str]]:
    board = [row[:] for row in EMPTY]
    for row, col, piece in pieces:
        board[row][col] = piece
    return board


def _seated(grid: Grid, side: str) -> tuple[dict[str, Any], list[Any]]:
    """The handlers and the player they built for ``side``."""
    built: list[Any] = []

    def find_class(_module: object, _name: str) -> Any:
        def make() -> Tracker:
            built.append(Tracker())
            return built[-1]

        return make

    handlers = grid.make_handlers(types.SimpleNamespace(), lambda raw: raw, repr, find_class)
    assert handlers["new"]({"cls": "Tracker", "side": side, "state": None, "start": EMPTY})["ok"]
    return handlers, built


OTHELLO_LIKE = Grid(pieces=("b", "w"), move=cell, shape=(4, 4), fit_start=True, pass_move="pass")


def test_plies_are_told_by_the_side_that_made_them_in_order_and_passes_are_skipped():
    """White's tracker is told its own move, black's, its own forced pass (not told: it
    changes no square) and black's next move: its board keeps step, no drift."""
    handlers, (player,) = _seated(OTHELLO_LIKE, "w")
    state = _board((0, 1, "w"), (2, 2, "b"), (3, 0, "b"))
    sync = {"plies": [["w", [0, 1]], ["b", [2, 2]], ["w", "pass"], ["b", [3, 0]]], "state": state}
    assert handlers["sync"](sync) == {"ok": True, "notes": []}
    assert player.told == [
        ("place_piece", (0, 1)),
        ("opponent_move", (2, 2)),
        ("opponent_move", (3, 0)),
    ]


def test_a_side_that_moves_twice_in_a_row_is_told_twice_as_itself():
    """Kalah's extra turn: black moves twice, then white; black's tracker is told both of its
    moves as its own and white's as the opponent's (no flipping of sides per ply)."""
    handlers, (player,) = _seated(OTHELLO_LIKE, "b")
    state = _board((0, 0, "b"), (0, 1, "b"), (1, 1, "w"))
    sync = {"plies": [["b", [0, 0]], ["b", [0, 1]], ["w", [1, 1]]], "state": state}
    assert handlers["sync"](sync) == {"ok": True, "notes": []}
    assert player.told == [
        ("place_piece", (0, 0)),
        ("place_piece", (0, 1)),
        ("opponent_move", (1, 1)),
    ]


def test_a_ply_the_player_was_not_told_is_drift_and_its_board_is_set():
    """A move it was never told leaves its board behind, which is drift, and its board is set
    to the position."""
    handlers, (player,) = _seated(OTHELLO_LIKE, "w")
    state = _board((0, 1, "w"), (2, 2, "b"), (3, 0, "b"))
    reply = handlers["sync"]({"plies": [["w", [0, 1]], ["b", [3, 0]]], "state": state})
    assert reply == {
        "ok": True,
        "notes": [
            "drift: self.board differs from the game's at 1 square: [2][2] holds '.' where "
            "the game has 'b'"
        ],
    }
    assert player.told == [("place_piece", (0, 1)), ("opponent_move", (3, 0))]
    assert player.board == state


def test_a_board_of_counts_is_compared_as_the_position_sent():
    """Kalah's board holds numbers: a player whose board matches the position is not drift."""
    grid = Grid(pieces=("S", "N"), move=lambda move: int(move), shape=(2, 4), own="sow")
    player = Tracker()
    player.board = [[4, 4, 4, 0], [4, 4, 4, 0]]
    handlers = grid.make_handlers(None, lambda raw: raw, repr, lambda module, name: lambda: player)
    assert handlers["new"]({"cls": "K", "side": "S", "state": None, "start": player.board})["ok"]
    assert handlers["sync"]({"plies": [], "state": [[4, 4, 4, 0], [4, 4, 4, 0]]})["notes"] == []
    drifted = handlers["sync"]({"plies": [], "state": [[0, 5, 5, 1], [5, 4, 4, 0]]})
    assert drifted["notes"] == [
        "drift: self.board differs from the game's at 5 squares: [0][0] holds '4' where the "
        "game has '0'; [0][1] holds '4' where the game has '5'; [0][2] holds '4' where the "
        "game has '5'; 2 more"
    ]
    assert player.board == [[0, 5, 5, 1], [5, 4, 4, 0]]


def test_a_move_of_squares_reaches_the_player_as_a_list_of_tuples():
    """Teeko's shape: a move is a list of (row, col) squares, one to drop, two to move."""
    teeko_like = Grid(pieces=("b", "r"), move=cells, shape=(4, 4))
    handlers, (player,) = _seated(teeko_like, "b")
    handlers["sync"]({"plies": [["r", [[1, 1], [1, 2]]]], "state": EMPTY})
    assert player.told == [("opponent_move", [(1, 1), (1, 2)])]


def test_a_method_that_raises_is_a_note_and_the_next_ply_is_still_told():
    handlers, (player,) = _seated(OTHELLO_LIKE, "b")

    def broken(move: Any, piece: str) -> None:
        raise KeyError(move)

    player.place_piece = broken
    sync = {"plies": [["b", [0, 0]], ["w", [1, 1]]], "state": _board((0, 0, "b"), (1, 1, "w"))}
    reply = handlers["sync"](sync)
    assert reply["notes"][0] == "place_piece((0, 0)) raised KeyError((0, 0))"
    assert reply["notes"][1].startswith("drift: self.board differs from the game's at 1 square")
    assert player.told == [("opponent_move", (1, 1))]


@pytest.mark.parametrize(("fit_start", "board"), [(True, "start"), (False, "its own")])
def test_fit_start_gives_a_player_of_another_size_the_start_board(fit_start, board):
    """Connect Four's variants: the constructor makes 4x4, the variant starts 5x6; without
    fit_start the player keeps its own board (to be found drifted at its first sync)."""
    start = [["."] * 6 for _ in range(5)]
    grid = Grid(pieces=("r", "y"), move=cell, shape=(4, 4), fit_start=fit_start)
    player = Tracker()
    handlers = grid.make_handlers(None, lambda raw: raw, repr, lambda module, name: lambda: player)
    assert handlers["new"]({"cls": "Tracker", "side": "r", "state": None, "start": start})["ok"]
    assert player.board == (start if board == "start" else EMPTY)
    assert handlers["move"]({})["move"] == (3, 3)
