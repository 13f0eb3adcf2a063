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

import math
from contextlib import suppress
from enum import Enum
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


_PLY = "_kit_ply"  # what a counted board carries: how many moves below the board asked


class _Unbuilt(Exception):
    """The student's board could not be built: the message says why, for the report."""


class _TooMany(BaseException):
    """Raised inside the student's search when it created more boards than asked for; not an
    ``Exception``, so a search catching those does not swallow it."""


def _piece(value: object) -> str | None:
    """A piece's letter (``TTTPiece.X`` -> ``'X'``), or None when it is no piece we can read.
    An enum whose values are not its letters (``X = 1``) is read by its members' names, the
    empty ``E`` as the book's blank."""
    letter = getattr(value, "value", value)
    if type(letter) is str:
        return letter
    name = getattr(value, "name", None) if isinstance(value, Enum) else None
    if type(name) is str and len(name) == 1:
        return " " if name == "E" else name
    return None


def _by_letter(piece_class: Any) -> Any:
    """How to make the student's piece of a letter: ``piece_class(letter)`` as the book's
    enum of letters takes it, or by member name where no value is the letter (``X = 1``;
    the blank " " is ``E``)."""
    members = getattr(piece_class, "__members__", None)
    if not isinstance(piece_class, type) or not issubclass(piece_class, Enum) or not members:
        return piece_class
    values = {member.value for member in members.values() if type(member.value) is str}

    def make(letter: str) -> Any:
        name = "E" if letter == " " else letter
        if letter not in values and name in members:
            return members[name]
        return piece_class(letter)

    return make


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


class _Boards:
    """The student's boards, built from plain data through the student's own classes (the
    book's, or exercise 3's ``GameBoard``) and read back as letters."""

    def __init__(self, module: Any, error_text: ErrorText) -> None:
        self.folder = path.dirname(path.abspath(module.__file__ or "."))
        self.error_text = error_text

    def one_board(self) -> Any:
        """The module of the submission's folder that defines exercise 3's ``GameBoard``, or
        None when none does."""
        for name in sorted(listdir(self.folder)):
            if not name.endswith(".py"):
                continue
            try:
                with open(path.join(self.folder, name), "rb") as handle:
                    found = b"class " + _ONE_BOARD.encode() in handle.read()
            except OSError:
                continue
            if found:
                try:
                    return import_module(name[:-3])
                except BaseException as err:
                    raise _Unbuilt(f"importing {name} raised {self.error_text(err)}") from None
        return None

    def parts(self, game: str) -> _Kind:
        file, board_name, piece_name = _MODULES[game]
        if not path.isfile(path.join(self.folder, f"{file}.py")):
            shared = self.one_board()
            board_class = getattr(shared, _ONE_BOARD, None) if shared is not None else None
            if not isinstance(board_class, type):
                raise _Unbuilt(
                    f"there is no {file}.py: hand it in with the other files (or one GameBoard "
                    "class for both games, the chapter's exercise 3)"
                )
            piece_class = getattr(shared, _ONE_PIECE, None)
            if piece_class is None:
                raise _Unbuilt(f"the file defining GameBoard defines no {_ONE_PIECE}")
            return _Kind(board_class, _by_letter(piece_class), True)
        try:
            found = import_module(file)
        except BaseException as err:
            raise _Unbuilt(f"importing {file}.py raised {self.error_text(err)}") from None
        board_class = getattr(found, board_name, None)
        piece_class = getattr(found, piece_name, None)
        if not isinstance(board_class, type) or piece_class is None:
            raise _Unbuilt(
                f"{file}.py defines no {board_name} and {piece_name}; keep the book's names"
            )
        return _Kind(board_class, _by_letter(piece_class), False)

    def piece(self, game: str, letter: str) -> Any:
        """The student's piece of ``letter`` (X, O, B, R or the empty " ")."""
        kind = self.parts(game)
        return kind.piece(_ONE_LETTERS[letter] if kind.one else letter)

    def build(self, request: dict[str, Any]) -> Any:
        game = request["game"]
        kind = self.parts(game)
        try:
            if kind.one:
                return _build_one(kind, request)
            turn = kind.piece(request["turn"])
            if game == "tictactoe":
                return kind.board([kind.piece(cell) for cell in request["cells"]], turn)
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
            error = self.error_text(err)
            raise _Unbuilt(f"building the board with {shown} raised {error}") from None


