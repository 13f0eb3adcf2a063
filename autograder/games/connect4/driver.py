"""The child side of the Connect Four homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported; standard library only, like the runner. It constructs the
player for a colour (and sets its board to a probe's position), tells it the last two moves
(``place_piece`` for its own, ``opponent_move`` for the opponent's) and asks it for a move
(``make_move(self.board)``). Everything it reports is checked again by the grader.
"""

from __future__ import annotations

# Bound before game.py runs, as in the runner: a submission patching builtins changes nothing.
from builtins import (  # noqa: UP029
    BaseException,
    callable,
    getattr,
    int,
    len,
    list,
    range,
    str,
    type,
)
from collections.abc import Callable
from typing import Any

OTHER = {"r": "y", "y": "r"}


def _plain(board: object, rows: int, columns: int) -> list[list[str]] | None:
    """The board's cells as strings, or None when it is no grid of that size we can read."""
    try:
        return [[str(board[r][c]) for c in range(columns)] for r in range(rows)]  # type: ignore[index]
    except BaseException:
        return None


_CHANGES_SENT = 8  # squares listed when make_move changed a board; the count says the rest


def _changes(before: list[list[str]] | None, after: list[list[str]] | None) -> dict[str, Any]:
    """The squares ``after`` differs in from ``before``: the first few as [row, col, was, now]
    (cells cut short), and how many there are; none when either cannot be read."""
    if before is None or after is None:
        return {"squares": [], "count": 0}
    found = [
        [r, c, before[r][c][:12], after[r][c][:12]]
        for r in range(len(before))
        for c in range(len(before[r]))
        if before[r][c] != after[r][c]
    ]
    return {"squares": found[:_CHANGES_SENT], "count": len(found)}


def _copy(board: list[list[str]]) -> list[list[str]]:
    return [list(row) for row in board]


def make_handlers(
    module: Any,
    encode: Callable[[object], dict[str, Any]],
    error_text: Callable[[BaseException], str],
    find_class: Callable[[Any, str], Any],
) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The request handlers for a loaded ``game.py``; each returns the reply to send.

    ``find_class(module, name)`` is the class, or the reply to send when there is none.
    """
    players: list[Any] = [None]
    size = [6, 7]  # rows, columns of the board being played: from the last state sent

    def new(request: dict[str, Any]) -> dict[str, Any]:
        cls = find_class(module, request["cls"])
        if type(cls) is dict:  # the runner's reply naming the classes there are
            return cls
        player = cls()
        player.my_piece = request["side"]
        player.opp = OTHER.get(request["side"], "y")
        state = request.get("state")
        if state is None:  # a game from the start: the empty board, of this variant's size
            state = request["start"]
            size[0], size[1] = len(state), len(state[0])
            if _plain(getattr(player, "board", None), size[0], size[1]) != state:
                player.board = _copy(state)
        else:
            size[0], size[1] = len(state), len(state[0])
            player.board = _copy(state)
        players[0] = player
        return {"ok": True}

    def sync(request: dict[str, Any]) -> dict[str, Any]:
        notes = []
        player = players[0]
        for key, method, args in (
            ("own", "place_piece", (player.my_piece,)),
            ("opp", "opponent_move", ()),
        ):
            if request.get(key) is None:
                continue
            column = int(request[key])
            try:
                getattr(player, method)(column, *args)
            except BaseException as err:
                notes.append(f"{method}({column!r}) raised {error_text(err)}")
        expected = request["state"]
        size[0], size[1] = len(expected), len(expected[0])
        if _plain(getattr(player, "board", None), size[0], size[1]) != expected:
            notes.append("drift")
            try:
                for r in range(size[0]):
                    for c in range(size[1]):
                        player.board[r][c] = expected[r][c]
            except BaseException:
                player.board = _copy(expected)
        return {"ok": True, "notes": notes}

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        player = players[0]
        state = player.board
        before = _plain(state, size[0], size[1])
        raw = player.make_move(state)
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": _plain(state, size[0], size[1]) != before,
            "board_changed": _plain(getattr(player, "board", None), size[0], size[1]) != before,
            "state_changes": _changes(before, _plain(state, size[0], size[1])),
            "board_changes": _changes(
                before, _plain(getattr(player, "board", None), size[0], size[1])
            ),
        }

    def challenge(_request: dict[str, Any]) -> dict[str, Any]:
        """Whether the player opts in to games against the strongest opponent."""
        ask = getattr(players[0], "run_challenge_test", None)
        return {"ok": True, "opted_in": callable(ask) and ask() is True}

    return {"new": new, "sync": sync, "move": move, "challenge": challenge}
