"""The child side of the Colab notebook course's homework: the student's own ``Connect4State`` and
``Agent``, called as the notebook's ``Connect4Env`` calls them.

Loaded by the child runner inside the submission's process, before the notebook's module is
imported; standard library only. A position arrives as the kit's board (rows bottom first, -1
for the first player, 1 for the second, 0 empty) with the player to move (-1 or 1) and the
search depth. Which way the student's board faces is asked of the student's own code once:
``Connect4State.empty_board(width, height, agents_sign)`` and one ``apply_action`` on it (where
did the disc land: row 0, or the last row?); every state is then built from such an empty
board, cell by cell (a numpy board stays a numpy array), facing the student's way, and read
back the kit's way. A move is ``Agent(depth, sign).play(Connect4State(board, agents_sign,
player))``, read as a column. While the agent plays, ``Connect4State.apply_action`` is wrapped
to count the states it makes and how many plies below the position they lie; the checks
(``notebook.py``) compare that, and the move, with plain minimax run here through the
student's own class and value. Everything reported is checked again by the grader.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from autograder.games.grid_driver import Encode, ErrorText, FindClass, Handlers, Latest, copy_grid

SIGNS = {-1: "r", 1: "y"}  # the agents' piece signs, as the notebook's agents_sign maps them
_PLY = "_kit_ply"  # the attribute a counted state carries: its plies below the position asked


class _Notebook:
    """The notebook's classes, and which way its boards face (asked once, lazily)."""

    def __init__(self, module: Any, find_class: FindClass) -> None:
        self.module, self.find_class = module, find_class
        self.agent: Any = None
        self.state: Any = None
        self.facing: str | None = None  # "bottom" (row 0 at the bottom), "top", or why unknown
        self.empty: Callable[[], Any] | None = None  # a fresh empty board of the student's own

    def found(self) -> dict[str, Any] | None:
        """Find the notebook's classes; the runner's reply naming those there are, if not."""
        for name in ("Agent", "Connect4State"):
            cls = self.find_class(self.module, name)
            if isinstance(cls, dict):
                return cls
            setattr(self, "agent" if name == "Agent" else "state", cls)
        return None

    def orient(self, rows: int, columns: int) -> None:
        """Ask the student's empty board which way it faces: one disc of player -1 dropped
        into column 0 of ``empty_board(columns, rows, agents_sign)``."""
        if self.facing is not None:
            return
        self.facing = "bottom"
        try:
            make = self.state.empty_board
            board = make(columns, rows, dict(SIGNS)).board
            if len(board) != rows or len(board[0]) != columns:
                self.facing = "unknown: empty_board(width, height, agents_sign) gave another size"
                return
            after = make(columns, rows, dict(SIGNS)).apply_action(0, -1).board
            landed = [r for r in range(rows) if int(after[r][0]) == -1]
        except BaseException:
            self.facing = "unknown: Connect4State.empty_board or apply_action could not be asked"
            return
        self.empty = lambda: make(columns, rows, dict(SIGNS)).board
        if landed == [rows - 1] and rows > 1:
            self.facing = "top"
        elif landed != [0]:
            self.facing = "unknown: the disc apply_action dropped on an empty board was not found"

    def grid(self, board: list[list[int]]) -> Any:
        """The kit's board (bottom first) as the student's: facing its way, of its own type."""
        rows = board if self.facing != "top" else board[::-1]
        if self.empty is not None:
            try:
                made = self.empty()
                for r, row in enumerate(rows):
                    for c, cell in enumerate(row):
                        made[r][c] = cell
                return made
            except BaseException:
                pass
        return copy_grid(rows)

    def plain(self, state: Any) -> list[list[int]] | None:
        """The state's board as the kit's plain ints, bottom first; None when it is no grid."""
        try:
            rows = [[int(cell) for cell in row] for row in state.board]
        except BaseException:
            return None
        return rows[::-1] if self.facing == "top" else rows

    def state_of(self, plain: dict[str, Any]) -> Any:
        board = plain["board"]
        self.orient(len(board), len(board[0]))
        return self.state(self.grid(board), dict(SIGNS), plain["player"])

    def bot(self, depth: int, piece: str) -> Any:
        """``Agent(depth, piece, AgentType.Bot)`` where the notebook has ``AgentType.Bot`` and
        its Agent takes a mode, else ``Agent(depth, piece)``: never a person's agent."""
        kind = getattr(getattr(self.module, "AgentType", None), "Bot", None)
        if kind is not None:
            try:
                return self.agent(depth, piece, kind)
            except TypeError:
                pass  # an Agent without a mode: asked again as the course's two arguments
        return self.agent(depth, piece)

    def play(self, plain: dict[str, Any], depth: int) -> tuple[Any, Any, dict[int, int]]:
        """The agent's move on ``plain``, the state it was given, and how many states it made
        at each ply below it."""
        state = self.state_of(plain)
        agent = self.bot(depth, SIGNS[plain["player"]])
        plies: dict[int, int] = {}
        restore = _counted(self.state, plies)
        try:
            raw = agent.play(state)
        finally:
            restore()
        return raw, state, plies


