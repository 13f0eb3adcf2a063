"""The Colab notebook course's Connect Four homework as its students write it: a notebook with
``Agent`` and ``Connect4State`` (``notebook_driver.py`` calls them), graded on the Connect Four
pack's rules, probes and opponents.

The notebook's board is ``board[row][column]``, row 0 at the bottom, -1 for the player who
moves first (the kit's red), 1 for the other (yellow), 0 empty; ``curr_player_number`` is the
player to move, and player 1 maximises. Besides the games, four checks ask the student's own
classes: does ``play`` prune (the states it makes, against plain minimax at the same depth
through the same class), does it respect ``decision_depth``, does ``apply_action`` return a
new state, and does ``calculate_value`` see a four in every direction.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping
from functools import partial
from pathlib import Path
from typing import Any

from autograder.games.connect4 import rules
from autograder.games.pack import Calls, Check, Interface, Noted, Setting, Student, Verdict

__all__ = [
    "INTERFACE",
    "PLAY_DEPTH",
    "SEARCH_DEPTH",
    "DECISION_DEPTH",
    "SETTINGS",
    "CRITERIA",
    "state",
    "checks",
]

_HERE = Path(__file__).resolve().parent
# Agent(PLAY_DEPTH, sign) plays the games: the course's own code answers in about 0.3 s at depth 4
# on its 8×6 board on a busy machine (depth 5: 1.7 s; the course's 6: 6.3 s, past the 5 s tier).
PLAY_DEPTH = 4
# The pruning check: plain minimax at this depth is run beside the agent's search.
SEARCH_DEPTH = 3
# The depth check: Agent(DECISION_DEPTH, sign) makes no state deeper than this.
DECISION_DEPTH = 2
SETTINGS = (  # the rubric may set each; the constants above are what it leaves out
    Setting(
        "play",
        "agent_depth",
        "the decision_depth of the Agent that plays the games, probes and tactics",
        PLAY_DEPTH,
        why="the agent looks at least one move ahead",
    ),
    Setting(
        "alphabeta",
        "search_depth",
        "the depth at which play()'s states are counted against plain minimax's",
        SEARCH_DEPTH,
        2,
        "at depth 1 alpha-beta has nothing to prune",
    ),
    Setting(
        "depth",
        "decision_depth",
        "the decision_depth whose plies the depth check counts",
        DECISION_DEPTH,
        why="a search of no depth makes no state to count",
    ),
)
CALL = "play"
CRITERIA = {
    "alphabeta": "play() prunes (alpha-beta)",
    "depth": "play() respects decision_depth",
    "successor": "apply_action returns a new state",
    "lines": "calculate_value sees every line",
}
SIGN = {rules.RED: -1, rules.YELLOW: 1}
DEPTH_KIND = "decision_depth"
SUCCESSOR_KIND = "apply_action"
NEXT_KIND = "next_states"  # the successor function: every column with room, each once
_SHOWN = {-1: "r", 1: "y", 0: " "}


def plain_board(pos: rules.Position) -> list[list[int]]:
    """The notebook's board of ``pos``: rows bottom first, -1, 1 and 0."""
    cells = {rules.RED: -1, rules.YELLOW: 1}
    return [[cells.get(cell, 0) for cell in row] for row in reversed(rules.to_board(pos))]


def state(pos: rules.Position, depth: int = PLAY_DEPTH) -> dict[str, Any]:
    """A position as the driver builds the student's ``Connect4State`` from it."""
    return {"board": plain_board(pos), "player": SIGN[pos.turn], "depth": depth}


def _drawn(board: list[list[int]]) -> str:
    """The board as text, top row first: r moves first (-1), y second (1)."""
    rows = ["|" + "|".join(_SHOWN.get(c, "?") for c in row) + "|" for row in reversed(board)]
    return "\n".join([*rows, " " + " ".join(str(c % 10) for c in range(len(board[0])))])


