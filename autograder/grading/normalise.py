"""A Python file as the similarity check reads it: its syntax tree with what a disguise can
change and the program's meaning cannot put in one canonical form, written out as a stream of
symbols. Pure.

What is made canonical, each tested in ``tests/test_similarity_normalise.py``:

- names: every name that is not a builtin is one symbol, literals another; comments,
  docstrings, type hints, parentheses and layout are not in a syntax tree at all;
- ``x += e`` is ``x = x + e``; ``a > b`` is ``b < a`` (and ``>=``); the operands of ``+ * & |
  ^ == != is and or`` (a chain of one operator as a whole) are put in a fixed order;
- a ``while`` loop counting a variable up to a bound (``i = a``, ``while i < b:`` ..., ``i +=
  1`` at its end) is ``for i in range(a, b):``; ``if not c: x else: y`` is ``if c: y else: x``;
  an ``else`` after a branch that returns (or raises, breaks, continues) is the code after the
  ``if``; ``if c: v = a else: v = b`` is ``v = a if c else b``; ``elif`` chains and nested
  ``if``s are the same tree already;
- padding is dropped: ``pass``, statements that only compute a value and throw it away,
  ``x = x``, code after a ``return`` in the same block, ``if False:`` blocks, and assignments
  in a function to names the function never reads (when the value calls nothing but pure
  builtins).

Every symbol keeps the lines of the code it came from, for the side-by-side pages, and every
function (methods included) the range of symbols it spans, so functions can be compared one
by one. A file that does not parse is parsed with its failing lines left out, one at a time.
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Stream", "read_tree", "stream"]

_BUILTINS = frozenset(dir(builtins))
_PURE = frozenset(  # builtins that compute a value and do nothing else
    {"abs", "all", "any", "bool", "dict", "divmod", "enumerate", "float", "frozenset", "int"}
    | {"isinstance", "len", "list", "max", "min", "range", "repr", "reversed", "round", "set"}
    | {"sorted", "str", "sum", "tuple", "type", "zip"}
)
_COMMUTATIVE = (ast.Add, ast.Mult, ast.BitAnd, ast.BitOr, ast.BitXor)
_MIRROR: dict[type[ast.cmpop], type[ast.cmpop]] = {ast.Gt: ast.Lt, ast.GtE: ast.LtE}
_SYMMETRIC = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)
_JUMPS = (ast.Return, ast.Raise, ast.Continue, ast.Break)
_MAX_REPAIRS = 50  # failing lines left out before the file is read by its tokens instead


@dataclass(frozen=True)
class Stream:
    """A file's symbols, each with its first and last line, and its functions."""

    symbols: list[str]
    lines: list[tuple[int, int]]
    functions: list[tuple[str, int, int]]  # name, first symbol, one past the last
    problem: str | None = None  # the first line left out, and why


# ---- parsing, around the lines that do not parse -------------------------------------------


def read_tree(text: str) -> tuple[ast.Module | None, str | None]:
    """The file's syntax tree, with each line that stops it parsing replaced by a statement
    that does nothing (``pass``, or ``if 1:`` before an indented block), and the first such
    line in a sentence; None when that does not help."""
    lines = text.split("\n")
    problem = None
    for _ in range(_MAX_REPAIRS):
        try:
            return ast.parse("\n".join(lines)), problem
        except (SyntaxError, ValueError) as err:
            number = getattr(err, "lineno", None) or 0
            if not 1 <= number <= len(lines):
                return None, problem or f"does not parse ({err})"
            why = getattr(err, "msg", str(err))
            problem = problem or f"line {number} does not parse ({why}); compared on the rest"
            lines[number - 1] = _filler(lines, number - 1)
    return None, problem


def _filler(lines: list[str], index: int) -> str:
    line = lines[index]
    indent = line[: len(line) - len(line.lstrip())]
    later = next((n for n in lines[index + 1 :] if n.strip()), "")
    deeper = len(later) - len(later.lstrip()) > len(indent)
    if line.strip() == "pass" or line.strip() == "if 1:":
        return ""  # already replaced once: the block around it is at fault; drop it
    return indent + ("if 1:" if deeper else "pass")


