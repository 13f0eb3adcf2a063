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
from autograder.games.pack import Check, Noted, Verdict

__all__ = ["CRITERIA", "checks", "TTT_DEPTH", "C4_DEPTH", "DEPTH_CHECKED", "bound"]

CRITERIA = {
    "boards": "the boards follow the rules",
    "search": "the search finds the right moves",
    "chapter": "the chapter's own unit tests (exercises 1 and 2)",
}
TTT_DEPTH = 8  # the book's default: tic-tac-toe searched to the end
C4_DEPTH = 3  # the book's Connect Four AI, in graded games and probes
DEPTH_CHECKED = 2  # the depth asked when the boards find_best_move creates are counted
ASKED = ("legal_moves", "is_win", "is_draw", "turn", "move")
TTT_BOARDS, C4_BOARDS = 8, 6  # positions whose boards are checked, besides the fixed ones
TTT_BEST, TTT_TACTICS, C4_DEPTHS = 8, 3, 2

Judge = Callable[[Mapping[str, Any]], str | Verdict | Noted | None]
WIN_TTT, WIN_C4 = "tic-tac-toe is_win", "Connect Four is_win"  # kinds a search fault may follow


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


# ---- every line of every direction ---------------------------------------------------------
#
# A win test that forgets one direction passes random positions more often than not, so each
# line of each game is asked about on its own: complete for each side, and nearly complete (one
# cell held by the other side, or empty). The positions are built, not sampled: the same for
# every seed, and legal-looking (the counts fit whose turn it is, Connect Four's pieces rest on
# one another, no other line is complete).

C4_DIRECTIONS = (
    "vertical line",
    "horizontal line",
    "diagonal rising to the right",
    "diagonal falling to the right",
)
Cells = dict[tuple[int, int], str]  # (column, row from the bottom) -> "B" or "R"


def _ttt_direction(line: tuple[int, int, int]) -> str:
    """The line's group ("rows", "columns", "diagonal 0-4-8"), and its name in messages."""
    step = {1: "row", 3: "column"}.get(line[1] - line[0], "diagonal")
    return step + "s" if step != "diagonal" else f"diagonal {'-'.join(map(str, line))}"


def _ttt_line_name(line: tuple[int, int, int]) -> str:
    step = {1: "row", 3: "column"}.get(line[1] - line[0], "diagonal")
    return f"{step} {'-'.join(map(str, line))}"


def _ttt_near(pos: ttt.TicTacToe, line: tuple[int, ...], side: str, blocker: str) -> bool:
    held = [pos.cells[s] for s in line]
    return held.count(side) == 2 and held.count(blocker) == 1 and ttt.winner(pos) is None


def _ttt_line_positions(line: tuple[int, int, int]) -> list[tuple[ttt.TicTacToe, bool, str]]:
    """For one line: it complete for X and for O, and three near misses (two of it held, the
    third the other side's, or empty); each (position, whether a line is complete, what it
    shows). The first such reachable position in a fixed order, the fewest pieces first."""
    pool = sorted(ttt.reachable(), key=lambda p: 9 - p.cells.count(" "))
    found = []
    shown = "-".join(map(str, line))
    for side in ("X", "O"):
        won = next(
            p
            for p in pool
            if ttt.winner(p) == side
            and all(p.cells[s] == side for s in line)
            and p.cells.count(side) == 3
        )
        found.append((won, True, f"{side} holds {shown}"))
        near = next(p for p in pool if _ttt_near(p, line, side, ttt.other(side)))
        blocked = next(s for s in line if near.cells[s] != side)
        found.append((near, False, f"{side} holds two of {shown} and {ttt.other(side)} {blocked}"))
    near = next(p for p in pool if _ttt_near(p, line, "X", " "))
    gap = next(s for s in line if near.cells[s] == " ")
    found.append((near, False, f"X holds two of {shown} and {gap} is empty"))
    return found


def _c4_direction(segment: list[tuple[int, int]]) -> str:
    (c0, r0), (c1, r1) = segment[0], segment[1]
    return C4_DIRECTIONS[0 if c1 == c0 else 1 if r1 == r0 else 2 if r1 > r0 else 3]