def _positions(variant: rules.Variant, rng: random.Random, count: int) -> list[rules.Position]:
    found: list[rules.Position] = []
    while len(found) < count:
        pos = rules.random_position(variant, rng, rng.randint(2, 10))
        if pos is not None and rules.result(pos) is None and len(rules.legal_moves(pos)) >= 3:
            found.append(pos)
    return found


def _search_judge(depth: int, kind: str) -> Any:
    def judge(reply: Mapping[str, Any]) -> str | Verdict | None:
        """The agent's move against plain minimax's values at the same depth, through the
        student's own class and value; for the pruning check, the states it made against
        plain minimax's (not charged where alpha-beta cannot prune in that order); for the
        depth check, how deep its states went."""
        made, deepest = int(reply.get("made", 0)), int(reply.get("deepest", 0))
        plain, pruned = int(reply.get("minimax", 0)), int(reply.get("alphabeta", 0))
        agent = f"Agent({depth}, sign).play"
        if made == 0:  # no search through the notebook's Connect4State, as the homework asks
            problem = (
                f"{agent} made no state through Connect4State.apply_action (plain minimax at "
                f"depth {depth} makes {plain}): it does not search the states apply_action gives"
            )
            if plain == 0 and _column(reply) is not None:  # apply_action's fault, shown there
                return Verdict(problem, explained_by=SUCCESSOR_KIND)
            return problem
        if kind == "depth" and deepest > depth:
            return (
                f"{agent} made states {deepest} plies below the position: decision_depth "
                f"{depth} is not respected"
            )
        wrong = _not_best(reply, agent, depth)
        if wrong is not None:
            if reply.get("mutated"):  # the search walks boards apply_action changes: its fault
                return Verdict(
                    f"{wrong}; apply_action changes the state it is called on, so the search "
                    "walks boards that change under it",
                    explained_by=SUCCESSOR_KIND,
                )
            if kind != "depth" and deepest > depth:  # searched deeper: charged under depth
                return Verdict(f"{wrong} (it searched {deepest} plies)", explained_by=DEPTH_KIND)
            return wrong
        if kind == "depth" or not (made >= plain and pruned < plain):
            return None  # pruned, or no pruning was possible in this order
        at_depth, plain_at_depth = reply.get("made_at_depth"), reply.get("minimax_at_depth")
        if type(at_depth) is int and type(plain_at_depth) is int and at_depth < plain_at_depth:
            return None  # fewer states at the depth: it prunes (iterative deepening adds more)
        problem = (
            f"{agent} made {made} states; plain minimax at depth {depth} through your "
            f"Connect4State makes {plain}, and alpha-beta {pruned}: it does not prune"
        )
        if deepest > depth:  # a deeper search makes more states: charged under depth
            return Verdict(f"{problem} (it searched {deepest} plies)", explained_by=DEPTH_KIND)
        return problem

    return judge


def _column(reply: Mapping[str, Any]) -> int | None:
    move = reply.get("move")
    return move if type(move) is int else None


def _not_best(reply: Mapping[str, Any], agent: str, depth: int) -> str | None:
    """What is wrong with the agent's move by plain minimax's values at ``depth`` (the best
    is the highest for player 1, the lowest for player -1, as in the seed), or None."""
    moves, raw = reply.get("moves"), reply.get("values")
    if not isinstance(moves, list) or not isinstance(raw, list) or len(moves) != len(raw):
        return None
    try:
        values = [float(v) for v in raw]
    except (TypeError, ValueError):
        return None
    if not moves:
        return None
    player = reply.get("player")
    best = max(values) if player == 1 else min(values)
    top = [m for m, v in zip(moves, values, strict=True) if v == best]
    move = _column(reply)
    if move in top:
        return None
    side = "the highest, player 1 maximises" if player == 1 else "the lowest, player -1 minimises"
    if move not in moves:
        return f"{agent} returned {move!r}, not one of {moves}; {top} are worth {best:g} ({side})"
    worth = values[moves.index(move)]
    return (
        f"{agent} played {move}, worth {worth:g} by plain minimax at depth {depth} through your "
        f"Connect4State and value; {top} are worth {best:g} ({side}): the search does not "
        "return minimax's move"
    )


