"""Code that needs a look: a static scan of the files handed in, for a person to read, never for
points.

Everything inside the submission's process is the student's, so the grader does not police it
there (docs/sandbox.md); it reads the source instead. The scan lists code that hides itself or
reaches into the grader's runner: running text that is not a literal (``exec``, ``eval``,
``compile``), decoding that feeds such a call or an import, the interpreter's back doors
(``__subclasses__``, ``__globals__``, a new ``__code__``, changes to the builtins, to
``sys.modules`` or the import machinery), other frames (``f_back``, ``f_locals``,
``tb_frame`` ...), the collector's object searches, ``ctypes``, ``getattr``/``setattr`` with a
computed name on a module or the builtins, and a process's memory file. Each finding is one
line naming the file and the line. What honest students write (``traceback``, ``inspect``,
``logging``, ``gc.collect()``, ``sys._getframe().f_code.co_name``, ``eval(input())`` in
``main``) is not listed: a finding is a reason to read the code, so a false one costs trust.

A pure function of the sources; a file that does not parse is skipped (the grade says why).
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from autograder.play.protocol import notebook_cells
from autograder.play.untrusted import admit

__all__ = ["Finding", "scan"]

_RUNS_TEXT = {"exec", "eval", "compile"}
_IMPORTS = {"__import__", "import_module"}
# (module, function) pairs whose result is decoded or unpacked bytes or text
_DECODERS = {
    ("zlib", "decompress"),
    ("lzma", "decompress"),
    ("bz2", "decompress"),
    ("gzip", "decompress"),
    ("marshal", "loads"),
    ("pickle", "loads"),
    ("codecs", "decode"),
    ("bytes", "fromhex"),
    ("binascii", "unhexlify"),
    ("binascii", "a2b_base64"),
    ("binascii", "a2b_hex"),
}
_FRAMES = {"f_back", "f_locals", "f_globals", "tb_frame", "gi_frame", "cr_frame", "ag_frame"}
_BACK_DOORS = {
    "__subclasses__": "lists every subclass of a class (__subclasses__)",
    "__globals__": "reads a function's globals (__globals__)",
}
_GC_SEARCHES = {"get_objects", "get_referrers", "get_referents"}
_MUTATORS = {"insert", "append", "extend", "remove", "pop", "clear", "update", "setdefault"}
_WATCHED = {"modules", "meta_path", "path_hooks"}
_SHOWN = 60  # characters of a call shown in a finding


@dataclass(frozen=True)
class Finding:
    """One line of code that needs a look: where it is and what it does."""

    file: str
    line: int
    what: str
    where: str = ""  # "cell 3, line 2" in a notebook's module; else "line N"

    def text(self) -> str:
        return f"{self.file} {self.where or f'line {self.line}'}: {self.what}"


def scan(sources: Mapping[str, str]) -> tuple[Finding, ...]:
    """The findings in ``sources`` (file name -> text), by file and line, one per line and kind."""
    found: dict[tuple[str, int, str], Finding] = {}
    for name in sorted(sources):
        text = sources[name]
        try:
            tree = ast.parse(text, name)
            findings = list(_Scanner(tree).findings())
        except (SyntaxError, ValueError):
            continue  # it does not import either: the report says so
        except (RecursionError, MemoryError):
            findings = [(1, "is nested too deeply for the grader to read to its end")]
        place = notebook_cells(text.splitlines())
        for line, what in findings:
            finding = Finding(admit(name, "file"), line, admit(what, "note"), _where(place, line))
            found.setdefault((name, line, what), finding)
    return tuple(sorted(found.values(), key=lambda f: (f.file, f.line, f.what)))


def _where(place: Callable[[int], tuple[str, int] | None], line: int) -> str:
    """``cell C, line M`` in a module made of a notebook's cells (classroom/notebook.py)."""
    cell = place(line)
    return "" if cell is None else f"cell {cell[0]}, line {cell[1]}"


