"""A notebook handed in (``.ipynb``, or its script export with ``# In[ ]:`` markers) as the
homework's main module: its code cells in order, as the student ran them top to bottom.

IPython's magics and shell escapes (``%…``, ``!…``, ``get_ipython()…`` in an export) are left
out, and so is a cell that starts an interactive game when run (it calls ``input()`` at top
level, directly or through the notebook's own functions, or runs a ``while`` loop at top
level): the grader gives no keyboard, and the game is the grader's to play. Each cell left out
is named, with why, for the report. Every cell begins with a marker line
(``protocol.CELL_MARK``), so the child reads a line of the module as "cell N, line M", the
notebook's own coordinates (N counts code cells from 1).

Reading is linear in the notebook's size: the JSON is parsed once (no schema validation), the
cells' call graph is walked once, and a chain of calls to ``input()`` is told by its first
links. A notebook past :data:`MAX_NOTEBOOK_BYTES` or :data:`MAX_CELLS` is refused in one
sentence before it is parsed, and one whose code cells hold more than :data:`MAX_CODE_BYTES`
before its code is (a homework's code is tens of kilobytes; the cost of reading
code grows with it). ``bench/notebook_reading.py`` measures both.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass

from autograder.classroom.outside import STAND_IN, leave_outside, main_guard
from autograder.errors import GraderError
from autograder.play.protocol import CELL_MARK, NOTEBOOK_HEADER
from autograder.play.untrusted import admit

# Jupyter's and Colab's builtin display(), used without an import: it draws nothing here
JUPYTER_DISPLAY = "display = lambda *objects, **options: None"

__all__ = [
    "Converted",
    "Written",
    "writes",
    "is_script_export",
    "code_cells",
    "from_notebook",
    "from_script_export",
    "module_text",
    "without_magics",
    "MAX_NOTEBOOK_BYTES",
    "MAX_CELLS",
    "MAX_CODE_BYTES",
]

MAX_NOTEBOOK_BYTES = 20 << 20  # a notebook (or its script export) read at most, outputs too
MAX_CELLS = 10_000  # cells of any kind in one notebook
MAX_CODE_BYTES = 512 << 10  # of code, all code cells together (a homework's is ~10 KB)
_IN_MARK = re.compile(r"^# In\[[ 0-9]*\]:[ \t\r]*$", re.MULTILINE)
_MAGIC = ("%", "!")
# IPython's own syntax on a line: help (``Agent?``, ``?Agent.play``), a shell or magic's
# output assigned (``files = !ls``); none of it is Python
_IPYTHON = re.compile(r"(\?{1,2}[\w.]+|[\w.]+\?{1,2}|[\w.]+\s*=\s*[!%].*)\s*$")
_CELL_MAGIC = re.compile(r"%%(?P<name>\w+)")
_WRITES = re.compile(
    r"%%(?:writefile|file)(?P<append>\s+(?:-a|--append))?\s+(?P<q>[\"']?)(?P<name>[^\s\"']+)(?P=q)"
)
_PLAIN_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")  # in the folder, no dot file
_PYTHON_CELL_MAGICS = {"time", "timeit", "capture", "prun"}  # their body runs as Python
_AS_JUPYTER = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
_CHAIN_SHOWN = 5  # functions of a chain leading to input() named in a note


@dataclass(frozen=True)
class Converted:
    """The module made of a notebook, the cells left out of it with why, and the lines left
    out of the cells that run (Colab's own lines, display code), with what they were."""

    source: str
    skipped: tuple[tuple[int, str], ...]  # (cell number, why)
    left_out: tuple[tuple[int, str], ...] = ()  # (cell number, what was left out of it)
    written: tuple[Written, ...] = ()  # the files its ``%%writefile`` cells write, in order

    def notes(self, label: str) -> tuple[str, ...]:
        """One line per cell left out, and per cell that lost lines, for the report."""
        writing = {w.cell for w in self.written}
        notes = [f"{label}: cell {n} was not run: {why}" for n, why in self.skipped] + [
            f"{label}: cell {n}: {what}" for n, what in self.left_out if n not in writing
        ]
        return tuple(admit(note, "sentence") for note in notes)  # the student's lines: gated

    def files(self) -> dict[str, str]:
        """Each file the notebook writes, with what it holds once every cell has run."""
        made: dict[str, str] = {}
        for w in self.written:
            made[w.name] = made.get(w.name, "") + w.text if w.append else w.text
        return made


@dataclass(frozen=True)
class Written:
    """A cell run as ``%%writefile [-a] name``: it writes (or appends) its body to ``name``
    in the notebook's folder, so that a later cell can import it."""

    cell: int
    name: str
    text: str
    append: bool = False


def writes(cells: list[str]) -> tuple[Written, ...]:
    """The files ``cells`` write with ``%%writefile`` (or ``%%file``), each named by a plain
    file name; a cell writing elsewhere (``../x.py``, ``/tmp/x``) writes nothing here."""
    found = []
    for number, cell in enumerate(cells, start=1):
        first, _, body = cell.lstrip("\n").partition("\n")
        magic = _WRITES.fullmatch(first.strip())
        if magic and _PLAIN_NAME.fullmatch(magic["name"]):
            text = body if body.endswith("\n") or not body else body + "\n"
            found.append(Written(number, magic["name"], text, magic["append"] is not None))
    return tuple(found)


def is_script_export(text: str) -> bool:
    """Whether ``text`` is a notebook's script export (``jupyter nbconvert --to script``)."""
    return _IN_MARK.search(text) is not None


def _too_large(label: str, size: int, cells: int) -> GraderError:
    return GraderError(
        f"{label} is a notebook of {size / 2**20:.1f} MB and {cells} cells; the grader reads "
        f"notebooks of at most {MAX_NOTEBOOK_BYTES >> 20} MB and {MAX_CELLS} cells: clear its "
        "outputs (Edit > Clear All Outputs), save it and hand it in again"
    )


def code_cells(data: bytes, label: str) -> list[str]:
    """The sources of a ``.ipynb`` file's code cells, in order (nbformat 4, or 3's worksheets).

    :raises GraderError: when it is larger than the limits, or no notebook (one sentence)."""
    if len(data) > MAX_NOTEBOOK_BYTES:
        raise _too_large(label, len(data), 0)
    try:
        book = json.loads(data.decode("utf-8-sig"))
    except (ValueError, RecursionError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise _unreadable(label, reason[:120]) from None
    if not isinstance(book, dict):
        raise _unreadable(label, "it is JSON but no notebook")
    cells = book.get("cells")
    if cells is None and isinstance(book.get("worksheets"), list):  # nbformat 3
        cells = [c for sheet in book["worksheets"] if isinstance(sheet, dict)
                 for c in sheet.get("cells") or []]  # fmt: skip
    if not isinstance(cells, list):
        raise _unreadable(label, "it has no cells")
    if len(cells) > MAX_CELLS:
        raise _too_large(label, len(data), len(cells))
    sources = []
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", cell.get("input", ""))
            if isinstance(source, list) and all(isinstance(line, str) for line in source):
                source = "".join(source)
            if not isinstance(source, str):
                raise _unreadable(label, "a code cell's source is not text")
            sources.append(source)
    return sources


def _too_much_code(label: str, size: int) -> GraderError:
    return GraderError(
        f"{label} holds {size >> 10} KB of code; the grader reads at most "
        f"{MAX_CODE_BYTES >> 10} KB of code in a notebook: hand in only your homework's code"
    )


def _unreadable(label: str, reason: str) -> GraderError:
    return GraderError(
        f"{label} is not a notebook that can be read ({reason}); download it again as .ipynb "
        "(File > Download) and hand that in"
    )


def from_notebook(data: bytes, label: str) -> Converted:
    """The module of a ``.ipynb`` file's code cells.

    :raises GraderError: when it is no notebook, or past the limits."""
    return module_text(code_cells(data, label), label)


def from_script_export(text: str, label: str) -> Converted:
    """The module of a script export: the text between ``# In[ ]:`` markers, one cell each
    (what comes before the first marker is nbconvert's header, not a cell).

    :raises GraderError: past the limits of a notebook."""
    parts = _IN_MARK.split(text)
    if len(text) > MAX_NOTEBOOK_BYTES or len(parts) - 1 > MAX_CELLS:
        raise _too_large(label, len(text.encode()), len(parts) - 1)
    return module_text([part.strip("\n") for part in parts[1:]], label)


def without_magics(source: str) -> tuple[str, list[str]]:
    """``source`` with IPython's magic, shell and help lines blanked (``pass`` where indented,
    so a block keeps a body), every other line where it was; and the lines blanked. A cell
    magic whose body is not Python (``%%writefile``, ``%%bash``) blanks the whole cell."""
    given = source.split("\n")
    written = [line.strip() for line in given if line.strip()]
    magic = _CELL_MAGIC.match(written[0]) if written else None
    if magic and magic["name"] not in _PYTHON_CELL_MAGICS:
        return "\n" * (len(given) - 1), [f"{written[0]} ({len(written)} lines)"]
    lines, blanked = [], []
    for line in given:
        stripped = line.lstrip()
        if (
            stripped.startswith(_MAGIC)
            or stripped.startswith("get_ipython()")
            or _IPYTHON.match(stripped)
        ):
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


def _runs(stmt: ast.stmt) -> list[ast.AST]:
    """What of a top-level statement runs when the cell runs: all of it but the bodies of the
    functions and classes it defines, and of a ``__main__`` guard."""
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return list(stmt.decorator_list)
    if main_guard(stmt):
        return []
    return [stmt]


def _bodies(trees: Iterable[ast.Module | None]) -> dict[str, set[str]]:
    """The notebook's functions (by name, methods too) and the names each calls, in one walk;
    a function defined inside another counts as called by it (what it calls, its maker
    reaches)."""
    bodies: dict[str, set[str]] = {}
    for tree in trees:
        pending: list[tuple[ast.AST, str | None]] = [(tree, None)] if tree else []
        while pending:
            node, owner = pending.pop()
            inner = owner
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                bodies.setdefault(node.name, set())
                if owner is not None:
                    bodies[owner].add(node.name)
                inner = node.name
            elif owner is not None and (name := _called(node)):
                bodies[owner].add(name)
            pending.extend((child, inner) for child in ast.iter_child_nodes(node))
    return bodies


def _prompting(trees: list[ast.Module | None]) -> dict[str, tuple[str, int]]:
    """The notebook's functions that reach ``input()`` when called, each with the function it
    calls on the way (``"input"`` for the last) and how many calls away ``input()`` is: the
    shortest way, the first by name among equals, found breadth first from ``input``."""
    bodies = _bodies(trees)
    callers: dict[str, list[str]] = {}
    for name, calls in bodies.items():
        for called in calls:
            callers.setdefault(called, []).append(name)
    via: dict[str, tuple[str, int]] = {}
    level, distance = {"input"}, 1
    while level:
        reached = {c for callee in level for c in callers.get(callee, ()) if c not in via}
        for name in reached:
            via[name] = (min(c for c in bodies[name] if c in level), distance)
        level, distance = reached, distance + 1
    return via


def _chain(name: str, via: dict[str, tuple[str, int]]) -> str:
    """``play() calls ask() calls input()``, the first links of a long chain named."""
    links = [name]
    while links[-1] != "input" and len(links) < _CHAIN_SHOWN:
        links.append(via[links[-1]][0])
    told = " calls ".join(f"{link}()" for link in links)
    if links[-1] == "input":
        return told
    more = via[links[-1]][1] - 1  # functions between the last named and input()
    return f"{told} calls ... ({more} more) ... calls input()"


def _own_names(trees: Iterable[ast.Module | None]) -> set[str]:
    """The functions, methods and classes the notebook defines."""
    kinds = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    return {n.name for t in trees if t is not None for n in ast.walk(t) if isinstance(n, kinds)}


def _game_loop(stmt: ast.While, own: set[str]) -> bool:
    """Whether a top-level ``while`` plays: it loops until broken (``while True``) or drives
    the notebook's own code (``while not env.step()``, ``agent.play(state)`` in its body); a
    loop of plain arithmetic building a table runs, as in Jupyter."""
    if isinstance(stmt.test, ast.Constant) and stmt.test.value:
        return True
    return any(_called(node) in own for node in ast.walk(stmt))


def _why_skipped(
    tree: ast.Module, prompting: dict[str, tuple[str, int]], own: set[str]
) -> str | None:
    """Why a cell would start an interactive game when run, or None when it would not."""
    for stmt in tree.body:
        if isinstance(stmt, ast.While) and _game_loop(stmt, own):
            return f"it runs a game loop at top level (line {stmt.lineno}: a while loop)"
        waits = _awaits(stmt)
        if waits is not None:
            return f"it awaits at top level (line {waits}), which Jupyter runs and a module cannot"
        for part in _runs(stmt):
            for node in ast.walk(part):
                name = _called(node)
                line = getattr(node, "lineno", stmt.lineno)
                if name == "input":
                    return f"it calls input() at top level (line {line})"
                if name is not None and name in prompting:
                    return f"it calls {_chain(name, prompting)} (line {line})"
    return None


def _awaits(stmt: ast.stmt) -> int | None:
    """The line of an ``await`` (``async for``, ``async with``) that runs at a cell's top
    level in ``stmt``, not inside a function it defines; None when there is none."""
    stack: list[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Await | ast.AsyncFor | ast.AsyncWith):
            return getattr(node, "lineno", stmt.lineno)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    return None


def _parsed(cells: list[str]) -> list[ast.Module | None]:
    """Each cell's tree, as Jupyter compiles it: ``await`` allowed at its top level."""
    trees: list[ast.Module | None] = []
    for cell in cells:
        try:
            trees.append(compile(cell, "<cell>", "exec", _AS_JUPYTER, dont_inherit=True))
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            trees.append(None)  # run as it is: the import reports the error, at its cell
    return trees


def _hoisted(cells: list[str], trees: list[ast.Module | None]) -> tuple[list[str], list[str]]:
    """The cells with their ``from __future__`` imports blanked, and those imports: Jupyter
    compiles each cell alone, so such an import may open any cell, while a module takes it
    only at its top. Blank lines keep each cell's line numbers."""
    futures: dict[str, None] = {}
    out = []
    for cell, tree in zip(cells, trees, strict=True):
        lines = cell.split("\n")
        for node in tree.body if tree is not None else ():
            if isinstance(node, ast.ImportFrom) and node.module == "__future__":
                names = ", ".join(alias.name for alias in node.names)
                futures[f"from __future__ import {names}"] = None
                for number in range(node.lineno - 1, node.end_lineno or node.lineno):
                    lines[number] = ""
        out.append("\n".join(lines))
    return out, list(futures)


def module_text(cells: list[str], label: str) -> Converted:
    """The module of ``cells`` (code cells' sources, in order), each after its marker line:
    magics, Colab's own lines and display code left out (``outside.py``), and the cells that
    would start a game when run.

    :raises GraderError: when the cells hold more than :data:`MAX_CODE_BYTES` of code."""
    size = sum(len(cell.encode()) for cell in cells)
    if size > MAX_CODE_BYTES:
        raise _too_much_code(label, size)
    unmagic = [without_magics(cell) for cell in cells]
    kept = leave_outside([cell for cell, _ in unmagic], [magics for _, magics in unmagic])
    cleaned = [cell for cell, _ in kept]
    trees = _parsed(cleaned)
    cleaned, futures = _hoisted(cleaned, trees)
    prompting, own = _prompting(trees), _own_names(trees)
    out = [f"{NOTEBOOK_HEADER} {label}: its code cells in order", *futures, JUPYTER_DISPLAY]
    left_out = tuple((n, what) for n, (_, what) in enumerate(kept, start=1) if what)
    if left_out:
        out.append(STAND_IN)
    skipped: list[tuple[int, str]] = []
    for number, (cell, tree) in enumerate(zip(cleaned, trees, strict=True), start=1):
        why = None if tree is None else _why_skipped(tree, prompting, own)
        if why is not None:
            skipped.append((number, why))
            out.append(f"{CELL_MARK}{number} (not run: {why})")
            continue
        out.append(f"{CELL_MARK}{number}")
        out.append(cell)
    return Converted("\n".join(out) + "\n", tuple(skipped), left_out, writes(cells))
