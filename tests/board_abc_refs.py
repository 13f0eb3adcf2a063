"""The "board ABC" homework's folders, loaded side by side, and the references its tests check
them against: brute-force rules, perfect tic-tac-toe, boards that count what a search creates.

Each folder holds board.py, tictactoe.py, connectfour.py, minimax.py and two terminal games;
the files import one another by plain name (``from board import Board``), so a folder is
loaded by putting it first on sys.path, importing, and then taking those names out of
sys.modules again, which lets the starter and the solution be loaded side by side.
"""

from __future__ import annotations

import importlib
import itertools
import os
import random
import subprocess
import sys
import zlib
from functools import cache
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SOLUTION = ROOT / "solution" / "board-abc"
STARTER = ROOT / "starter" / "board-abc"
SHARED_NAMES = ("board", "tictactoe", "connectfour", "minimax")  # imported by plain name
GAMES = ("tictactoe_ai", "connectfour_ai")


def load(folder: Path, names: tuple[str, ...] = SHARED_NAMES) -> SimpleNamespace:
    """Import ``names`` from ``folder`` as that folder's files see each other."""
    clash = set(SHARED_NAMES + GAMES)
    saved = {name: sys.modules.pop(name) for name in list(sys.modules) if name in clash}
    sys.path.insert(0, str(folder))
    writes_bytecode = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # leave no __pycache__ in the folders
    importlib.invalidate_caches()
    try:
        modules = {name: importlib.import_module(name) for name in names}
        for name, module in modules.items():
            assert Path(module.__file__ or "").parent == folder, f"{name} came from elsewhere"
    finally:
        sys.dont_write_bytecode = writes_bytecode
        sys.path.remove(str(folder))
        for name in clash:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
    return SimpleNamespace(**modules)


