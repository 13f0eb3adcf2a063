"""The child side of the book's Board homework: the student's boards built from plain data, and
their search asked for moves.

Loaded by the child runner (``autograder/play/child.py``) inside the submission's process,
before ``minimax.py`` is imported; standard library only, like the runner. A position arrives
as plain data (tic-tac-toe's nine cells, or Connect Four's columns from the bottom up, and the
side to move); the driver builds the student's ``TTTBoard`` or ``C4Board`` through the
student's own constructor and pieces (``TTTBoard([TTTPiece.X, ...], TTTPiece.O)``,
``C4Board([Column with push()...], C4Piece.B)``) and asks what the grader wants: a property,
``move``, or ``find_best_move(board, depth)``. Everything it reports is judged by the grader
(``checks.py``); a missing class or a constructor with another signature is one sentence.
"""

from __future__ import annotations

# Bound before the submission runs, as in the runner: a submission patching builtins changes
# nothing here.
from builtins import (  # noqa: UP029
    BaseException,
    Exception,
    getattr,
    isinstance,
    len,
    list,
    range,
    repr,
    str,
    type,
)
from collections.abc import Callable
from contextlib import suppress
from importlib import import_module
from types import FunctionType
from typing import Any

ROWS = 6  # the book's Connect Four: 7 columns of 6
_MODULES = {  # the game -> its file, board class and piece class, as the book names them
    "tictactoe": ("tictactoe", "TTTBoard", "TTTPiece"),
    "connectfour": ("connectfour", "C4Board", "C4Piece"),
}


class _Unbuilt(Exception):
    """The student's board could not be built: the message says why, for the report."""


class _TooMany(BaseException):
    """Raised inside the student's search when it created more boards than asked for; not an
    ``Exception``, so a search catching those does not swallow it."""


def _piece(value: object) -> str | None:
    """A piece's letter (``TTTPiece.X`` -> ``'X'``), or None when it is no piece we can read."""
    letter = getattr(value, "value", value)
    return letter if type(letter) is str else None


def _sealed(function: Any) -> Any:
    """``function`` with globals of its own, holding only what it uses: the student's boards
    carry it, and the driver's own globals (what answers the checks) must not be reachable
    from them (``move.__globals__``)."""
    names = {
        name: function.__globals__[name]
        for name in function.__code__.co_names
        if name in function.__globals__
    }
    return FunctionType(
        function.__code__,
        {"__builtins__": {}, **names},
        function.__name__,
        function.__defaults__,
        function.__closure__,
    )


def make_handlers(
    module: Any,
    encode: Callable[[object], dict[str, Any]],
    error_text: Callable[[BaseException], str],
    find_class: Callable[[Any, str], Any],
) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The request handlers for a loaded ``minimax.py``; each returns the reply to send."""
    current: list[Any] = [None]  # the state of the game being played, from the referee

    def parts(game: str) -> tuple[Any, Any]:
        file, board_name, piece_name = _MODULES[game]
        try:
            found = import_module(file)
        except BaseException as err:
            raise _Unbuilt(f"importing {file}.py raised {error_text(err)}") from None
        board_class = getattr(found, board_name, None)
        piece_class = getattr(found, piece_name, None)
        if not isinstance(board_class, type) or piece_class is None:
            raise _Unbuilt(
                f"{file}.py defines no {board_name} and {piece_name}; keep the book's names"
            )
        return board_class, piece_class

    def build(request: dict[str, Any]) -> Any:
        game = request["game"]
        board_class, piece_class = parts(game)
        try:
            turn = piece_class(request["turn"])
            if game == "tictactoe":
                cells = [piece_class(cell) for cell in request["cells"]]
                return board_class(cells, turn)
            columns = []
            for pile in request["columns"]:
                column = board_class.Column()
                for cell in pile:
                    column.push(piece_class(cell))
                columns.append(column)
            return board_class(columns, turn)
        except BaseException as err:
            shown = "TTTBoard(position, turn)" if game == "tictactoe" else "C4Board(columns, turn)"
            raise _Unbuilt(
                f"building the board with {shown}, as the book's constructor takes it, raised "
                f"{error_text(err)}"
            ) from None

    def cells(board: Any, game: str) -> Any:
        """The board's position as letters: nine for tic-tac-toe, a column of six per column;
        None when it cannot be read that way."""
        try:
            position = board.position
            if game == "tictactoe":
                return [_piece(position[i]) for i in range(len(position))]
            return [[_piece(position[c][r]) for r in range(ROWS)] for c in range(len(position))]
        except BaseException:
            return None

    def counted(board: Any, counter: list[int], most: int) -> Any:
        """``board`` as a subclass of its own class whose ``move`` counts the boards created and
        stops the search past ``most``; the boards ``move`` returns count in turn."""
        base = type(board)

        class Counted(base):  # type: ignore[valid-type, misc]
            def move(self, location: Any) -> Any:
                counter[0] += 1
                if counter[0] > most:
                    raise _TooMany
                child = base.move(self, location)
                if type(child) is base:
                    with suppress(BaseException):  # a class that cannot be swapped: uncounted
                        child.__class__ = Counted
                return child

        Counted.move = _sealed(Counted.__dict__["move"])  # type: ignore[method-assign]
        Counted.__name__ = Counted.__qualname__ = base.__name__
        with suppress(BaseException):
            board.__class__ = Counted
        return board

    def best(request: dict[str, Any], board: Any) -> dict[str, Any]:
        counter = [0]
        most = request.get("most")
        if most is not None:
            board = counted(board, counter, most)
        before = cells(board, request["game"])
        try:
            raw = module.find_best_move(board, request["depth"])
        except _TooMany:
            return {"ok": True, "stopped": True, "boards": counter[0]}
        return {
            "ok": True,
            "move": encode(raw),
            "boards": counter[0] if most is not None else None,
            "changed": cells(board, request["game"]) != before,
        }

    def ask(request: dict[str, Any], board: Any) -> dict[str, Any]:
        what = request["ask"]
        if what == "best":
            return best(request, board)
        if what == "turn":
            raw = board.turn
            return {"ok": True, "piece": _piece(raw), "shown": repr(raw)[:80]}
        if what == "move":
            game = request["game"]
            before = cells(board, game)
            made = board.move(request["square"])
            return {
                "ok": True,
                "same": made is board,
                "changed": cells(board, game) != before,
                "cells": cells(made, game),
                "turn": _piece(made.turn),
            }
        return {"ok": True, "value": encode(getattr(board, what))}

    def check(request: dict[str, Any]) -> dict[str, Any]:
        try:
            board = build(request)
        except _Unbuilt as err:
            return {"ok": True, "error": str(err)}
        try:
            return ask(request, board)
        except BaseException as err:
            name = request["ask"] if request["ask"] != "best" else "find_best_move"
            return {"ok": True, "error": f"{name} raised {error_text(err)}"}

    def new(request: dict[str, Any]) -> dict[str, Any]:
        current[0] = request.get("state") or request["start"]
        return {"ok": True}

    def sync(request: dict[str, Any]) -> dict[str, Any]:
        current[0] = request["state"]
        return {"ok": True, "notes": []}

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        state = current[0]
        board = build(state)
        before = cells(board, state["game"])
        raw = module.find_best_move(board, state["depth"])
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": cells(board, state["game"]) != before,
            "board_changed": False,
        }

    return {"new": new, "sync": sync, "move": move, "check": check}
