"""The "board ABC" homework: starter/board-abc (as handed out) and solution/board-abc.

The rules are checked against small brute-force references (``tests/board_abc_refs.py``), the
tic-tac-toe AI against perfect play computed there, and the search's depth by counting the
boards it creates on boards made there that implement only the Board interface.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.board_abc_refs import (
    C4_COLUMNS,
    C4_ROWS,
    DIRECTIONS,
    GAMES,
    SHARED_NAMES,
    SOLUTION,
    STARTER,
    CountingBoard,
    Log,
    TreeBoard,
    bound,
    c4_board,
    c4_cell,
    c4_has_four,
    c4_random_columns,
    c4_score,
    load,
    move_values,
    reference_minimax,
    run_game,
    ttt_board,
    ttt_mover,
    ttt_over,
    ttt_play,
    ttt_reachable,
    ttt_value,
    ttt_winner,
    ttt_wins_in_one,
)


@pytest.fixture(scope="module")
def sol() -> SimpleNamespace:
    return load(SOLUTION)


@pytest.fixture(scope="module")
def starter() -> SimpleNamespace:
    return load(STARTER)


# ---- the solution: the chapter's exercises ------------------------------------------------------


@pytest.mark.timeout(120)
def test_solution_passes_the_chapters_unit_tests() -> None:
    done = subprocess.run(
        [sys.executable, "-B", "-m", "unittest", "-v", "test_chapter"],
        cwd=SOLUTION,
        capture_output=True,
        text=True,
        timeout=100,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert "Ran 6 tests" in done.stderr and done.stderr.rstrip().endswith("OK")
    for name in ("easy_position", "block_position", "hard_position", "legal_moves", "is_win"):
        assert f"test_{name}" in done.stderr


# ---- the solution: tic-tac-toe played perfectly -------------------------------------------------


@pytest.fixture(scope="module")
def ttt_choices(sol: SimpleNamespace) -> dict[tuple[str, ...], int]:
    """The solution's find_best_move (default depth) on every reachable unfinished position."""
    choices = {}
    for cells in ttt_reachable():
        if not ttt_over(cells):
            choices[cells] = int(sol.minimax.find_best_move(ttt_board(sol, cells)))
    return choices


@pytest.mark.timeout(300)
def test_tictactoe_ai_never_throws_away_a_won_or_drawn_game(
    ttt_choices: dict[tuple[str, ...], int],
) -> None:
    """From every reachable position, the move chosen keeps the game's value: against a
    perfect opponent the AI wins every won position and draws every drawn one."""
    assert len(ttt_choices) == 4520  # every reachable position where the game goes on
    for cells, square in ttt_choices.items():
        assert cells[square] == " ", f"illegal move {square} in {cells}"
        kept = -ttt_value(ttt_play(cells, square))
        assert kept == ttt_value(cells), f"{cells}: square {square} turns {ttt_value(cells)}"


@pytest.mark.timeout(300)
@pytest.mark.parametrize("ai", ["X", "O"])
def test_tictactoe_ai_cannot_be_beaten_by_any_sequence_of_moves(
    ttt_choices: dict[tuple[str, ...], int], ai: str
) -> None:
    """Every game the human can play from the empty board, moving first or second."""
    results: set[str] = set()

    def explore(cells: tuple[str, ...]) -> None:
        if ttt_over(cells):
            results.add(ttt_winner(cells) or "draw")
            return
        if ttt_mover(cells) == ai:
            explore(ttt_play(cells, ttt_choices[cells]))
        else:
            for square in range(9):
                if cells[square] == " ":
                    explore(ttt_play(cells, square))

    explore((" ",) * 9)
    assert "draw" in results and ai in results  # it draws good play and punishes mistakes
    assert results <= {"draw", ai}


@pytest.mark.timeout(300)
def test_tictactoe_ai_takes_every_win_in_one(ttt_choices: dict[tuple[str, ...], int]) -> None:
    positions = 0
    for cells, square in ttt_choices.items():
        if ttt_wins_in_one(cells, ttt_mover(cells)):
            positions += 1
            assert square in ttt_wins_in_one(cells, ttt_mover(cells)), cells
    assert positions > 1000


