"""The child side of the Othello homework: how the course's driver calls a student's player.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``game.py`` is imported; standard library only, like the runner. It constructs the
player for a colour (and sets its board to a probe's position), tells it the last two moves
(``place_piece`` for its own, ``opponent_move`` for the opponent's; a pass, ``"pass"``, is
told to neither) and asks it for a move (``make_move(self.board)``). A player with no square
to play is never asked: the driver answers its forced pass itself, as None (the referee
checks it; a string would not cross the wire as one).
Everything it reports is checked again by the grader.
"""

from __future__ import annotations

# Bound before game.py runs, as in the runner: a submission patching builtins changes nothing.
from builtins import (  # noqa: UP029
    BaseException,
    callable,
    getattr,
    len,
    list,
    range,
    str,
    tuple,
    type,
)
from collections.abc import Callable
from typing import Any

OTHER = {"b": "w", "w": "b"}
PASS = "pass"
_STEPS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


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


def _can_play(board: list[list[str]], piece: str) -> bool:
    """Whether ``piece`` has a square that outflanks a disc of the other side's."""
    size, other = len(board), OTHER[piece]
    for r in range(size):
        for c in range(size):
            if board[r][c] != " ":
                continue
            for dr, dc in _STEPS:
                i, j, seen = r + dr, c + dc, False
                while 0 <= i < size and 0 <= j < size and board[i][j] == other:
                    i, j, seen = i + dr, j + dc, True
                if seen and 0 <= i < size and 0 <= j < size and board[i][j] == piece:
                    return True
    return False


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
    sides = [""]  # the colour the player plays
    expected: list[list[list[str]]] = [[]]  # the board as the referee last sent it
    size = [6]

    def new(request: dict[str, Any]) -> dict[str, Any]:
        cls = find_class(module, request["cls"])
        if type(cls) is dict:  # the runner's reply naming the classes there are
            return cls
        player = cls()
        sides[0] = request["side"]
        player.my_piece = request["side"]
        player.opp = OTHER.get(request["side"], "w")
        state = request.get("state")
        if state is None:  # a game from the start: the variant's first position
            state = request["start"]
            size[0] = len(state)
            if _plain(getattr(player, "board", None), size[0], size[0]) != state:
                player.board = _copy(state)
        else:
            size[0] = len(state)
            player.board = _copy(state)
        expected[0] = state
        players[0] = player
        return {"ok": True}

    def sync(request: dict[str, Any]) -> dict[str, Any]:
        notes = []
        player = players[0]
        for key, method, args in (
            ("own", "place_piece", (player.my_piece,)),
            ("opp", "opponent_move", ()),
        ):
            move = request.get(key)
            if move is None or move == PASS:
                continue
            square = tuple(move)
            try:
                getattr(player, method)(square, *args)
            except BaseException as err:
                notes.append(f"{method}({square!r}) raised {error_text(err)}")
        expected[0] = request["state"]
        size[0] = len(expected[0])
        if _plain(getattr(player, "board", None), size[0], size[0]) != expected[0]:
            notes.append("drift")
            try:
                for r in range(size[0]):
                    for c in range(size[0]):
                        player.board[r][c] = expected[0][r][c]
            except BaseException:
                player.board = _copy(expected[0])
        return {"ok": True, "notes": notes}

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        if not _can_play(expected[0], sides[0]):  # a forced pass: the student is not asked
            return {"ok": True, "move": encode(None), "state_changed": False}
        player = players[0]
        state = player.board
        before = _plain(state, size[0], size[0])
        raw = player.make_move(state)
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": _plain(state, size[0], size[0]) != before,
            "board_changed": _plain(getattr(player, "board", None), size[0], size[0]) != before,
            "state_changes": _changes(before, _plain(state, size[0], size[0])),
            "board_changes": _changes(
                before, _plain(getattr(player, "board", None), size[0], size[0])
            ),
        }

    def challenge(_request: dict[str, Any]) -> dict[str, Any]:
        """Whether the player opts in to games against the strongest opponent."""
        ask = getattr(players[0], "run_challenge_test", None)
        return {"ok": True, "opted_in": callable(ask) and ask() is True}

    return {"new": new, "sync": sync, "move": move, "challenge": challenge}
