"""Write examples/connect4-sketch/submissions/: a small synthetic class for the Processing sketch
course's Python-mode sketch (``connect4-sketch``), named as Canvas names downloads, and its roster.

Run from anywhere: ``python examples/make_connect4_sketch_examples.py`` (``--check`` writes
nothing and fails if a file would change). The students are the kit's answer key and starter
(``answer_key/connect4-sketch/``, ``starter/connect4-sketch/``) and the chapter's own code
(``tests/data/sketch_course/``, its section 9.1.7), some with one thing changed; some hand in the
sketch folder zipped, some its four files as four attachments of one Canvas attempt.
examples/connect4-sketch/README.md says who is who.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from make_examples import ROOT, Student, _zip, write_class

HERE = Path(__file__).resolve().parent / "connect4-sketch"
FILES = ("connectFour_AI.pyde", "gameBoard.py", "spot.py", "AIBrain.py")
SKETCH = "connectFour_AI"  # the sketch folder's name, as Processing names it after the .pyde
SOURCES = {
    "key": ROOT / "answer_key" / "connect4-sketch",
    "starter": ROOT / "starter" / "connect4-sketch",
    "seed": ROOT / "tests" / "data" / "sketch_course",
}

ROSTER = """\
Student,ID,SIS User ID,SIS Login ID,Section,Connect Four sketch (4001)
    Points Possible,,,,,100
"Alvarez, Rosa",40001,9301,ralvarez,LEC 001,
"Brown, Sam",40002,9302,sbrown,LEC 001,
"Chen, Wei",40003,9303,wchen,LEC 001,
"Dubois, Lea",40004,9304,ldubois,LEC 002,
"Eze, Kemi",40005,9305,keze,LEC 002,
"Fischer, Jonas",40006,9306,jfischer,LEC 002,
"""


def _sketch(
    source: str, folder: str = "", **changes: tuple[tuple[str, str], ...]
) -> dict[str, Callable[[], str]]:
    """The four files of ``SOURCES[source]`` (under ``folder/`` in a zip), with each (old, new)
    replacement of ``changes[file stem]`` made; each ``old`` must occur once."""

    def text(file: str) -> Callable[[], str]:
        def read() -> str:
            found = (SOURCES[source] / file).read_text("utf-8")
            for old, new in changes.get(file.split(".")[0], ()):
                assert found.count(old) == 1, f"{source}/{file} should hold {old!r} exactly once"
                found = found.replace(old, new)
            return found

        return read

    prefix = f"{folder}/" if folder else ""
    return {prefix + file: text(file) for file in FILES}


# The chapter's 9.1.6: scores summed over the tree, not scaled by depth, searched at depth 3.
# The chapter shows it blocking a line of three instead of winning at once.
SUMMED = _sketch(
    "seed",
    SKETCH,
    AIBrain=(
        (
            "            return self.score(winner) * (10**_depth)\n",
            "            return self.score(winner)\n",
        ),
    ),
)
# Searches on the board itself: no copy, so every move it tries is dropped for real.
NO_COPY = _sketch(
    "key",
    SKETCH,
    AIBrain=(
        (
            "            possibleBoard = copyBoard(self.gameBoard)\n",
            "            possibleBoard = self.gameBoard  # no need to copy?\n",
        ),
    ),
)
# Drops its disc by hand, not with trigger(): colHeight and the turn are left behind. Its
# gameBoard.py sets a font when imported, as sketches often do (drawn by nothing headless).
BY_HAND = _sketch(
    "key",
    SKETCH,
    AIBrain=(
        (
            "        self.gameBoard.trigger(bestMove)\n",
            "        row = 5 - self.gameBoard.colHeight[bestMove]\n"
            "        self.gameBoard.grids[row][bestMove].value = 'Y'\n",
        ),
    ),
    gameBoard=(
        (
            "from AIBrain import *\n",
            "from AIBrain import *\n\ntextFont(createFont('Arial', 32))\n",
        ),
    ),
)

# Each student's attempt: one zip of the sketch folder, or its four files as attachments.
CLASS = (
    Student("alvarezrosa", 40001, 900010, f"{SKETCH}.zip", _sketch("key", SKETCH)),
    Student("brownsam", 40002, 900020, f"{SKETCH}.zip", _sketch("starter", SKETCH)),
    Student("chenwei", 40003, 900030, "AIBrain.py", _sketch("seed")),
    Student("duboislea", 40004, 900040, f"{SKETCH}.zip", SUMMED),
    Student("ezekemi", 40005, 900050, f"{SKETCH}.zip", NO_COPY, late=True),
    Student("fischerjonas", 40006, 900060, f"{SKETCH}.zip", BY_HAND),
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
