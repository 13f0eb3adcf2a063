"""The book's search asked what its TODOs mean: ``minimax`` (TODO 8) and ``alphabeta`` (TODO 10)
give plain minimax's value, found by the kit through the student's own boards, and alpha-beta
creates fewer boards doing it; ``find_best_move`` (TODO 9) plays a move of the best value
(tic-tac-toe judged exactly: every reachable position is solved), takes a win in one and
blocks a threat, and stops at ``max_depth``. Also the chapter's own unit tests (exercises 1
and 2), reported.

A search walking boards whose ``is_win`` is wrong plays wrong moves without being wrong
itself: the tic-tac-toe search checks (and the chapter's Connect Four tests) run the same
search again with the kit's win test (``fair``) and say so when that puts it right. The value
checks walk the student's own boards with the kit's minimax, so a board's fault is the same on
both sides and not charged to the search; a ``move`` that changes its board is named instead.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from functools import partial
from typing import Any

from autograder.games.boardabc import c4
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.boardabc.judges import (
    Judge,
    c4_request,
    error,
    number,
    played,
    shown,
    ttt_request,
)
from autograder.games.boardabc.lines import SEGMENTS, WIN_C4, WIN_TTT
from autograder.games.connect4 import rules as c4rules
from autograder.games.connect4.solver import tactics_exact
from autograder.games.pack import Check, Noted, Verdict

__all__ = [
    "TTT_DEPTH",
    "C4_DEPTH",
    "DEPTH_CHECKED",
    "VALUE_DEPTHS",
    "CHAPTER_TTT",
    "CHAPTER_C4",
    "bound",
    "search_checks",
    "value_checks",
    "chapter_checks",
]

TTT_DEPTH = 8  # the book's default: tic-tac-toe searched to the end
C4_DEPTH = 3  # the book's Connect Four AI, in graded games and probes
DEPTH_CHECKED = 2  # the depth asked when the boards find_best_move creates are counted
VALUE_DEPTHS = {"tictactoe": TTT_DEPTH, "connectfour": 2}  # the value checks' max_depth
TTT_BEST, TTT_TACTICS, C4_DEPTHS = 8, 3, 2
# positions whose values are asked: tic-tac-toe's first with a win in 1; Connect Four's a win
# in 1 and a threat to block, where find_best_move is judged by the truth too
TTT_VALUES, C4_VALUES = 3, 2


def bound(branching: int, depth: int) -> int:
    """The most boards ``find_best_move(board, depth)`` creates when it calls
    ``minimax(board.move(m), ..., depth)`` as the book does: every line ``depth + 1`` deep."""
    return sum(branching**k for k in range(1, depth + 2))


_OUTCOME = {1: "win", 0: "draw", -1: "lose"}


def _best_judge(pos: ttt.TicTacToe) -> Judge:
    worth = ttt.value(pos)

    def judge(reply: Mapping[str, Any]) -> str | None:
        square = played(reply, ttt.legal_moves(pos), "square")
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
        square = played(reply, ttt.legal_moves(pos), "square")
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
        square = played(reply, ttt.legal_moves(pos), "square")
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


def _depth_judge(pos: c4rules.Position, depth: int, most: int) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        square = played(reply, c4rules.legal_moves(pos), "column")
        if isinstance(square, str) and not reply.get("stopped"):
            return square
        boards, deepest = reply.get("boards"), reply.get("deepest")
        if reply.get("stopped") or (isinstance(boards, int) and boards > 2 * most):
            return (
                f"find_best_move(board, {depth}) created more than {2 * most} boards: a search "
                f"{depth} plies deep creates at most {most}, so it does not stop at max_depth"
            )
        if isinstance(deepest, int) and 0 < deepest < depth:
            return (
                f"find_best_move(board, {depth}) looked {deepest} "
                f"{'move' if deepest == 1 else 'moves'} ahead: a search {depth} plies deep looks "
                f"at least {depth}, so it stops before max_depth (the other side's replies go "
                "unseen)"
            )
        return None

    return judge


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
        if (problem := error(reply)) is not None:
            return problem
        got = reply.get(key)
        if isinstance(expected, list) and isinstance(got, list | tuple):
            got = list(got)
        if got == expected and type(got) is type(expected):
            return None
        return f"{test} expects {asked} to be {expected!r}; it is {shown(got)}"

    return judge


def chapter_checks() -> list[Check]:
    """The chapter's six unit tests, asked of the student's own classes through the driver."""
    made = []
    for test, cells, prop, expected in CHAPTER_TTT:
        pos = ttt.TicTacToe(cells, "X")
        request = ttt_request(pos, ask=prop)
        judge = _chapter_judge(test, f"TTTBoard.{prop}", expected, "value")
        kind = f"exercise 1 {test}"
        made.append(Check("chapter", kind, "exercise 1", request, judge, ttt.render(pos)))
    for test, piles, column in CHAPTER_C4:
        board = c4.position([list(p) for p in piles], "R")
        request = _fair(c4_request(board, ask="best", depth=C4_DEPTH, fair=True))
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
            f"{problem}; with a right is_win the same search plays {shown(fair)}, a right "
            "move: the fault is in is_win",
            explained_by=win_kind,
        )

    return explained


def search_checks(rng: random.Random, weights: Mapping[str, float]) -> list[Check]:
    """The search checks of ``find_best_move``, tic-tac-toe's judged exactly; each of its
    kind's weight."""
    made = []

    def add(kind: str, index: int, request: dict[str, Any], judge: Judge, board: str) -> None:
        """A search check; on tic-tac-toe, also run with a right ``is_win`` (``fair``)."""
        if kind.startswith("tic-tac-toe"):
            request, judge = {**_fair(request), "fair": True}, _explained(judge, WIN_TTT)
        judge = _walked(judge, request["game"])
        made.append(Check("search", kind, f"{kind} {index}", request, judge, board, weights[kind]))

    best = ttt.sample(
        rng,
        TTT_BEST,
        lambda p: ttt.legal_moves(p) != [] and len(ttt.empty_squares(p)) <= 7,
    )
    for index, pos in enumerate(best, 1):
        request = ttt_request(pos, ask="best", depth=TTT_DEPTH)
        add("tic-tac-toe best move", index, request, _best_judge(pos), ttt.render(pos))
    wins = ttt.sample(rng, TTT_TACTICS, lambda p: bool(ttt.winning_moves(p)))
    for index, pos in enumerate(wins, 1):
        request = ttt_request(pos, ask="best", depth=TTT_DEPTH)
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
        request = ttt_request(pos, ask="best", depth=TTT_DEPTH)
        add("tic-tac-toe block", index, request, _block_judge(pos), ttt.render(pos))
    most = bound(7, DEPTH_CHECKED)
    for index in range(1, C4_DEPTHS + 1):
        drop: c4rules.Position | None = None
        while drop is None or len(c4rules.legal_moves(drop)) < 7 or c4rules.result(drop):
            drop = c4rules.random_position(c4.VARIANT, rng, rng.randrange(2, 10))
        request = c4_request(drop, ask="best", depth=DEPTH_CHECKED, most=2 * most)
        judge = _depth_judge(drop, DEPTH_CHECKED, most)
        add("Connect Four max_depth", index, request, judge, c4.render(drop))
    return made