def _c4_segments() -> list[list[tuple[int, int]]]:
    """Every line of four on the book's 7 x 6 board, as (column, row from the bottom): the
    Connect Four pack's own lines (``rules.lines``), each cell in the order of its bits."""
    height = c4.VARIANT.height
    return [
        [divmod(bit, height) for bit in range(mask.bit_length()) if mask >> bit & 1]
        for mask in c4rules.lines(c4.VARIANT)
    ]


SEGMENTS = _c4_segments()


def _completes(cells: Cells, at: tuple[int, int]) -> bool:
    """Whether the piece at ``at`` is in a line of four of its colour."""
    piece = cells[at]
    return any(
        at in segment and all(cells.get(cell) == piece for cell in segment) for segment in SEGMENTS
    )


def _c4_place(cells: Cells, at: tuple[int, int], first: str) -> bool:
    """Put ``first`` at ``at``, else the other piece, whichever completes no line; False when
    both would."""
    for piece in (first, "R" if first == "B" else "B"):
        cells[at] = piece
        if not _completes(cells, at):
            return True
    del cells[at]
    return False


def _gap(cells: Cells) -> int:
    """How many more B than R pieces."""
    return sum(v == "B" for v in cells.values()) - sum(v == "R" for v in cells.values())


# How the cells under a line are filled, tried in turn: the piece that evens the counts, or a
# pattern of pairs (B B R R up a column, alternating across) that makes few lines of its own.
_FILLS: tuple[Callable[[Cells, int, int], str], ...] = (
    lambda cells, c, r: "R" if _gap(cells) > 0 else "B",
    lambda cells, c, r: "BR"[(r // 2 + c) % 2],
    lambda cells, c, r: "RB"[(r // 2 + c) % 2],
)


def _c4_line_position(
    segment: list[tuple[int, int]], side: str, blocked: int | None
) -> tuple[list[list[str]], str] | None:
    """The columns (bottom up) and the side to move of a position where ``segment`` is
    complete for ``side`` (or, with ``blocked``, complete but for that cell, which the other
    side holds), and no other line is complete; None when no fill finds one."""
    for fill in _FILLS:
        made = _c4_filled(segment, side, blocked, fill)
        if made is not None:
            return made
    return None


def _c4_filled(
    segment: list[tuple[int, int]],
    side: str,
    blocked: int | None,
    fill: Callable[[Cells, int, int], str],
) -> tuple[list[list[str]], str] | None:
    other = "R" if side == "B" else "B"
    cells: Cells = {cell: side for cell in segment}
    if blocked is not None:
        cells[segment[blocked]] = other
    for column in range(7):  # the cells under the line's, bottom up, so the pieces rest
        top = max((r for c, r in segment if c == column), default=-1)
        for row in range(top):
            if (column, row) not in cells and not _c4_place(
                cells, (column, row), fill(cells, column, row)
            ):
                return None
    mine = {c for c, _ in segment}
    order = [c for c in (3, 2, 4, 1, 5, 0, 6) if c not in mine] + sorted(mine)

    def balanced() -> bool:
        gap = _gap(cells)
        if blocked is None:  # the side that completed the line moved last
            return gap == (1 if side == "B" else 0)
        return gap in (0, 1)

    while not balanced():
        lacking = "R" if _gap(cells) > 0 else "B"
        for column in order:
            row = sum((column, r) in cells for r in range(6))
            if row < 6:
                cells[(column, row)] = lacking
                if not _completes(cells, (column, row)):
                    break
                del cells[(column, row)]
        else:
            return None
    piles = [[cells[(c, r)] for r in range(6) if (c, r) in cells] for c in range(7)]
    return piles, "B" if _gap(cells) == 0 else "R"


def _c4_line_positions(
    index: int, segment: list[tuple[int, int]]
) -> list[tuple[list[list[str]], str, bool, str]]:
    """For one line of four: complete for B and for R, and three of it with the fourth held by
    the other side; each (columns, turn, whether a line is complete, what it shows)."""
    a, b = segment[0], segment[-1]
    shown = f"from column {a[0]}, row {a[1]} to column {b[0]}, row {b[1]}"
    found = []
    for side in ("B", "R"):
        made = _c4_line_position(segment, side, None)
        if made is not None:
            found.append((*made, True, f"{side} has four {shown}"))
    side = "BR"[index % 2]
    blocked = index % 4
    made = _c4_line_position(segment, side, blocked)
    if made is not None:
        c, r = segment[blocked]
        found.append(
            (*made, False, f"{side} has three {shown}; column {c}, row {r} is not {side}'s")
        )
    return found


def _wins_judge(game: str, asked: list[tuple[bool, str, str, str]], rows_note: str) -> Judge:
    """Judges one batch of ``is_win`` answers, each asked as (whether a line is complete, what
    the board shows, the board drawn, the line's name): the first wrong one named, with its
    board."""

    def judge(reply: Mapping[str, Any]) -> str | Verdict | None:
        if (error := _error(reply)) is not None:
            at = reply.get("at")
            if isinstance(at, int) and 0 <= at < len(asked):
                return Verdict(f"{error}, on this board, where {asked[at][1]}", asked[at][2])
            return error
        said = reply.get("values")
        if not isinstance(said, list) or len(said) != len(asked):
            return f"is_win was asked about {len(asked)} boards and gave {_shown(said)}"
        name = str(reply.get("board") or ("TTTBoard" if game == "tictactoe" else "C4Board"))[:40]
        wrong = [
            (expected, what, board, line)
            for value, (expected, what, board, line) in zip(said, asked, strict=True)
            if value is not expected
        ]
        if not wrong:
            return None
        expected, what, board, line = wrong[0]
        others = len(wrong) - 1
        more = (
            f" ({others} more {'board' if others == 1 else 'boards'} wrong too)" if others else ""
        )
        if expected:
            return Verdict(
                f"{name}.is_win misses the {line}: it says no win on this board, where "
                f"{what}{rows_note}{more}",
                board,
            )
        return Verdict(
            f"{name}.is_win says a side has won on this board, where no line is complete "
            f"({what}{rows_note}){more}",
            board,
        )

    return judge


def _line_checks() -> list[Check]:
    """One batched ``is_win`` check per direction of each game, over every line of it."""
    made = []
    ttt_groups: dict[str, list[tuple[ttt.TicTacToe, bool, str, str]]] = {}
    for line in ttt.LINES:
        ttt_groups.setdefault(_ttt_direction(line), []).extend(
            (pos, won, what, _ttt_line_name(line)) for pos, won, what in _ttt_line_positions(line)
        )
    for direction, found in ttt_groups.items():
        request = {
            "game": "tictactoe",
            "ask": "wins",
            "positions": [{"cells": list(p.cells), "turn": p.turn} for p, *_ in found],
        }
        asked = [(won, what, ttt.render(p), name) for p, won, what, name in found]
        judge = _wins_judge("tictactoe", asked, "")
        where = f"tic-tac-toe {direction}: each line complete for X, for O, and nearly"
        made.append(Check("boards", WIN_TTT, where, request, judge, ttt.render(found[0][0])))
    c4_groups: dict[str, list[tuple[list[list[str]], str, bool, str]]] = {}
    for index, segment in enumerate(SEGMENTS):
        c4_groups.setdefault(_c4_direction(segment), []).extend(_c4_line_positions(index, segment))
    for direction, piled in c4_groups.items():
        request = {
            "game": "connectfour",
            "ask": "wins",
            "positions": [{"columns": piles, "turn": turn} for piles, turn, _, _ in piled],
        }
        asked = [
            (won, what, c4.render(c4.position(piles, turn)), direction)
            for piles, turn, won, what in piled
        ]
        judge = _wins_judge("connectfour", asked, " (rows count from the bottom, from 0)")
        lines = sum(won for *_, won, _ in piled) // 2
        where = f"Connect Four, every {direction} ({lines}), for B, for R, and nearly"
        board = c4.render(c4.position(piled[0][0], piled[0][1]))
        made.append(Check("boards", WIN_C4, where, request, judge, board))
    return made


# ---- the chapter's own unit tests (exercises 1 and 2) ------------------------------------------

CHAPTER_TTT = (  # test name, the board (square 0 first), the property, what the test expects
    ("test_legal_moves", "XOXXXOO O", "legal_moves", [7]),
    ("test_is_win", "XOXXOOX O", "is_win", True),
    ("test_is_draw", "XOXXOOOXO", "is_draw", True),
)
CHAPTER_C4 = (  # test name, the columns (bottom up), what find_best_move(board, 3) returns
    ("test_easy_position", ("", "RB", "BRBRB", "BBRRB", "RRB", "", ""), 4),
    ("test_block_position", ("R", "BR", "BB", "RBRR", "BRB", "RBB", ""), 5),
    ("test_hard_position", ("B", "BR", "BBRB", "RBRR", "BRB", "R", ""), 3),
)


def _chapter_judge(test: str, asked: str, expected: object, key: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if (error := _error(reply)) is not None:
            return error
        got = reply.get(key)
        if isinstance(expected, list) and isinstance(got, list | tuple):
            got = list(got)
        if got == expected and type(got) is type(expected):
            return None
        return f"{test} expects {asked} to be {expected!r}; it is {_shown(got)}"

    return judge


def _chapter_checks() -> list[Check]:
    """The chapter's six unit tests, asked of the student's own classes through the driver."""
    made = []
    for test, cells, prop, expected in CHAPTER_TTT:
        pos = ttt.TicTacToe(cells, "X")
        request = _ttt_request(pos, ask=prop)
        judge = _chapter_judge(test, f"TTTBoard.{prop}", expected, "value")
        kind = f"exercise 1 {test}"
        made.append(Check("chapter", kind, "exercise 1", request, judge, ttt.render(pos)))
    for test, piles, column in CHAPTER_C4:
        board = c4.position([list(p) for p in piles], "R")
        request = _fair(_c4_request(board, ask="best", depth=C4_DEPTH, fair=True))
        judge = _explained(_chapter_judge(test, "find_best_move(board, 3)", column, "move"), WIN_C4)
        kind = f"exercise 2 {test}"
        made.append(Check("chapter", kind, "exercise 2", request, judge, c4.render(board)))
    return made


def _fair(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` with every winning line of its game, as (column, row) cells: the driver's
    own win test, for a search run again with a right ``is_win``, asks exactly those."""
    if request["game"] == "tictactoe":
        lines = [[[s % 3, s // 3] for s in line] for line in ttt.LINES]
    else:
        lines = [[list(cell) for cell in segment] for segment in SEGMENTS]
    return {**request, "lines": lines}


def _explained(judge: Judge, win_kind: str) -> Judge:
    """``judge``, and when the move was wrong but the same search on the same board with the
    kit's own win test in place of the student's (the driver's ``fair_move``) plays a right
    one, the verdict says so: the fault is ``is_win``'s, charged there and not here."""

    def explained(reply: Mapping[str, Any]) -> str | Verdict | Noted | None:
        verdict = judge(reply)
        if verdict is None or isinstance(verdict, Noted) or "fair_move" not in reply:
            return verdict
        fair = reply["fair_move"]
        if isinstance(judge({"move": fair}), str | Verdict):
            return verdict
        problem = verdict if isinstance(verdict, str) else verdict.problem
        return Verdict(
            f"{problem}; with a right is_win the same search plays {_shown(fair)}, a right "
            "move: the fault is in is_win",
            explained_by=win_kind,
        )

    return explained


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
        not_full = c4rules.legal_moves(pos)
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
        """A search check; on tic-tac-toe, also run with a right ``is_win`` (``fair``)."""
        if kind.startswith("tic-tac-toe"):
            request, judge = {**_fair(request), "fair": True}, _explained(judge, WIN_TTT)
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
    return [
        *_ttt_board_checks(rng),
        *_c4_board_checks(rng),
        *_line_checks(),
        *_search_checks(rng),
        *_chapter_checks(),
    ]
