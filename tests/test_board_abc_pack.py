"""The book's Board homework as a pack: the tic-tac-toe engine, the checks and their judges, the
scoring of the boards and the search, and how four files come in (a folder, a file beside the
others, Canvas attachments). In process and fast; the real runs are in test_board_abc_check.py.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from autograder.classroom.canvas_names import parse
from autograder.classroom.intake import (
    Submission,
    choose_assignment,
    holds_files,
    open_submission,
    packaging_problems,
)
from autograder.classroom.students import resolve
from autograder.games import find_assignment
from autograder.games.boardabc import PACK, c4, checks, search
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.boardabc.judges import NEAR_MISS, moves_judge
from autograder.games.connect4 import rules as c4rules
from autograder.games.connect4.solver import Solver as Connect4Solver
from autograder.games.pack import Verdict
from autograder.grading.rubric import load_rubric
from autograder.grading.scoring import score
from autograder.oracle.player import oracle_for, tactics_solver
from autograder.play.records import Checked, Session

pytestmark = pytest.mark.timeout(60)

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solution" / "board-abc"
BOARD_ABC = find_assignment("board-abc")
RUBRIC = load_rubric(None, PACK)


# ---- tic-tac-toe, exactly ------------------------------------------------------------------


def test_tic_tac_toe_has_5478_reachable_positions_and_is_a_draw():
    assert len(ttt.reachable()) == 5478
    assert ttt.value(ttt.start()) == 0
    assert ttt.value(ttt.TicTacToe("XX OO    ", "X")) == 1  # X completes the top row
    assert ttt.value(ttt.TicTacToe("XX OO    ", "O")) == 1  # O moves first and takes 5


def test_the_books_three_test_boards_read_as_the_book_says():
    assert ttt.empty_squares(ttt.TicTacToe("XOXXXOO O", "X")) == [7]
    assert ttt.winner(ttt.TicTacToe("XOXXOOX O", "X")) == "X"
    assert ttt.is_draw(ttt.TicTacToe("XOXXOOOXO", "X"))


def test_a_board_is_drawn_as_the_book_prints_it():
    assert ttt.render(ttt.TicTacToe("X   O    ", "X")).splitlines()[:3] == [
        "X| |       0 1 2",
        "-----",
        " |O|       3 4 5",
    ]
    pos = c4.position([[], ["B", "R"], ["B"], [], [], [], []], "R")
    assert c4.render(pos).splitlines()[-4:] == [
        "| |R| | | | | |",
        "| |B|B| | | | |",
        " 0 1 2 3 4 5 6",
        "(R to move)",
    ]


def test_the_books_columns_go_to_the_engine_and_back():
    piles = [["B", "R", "B"], [], ["R"], ["B", "B"], [], [], ["R"]]
    pos = c4.position(piles, "R")
    assert c4.columns(pos) == piles
    assert c4rules.legal_moves(pos) == list(range(7))


# ---- the checks ----------------------------------------------------------------------------


def test_the_checks_are_the_same_for_a_seed_and_cover_every_kind():
    first = checks.checks(None, 3)
    again = checks.checks(None, 3)
    other = checks.checks(None, 4)
    assert [c.request for c in first] == [c.request for c in again]
    assert [c.request for c in first] != [c.request for c in other]
    kinds = {c.kind for c in first}
    assert kinds == {
        *(f"{game} {ask}" for game in ("tic-tac-toe", "Connect Four") for ask in checks.ASKED),
        "tic-tac-toe evaluate",
        "Connect Four evaluate",
        "minimax",
        "alphabeta",
        "Connect Four best move",
        "tic-tac-toe best move",
        "tic-tac-toe win in 1",
        "tic-tac-toe block",
        "Connect Four max_depth",
        *(f"exercise 1 {test}" for test, *_ in search.CHAPTER_TTT),
        *(f"exercise 2 {test}" for test, *_ in search.CHAPTER_C4),
    }


def test_a_full_board_with_a_line_is_always_asked_about():
    asked = [c for c in checks.checks(None, 0) if c.kind == "tic-tac-toe is_draw"]
    full_win = [c for c in asked if c.request["cells"] == list("XXXOOXXOO")]
    assert len(full_win) == 1
    judge = full_win[0].judge
    assert judge({"ok": True, "value": False}) is None
    wrong = judge({"ok": True, "value": True})
    assert wrong.problem == "is_draw is True; it should be False: a line is complete"
    assert wrong.share == NEAR_MISS  # one position of many: a near miss unless all are wrong


def _one(kind: str, seed: int = 0):  # type: ignore[no-untyped-def]
    return next(c for c in checks.checks(None, seed) if c.kind == kind)


def test_legal_moves_may_list_the_empty_squares_of_a_won_board_or_none():
    won = moves_judge("squares", [7, 8], won=True)
    assert won({"value": [8, 7]}) is None
    assert won({"value": []}) is None
    assert _said(won({"value": [7]})) == "legal_moves is [7]; the legal squares are [7, 8]"
    going = moves_judge("columns", [0, 1], won=False)
    assert _said(going({"value": []})) == "legal_moves is []; the legal columns are [0, 1]"
    assert _said(going({"value": "01"})) == "legal_moves should be a list of columns, got '01'"


def test_a_move_that_changes_its_own_board_is_named():
    check = _one("tic-tac-toe move")
    square = check.request["square"]
    assert _said(check.judge({"same": True})) == (
        f"move({square}) returned the board it was called on; return a new board"
    )
    assert _said(check.judge({"changed": True})).startswith(f"move({square}) changed the board")
    assert _said(check.judge({"error": "move raised ValueError: no"})) == (
        "move raised ValueError: no"
    )
    assert _said(check.judge({"cells": None})) == (  # its squares kept under another name
        f"after move({square}) the new board's squares cannot be read: the grader reads them "
        "from the board's position attribute, a list of pieces as the book's constructor keeps "
        "it; keep that name and shape"
    )


def test_a_search_past_max_depth_is_named_with_the_bound():
    check = _one("Connect Four max_depth")
    most = checks.bound(7, checks.DEPTH_CHECKED)
    assert most == 7 + 49 + 343
    assert check.request["most"] == 2 * most
    assert check.judge({"stopped": True, "boards": 2 * most + 1}) == (
        f"find_best_move(board, 2) created more than {2 * most} boards: a search 2 plies deep "
        f"creates at most {most}, so it does not stop at max_depth"
    )
    legal = c4rules.legal_moves(c4.position(check.request["columns"], check.request["turn"]))
    assert check.judge({"move": legal[0], "boards": 300}) is None


def test_a_missed_block_names_the_threat():
    check = _one("tic-tac-toe block")
    pos = ttt.TicTacToe("".join(check.request["cells"]), check.request["turn"])
    threat = ttt.winning_moves(pos._replace(turn=ttt.other(pos.turn)))
    blocks = [s for s in ttt.legal_moves(pos) if not ttt.winning_moves(ttt.play(pos, s))]
    missed = next(s for s in ttt.legal_moves(pos) if s not in blocks)
    assert check.judge({"move": blocks[0]}) is None
    keep = [s for s in ttt.legal_moves(pos) if -ttt.value(ttt.play(pos, s)) == ttt.value(pos)]
    outcome = {1: "win", 0: "draw"}[ttt.value(pos)]  # never a block lost whatever is played
    assert check.judge({"move": missed}) == (
        f"{ttt.other(pos.turn)} wins next at {threat}; find_best_move played {missed} and did "
        f"not block; {keep} keep the {outcome}"
    )
    assert check.judge({"move": True}) == "find_best_move returned True, not a square number"


def test_a_best_move_that_throws_away_a_draw_is_named():
    pos = ttt.TicTacToe("X   O   X", "O")  # O must take an edge: a corner lets X fork
    judge = search._best_judge(pos)
    assert judge({"move": 1}) is None
    assert judge({"move": 2}) == (
        "O can draw here, but after 2 O loses against best play; [1, 3, 5, 7] keep the draw"
    )


# ---- every line of every direction ------------------------------------------------------------


def _wins(game: str) -> list:  # type: ignore[type-arg]
    return [
        c
        for c in checks.checks(None, 0)
        if c.request.get("ask") == "wins" and c.request["game"] == game
    ]


def test_every_line_of_both_games_is_asked_complete_for_each_side_and_nearly():
    seen: set[tuple[tuple[int, int, int], str]] = set()
    for check in _wins("tictactoe"):
        for asked in check.request["positions"]:
            pos = ttt.TicTacToe("".join(asked["cells"]), asked["turn"])
            assert pos in ttt.reachable()
            side = ttt.winner(pos)
            seen.update(
                (line, side) for line in ttt.LINES if {pos.cells[s] for s in line} == {side}
            )
    assert len(seen) == 16  # 8 lines, each complete for X and for O
    lines: set[tuple[frozenset[tuple[int, int]], str]] = set()
    near = 0
    for check in _wins("connectfour"):
        for asked in check.request["positions"]:
            pos = c4.position(asked["columns"], asked["turn"])
            b = sum(p == "B" for pile in asked["columns"] for p in pile)
            r = sum(p == "R" for pile in asked["columns"] for p in pile)
            assert b - r == (0 if asked["turn"] == "B" else 1)  # the counts fit the turn
            complete = [
                seg
                for seg in checks.SEGMENTS
                if len({(asked["columns"][c] + [" "] * 6)[row] for c, row in seg}) == 1
                and (asked["columns"][seg[0][0]] + [" "] * 6)[seg[0][1]] != " "
            ]
            assert len(complete) <= 1  # never a second line to hide a missing one
            assert (c4rules.winner(pos) is not None) == bool(complete)
            if complete:
                lines.add((frozenset(complete[0]), c4.BOOK[c4rules.winner(pos)]))
            else:
                near += 1
    assert len(checks.SEGMENTS) == 69
    assert len(lines) == 2 * 69 and near == 69


def _masks(segments) -> set[int]:  # type: ignore[no-untyped-def]
    """Lines as (column, row from the bottom) cells, as the engine's bitboards."""
    return {sum(c4.VARIANT.cell(5 - r, c) for c, r in seg) for seg in segments}