def _shown(node: ast.AST) -> str:
    text = _unparsed(node)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _unparsed(node: ast.AST) -> str:
    """``node`` as code; an expression Python runs but ``ast.unparse`` cannot rebuild (nested
    past the recursion limit) by what it is."""
    try:
        return ast.unparse(node)
    except RecursionError:
        return f"(a {type(node).__name__.lower()} nested too deeply to show)"


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str | bytes)


class _Scanner:
    """One module's findings. Names are resolved as the module binds them: ``import zlib as z``
    makes ``z.decompress`` a decoder; ``from gc import get_objects`` makes ``get_objects`` a
    search."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.modules: dict[str, str] = {}  # local name -> module it names
        self.functions: dict[str, tuple[str, str]] = {}  # local name -> (module, function)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    self.modules[local] = alias.name if alias.asname else local
            elif isinstance(node, ast.ImportFrom) and node.module:
                for alias in node.names:
                    self.functions[alias.asname or alias.name] = (node.module, alias.name)
        self.inputs = self._names_from(lambda call: self._called(call) == ("", "input"))
        self.decoded = self._names_from(self._decodes)

    def _names_from(self, test: Callable[[ast.Call], bool]) -> set[str]:
        """Names assigned anywhere from a call for which ``test`` holds (its result, or a
        method of its result: ``zlib.decompress(b).decode()``)."""
        names: set[str] = set()
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(test(c) for c in ast.walk(node.value) if isinstance(c, ast.Call)):
                    names.update(t.id for t in targets if isinstance(t, ast.Name))
        return names

    def _called(self, call: ast.Call) -> tuple[str, str]:
        """(module, function) a call names, as far as the module's imports tell; ("", name)
        for a bare name nothing imported."""
        func = call.func
        if isinstance(func, ast.Name):
            return self.functions.get(func.id, ("", func.id))
        if isinstance(func, ast.Attribute):
            base = func.value
            if isinstance(base, ast.Name):
                return self.modules.get(base.id, base.id), func.attr
            if isinstance(base, ast.Attribute):
                return _unparsed(base), func.attr
        return "", ""

    def _decodes(self, call: ast.Call) -> bool:
        module, name = self._called(call)
        return (module, name) in _DECODERS or (module == "base64" and "decode" in name)

    def _fed_decoded(self, node: ast.AST) -> str | None:
        """The decoding call or name that ``node`` is built from, if any."""
        for part in ast.walk(node):
            if isinstance(part, ast.Call) and self._decodes(part):
                return _shown(part.func)
            if isinstance(part, ast.Name) and part.id in self.decoded:
                return part.id
        return None

    def findings(self) -> Iterator[tuple[int, str]]:
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Call):
                yield from self._call(node)
            elif isinstance(node, ast.Attribute):
                yield from self._attribute(node)
            elif isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names]
                module = node.module if isinstance(node, ast.ImportFrom) else None
                if "ctypes" in [n.split(".")[0] for n in names] or (module or "").startswith(
                    "ctypes"
                ):
                    yield node.lineno, "imports ctypes (reads and writes the process's memory)"
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
                yield from self._store(node)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str):
                if _memory_file(node.value):
                    yield node.lineno, f"names a process's memory file ({node.value!r})"
            elif isinstance(node, ast.JoinedStr):
                parts = [v.value for v in node.values if isinstance(v, ast.Constant)]
                if parts and str(parts[0]).startswith("/proc/") and str(parts[-1]).endswith("mem"):
                    yield node.lineno, "names a process's memory file (/proc/.../mem)"

    def _call(self, call: ast.Call) -> Iterator[tuple[int, str]]:
        module, name = self._called(call)
        line = call.lineno
        if name in _RUNS_TEXT and module in ("", "builtins") and call.args:
            text = call.args[0]
            decoded = self._fed_decoded(text)
            if decoded is not None:
                yield line, f"runs decoded code: {name}() of {decoded}(...)"
            elif not _literal(text) and not self._typed_in(name, text):
                yield line, f"runs text that is not a literal: {_shown(call)}"
        elif name in _IMPORTS and call.args:
            decoded = self._fed_decoded(call.args[0])
            if decoded is not None:
                yield line, f"imports a module whose name is decoded: {name}() of {decoded}(...)"
        elif module == "gc" and name in _GC_SEARCHES:
            yield line, f"searches every object in the process (gc.{name})"
        elif (module, name) == ("sys", "_current_frames"):
            yield line, "reads every thread's frame (sys._current_frames)"
        elif module == "" and name in ("getattr", "setattr", "delattr") and len(call.args) >= 2:
            yield from self._computed_attribute(call, name)
        elif module == "types" and any(self._fed_decoded(arg) for arg in call.args):
            yield line, f"builds a {name} from decoded data"

    def _typed_in(self, name: str, text: ast.AST) -> bool:
        """``eval(input())``: a move typed by a person, read in ``main`` (honest, if unsafe)."""
        if name != "eval":
            return False
        if isinstance(text, ast.Call) and self._called(text) == ("", "input"):
            return True
        return isinstance(text, ast.Name) and text.id in self.inputs

    def _computed_attribute(self, call: ast.Call, name: str) -> Iterator[tuple[int, str]]:
        target, attr = call.args[0], call.args[1]
        if isinstance(attr, ast.Constant) and isinstance(attr.value, str):
            if attr.value in _FRAMES or attr.value in _BACK_DOORS:
                yield call.lineno, f"{name}() of {attr.value} ({_shown(call)})"
            elif name == "setattr" and attr.value == "__code__":
                yield call.lineno, "replaces a function's code (__code__)"
            return
        if self._module_or_builtins(target):
            yield call.lineno, f"{name}() with a computed name on a module: {_shown(call)}"

    def _module_or_builtins(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self.modules or node.id in ("__builtins__", "builtins")
        if isinstance(node, ast.Subscript):  # sys.modules[...]
            return _shown(node.value).endswith("modules")
        if isinstance(node, ast.Call):  # __import__(...), importlib.import_module(...)
            return self._called(node)[1] in _IMPORTS
        return False

    def _attribute(self, node: ast.Attribute) -> Iterator[tuple[int, str]]:
        if node.attr in _FRAMES:
            yield node.lineno, f"reads another frame ({node.attr})"
        elif node.attr in _BACK_DOORS:
            yield node.lineno, _BACK_DOORS[node.attr]
        elif (
            node.attr in _MUTATORS
            and isinstance(node.value, ast.Attribute)
            and self._is_sys(node.value)
        ):
            yield node.lineno, f"changes the import machinery (sys.{node.value.attr}.{node.attr})"

    def _is_sys(self, node: ast.Attribute) -> bool:
        """``sys.modules``, ``sys.meta_path`` or ``sys.path_hooks``, under any name of sys."""
        base = node.value
        return (
            node.attr in _WATCHED
            and isinstance(base, ast.Name)
            and self.modules.get(base.id) == "sys"
        )

    def _store(self, node: ast.Assign | ast.AugAssign | ast.Delete) -> Iterator[tuple[int, str]]:
        targets = (
            node.targets
            if isinstance(node, ast.Assign | ast.Delete)
            else [node.target]  # AugAssign
        )
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute) and part.attr == "__code__":
                    yield node.lineno, "replaces a function's code (__code__)"
                elif isinstance(part, ast.Attribute) and self._is_sys(part):
                    yield node.lineno, f"changes the import machinery (sys.{part.attr})"
                elif isinstance(part, ast.Name) and part.id == "__builtins__":
                    yield node.lineno, "changes the builtins (__builtins__)"
                elif (
                    isinstance(part, ast.Attribute)
                    and isinstance(part.value, ast.Name)
                    and self.modules.get(part.value.id) == "builtins"
                ):
                    yield node.lineno, f"changes the builtins (builtins.{part.attr})"


def _memory_file(text: str) -> bool:
    parts = text.split("/")
    return len(parts) == 4 and parts[:2] == ["", "proc"] and parts[3] == "mem"