# ---- values: minimax, alphabeta and find_best_move against plain minimax ----------------------
#
# The driver walks the student's own boards (legal_moves, move, is_win, is_draw, evaluate) with
# the kit's plain minimax, the book's way, for every move of the position; the student's
# ``minimax`` and ``alphabeta`` must give the same value for each, and ``find_best_move`` must
# play a move of the best one. A board fault is the same on both sides, so it is not charged
# here; a win in one among the positions makes a search that has min and max swapped show.

_GAME = {"tictactoe": "tic-tac-toe", "connectfour": "Connect Four"}


def _same(kit: float | None, said: float | None) -> bool:
    if kit is None or said is None:
        return False
    if math.isinf(kit) or math.isinf(said):
        return kit == said
    return abs(kit - said) <= 1e-9 * max(1.0, abs(kit), abs(said))


def _value(said: float | None) -> str:
    return "not a number" if said is None else f"{said:g}"


def _walked(judge: Judge, game: str) -> Judge:
    """``judge``, and where the board changed under the search (the kit's own minimax saw a
    ``move`` change the board it was called on, or ``find_best_move`` left its board changed),
    a wrong answer is put down to the game's ``move``: charged there, not again here."""

    def walked(reply: Mapping[str, Any]) -> str | Verdict | Noted | None:
        verdict = judge(reply)
        if verdict is None or isinstance(verdict, Noted):
            return verdict
        if not (reply.get("mutated") or reply.get("changed")):
            return verdict
        problem = verdict if isinstance(verdict, str) else verdict.problem
        return Verdict(
            f"{problem}: your move changes the board it is called on, so the search walks "
            "boards that change under it",
            explained_by=f"{_GAME[game]} move",
        )

    return walked