def _counted(cls: Any, plies: dict[int, int]) -> Callable[[], None]:
    """Wrap ``cls.apply_action`` to count the states made at each ply; the function that
    unwraps it."""
    own = cls.__dict__.get("apply_action")
    original = cls.apply_action

    def apply_action(self: Any, *args: Any, **kwargs: Any) -> Any:
        child = original(self, *args, **kwargs)
        if child is not None:
            ply = getattr(self, _PLY, 0) + 1
            plies[ply] = plies.get(ply, 0) + 1
            try:  # noqa: SIM105 - contextlib is library code the notebook may patch
                setattr(child, _PLY, ply)
            except BaseException:
                pass
        return child

    cls.apply_action = apply_action

    def restore() -> None:
        if own is None:
            delattr(cls, "apply_action")
        else:
            cls.apply_action = own

    return restore


class _Minimax:
    """Plain minimax, or alpha-beta with ``prune``, through the student's own class and value
    (``apply_action`` on every column, ``isTerminal``, ``value``): max is player 1, as in the
    seed. ``made`` counts the states it makes, ``leaves`` those at the search's depth."""

    def __init__(self, nb: _Notebook, columns: int, prune: bool) -> None:
        self.nb, self.columns, self.prune, self.made, self.leaves = nb, columns, prune, 0, 0
        self.mutated = False  # an apply_action changed the state it was called on

    def children(self, state: Any, leaves: bool) -> list[tuple[int, Any]]:
        player = getattr(state, "curr_player_number", 1)
        found = []
        for action in range(self.columns):
            before = self.nb.plain(state)
            child = state.apply_action(action, player)
            self.mutated = self.mutated or self.nb.plain(state) != before
            if child is not None:
                self.made += 1
                self.leaves += leaves
                found.append((action, child))
        return found

    def value(
        self, state: Any, depth: int, alpha: float = -math.inf, beta: float = math.inf
    ) -> float:
        if depth <= 0 or _truth(getattr(state, "isTerminal", False)):
            return _number(_value(state))
        maximising = getattr(state, "curr_player_number", 1) == 1
        best = -math.inf if maximising else math.inf
        for _, child in self.children(state, depth == 1):
            score = self.value(child, depth - 1, alpha, beta)
            if maximising:
                best, alpha = max(best, score), max(alpha, score)
            else:
                best, beta = min(best, score), min(beta, score)
            if self.prune and alpha >= beta:
                break
        return best


