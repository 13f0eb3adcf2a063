"""The child side of seed 004's notebook homework: the student's own ``Connect4State`` and
``Agent``, called as the notebook's ``Connect4Env`` calls them.

Loaded by the child runner inside the submission's process, before the notebook's module is
imported; standard library only. A position arrives as the notebook's board (rows bottom
first, -1 for the first player, 1 for the second, 0 empty) with the player to move (-1 or 1)
and the search depth. A move is ``Agent(depth, sign).play(Connect4State(board, agents_sign,
player))``, read as a column. While the agent plays, ``Connect4State.apply_action`` is wrapped
to count the states it makes and how many plies below the position they lie: the checks
(``notebook.py``) compare that with plain minimax run here, at the same depth, through the
student's own class. Everything reported is checked again by the grader.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autograder.games.grid_driver import Encode, ErrorText, FindClass, Handlers, Latest, copy_grid

SIGNS = {-1: "r", 1: "y"}  # the agents' piece signs, as the notebook's agents_sign maps them
_PLY = "_kit_ply"  # the attribute a counted state carries: its plies below the position asked


def make_handlers(
    module: Any, encode: Encode, error_text: ErrorText, find_class: FindClass
) -> Handlers:
    """The request handlers for a loaded notebook; each returns the reply to send."""
    latest = Latest()  # the position being played: {"board", "player", "depth"}
    sign = [1]
    classes: list[Any] = [None, None]  # Agent, Connect4State

    def found() -> dict[str, Any] | None:
        """Find the notebook's classes; the runner's reply naming those there are, if not."""
        for index, name in enumerate(("Agent", "Connect4State")):
            cls = find_class(module, name)
            if isinstance(cls, dict):
                return cls
            classes[index] = cls
        return None

    def new(request: dict[str, Any]) -> dict[str, Any]:
        missing = found()
        if missing is not None:
            return missing
        sign[0] = -1 if request["side"] == "r" else 1
        return latest.new(request)

    def state_of(plain: dict[str, Any]) -> Any:
        return classes[1](copy_grid(plain["board"]), dict(SIGNS), plain["player"])

    def counted(ply_cap: list[int], made: list[int]) -> Callable[[], None]:
        """Wrap ``Connect4State.apply_action`` to count; the function that unwraps it."""
        cls = classes[1]
        own = cls.__dict__.get("apply_action")
        original = cls.apply_action

        def apply_action(self: Any, *args: Any, **kwargs: Any) -> Any:
            child = original(self, *args, **kwargs)
            if child is not None:
                ply = getattr(self, _PLY, 0) + 1
                made[0] += 1
                ply_cap[0] = max(ply_cap[0], ply)
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

    def bot(depth: int, piece: str) -> Any:
        """``Agent(depth, piece, AgentType.Bot)`` where the notebook has ``AgentType.Bot`` and
        its Agent takes a mode, else ``Agent(depth, piece)``: never a person's agent."""
        kind = getattr(getattr(module, "AgentType", None), "Bot", None)
        if kind is not None:
            try:
                return classes[0](depth, piece, kind)
            except TypeError:
                pass  # an Agent without a mode: asked again as the seed's two arguments
        return classes[0](depth, piece)

    def play(plain: dict[str, Any], depth: int) -> tuple[Any, Any, int, int]:
        """The agent's move on ``plain``, the state it was given, the states it made and the
        deepest ply among them."""
        state = state_of(plain)
        agent = bot(depth, SIGNS[plain["player"]])
        deepest, made = [0], [0]
        restore = counted(deepest, made)
        try:
            raw = agent.play(state)
        finally:
            restore()
        return raw, state, made[0], deepest[0]

    def move(_request: dict[str, Any]) -> dict[str, Any]:
        plain = latest.position
        raw, state, _made, _deepest = play(plain, plain["depth"])
        return {
            "ok": True,
            "move": encode(raw),
            "state_changed": _board(state) != plain["board"],
        }

    def minimax(state: Any, depth: int, made: list[int], prune: bool) -> int:
        """Plain minimax, or alpha-beta when ``prune``, through the student's own class with
        the student's value; ``made`` counts the states made. Max is player 1, as in the seed.
        The score is the value's sign only: enough to order, and never a NaN's surprise."""

        def search(state: Any, depth: int, alpha: float, beta: float) -> float:
            if depth == 0 or _truth(getattr(state, "isTerminal", False)):
                return float(_value(state))
            maximising = getattr(state, "curr_player_number", 1) == 1
            best = -1e300 if maximising else 1e300
            for item in state.next_states():
                made[0] += 1
                child = item[1] if isinstance(item, tuple) else item
                score = search(child, depth - 1, alpha, beta)
                if maximising:
                    best = max(best, score)
                    alpha = max(alpha, best)
                else:
                    best = min(best, score)
                    beta = min(beta, best)
                if prune and alpha >= beta:
                    break
            return best

        search(state, depth, -1e300, 1e300)
        return made[0]

    def check(request: dict[str, Any]) -> dict[str, Any]:
        missing = found()
        if missing is not None:
            return missing
        plain = request["state"]
        ask = request["ask"]
        if ask == "search":
            depth = int(request["depth"])
            raw, state, made, deepest = play(plain, depth)
            return {
                "ok": True,
                "move": encode(raw),
                "made": made,
                "deepest": deepest,
                "minimax": minimax(state_of(plain), depth, [0], False),
                "alphabeta": minimax(state_of(plain), depth, [0], True),
            }
        if ask == "apply_action":
            state = state_of(plain)
            child = state.apply_action(int(request["column"]), plain["player"])
            return {
                "ok": True,
                "original": _board(state),
                "child": None if child is None else _board(child),
                "same": child is state,
            }
        if ask == "terminal":
            state = state_of(plain)
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


def _board(state: Any) -> Any:
    """The state's board as plain ints, or None when it is no grid we can read."""
    try:
        return [[int(cell) for cell in row] for row in state.board]
    except BaseException:
        return None
