"""Write examples/submissions/: a small synthetic Teeko2 class, named as Canvas names downloads.

Run from anywhere: ``python examples/make_examples.py``. The zips carry fixed timestamps and
are written in a fixed order, so running it again gives byte-identical files (the script
checks this itself with ``--check``). Each student is described in examples/README.md, with the
grade the course rubric gives.

Most students share one simple player, ``PLAYER`` below, written for these examples: it takes
a win, else avoids moves that let the opponent win next, else picks the move that best builds
its own goals and spoils the opponent's. The variants patch that text to break one rule each.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "submissions"
EPOCH = (2024, 4, 19, 23, 59, 0)  # every zip entry's timestamp: the same bytes on every run

PLAYER = '''\
"""Teeko2, homework 8: a greedy player that looks one move ahead for each side.

make_move takes a win when there is one, never gives the opponent a win on its next move if
it can help it, and otherwise plays the move that leaves the best heuristic score.
"""

import random

COLUMNS = "ABCDE"
DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]


def _goals():
    """Every Teeko2 goal as (four squares, centre that must be empty or None)."""
    goals = []
    for a in range(5):
        for b in range(2):
            goals.append(([(a, b + k) for k in range(4)], None))  # across
            goals.append(([(b + k, a) for k in range(4)], None))  # down
    for r in range(2):
        for c in range(2):
            goals.append(([(r + k, c + k) for k in range(4)], None))  # diagonal down-right
            goals.append(([(r + k, c + 3 - k) for k in range(4)], None))  # diagonal down-left
    for r in range(1, 4):
        for c in range(1, 4):
            corners = [(r - 1, c - 1), (r - 1, c + 1), (r + 1, c - 1), (r + 1, c + 1)]
            goals.append((corners, (r, c)))
    return goals


GOALS = _goals()


def has_goal(state, piece):
    for squares, centre in GOALS:
        if all(state[r][c] == piece for r, c in squares):
            if centre is None or state[centre[0]][centre[1]] == " ":
                return True
    return False


def legal_moves(state, piece):
    """Every legal move of ``piece``, in make_move's format."""
    mine = [(r, c) for r in range(5) for c in range(5) if state[r][c] == piece]
    if len(mine) < 4:
        return [[(r, c)] for r in range(5) for c in range(5) if state[r][c] == " "]
    moves = []
    for r, c in mine:
        for dr, dc in DIRECTIONS:
            if 0 <= r + dr < 5 and 0 <= c + dc < 5 and state[r + dr][c + dc] == " ":
                moves.append([(r + dr, c + dc), (r, c)])
    return moves


def after(state, move, piece):
    """A new board: ``state`` with ``move`` played; ``state`` itself is left alone."""
    board = [row[:] for row in state]
    if len(move) == 2:
        board[move[1][0]][move[1][1]] = " "
    board[move[0][0]][move[0][1]] = piece
    return board


def winner(state, mover, other):
    """The side holding a goal after ``mover`` moved; the mover wins if both do."""
    if has_goal(state, mover):
        return mover
    if has_goal(state, other):
        return other
    return None


def heuristic(state, me, opp):
    """Goals still open to one side, weighted by how full they are; central squares help."""
    score = 0.0
    for squares, centre in GOALS:
        cells = [state[r][c] for r, c in squares]
        weight = 0.5 if centre is not None and state[centre[0]][centre[1]] != " " else 1.0
        if opp not in cells:
            score += weight * cells.count(me) ** 2
        if me not in cells:
            score -= weight * cells.count(opp) ** 2
    for r in range(5):
        for c in range(5):
            central = 2 - max(abs(r - 2), abs(c - 2))
            if state[r][c] == me:
                score += 0.1 * central
            elif state[r][c] == opp:
                score -= 0.1 * central
    return score


