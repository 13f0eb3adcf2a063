"""``autograder similarity``: disguised copies found, the starter and honest solutions not.

The classes are built here from the kit's own files: three honest Teeko2 players written
independently (the strong solution, the answer key, the example class's greedy player), the
untouched starter, and copies put through :func:`disguise` (every name the file defines
renamed, the order of functions and methods reversed, every string changed, comments dropped
and the code reformatted by ``ast.unparse``).
"""

from __future__ import annotations

import ast
import csv
import importlib.util
import json
import random
import re
import sys
from pathlib import Path

import pytest

from autograder.classroom.similarity import compare_class, kit_boilerplate, write_similarity
from autograder.games import find_assignment
from autograder.grading.similarity import Pair, Settings, SourceFile, compare, fingerprint
from autograder.grading.similarity_report import pair_file
from tests.conftest import ROOT

TEEKO2 = find_assignment("teeko2")
PATTERN = r"hw8_(?P<netid>\w+)\.zip"
STARTER = (ROOT / "starter" / "teeko2" / "game.py").read_text()
SOLUTION = (ROOT / "solution" / "teeko2" / "game.py").read_text()
ANSWER_KEY = (ROOT / "answer_key" / "teeko2" / "game.py").read_text()


def _greedy_player() -> str:
    """The example class's player: written apart from the kit's solution and answer key."""
    spec = importlib.util.spec_from_file_location(
        "make_examples", ROOT / "examples" / "make_examples.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["make_examples"] = module
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["make_examples"]
    return str(module.PLAYER)


GREEDY = _greedy_player()


def disguise(source: str, seed: int = 1) -> str:
    """``source`` as a student hiding a copy would hand it in: every name it defines renamed,
    functions and methods in reverse order, strings changed, comments gone, reformatted."""
    tree = ast.parse(source)
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            defined.add(node.id if isinstance(node, ast.Name) else node.attr)
    rng = random.Random(seed)
    names = {n: f"{rng.choice(['foo', 'tmp', 'my'])}_{i}" for i, n in enumerate(sorted(defined))}

    class Disguise(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            node.id = names.get(node.id, node.id)
            return node

        def visit_arg(self, node: ast.arg) -> ast.arg:
            node.arg = names.get(node.arg, node.arg)
            return node

        def visit_Attribute(self, node: ast.Attribute) -> ast.Attribute:
            self.generic_visit(node)
            node.attr = names.get(node.attr, node.attr)
            return node

        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
            self.generic_visit(node)
            node.name = names.get(node.name, node.name)
            return node

        def visit_ClassDef(self, node: ast.ClassDef) -> ast.ClassDef:
            self.generic_visit(node)
            node.body = _reversed_functions(node.body)
            return node

        def visit_Constant(self, node: ast.Constant) -> ast.Constant:
            if isinstance(node.value, str):
                node.value = f"text {len(node.value)}"
            return node

    tree = Disguise().visit(tree)
    tree.body = _reversed_functions(tree.body)
    text = ast.unparse(tree) + "\n"
    assert text.count("\n") > 50 and "#" not in text
    return text


def _reversed_functions(body: list[ast.stmt]) -> list[ast.stmt]:
    functions = iter(reversed([n for n in body if isinstance(n, ast.FunctionDef)]))
    return [next(functions) if isinstance(n, ast.FunctionDef) else n for n in body]


def _class(folder: Path, students: dict[str, str]) -> Path:
    for name, text in students.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "game.py").write_text(text)
    return folder


def _compare(folder: Path, **options):  # type: ignore[no-untyped-def]
    ignore = options.pop("ignore", kit_boilerplate(TEEKO2))
    return compare_class([folder], TEEKO2, PATTERN, ignore=ignore, **options)[0]


def _pair_set(pairs) -> set[frozenset[str]]:  # type: ignore[no-untyped-def]
    return {frozenset((p.a, p.b)) for p in pairs}


# ---- the class: copies at the top, the starter and honest solutions not flagged --------------


def test_disguised_copies_rank_at_the_top_and_only_they_are_flagged(tmp_path):
    folder = _class(
        tmp_path / "class",
        {
            "alice": SOLUTION,
            "bob": disguise(SOLUTION),  # alice's, disguised
            "carol": ANSWER_KEY,
            "frank": disguise(ANSWER_KEY, seed=2),  # carol's, disguised
            "dave": GREEDY,
            "erin": STARTER,  # handed in untouched
            "gina": (ROOT / "answer_key" / "connect4" / "game.py").read_text(),  # another game
        },
    )
    comparison = _compare(folder)
    copies = {frozenset(("alice", "bob")), frozenset(("carol", "frank"))}
    assert _pair_set(comparison.pairs[:2]) == copies
    assert _pair_set(p for p in comparison.pairs if p.flagged) == copies
    for pair in comparison.pairs[:2]:
        assert min(pair.share_a, pair.share_b) >= 0.75, pair
    honest = [p for p in comparison.pairs if frozenset((p.a, p.b)) not in copies]
    assert max(p.score for p in honest) < 0.35, honest[0]
    assert comparison.own["erin"] == 0, "the untouched starter has no code of its own"
    assert all("erin" not in (p.a, p.b) for p in comparison.pairs)
    assert comparison.closest()["bob"].b == "bob" and comparison.closest()["bob"].a == "alice"


def test_the_starter_never_counts_as_shared(tmp_path):
    folder = _class(tmp_path / "class", {"ann": STARTER, "ben": disguise(STARTER)})
    assert _compare(folder).pairs == ()
    without = _compare(folder, ignore=[])  # the same class with the starter counted
    assert [p.flagged for p in without.pairs] == [True]


def test_the_answer_key_counts_only_until_the_instructor_says_it_was_handed_out(tmp_path):
    folder = _class(tmp_path / "class", {"ann": ANSWER_KEY, "ben": disguise(ANSWER_KEY)})
    assert [p.flagged for p in _compare(folder).pairs] == [True]
    handed_out = kit_boilerplate(TEEKO2, answer_key=True)
    assert _compare(folder, ignore=handed_out).pairs == ()


def test_a_renamed_copy_of_an_archived_solution_is_matched_to_the_archive(tmp_path):
    folder = _class(
        tmp_path / "class",
        {"alice": SOLUTION, "carol": ANSWER_KEY, "erin": STARTER, "hank": disguise(GREEDY, 3)},
    )
    archive = tmp_path / "spring"
    archive.mkdir()
    (archive / "public_copy.py").write_text(GREEDY)
    (archive / "same_again.py").write_text(GREEDY)  # archives are not compared with each other
    comparison = _compare(folder, archives=[archive])
    flagged = _pair_set(p for p in comparison.pairs if p.flagged)
    assert flagged == {
        frozenset(("hank", "spring/public_copy")),
        frozenset(("hank", "spring/same_again")),
    }
    assert frozenset(("spring/public_copy", "spring/same_again")) not in _pair_set(comparison.pairs)
    assert "spring/public_copy" not in comparison.closest(), "only students have a closest match"


# ---- the engine: what a disguise cannot change ----------------------------------------------


def _document(name: str, text: str, filename: str = "game.py"):  # type: ignore[no-untyped-def]
    return fingerprint(name, [SourceFile(filename, text)])


def test_names_literals_comments_docstrings_and_hints_leave_the_fingerprints_as_they_were():
    original = (
        "def score(board, piece):\n"
        '    """Count the pieces."""\n'
        "    total = 0  # running sum\n"
        "    for row in board:\n"
        "        for cell in row:\n"
        "            if cell == piece:\n"
        "                total += 1\n"
        "    return (total * 10) - len(board)\n"
    )
    renamed = (
        "def f(b: list[list[str]], p: str) -> int:\n"
        "    t: int = 5\n"
        "\n"
        "    for r in b:\n"
        "        for c in r:\n"
        "            if c == p:\n"
        "                t += 3\n"
        "    return t * 99 - len(b)\n"
    )
    assert _document("a", original).hashes == _document("b", renamed).hashes
    changed = renamed.replace("t += 3", "t -= 3")
    assert _document("a", original).hashes != _document("c", changed).hashes


def test_a_method_made_a_function_and_a_module_imported_by_name_read_the_same():
    method = (
        "x = copy.deepcopy(self.board[r])\n"
        "for cell in self.cells(x):\n"
        "    self.total += self.score(cell, self.my_piece)\n"
    )
    function = "x = deepcopy(board[r])\nfor cell in cells(x):\n    total += score(cell, my_piece)\n"
    one, other = _document("a", method), _document("b", function)
    assert one.grams and one.grams == other.grams
    assert one.grams != _document("c", function.replace("+=", "-=")).grams


def test_a_file_that_does_not_tokenize_is_compared_on_the_rest_with_a_note():
    broken = SOLUTION.replace("def ", "def def ", 1) + '\nx = """never closed\n'
    document = _document("broken", broken)
    assert document.notes and "does not parse" in document.notes[0]
    whole = _document("whole", SOLUTION)
    comparison = compare([document, whole])
    assert comparison.pairs[0].flagged and comparison.pairs[0].share_a > 0.9


def test_a_notebook_is_compared_on_its_code_cells(tmp_path):
    cells = [
        {"cell_type": "markdown", "source": ["# my homework"]},
        {"cell_type": "code", "source": ["%matplotlib inline\n", *SOLUTION.splitlines(True)]},
    ]
    notebook = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    folder = tmp_path / "class"
    _class(folder, {"alice": disguise(SOLUTION), "carol": ANSWER_KEY})
    (folder / "nora").mkdir()
    (folder / "nora" / "homework.ipynb").write_text(json.dumps(notebook))
    (folder / "nora" / "helper.py").write_text("x = 1\n")  # intake takes a folder with .py
    comparison = _compare(folder)
    top = comparison.pairs[0]
    assert {top.a, top.b} == {"alice", "nora"} and top.flagged
    nora = next(d for d in comparison.documents if d.name == "nora")
    assert [f.name for f in nora.files] == ["helper.py", "homework.ipynb"]  # not intake's module
    assert not nora.notes  # taken as grade takes it: the folder's notebook is the homework
    where = top.function_b if top.b == "nora" else top.function_a
    function, first, last = re.fullmatch(
        r"(\w+), cell 1, lines (\d+)-(\d+) of homework.ipynb", where
    ).groups()  # the notebook's own coordinates: its line 1 is the magic, the file's line 1 next
    assert SOLUTION.splitlines()[int(first) - 2].lstrip().startswith(f"def {function}(")
    assert int(last) > int(first)


def test_a_copy_split_over_two_files_is_found(tmp_path):
    tree = ast.parse(SOLUTION)
    half = len(tree.body) // 2
    first = ast.unparse(ast.Module(tree.body[:half], [])) + "\n"
    second = ast.unparse(ast.Module(tree.body[half:], [])) + "\n"
    folder = _class(tmp_path / "class", {"alice": SOLUTION, "carol": ANSWER_KEY})
    (folder / "sam").mkdir()
    (folder / "sam" / "game.py").write_text("from helpers import *\n" + second)
    (folder / "sam" / "helpers.py").write_text(first)
    top = _compare(folder).pairs[0]
    assert {top.a, top.b} == {"alice", "sam"} and top.flagged


# ---- the command line and the pages ---------------------------------------------------------


def test_the_command_writes_the_report_and_says_where(tmp_path, run_cli):
    hostile = (
        SOLUTION.replace('"""', '"""</div><script>alert(1)</script>', 1)
        + "\n# </pre><img src=x onerror=alert(2)>\n"
    )
    folder = _class(
        tmp_path / "class",
        {"alice": hostile, "bob": disguise(SOLUTION), "carol": ANSWER_KEY, "erin": STARTER},
    )
    out = tmp_path / "report"
    done = run_cli("similarity", str(folder), "-a", "teeko2", "--out", str(out))
    assert done.returncode == 0
    assert done.stdout.split() == [str(out / "similarity.csv"), str(out / "similarity.html")]
    assert (
        "4 submissions compared" in done.stderr and "1 pairs at or above 60% flagged" in done.stderr
    )
    rows = list(csv.DictReader((out / "similarity.csv").open()))
    assert (rows[0]["a"], rows[0]["b"], rows[0]["flagged"]) == ("alice", "bob", "yes")
    assert all(row["flagged"] == "" for row in rows[1:])
    index = (out / "similarity.html").read_text()
    assert 'href="pairs/alice--bob.html"' in index
    page = (out / "pairs" / "alice--bob.html").read_text()
    assert "<script>" not in page and "<img" not in page
    assert "&lt;/div&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count("matched region") > 100  # the copied lines, highlighted on both sides
    assert "http" not in page.replace("http-equiv", "")  # offline: nothing fetched


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--threshold", "2"], "--threshold must be a share between 0 and 1, got 2.0"),
        (["--archive", "nowhere"], "--archive: nowhere does not exist"),
        (["--archive", "{tmp}/class/ann/game.py"], "game.py is not a folder"),
        (["--archive", "{tmp}/empty"], "empty holds no solutions"),
        (["--ignore", "nowhere.py"], "--ignore: nowhere.py does not exist"),
        (["--ignore", "{tmp}/nowhere"], "nowhere does not exist"),
        (["-a", "chess"], "--assignment:"),
    ],
    ids=[
        "threshold",
        "archive",
        "archive-file",
        "archive-empty",
        "ignore",
        "ignore-dir",
        "assignment",
    ],
)
def test_bad_input_is_one_sentence_and_exit_status_2(tmp_path, run_cli, extra, message):
    folder = _class(tmp_path / "class", {"ann": STARTER})
    (tmp_path / "empty").mkdir()
    extra = [word.replace("{tmp}", str(tmp_path)) for word in extra]
    done = run_cli(
        "similarity",
        str(folder),
        "-a",
        "teeko2",
        "--out",
        str(tmp_path / "o"),
        *extra,
        expect_ok=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("autograder: ") and message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "o").exists(), "nothing written"


