"""Helpers the homework tests share: a homework file's code without its docstrings (to compare
an answer key with its starter), and ``autograder check`` run as a student runs it."""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any


def code(path: Path) -> ast.Module:
    """The module as Python reads it, without its docstrings (comments are gone already)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(body, list)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            body.pop(0)
    return tree


def in_order(part: list[str], whole: list[str]) -> bool:
    """Whether ``part`` is ``whole`` with some items left out."""
    rest = iter(whole)
    return all(item in rest for item in part)


def check(run_cli: Any, path: Path, tmp_path: Path, *extra: str) -> tuple[dict[str, Any], str]:
    """``autograder check PATH --json``: the results and the printed text on one line."""
    out = tmp_path / "results.json"
    done = run_cli("check", str(path), "--json", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(out.read_text()), " ".join(done.stdout.split())


def scores(results: dict[str, Any]) -> dict[str, float]:
    """Each criterion's points in ``check``'s JSON results."""
    return {test["tags"][0]: test["score"] for test in results["tests"]}
