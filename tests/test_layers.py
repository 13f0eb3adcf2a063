"""The kit's layers, read from the source: every import goes down (or sideways), never up.

games (pure rules, and the game-pack seam) < oracle (exact solutions of a game) < play (host,
child runner, sandbox, referee, opponents) < grading (rubric, scoring, reports, extras) <
classroom (intake, Canvas, batch, records, summary, Gradescope) < live (``autograder play``)
< the command line.
``autograder.errors`` and ``autograder.files`` are the base every layer may use.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGE = ROOT / "autograder"
ORDER = {
    "errors": 0,
    "files": 0,
    "games": 0,
    "oracle": 1,
    "play": 2,
    "grading": 3,
    "classroom": 4,
    "live": 5,
}
TOP = 6  # cli.py, __main__.py


def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 0  # the package itself
    return ORDER.get(parts[1], TOP)


def _imports(path: Path, module: str) -> list[tuple[int, str]]:
    """(line, imported module) for every import of the kit's own modules in ``path``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            found.append((node.lineno, target))
            found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
    return [(line, name) for line, name in found if name.split(".")[0] == "autograder"]


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=[_module(p) for p in SOURCES])
def test_every_import_goes_down_the_layers(path):
    module = _module(path)
    upward = [
        f"line {line}: {module} (layer {_layer(module)}) imports {name} (layer {_layer(name)})"
        for line, name in _imports(path, module)
        if _layer(name) > _layer(module)
    ]
    assert not upward, "\n".join(upward)


def test_every_module_sits_in_a_layer():
    loose = [
        _module(p)
        for p in SOURCES
        if _layer(_module(p)) == TOP
        and _module(p) not in ("autograder.cli", "autograder.__main__")
        and not _module(p).startswith("autograder.cli.")  # the command line's own modules
    ]
    assert not loose, f"modules outside every layer: {loose}"


def test_the_oracle_command_does_not_pull_in_the_rest_of_the_kit():
    code = (
        "import json, sys\nimport autograder.oracle.__main__\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('autograder'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    loaded = json.loads(done.stdout)
    assert not [m for m in loaded if _layer(m) > ORDER["oracle"]], loaded


GAMES = sorted(p.parent.name for p in (PACKAGE / "games").glob("*/__init__.py"))
ORACLE_SOURCES = sorted((PACKAGE / "oracle").rglob("*.py"))


@pytest.mark.parametrize("path", ORACLE_SOURCES, ids=[_module(p) for p in ORACLE_SOURCES])
def test_the_oracle_names_no_game(path):
    """Perfect play comes from the packs (``perfect``, ``exact``, ``tables``): the oracle
    package finds it through the registry and imports no game's package."""
    assert GAMES, "no game packages found under autograder/games"
    named = [
        f"line {line}: imports {name}"
        for line, name in _imports(path, _module(path))
        if name.split(".")[:3] in (["autograder", "games", game] for game in GAMES)
    ]
    assert not named, "\n".join(named)


def _game_names() -> dict[str, str]:
    """Every name by which the registry knows one game or one homework -> whose it is: the
    packs' and assignments' names, the interfaces' aliases, and the files only one game's
    submissions hold (``game.py``, shared by several, names none). A variant's aliases are
    left out: they are spellings a user may type, some of them plain words ("board")."""
    from autograder.games import ASSIGNMENTS, PACKS

    names = {pack.name: pack.name for pack in PACKS.values()}
    for assignment in ASSIGNMENTS.values():
        names[assignment.name] = assignment.name
        for alias in assignment.interface.aliases:
            names[alias] = assignment.name
    owners: dict[str, set[str]] = {}
    for assignment in ASSIGNMENTS.values():
        for file in assignment.pack.files:
            owners.setdefault(file, set()).add(assignment.game.name)
    names.update({file: ", ".join(sorted(o)) for file, o in owners.items() if len(o) == 1})
    return names


def _markers() -> set[str]:
    """The endings of the files that mark a homework's folder (a sketch's ``.pyde``)."""
    from autograder.games import ASSIGNMENTS

    layouts = (a.interface.layout for a in ASSIGNMENTS.values())
    return {layout.marker for layout in layouts if layout is not None}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``'s module, classes and functions."""
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, kinds) and node.body and isinstance(node.body[0], ast.Expr):
            found.add(id(node.body[0].value))
    return found


CORE_SOURCES = [p for p in SOURCES if "games" not in p.relative_to(PACKAGE).parts[:1]]


@pytest.mark.parametrize("path", CORE_SOURCES, ids=[_module(p) for p in CORE_SOURCES])
def test_no_game_is_named_outside_its_pack(path):
    """A new homework is a pack and a registry line: no module outside ``autograder/games/``
    imports a game's package or names a game, a homework or a file of one homework's in its
    code (comments and docstrings may give examples)."""
    names = _game_names()
    assert {"teeko2", "othello"} <= set(names), "the registry's names were not read"
    word = re.compile(
        "|".join(rf"(?<![\w.-]){re.escape(n)}(?![\w-])" for n in sorted(names, key=len)[::-1])
        + "".join(f"|{re.escape(marker)}\\b" for marker in sorted(_markers()))
    )
    tree = ast.parse(path.read_text(), str(path))
    docstrings = _docstrings(tree)
    found = [
        f"line {line}: imports {name}"
        for line, name in _imports(path, _module(path))
        if name.split(".")[:3] in (["autograder", "games", game] for game in GAMES)
    ]
    strings = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip
    for node in strings:
        found += [f"line {node.lineno}: {m.group()!r}" for m in word.finditer(str(node.value))]
    assert not found, "\n".join(found)
