"""Disguises a copier might apply to a Python file, written with ``ast``: each takes the source
and a random generator and returns the disguised source. Used by bench/similarity_bench.py.

The disguises change what a program looks like and keep what it does (a disguise that broke
the program would be noticed by the grader): comments, names, the order of functions,
rewritten expressions, rewritten control flow, padding with statements that do nothing, all
at once, and a partial copy (a few functions of one file put into another).
"""

from __future__ import annotations

import ast
import copy
import random
from collections.abc import Callable

__all__ = ["DISGUISES", "partial_copy", "rename"]

_WORDS = ["value", "item", "data", "temp", "result", "node", "piece", "spot", "cell", "grid"]


def _defined(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            if not node.name.startswith("__"):
                names.add(node.name)
        elif isinstance(node, ast.arg) and node.arg != "self":
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    # the homework's interface keeps its names: the grader calls them
    keep = {"make_move", "opponent_move", "place_piece", "print_board", "game_value", "board"}
    keep |= {"pieces", "my_piece", "opp", "main", "succ", "heuristic_game_value"}
    keep |= {"max_value", "min_value", "Teeko2Player", "TeekoPlayer", "Connect4Player"}
    return names - keep


def rename(source: str, rng: random.Random) -> str:
    """Every name the file defines (but the homework's interface) renamed."""
    tree = ast.parse(source)
    names = {n: f"{rng.choice(_WORDS)}_{i}" for i, n in enumerate(sorted(_defined(tree)))}

    class Renamer(ast.NodeTransformer):
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
            node.name = names.get(node.name, node.name)
            return node

    return ast.unparse(Renamer().visit(tree)) + "\n"


def comments(source: str, rng: random.Random) -> str:
    """Comments dropped and others written, docstrings reworded, blank lines moved."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        said = first.value if isinstance(first, ast.Expr) else None
        if isinstance(said, ast.Constant) and isinstance(said.value, str):
            said.value = f"{rng.choice(_WORDS)} helper, my own words"
    out = []
    for line in ast.unparse(tree).split("\n"):
        indent = line[: len(line) - len(line.lstrip())]
        if line.strip() and rng.random() < 0.3:
            out.append(f"{indent}# {rng.choice(_WORDS)}: {rng.choice(_WORDS)} step")
        out.append(line)
        if rng.random() < 0.1:
            out.append("")
    return "\n".join(out) + "\n"


def reorder(source: str, rng: random.Random) -> str:
    """Functions and methods shuffled within their module or class."""
    tree = ast.parse(source)
    for node in [tree, *(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef))]:
        spots = [i for i, s in enumerate(node.body) if isinstance(s, ast.FunctionDef)]
        moved = [node.body[i] for i in spots]
        rng.shuffle(moved)
        for i, fn in zip(spots, moved, strict=True):
            node.body[i] = fn
    return ast.unparse(tree) + "\n"


_FLIP = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE}
_SWAP = (ast.Add, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)


class _Expressions(ast.NodeTransformer):
    """``a + b`` as ``b + a``, ``x += e`` as ``x = x + e`` (and back), ``a < b`` as ``b > a``,
    ``a == b`` as ``b == a``, ``a and b`` as ``b and a``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, _SWAP) and self.rng.random() < 0.7:
            node.left, node.right = node.right, node.left
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) == 1 and self.rng.random() < 0.7:
            op = type(node.ops[0])
            if op in _FLIP:
                return ast.Compare(node.comparators[0], [_FLIP[op]()], [node.left])
            if op in (ast.Eq, ast.NotEq):
                return ast.Compare(node.comparators[0], [op()], [node.left])
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        if self.rng.random() < 0.7:
            node.values.reverse()
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.target, ast.Name) and self.rng.random() < 0.8:
            value = ast.BinOp(ast.Name(node.target.id, ast.Load()), node.op, node.value)
            return ast.Assign([node.target], value, lineno=node.lineno)
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST:
        self.generic_visit(node)
        [target, *more] = node.targets
        value = node.value
        if (
            not more
            and isinstance(target, ast.Name)
            and isinstance(value, ast.BinOp)
            and isinstance(value.left, ast.Name)
            and value.left.id == target.id
            and self.rng.random() < 0.8
        ):
            return ast.AugAssign(target, value.op, value.right, lineno=node.lineno)
        return node


def expressions(source: str, rng: random.Random) -> str:
    return ast.unparse(_Expressions(rng).visit(ast.parse(source))) + "\n"


