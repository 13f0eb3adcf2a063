"""Write examples/othello/submissions/: a small synthetic Othello class, named as Canvas names
downloads, and its roster.

Run from anywhere: ``python examples/make_othello_examples.py`` (``--check`` writes nothing
and fails if a file would change). Most students are the kit's answer key
(``answer_key/othello/game.py``) with one thing broken each; examples/othello/README.md says
who is who and the grade each gets.
"""

from __future__ import annotations

import sys
from pathlib import Path

from make_examples import ROOT, Student, patched, uploads, write_class

HERE = Path(__file__).resolve().parent / "othello"
KEY = ROOT / "answer_key" / "othello" / "game.py"

ROSTER = """\
Student,ID,SIS User ID,SIS Login ID,Section,Othello (3001)
    Points Possible,,,,,100
"Abara, Ngozi",60001,9601,nabara,LEC 001,
"Berg, Lars",60002,9602,lberg,LEC 001,
"Castillo, Marta",60003,9603,mcastillo,LEC 001,
"Dang, Minh",60004,9604,mdang,LEC 002,
"Ellis, Grace",60005,9605,gellis,LEC 002,
"Farouk, Omar",60006,9606,ofarouk,LEC 002,
"""

_CHOICE = "        return best_square\n"
# Returns the square as a list, [row, col]: the right square, not the format asked for.
AS_A_LIST = patched(KEY, (_CHOICE, "        return [best_square[0], best_square[1]]\n"))
# Prints its choice: debug output.
CHATTY = patched(KEY, (_CHOICE, '        print("playing", best_square)\n' + _CHOICE))
# Works out its colour from the number of discs (black moves first, so an even count means
# black to move) instead of trusting self.my_piece: right until somebody passes.
BY_PARITY = patched(
    KEY,
    (
        "        best_square, best_value = None, -2.0\n",
        '        discs = count(state, "b") + count(state, "w")\n'
        '        self.my_piece = "b" if discs % 2 == 0 else "w"\n'
        '        self.opp = "w" if self.my_piece == "b" else "b"\n'
        "        best_square, best_value = None, -2.0\n",
    ),
)

CLASS = (
    Student(
        "abarangozi",
        60001,
        950001,
        "othello_nabara.zip",
        {"game.py": patched(ROOT / "solution" / "othello" / "game.py")},
    ),
    Student(
        "berglars",
        60002,
        950002,
        "othello_lberg.zip",
        {"game.py": patched(ROOT / "starter" / "othello" / "game.py")},
    ),
    Student("castillomarta", 60003, 950003, "game.py", {"game.py": patched(KEY)}),
    Student("dangminh", 60004, 950004, "othello_mdang.zip", {"game.py": AS_A_LIST}),
    Student("ellisgrace", 60005, 950005, "othello_gellis.zip", {"game.py": BY_PARITY}),
    Student("faroukomar", 60006, 950006, "othello_ofarouk.zip", {"game.py": CHATTY}, late=True),
)


def main(argv: list[str] | None = None) -> int:
    return write_class(HERE, uploads(CLASS), ROSTER, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