# ---- the canonical tree ---------------------------------------------------------------------


def _key(node: ast.AST) -> str:
    """A node's shape, names and literals aside: what canonical orders sort by."""
    return " ".join(_Writer().symbols_of(node))


def _pure(node: ast.AST) -> bool:
    """Whether evaluating ``node`` can do nothing but compute a value."""
    for child in ast.walk(node):
        if isinstance(child, ast.Call):
            if not (isinstance(child.func, ast.Name) and child.func.id in _PURE):
                return False
        elif isinstance(child, ast.Await | ast.Yield | ast.YieldFrom | ast.NamedExpr):
            return False
    return True


def _flatten(node: ast.expr, op: type[ast.operator]) -> list[ast.expr]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, op):
        return _flatten(node.left, op) + _flatten(node.right, op)
    return [node]


class _Canon(ast.NodeTransformer):
    """Rewrites a tree into the canonical form the module's docstring lists."""

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        self.generic_visit(node)
        target = copy.deepcopy(node.target)
        for child in ast.walk(target):
            if hasattr(child, "ctx"):
                child.ctx = ast.Load()
        value = self.visit(ast.BinOp(target, node.op, node.value))
        return ast.copy_location(ast.Assign([node.target], value), node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is None:
            return None  # a bare hint declares nothing the program does
        made: ast.AST = self.visit(ast.copy_location(ast.Assign([node.target], node.value), node))
        return made

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, _COMMUTATIVE):
            return node
        parts = sorted(_flatten(node, type(node.op)), key=_key)
        built = parts[0]
        for part in parts[1:]:
            built = ast.copy_location(ast.BinOp(built, type(node.op)(), part), node)
        return built

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        node.values = sorted(node.values, key=_key)
        return node

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        if len(node.ops) != 1:
            return node
        op, right = node.ops[0], node.comparators[0]
        if type(op) in _MIRROR:
            return ast.copy_location(ast.Compare(right, [_MIRROR[type(op)]()], [node.left]), node)
        if isinstance(op, _SYMMETRIC) and _key(right) < _key(node.left):
            return ast.copy_location(ast.Compare(right, [op], [node.left]), node)
        return node

    def visit_If(self, node: ast.If) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant):  # if False: ... / if True: ...
            return (node.body if node.test.value else node.orelse) or []
        test = node.test
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and node.orelse:
            node.test, node.body, node.orelse = test.operand, node.orelse, node.body
        if node.body and node.orelse and isinstance(node.body[-1], _JUMPS):
            rest, node.orelse = node.orelse, []
            return [node, *rest]
        chosen = _one_assignment(node)
        return chosen if chosen is not None else node

    def visit_While(self, node: ast.While) -> ast.AST | list[ast.stmt]:
        self.generic_visit(node)
        if isinstance(node.test, ast.Constant) and not node.test.value:
            return node.orelse
        return node

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        self.generic_visit(node)
        return None if _pure(node.value) else node

    def visit_Pass(self, node: ast.Pass) -> None:
        return None

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        self.generic_visit(node)
        [target, *more] = node.targets
        value = node.value
        if not more and isinstance(target, ast.Name) and isinstance(value, ast.Name):
            return None if target.id == value.id else node  # x = x is nothing
        return node

    def visit_Import(self, node: ast.Import) -> None:
        return None  # what a file imports is no evidence; ``import copy`` or ``from copy ...``

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        return None

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, _tidy(block))
        return node


def _one_assignment(node: ast.If) -> ast.stmt | None:
    """``if c: v = a else: v = b`` as ``v = a if c else b``; None for any other ``if``."""
    if len(node.body) != 1 or len(node.orelse) != 1:
        return None
    one, other = node.body[0], node.orelse[0]
    if not (isinstance(one, ast.Assign) and isinstance(other, ast.Assign)):
        return None
    if len(one.targets) != 1 or len(other.targets) != 1:
        return None
    if ast.dump(one.targets[0]) != ast.dump(other.targets[0]):
        return None
    chosen = ast.IfExp(node.test, one.value, other.value)
    return ast.copy_location(ast.Assign(one.targets, ast.copy_location(chosen, node)), node)