@pytest.mark.timeout(300)
def test_tictactoe_ai_blocks_every_single_threat(ttt_choices: dict[tuple[str, ...], int]) -> None:
    """When the AI cannot win at once and the opponent threatens on one square only, the AI
    takes that square, even when the game is lost anyway (it loses later, not at once)."""
    positions = lost = 0
    for cells, square in ttt_choices.items():
        mover = ttt_mover(cells)
        threats = ttt_wins_in_one(cells, "O" if mover == "X" else "X")
        if len(threats) == 1 and not ttt_wins_in_one(cells, mover):
            positions += 1
            lost += ttt_value(cells) == -1
            assert square in threats, f"{cells}: played {square}, the threat is {threats}"
    assert positions > 500 and lost > 0


@pytest.mark.timeout(60)
def test_tictactoe_ai_prefers_the_quickest_win(sol: SimpleNamespace) -> None:
    """X wins at once on 2; 0 comes first in legal_moves and wins by force too, later. The
    chapter's search rates both 1 and would play 0: the AI takes 2 straight away."""
    cells = (" ", " ", " ", " ", "X", " ", "X", "O", "O")
    assert ttt_wins_in_one(cells, "X") == {2}
    assert ttt_value(ttt_play(cells, 0)) == -1  # O to move there: O loses
    assert sol.minimax.find_best_move(ttt_board(sol, cells)) == 2


# ---- the solution: rules agree with brute force -------------------------------------------------


@pytest.mark.timeout(60)
def test_tictactoe_rules_agree_with_brute_force(sol: SimpleNamespace) -> None:
    rng = random.Random(20240701)
    positions = ttt_reachable()[::7] + [
        tuple(rng.choice("XO ") for _ in range(9)) for _ in range(300)
    ]
    for cells in positions:
        for turn in "XO":
            board = ttt_board(sol, cells, turn)
            empty = [s for s in range(9) if cells[s] == " "]
            won = ttt_winner(cells) is not None
            assert board.legal_moves == empty, cells
            assert board.is_win == won, cells
            assert board.is_draw == (not won and not empty), cells
            assert board.evaluate(board.turn) == (-1 if won else 0)
            assert board.evaluate(board.turn.opposite) == (1 if won else 0)
            for square in empty:
                after = board.move(square)
                expected = cells[:square] + (turn,) + cells[square + 1 :]
                assert [str(p) for p in after.position] == list(expected)
                assert str(after.turn) == ("O" if turn == "X" else "X")
    x_to_move = ttt_board(sol, ("X", "O", " ") + (" ",) * 6)
    assert repr(x_to_move) == "X|O| \n-----\n | | \n-----\n | | "


@pytest.mark.timeout(60)
def test_connect_four_rules_agree_with_brute_force(sol: SimpleNamespace) -> None:
    rng = random.Random(20240702)
    wins = draws = 0
    drawn = ["BRBRBR", "BRBRBR", "RBRBRB", "RBRBRB", "BRBRBR", "BRBRBR", "RBRBRB"]
    for columns in [drawn] + [c4_random_columns(rng) for _ in range(300)]:
        turn = rng.choice("BR")
        board = c4_board(sol, columns, turn)
        open_columns = [c for c in range(C4_COLUMNS) if len(columns[c]) < C4_ROWS]
        won = c4_has_four(columns)
        wins += won
        draws += not won and not open_columns
        assert board.legal_moves == open_columns, columns
        assert board.is_win == won, columns
        assert board.is_draw == (not won and not open_columns), columns
        for player in "BR":
            piece = sol.connectfour.C4Piece(player)
            assert board.evaluate(piece) == pytest.approx(c4_score(columns, player)), columns
        rows = ["|" + "|".join(c4_cell(columns, c, r) for c in range(7)) + "|\n" for r in range(6)]
        assert repr(board) == "".join(reversed(rows))
        for c in open_columns:
            after = board.move(c)
            dropped = [*columns[:c], columns[c] + turn, *columns[c + 1 :]]
            assert repr(after) == repr(c4_board(sol, dropped, "B"))
            assert str(after.turn) == ("R" if turn == "B" else "B")
        for c in range(C4_COLUMNS):
            if c not in open_columns:
                with pytest.raises(OverflowError):
                    board.move(c)
    assert wins > 50 and draws == 1