def _read_values(reply: Mapping[str, Any]) -> tuple[list[int], list[float]] | str:
    """The position's moves and the kit's value of each, or why there are none."""
    if (problem := error(reply)) is not None:
        return problem
    moves, plain = reply.get("moves"), reply.get("plain")
    if not isinstance(moves, list) or not isinstance(plain, list) or len(moves) != len(plain):
        return "the search could not be compared: no moves came back"
    values = [number(value) for value in plain]
    if None in values:
        return "the boards' own evaluate gave something that is not a number"
    return moves, [float(value) for value in values if value is not None]


def _values_judge(call: str, game: str, turn: str, depth: int, wins: list[int]) -> Judge:
    """``minimax`` or ``alphabeta`` (with the book's window) on the board after each move must
    give plain minimax's value; ``alphabeta`` must create fewer boards where pruning can."""

    def judge(reply: Mapping[str, Any]) -> str | Verdict | None:
        read = _read_values(reply)
        if isinstance(read, str):
            return read
        moves, plain = read
        raw = reply.get("values")
        if not isinstance(raw, list) or len(raw) != len(moves):
            return f"{call} gave no value to compare"
        said = [number(value) for value in raw]
        wrong = [(m, p, s) for m, p, s in zip(moves, plain, said, strict=True) if not _same(p, s)]
        if wrong:
            return _wrong_value(reply, call, game, turn, depth, wins, wrong)
        made, plain_made = reply.get("boards"), reply.get("plain_boards")
        pruned = reply.get("pruned_boards")
        if call != "alphabeta" or not (
            isinstance(made, int) and isinstance(plain_made, int) and isinstance(pruned, int)
        ):
            return None
        if pruned < plain_made <= made:
            return (
                f"alphabeta created {made} boards to find these values; plain minimax creates "
                f"{plain_made}, and alpha-beta in the same order {pruned}: it does not prune "
                "(stop trying moves once beta <= alpha)"
            )
        return None

    return judge


def _wrong_value(
    reply: Mapping[str, Any],
    call: str,
    game: str,
    turn: str,
    depth: int,
    wins: list[int],
    wrong: list[tuple[int, float, float | None]],
) -> str:
    move, kit, said = wrong[0]
    more = f" ({len(wrong) - 1} more moves differ)" if len(wrong) > 1 else ""
    sign = (
        f"; {turn} wins at once with {move}, a win for {turn}"
        if move in wins
        else f"; {wins} win at once for {turn}, so the position is a win for {turn}"
        if wins
        else ""
    )
    return (
        f"{call}(board.move({move}), False, {turn}, {depth}) is {_value(said)}; plain minimax "
        f"through your own boards gives {kit:g}{more}{sign}"
    )


def _best_move_judge(turn: str, depth: int, wins: list[int], keep: list[int] | None) -> Judge:
    """``find_best_move(board, depth)`` on a Connect Four position with a win in one or a
    threat to block must keep the position's outcome, judged by the truth (the exact solver,
    ``keep``; where it does not reach, the win at once), not by the student's evaluation: a
    search that sees the sign of a win the wrong way round fails here."""
    right = keep if keep is not None else wins

    def judge(reply: Mapping[str, Any]) -> str | None:
        read = _read_values(reply)
        if isinstance(read, str):
            return read
        moves, _ = read
        move = reply.get("move")
        if isinstance(move, bool) or move not in moves:
            return f"find_best_move(board, {depth}) returned {shown(move)}, not one of {moves}"
        if not right or move in right:
            return None
        what = f"{wins} win at once for {turn}" if wins else f"only {right} keep the outcome"
        return (
            f"find_best_move(board, {depth}) played {move}; {what}: the search does not see "
            "the win or the threat as a win or a loss for the side to move"
        )

    return judge


