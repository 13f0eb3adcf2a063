"""A notebook handed in (``.ipynb``, or its script export with ``# In[ ]:`` markers) as the
homework's main module: its code cells in order, as the student ran them top to bottom.

IPython's magics and shell escapes (``%…``, ``!…``, ``get_ipython()…`` in an export) are left
out, and so is a cell that starts an interactive game when run (it calls ``input()`` at top
level, directly or through the notebook's own functions, or runs a ``while`` loop at top
level): the grader gives no keyboard, and the game is the grader's to play. Each cell left out
is named, with why, for the report. Every cell begins with a marker line
(``protocol.CELL_MARK``), so the child reads a line of the module as "cell N, line M", the
notebook's own coordinates (N counts code cells from 1).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from autograder.classroom.outside import STAND_IN, leave_outside
from autograder.errors import GraderError
from autograder.play.protocol import CELL_MARK, NOTEBOOK_HEADER

__all__ = ["Converted", "is_script_export", "from_notebook", "from_script_export", "module_text"]

_IN_MARK = re.compile(r"^# In\[[ 0-9]*\]:\s*$", re.MULTILINE)
_MAGIC = ("%", "!")


@dataclass(frozen=True)
class Converted:
    """The module made of a notebook, the cells left out of it with why, and the lines left
    out of the cells that run (Colab's own lines, display code), with what they were."""

    source: str
    skipped: tuple[tuple[int, str], ...]  # (cell number, why)
    left_out: tuple[tuple[int, str], ...] = ()  # (cell number, what was left out of it)

    def notes(self, label: str) -> tuple[str, ...]:
        """One line per cell left out, and per cell that lost lines, for the report."""
        return tuple(f"{label}: cell {n} was not run: {why}" for n, why in self.skipped) + tuple(
            f"{label}: cell {n}: {what}" for n, what in self.left_out
        )


def is_script_export(text: str) -> bool:
    """Whether ``text`` is a notebook's script export (``jupyter nbconvert --to script``)."""
    return _IN_MARK.search(text) is not None


def from_notebook(data: bytes, label: str) -> Converted:
    """The module of a ``.ipynb`` file's code cells.

    :raises GraderError: when it is no notebook nbformat can read, or nbformat is missing.
    """
    try:
        import nbformat
    except ImportError:
        raise GraderError(
            f"{label} is a notebook and nbformat is not installed: `pip install nbformat`, "
            "or export the notebook as a .py script"
        ) from None
    try:
        book = nbformat.reads(data.decode("utf-8-sig"), as_version=4)  # type: ignore[no-untyped-call]
    except Exception as err:  # nbformat raises many kinds, all meaning the same to a student
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise GraderError(
            f"{label} is not a notebook that can be read ({reason[:120]}); download it again "
            "as .ipynb (File > Download) and hand that in"
        ) from None
    cells = [str(c.source) for c in book.cells if c.cell_type == "code"]
    return module_text(cells, label)


def from_script_export(text: str, label: str) -> Converted:
    """The module of a script export: the text between ``# In[ ]:`` markers, one cell each
    (what comes before the first marker is nbconvert's header, not a cell)."""
    parts = _IN_MARK.split(text)
    return module_text([part.strip("\n") for part in parts[1:]], label)


def _without_magics(source: str) -> tuple[str, list[str]]:
    """``source`` with IPython's magic and shell lines blanked (``pass`` where indented, so a
    block keeps a body), every other line where it was; and the lines blanked."""
    lines, blanked = [], []
    for line in source.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(_MAGIC) or stripped.startswith("get_ipython()"):
            indent = line[: len(line) - len(stripped)]
            lines.append(f"{indent}pass" if indent else "")
            blanked.append(stripped)
        else:
            lines.append(line)
    return "\n".join(lines), blanked


def _called(node: ast.AST) -> str | None:
    """The name a call calls: ``input`` for ``input()``, ``step`` for ``env.step()``."""
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            return node.func.id
        if isinstance(node.func, ast.Attribute):
            return node.func.attr
    return None


def _calls(nodes: list[ast.stmt]) -> set[str]:
    """Every name called in ``nodes``, nested functions and classes included."""
    return {name for stmt in nodes for n in ast.walk(stmt) if (name := _called(n))}


def _runs(stmt: ast.stmt) -> list[ast.AST]:
    """What of a top-level statement runs when the cell runs: all of it but the bodies of the
    functions and classes it defines, and of a ``__main__`` guard."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return list(stmt.decorator_list)
    if isinstance(stmt, ast.If) and "__main__" in ast.unparse(stmt.test):
        return []
    return [stmt]


def _prompting(trees: list[ast.Module | None]) -> dict[str, str]:
    """The notebook's functions (by name, methods too) that reach ``input()`` when called,
    each with the chain that does: ``{"play": "play() calls input()"}``."""
    bodies: dict[str, set[str]] = {}
    for tree in trees:
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                bodies.setdefault(node.name, set()).update(_calls(node.body))
    reach = {name: f"{name}() calls input()" for name, calls in bodies.items() if "input" in calls}
    grew = True
    while grew:
        grew = False
        for name, calls in bodies.items():
            if name in reach:
                continue
            via = next((c for c in sorted(calls) if c in reach), None)
            if via is not None:
                reach[name] = f"{name}() calls {reach[via]}"
                grew = True
    return reach


def _why_skipped(tree: ast.Module, prompting: dict[str, str]) -> str | None:
    """Why a cell would start an interactive game when run, or None when it would not."""
    for stmt in tree.body:
        if isinstance(stmt, ast.While):
            return f"it runs a game loop at top level (line {stmt.lineno}: a while loop)"
        for part in _runs(stmt):
            for node in ast.walk(part):
                name = _called(node)
                line = getattr(node, "lineno", stmt.lineno)
                if name == "input":
                    return f"it calls input() at top level (line {line})"
                if name in prompting:
                    return f"it calls {prompting[name]} (line {line})"
    return None


def _parsed(cells: list[str]) -> list[ast.Module | None]:
    trees: list[ast.Module | None] = []
    for cell in cells:
        try:
            trees.append(ast.parse(cell))
        except (SyntaxError, ValueError):
            trees.append(None)  # run as it is: the import reports the error, at its cell
    return trees


def module_text(cells: list[str], label: str) -> Converted:
    """The module of ``cells`` (code cells' sources, in order), each after its marker line:
    magics, Colab's own lines and display code left out (``outside.py``), and the cells that
    would start a game when run."""
    unmagic = [_without_magics(cell) for cell in cells]
    kept = leave_outside([cell for cell, _ in unmagic], [magics for _, magics in unmagic])
    cleaned = [cell for cell, _ in kept]
    trees = _parsed(cleaned)
    prompting = _prompting(trees)
    out = [f"{NOTEBOOK_HEADER} {label}: its code cells in order"]
    left_out = tuple((n, what) for n, (_, what) in enumerate(kept, start=1) if what)
    if left_out:
        out.append(STAND_IN)
    skipped: list[tuple[int, str]] = []
    for number, (cell, tree) in enumerate(zip(cleaned, trees, strict=True), start=1):
        why = None if tree is None else _why_skipped(tree, prompting)
        if why is not None:
            skipped.append((number, why))
            out.append(f"{CELL_MARK}{number} (not run: {why})")
            continue
        out.append(f"{CELL_MARK}{number}")
        out.append(cell)
    return Converted("\n".join(out) + "\n", tuple(skipped), left_out)
