"""Every line of every direction: a win test asked about each line of both games on its own.

A win test that forgets one direction passes random positions more often than not, so each
line of each game is asked about: complete for each side, and nearly complete (one cell held
by the other side, or empty). The positions are built, not sampled: the same for every seed,
and legal-looking (the counts fit whose turn it is, Connect Four's pieces rest on one another,
no other line is complete). One check per direction of each game; a direction missed whole
(every line of it, for a side) breaks the whole rule; a few lines of it are a near miss.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from autograder.games.boardabc import c4
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.boardabc.judges import NEAR_MISS, Judge, error, shown
from autograder.games.connect4 import rules as c4rules
from autograder.games.pack import Check, Verdict

__all__ = ["SEGMENTS", "C4_DIRECTIONS", "WIN_TTT", "WIN_C4", "line_checks"]

WIN_TTT, WIN_C4 = "tic-tac-toe is_win", "Connect Four is_win"  # kinds a search fault may follow

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


def _share(
    wrong: list[tuple[bool, str, str, str]], asked: list[tuple[bool, str, str, str]]
) -> float:
    """What the faults of one direction cost: the whole rule when every complete line of it is
    missed for a side (the first letter of what a board shows is the side: "B has four ..."),
    a near miss when only some are, or when a line is seen that is not there."""
    for side in {what[0] for won, what, *_ in asked if won}:
        lines = [what for won, what, *_ in asked if won and what[0] == side]
        missed = [what for won, what, *_ in wrong if won and what[0] == side]
        if lines and len(missed) == len(lines):
            return 1.0
    return NEAR_MISS


def _wins_judge(game: str, asked: list[tuple[bool, str, str, str]], rows_note: str) -> Judge:
    """Judges one batch of ``is_win`` answers, each asked as (whether a line is complete, what
    the board shows, the board drawn, the line's name): the first wrong one named, with its
    board."""

    def judge(reply: Mapping[str, Any]) -> str | Verdict | None:
        if (problem := error(reply)) is not None:
            at = reply.get("at")
            if isinstance(at, int) and 0 <= at < len(asked):
                return Verdict(f"{problem}, on this board, where {asked[at][1]}", asked[at][2])
            return problem
        said = reply.get("values")
        if not isinstance(said, list) or len(said) != len(asked):
            return f"is_win was asked about {len(asked)} boards and gave {shown(said)}"
        name = str(reply.get("board") or ("TTTBoard" if game == "tictactoe" else "C4Board"))[:40]
        wrong = [  # a position the student's class cannot build is not asked (None)
            item
            for value, item in zip(said, asked, strict=True)
            if value is not None and value is not item[0]
        ]
        if not wrong:
            return None
        expected, what, board, line = wrong[0]
        others = len(wrong) - 1
        more = (
            f" ({others} more {'board' if others == 1 else 'boards'} wrong too)" if others else ""
        )
        share = _share(wrong, asked)
        whole = f": it never sees a {line} for {_sides(wrong)}" if share == 1.0 else ""
        if expected:
            return Verdict(
                f"{name}.is_win misses the {line}: it says no win on this board, where "
                f"{what}{rows_note}{more}{whole}",
                board,
                share=share,
            )
        return Verdict(
            f"{name}.is_win says a side has won on this board, where no line is complete "
            f"({what}{rows_note}){more}{whole}",
            board,
            share=share,
        )

    return judge


def _sides(wrong: list[tuple[bool, str, str, str]]) -> str:
    """The sides whose complete lines were missed, for a message: "B", "B or R"."""
    return " or ".join(sorted({what[0] for won, what, *_ in wrong if won}))


def line_checks(weights: Mapping[str, float]) -> list[Check]:
    """One batched ``is_win`` check per direction of each game, over every line of it, each
    of its game's ``is_win`` kind, weighed by ``weights`` (kind -> weight)."""
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
        board = ttt.render(found[0][0])
        made.append(Check("boards", WIN_TTT, where, request, judge, board, weights[WIN_TTT]))
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
        made.append(Check("boards", WIN_C4, where, request, judge, board, weights[WIN_C4]))
    return made


def won_boards() -> list[tuple[str, dict[str, Any], str, str]]:
    """Two boards of each game on which a side has just completed a line, one for each side
    (tic-tac-toe: X a row, O a column; Connect Four: B a row, R a column): (the game, the board
    as the driver builds it, the board drawn, the winner). ``evaluate`` is asked about them."""
    found: list[tuple[str, dict[str, Any], str, str]] = []
    for side, line in (("X", (0, 1, 2)), ("O", (1, 4, 7))):
        pos = next(p for p, won, what in _ttt_line_positions(line) if won and what[0] == side)
        request: dict[str, Any] = {"game": "tictactoe", "cells": list(pos.cells), "turn": pos.turn}
        found.append(("tictactoe", request, ttt.render(pos), side))
    for side, wanted in (("B", C4_DIRECTIONS[1]), ("R", C4_DIRECTIONS[0])):
        segment = next(s for s in SEGMENTS if _c4_direction(s) == wanted)
        made = _c4_line_position(segment, side, None)
        assert made is not None  # a row and a column of the empty board always fit
        piles, turn = made
        asked: dict[str, Any] = {"game": "connectfour", "columns": piles, "turn": turn}
        found.append(("connectfour", asked, c4.render(c4.position(piles, turn)), side))
    return found
