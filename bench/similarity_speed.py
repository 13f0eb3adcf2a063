"""Similarity at class size: 500 synthetic Teeko2 submissions through ``autograder similarity``.

    python bench/similarity_speed.py [--students 500] [--copies 10]

Each submission is the kit's starter with its TODO methods and a few helpers of the student's
own, made up statement by statement (loops, tests, arithmetic, calls: about 150 lines, no two
students alike but for what the starter gave them); ``--copies`` of them are copies of another
student with every name renamed. No boilerplate is named: the starter is found from the
class. Target (issue 25): the whole command, intake to pages, in at most a minute on 2 cores.
Prints the command's wall and CPU time and how the planted copies ranked.
"""

from __future__ import annotations

import argparse
import ast
import random
import resource
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


_METHODS = ("make_move", "succ", "heuristic_game_value", "max_value", "min_value")


def _statement(rng: random.Random, depth: int = 0) -> list[str]:
    """One statement of a student's own code, made up (loops, tests, arithmetic, calls)."""
    names = ["state", "depth", "best", "row", "col", "count", "value", "piece", "moves"]
    a, b = rng.choice(names), rng.choice(names)
    shape = rng.randrange(6 if depth < 2 else 3)
    if shape == 0:
        return [f"{a} = {b} {rng.choice('+-*')} {rng.randrange(9)}"]
    if shape == 1:
        return [f"{a} = self.{rng.choice(_METHODS)}({b}, {rng.randrange(5)})"]
    if shape == 2:
        return [f"{a}.append(({b}, {rng.randrange(5)}))"]
    inner = [f"    {line}" for _ in range(rng.randint(1, 3)) for line in _statement(rng, depth + 1)]
    if shape == 3:
        return [f"for {a} in range({rng.randrange(2, 6)}):", *inner]
    if shape == 4:
        return [f"if {a} {rng.choice(['<', '>', '==', '!='])} {b}:", *inner]
    return [f"while {a} > {rng.randrange(5)}:", *inner, f"    {a} -= 1"]


def _student(starter: str, rng: random.Random) -> str:
    """The starter with its TODO methods and a few helpers of the student's own, each made
    up: about 150 lines a student, no two alike but what the starter gave them."""
    own = []
    for name in [*_METHODS, *(f"helper_{n}" for n in range(rng.randint(2, 5)))]:
        lines = [line for _ in range(rng.randint(6, 14)) for line in _statement(rng)]
        own.append(f"def {name}(self, state, depth):\n" + "\n".join(f"    {x}" for x in lines))
        own[-1] += f"\n    return {rng.choice(['best', 'value', 'count'])}\n"
    tree = ast.parse(starter)
    player = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    mine = [ast.parse(text).body[0] for text in own]
    names = {m.name for m in mine if isinstance(m, ast.FunctionDef)}
    player.body = [
        n for n in player.body if not (isinstance(n, ast.FunctionDef) and n.name in names)
    ] + mine
    return ast.unparse(tree) + "\n"


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


def _children_cpu() -> float:
    """CPU seconds of the finished child processes so far (the command's own time)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--copies", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(25)
    starter = (ROOT / "starter" / "teeko2" / "game.py").read_text()
    with tempfile.TemporaryDirectory() as folder:
        class_dir, out = Path(folder) / "class", Path(folder) / "out"
        class_dir.mkdir()
        texts = [_student(starter, rng) for _ in range(args.students - args.copies)]
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
        command += ["--no-starter"]
        began, used = time.perf_counter(), _children_cpu()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        seconds, cpu = time.perf_counter() - began, _children_cpu() - used
        rows = (out / "similarity.csv").read_text().splitlines()[1:]
        ranked = [tuple(row.split(",")[:2]) for row in rows]
        places = sorted(ranked.index(pair) + 1 for pair in copies if pair in ranked)
        flagged = sum(row.endswith(",yes") for row in rows)
    print(done.stderr.strip())
    print(
        f"{args.students} submissions: {seconds:.1f} s wall for the whole command, {cpu:.1f} s CPU"
    )
    print(f"planted copies ranked {places} of {len(rows)} pairs; {flagged} pairs flagged")


if __name__ == "__main__":
    main()
