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

from contextlib import suppress
from importlib import import_module
from os import listdir, path
from types import FunctionType
from typing import Any, NamedTuple

from autograder.games.grid_driver import Encode, ErrorText, FindClass, Handlers, Latest

ROWS, COLUMNS = 6, 7  # the book's Connect Four: 7 columns of 6
_MODULES = {  # the game -> its file, board class and piece class, as the book names them
    "tictactoe": ("tictactoe", "TTTBoard", "TTTPiece"),
    "connectfour": ("connectfour", "C4Board", "C4Piece"),
}
# The chapter's exercise 3: one GameBoard(position, game_type, turn) for both games, its
# pieces F (who moves first: X, B) and S; Connect Four's cell (column c, row r) is c + 7 * r.
_ONE_BOARD, _ONE_PIECE = "GameBoard", "GamePiece"
_ONE_LETTERS = {"X": "F", "O": "S", "B": "F", "R": "S", " ": " "}
_ONE_BACK = {"tictactoe": {"F": "X", "S": "O"}, "connectfour": {"F": "B", "S": "R"}}


def _won(cells: Any, game: str, lines: list[list[list[int]]]) -> bool:
    """Whether a line is complete on the board read as ``cells``: the kit's own win test, on
    the lines the grader sends (its rules' every winning line, as (column, row) cells)."""
    if game == "tictactoe":
        grid = [[cells[r * 3 + c] for r in range(3)] for c in range(3)]
    else:
        grid = cells
    for line in lines:
        first = grid[line[0][0]][line[0][1]]
        if first not in (None, " ") and all(grid[c][r] == first for c, r in line[1:]):
            return True
    return False