def _tidy(block: list[ast.stmt]) -> list[ast.stmt]:
    """A block without what follows a jump, with counting ``while`` loops made ``for``."""
    out: list[ast.stmt] = []
    for statement in block:
        out.append(statement)
        if isinstance(statement, ast.While):
            made = _counting_loop(out)
            if made is not None:
                out[-2:] = made
        if isinstance(statement, _JUMPS):
            break
    return out


def _counting_loop(out: list[ast.stmt]) -> list[ast.stmt] | None:
    """The last statement (a ``while``) as a ``for`` over ``range`` when it counts a name up
    by one to a bound (``while i < n: ...; i = i + 1``); the statement before it, when it
    sets the name's start, is folded in. None when it is another loop."""
    loop = out[-1]
    assert isinstance(loop, ast.While)
    test = loop.test
    if loop.orelse or not loop.body or not isinstance(test, ast.Compare):
        return None
    if len(test.ops) != 1 or not isinstance(test.ops[0], ast.Lt | ast.LtE):
        return None
    counter = test.left
    if not isinstance(counter, ast.Name):
        return None
    last = loop.body[-1]
    if not (
        isinstance(last, ast.Assign)
        and len(last.targets) == 1
        and isinstance(last.targets[0], ast.Name)
        and last.targets[0].id == counter.id
        and isinstance(last.value, ast.BinOp)
        and isinstance(last.value.op, ast.Add)
        and sorted(map(ast.dump, (last.value.left, last.value.right)))
        == sorted(map(ast.dump, (ast.Constant(1), ast.Name(counter.id, ast.Load()))))
    ):
        return None
    body = loop.body[:-1]
    for child in ast.walk(ast.Module(body, [])):
        if isinstance(child, ast.Name) and child.id == counter.id and _stored(child):
            return None  # the body moves the counter too: not a plain count
    bound = test.comparators[0]
    if isinstance(test.ops[0], ast.LtE):  # i <= n counts as far as i < n + 1
        bound = _Canon().visit(ast.BinOp(bound, ast.Add(), ast.Constant(1)))
    before = out[-2] if len(out) > 1 else None
    start: list[ast.expr] = []
    kept: list[ast.stmt] = [before] if before is not None else []
    if (
        isinstance(before, ast.Assign)
        and len(before.targets) == 1
        and isinstance(before.targets[0], ast.Name)
        and before.targets[0].id == counter.id
    ):
        start, kept = [before.value], []
    call = ast.Call(ast.Name("range", ast.Load()), [*start, bound], [])
    target = ast.Name(counter.id, ast.Store())
    made = ast.copy_location(ast.For(target, call, body or [ast.Pass()], [], None), loop)
    return [*kept, made]


def _stored(name: ast.Name) -> bool:
    return isinstance(name.ctx, ast.Store)


