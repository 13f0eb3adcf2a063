"""Write examples/board-abc/submissions/: a small synthetic class for the book's Board homework,
named as Canvas names downloads, and its roster.

Run from anywhere: ``python examples/make_board_abc_examples.py`` (``--check`` writes nothing
and fails if a file would change). Most students are the kit's reference solution
(``solution/board-abc/``) with one thing broken each; some hand in a zip, some the four files as
four attachments of one Canvas attempt. examples/board-abc/README.md says who is who.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from make_examples import ROOT, Student, _zip, write_class

HERE = Path(__file__).resolve().parent / "board-abc"
OUT = HERE / "submissions"
FILES = ("minimax.py", "board.py", "tictactoe.py", "connectfour.py")

ROSTER = """\
Student,ID,SIS User ID,SIS Login ID,Section,Board ABC (3001)
    Points Possible,,,,,100
"Alvarez, Rosa",30001,9201,ralvarez,LEC 001,
"Brown, Sam",30002,9202,sbrown,LEC 001,
"Chen, Wei",30003,9203,wchen,LEC 001,
"Dubois, Lea",30004,9204,ldubois,LEC 002,
"Eze, Kemi",30005,9205,keze,LEC 002,
"Fischer, Jonas",30006,9206,jfischer,LEC 002,
"""


def _folder(name: str, **changes: tuple[tuple[str, str], ...]) -> dict[str, Callable[[], str]]:
    """The four files of ``starter`` or ``solution``, with each (old, new) replacement of
    ``changes[file stem]`` made; each ``old`` must occur once."""

    def source(file: str) -> Callable[[], str]:
        def text() -> str:
            found = (ROOT / name / "board-abc" / file).read_text("utf-8")
            for old, new in changes.get(file.removesuffix(".py"), ()):
                assert found.count(old) == 1, f"{name}/{file} should hold {old!r} exactly once"
                found = found.replace(old, new)
            return found

        return text

    return {file: source(file) for file in FILES}


# move() changes the board it is called on: the new board shares the old one's list.
MUTATES = _folder(
    "solution",
    tictactoe=(
        (
            "new_position: list[TTTPiece] = self.position.copy()",
            "new_position: list[TTTPiece] = self.position",
        ),
    ),
)
# The search never stops at max_depth: only a finished game ends a line.
NO_DEPTH = _folder(
    "solution",
    minimax=(
        (
            "    if won or board.is_draw or max_depth <= 0:",
            "    if won or board.is_draw:",
        ),
    ),
)
# is_draw forgets the win: a full board is a draw even when a line is complete.
FULL_IS_DRAW = _folder(
    "solution",
    board=(
        (
            "return len(self.legal_moves) == 0 and not self.is_win",
            "return len(self.legal_moves) == 0",
        ),
    ),
)
# find_best_move looks at its own move only: it takes a win but never sees a threat.
NO_BLOCK = _folder(
    "solution",
    minimax=(
        (
            "score = _search(child, False, player, max_depth, floor, _TOP, timing=True)",
            "score = _search(child, False, player, 0, floor, _TOP, timing=True)",
        ),
    ),
)

# Each student's attempt: one zip, or the four files as attachments (file ids in a row).
CLASS = (
    Student("alvarezrosa", 30001, 800010, "minimax.py", _folder("solution")),
    Student("brownsam", 30002, 800020, "board-abc_sbrown.zip", _folder("starter")),
    Student("chenwei", 30003, 800030, "board-abc_wchen.zip", MUTATES),
    Student("duboislea", 30004, 800040, "minimax.py", NO_DEPTH),
    Student("ezekemi", 30005, 800050, "board-abc_keze.zip", FULL_IS_DRAW, late=True),
    Student("fischerjonas", 30006, 800060, "board-abc_jfischer.zip", NO_BLOCK),
)


def build() -> dict[str, bytes]:
    """The example files by name: a zip, or each of the four files under its Canvas name."""
    files = {}
    for student in CLASS:
        if student.original.endswith(".zip"):
            files[student.canvas_name] = _zip(student.files)
            continue
        late = "_LATE" if student.late else ""
        for number, (name, text) in enumerate(student.files.items()):
            canvas = f"{student.sortable}{late}_{student.user_id}_{student.file_id + number}_{name}"
            files[canvas] = text().encode("utf-8")
    return files


def main(argv: list[str] | None = None) -> int:
    return write_class(HERE, build(), ROSTER, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