def test_the_books_connect_four_is_the_connect4_packs_lines_moves_and_solver():
    lines = set(c4rules.lines(c4.VARIANT))
    assert _masks(checks.SEGMENTS) == lines  # is_win is asked about exactly the pack's lines
    every = checks.checks(c4.VARIANT, 0)
    fair = [c for c in every if c.request.get("fair") and c.request["game"] == "connectfour"]
    assert fair and all(_masks(c.request["lines"]) == lines for c in fair)  # the driver's too
    legal = [c for c in every if c.kind == "Connect Four legal_moves"]
    for check in legal:  # the columns not full are the pack's legal moves
        pos = c4.position(check.request["columns"], check.request["turn"])
        assert check.judge({"value": c4rules.legal_moves(pos)}) is None
    assert isinstance(oracle_for(BOARD_ABC), Connect4Solver)  # perfect play: the exact solver
    exact = tactics_solver(BOARD_ABC)
    rng = random.Random(3)
    pos = None
    while pos is None:
        pos = c4rules.random_position(c4.VARIANT, rng, 24)
    solved = [(c, v.value) for c, v in Connect4Solver(c4.VARIANT).move_values(pos)]
    assert exact is not None and exact(pos) == solved and len(solved) > 1


def test_a_missing_direction_is_named_with_its_board():
    check = next(c for c in _wins("connectfour") if "rising" in c.where)
    asked = check.request["positions"]
    wrong = [False] * len(asked)  # is_win never sees a rising diagonal
    verdict = check.judge({"values": wrong, "board": "C4Board"})
    problem, board = verdict.problem, verdict.board
    assert problem.startswith(
        "C4Board.is_win misses the diagonal rising to the right: it says no win on this board, "
        "where B has four from column 0, row 0 to column 3, row 3"
    )
    assert "23 more boards wrong too" in problem
    first = asked[0]
    assert board == c4.render(c4.position(first["columns"], first["turn"]))
    expected = [bool(c4rules.winner(c4.position(a["columns"], a["turn"]))) for a in asked]
    assert check.judge({"values": expected}) is None