class Teeko2Player:
    """An AI player for Teeko2."""

    board = [[" " for j in range(5)] for i in range(5)]
    pieces = ["b", "r"]

    def __init__(self):
        self.my_piece = random.choice(self.pieces)
        self.opp = self.pieces[0] if self.my_piece == self.pieces[1] else self.pieces[1]

    def make_move(self, state):
        """Return the chosen move: [(row, col)] to drop, [(row, col), (source_row,
        source_col)] to slide a marker."""
        best, best_value = None, None
        for move in legal_moves(state, self.my_piece):
            value = self.value_of(after(state, move, self.my_piece))
            if best_value is None or value > best_value:
                best, best_value = move, value
        return best

    def value_of(self, state):
        """How good ``state`` is for this player, the opponent to move."""
        me, opp = self.my_piece, self.opp
        won = winner(state, me, opp)
        if won is not None:
            return 1000 if won == me else -1000
        for reply in legal_moves(state, opp):
            if winner(after(state, reply, opp), opp, me) == opp:
                return -500
        return heuristic(state, me, opp)

    def opponent_move(self, move):
        """Check the opponent's move against self.board, then apply it."""
        if len(move) > 1:
            source_row, source_col = move[1]
            if self.board[source_row][source_col] != self.opp:
                raise ValueError("You don't have a piece there!")
            if max(abs(move[0][0] - source_row), abs(move[0][1] - source_col)) != 1:
                raise ValueError("Illegal move: can only move to an adjacent space")
        if self.board[move[0][0]][move[0][1]] != " ":
            raise ValueError("Illegal move detected")
        self.place_piece(move, self.opp)

    def place_piece(self, move, piece):
        if len(move) > 1:
            self.board[move[1][0]][move[1][1]] = " "
        self.board[move[0][0]][move[0][1]] = piece

    def print_board(self):
        for row in range(len(self.board)):
            line = str(row) + ": "
            for cell in self.board[row]:
                line += cell + " "
            print(line)
        print("   A B C D E")

    def game_value(self, state):
        """1 if this player holds a goal, -1 if the opponent does, 0 otherwise."""
        if has_goal(state, self.my_piece):
            return 1
        if has_goal(state, self.opp):
            return -1
        return 0


def ask_square(prompt):
    while True:
        text = input(prompt).strip().upper()
        if len(text) == 2 and text[0] in COLUMNS and text[1] in "01234":
            return int(text[1]), COLUMNS.index(text[0])
        print("Name a square by column and row, like B3.")


def main():
    ai = Teeko2Player()
    print("You play " + ai.opp + ", the AI plays " + ai.my_piece + ". Black (b) starts.")
    turn = "b"
    for _ in range(200):
        ai.print_board()
        if turn == ai.my_piece:
            move = ai.make_move(ai.board)
            ai.place_piece(move, ai.my_piece)
        else:
            placed = sum(row.count(ai.opp) for row in ai.board)
            while True:
                try:
                    if placed < 4:
                        move = [ask_square("Drop on: ")]
                    else:
                        source = ask_square("Move from: ")
                        move = [ask_square("Move to: "), source]
                    ai.opponent_move(move)
                    break
                except ValueError as error:
                    print(error)
        if ai.game_value(ai.board) != 0:
            ai.print_board()
            print("AI wins! Game over." if ai.game_value(ai.board) == 1 else "You win!")
            return
        turn = ai.opp if turn == ai.my_piece else ai.my_piece
    print("A draw after 200 moves.")


if __name__ == "__main__":
    main()
