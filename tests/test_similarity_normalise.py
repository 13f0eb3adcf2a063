"""The similarity check's canonical form: each rewrite a disguise makes, and the program's
meaning does not, gives the same fingerprints; a change of meaning does not. Then the
function-by-function comparison (a copied function inside an honest file) and the code a
class shares without being told (a course's own starter)."""

from __future__ import annotations

import ast

import pytest

from autograder.classroom.similarity import compare_class
from autograder.games import find_assignment
from autograder.grading.normalise import stream
from autograder.grading.similarity import SourceFile, compare, fingerprint
from tests.conftest import ROOT

pytestmark = pytest.mark.timeout(120)

SOLUTION = (ROOT / "solution" / "teeko2" / "game.py").read_text()
ANSWER_KEY = (ROOT / "answer_key" / "teeko2" / "game.py").read_text()
STARTER = (ROOT / "starter" / "teeko2" / "game.py").read_text()


def _same(one: str, other: str) -> bool:
    a, b = stream(one), stream(other)
    assert a is not None and b is not None
    return a.symbols == b.symbols


def _body(text: str) -> str:
    """``text`` as the body of a function (padding is judged inside functions)."""
    return "def f(a, b, c, n, board):\n" + "".join(f"    {line}\n" for line in text.split("\n"))


REWRITES = {
    "operand order": ("x = a + b * c", "x = c * b + a"),
    "operand order, and/or": ("ok = a and (b or c)", "ok = (c or b) and a"),
    "equality": ("if a == 3:\n    g()", "if 3 == a:\n    g()"),
    "augmented assignment": ("total += a * 2", "total = total + 2 * a"),
    "mirrored comparison": ("if a > b:\n    g()", "if b < a:\n    g()"),
    "mirrored, or equal": ("if a >= b:\n    g()", "if b <= a:\n    g()"),
    "counting while": (
        "i = 0\nwhile i < n:\n    g(i)\n    i += 1",
        "for i in range(0, n):\n    g(i)",
    ),
    "counting while, to the bound": (
        "i = 1\nwhile i <= n:\n    g(i)\n    i = i + 1",
        "for i in range(1, n + 1):\n    g(i)",
    ),
    "elif chain": (
        "if a:\n    g()\nelif b:\n    h()\nelse:\n    k()",
        "if a:\n    g()\nelse:\n    if b:\n        h()\n    else:\n        k()",
    ),
    "negated branch": ("if not a:\n    g()\nelse:\n    h()", "if a:\n    h()\nelse:\n    g()"),
    "else after return": (
        "if a:\n    return 1\nelse:\n    return 2",
        "if a:\n    return 1\nreturn 2",
    ),
    "conditional expression": (
        "if a:\n    v = 1\nelse:\n    v = 2\ng(v)",
        "v = 1 if a else 2\ng(v)",
    ),
    "padding": (
        "x = a * 2\nreturn x",
        "unused = len(board)\nx = a * 2\npass\nif False:\n    g()\nx = x\n7\nreturn x\ng()",
    ),
    "renamed names, hints, comments": (
        "best = a  # the best\nreturn best",
        'top: int = a\n"""a docstring"""\nreturn top',
    ),
    "imports": ("import copy\nx = copy.deepcopy(a)", "from copy import deepcopy\nx = deepcopy(a)"),
}


@pytest.mark.parametrize(("original", "rewritten"), REWRITES.values(), ids=REWRITES.keys())
def test_a_rewrite_that_keeps_the_meaning_gives_the_same_stream(original, rewritten):
    assert _same(_body(original), _body(rewritten))


CHANGES = {
    "another operator": ("return a + b", "return a - b"),
    "non-commutative order": ("return a - 1", "return 1 - a"),
    "another comparison": ("if a < b:\n    g()", "if a <= b:\n    g()"),
    "a while that is not a count": (
        "i = 0\nwhile i < n:\n    g(i)\n    i += 2",
        "for i in range(0, n):\n    g(i)",
    ),
    "a read store": ("x = a\nreturn x", "x = a\ny = len(x)\nreturn y"),
}


@pytest.mark.parametrize(("original", "changed"), CHANGES.values(), ids=CHANGES.keys())
def test_a_change_of_meaning_changes_the_stream(original, changed):
    assert not _same(_body(original), _body(changed))