def test_a_direction_missed_whole_breaks_the_rule_and_a_few_lines_are_a_near_miss():
    check = next(c for c in _wins("connectfour") if "vertical" in c.where)
    asked = check.request["positions"]
    right = [bool(c4rules.winner(c4.position(a["columns"], a["turn"]))) for a in asked]
    blind = check.judge({"values": [False] * len(asked)})
    assert blind.share == 1.0 and "it never sees a vertical line for B or R" in blind.problem
    one = list(right)
    one[right.index(True)] = False  # one line of the direction missed
    assert check.judge({"values": one}).share == NEAR_MISS
    winners = [c4rules.winner(c4.position(a["columns"], a["turn"])) for a in asked]
    never_r = [won and c4.BOOK[w] == "B" for won, w in zip(right, winners, strict=True)]
    side = check.judge({"values": never_r})
    assert side.share == 1.0  # every line of R's missed: a whole rule (R never wins)


def test_an_evaluation_with_its_sign_the_wrong_way_round_is_named_and_charged():
    check = next(c for c in checks.checks(None, 0) if c.kind == "Connect Four evaluate")
    assert check.judge({"winner": "999899.0", "loser": "-999899.0"}) is None
    flipped = check.judge({"winner": "-999899.0", "loser": "999899.0"})
    assert "the sign is the wrong way round, so every search plays for its opponent" in flipped
    blind = check.judge({"winner": "12.0", "loser": "0.0"})
    assert "an evaluation blind to the opponent never blocks" in blind
    unseen = check.judge({"winner": "0.0", "loser": "0.0"})
    assert isinstance(unseen, Verdict) and unseen.explained_by == checks.WIN_C4