'''


def _patch(*changes: tuple[str, str]) -> Callable[[], str]:
    """The shared player with each (old, new) replacement made; each ``old`` must occur once."""

    def source() -> str:
        text = PLAYER
        for old, new in changes:
            assert text.count(old) == 1, f"the player text should hold {old!r} exactly once"
            text = text.replace(old, new)
        return text

    return source


def _file(path: Path) -> Callable[[], str]:
    return lambda: (ROOT / path).read_text("utf-8")


# The slow player: correct, but its first move-phase move in each process takes 6 s, so its
# slowest move lands in the 13-point time tier (more than 5 s, at most 10 s).
SLOW = _patch(
    ("import random\n", "import random\nimport time\n\n_RESTED = False  # slept yet?\n"),
    (
        "        best, best_value = None, None\n",
        "        global _RESTED\n"
        "        if not _RESTED and sum(row.count(self.my_piece) for row in state) == 4:\n"
        "            _RESTED = True\n"
        "            time.sleep(6)  # 'thinking hard' about the first slide\n"
        "        best, best_value = None, None\n",
    ),
)
# Moves two squares at a time in the move phase: a step of 2 instead of 1.
JUMPS = _patch(
    (
        "for dr in (-1, 0, 1) for dc in (-1, 0, 1)",
        "for dr in (-2, 0, 2) for dc in (-2, 0, 2)",
    )
)
# Prints its choice from make_move: debug output.
CHATTY = _patch(
    (
        "                best, best_value = move, value\n        return best\n",
        "                best, best_value = move, value\n"
        '        print("best move", best, "value", best_value)\n'
        "        return best\n",
    )
)
# Never finished the move phase: make_move raises once all four markers are down.
CRASHES = _patch(
    (
        "        best, best_value = None, None\n",
        "        if sum(row.count(self.my_piece) for row in state) == 4:\n"
        '            raise NotImplementedError("move phase not done yet")\n'
        "        best, best_value = None, None\n",
    )
)


@dataclass(frozen=True)
class Student:
    sortable: str  # Canvas's sortable name: "Badger, Bucky" -> badgerbucky
    user_id: int
    file_id: int
    original: str  # the name the student gave the zip
    files: dict[str, Callable[[], str]]  # name in the zip -> its text
    late: bool = False

    @property
    def canvas_name(self) -> str:
        late = "_LATE" if self.late else ""
        return f"{self.sortable}{late}_{self.user_id}_{self.file_id}_{self.original}"


NOTES = "Notes for the TA: depth 2 was too slow, so my AI looks one move ahead for each side.\n"

CLASS = (
    Student(
        "badgerbucky",
        10001,
        500001,
        "hw8_bbadger.zip",
        {"game.py": _file(Path("solution/teeko2/game.py"))},
    ),
    Student(
        "nguyenlinh",
        10002,
        500002,
        "hw8_lnguyen.zip",
        {"game.py": _file(Path("starter/teeko2/game.py"))},
    ),
    Student("okaforchidi", 10003, 500003, "hw8_cokafor.zip", {"game.py": SLOW}),
    Student("garciamateo", 10004, 500004, "hw8_mgarcia.zip", {"game.py": JUMPS}),
    Student("schmidtanna", 10005, 500005, "hw8_aschmidt.zip", {"game.py": CHATTY}),
    Student(
        "patelpriya",
        10006,
        500006,
        "homework8.zip",
        {"hw8/game.py": _patch(), "hw8/notes.txt": lambda: NOTES},
    ),
    Student("kowalskijan", 10007, 500007, "hw8_jkowalski.zip", {"game.py": CRASHES}),
    Student("tanakayui", 10008, 500008, "hw8_ytanaka.zip", {"game.py": _patch()}, late=True),
)


def _zip(files: dict[str, Callable[[], str]]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, text in files.items():
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED  # deflate's bytes vary with zlib builds
            archive.writestr(info, text().encode("utf-8"))
    return buffer.getvalue()


def build() -> dict[str, bytes]:
    """The example zips by file name, in the class's order."""
    return {student.canvas_name: _zip(student.files) for student in CLASS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if a zip would change"
    )
    args = parser.parse_args(argv)
    zips = build()
    if args.check:
        stale = [n for n, data in zips.items() if not _same(OUT / n, data)]
        extra = sorted(p.name for p in OUT.glob("*.zip") if p.name not in zips)
        for name in stale + extra:
            print(f"out of date: {OUT / name}", file=sys.stderr)
        return 1 if stale or extra else 0
    OUT.mkdir(exist_ok=True)
    for old in OUT.glob("*.zip"):
        if old.name not in zips:
            old.unlink()
    for name, data in zips.items():
        (OUT / name).write_bytes(data)
        print(OUT / name)
    return 0


def patched(path: Path, *changes: tuple[str, str]) -> Callable[[], str]:
    """The text of ``path`` with each (old, new) replacement made; each ``old`` must occur
    once. An example class's students are the kit's files with one thing broken each."""

    def source() -> str:
        text = path.read_text("utf-8")
        for old, new in changes:
            assert text.count(old) == 1, f"{path.name} should hold {old!r} exactly once"
            text = text.replace(old, new)
        return text

    return source


def uploads(students: tuple[Student, ...]) -> dict[str, bytes]:
    """A class's files by Canvas name: each student's zip, or ``game.py`` uploaded as it is."""
    files = {}
    for student in students:
        if student.original.endswith(".zip"):
            files[student.canvas_name] = _zip(student.files)
        else:
            files[student.canvas_name] = student.files["game.py"]().encode("utf-8")
    return files


def _same(path: Path, data: bytes) -> bool:
    return path.is_file() and path.read_bytes() == data


def write_class(
    here: Path, submissions: dict[str, bytes], roster: str, doc: str, argv: list[str] | None
) -> int:
    """The command line of an example class's script: write ``here/submissions/*`` and
    ``here/roster.csv`` (removing submissions no longer made), or with ``--check`` write
    nothing and fail when a file would change."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="write nothing; fail if a file would change"
    )
    args = parser.parse_args(argv)
    out = here / "submissions"
    files = {f"submissions/{n}": data for n, data in submissions.items()}
    files["roster.csv"] = roster.encode("utf-8")
    if args.check:
        stale = [n for n, data in files.items() if not _same(here / n, data)]
        extra = sorted(
            f"submissions/{p.name}" for p in out.glob("*") if f"submissions/{p.name}" not in files
        )
        for name in stale + extra:
            print(f"out of date: {here / name}", file=sys.stderr)
        return 1 if stale or extra else 0
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*"):
        if f"submissions/{old.name}" not in files:
            old.unlink()
    for name, data in files.items():
        (here / name).write_bytes(data)
        print(here / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