def test_code_nested_too_deep_for_a_tree_walk_is_read_by_its_tokens():
    deep = "x = " + " + ".join(f"a{n}" for n in range(5000)) + "\n"
    assert stream(deep) is None
    document = fingerprint("deep", [SourceFile("game.py", deep)])
    assert document.hashes and not document.functions


def test_reordered_functions_give_the_same_fingerprints():
    tree = ast.parse(ANSWER_KEY)
    tree.body.reverse()
    reordered = ast.unparse(tree)
    one = fingerprint("a", [SourceFile("game.py", ANSWER_KEY)])
    other = fingerprint("b", [SourceFile("game.py", reordered)])
    assert len(one.hashes & other.hashes) >= 0.9 * len(one.hashes)


def test_every_function_and_method_is_found_with_its_lines():
    document = fingerprint("a", [SourceFile("game.py", ANSWER_KEY)])
    found = {f.name: f for f in document.functions}
    tree = ast.parse(ANSWER_KEY)
    defined = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert set(found) == set(defined)
    for name, node in defined.items():
        assert found[name].first == node.lineno and found[name].last == node.end_lineno


def _method(source: str, name: str) -> str:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return ast.unparse(node)
    raise AssertionError(name)


def _with_method(host: str, method: str) -> str:
    """``host`` with ``method`` (source, unindented) added to its player class."""
    tree = ast.parse(host)
    player = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    player.body.append(ast.parse(method).body[0])
    return ast.unparse(tree)


def test_a_function_copied_into_an_honest_file_is_found_and_named(tmp_path):
    """The solution's search (its negamax) put into the answer key: a small share of either
    whole file, found by the function-by-function comparison."""
    copied = _method(SOLUTION, "negamax").replace("def negamax", "def look_ahead")
    students = {"alice": SOLUTION, "carol": _with_method(ANSWER_KEY, copied)}
    students["gina"] = (ROOT / "answer_key" / "connect4" / "game.py").read_text()
    documents = [fingerprint(n, [SourceFile("game.py", t)]) for n, t in students.items()]
    comparison = compare(documents)
    top = comparison.pairs[0]
    assert {top.a, top.b} == {"alice", "carol"} and top.flagged
    assert max(top.share_a, top.share_b) < 0.4, "the whole files are mostly not alike"
    assert top.function_share > 0.8
    named = {top.function_a.split(",")[0], top.function_b.split(",")[0]}
    assert named == {"negamax", "look_ahead"}


def test_the_course_starter_nobody_named_is_found_from_the_class(tmp_path):
    """Eight students fill in the same starter, nobody tells the kit which (no boilerplate):
    the starter's code, held by most of the class, is set aside, and only the copy stands
    out."""
    given = {ast.unparse(n) for n in ast.walk(ast.parse(STARTER))}
    own = [
        ast.unparse(node).replace(f"def {node.name}(", f"def own_{number}(")
        for number, node in enumerate(
            n
            for source in (SOLUTION, ANSWER_KEY)
            for n in ast.walk(ast.parse(source))
            if isinstance(n, ast.FunctionDef)
            and ast.unparse(n) not in given
            and len(list(ast.walk(n))) > 150
        )
    ][:8]
    assert len(own) == 8
    students = {f"s{n}": _with_method(STARTER, body) for n, body in enumerate(own)}
    students["copycat"] = _with_method(STARTER, own[0].replace("self, state", "self, board"))
    folder = tmp_path / "class"
    for name, text in students.items():
        (folder / name).mkdir(parents=True)
        (folder / name / "game.py").write_text(text)
    assignment = find_assignment("teeko2")
    comparison = compare_class([folder], assignment, r"hw8_(?P<netid>\w+)\.zip", ignore=[])[0]
    assert comparison.common > 50, "the starter's fingerprints are set aside"
    flagged = {frozenset((p.a, p.b)) for p in comparison.pairs if p.flagged}
    assert flagged == {frozenset(("s0", "copycat"))}
    honest = [p for p in comparison.pairs if "copycat" not in (p.a, p.b)]
    assert max(p.score for p in honest) < 0.35
