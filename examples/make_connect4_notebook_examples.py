"""Write examples/connect4-notebook/: a small synthetic class of the Colab notebook course's
homework, named as Canvas names downloads, and its roster; and the notebooks (``connect4.ipynb``)
of the starter, the answer key and the reference solution, from their script exports (``game.py``).

Run from anywhere: ``python examples/make_connect4_notebook_examples.py`` (``--check`` writes
nothing and fails if a file would change). Most students are the answer key's notebook with one
thing broken each; examples/connect4-notebook/README.md says who is who and each grade.
"""

from __future__ import annotations

import io
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path

import nbformat
from make_examples import ROOT, Student, write_class

HERE = Path(__file__).resolve().parent / "connect4-notebook"
EXPORTS = {
    kind: ROOT / kind / "connect4-notebook" / "game.py"
    for kind in ("starter", "answer_key", "solution")
}
MARK = "# In[ ]:"
EPOCH = (1980, 1, 1, 0, 0, 0)

ROSTER = """\
Student,ID,SIS User ID,SIS Login ID,Section,Connect Four notebook (2002)
    Points Possible,,,,,100
"Adeyemi, Tolu",30001,9201,tadeyemi,LEC 001,
"Berg, Ingrid",30002,9202,iberg,LEC 001,
"Costa, Luis",30003,9203,lcosta,LEC 001,
"Dang, Minh",30004,9204,mdang,LEC 002,
"Eriksen, Sofie",30005,9205,seriksen,LEC 002,
"Farah, Amina",30006,9206,afarah,LEC 002,
"""


def notebook(export: str) -> bytes:
    """The notebook of a script export: each ``# In[ ]:`` block a code cell, each block of
    comment lines between cells a markdown cell (as ``jupyter nbconvert --to script`` wrote
    them), with fixed cell ids so the bytes are the same on every run."""
    book = nbformat.v4.new_notebook()
    book.metadata = {"kernelspec": {"name": "python3", "display_name": "Python 3"}}
    parts = export.split(f"\n{MARK}\n")
    cells = []
    prose = parts[0].removeprefix("#!/usr/bin/env python\n")
    for part in parts[1:]:
        if _prose(prose):
            cells.append(nbformat.v4.new_markdown_cell(_prose(prose)))
        lines = part.strip("\n").split("\n")
        end = len(lines)
        while end > 0 and (lines[end - 1].startswith("#") or not lines[end - 1].strip()):
            end -= 1  # the comment block after the code is the next cell's prose
        cells.append(nbformat.v4.new_code_cell("\n".join(lines[:end]).strip("\n")))
        prose = "\n".join(lines[end:])
    if _prose(prose):
        cells.append(nbformat.v4.new_markdown_cell(_prose(prose)))
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number:02d}"
    book.cells = cells
    return (nbformat.writes(book) + "\n").encode("utf-8")


def _prose(comments: str) -> str:
    lines = [line.removeprefix("#").removeprefix(" ") for line in comments.strip().split("\n")]
    return "\n".join(lines).strip()


def _key(*changes: tuple[str, str]) -> Callable[[], str]:
    """The answer key's export with each (old, new) replacement made; each old occurs once."""

    def source() -> str:
        text = EXPORTS["answer_key"].read_text("utf-8")
        for old, new in changes:
            assert text.count(old) == 1, f"the answer key should hold {old!r} exactly once"
            text = text.replace(old, new)
        return text

    return source


# One diagonal direction forgotten: a four falling to the right is never seen.
NO_DIAGONAL = _key(("((0, 1), (1, 0), (1, 1), (-1, 1))", "((0, 1), (1, 0), (1, 1))"))
# apply_action drops the disc into the state's own board.
IN_PLACE = _key(("    board = copy.deepcopy(self.board)\n", "    board = self.board\n"))
# Plain minimax: the cut-off was left out.
NO_PRUNING = _key(("            if alpha >= beta:\n                break\n", ""))


def _zip(name: str, data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        info = zipfile.ZipInfo(name, date_time=EPOCH)
        info.external_attr = 0o644 << 16
        archive.writestr(info, data)
    return buffer.getvalue()


def _file(kind: str) -> Callable[[], str]:
    return lambda: EXPORTS[kind].read_text("utf-8")


CLASS = (
    Student("adeyemitolu", 30001, 800001, "Connect4.ipynb", {"nb": _file("solution")}),
    Student("bergingrid", 30002, 800002, "connect4.ipynb", {"nb": _file("starter")}),
    Student("costaluis", 30003, 800003, "connect4.py", {"py": _key()}),
    Student("dangminh", 30004, 800004, "hw4.zip", {"nb": NO_DIAGONAL}),
    Student("eriksensofie", 30005, 800005, "Connect4.ipynb", {"nb": IN_PLACE}, late=True),
    Student("farahamina", 30006, 800006, "Connect4_final.ipynb", {"nb": NO_PRUNING}),
)


def build() -> dict[str, bytes]:
    """Each student's upload by Canvas name: a notebook, its script export, or a zip."""
    files = {}
    for student in CLASS:
        ((kind, text),) = student.files.items()
        data = text().encode("utf-8") if kind == "py" else notebook(text())
        if student.original.endswith(".zip"):
            data = _zip("hw4/connect4.ipynb", data)
        files[student.canvas_name] = data
    return files


def main(argv: list[str] | None = None) -> int:
    status = write_class(HERE, build(), ROSTER, __doc__ or "", argv)
    check = argv is not None and "--check" in argv or "--check" in sys.argv[1:]
    for export in EXPORTS.values():
        target, data = export.with_name("connect4.ipynb"), notebook(export.read_text("utf-8"))
        if check:
            if not target.is_file() or target.read_bytes() != data:
                print(f"out of date: {target}", file=sys.stderr)
                status = 1
        else:
            target.write_bytes(data)
            print(target)
    return status


if __name__ == "__main__":
    sys.exit(main())