def test_an_empty_class_is_one_sentence(tmp_path, run_cli):
    (tmp_path / "empty").mkdir()
    done = run_cli(
        "similarity",
        str(tmp_path / "empty"),
        "-a",
        "teeko2",
        "--out",
        str(tmp_path / "o"),
        expect_ok=False,
    )
    assert done.returncode == 2 and "no submissions found in" in done.stderr


@pytest.mark.slow
def test_grade_with_similarity_adds_the_report_to_the_batch(tmp_path, run_cli):
    folder = tmp_path / "class"
    folder.mkdir()
    (folder / "ann.py").write_text(ANSWER_KEY)
    (folder / "ben.py").write_text(disguise(ANSWER_KEY))
    rubric = tmp_path / "quick.toml"
    text = (ROOT / "autograder" / "games" / "teeko" / "rubric.toml").read_text()
    for old, new in (
        ("games = 3 ", "games = 1 "),
        ("drop_probes = 10 ", "drop_probes = 2 "),
        ("move_probes = 10 ", "move_probes = 2 "),
    ):
        assert old in text
        text = text.replace(old, new)
    rubric.write_text(text)
    out = tmp_path / "out"
    done = run_cli(
        "grade",
        str(folder),
        "-a",
        "teeko2",
        "--out",
        str(out),
        "--rubric",
        str(rubric),
        "--similarity",
    )
    assert done.returncode == 0
    assert str(out / "similarity" / "similarity.csv") in done.stdout.split()
    assert (out / "similarity" / "pairs" / "ann--ben.html").is_file()
    assert (out / "grades.csv").is_file()