class _ControlFlow(ast.NodeTransformer):
    """``for i in range(a, b)`` as a counting ``while``; ``if c: x else: y`` as ``if not c: y
    else: x``; an ``elif`` as ``else: if``; ``if c: return x`` then ``return y`` with an
    ``else``; ``v = a if c else b`` as an ``if`` statement."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.count = 0

    def visit_For(self, node: ast.For) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        it = node.iter
        if (
            isinstance(node.target, ast.Name)
            and isinstance(it, ast.Call)
            and isinstance(it.func, ast.Name)
            and it.func.id == "range"
            and 1 <= len(it.args) <= 2
            and not node.orelse
            and not any(isinstance(n, ast.Continue) for n in ast.walk(node))
            and self.rng.random() < 0.8
        ):
            name = node.target.id
            start = it.args[0] if len(it.args) == 2 else ast.Constant(0)
            stop = it.args[-1]
            bump = ast.AugAssign(ast.Name(name, ast.Store()), ast.Add(), ast.Constant(1))
            test = ast.Compare(ast.Name(name, ast.Load()), [ast.Lt()], [stop])
            init = ast.Assign([ast.Name(name, ast.Store())], start, lineno=node.lineno)
            loop = ast.While(test, [*node.body, bump], [])
            return [init, loop]
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if node.orelse and self.rng.random() < 0.5:
            node.test = ast.UnaryOp(ast.Not(), node.test)
            node.body, node.orelse = node.orelse, node.body
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        self.generic_visit(node)
        body = node.body
        for i in range(len(body) - 1):
            one, after = body[i], body[i + 1]
            if (
                isinstance(one, ast.If)
                and not one.orelse
                and one.body
                and isinstance(one.body[-1], ast.Return)
                and isinstance(after, ast.Return)
                and i + 2 == len(body)
            ):
                one.orelse = [after]
                node.body = body[: i + 1]
                break
        return node


def control_flow(source: str, rng: random.Random) -> str:
    return ast.unparse(_ControlFlow(rng).visit(ast.parse(source))) + "\n"


def _useless(rng: random.Random, number: int) -> ast.stmt:
    name = f"{rng.choice(_WORDS)}_pad{number}"
    kind = rng.randrange(4)
    if kind == 0:
        return ast.Assign([ast.Name(name, ast.Store())], ast.Constant(rng.randrange(100)), lineno=0)
    if kind == 1:
        return ast.Pass()
    if kind == 2:
        body = [ast.Assign([ast.Name(name, ast.Store())], ast.Constant(0), lineno=0)]
        return ast.If(ast.Constant(False), body, [])
    value = ast.BinOp(ast.Constant(rng.randrange(9)), ast.Mult(), ast.Constant(2))
    return ast.Assign([ast.Name(name, ast.Store())], value, lineno=0)


def padding(source: str, rng: random.Random, every: int = 1) -> str:
    """A statement that does nothing after about every ``every``-th statement of every
    function (every one, by default)."""
    tree = ast.parse(source)
    number = 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for holder in [n for n in ast.walk(node) if isinstance(getattr(n, "body", None), list)]:
            body = holder.body
            if not body or not isinstance(body[0], ast.stmt):
                continue
            out = []
            for statement in body:
                out.append(statement)
                if rng.randrange(every) == 0 and not isinstance(statement, ast.Return):
                    number += 1
                    out.append(_useless(rng, number))
            holder.body = out
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def everything(source: str, rng: random.Random) -> str:
    for step in (rename, reorder, expressions, control_flow, padding, comments):
        source = step(source, rng)
    return source


def partial_copy(source: str, host: str, rng: random.Random, given: str = "") -> str:
    """``host`` (another student's own file) with 1 to 3 functions or methods of ``source``,
    picked at random among its author's own (not as in ``given``, the starter) of more than 8
    statements (the ``def`` counted), put in place of the host's of the same name (or
    added); then every name renamed."""
    donor, target = ast.parse(source), ast.parse(host)
    handed = {ast.unparse(n) for n in ast.walk(ast.parse(given)) if isinstance(n, ast.FunctionDef)}
    functions = [
        n
        for n in ast.walk(donor)
        if isinstance(n, ast.FunctionDef)
        and n.name != "__init__"
        and ast.unparse(n) not in handed
        and sum(isinstance(s, ast.stmt) for s in ast.walk(n)) > 8
    ]
    rng.shuffle(functions)
    chosen = [copy.deepcopy(n) for n in functions[: rng.randint(1, 3)]]
    player = next((n for n in target.body if isinstance(n, ast.ClassDef)), None)
    donor_methods = {id(m) for c in ast.walk(donor) if isinstance(c, ast.ClassDef) for m in c.body}
    chosen_ids = {id(n) for n in functions[: len(chosen)]}
    for original, fn in zip(functions[: len(chosen)], chosen, strict=True):
        method = id(original) in donor_methods and id(original) in chosen_ids
        home = player.body if method and player is not None else target.body
        spot = next(
            (i for i, s in enumerate(home) if isinstance(s, ast.FunctionDef) and s.name == fn.name),
            None,
        )
        if spot is None:
            home.append(fn)
        else:
            home[spot] = fn
    return rename(ast.unparse(target) + "\n", rng)


DISGUISES: dict[str, Callable[[str, random.Random], str]] = {
    "comments": comments,
    "renaming": rename,
    "reordering": reorder,
    "expressions": expressions,
    "control flow": control_flow,
    "padding": padding,
    "all at once": everything,
}
