"""The referee's reading of one reply: what a student sees when make_move changed its state."""

from __future__ import annotations

import pytest

from autograder.games import find_assignment
from autograder.games.teeko.rules import parse_position
from autograder.play.host import Reply, Status
from autograder.play.judge import judge

TEEKO = find_assignment("teeko")
CONNECT4 = find_assignment("connect4")
POS = parse_position("b........................ r", "teeko")  # black on A0, red to drop
MOVE = {"t": "list", "v": [{"t": "tuple", "v": [2, 2]}]}


def _reply(**data: object) -> Reply:
    return Reply(Status.OK, {"move": MOVE, "state_changed": False, "board_changed": False, **data})


def _changes(*squares: list[object], count: int | None = None) -> dict[str, object]:
    return {"squares": list(squares), "count": len(squares) if count is None else count}


def test_a_changed_state_names_each_square_before_and_after_in_the_games_words():
    changes = _changes([3, 1, " ", "b"], [0, 0, "b", " "])
    call = judge(
        TEEKO,
        "probe 1",
        POS,
        _reply(
            state_changed=True, board_changed=True, state_changes=changes, board_changes=changes
        ),
    )
    assert call.changed == "the state passed to it: squares B3 (' ' → 'b'), A0 ('b' → ' ')"


def test_many_changed_squares_are_named_up_to_four_and_counted():
    changes = _changes(*([r, 0, " ", "r"] for r in range(1, 5)), count=9)
    call = judge(TEEKO, "probe 1", POS, _reply(state_changed=True, state_changes=changes))
    assert call.changed == (
        "the state passed to it: squares A1 (' ' → 'r'), A2 (' ' → 'r'), A3 (' ' → 'r'), "
        "A4 (' ' → 'r') and 5 more"
    )


def test_a_new_own_board_is_said_apart_from_the_state():
    board = _changes([4, 4, " ", "r"])
    call = judge(TEEKO, "probe 1", POS, _reply(board_changed=True, board_changes=board))
    assert call.changed == "the player's own board (self.board): square E4 (' ' → 'r')"


@pytest.mark.parametrize(
    "changes",
    [
        None,
        "B3",
        _changes([9, 9, " ", "b"]),
        _changes([-1, 0, " ", "b"]),
        _changes(["x", 0, " ", "b"]),
        _changes([0, 0, " "]),
        {"squares": [[0, 0, " ", "b"]], "count": "many"},
    ],
    ids=["none", "text", "off the board", "negative", "not a number", "short", "bad count"],
)
def test_changes_the_grader_cannot_read_still_cost_the_points_without_squares(changes):
    """The child is the submission's process: what it says is checked, and never trusted to
    name a square that is not on the board."""
    call = judge(TEEKO, "probe 1", POS, _reply(state_changed=True, state_changes=changes))
    assert call.changed == "the state passed to it"


def test_a_changed_cell_is_shown_short_and_escaped():
    changes = _changes([0, 1, " ", "\x1b[31m" + "x" * 500])
    call = judge(TEEKO, "probe 1", POS, _reply(state_changed=True, state_changes=changes))
    assert call.changed == "the state passed to it: square B0 (' ' → '\\x1b[31mxxx')"


def test_connect_four_names_a_square_as_the_student_indexes_it():
    pos = CONNECT4.pack.start(CONNECT4.variant)
    changes = _changes([0, 0, " ", "y"])
    reply = Reply(
        Status.OK,
        {"move": 3, "state_changed": True, "board_changed": False, "state_changes": changes},
    )
    call = judge(CONNECT4, "probe 1", pos, reply)
    assert call.changed == "the state passed to it: square [0][0] (' ' → 'y')"