def test_a_rerun_into_the_same_folder_removes_pages_no_longer_flagged(tmp_path):
    folder = _class(tmp_path / "class", {"alice": SOLUTION, "bob": disguise(SOLUTION)})
    out = tmp_path / "report"
    write_similarity(_compare(folder), out, "Teeko2")
    assert [p.name for p in (out / "pairs").iterdir()] == ["alice--bob.html"]
    (folder / "bob" / "game.py").write_text(ANSWER_KEY)  # bob handed in his own work after all
    write_similarity(_compare(folder), out, "Teeko2")
    assert list((out / "pairs").iterdir()) == []
    assert "alice--bob" not in (out / "similarity.html").read_text()


def test_every_flagged_pair_has_its_page_under_a_name_any_file_system_takes(tmp_path):
    """More than 200 flagged pairs (a threshold set low, a class sharing a solution): each
    has a page, listed on the index; long or unsafe names are cut and told apart."""
    long = "x" * 150
    students = {f"s{n:02d}": GREEDY for n in range(21)}
    students[long] = students["a_b"] = GREEDY
    folder = _class(tmp_path / "class", students)
    comparison = _compare(folder, settings=Settings(common_from=1000))
    flagged = [p for p in comparison.pairs if p.flagged]
    assert len(flagged) == 23 * 22 // 2 > 200
    out = tmp_path / "report"
    write_similarity(comparison, out, "Teeko2")
    pages = list((out / "pairs").iterdir())
    assert len(pages) == len(flagged)
    assert max(len(p.name.encode()) for p in pages) < 160
    index = (out / "similarity.html").read_text()
    assert index.count("flagged: side by side</a>") == len(flagged)
    assert all(f'href="pairs/{p.name}"' in index for p in pages)