def _build_one(kind: _Kind, request: dict[str, Any]) -> Any:
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


def _letter(value: object, game: str) -> str | None:
    """A piece's letter in the book's terms (exercise 3's F and S read as X/O or B/R)."""
    found = _piece(value)
    return _ONE_BACK[game].get(found, found) if found is not None else None


def _cells(board: Any, game: str) -> Any:
    """The board's position as letters: nine for tic-tac-toe, a column of six per column;
    None when it cannot be read that way."""
    try:
        position = board.position
        if game == "tictactoe":
            return [_letter(position[i], game) for i in range(len(position))]
        if len(position) == ROWS * COLUMNS:  # exercise 3's flat board
            return [
                [_letter(position[c + COLUMNS * r], game) for r in range(ROWS)]
                for c in range(COLUMNS)
            ]
        return [[_letter(position[c][r], game) for r in range(ROWS)] for c in range(len(position))]
    except BaseException:
        return None


def _counted(board: Any, counter: list[int], most: int) -> Any:
    """``board`` as a subclass of its own class whose ``move`` counts the boards created
    (``counter[0]``) and the most moves below ``board`` they lie (``counter[1]``), and stops
    the search past ``most``; the boards ``move`` returns count in turn."""
    base = type(board)

    class Counted(base):  # type: ignore[valid-type, misc]
        def move(self, location: Any) -> Any:
            counter[0] += 1
            if counter[0] > most:
                raise _TooMany
            child = base.move(self, location)
            ply = getattr(self, _PLY, 0) + 1
            counter[1] = max(counter[1], ply)
            if type(child) is base:
                with suppress(BaseException):  # a class that cannot be swapped: uncounted
                    child.__class__ = Counted
                    setattr(child, _PLY, ply)
            return child

    Counted.move = _sealed(Counted.__dict__["move"])  # type: ignore[method-assign]
    Counted.__name__ = Counted.__qualname__ = base.__name__
    with suppress(BaseException):
        board.__class__ = Counted
    return board


def _judged(request: dict[str, Any], board: Any, seen: list[int] | None) -> Any:
    """``board`` as a subclass of its own class whose ``is_win`` is the kit's (``seen``
    None), or the student's with each answer that differs from the kit's counted in
    ``seen``; the boards its ``move`` returns too. None when that cannot be made."""
    base = type(board)
    game, lines = request["game"], request["lines"]

    class Judged(base):  # type: ignore[valid-type, misc]
        @property
        def is_win(self) -> Any:
            right = _won(_cells(self, game), game, lines)
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
    return board if _cells(board, game) is not None else None


class _Plain:
    """The kit's minimax, the book's way, through the student's own boards (``legal_moves``,
    ``move``, ``is_win``, ``is_draw``, ``evaluate``): the values the student's search must
    find. ``boards`` counts the boards it creates; ``mutated`` notes a ``move`` that changed
    the board it was called on."""

    def __init__(self, game: str, prune: bool) -> None:
        self.game, self.prune = game, prune
        self.boards, self.mutated = 0, False

    def child(self, board: Any, move: Any) -> Any:
        before = _cells(board, self.game)
        made = board.move(move)
        self.boards += 1
        self.mutated = self.mutated or _cells(board, self.game) != before
        return made

    def value(self, board: Any, maximizing: bool, player: Any, depth: int) -> float:
        return self._search(board, maximizing, player, depth, -math.inf, math.inf)

    def _search(
        self, board: Any, maximizing: bool, player: Any, depth: int, alpha: float, beta: float
    ) -> float:
        if board.is_win or board.is_draw or depth <= 0:
            return float(board.evaluate(player))
        best = -math.inf if maximizing else math.inf
        for move in list(board.legal_moves):
            got = self._search(
                self.child(board, move), not maximizing, player, depth - 1, alpha, beta
            )
            if maximizing:
                best, alpha = max(best, got), max(alpha, got)
            else:
                best, beta = min(best, got), min(beta, got)
            if self.prune and beta <= alpha:
                break
        return best


