"""What of a notebook's code is outside the homework: Colab's own lines and display code.

A notebook handed in from Colab mounts a drive (``from google.colab import drive``,
``drive.mount(...)``), changes folder and installs packages (``%cd``, ``!pip``, magics that
``notebook.py`` already blanks) and draws boards (matplotlib, ``IPython.display``). None of it
is the agent; none of it can run where the grader runs the notebook (no Drive, no display, no
network). So it is left out, line by line, and listed for the report, never a zero:

- an import of one of ``OUTSIDE``'s modules becomes an assignment of the names it binds to a
  stand-in that does nothing (a method of the student's that draws while it plays then draws
  nothing instead of failing);
- a top-level statement that uses such a name, calls a function of the notebook's that does,
  or names a Colab path (``/content/...``) is blanked.

Every line stays where it was, so the child still reads a line as "cell N, line M".
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

__all__ = ["OUTSIDE", "STAND_IN", "leave_outside", "main_guard"]

# module prefix -> what it is, for the report
OUTSIDE = {
    "google.colab": "Colab",
    "matplotlib": "display",
    "IPython": "display",
    "ipywidgets": "display",
    "seaborn": "display",
    "plotly": "display",
}
_PATHS = ("/content", "/gdrive")  # Colab's own file system
_NAME = "_kit_left_out"
# The stand-in each left-out name is bound to: any attribute or call gives it back, and it
# unpacks as two of itself (``fig, ax = plt.subplots()``).
STAND_IN = (
    f'{_NAME} = type("LeftOut", (), {{"__getattr__": lambda self, name: self, '
    '"__call__": lambda self, *args, **kwargs: self, "__enter__": lambda self: self, '
    '"__exit__": lambda self, *exc: False, "__iter__": lambda self: iter((self, self))})()'
)
_SHOWN = 4  # left-out lines named per cell
_WIDTH = 40  # characters of each


def _module(node: ast.Import | ast.ImportFrom) -> list[str]:
    if isinstance(node, ast.ImportFrom):
        return [node.module or ""]
    return [alias.name for alias in node.names]


def _kind(modules: Iterable[str]) -> str | None:
    """What an import of ``modules`` is (Colab, display), or None when it stays."""
    for module in modules:
        for prefix, kind in OUTSIDE.items():
            if module == prefix or module.startswith(prefix + "."):
                return kind
    return None


def _bound(node: ast.Import | ast.ImportFrom) -> list[str]:
    """The names an import binds: ``plt`` for ``import matplotlib.pyplot as plt``."""
    if isinstance(node, ast.ImportFrom):
        return [alias.asname or alias.name for alias in node.names if alias.name != "*"]
    return [alias.asname or alias.name.split(".")[0] for alias in node.names]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _called(node: ast.AST) -> set[str]:
    found = set()
    for n in ast.walk(node):
        if isinstance(n, ast.Call):
            func = n.func
            if isinstance(func, ast.Name):
                found.add(func.id)
            elif isinstance(func, ast.Attribute):
                found.add(func.attr)
    return found


def _colab_path(node: ast.AST) -> bool:
    return any(
        isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.startswith(_PATHS)
        for n in ast.walk(node)
    )


def _reaching(trees: list[ast.Module | None], outside: set[str]) -> set[str]:
    """The notebook's functions (methods too) that use a left-out name, directly or through
    another such function."""
    bodies: dict[str, ast.AST] = {}
    for tree in trees:
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                bodies[node.name] = node
    reach = {name for name, body in bodies.items() if _names(body) & outside}
    grew = True
    while grew:
        grew = False
        for name, body in bodies.items():
            if name not in reach and _called(body) & reach:
                reach.add(name)
                grew = True
    return reach


def _shown(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= _WIDTH else line[: _WIDTH - 3] + "..."


class _Cell:
    """One cell's lines, with what is left out of them and why."""

    def __init__(self, source: str, magics: list[str]) -> None:
        self.lines = source.split("\n")
        self.out: dict[str, list[str]] = {"Colab": [f"{m}" for m in magics], "display": []}

    def replace(self, node: ast.stmt, with_line: str, kind: str) -> None:
        first, last = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        self.out[kind].append(_shown(self.lines[first]))
        indent = self.lines[first][: len(self.lines[first]) - len(self.lines[first].lstrip())]
        self.lines[first] = indent + with_line if with_line else ""
        for index in range(first + 1, last + 1):
            self.lines[index] = ""

    def what(self) -> str:
        parts = []
        for kind, said in self.out.items():
            if not said:
                continue
            shown = "; ".join(said[:_SHOWN]) + ("; ..." if len(said) > _SHOWN else "")
            why = (
                "Colab's own lines and IPython magics, which the grader has no use for"
                if kind == "Colab"
                else "display code, which draws nothing where the grader runs it (a function "
                "of yours that draws while it plays draws nothing instead)"
            )
            parts.append(
                f"{len(said)} {'line' if len(said) == 1 else 'lines'} left out: {why} ({shown})"
            )
        return "; ".join(parts)


def leave_outside(cells: list[str], magics: list[list[str]]) -> list[tuple[str, str]]:
    """Each cell with Colab's own lines and display code left out, and what was left out of it
    in one sentence ("" when nothing); ``magics`` are the magic lines already blanked."""
    trees: list[ast.Module | None] = []
    for source in cells:
        try:
            trees.append(ast.parse(source))
        except (SyntaxError, ValueError):
            trees.append(None)
    found = [_Cell(source, lines) for source, lines in zip(cells, magics, strict=True)]
    outside: dict[str, str] = {}  # a name a left-out import bound -> what it is
    for cell, tree in zip(found, trees, strict=True):
        for node in ast.walk(tree) if tree else ():
            if isinstance(node, ast.Import | ast.ImportFrom) and (kind := _kind(_module(node))):
                names = _bound(node)
                outside.update(dict.fromkeys(names, kind))
                cell.replace(node, " = ".join([*names, _NAME]) if names else "pass", kind)
    reach = _reaching(trees, set(outside))
    for cell, tree in zip(found, trees, strict=True):
        for node in tree.body if tree else ():
            if isinstance(node, _KEPT) or main_guard(node):
                continue
            used = {outside[name] for name in _names(node) if name in outside}
            if _colab_path(node) or "Colab" in used:
                cell.replace(node, "", "Colab")
            elif used or _called(node) & reach:
                cell.replace(node, "", "display")
    return [("\n".join(cell.lines), cell.what()) for cell in found]


# What a cell defines, and the imports (those left out are rewritten above): never blanked.
_KEPT = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)


def main_guard(node: ast.stmt) -> bool:
    """Whether ``node`` is ``if __name__ == "__main__":`` (or any ``if`` testing that name):
    its body never runs at import. Walked, not unparsed: a test nested deeper than
    ``ast.unparse`` can recurse is still read."""
    return isinstance(node, ast.If) and any(
        isinstance(n, ast.Constant) and n.value == "__main__" for n in ast.walk(node.test)
    )
