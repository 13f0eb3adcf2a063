"""Similarity at class size: 500 synthetic Teeko2 submissions through ``autograder similarity``.

    python bench/similarity_speed.py [--students 500] [--copies 10]

Each submission is the starter's ``Teeko2Player`` with its methods, and the module's other
functions, drawn at random from the kit's three honest Teeko2 players (the solution, the answer
key, the example class's greedy player) and the starter, every name renamed and the functions
shuffled; ``--copies`` of them are disguised copies of another student. Target (issue 25): the
whole command, intake to pages, in at most a minute on 2 cores. Prints the command's wall
time, the engine's share of it, and how the planted copies ranked.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _greedy() -> str:
    spec = importlib.util.spec_from_file_location(
        "make_examples", ROOT / "examples" / "make_examples.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_examples"] = module
    spec.loader.exec_module(module)
    return str(module.PLAYER)


def _pieces(source: str) -> tuple[list[ast.stmt], list[ast.stmt]]:
    """A file's module-level statements and its player class's methods."""
    tree = ast.parse(source)
    methods: list[ast.stmt] = []
    top: list[ast.stmt] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Teeko2Player":
            methods += [n for n in node.body if isinstance(n, ast.FunctionDef)]
        elif not isinstance(node, ast.Expr):  # not the docstring
            top.append(node)
    return top, methods


def _rename(tree: ast.Module, rng: random.Random) -> None:
    defined = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    } | {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    names = {name: f"v{rng.randrange(10**6)}" for name in defined if name != "self"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            node.id = names.get(node.id, node.id)
        elif isinstance(node, ast.arg):
            node.arg = names.get(node.arg, node.arg)


def _student(pools: list[tuple[list[ast.stmt], list[ast.stmt]]], rng: random.Random) -> str:
    top: list[ast.stmt] = []
    methods: list[ast.stmt] = []
    for pool_top, pool_methods in pools:
        top += rng.sample(pool_top, len(pool_top) // len(pools))
        methods += rng.sample(pool_methods, len(pool_methods) // len(pools))
    rng.shuffle(top)
    rng.shuffle(methods)
    player = ast.ClassDef("Teeko2Player", [], [], methods or [ast.Pass()], [])
    tree = ast.Module([*top, player], [])
    _rename(tree, rng)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(25)
    sources = [
        (ROOT / "solution" / "teeko2" / "game.py").read_text(),
        (ROOT / "answer_key" / "teeko2" / "game.py").read_text(),
        _greedy(),
        (ROOT / "starter" / "teeko2" / "game.py").read_text(),
    ]
    pools = [_pieces(s) for s in sources]
    with tempfile.TemporaryDirectory() as folder:
        class_dir, out = Path(folder) / "class", Path(folder) / "out"
        class_dir.mkdir()
        texts = [_student(pools, rng) for _ in range(args.students - args.copies)]
        copies = []
        for _ in range(args.copies):
            original = rng.randrange(len(texts))
            tree = ast.parse(texts[original])
            _rename(tree, rng)
            texts.append(ast.unparse(tree) + "\n")
            copies.append((f"s{original:03d}", f"s{len(texts) - 1:03d}"))
        for index, text in enumerate(texts):
            (class_dir / f"s{index:03d}.py").write_text(text)
        command = ["autograder", "similarity", str(class_dir), "-a", "teeko2", "--out", str(out)]
        began = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        seconds = time.perf_counter() - began
        rows = (out / "similarity.csv").read_text().splitlines()[1:]
        ranked = [tuple(row.split(",")[:2]) for row in rows]
        places = sorted(ranked.index(pair) + 1 for pair in copies if pair in ranked)
        flagged = sum(row.endswith(",yes") for row in rows)
    print(done.stderr.strip())
    print(f"{args.students} submissions: {seconds:.1f} s wall for the whole command")
    print(f"planted copies ranked {places} of {len(rows)} pairs; {flagged} pairs flagged")


if __name__ == "__main__":
    main()