@pytest.mark.timeout(30)
def test_connect_four_segments_cover_every_line_of_four(sol: SimpleNamespace) -> None:
    segments = sol.connectfour.generate_segments(7, 6, 4)
    assert len(segments) == 69 and segments == sol.connectfour.C4Board.SEGMENTS
    expected = set()
    for c, r in itertools.product(range(7), range(6)):
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            cells = [(c + k * dc, r + k * dr) for k in range(4)]
            if all(0 <= x < 7 and 0 <= y < 6 for x, y in cells):
                expected.add(frozenset(cells))
    assert {frozenset(s) for s in segments} == expected
    assert sol.connectfour.C4Board.SEGMENT_LENGHT == 4  # the course's spelling


@pytest.mark.timeout(30)
def test_move_returns_a_new_board_and_leaves_the_old_one_alone(sol: SimpleNamespace) -> None:
    ttt = sol.tictactoe
    start = ttt.TTTBoard()
    board = start
    for square in (0, 3, 1, 4, 2):  # a whole game, from boards sharing the default list
        after = board.move(square)
        assert after is not board and after.position is not board.position
        assert str(after.position[square]) == str(board.turn)
        assert str(board.position[square]) == " "
        board = after
    assert board.is_win
    assert start.legal_moves == list(range(9)) and ttt.TTTBoard().legal_moves == list(range(9))
    assert str(ttt.TTTBoard().turn) == "X"
    with pytest.raises(ValueError):
        board.move(4)  # taken

    c4 = sol.connectfour
    old = c4_board(sol, ["B", "", "RB", "", "", "", "BRBRBR"], "R")
    text, sizes = repr(old), [len(column._container) for column in old.position]
    new = old.move(2)
    assert repr(old) == text and [len(column._container) for column in old.position] == sizes
    assert str(old.turn) == "R" and str(new.turn) == "B"
    assert all(a is not b for a, b in zip(old.position, new.position, strict=True))
    assert str(new.position[2][2]) == "R" and str(old.position[2][2]) == " "
    assert c4.C4Board().legal_moves == list(range(7))


# ---- the solution: the search -------------------------------------------------------------------


@pytest.mark.timeout(120)
@pytest.mark.parametrize(("branching", "depth"), [(2, 0), (2, 5), (3, 3), (5, 2), (7, 3)])
def test_find_best_move_never_looks_deeper_than_asked(
    sol: SimpleNamespace, branching: int, depth: int
) -> None:
    """On a game with nothing but the Board interface: at most b + ... + b^(d+1) boards
    created, the deepest d + 1 moves ahead, and the move of highest minimax value, the first
    one in legal_moves on a tie (the chapter's rule)."""
    log = Log()
    move = sol.minimax.find_best_move(TreeBoard(branching, log), depth)
    assert log.moves <= bound(branching, depth)
    assert log.deepest == depth + 1
    values = move_values(TreeBoard(branching, Log()), depth)
    assert move == next(m for m, v in values.items() if v == max(values.values()))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("depth", [0, 1, 2, 3, 4])
def test_find_best_move_depth_on_the_real_games(sol: SimpleNamespace, depth: int) -> None:
    for start, branching in ((sol.connectfour.C4Board(), 7), (sol.tictactoe.TTTBoard(), 9)):
        log = Log()
        move = sol.minimax.find_best_move(CountingBoard(start, log), depth)
        assert move in start.legal_moves
        assert log.moves <= bound(branching, depth) and log.deepest == depth + 1


@pytest.mark.timeout(120)
def test_alphabeta_gives_minimax_values_from_fewer_boards(sol: SimpleNamespace) -> None:
    search = sol.minimax
    all_plain = all_pruned = 0
    for branching, depth in ((3, 4), (5, 3), (4, 5)):
        for maximizing in (True, False):
            plain, pruned = Log(), Log()
            value = search.minimax(TreeBoard(branching, plain), maximizing, "A", depth)
            assert plain.moves == bound(branching, depth - 1)  # minimax sees everything
            assert search.alphabeta(TreeBoard(branching, pruned), maximizing, "A", depth) == value
            assert value == reference_minimax(TreeBoard(branching, Log()), maximizing, "A", depth)
            assert pruned.moves < plain.moves
            all_plain, all_pruned = all_plain + plain.moves, all_pruned + pruned.moves
    assert all_pruned < all_plain / 2
    rng = random.Random(20240703)
    for _ in range(15):
        board = c4_board(sol, c4_random_columns_unfinished(rng), rng.choice("BR"))
        for maximizing in (True, False):
            piece = board.turn
            expected = reference_minimax(board, maximizing, piece, 2)
            assert search.minimax(board, maximizing, piece, 2) == expected
            assert search.alphabeta(board, maximizing, piece, 2) == expected