def _c4_wins(pos: c4rules.Position) -> list[int]:
    return [m for m in c4rules.legal_moves(pos) if c4rules.result(c4rules.play(pos, m)) == pos.turn]


def _ttt_value_position(pos: ttt.TicTacToe, wins: bool) -> bool:
    """Four to six empty squares, no line yet, and a win in one for the side to move or not."""
    empty = len(ttt.empty_squares(pos))
    return 4 <= empty <= 6 and ttt.winner(pos) is None and bool(ttt.winning_moves(pos)) == wins


def _c4_block(pos: c4rules.Position) -> bool:
    """The side to move has no win at once, and some of its moves let the other side win at
    once while some do not."""
    if _c4_wins(pos):
        return False
    lets = [bool(_c4_wins(c4rules.play(pos, m))) for m in c4rules.legal_moves(pos)]
    return any(lets) and not all(lets)


def _c4_value_position(rng: random.Random, wins: bool) -> c4rules.Position:
    """A Connect Four position from random play, six columns open or more: with a win in one
    for the side to move, or with a threat to block."""
    while True:
        pos = c4rules.random_position(c4.VARIANT, rng, rng.randrange(6, 20))
        if pos is None or c4rules.result(pos) is not None or len(c4rules.legal_moves(pos)) < 6:
            continue
        if bool(_c4_wins(pos)) if wins else _c4_block(pos):
            return pos


def _keeping_c4(pos: c4rules.Position) -> list[int] | None:
    """The columns that keep ``pos``'s outcome, by the exact solver; None out of its reach."""
    values = tactics_exact(c4.VARIANT)(pos)
    if not values:
        return None
    order = ("loss", "draw", "win")
    best = max((outcome for _, outcome in values), key=order.index)
    return [column for column, outcome in values if outcome == best]


def _value_positions(rng: random.Random) -> list[tuple[str, dict[str, Any], str, list[int]]]:
    """(game, request, board drawn, the wins in one) for each position whose values are asked:
    tic-tac-toe with four to six empty squares, Connect Four from a few plies of random play;
    the first of each game has a win in one for the side to move."""
    found: list[tuple[str, dict[str, Any], str, list[int]]] = []
    for index in range(TTT_VALUES):
        pos = ttt.sample(rng, 1, partial(_ttt_value_position, wins=index == 0))[0]
        found.append(("tictactoe", ttt_request(pos), ttt.render(pos), ttt.winning_moves(pos)))
    for index in range(C4_VALUES):
        drop = _c4_value_position(rng, index == 0)
        found.append(("connectfour", c4_request(drop), c4.render(drop), _c4_wins(drop)))
    return found


def _c4_position(request: Mapping[str, Any]) -> c4rules.Position:
    return c4.position([list(p) for p in request["columns"]], str(request["turn"]))


def value_checks(seed: int, weights: Mapping[str, float]) -> list[Check]:
    """``minimax`` and ``alphabeta`` against plain minimax through the student's boards, and
    (on Connect Four) ``find_best_move`` against the truth, on the same seeded positions; the
    same for the same seed."""
    rng = random.Random(f"board-abc:values:{seed}")
    made = []
    for index, (game, request, board, wins) in enumerate(_value_positions(rng), 1):
        depth, turn = VALUE_DEPTHS[game], str(request["turn"])
        asked = {**request, "ask": "values", "depth": depth}
        where = f"{_GAME[game]} values {index}"
        for call in ("minimax", "alphabeta"):
            judge = _walked(_values_judge(call, game, turn, depth, wins), game)
            made.append(
                Check("search", call, where, {**asked, "call": call}, judge, board, weights[call])
            )
        if game == "connectfour":
            kind = "Connect Four best move"
            keep = _keeping_c4(_c4_position(request))
            judge = _walked(_best_move_judge(turn, depth, wins, keep), game)
            request = {**asked, "call": "find_best_move"}
            made.append(Check("search", kind, where, request, judge, board, weights[kind]))
    return made