def _facing(reply: Mapping[str, Any]) -> str:
    """One sentence on the board's orientation when the kit could not tell it, else ""."""
    facing = str(reply.get("facing") or "")
    if not facing.startswith("unknown"):
        return ""
    why = facing.partition(": ")[2]
    return (
        f"the kit built your boards with row 0 at the bottom, as the course's notebook does "
        f"({why}); a notebook whose row 0 is the top is followed when "
        "Connect4State.empty_board(width, height, agents_sign) and apply_action on it drop a "
        "disc into its last row"
    )


def _successor_judge(board: list[list[int]], column: int, player: int) -> Any:
    row = next((r for r in range(len(board)) if board[r][column] == 0), None)

    def judge(reply: Mapping[str, Any]) -> str | Noted | None:
        problem = _successor_problem(reply, board, column, player, row)
        note = _facing(reply)
        if problem is None:
            return Noted(note) if note else None
        return f"{problem}; {note}" if note else problem

    return judge


def _successor_problem(
    reply: Mapping[str, Any], board: list[list[int]], column: int, player: int, row: int | None
) -> str | None:
    call = f"apply_action({column}, {player})"
    if reply.get("original") != board:
        return f"{call} wrote into the state's own board: it must return a new state"
    child = reply.get("child")
    if row is None:
        return None if child is None else f"{call} on a full column returned a state, not None"
    if child is None:
        return f"{call} returned None, but column {column} has room"
    if reply.get("same"):
        return f"{call} returned the same state: it must return a new one"
    wanted = [list(r) for r in board]
    wanted[row][column] = player
    if child != wanted:
        shown = row if reply.get("facing") != "top" else len(board) - 1 - row
        return (
            f"{call} did not drop a {player} on the lowest empty cell of column {column} "
            f"(your row {shown})"
        )
    return None


def _next_judge(legal: list[int]) -> Any:
    """``next_states()`` must yield a state for every column with room, each once: a column
    left out is never played by the search, nor feared from the other side."""

    def judge(reply: Mapping[str, Any]) -> str | None:
        if (problem := reply.get("error")) is not None:
            return str(problem)
        actions = reply.get("actions")
        if actions is None:  # the notebook has no next_states: its search walks apply_action
            return None
        if isinstance(actions, list) and sorted(actions) == legal:
            return None
        left = [c for c in legal if not isinstance(actions, list) or c not in actions]
        said = f"next_states() yields the columns {str(actions)[:80]}; those with room are {legal}"
        return f"{said}: {left} are never searched" if left else said

    return judge


def _lines_judge(direction: str) -> Any:
    def judge(reply: Mapping[str, Any]) -> str | None:
        value = reply.get("value")
        if not reply.get("terminal"):
            return f"player 1 has four in a line ({direction}), but isTerminal is False"
        if reply.get("positive") is not True:
            return f"player 1 has four in a line ({direction}), but the value is {value!r}"
        return None

    return judge


def _four(variant: rules.Variant, direction: str) -> list[list[int]]:
    """A board where player 1 has four in ``direction``, held up by player -1's discs."""
    board = [[0] * variant.columns for _ in range(variant.rows)]
    for step in range(4):
        row, column = {
            "a row": (0, step),
            "a column": (step, 0),
            "a rising diagonal": (step, step),
            "a falling diagonal": (3 - step, step),
        }[direction]
        for below in range(row):
            board[below][column] = board[below][column] or -1
        board[row][column] = 1
    return board