def c4_random_columns_unfinished(rng: random.Random) -> list[str]:
    while True:
        columns = c4_random_columns(rng)
        if not c4_has_four(columns) and any(len(c) < C4_ROWS for c in columns):
            return columns


@pytest.mark.timeout(120)
def test_connect_four_ai_picks_a_move_of_the_highest_minimax_value(sol: SimpleNamespace) -> None:
    rng = random.Random(20240704)
    for _ in range(12):
        board = c4_board(sol, c4_random_columns_unfinished(rng), rng.choice("BR"))
        values = move_values(board, 2)
        assert values[sol.minimax.find_best_move(board, 2)] == max(values.values())


@pytest.mark.serial
@pytest.mark.timeout(60)
def test_connect_four_ai_answers_quickly_on_the_empty_board(sol: SimpleNamespace) -> None:
    timings = []
    for _ in range(2):
        started = time.perf_counter()
        move = sol.minimax.find_best_move(sol.connectfour.C4Board(), 4)
        timings.append(time.perf_counter() - started)
        assert move in range(7)
    assert min(timings) < 2.0, f"find_best_move(C4Board(), 4) took {min(timings):.2f} s"


# ---- the solution: the terminal games -----------------------------------------------------------


@pytest.mark.timeout(120)
def test_tictactoe_game_is_played_to_the_end_and_not_lost() -> None:
    """The player types 0, 1, ..., 8 over and over: taken squares are refused and asked again,
    so each turn they take the lowest free square after the last one they typed."""
    done = run_game(SOLUTION, "tictactoe_ai.py", "\n".join(map(str, range(9))) * 9 + "\n")
    assert done.returncode == 0 and done.stderr == ""
    assert "is taken: choose an empty one" in done.stdout
    assert "The computer plays" in done.stdout
    assert "You won!" not in done.stdout
    last = done.stdout.rstrip().splitlines()[-1]
    assert last in ("The computer won!", "It's a draw!")


@pytest.mark.timeout(60)
def test_tictactoe_game_asks_again_after_bad_input_and_ends_quietly_on_eof() -> None:
    done = run_game(SOLUTION, "tictactoe_ai.py", "hello\n9\n-1\n\n4\n4\n")
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    assert "'hello' is not a square" in out and "There is no square 9" in out
    assert "There is no square -1" in out and "'' is not a square" in out
    assert out.count("The computer plays") == 1  # 4 was played once, then refused
    assert "Square 4 is taken" in out
    assert out.count("Your move (0-8): ") == 7  # six answers, then the end of the input


@pytest.mark.timeout(60)
@pytest.mark.parametrize("script", GAMES)
def test_games_end_quietly_when_the_input_ends(script: str) -> None:
    done = run_game(SOLUTION, script + ".py", "")
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.endswith(": \n")  # the prompt, then a clean line


@pytest.mark.timeout(120)
def test_connect_four_game_is_played_to_the_end() -> None:
    done = run_game(SOLUTION, "connectfour_ai.py", "x\n7\n" + "\n".join("3254106" * 10) + "\n")
    assert done.returncode == 0 and done.stderr == ""
    assert "'x' is not a column" in done.stdout and "There is no column 7" in done.stdout
    assert "The computer plays column" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1] in ("The computer won!", "It's a draw!")