def _dead_stores(function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
    """Removes, in place, assignments to names ``function`` never reads (padding), when the
    value does nothing else; until none is left."""
    while True:
        kept: set[str] = set()  # names read, or declared global or nonlocal
        blocks: list[tuple[ast.AST, str, list[ast.stmt]]] = []
        for node in ast.walk(function):
            if isinstance(node, ast.Name):
                if not isinstance(node.ctx, ast.Store):
                    kept.add(node.id)
            elif isinstance(node, ast.Global | ast.Nonlocal):
                kept.update(node.names)
            elif isinstance(node, ast.stmt):
                for field in ("body", "orelse", "finalbody"):
                    block = getattr(node, field, None)
                    if isinstance(block, list) and any(isinstance(s, ast.Assign) for s in block):
                        blocks.append((node, field, block))
        removed = False
        for parent, field, block in blocks:
            keep = [s for s in block if not _unread(s, kept)]
            if len(keep) != len(block):
                setattr(parent, field, keep or [ast.Pass()])
                removed = True
        if not removed:
            return


def _unread(statement: ast.AST, read: set[str]) -> bool:
    return (
        isinstance(statement, ast.Assign)
        and all(isinstance(t, ast.Name) and t.id not in read for t in statement.targets)
        and _pure(statement.value)
    )


# ---- the stream of symbols --------------------------------------------------------------------


class _Writer:
    """Writes a canonical tree out as symbols, in the order of the code, each with its lines."""

    def __init__(self) -> None:
        self.symbols: list[str] = []
        self.lines: list[tuple[int, int]] = []
        self.functions: list[tuple[str, int, int]] = []
        self.where = (0, 0)

    def symbols_of(self, node: ast.AST) -> list[str]:
        self.node(node)
        return self.symbols

    def emit(self, symbol: str) -> None:
        self.symbols.append(symbol)
        self.lines.append(self.where)

    def block(self, body: list[ast.stmt]) -> None:
        self.emit("{")
        for statement in body:
            self.node(statement)
        self.emit("}")

    def node(self, node: ast.AST) -> None:
        first = getattr(node, "lineno", None)
        if first is not None:
            self.where = (first, getattr(node, "end_lineno", None) or first)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.function(node)
        elif isinstance(node, ast.Name):
            self.emit(node.id if node.id in _BUILTINS else "V")
        elif isinstance(node, ast.Attribute):  # a.b is b: self.board and board alike
            if not isinstance(node.value, ast.Name):
                self.node(node.value)
            self.emit(node.attr if node.attr in _BUILTINS else "V")
        elif isinstance(node, ast.Constant):
            named = node.value is None or node.value is True or node.value is False
            self.emit(repr(node.value) if named else "L")
        elif isinstance(node, ast.JoinedStr):
            self.emit("L")
        elif isinstance(node, ast.arg):
            self.emit("V")
        else:
            self.generic(node)

    def function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        begin = len(self.symbols)
        self.emit("def")
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            self.node(arg)
        for default in node.args.defaults:
            self.node(default)
        self.block(node.body)
        self.functions.append((node.name, begin, len(self.symbols)))

    def generic(self, node: ast.AST) -> None:
        label, role, fields = _shape(type(node))
        if role != _QUIET:
            self.emit(label)
        if role == _LEAF:
            return
        for field in fields:
            value = getattr(node, field, None)
            if isinstance(value, list):
                if value and isinstance(value[0], ast.stmt):
                    self.block(value)
                else:
                    for item in value:
                        if isinstance(item, ast.AST):
                            self.node(item)
            elif isinstance(value, ast.AST):
                self.node(value)


_QUIET, _LEAF, _BRANCH = 0, 1, 2  # written: nothing itself; its label alone; label, children
_SHAPES: dict[type[ast.AST], tuple[str, int, tuple[str, ...]]] = {}
_UNWRITTEN = frozenset({"annotation", "returns", "type_comment", "decorator_list"})


def _shape(kind: type[ast.AST]) -> tuple[str, int, tuple[str, ...]]:
    """How a kind of node is written: its label, whether it is (see ``_QUIET``), and the
    fields to write after it."""
    found = _SHAPES.get(kind)
    if found is None:
        if issubclass(kind, ast.operator | ast.boolop | ast.cmpop | ast.unaryop):
            role = _LEAF
        elif issubclass(kind, ast.stmt | ast.expr | ast.excepthandler | ast.comprehension):
            role = _BRANCH
        else:
            role = _QUIET
        fields = () if issubclass(kind, ast.expr_context) else kind._fields
        found = _SHAPES[kind] = (
            kind.__name__,
            role,
            tuple(f for f in fields if f not in _UNWRITTEN),
        )
    return found


def _outermost(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions and its classes' methods (a nested function is in its own)."""
    for node in tree.body:
        inside = node.body if isinstance(node, ast.ClassDef) else [node]
        for one in inside:
            if isinstance(one, ast.FunctionDef | ast.AsyncFunctionDef):
                yield one


def stream(text: str) -> Stream | None:
    """``text`` read as a canonical stream of symbols; None when it does not parse even with
    its failing lines left out (then read it by its tokens)."""
    try:
        tree, problem = read_tree(text)
        if tree is None:
            return None
        for function in list(_outermost(tree)):
            _dead_stores(function)
        tree = _Canon().visit(tree)
        writer = _Writer()
        for statement in tree.body:
            writer.node(statement)
    except (RecursionError, MemoryError):  # nested past what a tree walk can follow
        return None
    return Stream(writer.symbols, writer.lines, writer.functions, problem)
