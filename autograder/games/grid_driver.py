"""The child side of the grid games: how the course's driver calls a student's player.

A pack's driver is one line, ``make_handlers = Grid(...).make_handlers``; this module holds
what every such driver does. It runs in the submission's process (``autograder/play/child.py``
loads the pack's driver there), so it is standard library only, like the runner, which loads
it with a copy of the builtins of its own (a submission patching ``builtins`` changes nothing
here) and lends it to the driver's import while the driver loads, never after: the submission
cannot import it (docs/sandbox.md).

The player it drives is the course's: ``cls()`` for a side, ``my_piece`` and ``opp`` set,
``board`` a list of rows of one-character strings (any rectangular size), told every ply
(``place_piece(move, my_piece)`` for its own, ``opponent_move(move)`` for the other side's)
and asked ``make_move(board)``. Everything it reports is checked again by the grader.

A sync request carries the position (``state``) and ``plies``: every ply since the player
was last told, oldest first, each as ``[side, move]``: its own moves, the other side's and
the forced passes of either. Each ply is told by the side that made it, never by taking turns:
in a game with extra turns a side moves twice in a row. A pass changes no square: the player
is not told of it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = [
    "Encode",
    "ErrorText",
    "FindClass",
    "Grid",
    "Handlers",
    "Latest",
    "cell",
    "cells",
    "column",
    "copy_grid",
]

# What the runner hands a driver's ``make_handlers(module, encode, error_text, find_class)``: the
# submission's module, how a returned value is described, the student's view of an exception,
# and ``find_class(module, name)``: the class, or the reply naming those there are. It returns a
# handler per request, each taking the request and returning the reply.
Encode = Callable[[object], dict[str, Any]]
ErrorText = Callable[[BaseException], str]
FindClass = Callable[[Any, str], Any]
Handlers = dict[str, Callable[[dict[str, Any]], dict[str, Any]]]

_CHANGES_SENT = 8  # squares listed when make_move changed a board; the count says the rest
_DRIFT_SHOWN = 3  # squares named when the player's board drifted from the game's


# ---- how a move reaches the student: the pack's plain data, shaped as the homework's ---------


def column(move: Any) -> int:
    """A column (Connect Four): ``3``."""
    return int(move)


def cell(move: Any) -> tuple[Any, ...]:
    """One square as ``(row, col)`` (Othello)."""
    return tuple(move)


def cells(move: Any) -> list[tuple[Any, ...]]:
    """Squares as a list of ``(row, col)``: one to drop, two to move from and to (Teeko)."""
    return [tuple(square) for square in move]


# ---- boards ---------------------------------------------------------------------------------


def copy_grid(board: list[list[Any]]) -> list[list[Any]]:
    """A fresh list of fresh rows."""
    return [list(row) for row in board]


def _plain(board: object, rows: int, columns: int) -> list[list[str]] | None:
    """The board's cells as strings (a piece, or a count of seeds), or None when it is no grid
    of that size we can read."""
    try:
        return [[str(board[r][c]) for c in range(columns)] for r in range(rows)]  # type: ignore[index]
    except BaseException:
        return None


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


def _drifted(player: Any, expected: list[list[Any]], rows: int, columns: int) -> str | None:
    """How the player's board differs from the position sent, for its report (None: it does
    not); it is then set to it, in place where the board takes it (its rows may be the
    student's own objects)."""
    own, sent = (
        _plain(getattr(player, "board", None), rows, columns),
        _plain(expected, rows, columns),
    )
    if own == sent:
        return None
    try:
        for r in range(rows):
            for c in range(columns):
                player.board[r][c] = expected[r][c]
    except BaseException:
        player.board = copy_grid(expected)
    if own is None:
        return f"drift: self.board is no {rows}x{columns} board"
    found = _changes(sent, own)
    count = found["count"]
    shown = "; ".join(
        f"[{r}][{c}] holds {mine!r} where the game has {theirs!r}"
        for r, c, theirs, mine in found["squares"][:_DRIFT_SHOWN]
    )
    more = f"; {count - _DRIFT_SHOWN} more" if count > _DRIFT_SHOWN else ""
    squares = f"{count} square{'s' if count > 1 else ''}"
    return f"drift: self.board differs from the game's at {squares}: {shown}{more}"


def _asked(player: Any, encode: Encode, rows: int, columns: int) -> dict[str, Any]:
    """``make_move(player.board)``: the move, and whether it changed the board it was given or
    the player's own (and which squares)."""
    state = player.board
    before = _plain(state, rows, columns)
    said = encode(player.make_move(state))
    after_state = _plain(state, rows, columns)
    after_board = _plain(getattr(player, "board", None), rows, columns)
    return {
        "ok": True,
        "move": said,
        "state_changed": after_state != before,
        "board_changed": after_board != before,
        "state_changes": _changes(before, after_state),
        "board_changes": _changes(before, after_board),
    }


# ---- the drivers ----------------------------------------------------------------------------


class Grid:
    """A grid homework's driver, set by the pack.

    ``pieces``: the two sides' pieces, first mover first, as the player's ``my_piece`` holds
    them (an unknown side's opponent is the second); ``move``: how a move reaches the player
    (``cells``, ``cell``, ``column``); ``shape``: rows and columns of the board until the
    referee sends one; ``fit_start``: a game from the start gives the player the variant's
    start board unless its own board already reads as it (Connect Four's constructor knows one
    size, its variants others), where without it a board that differs is drift at the first
    sync; ``pass_move``: a pass, as the pack's ``student_move`` gives it (None: a game without
    passes); ``own`` and ``opponent``: the player's methods told each ply.
    """

    def __init__(
        self,
        pieces: tuple[str, str],
        move: Callable[[Any], Any],
        shape: tuple[int, int],
        fit_start: bool = False,
        pass_move: Any = None,
        own: str = "place_piece",
        opponent: str = "opponent_move",
    ) -> None:
        self.pieces, self.move, self.shape, self.fit_start = pieces, move, shape, fit_start
        self.pass_move, self.own, self.opponent = pass_move, own, opponent

    def make_handlers(
        self, module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
    ) -> Handlers:
        """The request handlers for a loaded submission; each returns the reply to send."""
        first, second = self.pieces
        other = {first: second, second: first}
        shaped, fit_start, passed = self.move, self.fit_start, self.pass_move
        own, opponent = self.own, self.opponent
        players: list[Any] = [None]
        seat = [first]  # the side the player plays
        size = list(self.shape)  # rows, columns of the board being played: from the last sent

        def fit(board: list[list[str]]) -> None:
            size[0], size[1] = len(board), len(board[0])

        def new(request: dict[str, Any]) -> dict[str, Any]:
            cls = find_class(module, request["cls"])
            if type(cls) is dict:  # the runner's reply naming the classes there are
                return cls
            player = cls()
            seat[0] = request["side"]
            player.my_piece = request["side"]
            player.opp = other.get(request["side"], second)
            state = request.get("state")
            if state is not None:
                fit(state)
                player.board = copy_grid(state)
            elif fit_start:  # a game from the start: the start board, of this variant's size
                start = request["start"]
                fit(start)
                if _plain(getattr(player, "board", None), *size) != _plain(start, *size):
                    player.board = copy_grid(start)
            players[0] = player
            return {"ok": True}

        def sync(request: dict[str, Any]) -> dict[str, Any]:
            notes = []
            player = players[0]
            piece = player.my_piece
            for side, raw in request["plies"]:
                if raw is None or raw == passed:
                    continue
                method, args = (own, (piece,)) if side == seat[0] else (opponent, ())
                move = shaped(raw)
                try:
                    getattr(player, method)(move, *args)
                except BaseException as err:
                    notes.append(f"{method}({move!r}) raised {error_text(err)}")
            expected = request["state"]
            fit(expected)
            drift = _drifted(player, expected, *size)
            if drift is not None:
                notes.append(drift)
            return {"ok": True, "notes": notes}

        def move(_request: dict[str, Any]) -> dict[str, Any]:
            return _asked(players[0], encode, *size)

        def challenge(_request: dict[str, Any]) -> dict[str, Any]:
            """Whether the player opts in to games against the strongest opponent (KIT_SPEC §3)."""
            ask = getattr(players[0], "run_challenge_test", None)
            return {"ok": True, "opted_in": callable(ask) and ask() is True}

        return {"new": new, "sync": sync, "move": move, "challenge": challenge}


class Latest:
    """The position the referee sent last, for a driver that builds the student's objects
    afresh from it for each request (the notebook, the sketch, the book's boards): its ``new``
    and ``sync`` handlers keep it in ``position`` and tell the student nothing."""

    def __init__(self) -> None:
        self.position: Any = None

    def new(self, request: dict[str, Any]) -> dict[str, Any]:
        state = request.get("state")
        self.position = request["start"] if state is None else state
        return {"ok": True}

    def sync(self, request: dict[str, Any]) -> dict[str, Any]:
        self.position = request["state"]
        return {"ok": True, "notes": []}