def _number(value: Any) -> str | None:
    """A value as the runner's JSON carries a number (its ``repr`` as a float: "1000000.0",
    "inf"), or None when it is no number."""
    try:
        return repr(float(value))
    except BaseException:
        return None


def _values(
    request: dict[str, Any], board: Any, boards: _Boards, module: Any, encode: Encode
) -> dict[str, Any]:
    """The kit's plain minimax value of the board after each move (and the boards it and
    alpha-beta in the same order create), beside what the student's ``call`` gives."""
    game, depth, call = request["game"], int(request["depth"]), request["call"]
    moves = [int(m) for m in board.legal_moves]
    player = board.turn
    plain, pruned = _Plain(game, False), _Plain(game, True)
    try:
        values = [_number(plain.value(plain.child(board, m), False, player, depth)) for m in moves]
        for m in moves:
            pruned.value(pruned.child(board, m), False, player, depth)
    except BaseException as err:  # the student's own boards, walked by the kit's minimax
        error = boards.error_text(err)
        return {"ok": True, "error": f"your boards raised {error}", "mutated": plain.mutated}
    said: dict[str, Any] = {
        "ok": True,
        "moves": moves,
        "plain": values,
        "plain_boards": plain.boards,
        "pruned_boards": pruned.boards,
        "mutated": plain.mutated,
    }
    fresh = boards.build(request)
    counter, found = [0, 0], []
    try:
        if call == "find_best_move":
            return {**said, "move": encode(module.find_best_move(fresh, depth))}
        search = getattr(module, call)
        for m in moves:
            child = _counted(fresh.move(m), counter, 1 << 60)
            found.append(_number(search(child, False, player, depth)))
    except BaseException as err:  # said with ``mutated``: a board that changes may be why
        return {**said, "error": f"{call} raised {boards.error_text(err)}"}
    return {**said, "values": found, "boards": counter[0] + len(moves)}


def _evaluate(request: dict[str, Any], board: Any, boards: _Boards) -> dict[str, Any]:
    """``evaluate`` of the board for the side that has won on it and for the other."""
    game, winner = request["game"], request["winner"]
    loser = {"X": "O", "O": "X", "B": "R", "R": "B"}[winner]
    return {
        "ok": True,
        "winner": _number(board.evaluate(boards.piece(game, winner))),
        "loser": _number(board.evaluate(boards.piece(game, loser))),
    }


def _best(
    request: dict[str, Any], board: Any, boards: _Boards, module: Any, encode: Encode
) -> dict[str, Any]:
    """``find_best_move(board, depth)``: its move, the boards it created (``most``: counted,
    stopped past it), whether it changed the board; with ``fair``, the student's ``is_win``
    compared with the kit's on the way and, where they differed, the same search's move with
    the kit's win test (``fair_move``)."""
    counter, seen = [0, 0], [0]
    most = request.get("most")
    if most is not None:
        board = _counted(board, counter, most)
    elif request.get("fair"):
        board = _judged(request, board, seen) or boards.build(request)
    before = _cells(board, request["game"])
    try:
        raw = module.find_best_move(board, request["depth"])
    except _TooMany:
        return {"ok": True, "stopped": True, "boards": counter[0]}
    except BaseException as err:  # said with ``changed``: a board that changes may be why
        changed = _cells(board, request["game"]) != before
        error = boards.error_text(err)
        return {"ok": True, "error": f"find_best_move raised {error}", "changed": changed}
    said = {
        "ok": True,
        "move": encode(raw),
        "boards": counter[0] if most is not None else None,
        "deepest": counter[1] if most is not None else None,
        "changed": _cells(board, request["game"]) != before,
    }
    if request.get("fair") and seen[0]:  # is_win was wrong on the search's path: the same
        twin = _judged(request, boards.build(request), None)  # search, with the kit's
        if twin is not None:
            with suppress(Exception):
                said["fair_move"] = encode(module.find_best_move(twin, request["depth"]))
    return said