@pytest.mark.timeout(30)
def test_connect_four_game_refuses_a_full_column(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = load(SOLUTION, ("connectfour", "connectfour_ai"))
    board = c4_board(mod, ["BRBRBR", "", "", "", "", "", ""], "B")
    answers = iter(["0", "1"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    assert mod.connectfour_ai.get_player_move(board) == 1
    assert "Column 0 is full" in capsys.readouterr().out


@pytest.mark.timeout(30)
@pytest.mark.parametrize("folder", [SOLUTION, STARTER])
def test_nothing_is_printed_on_import(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    load(folder, (*SHARED_NAMES, *GAMES))
    assert capsys.readouterr() == ("", "")


# ---- the starter --------------------------------------------------------------------------------


@pytest.mark.timeout(30)
def test_starter_todos_raise_with_their_number(starter: SimpleNamespace) -> None:
    ttt, c4, search = starter.tictactoe, starter.connectfour, starter.minimax
    board, column_board = ttt.TTTBoard(), c4.C4Board()
    todos: dict[int, Any] = {
        1: lambda: board.legal_moves,
        2: lambda: board.is_win,
        3: lambda: board.move(4),
        5: lambda: column_board.legal_moves,
        6: lambda: column_board.is_win,
        7: lambda: column_board.move(3),
        8: lambda: search.minimax(TreeBoard(2, Log()), True, "A", 2),
        10: lambda: search.alphabeta(TreeBoard(2, Log()), True, "A", 2),
    }
    for number, call in todos.items():
        with pytest.raises(NotImplementedError, match=rf"^TODO {number}: "):
            call()
    assert ttt.TTTBoard().position == [ttt.TTTPiece.E] * 9  # nothing written by the attempt


@pytest.mark.timeout(30)
def test_starter_segments_miss_only_the_diagonals(
    starter: SimpleNamespace, sol: SimpleNamespace
) -> None:
    """TODO 4: as shipped, rows and columns of four are found, diagonals are not."""
    given = starter.connectfour.generate_segments(7, 6, 4)
    assert len(given) == 45
    assert all(len({c for c, _ in s}) == 1 or len({r for _, r in s}) == 1 for s in given)
    assert all(s in sol.connectfour.generate_segments(7, 6, 4) for s in given)


@pytest.mark.timeout(30)
def test_starter_find_best_move_plays_random_legal_moves(
    starter: SimpleNamespace, sol: SimpleNamespace
) -> None:
    """TODO 9 as shipped: a random legal move, so the games can be played before the search."""
    random.seed(20240705)
    board = ttt_board(sol, ("X", " ", "O", " ", "X", " ", "O", " ", " "))
    seen = {starter.minimax.find_best_move(board) for _ in range(200)}
    assert seen == {1, 3, 5, 7, 8}
    log = Log()
    assert starter.minimax.find_best_move(TreeBoard(3, log), 5) in (0, 1, 2)
    assert log.moves == 0


@pytest.mark.timeout(30)
def test_starter_given_parts_match_the_solution(
    starter: SimpleNamespace, sol: SimpleNamespace
) -> None:
    """Everything that is not a TODO works as shipped: pieces, printing, columns, evaluate."""
    others = {"X": "O", "O": "X", "B": "R", "R": "B", " ": " "}
    for piece in [*starter.tictactoe.TTTPiece, *starter.connectfour.C4Piece]:
        assert isinstance(piece, starter.board.Piece)
        assert str(piece) == piece.value and piece.opposite.value == others[piece.value]
    rng = random.Random(20240706)
    for _ in range(50):
        columns = c4_random_columns(rng)
        mine, theirs = c4_board(starter, columns, "R"), c4_board(sol, columns, "R")
        assert repr(mine) == repr(theirs)
        for player in "BR":  # no diagonals until TODO 4
            expected = c4_score(columns, player, DIRECTIONS[:2])
            assert mine.evaluate(starter.connectfour.C4Piece(player)) == expected
    column = starter.connectfour.C4Board.Column()
    for _ in range(6):
        column.push(starter.connectfour.C4Piece.B)
    assert column.full and str(column[6]) == " " and column.copy() is not column
    with pytest.raises(OverflowError):
        column.push(starter.connectfour.C4Piece.R)
    ttt = ttt_board(starter, ("X", "O", " ") + (" ",) * 6)
    assert repr(ttt) == "X|O| \n-----\n | | \n-----\n | | "


@pytest.mark.timeout(60)
@pytest.mark.parametrize(("script", "todo"), [("tictactoe_ai", 1), ("connectfour_ai", 5)])
def test_starter_games_say_which_todo_is_missing(script: str, todo: int) -> None:
    done = run_game(STARTER, script + ".py", "3\n")
    assert done.returncode == 1
    assert f"TODO {todo}:" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.timeout(10)
def test_the_games_and_board_are_the_same_in_both_folders() -> None:
    """The files with no TODO are handed out exactly as the solution has them."""
    for name in ("board.py", "tictactoe_ai.py", "connectfour_ai.py"):
        assert (STARTER / name).read_text() == (SOLUTION / name).read_text(), name
