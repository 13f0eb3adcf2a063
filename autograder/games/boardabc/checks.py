"""What the kit asks of the book's boards and search besides moves in games, and how it judges.

Two criteria (their points come from the rubric), each shared among its kinds of check by
``WEIGHTS``: what a fault of that kind breaks of the game (docs/grading.md gives the reasons):

- ``boards``: the student's ``TTTBoard`` and ``C4Board``, built through their own constructors
  on seeded positions, against the kit's engines: ``legal_moves``, ``is_win`` (also on every
  line of every direction: ``lines.py``), ``is_draw``, ``turn``, ``evaluate`` (the winner's
  board is good for the winner) and ``move`` returning a new, right board without changing
  the old one;
- ``search``: ``minimax``, ``alphabeta`` and ``find_best_move`` (``search.py``).

Each check is one request to the driver (``driver.py``) and one pure judge of the reply.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from autograder.games.boardabc import c4, lines, search
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.boardabc.judges import (
    Judge,
    buildable,
    c4_request,
    error,
    flag_judge,
    move_judge,
    moves_judge,
    number,
    ttt_request,
    turn_judge,
)
from autograder.games.boardabc.lines import SEGMENTS, WIN_C4, WIN_TTT
from autograder.games.boardabc.search import C4_DEPTH, DEPTH_CHECKED, TTT_DEPTH, bound
from autograder.games.connect4 import rules as c4rules
from autograder.games.connect4.probes import has_full_column
from autograder.games.connect4.rules import Position
from autograder.games.pack import Check, Verdict

__all__ = [
    "CRITERIA",
    "WEIGHTS",
    "checks",
    "TTT_DEPTH",
    "C4_DEPTH",
    "DEPTH_CHECKED",
    "ASKED",
    "SEGMENTS",
    "WIN_TTT",
    "WIN_C4",
    "bound",
]

CRITERIA = {
    "boards": "the boards follow the rules",
    "search": "the search finds the right moves",
    "chapter": "the chapter's own unit tests (exercises 1 and 2)",
}
ASKED = ("legal_moves", "is_win", "is_draw", "turn", "move")
TTT_BOARDS, C4_BOARDS = 8, 6  # positions whose boards are checked, besides the fixed ones

# Each kind's part of its criterion's points, against the others' (docs/grading.md: why). A
# win test decides every game and every search, and a move that changes its board corrupts
# every search (which is then not charged again); the evaluation's sign decides every search
# that stops at max_depth; legal_moves, is_draw and turn are the rest of the rules. minimax
# (TODO 8) and alphabeta (TODO 10) are the search itself; find_best_move (TODO 9) is judged
# on every kind of position it meets.
WEIGHTS: dict[str, float] = {
    **{
        f"{game} {kind}": weight
        for game in ("tic-tac-toe", "Connect Four")
        for kind, weight in (
            ("is_win", 7),
            ("move", 6),
            ("evaluate", 5),
            ("legal_moves", 1),
            ("is_draw", 1),
            ("turn", 1),
        )
    },
    "minimax": 5,
    "alphabeta": 5,
    "tic-tac-toe best move": 3,
    "tic-tac-toe win in 1": 2,
    "tic-tac-toe block": 2,
    "Connect Four best move": 5,
    "Connect Four max_depth": 3,
}


# ---- the positions -----------------------------------------------------------------------------


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


# ---- the boards --------------------------------------------------------------------------------


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
        kind = f"{game} {ask}"
        made.append(Check("boards", kind, where, {**request, **more}, judge, board, WEIGHTS[kind]))
    return made


def _ttt_board_checks(rng: random.Random) -> list[Check]:
    chosen = ttt.sample(rng, TTT_BOARDS, lambda p: p.cells != ttt.start().cells)
    made = []
    for index, pos in enumerate([*chosen, _full_win(), _full_draw()], 1):
        line = ttt.winner(pos)
        draw = ttt.is_draw(pos)
        expected: dict[str, Any] = {
            "legal_moves": moves_judge("squares", ttt.empty_squares(pos), line is not None),
            "is_win": flag_judge(
                "is_win", line is not None, f"{line} has a line" if line else "no line is complete"
            ),
            "is_draw": flag_judge(
                "is_draw",
                draw,
                "no line and no empty square"
                if draw
                else "a line is complete"
                if line
                else "squares are still empty",
            ),
            "turn": turn_judge(pos.turn),
        }
        if line is None and not draw:
            square = rng.choice(ttt.empty_squares(pos))
            after = ttt.play(pos, square)
            expected["move"] = (square, move_judge(square, list(after.cells), after.turn))
        made += _board_checks("tic-tac-toe", index, ttt_request(pos), ttt.render(pos), expected)
    return made


def _c4_board_checks(rng: random.Random) -> list[Check]:
    made = []
    for index, pos in enumerate(_c4_positions(rng, C4_BOARDS), 1):
        line = c4rules.winner(pos)
        full = c4rules.is_full(pos)
        not_full = c4rules.legal_moves(pos)
        expected: dict[str, Any] = {
            "legal_moves": moves_judge("columns", not_full, line is not None),
            "is_win": flag_judge(
                "is_win",
                line is not None,
                f"{c4.BOOK[line]} has four in a line" if line else "no four are in a line",
            ),
            "is_draw": flag_judge(
                "is_draw",
                line is None and full,
                "a line is complete" if line else "columns are still open",
            ),
            "turn": turn_judge(c4.BOOK[pos.turn]),
        }
        if line is None and not full:
            column = rng.choice(not_full)
            after = c4rules.play(pos, column)
            cells = [pile + [" "] * (6 - len(pile)) for pile in c4.columns(after)]
            expected["move"] = (column, move_judge(column, cells, c4.BOOK[after.turn]))
        made += _board_checks("Connect Four", index, c4_request(pos), c4.render(pos), expected)
    return made


def _evaluate_judge(game: str, winner: str, loser: str) -> Judge:
    """The board where ``winner`` has just completed a line must be good for ``winner`` and
    bad for ``loser``: a sign the wrong way round makes every search play for its opponent."""
    win_kind = WIN_TTT if game == "tic-tac-toe" else WIN_C4

    def judge(reply: Mapping[str, Any]) -> str | Verdict | None:
        if (problem := error(reply)) is not None:
            return problem
        mine, theirs = number(reply.get("winner")), number(reply.get("loser"))
        if mine is None or theirs is None:
            return "evaluate should give numbers"
        said = f"evaluate({winner}) is {mine:g} and evaluate({loser}) {theirs:g}"
        if mine > 0 > theirs:
            return None
        if mine < 0 < theirs:
            return (
                f"{said} on this board, where {winner} has just completed a line: the sign is the "
                "wrong way round, so every search plays for its opponent"
            )
        if mine > 0:
            return (
                f"{said} on this board, where {winner} has just completed a line: a lost board "
                f"must be bad for {loser}; an evaluation blind to the opponent never blocks"
            )
        return Verdict(
            f"{said} on this board, where {winner} has just completed a line: the evaluation "
            "does not see the line",
            explained_by=win_kind,
        )

    return judge


def _evaluate_checks() -> list[Check]:
    """``evaluate`` on a board each side has just won, for each game."""
    made = []
    for game, request, board, winner in lines.won_boards():
        name = "tic-tac-toe" if game == "tictactoe" else "Connect Four"
        loser = {"X": "O", "O": "X", "B": "R", "R": "B"}[winner]
        kind = f"{name} evaluate"
        asked = {**request, "ask": "evaluate", "winner": winner}
        judge = _evaluate_judge(name, winner, loser)
        made.append(
            Check("boards", kind, f"{name}, {winner} has won", asked, judge, board, WEIGHTS[kind])
        )
    return made


def checks(variant: object, seed: int) -> list[Check]:
    """Every check for one submission, the same for the same seed."""
    rng = random.Random(f"board-abc:{seed}")
    made = [
        *_ttt_board_checks(rng),
        *_c4_board_checks(rng),
        *lines.line_checks(WEIGHTS),
        *_evaluate_checks(),
        *search.search_checks(rng, WEIGHTS),
        *search.value_checks(seed, WEIGHTS),
        *search.chapter_checks(),
    ]
    return [replace(check, judge=buildable(check.judge)) for check in made]