def checks(
    variant: rules.Variant,
    seed: int,
    search_depth: int = SEARCH_DEPTH,
    decision_depth: int = DECISION_DEPTH,
) -> list[Check]:
    """The notebook's checks, the same for the same seed (and depths)."""
    rng = random.Random(f"connect4-notebook:{seed}")
    made = []
    for index, pos in enumerate(_positions(variant, rng, 3), 1):
        request = {"ask": "search", "state": state(pos), "depth": search_depth}
        made.append(
            Check(
                "alphabeta",
                "alpha-beta",
                f"search position {index}",
                request,
                _search_judge(search_depth, "prune"),
                rules.render(pos),
            )
        )
    for index, pos in enumerate(_positions(variant, rng, 2), 1):
        request = {"ask": "search", "state": state(pos), "depth": decision_depth}
        made.append(
            Check(
                "depth",
                DEPTH_KIND,
                f"depth position {index}",
                request,
                _search_judge(decision_depth, "depth"),
                rules.render(pos),
            )
        )
    for index, pos in enumerate(_positions(variant, rng, 3), 1):
        board, player = plain_board(pos), SIGN[pos.turn]
        column = rng.choice(rules.legal_moves(pos))
        made.append(
            Check(
                "successor",
                SUCCESSOR_KIND,
                f"apply_action position {index}",
                {"ask": "apply_action", "state": state(pos), "column": column},
                _successor_judge(board, column, player),
                rules.render(pos),
            )
        )
        made.append(
            Check(
                "successor",
                NEXT_KIND,
                f"next_states position {index}",
                {"ask": "next_states", "state": state(pos)},
                _next_judge(rules.legal_moves(pos)),
                rules.render(pos),
            )
        )
    for direction in ("a row", "a column", "a rising diagonal", "a falling diagonal"):
        board = _four(variant, direction)
        made.append(
            Check(
                "lines",
                "calculate_value",
                f"four in {direction}",
                {"ask": "terminal", "state": {"board": board, "player": -1, "depth": 0}},
                _lines_judge(direction),
                _drawn(board),
            )
        )
    return made


def _read_move(raw: Any, pos: rules.Position) -> int:
    return rules.read_student_move(raw, pos, CALL)


def _format_problem(raw: Any, pos: rules.Position) -> str | None:
    return rules.format_problem(raw, pos, CALL)


def _entry(depth: int) -> str:
    return f"Agent({depth}, sign).play(Connect4State(board, agents_sign, player))"


def _student(
    own: Student[rules.Position, int, rules.Variant], values: Mapping[str, int]
) -> Student[rules.Position, int, rules.Variant]:
    """The notebook's student side at the rubric's depths (``SETTINGS``): the pack's board and
    names, the notebook's driver, calls, rubric and checks."""
    return dataclasses.replace(
        own,
        driver=_HERE / "notebook_driver.py",
        calls=Calls(CALL, "", ""),
        state=partial(state, depth=values.get("play.agent_depth", PLAY_DEPTH)),
        read_move=_read_move,
        format_problem=_format_problem,
        rubric=_HERE / "notebook.toml",
        starter=lambda variant: "starter/connect4-notebook/connect4.ipynb",
        # its script export: it runs as it is
        solution=lambda variant: "solution/connect4-notebook/game.py",
        check_criteria=CRITERIA,
        checks=partial(
            checks,
            search_depth=values.get("alphabeta.search_depth", SEARCH_DEPTH),
            decision_depth=values.get("depth.decision_depth", DECISION_DEPTH),
        ),
        settings=SETTINGS,
    )


def interface(values: Mapping[str, int]) -> Interface[rules.Position, int, rules.Variant]:
    """The notebook's interface at the rubric's values of its ``SETTINGS`` (label -> value; a
    setting left out is its default)."""
    return Interface(
        name="notebook",
        course="the Colab notebook course (Agent and Connect4State)",
        player_class="Agent",
        classes=("Agent", "Connect4State"),
        entry=_entry(values.get("play.agent_depth", PLAY_DEPTH)),
        aliases=("connect4-colab",),
        description="the Colab notebook course: Agent(depth, sign).play(Connect4State)",
        student=partial(_student, values=dict(values)),
        configure=interface,
    )


INTERFACE = interface({})
