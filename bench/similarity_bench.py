"""How well the similarity check finds disguised copies: ROC AUC and the recall at zero false
positives, per disguise, for the kit and (where installed) copydetect.

    python bench/similarity_bench.py [--seed 0] [--copydetect]

The labelled set is built from code the project may ship, per homework (Teeko2 and Connect
Four): the kit's answer keys and solutions, the notebook homework's solution and a notebook
student's program (Connect Four), and sixteen players written for this benchmark in several styles
(``bench/data/similarity/<homework>/``, each a student's own methods and functions, put into
the kit's starter as a student would fill it in: the starter's untouched code is shared by
them all, and no one names it as boilerplate, as when a course's own original starter is not
the kit's). Each honest file is disguised by code (``bench/disguise.py``); a class per
homework and disguise holds the honest files and their copies. A pair of a file and its copy
is a positive; every pair of two independent files (or their copies) a negative; for partial
copies (1 to 3 functions of one file put into another student's file), the pair of the copy
and the file that received the functions is left out.

Per disguise: ROC AUC (the chance a copy pair scores above an honest pair) and the recall at
zero false positives (the share of copy pairs scoring above every honest pair), both
homeworks together; and the CPU seconds each tool took for all of it, reading the files
included (its process time: the development machine is shared).
"""

from __future__ import annotations

import argparse
import ast
import itertools
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from disguise import DISGUISES, partial_copy  # noqa: E402

from autograder.grading.similarity import Settings, SourceFile, compare, fingerprint  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data" / "similarity"
PLAYER = {"teeko2": "Teeko2Player", "connect4": "Connect4Player"}


def fill_starter(starter: str, own: str, player: str) -> str:
    """The kit's starter with the student's own methods in place of its (or added to the
    class) and the student's own module code after the starter's imports."""
    tree, mine = ast.parse(starter), ast.parse(own)
    lines = starter.split("\n")
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == player)
    mine_cls = next(n for n in mine.body if isinstance(n, ast.ClassDef) and n.name == player)
    own_lines = own.split("\n")

    def text(node: ast.stmt) -> list[str]:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
        return own_lines[first - 1 : node.end_lineno]

    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    edits: list[tuple[int, int, list[str]]] = []  # (first line, last line, new lines)
    added: list[str] = []
    for node in mine_cls.body:
        if isinstance(node, ast.FunctionDef) and node.name in methods:
            old = methods[node.name]
            edits.append((old.lineno, old.end_lineno or old.lineno, text(node)))
        else:
            added += ["", *text(node)]
    edits.append((cls.end_lineno + 1, cls.end_lineno, added))
    module = [n for n in mine.body if n is not mine_cls]
    imports = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    after = imports[-1].end_lineno if imports else 0
    extra: list[str] = []
    for node in module:
        extra += text(node)
    edits.append((after + 1, after, ["", *extra, ""]))
    for first, last, new in sorted(edits, key=lambda e: -e[0]):
        lines[first - 1 : last] = new
    return "\n".join(lines)


def honest(homework: str) -> dict[str, str]:
    """Independent files of ``homework``: name -> source."""
    starter = (ROOT / "starter" / homework / "game.py").read_text()
    files = {
        f"{homework}/{p.stem}": fill_starter(starter, p.read_text(), PLAYER[homework])
        for p in sorted((DATA / homework).glob("*.py"))
    }
    kit = ["answer_key", "solution"]
    for folder in kit:
        files[f"{homework}/kit-{folder}"] = (ROOT / folder / homework / "game.py").read_text()
    # (not the Teeko2 example class's player: it shares code with the answer key, one author)
    if homework == "connect4":
        files["connect4/kit-notebook-solution"] = (
            ROOT / "solution" / "connect4-notebook" / "game.py"
        ).read_text()
        files["connect4/notebook-student"] = (
            ROOT / "tests" / "data" / "notebook_students" / "connect4_numpy.py"
        ).read_text()
    return files


Scorer = Callable[[dict[str, str]], dict[frozenset[str], float]]


def kit_scores(files: dict[str, str]) -> dict[frozenset[str], float]:
    settings = Settings()
    documents = [fingerprint(n, [SourceFile("game.py", t)], settings) for n, t in files.items()]
    comparison = compare(documents, frozenset(), settings)
    return {frozenset((p.a, p.b)): p.score for p in comparison.pairs}


