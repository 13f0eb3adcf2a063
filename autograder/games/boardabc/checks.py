"""What the kit asks of the book's boards and search besides moves in games, and how it judges.

Two criteria (their points come from the rubric):

- ``boards``: the student's ``TTTBoard`` and ``C4Board``, built through their own constructors
  on seeded positions, against the kit's engines: ``legal_moves``, ``is_win``, ``is_draw``,
  ``turn``, and ``move`` returning a new, right board without changing the old one;
- ``search``: ``find_best_move`` on tic-tac-toe, judged exactly (every reachable position is
  solved): it keeps a won or drawn position's value, takes a win in one (a move that keeps the
  forced win instead is reported, not charged) and blocks a threat; on Connect Four it stops
  at ``max_depth`` (the kit counts the boards it creates).

Each check is one request to the driver (``driver.py``) and one pure judge of the reply here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from autograder.games.boardabc import c4
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.connect4 import rules as c4rules
from autograder.games.connect4.probes import has_full_column
from autograder.games.connect4.rules import Position
from autograder.games.pack import Check, Noted

__all__ = ["CRITERIA", "checks", "TTT_DEPTH", "C4_DEPTH", "DEPTH_CHECKED", "bound"]

CRITERIA = {
    "boards": "the boards follow the rules",
    "search": "the search finds the right moves",
}
TTT_DEPTH = 8  # the book's default: tic-tac-toe searched to the end
C4_DEPTH = 3  # the book's Connect Four AI, in graded games and probes
DEPTH_CHECKED = 2  # the depth asked when the boards find_best_move creates are counted
ASKED = ("legal_moves", "is_win", "is_draw", "turn", "move")
TTT_BOARDS, C4_BOARDS = 8, 6  # positions whose boards are checked, besides the fixed ones
TTT_BEST, TTT_TACTICS, C4_DEPTHS = 8, 3, 2

Judge = Callable[[Mapping[str, Any]], str | Noted | None]


def bound(branching: int, depth: int) -> int:
    """The most boards ``find_best_move(board, depth)`` creates when it calls
    ``minimax(board.move(m), ..., depth)`` as the book does: every line ``depth + 1`` deep."""
    return sum(branching**k for k in range(1, depth + 2))


# ---- the positions -----------------------------------------------------------------------------


def _ttt_request(pos: ttt.TicTacToe, **more: Any) -> dict[str, Any]:
    return {"game": "tictactoe", "cells": list(pos.cells), "turn": pos.turn, **more}


def _c4_request(pos: Position, **more: Any) -> dict[str, Any]:
    return {"game": "connectfour", "columns": c4.columns(pos), "turn": c4.BOOK[pos.turn], **more}


def _full_win() -> ttt.TicTacToe:
    """A full board on which X has a line (the book's ``is_draw`` must say no)."""
    return ttt.TicTacToe("XXXOOXXOO", "O")


def _full_draw() -> ttt.TicTacToe:
    return ttt.TicTacToe("XOXXOOOXX", "O")


def _c4_game_end(rng: random.Random) -> Position:
    pos = c4rules.start(c4.VARIANT)
    while c4rules.result(pos) is None:
        pos = c4rules.play(pos, rng.choice(c4rules.legal_moves(pos)))
    return pos


def _c4_positions(rng: random.Random, count: int) -> list[Position]:
    """Seeded positions from random play: one with a full column, one where a game ended."""
    found: list[Position] = []
    while len(found) < count - 2:
        pos = c4rules.random_position(c4.VARIANT, rng, rng.randrange(2, 30))
        if pos is not None and c4rules.result(pos) is None:
            found.append(pos)
    while True:
        pos = c4rules.random_position(c4.VARIANT, rng, rng.randrange(12, 30))
        if pos is not None and c4rules.result(pos) is None and has_full_column(pos):
            found.append(pos)
            break
    found.append(_c4_game_end(rng))
    return found


# ---- judging what came back --------------------------------------------------------------------


def _error(reply: Mapping[str, Any]) -> str | None:
    error = reply.get("error")
    return str(error) if error is not None else None


def _shown(values: object) -> str:
    return repr(values)[:120]


def _moves_judge(name: str, expected: list[int], won: bool) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if (error := _error(reply)) is not None:
            return error
        raw = reply.get("value")
        if not isinstance(raw, list | tuple):
            return f"legal_moves should be a list of {name}, got {_shown(raw)}"
        try:
            got = sorted(int(m) for m in raw)
        except (TypeError, ValueError):
            return f"legal_moves should hold {name} as ints, got {_shown(raw)}"
        if got == expected or (won and not got):
            return None
        return f"legal_moves is {_shown(list(raw))}; the legal {name} are {expected}"

    return judge


def _flag_judge(name: str, expected: bool, why: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if (error := _error(reply)) is not None:
            return error
        raw = reply.get("value")
        if not isinstance(raw, bool | int):
            return f"{name} should be True or False, got {_shown(raw)}"
        if bool(raw) == expected:
            return None
        return f"{name} is {bool(raw)}; it should be {expected}: {why}"

    return judge


def _turn_judge(expected: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if (error := _error(reply)) is not None:
            return error
        if reply.get("piece") == expected:
            return None
        return f"turn is {str(reply.get('shown'))[:80]}; {expected} is to move"

    return judge


def _move_judge(square: int, cells: Any, turn: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if (error := _error(reply)) is not None:
            return error
        if reply.get("same"):
            return f"move({square}) returned the board it was called on; return a new board"
        if reply.get("changed"):
            return (
                f"move({square}) changed the board it was called on; copy the position and "
                "change the copy"
            )
        if reply.get("cells") != cells:
            return (
                f"after move({square}) the new board's position is {_shown(reply.get('cells'))}; "
                f"it should be {_shown(cells)}"
            )
        if reply.get("turn") != turn:
            return f"after move({square}) it is {reply.get('turn')!r} to move; it should be {turn}"
        return None

    return judge


def _square(reply: Mapping[str, Any], legal: list[int], what: str) -> int | str:
    """The move ``find_best_move`` returned, or what is wrong with it."""
    if (error := _error(reply)) is not None:
        return error
    raw = reply.get("move")
    if isinstance(raw, bool) or not isinstance(raw, int):
        return f"find_best_move returned {_shown(raw)}, not a {what} number"
    if raw not in legal:
        return f"find_best_move returned {raw}, which is not a legal {what}; legal: {legal}"
    return raw


_OUTCOME = {1: "win", 0: "draw", -1: "lose"}


def _best_judge(pos: ttt.TicTacToe) -> Judge:
    worth = ttt.value(pos)

    def judge(reply: Mapping[str, Any]) -> str | None:
        square = _square(reply, ttt.legal_moves(pos), "square")
        if isinstance(square, str):
            return square
        after = -ttt.value(ttt.play(pos, square))
        if after >= worth:
            return None
        keep = [s for s in ttt.legal_moves(pos) if -ttt.value(ttt.play(pos, s)) == worth]
        return (
            f"{pos.turn} can {_OUTCOME[worth]} here, but after {square} {pos.turn} "
            f"{'draws' if after == 0 else 'loses'} against best play; {keep} keep the "
            f"{_OUTCOME[worth]}"
        )

    return judge


def _keeping(pos: ttt.TicTacToe) -> list[int]:
    """The squares that keep ``pos``'s value for the side to move (exact: the game is solved)."""
    worth = ttt.value(pos)
    return [s for s in ttt.legal_moves(pos) if -ttt.value(ttt.play(pos, s)) == worth]


def _after(pos: ttt.TicTacToe, square: int) -> str:
    after = -ttt.value(ttt.play(pos, square))
    return {1: "still wins", 0: "draws", -1: "loses"}[after] + " against best play"


def _win_judge(pos: ttt.TicTacToe) -> Judge:
    """Right when the move keeps the forced win: the book's minimax scores every win alike, so
    it may take a later one; that is reported (a sooner win was there), not charged unless the
    rubric prefers the sooner win."""
    wins = ttt.winning_moves(pos)

    def judge(reply: Mapping[str, Any]) -> str | Noted | None:
        square = _square(reply, ttt.legal_moves(pos), "square")
        if isinstance(square, str):
            return square
        if square in wins:
            return None
        if square in _keeping(pos):
            return Noted(
                f"find_best_move played {square}, which keeps the forced win; a sooner win was "
                f"available at {wins} (wins at once)",
                sooner=True,
            )
        return (
            f"{wins} win at once; find_best_move played {square}, after which {pos.turn} "
            f"{_after(pos, square)}; {_keeping(pos)} keep the win"
        )

    return judge


def _block_judge(pos: ttt.TicTacToe) -> Judge:
    """Right when the move keeps the position's value: the block, or a move as good."""
    threats = ttt.winning_moves(pos._replace(turn=ttt.other(pos.turn)))
    keep = _keeping(pos)

    def judge(reply: Mapping[str, Any]) -> str | None:
        square = _square(reply, ttt.legal_moves(pos), "square")
        if isinstance(square, str):
            return square
        if square in keep:
            return None
        blocked = not ttt.winning_moves(ttt.play(pos, square))
        did = f"blocked, yet {pos.turn} {_after(pos, square)}" if blocked else "did not block"
        return (
            f"{ttt.other(pos.turn)} wins next at {threats}; find_best_move played {square} and "
            f"{did}; {keep} keep the {_OUTCOME[ttt.value(pos)]}"
        )

    return judge


def _depth_judge(pos: Position, depth: int, most: int) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        square = _square(reply, c4rules.legal_moves(pos), "column")
        if isinstance(square, str) and not reply.get("stopped"):
            return square
        boards = reply.get("boards")
        if reply.get("stopped") or (isinstance(boards, int) and boards > 2 * most):
            return (
                f"find_best_move(board, {depth}) created more than {2 * most} boards: a search "
                f"{depth} plies deep creates at most {most}, so it does not stop at max_depth"
            )
        return None

    return judge


# ---- the checks --------------------------------------------------------------------------------


def _board_checks(
    game: str, index: int, request: dict[str, Any], board: str, expected: dict[str, Any]
) -> list[Check]:
    where = f"{game} position {index}"
    made = []
    for ask in ASKED:
        if ask not in expected:
            continue
        more: dict[str, Any] = {"ask": ask}
        judge = expected[ask]
        if ask == "move":  # (the square or column to play, the judge)
            more["square"], judge = judge
        made.append(Check("boards", f"{game} {ask}", where, {**request, **more}, judge, board))
    return made


def _ttt_board_checks(rng: random.Random) -> list[Check]:
    chosen = ttt.sample(rng, TTT_BOARDS, lambda p: p.cells != ttt.start().cells)
    made = []
    for index, pos in enumerate([*chosen, _full_win(), _full_draw()], 1):
        line = ttt.winner(pos)
        draw = ttt.is_draw(pos)
        expected: dict[str, Any] = {
            "legal_moves": _moves_judge("squares", ttt.empty_squares(pos), line is not None),
            "is_win": _flag_judge(
                "is_win", line is not None, f"{line} has a line" if line else "no line is complete"
            ),
            "is_draw": _flag_judge(
                "is_draw",
                draw,
                "no line and no empty square"
                if draw
                else "a line is complete"
                if line
                else "squares are still empty",
            ),
            "turn": _turn_judge(pos.turn),
        }
        if line is None and not draw:
            square = rng.choice(ttt.empty_squares(pos))
            after = ttt.play(pos, square)
            expected["move"] = (square, _move_judge(square, list(after.cells), after.turn))
        made += _board_checks("tic-tac-toe", index, _ttt_request(pos), ttt.render(pos), expected)
    return made


def _c4_board_checks(rng: random.Random) -> list[Check]:
    made = []
    for index, pos in enumerate(_c4_positions(rng, C4_BOARDS), 1):
        line = c4rules.winner(pos)
        full = c4rules.is_full(pos)
        not_full = [
            c
            for c in range(7)
            if pos.occupied & c4.VARIANT.column_masks[c] != c4.VARIANT.column_masks[c]
        ]
        expected: dict[str, Any] = {
            "legal_moves": _moves_judge("columns", not_full, line is not None),
            "is_win": _flag_judge(
                "is_win",
                line is not None,
                f"{c4.BOOK[line]} has four in a line" if line else "no four are in a line",
            ),
            "is_draw": _flag_judge(
                "is_draw",
                line is None and full,
                "a line is complete" if line else "columns are still open",
            ),
            "turn": _turn_judge(c4.BOOK[pos.turn]),
        }
        if line is None and not full:
            column = rng.choice(not_full)
            after = c4rules.play(pos, column)
            cells = [pile + [" "] * (6 - len(pile)) for pile in c4.columns(after)]
            expected["move"] = (column, _move_judge(column, cells, c4.BOOK[after.turn]))
        made += _board_checks("Connect Four", index, _c4_request(pos), c4.render(pos), expected)
    return made


def _search_checks(rng: random.Random) -> list[Check]:
    made = []

    def add(kind: str, index: int, request: dict[str, Any], judge: Judge, board: str) -> None:
        made.append(Check("search", kind, f"{kind} {index}", request, judge, board))

    best = ttt.sample(
        rng,
        TTT_BEST,
        lambda p: ttt.legal_moves(p) != [] and len(ttt.empty_squares(p)) <= 7,
    )
    for index, pos in enumerate(best, 1):
        request = _ttt_request(pos, ask="best", depth=TTT_DEPTH)
        add("tic-tac-toe best move", index, request, _best_judge(pos), ttt.render(pos))
    wins = ttt.sample(rng, TTT_TACTICS, lambda p: bool(ttt.winning_moves(p)))
    for index, pos in enumerate(wins, 1):
        request = _ttt_request(pos, ask="best", depth=TTT_DEPTH)
        add("tic-tac-toe win in 1", index, request, _win_judge(pos), ttt.render(pos))

    def must_block(p: ttt.TicTacToe) -> bool:
        """The other side wins next unless the side to move blocks, a block exists, and the
        position is not lost whatever the side to move does."""
        moves = ttt.legal_moves(p)
        if not moves or ttt.winning_moves(p):
            return False
        threatened = ttt.winning_moves(p._replace(turn=ttt.other(p.turn)))
        if not threatened or ttt.value(p) < 0:  # lost anyway: no move is better than another
            return False
        return any(not ttt.winning_moves(ttt.play(p, m)) for m in moves)

    for index, pos in enumerate(ttt.sample(rng, TTT_TACTICS, must_block), 1):
        request = _ttt_request(pos, ask="best", depth=TTT_DEPTH)
        add("tic-tac-toe block", index, request, _block_judge(pos), ttt.render(pos))
    most = bound(7, DEPTH_CHECKED)
    for index in range(1, C4_DEPTHS + 1):
        drop: Position | None = None
        while drop is None or len(c4rules.legal_moves(drop)) < 7 or c4rules.result(drop):
            drop = c4rules.random_position(c4.VARIANT, rng, rng.randrange(2, 10))
        request = _c4_request(drop, ask="best", depth=DEPTH_CHECKED, most=2 * most)
        judge = _depth_judge(drop, DEPTH_CHECKED, most)
        add("Connect Four max_depth", index, request, judge, c4.render(drop))
    return made


def checks(variant: object, seed: int) -> list[Check]:
    """Every check for one submission, the same for the same seed."""
    rng = random.Random(f"board-abc:{seed}")
    return [*_ttt_board_checks(rng), *_c4_board_checks(rng), *_search_checks(rng)]