def _search(nb: _Notebook, request: dict[str, Any], encode: Encode) -> dict[str, Any]:
    """The agent's move and the states it made, beside plain minimax's value of each move at
    the same depth (and the states plain minimax and alpha-beta make there)."""
    plain, depth = request["state"], int(request["depth"])
    raw, _state, plies = nb.play(plain, depth)
    columns = len(plain["board"][0])
    kit, pruned = _Minimax(nb, columns, False), _Minimax(nb, columns, True)
    pruned.value(nb.state_of(plain), depth)
    moves = kit.children(nb.state_of(plain), depth == 1)
    values = [repr(kit.value(child, depth - 1)) for _, child in moves]
    return {
        "ok": True,
        "move": encode(raw),
        "made": sum(plies.values()),
        "deepest": max(plies, default=0),
        "made_at_depth": plies.get(depth, 0),
        "minimax_at_depth": kit.leaves,
        "moves": [action for action, _ in moves],
        "values": values,
        "player": plain["player"],
        "minimax": kit.made,
        "alphabeta": pruned.made,
        "mutated": kit.mutated,
        "facing": nb.facing,
    }


def _apply(nb: _Notebook, request: dict[str, Any]) -> dict[str, Any]:
    plain = request["state"]
    state = nb.state_of(plain)
    child = state.apply_action(int(request["column"]), plain["player"])
    return {
        "ok": True,
        "original": nb.plain(state),
        "child": None if child is None else nb.plain(child),
        "same": child is state,
        "facing": nb.facing,
    }


def _next(nb: _Notebook, request: dict[str, Any], error_text: ErrorText) -> dict[str, Any]:
    """The actions ``next_states()`` yields (None when the notebook has none)."""
    state = nb.state_of(request["state"])
    if not callable(getattr(state, "next_states", None)):
        return {"ok": True, "actions": None}
    actions = []
    try:
        for item in state.next_states():
            action = item[0] if isinstance(item, tuple) else None
            actions.append(int(action) if isinstance(action, int) else repr(action)[:20])
    except BaseException as err:
        return {"ok": True, "error": f"next_states raised {error_text(err)}"}
    return {"ok": True, "actions": actions}


def _terminal(nb: _Notebook, request: dict[str, Any], encode: Encode) -> dict[str, Any]:
    state = nb.state_of(request["state"])
    value = _value(state)
    try:
        positive = float(value) > 0
    except BaseException:
        positive = False
    return {
        "ok": True,
        "terminal": _truth(getattr(state, "isTerminal", False)),
        "value": encode(value),
        "positive": positive,
    }


def make_handlers(
    module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
) -> Handlers:
    """The request handlers for a loaded notebook; each returns the reply to send."""
    latest = Latest()  # the position being played: {"board", "player", "depth"}
    nb = _Notebook(module, find_class)

    def new(request: dict[str, Any]) -> dict[str, Any]:
        missing = nb.found()
        return missing if missing is not None else latest.new(request)

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        plain = latest.position
        raw, state, _plies = nb.play(plain, plain["depth"])
        return {"ok": True, "move": encode(raw), "state_changed": nb.plain(state) != plain["board"]}

    def check(request: dict[str, Any]) -> dict[str, Any]:
        missing = nb.found()
        if missing is not None:
            return missing
        ask = request["ask"]
        if ask == "search":
            return _search(nb, request, encode)
        if ask == "apply_action":
            return _apply(nb, request)
        if ask == "next_states":
            return _next(nb, request, error_text)
        if ask == "terminal":
            return _terminal(nb, request, encode)
        return {"ok": False, "error": f"unknown check {ask!r}"}

    return {"new": new, "sync": latest.sync, "move": move, "check": check}


def _truth(flag: Any) -> bool:
    """``flag`` as the student's own ``if state.isTerminal:`` reads it: numpy's ``bool_``
    counts as True or False, a method (``isTerminal()``) is called; a flag whose truth raises
    is False."""
    try:
        return bool(flag() if callable(flag) else flag)
    except BaseException:
        return False


def _value(state: Any) -> Any:
    value = getattr(state, "value", None)
    return state.calculate_value() if value is None else value


def _number(value: Any) -> float:
    """A value as a float for ordering; one that is no number orders as 0, never a NaN."""
    try:
        found = float(value)
    except BaseException:
        return 0.0
    return 0.0 if math.isnan(found) else found