def copydetect_scores(files: dict[str, str]) -> dict[frozenset[str], float]:
    from copydetect import CodeFingerprint, compare_files

    with tempfile.TemporaryDirectory() as folder:
        prints = {}
        for number, (name, text) in enumerate(files.items()):
            path = Path(folder) / f"f{number}.py"
            path.write_text(text)
            prints[name] = CodeFingerprint(str(path), 25, 1, language="python")
        scores = {}
        for a, b in itertools.combinations(files, 2):
            _, (one, other), _ = compare_files(prints[a], prints[b])
            scores[frozenset((a, b))] = max(float(one), float(other))
    return scores


def auc(positives: list[float], negatives: list[float]) -> float:
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


def recall_at_zero_fp(positives: list[float], negatives: list[float]) -> float:
    top = max(negatives)
    return sum(p > top for p in positives) / len(positives)


def build(
    disguise: str, seed: int
) -> list[tuple[dict[str, str], set[frozenset[str]], set[frozenset[str]]]]:
    """Per homework: the class, its copy pairs, and the pairs left out (two files that share
    an origin but are not a file and its copy: the two partial copies made from one file)."""
    classes = []
    for homework in PLAYER:
        rng = random.Random(f"{seed}:{homework}:{disguise}")
        starter = (ROOT / "starter" / homework / "game.py").read_text()
        files = honest(homework)
        names = list(files)
        cls, copies = dict(files), set()
        origins = {name: {name} for name in names}
        shift = rng.randrange(1, len(names))
        for number, name in enumerate(names):
            copy_name = f"{name}~copy"
            if disguise == "partial copies":
                host = names[(number + shift) % len(names)]  # each file hosts one copy
                cls[copy_name] = partial_copy(files[name], files[host], rng, starter)
                origins[copy_name] = {name, host}
            else:
                cls[copy_name] = DISGUISES[disguise](files[name], rng)
                origins[copy_name] = {name}
            copies.add(frozenset((name, copy_name)))
        skip = {
            frozenset((a, b))
            for a, b in itertools.combinations(cls, 2)
            if origins[a] & origins[b] and frozenset((a, b)) not in copies
        }
        classes.append((cls, copies, skip))
    return classes


def measure(scorer: Scorer, disguise: str, seed: int) -> tuple[float, float, float, float]:
    """AUC, recall at zero false positives, the best honest score, seconds."""
    positives, negatives, seconds = [], [], 0.0
    for cls, copies, skip in build(disguise, seed):
        began = time.process_time()  # the machine is shared: its own time, not the wall's
        scores = scorer(cls)
        seconds += time.process_time() - began
        for pair in itertools.combinations(cls, 2):
            key = frozenset(pair)
            if key in skip:
                continue
            (positives if key in copies else negatives).append(scores.get(key, 0.0))
    return (
        auc(positives, negatives),
        recall_at_zero_fp(positives, negatives),
        max(negatives),
        seconds,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--copydetect", action="store_true", help="also measure copydetect")
    args = parser.parse_args()
    tools: dict[str, Scorer] = {"kit": kit_scores}
    if args.copydetect:
        tools["copydetect"] = copydetect_scores
    sizes = [len(build("comments", args.seed)[i][0]) // 2 for i in (0, 1)]
    print(f"honest files: Teeko2 {sizes[0]}, Connect Four {sizes[1]}; seed {args.seed}")
    print("| disguise | tool | ROC AUC | recall at 0 FP | best honest pair | CPU seconds |")
    print("| --- | --- | --- | --- | --- | --- |")
    total = dict.fromkeys(tools, 0.0)
    for disguise in [*DISGUISES, "partial copies"]:
        for tool, scorer in tools.items():
            area, recall, top, seconds = measure(scorer, disguise, args.seed)
            total[tool] += seconds
            print(
                f"| {disguise} | {tool} | {area:.3f} | {recall:.2f} | {top:.2f} | {seconds:.1f} |"
            )
    print("seconds in all: " + ", ".join(f"{t} {s:.1f}" for t, s in total.items()))


if __name__ == "__main__":
    main()