def test_page_names_are_safe_short_and_never_shared():
    names = ["a b", "a_b", "a/b", "x" * 300, "x" * 301, "ann"]
    files = {pair_file(Pair(a, "bob", 1, 1, 10, True)) for a in names}
    assert len(files) == len(names)
    assert "pairs/ann--bob.html" in files
    assert all(len(f.encode()) < 160 and " " not in f and f.count("/") == 1 for f in files)


def test_two_archives_of_the_same_name_stay_apart(tmp_path):
    folder = _class(tmp_path / "class", {"hank": disguise(GREEDY, 3), "carol": ANSWER_KEY})
    for term in ("2023", "2024"):
        (tmp_path / term / "public").mkdir(parents=True)
        (tmp_path / term / "public" / "copy.py").write_text(GREEDY)
    archives = [tmp_path / "2023" / "public", tmp_path / "2024" / "public"]
    comparison = _compare(folder, archives=archives)
    flagged = _pair_set(p for p in comparison.pairs if p.flagged)
    assert flagged == {frozenset(("hank", "public/copy")), frozenset(("hank", "public-2/copy"))}


def _own_code(seed: int) -> str:
    """A few functions no other seed writes alike: random statements over random names."""
    rng = random.Random(seed)
    lines = []
    for number in range(6):
        lines.append(f"def helper_{seed}_{number}(a, b):")
        for _ in range(rng.randrange(4, 9)):
            shape = rng.randrange(5)
            if shape == 0:
                lines.append(
                    f"    a = a {rng.choice('+-*')} b {rng.choice('+-*')} {rng.randrange(9)}"
                )
            elif shape == 1:
                lines.append(f"    for i in range({rng.randrange(2, 9)}):")
                lines.append(f"        b {rng.choice('+-*')}= i")
            elif shape == 2:
                lines.append(f"    if a {rng.choice(['<', '>', '==', '!='])} b:")
                lines.append(f"        a, b = b, a {rng.choice('+-')} 1")
            elif shape == 3:
                lines.append(f"    b = [a] * {rng.randrange(2, 5)} + [b]")
            else:
                lines.append(f"    while a > {rng.randrange(9)}:")
                lines.append("        a -= 1")
        lines.append("    return a, b")
    return "\n".join(lines) + "\n"