def _values_check(kind: str, game: str):  # type: ignore[no-untyped-def]
    return next(c for c in checks.checks(None, 0) if c.kind == kind and c.request["game"] == game)


def test_minimax_and_alphabeta_must_give_plain_minimaxs_values_through_the_students_boards():
    check = _values_check("minimax", "tictactoe")
    pos = ttt.TicTacToe("".join(check.request["cells"]), check.request["turn"])
    wins = ttt.winning_moves(pos)
    assert wins  # the first tic-tac-toe position has a win in one: a swapped search shows
    moves = ttt.legal_moves(pos)
    plain = [repr(float(1 if m in wins else 0)) for m in moves]
    reply = {"moves": moves, "plain": plain, "values": plain}
    assert check.judge(reply) is None
    swapped = [repr(-float(v)) for v in plain]
    said = check.judge({**reply, "values": swapped})
    assert said.startswith(f"minimax(board.move({wins[0]}), False, {pos.turn}, 8) is -1;")
    assert f"{pos.turn} wins at once with {wins[0]}, a win for {pos.turn}" in said
    mutated = check.judge({**reply, "values": swapped, "mutated": True})
    assert mutated.explained_by == "tic-tac-toe move"


def test_alphabeta_that_does_not_prune_is_named_only_where_pruning_was_possible():
    check = _values_check("alphabeta", "tictactoe")
    moves = ttt.legal_moves(ttt.TicTacToe("".join(check.request["cells"]), check.request["turn"]))
    plain = ["0.0"] * len(moves)
    reply = {"moves": moves, "plain": plain, "values": plain, "plain_boards": 500}
    assert check.judge({**reply, "boards": 120, "pruned_boards": 100}) is None
    said = check.judge({**reply, "boards": 500, "pruned_boards": 100})
    assert said.startswith("alphabeta created 500 boards to find these values; plain minimax")
    assert check.judge({**reply, "boards": 500, "pruned_boards": 500}) is None  # nothing to cut


