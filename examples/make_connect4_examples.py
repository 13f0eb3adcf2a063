"""Write examples/connect4/submissions/: a small synthetic Connect Four class, named as Canvas
names downloads, and its roster.

Run from anywhere: ``python examples/make_connect4_examples.py`` (``--check`` writes nothing
and fails if a file would change). Most students are the kit's answer key
(``answer_key/connect4/game.py``) with one thing broken each; examples/connect4/README.md
says who is who and the grade each gets.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from make_examples import ROOT, Student, patched, uploads, write_class

HERE = Path(__file__).resolve().parent / "connect4"
OUT = HERE / "submissions"
KEY = ROOT / "answer_key" / "connect4" / "game.py"

ROSTER = """\
Student,ID,SIS User ID,SIS Login ID,Section,Connect Four (2001)
    Points Possible,,,,,100
"Alvarez, Rosa",20001,9101,ralvarez,LEC 001,
"Brown, Sam",20002,9102,sbrown,LEC 001,
"Chen, Wei",20003,9103,wchen,LEC 001,
"Dubois, Lea",20004,9104,ldubois,LEC 002,
"Eze, Kemi",20005,9105,keze,LEC 002,
"Fischer, Jonas",20006,9106,jfischer,LEC 002,
"""


def _key(*changes: tuple[str, str]) -> Callable[[], str]:
    """The answer key with each (old, new) replacement made; each ``old`` must occur once."""
    return patched(KEY, *changes)


_CHOICE = "        return best_column\n"
# Returns the column inside a list, as a Teeko move would be: not a move at all.
IN_A_LIST = _key((_CHOICE, "        return [best_column]\n"))
# Prints its choice: debug output.
CHATTY = _key((_CHOICE, '        print("dropping into", best_column)\n' + _CHOICE))
# Never checks whether a column is full: on a board with a full column it may pick it.
IGNORES_FULL = _key(
    (
        "            if drop_row(state, col) is None:  # a full column is no move\n"
        "                continue\n",
        "",
    ),
    (
        "            value = self.min_value(dropped(state, col, self.my_piece), 1)\n",
        "            if drop_row(state, col) is None:\n"
        "                return col  # forgot that a full column takes no disc\n"
        "            value = self.min_value(dropped(state, col, self.my_piece), 1)\n",
    ),
)

CLASS = (
    Student(
        "alvarezrosa",
        20001,
        700001,
        "connect4_ralvarez.zip",
        {"game.py": patched(ROOT / "solution" / "connect4" / "game.py")},
    ),
    Student(
        "brownsam",
        20002,
        700002,
        "connect4_sbrown.zip",
        {"game.py": patched(ROOT / "starter" / "connect4" / "game.py")},
    ),
    Student("chenwei", 20003, 700003, "game.py", {"game.py": _key()}),
    Student("duboislea", 20004, 700004, "connect4_ldubois.zip", {"game.py": IN_A_LIST}),
    Student("ezekemi", 20005, 700005, "connect4_keze.zip", {"game.py": CHATTY}, late=True),
    Student("fischerjonas", 20006, 700006, "connect4_jfischer.zip", {"game.py": IGNORES_FULL}),
)


def build() -> dict[str, bytes]:
    """The example files by name: each student's upload (a zip, or game.py as it is)."""
    return uploads(CLASS)


def main(argv: list[str] | None = None) -> int:
    return write_class(HERE, build(), ROSTER, __doc__ or "", argv)


if __name__ == "__main__":
    sys.exit(main())