def _ask(
    request: dict[str, Any], board: Any, boards: _Boards, module: Any, encode: Encode
) -> dict[str, Any]:
    what, game = request["ask"], request["game"]
    if what == "best":
        return _best(request, board, boards, module, encode)
    if what == "values":
        return _values(request, board, boards, module, encode)
    if what == "evaluate":
        return _evaluate(request, board, boards)
    if what == "turn":
        raw = board.turn
        return {"ok": True, "piece": _letter(raw, game), "shown": repr(raw)[:80]}
    if what == "move":
        before = _cells(board, game)
        made = board.move(request["square"])
        return {
            "ok": True,
            "same": made is board,
            "changed": _cells(board, game) != before,
            "cells": _cells(made, game),
            "turn": _letter(made.turn, game),
        }
    return {"ok": True, "value": encode(getattr(board, what))}


def _wins(request: dict[str, Any], boards: _Boards, error_text: ErrorText) -> dict[str, Any]:
    """``is_win`` on each of many positions in one call: True or False each (None for one the
    student's board class cannot build); else, at the first that raised or gave another type,
    what went wrong and where (``at``)."""
    said: list[Any] = []
    name, unbuilt = None, None
    for at, one in enumerate(request["positions"]):
        try:
            board = boards.build({**one, "game": request["game"]})
            name = name or type(board).__name__
            raw = board.is_win
        except _Unbuilt as err:  # this position cannot be built: not asked
            unbuilt = unbuilt or str(err)
            said.append(None)
            continue
        except BaseException as err:
            return {"ok": True, "error": f"is_win raised {error_text(err)}", "at": at}
        if not isinstance(raw, bool | int):
            shown = f"is_win should be True or False, got {repr(raw)[:80]}"
            return {"ok": True, "error": shown, "at": at}
        said.append(bool(raw))
    if all(value is None for value in said):
        return {"ok": True, "error": unbuilt}
    return {"ok": True, "values": said, "board": name, "unbuilt": unbuilt}


_CALLED = {"best": "find_best_move", "values": "the search", "evaluate": "evaluate"}


def make_handlers(
    module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
) -> Handlers:
    """The request handlers for a loaded ``minimax.py``; each returns the reply to send."""
    latest = Latest()  # the state of the game being played, from the referee
    boards = _Boards(module, error_text)

    def check(request: dict[str, Any]) -> dict[str, Any]:
        if request["ask"] == "wins":
            return _wins(request, boards, error_text)
        try:
            board = boards.build(request)
        except _Unbuilt as err:
            return {"ok": True, "error": str(err), "unbuilt": True}
        try:
            return _ask(request, board, boards, module, encode)
        except BaseException as err:
            name = request.get("call") or _CALLED.get(request["ask"], request["ask"])
            return {"ok": True, "error": f"{name} raised {error_text(err)}"}

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        state = latest.position
        try:
            board = boards.build(state)
        except _Unbuilt as err:
            return {"ok": False, "kind": "unbuilt", "error": str(err)}
        before = _cells(board, state["game"])
        raw = module.find_best_move(board, state["depth"])
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": _cells(board, state["game"]) != before,
            "board_changed": False,
        }

    return {"new": latest.new, "sync": latest.sync, "move": move, "check": check}