def test_find_best_move_on_connect_four_is_judged_by_the_truth_not_the_students_evaluation():
    """On a win in 1, find_best_move must keep the win whatever the student's own evaluation
    says: one whose sign is the wrong way round plays for its opponent and fails here."""
    check = _values_check("Connect Four best move", "connectfour")
    pos = c4.position(check.request["columns"], check.request["turn"])
    legal = c4rules.legal_moves(pos)
    wins = [m for m in legal if c4rules.result(c4rules.play(pos, m)) == pos.turn]
    assert wins  # the first Connect Four position has a win in one
    plain = [repr(-1e6 if m in wins else 5.0) for m in legal]  # a flipped evaluation's values
    reply = {"moves": legal, "plain": plain}
    assert check.judge({**reply, "move": wins[0]}) is None
    other = next(m for m in legal if m not in wins)
    said = check.judge({**reply, "move": other})
    assert f"find_best_move(board, 2) played {other}; {wins} win at once for" in str(said)


def test_a_position_the_students_board_class_cannot_build_is_not_charged_there():
    check = _one("Connect Four legal_moves")
    said = check.judge({"error": "building the board raised OverflowError", "unbuilt": True})
    assert isinstance(said, Verdict) and said.share == 0.0
    assert (
        "cannot be built with your board class, so it costs nothing here, unless your class "
        "can build none of the positions asked" in said.problem
    )


def test_a_win_test_that_raises_is_shown_on_the_board_it_raised_on():
    check = next(c for c in _wins("tictactoe") if "rows" in c.where)
    third = check.request["positions"][2]
    verdict = check.judge({"error": "is_win raised NotImplementedError: TODO 2", "at": 2})
    assert verdict.problem.startswith("is_win raised NotImplementedError: TODO 2, on this board")
    assert verdict.board == ttt.render(ttt.TicTacToe("".join(third["cells"]), third["turn"]))


def test_a_win_test_that_sees_a_line_that_is_not_there_is_named():
    check = next(c for c in _wins("tictactoe") if "2-4-6" in c.where)
    asked = check.request["positions"]
    said = [ttt.winner(ttt.TicTacToe("".join(a["cells"]), a["turn"])) is not None for a in asked]
    said[1] = True  # X holds two of 2-4-6, O the third
    problem = check.judge({"values": said, "board": "TTTBoard"}).problem
    assert problem.startswith("TTTBoard.is_win says a side has won on this board, where no line")
    assert "X holds two of 2-4-6 and O" in problem


def test_the_line_checks_do_not_depend_on_the_seed():
    assert [c.request for c in _wins("connectfour")] == [
        c.request
        for c in checks.checks(None, 9)
        if c.request.get("ask") == "wins" and c.request["game"] == "connectfour"
    ]


def test_the_chapters_tests_are_judged_as_the_chapter_asserts():
    chapter = [c for c in checks.checks(None, 0) if c.criterion == "chapter"]
    assert [c.kind for c in chapter] == [
        "exercise 1 test_legal_moves",
        "exercise 1 test_is_win",
        "exercise 1 test_is_draw",
        "exercise 2 test_easy_position",
        "exercise 2 test_block_position",
        "exercise 2 test_hard_position",
    ]
    assert chapter[0].judge({"value": [7]}) is None
    assert chapter[0].judge({"value": [7, 8]}) == (
        "test_legal_moves expects TTTBoard.legal_moves to be [7]; it is [7, 8]"
    )
    assert chapter[4].judge({"move": 5}) is None
    assert chapter[4].judge({"move": 2}) == (
        "test_block_position expects find_best_move(board, 3) to be 5; it is 2"
    )
    explained = chapter[4].judge({"move": 2, "fair_move": 5})
    assert explained.problem == (
        "test_block_position expects find_best_move(board, 3) to be 5; it is 2; with a right "
        "is_win the same search plays 5, a right move: the fault is in is_win"
    )
    assert explained.explained_by == checks.WIN_C4
    assert chapter[4].judge({"move": 2, "fair_move": 2}) == (
        "test_block_position expects find_best_move(board, 3) to be 5; it is 2"
    )