def run_game(folder: Path, script: str, stdin: str, timeout: float = 60) -> Any:
    """Run a terminal game in its folder with ``stdin`` typed in, as a student would."""
    return subprocess.run(
        [sys.executable, "-B", script],
        cwd=folder,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


# ---- references written for these tests --------------------------------------------------------

TTT_LINES = [[(r, c) for c in range(3)] for r in range(3)]  # (row, column) cells
TTT_LINES += [[(r, c) for r in range(3)] for c in range(3)]
TTT_LINES += [[(i, i) for i in range(3)], [(i, 2 - i) for i in range(3)]]
TTT_LINES_FLAT = [[3 * r + c for r, c in line] for line in TTT_LINES]


def ttt_winner(cells: tuple[str, ...]) -> str | None:
    """'X' or 'O' if that piece holds a whole line (the first such line decides)."""
    for line in TTT_LINES_FLAT:
        if cells[line[0]] != " " and all(cells[i] == cells[line[0]] for i in line):
            return cells[line[0]]
    return None


def ttt_mover(cells: tuple[str, ...]) -> str:
    return "X" if cells.count("X") == cells.count("O") else "O"


def ttt_play(cells: tuple[str, ...], square: int) -> tuple[str, ...]:
    return cells[:square] + (ttt_mover(cells),) + cells[square + 1 :]


def ttt_over(cells: tuple[str, ...]) -> bool:
    return ttt_winner(cells) is not None or " " not in cells


@cache
def ttt_value(cells: tuple[str, ...]) -> int:
    """The game's value with perfect play on both sides, for the player to move: 1, 0 or -1."""
    if ttt_winner(cells) is not None:
        return -1  # the player who just moved has won
    if " " not in cells:
        return 0
    return max(-ttt_value(ttt_play(cells, s)) for s in range(9) if cells[s] == " ")


def ttt_reachable() -> list[tuple[str, ...]]:
    """Every position reachable from the empty board by legal play, games ending on a win."""
    seen: set[tuple[str, ...]] = set()
    stack: list[tuple[str, ...]] = [(" ",) * 9]
    while stack:
        cells = stack.pop()
        if cells in seen:
            continue
        seen.add(cells)
        if not ttt_over(cells):
            stack.extend(ttt_play(cells, s) for s in range(9) if cells[s] == " ")
    return sorted(seen)


def ttt_wins_in_one(cells: tuple[str, ...], piece: str) -> set[int]:
    """The empty squares where ``piece`` would complete a line."""
    return {
        s
        for s in range(9)
        if cells[s] == " " and ttt_winner(cells[:s] + (piece,) + cells[s + 1 :]) == piece
    }


def ttt_board(sol: SimpleNamespace, cells: tuple[str, ...], turn: str | None = None) -> Any:
    piece = sol.tictactoe.TTTPiece
    return sol.tictactoe.TTTBoard([piece(c) for c in cells], piece(turn or ttt_mover(cells)))


C4_COLUMNS, C4_ROWS = 7, 6


def c4_board(mod: SimpleNamespace, columns: list[str], turn: str) -> Any:
    """A C4Board from strings of 'B'/'R', each a column from the bottom up."""
    c4 = mod.connectfour
    position = []
    for text in columns:
        column = c4.C4Board.Column()
        for letter in text:
            column.push(c4.C4Piece(letter))
        position.append(column)
    return c4.C4Board(position, c4.C4Piece(turn))


def c4_cell(columns: list[str], c: int, r: int) -> str:
    return columns[c][r] if 0 <= c < C4_COLUMNS and 0 <= r < len(columns[c]) else " "


def c4_has_four(columns: list[str]) -> bool:
    for c, r in itertools.product(range(C4_COLUMNS), range(C4_ROWS)):
        piece = c4_cell(columns, c, r)
        if piece == " ":
            continue
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            if all(c4_cell(columns, c + k * dc, r + k * dr) == piece for k in range(4)):
                return True
    return False


DIRECTIONS = ((1, 0), (0, 1), (1, 1), (1, -1))  # (columns, rows) steps along a line


def c4_score(columns: list[str], player: str, directions: Any = DIRECTIONS) -> float:
    """The chapter's heuristic: over every window of four cells in a line, 2, 3 or 4 pieces of
    one colour (none of the other) count 1, 100, 1000000, for the player or against them."""
    total = 0.0
    for c, r in itertools.product(range(C4_COLUMNS), range(C4_ROWS)):
        for dc, dr in directions:
            ends = (c + 3 * dc, r + 3 * dr)
            if not (0 <= ends[0] < C4_COLUMNS and 0 <= ends[1] < C4_ROWS):
                continue
            window = [c4_cell(columns, c + k * dc, r + k * dr) for k in range(4)]
            black, red = window.count("B"), window.count("R")
            if black and red:
                continue
            worth = {2: 1, 3: 100, 4: 1000000}.get(max(black, red), 0)
            colour = "R" if red > black else "B"
            total += worth if colour == player else -worth
    return total


def c4_random_columns(rng: random.Random) -> list[str]:
    """Pieces of random colours dropped into random columns (wins need not stop the filling)."""
    columns = [""] * C4_COLUMNS
    for _ in range(rng.randrange(0, C4_COLUMNS * C4_ROWS + 1)):
        open_columns = [c for c in range(C4_COLUMNS) if len(columns[c]) < C4_ROWS]
        c = rng.choice(open_columns)
        columns[c] += rng.choice("BR")
    return columns


# ---- boards that implement only the Board interface ---------------------------------------------


class Log:
    def __init__(self) -> None:
        self.moves = 0  # boards created by move()
        self.deepest = 0  # the most moves below the starting board


class TreeBoard:
    """A made-up game: every board has ``branching`` moves and nobody ever wins. Its evaluate
    is a fixed whole number in -20..20 per board (plenty of ties), for player 'A'."""

    def __init__(self, branching: int, log: Log, path: tuple[int, ...] = ()) -> None:
        self.branching, self.log, self.path = branching, log, path

    @property
    def turn(self) -> str:
        return "AB"[len(self.path) % 2]

    @property
    def legal_moves(self) -> list[int]:
        return list(range(self.branching))

    @property
    def is_win(self) -> bool:
        return False

    @property
    def is_draw(self) -> bool:
        return False

    def move(self, location: int) -> TreeBoard:
        assert location in self.legal_moves
        self.log.moves += 1
        self.log.deepest = max(self.log.deepest, len(self.path) + 1)
        return TreeBoard(self.branching, self.log, (*self.path, location))

    def evaluate(self, player: str) -> float:
        value = zlib.crc32(repr(self.path).encode()) % 41 - 20
        return value if player == "A" else -value


class CountingBoard:
    """A real board seen only through the Board interface, counting the boards created."""

    def __init__(self, inner: Any, log: Log, depth: int = 0) -> None:
        self.inner, self.log, self.depth = inner, log, depth

    @property
    def turn(self) -> Any:
        return self.inner.turn

    @property
    def legal_moves(self) -> list[int]:
        return list(self.inner.legal_moves)

    @property
    def is_win(self) -> bool:
        return bool(self.inner.is_win)

    @property
    def is_draw(self) -> bool:
        return bool(self.inner.is_draw)

    def move(self, location: int) -> CountingBoard:
        self.log.moves += 1
        self.log.deepest = max(self.log.deepest, self.depth + 1)
        return CountingBoard(self.inner.move(location), self.log, self.depth + 1)

    def evaluate(self, player: Any) -> float:
        return float(self.inner.evaluate(player))


def reference_minimax(board: Any, maximizing: bool, player: Any, depth: int) -> float:
    """The chapter's minimax, written again here."""
    if board.is_win or board.is_draw or depth == 0:
        return float(board.evaluate(player))
    results = [
        reference_minimax(board.move(m), not maximizing, player, depth - 1)
        for m in board.legal_moves
    ]
    return max(results) if maximizing else min(results)


def move_values(board: Any, depth: int) -> dict[int, float]:
    """What find_best_move(board, depth) should see for each move: minimax after the move."""
    return {
        m: reference_minimax(board.move(m), False, board.turn, depth) for m in board.legal_moves
    }


def bound(branching: int, depth: int) -> int:
    """Boards a full search creates on a tree of this branching: b + b^2 + ... + b^(d+1)."""
    return sum(branching**k for k in range(1, depth + 2))