IDIOM = """
def neighbours(row, col):
    found = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) != (0, 0) and 0 <= row + dr < 5 and 0 <= col + dc < 5:
                found.append((row + dr, col + dc))
    return found


def count(state, piece):
    return sum(row.count(piece) for row in state)
"""


def test_code_most_of_a_class_wrote_alike_is_an_idiom_not_evidence(tmp_path):
    students = {f"s{n:02d}": _own_code(n) + IDIOM for n in range(10)}
    students["s10"] = disguise(students["s03"])  # a copy: shares its own code and the idiom
    comparison = _compare(_class(tmp_path / "class", students))
    assert comparison.common > 5, "the idiom's fingerprints are set aside"
    assert _pair_set(p for p in comparison.pairs if p.flagged) == {frozenset(("s03", "s10"))}
    without = _compare(_class(tmp_path / "again", students), settings=Settings(common_from=100))
    assert without.common == 0
    kept = {frozenset((p.a, p.b)): p.shared for p in comparison.pairs}
    every = {frozenset((p.a, p.b)): p.shared for p in without.pairs}
    honest = [frozenset((f"s{a:02d}", f"s{b:02d}")) for a in range(10) for b in range(a + 1, 10)]
    assert all(every[pair] - kept.get(pair, 0) >= 5 for pair in honest), "the idiom is shared"
    small = _compare(_class(tmp_path / "small", dict(list(students.items())[:4])))
    assert small.common == 0, "in a class of 4 nothing is an idiom"
    assert len(small.pairs) == 6 and min(p.shared for p in small.pairs) >= 5