def test_a_wrong_search_move_is_explained_only_when_a_right_win_test_puts_it_right():
    check = _one("tic-tac-toe block")
    assert check.request["fair"] is True
    pos = ttt.TicTacToe("".join(check.request["cells"]), check.request["turn"])
    blocks = [s for s in ttt.legal_moves(pos) if not ttt.winning_moves(ttt.play(pos, s))]
    missed = next(s for s in ttt.legal_moves(pos) if s not in blocks)
    assert check.judge({"move": missed, "fair_move": blocks[0]}).explained_by == checks.WIN_TTT
    own_fault = check.judge({"move": missed, "fair_move": missed})
    assert isinstance(own_fault, str) and "played 3 and did not block; [1] keep" in own_fault
    assert check.judge({"move": blocks[0], "fair_move": missed}) is None


# ---- scoring -------------------------------------------------------------------------------


def _checked(
    criterion: str, kind: str, problem: str | None = None, explained_by: str = ""
) -> Checked:
    return Checked(criterion, kind, f"{kind} 1", "a board", problem, 0.01, "", explained_by)


def _said(verdict: object) -> object:
    """A judge's sentence, whether it came as text or in a Verdict."""
    return verdict.problem if isinstance(verdict, Verdict) else verdict


def _session(*checked: Checked) -> Session:
    return Session("minimax.py", BOARD_ABC, 0, RUBRIC.plan, checks=checked)


def test_each_kind_earns_its_share_only_when_every_check_of_it_is_right():
    right = [_checked("boards", f"kind {n}") for n in range(10)]
    session = _session(*right, _checked("search", "s"))
    points = {c.id: c.points for c in score(session, RUBRIC).criteria}
    assert (points["boards"], points["search"]) == (42, 25)
    one_wrong = replace(right[0], problem="is_draw is True; it should be False")
    session = _session(one_wrong, *right, _checked("search", "s", "missed"))
    grade = score(session, RUBRIC)
    boards = next(c for c in grade.criteria if c.id == "boards")
    assert boards.points == 37  # 42 less a tenth, rounded down: wrong on every position asked
    assert boards.summary == "kind 0: 1 of 2 wrong (-4.2)"
    assert boards.evidence[0].problem == "is_draw is True; it should be False"
    assert next(c for c in grade.criteria if c.id == "search").points == 0


def test_a_kind_weighs_what_its_fault_breaks_and_a_near_miss_costs_half():
    """A win test blind to a whole direction costs is_win's whole part; one wrong on some
    positions only (a near miss) half of it; a kind of the book's given code, little."""
    weights = {"is_win": 6.0, "legal_moves": 2.0, "turn": 1.0}
    asked = [
        replace(_checked("boards", kind), weight=weight)
        for kind, weight in weights.items()
        for _ in range(2)
    ]

    def points(*wrong: tuple[int, float]) -> float:
        made = list(asked)
        for index, share in wrong:
            made[index] = replace(made[index], problem="wrong", share=share)
        grade = score(_session(*made), RUBRIC)
        return next(c for c in grade.criteria if c.id == "boards").points

    best = RUBRIC.max_points("boards")
    assert points() == best
    assert points((0, 1.0)) == round(best * 3 / 9)  # is_win: 6 of 9 parts, a whole direction
    assert points((0, NEAR_MISS)) == round(best * 6 / 9)  # a near miss: half of it
    assert points((0, NEAR_MISS), (1, NEAR_MISS)) == round(best * 3 / 9)  # wrong everywhere
    assert points((4, 1.0)) == round(best * 8 / 9)  # turn, the given code: 1 of 9


def test_a_search_fault_explained_by_a_wrong_win_test_is_reported_not_charged():
    win = _checked("boards", checks.WIN_TTT, "TTTBoard.is_win misses the diagonal 2-4-6")
    missed = _checked("search", "tic-tac-toe block", "did not block", checks.WIN_TTT)
    grade = score(_session(win, missed, _checked("search", "s")), RUBRIC)
    search = next(c for c in grade.criteria if c.id == "search")
    assert search.points == 25
    assert search.summary == (
        "tic-tac-toe block: 1 of 1 wrong, not charged: the tic-tac-toe is_win fault explains it"
    )
    alone = score(_session(_checked("boards", checks.WIN_TTT), missed), RUBRIC)
    assert next(c for c in alone.criteria if c.id == "search").points == 0  # is_win was right