class _Kind(NamedTuple):
    """How one game's boards are built: the book's own classes, or exercise 3's GameBoard."""

    board: Any  # the class
    piece: Any  # the piece class
    one: bool  # exercise 3's GameBoard: flat positions, F and S, a game_type


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
    from them (``move.__globals__``). The builtins it uses are among them, taken from the
    driver's own (the runner's copy, which the submission cannot patch)."""
    names = {
        name: space[name]
        for space in (function.__builtins__, function.__globals__)
        for name in function.__code__.co_names
        if name in space
    }
    return FunctionType(
        function.__code__,
        {"__builtins__": {}, **names},
        function.__name__,
        function.__defaults__,
        function.__closure__,
    )


def make_handlers(
    module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
) -> Handlers:
    """The request handlers for a loaded ``minimax.py``; each returns the reply to send."""
    latest = Latest()  # the state of the game being played, from the referee

    def one_board() -> Any:
        """The module of the submission's folder that defines exercise 3's ``GameBoard``, or
        None when none does."""
        folder = path.dirname(path.abspath(module.__file__ or "."))
        for name in sorted(listdir(folder)):
            if not name.endswith(".py"):
                continue
            try:
                with open(path.join(folder, name), "rb") as handle:
                    found = b"class " + _ONE_BOARD.encode() in handle.read()
            except OSError:
                continue
            if found:
                try:
                    return import_module(name[:-3])
                except BaseException as err:
                    raise _Unbuilt(f"importing {name} raised {error_text(err)}") from None
        return None

    def parts(game: str) -> _Kind:
        file, board_name, piece_name = _MODULES[game]
        folder = path.dirname(path.abspath(module.__file__ or "."))
        if not path.isfile(path.join(folder, f"{file}.py")):
            shared = one_board()
            board_class = getattr(shared, _ONE_BOARD, None) if shared is not None else None
            if not isinstance(board_class, type):
                raise _Unbuilt(
                    f"there is no {file}.py: hand it in with the other files (or one GameBoard "
                    "class for both games, the chapter's exercise 3)"
                )
            piece_class = getattr(shared, _ONE_PIECE, None)
            if piece_class is None:
                raise _Unbuilt(f"the file defining GameBoard defines no {_ONE_PIECE}")
            return _Kind(board_class, piece_class, True)
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
        return _Kind(board_class, piece_class, False)

    def build(request: dict[str, Any]) -> Any:
        game = request["game"]
        kind = parts(game)
        try:
            if kind.one:
                return build_one(kind, request)
            turn = kind.piece(request["turn"])
            if game == "tictactoe":
                cells = [kind.piece(cell) for cell in request["cells"]]
                return kind.board(cells, turn)
            columns = []
            for pile in request["columns"]:
                column = kind.board.Column()
                for cell in pile:
                    column.push(kind.piece(cell))
                columns.append(column)
            return kind.board(columns, turn)
        except BaseException as err:
            shown = (
                "GameBoard(position, game_type, turn), as the chapter's exercise 3 takes it,"
                if kind.one
                else "TTTBoard(position, turn), as the book's constructor takes it,"
                if game == "tictactoe"
                else "C4Board(columns, turn), as the book's constructor takes it,"
            )
            raise _Unbuilt(f"building the board with {shown} raised {error_text(err)}") from None

    def build_one(kind: _Kind, request: dict[str, Any]) -> Any:
        """Exercise 3's board: a flat position (Connect Four's row 0 at the bottom)."""
        game = request["game"]

        def piece(letter: str) -> Any:
            return kind.piece(_ONE_LETTERS[letter])

        if game == "tictactoe":
            flat = [piece(cell) for cell in request["cells"]]
        else:
            flat = [piece(" ")] * (ROWS * COLUMNS)
            for c, pile in enumerate(request["columns"]):
                for r, cell in enumerate(pile):
                    flat[c + COLUMNS * r] = piece(cell)
        game_type = getattr(kind.board.GameType, game)
        return kind.board(flat, game_type, piece(request["turn"]))

    def letter(value: object, game: str) -> str | None:
        """A piece's letter in the book's terms (exercise 3's F and S read as X/O or B/R)."""
        found = _piece(value)
        return _ONE_BACK[game].get(found, found) if found is not None else None

    def cells(board: Any, game: str) -> Any:
        """The board's position as letters: nine for tic-tac-toe, a column of six per column;
        None when it cannot be read that way."""
        try:
            position = board.position
            if game == "tictactoe":
                return [letter(position[i], game) for i in range(len(position))]
            if len(position) == ROWS * COLUMNS:  # exercise 3's flat board
                return [
                    [letter(position[c + COLUMNS * r], game) for r in range(ROWS)]
                    for c in range(COLUMNS)
                ]
            return [
                [letter(position[c][r], game) for r in range(ROWS)] for c in range(len(position))
            ]
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

    def judged(request: dict[str, Any], board: Any, seen: list[int] | None) -> Any:
        """``board`` as a subclass of its own class whose ``is_win`` is the kit's (``seen``
        None), or the student's with each answer that differs from the kit's counted in
        ``seen``; the boards its ``move`` returns too. None when that cannot be made."""
        base = type(board)
        game, lines = request["game"], request["lines"]

        class Judged(base):  # type: ignore[valid-type, misc]
            @property
            def is_win(self) -> Any:
                right = _won(cells(self, game), game, lines)
                if seen is None:
                    return right
                said = super().is_win
                try:
                    differs = bool(said) != right
                except BaseException:
                    differs = True
                seen[0] += differs
                return said

            def move(self, location: Any) -> Any:
                child = base.move(self, location)
                if type(child) is base:
                    with suppress(BaseException):
                        child.__class__ = Judged
                return child

        Judged.__name__ = Judged.__qualname__ = base.__name__
        try:
            board.__class__ = Judged
        except BaseException:
            return None
        return board if cells(board, game) is not None else None

    def best(request: dict[str, Any], board: Any) -> dict[str, Any]:
        counter, seen = [0], [0]
        most = request.get("most")
        if most is not None:
            board = counted(board, counter, most)
        elif request.get("fair"):  # the student's is_win, compared with the kit's on the way
            board = judged(request, board, seen) or build(request)
        before = cells(board, request["game"])
        try:
            raw = module.find_best_move(board, request["depth"])
        except _TooMany:
            return {"ok": True, "stopped": True, "boards": counter[0]}
        said = {
            "ok": True,
            "move": encode(raw),
            "boards": counter[0] if most is not None else None,
            "changed": cells(board, request["game"]) != before,
        }
        if request.get("fair") and seen[0]:  # is_win was wrong on the search's path: the same
            twin = judged(request, build(request), None)  # search, with the kit's
            if twin is not None:
                with suppress(Exception):
                    said["fair_move"] = encode(module.find_best_move(twin, request["depth"]))
        return said

    def ask(request: dict[str, Any], board: Any) -> dict[str, Any]:
        what = request["ask"]
        if what == "best":
            return best(request, board)
        if what == "turn":
            raw = board.turn
            return {"ok": True, "piece": letter(raw, request["game"]), "shown": repr(raw)[:80]}
        if what == "move":
            game = request["game"]
            before = cells(board, game)
            made = board.move(request["square"])
            return {
                "ok": True,
                "same": made is board,
                "changed": cells(board, game) != before,
                "cells": cells(made, game),
                "turn": letter(made.turn, game),
            }
        return {"ok": True, "value": encode(getattr(board, what))}

    def wins(request: dict[str, Any]) -> dict[str, Any]:
        """``is_win`` on each of many positions in one call: True or False each; else, at the
        first that raised or gave another type, what went wrong and where (``at``)."""
        said: list[Any] = []
        name = None
        for at, one in enumerate(request["positions"]):
            try:
                board = build({**one, "game": request["game"]})
                name = name or type(board).__name__
                raw = board.is_win
            except _Unbuilt as err:
                return {"ok": True, "error": str(err)}
            except BaseException as err:
                return {"ok": True, "error": f"is_win raised {error_text(err)}", "at": at}
            if not isinstance(raw, bool | int):
                shown = f"is_win should be True or False, got {repr(raw)[:80]}"
                return {"ok": True, "error": shown, "at": at}
            said.append(bool(raw))
        return {"ok": True, "values": said, "board": name}

    def check(request: dict[str, Any]) -> dict[str, Any]:
        if request["ask"] == "wins":
            return wins(request)
        try:
            board = build(request)
        except _Unbuilt as err:
            return {"ok": True, "error": str(err)}
        try:
            return ask(request, board)
        except BaseException as err:
            name = request["ask"] if request["ask"] != "best" else "find_best_move"
            return {"ok": True, "error": f"{name} raised {error_text(err)}"}

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        state = latest.position
        try:
            board = build(state)
        except _Unbuilt as err:
            return {"ok": False, "kind": "unbuilt", "error": str(err)}
        before = cells(board, state["game"])
        raw = module.find_best_move(board, state["depth"])
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": cells(board, state["game"]) != before,
            "board_changed": False,
        }

    return {"new": latest.new, "sync": latest.sync, "move": move, "check": check}