def test_a_solution_passed_round_a_third_of_the_class_is_reported_not_hidden(tmp_path):
    """Four of ten hand in the same solution, disguised: held by more than 30% of the class,
    it is set aside like an idiom, so no pair is flagged; the report names the four who keep
    little code of their own, and nobody else (the idiom costs the others little)."""
    students = {f"s{n:02d}": _own_code(n) + IDIOM for n in range(6)}
    for n, seed in ((6, 0), (7, 1), (8, 2), (9, 3)):
        students[f"s{n:02d}"] = disguise(SOLUTION, seed=seed) if seed else SOLUTION
    comparison = _compare(_class(tmp_path / "class", students))
    assert [name for name, _, _ in comparison.set_aside] == ["s06", "s07", "s08", "s09"]
    line = comparison.set_aside_line()
    assert line.startswith("4 students keep little code of their own once code held by more ")
    assert "or a solution went round that many students; read their files side by side" in line
    write_similarity(comparison, tmp_path / "out", "Teeko2")
    assert "read their files side by side" in (tmp_path / "out" / "similarity.html").read_text()
    honest = _compare(_class(tmp_path / "honest", {k: students[k] for k in list(students)[:7]}))
    assert honest.set_aside == () and honest.set_aside_line() == ""


def test_the_pair_page_colours_the_copied_code_and_not_the_starter_around_it():
    """Two students paste the same class into the starter: a k-gram shared across the paste's
    edges covers a starter line too, yet only the pasted lines are coloured."""
    from autograder.grading.similarity import boilerplate, matched_lines

    starter = STARTER.splitlines(keepends=True)
    searcher = SOLUTION[SOLUTION.index("class _Searcher") : SOLUTION.index("class Teeko2Player")]
    at = next(n for n, line in enumerate(starter) if line.startswith("def square_name"))
    pasted = range(at + 1, at + 1 + searcher.count("\n"))  # the pasted lines, 1-based
    text = "".join(starter[:at]) + searcher + "".join(starter[at:])
    alice, bob = _document("alice", text), _document("bob", text)
    given = boilerplate([SourceFile("game.py", STARTER)])
    comparison = compare([alice, bob], given)
    left, right = matched_lines(alice, bob, comparison.ignored, comparison.settings)
    coloured = {line for _, line in left}
    assert coloured and coloured <= set(pasted), sorted(coloured - set(pasted))
    assert len(coloured) > len(pasted) / 2
    assert {line for _, line in right} == coloured