def test_the_rubric_adds_the_packs_criteria_to_100():
    assert RUBRIC.max_score == 100
    assert RUBRIC.checks == (
        ("boards", "the boards follow the rules", 42),
        ("search", "the search finds the right moves", 25),
        ("chapter", "the chapter's own unit tests (exercises 1 and 2)", 0),
    )
    assert RUBRIC.max_points("tactics") == 5


# ---- four files in -------------------------------------------------------------------------


def test_a_folder_or_any_of_the_four_files_names_the_homework(tmp_path: Path):
    for name in PACK.files:
        (tmp_path / name).write_text((SOLUTION / name).read_text())
    (tmp_path / "notes.txt").write_text("hi")
    assert holds_files(tmp_path, PACK.files)
    assert holds_files(tmp_path / "tictactoe.py", PACK.files)
    assert not holds_files(tmp_path / "notes.txt", PACK.files)
    submission = open_submission(
        tmp_path / "connectfour.py", tmp_path / "work", "minimax.py", PACK.files
    )
    held = sorted(p.name for p in submission.source_dir.iterdir())
    assert held == sorted(PACK.files)
    assignment, how = choose_assignment(None, submission, "minimax.py")
    assert (assignment.name, how) == ("board-abc", "assignment board-abc inferred from minimax.py")


def test_four_canvas_attachments_are_one_attempt_and_no_packaging_problem(tmp_path: Path):
    names = [f"smithjane_1001_{500 + n}_{file}" for n, file in enumerate(PACK.files)]
    for name in names:
        (tmp_path / name).write_text("x = 1\n")
    netid = re.compile(RUBRIC.packaging_pattern)
    found = [parse(tmp_path / name, netid) for name in names]
    [(entry, kept, attached)] = resolve(found, "minimax.py")
    assert kept.given == "minimax.py"
    assert sorted(c.given for c in attached) == sorted(PACK.files[1:])
    submission = Submission(tmp_path, "x", attached=tuple(c.given for c in attached))
    assert packaging_problems(submission, RUBRIC.packaging_pattern, "", PACK.files) is None


# ---- the files a submission must hold --------------------------------------------------------


def test_a_missing_book_file_is_named_and_exercise_3s_gameboard_stands_for_two():
    four = {name: (SOLUTION / name).read_bytes() for name in PACK.files}
    assert PACK.missing(four) is None
    without = {k: v for k, v in four.items() if k != "connectfour.py"}
    assert PACK.missing(without) == (
        "connectfour.py is missing: hand in minimax.py, board.py, tictactoe.py and "
        "connectfour.py together (or, for the chapter's exercise 3, one GameBoard class for both "
        "games in place of tictactoe.py and connectfour.py)"
    )
    alone = {"minimax.py": four["minimax.py"]}
    assert PACK.missing(alone).startswith(  # type: ignore[union-attr]
        "board.py, tictactoe.py and connectfour.py are missing: "
    )
    exercise3 = ROOT / "tests" / "data" / "board_abc_exercise3" / "gameboard.txt"
    one_board = {
        "minimax.py": four["minimax.py"],
        "board.py": four["board.py"],
        "gameboard.py": exercise3.read_bytes(),
    }
    assert PACK.missing(one_board) is None


def test_the_rubric_can_weight_the_chapters_tests(tmp_path: Path):
    text = (Path(checks.__file__).parent / "rubric.toml").read_text()
    text = text.replace("points = 42 ", "points = 36 ").replace(
        "[chapter]              # the chapter's own unit tests (exercises 1 and 2), run on the "
        "student's\npoints = 0",
        "[chapter]\npoints = 6",
    )
    (tmp_path / "rubric.toml").write_text(text)
    weighted = load_rubric(str(tmp_path / "rubric.toml"), PACK)
    assert weighted.max_score == 100
    tests = [c.kind for c in checks.checks(None, 0) if c.criterion == "chapter"]
    session = _session(
        *(_checked("chapter", kind, "wrong" if n % 2 else None) for n, kind in enumerate(tests))
    )
    chapter = next(c for c in score(session, weighted).criteria if c.id == "chapter")
    assert (chapter.points, chapter.max_points) == (3, 6)  # 3 of the 6 tests pass
