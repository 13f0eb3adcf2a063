"""The judges every kind of the book's checks shares: what came back from the student's boards
and search, read as the answer it should be, and what is wrong with it in one sentence.

Each judge is pure: a reply (plain data from the driver) in, None (right), a :class:`Noted`
(right with a remark) or the problem out. A judge of one of many seeded positions answers a
wrong reply with a :class:`Verdict` whose ``share`` is a near miss's: the kind loses all its
points only when it is wrong on every position asked (``grading/scoring.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from autograder.games.boardabc import c4
from autograder.games.boardabc import tictactoe as ttt
from autograder.games.connect4.rules import Position
from autograder.games.pack import Noted, Verdict

__all__ = [
    "Judge",
    "NEAR_MISS",
    "error",
    "shown",
    "number",
    "ttt_request",
    "c4_request",
    "near",
    "buildable",
    "moves_judge",
    "flag_judge",
    "turn_judge",
    "move_judge",
    "played",
]

Judge = Callable[[Mapping[str, Any]], str | Verdict | Noted | None]
# What a fault seen on some of the positions asked costs of its kind: a near miss (the rule is
# right elsewhere); a kind wrong on every position loses all of it.
NEAR_MISS = 0.5


def ttt_request(pos: ttt.TicTacToe, **more: Any) -> dict[str, Any]:
    return {"game": "tictactoe", "cells": list(pos.cells), "turn": pos.turn, **more}


def c4_request(pos: Position, **more: Any) -> dict[str, Any]:
    return {"game": "connectfour", "columns": c4.columns(pos), "turn": c4.BOOK[pos.turn], **more}


def error(reply: Mapping[str, Any]) -> str | None:
    said = reply.get("error")
    return str(said) if said is not None else None


def shown(values: object) -> str:
    return repr(values)[:120]


def number(raw: object) -> float | None:
    """A number the driver sent (as text: the runner's JSON carries no floats), or None."""
    if isinstance(raw, bool) or not isinstance(raw, str | int):
        return None
    try:
        return float(raw)
    except ValueError:
        return None


def buildable(judge: Judge) -> Judge:
    """``judge``, and a position the student's own board class cannot build (a column that is
    full too early cannot take its sixth piece) is not charged to the kind asking about it:
    the fault is charged where it shows, and a kind that cannot build any position loses all
    (``grading/scoring.py``: a kind wrong on every check)."""

    def judged(reply: Mapping[str, Any]) -> str | Verdict | Noted | None:
        if reply.get("unbuilt") is True:
            return Verdict(
                f"{error(reply)}: this position cannot be built with your board class, so it "
                "costs nothing here, unless your class can build none of the positions asked",
                share=0.0,
            )
        return judge(reply)

    return judged


def near(judge: Judge) -> Judge:
    """``judge`` of a reply the driver could answer (else its error is the fault), whose faults
    are near misses: one of many positions asked of the same rule."""

    def judged(reply: Mapping[str, Any]) -> str | Verdict | Noted | None:
        problem = error(reply)
        verdict = judge(reply) if problem is None else problem
        if isinstance(verdict, str):
            return Verdict(verdict, share=NEAR_MISS)
        return verdict

    return judged


def moves_judge(name: str, expected: list[int], won: bool) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        raw = reply.get("value")
        if not isinstance(raw, list | tuple):
            return f"legal_moves should be a list of {name}, got {shown(raw)}"
        try:
            got = sorted(int(m) for m in raw)
        except (TypeError, ValueError):
            return f"legal_moves should hold {name} as ints, got {shown(raw)}"
        if got == expected or (won and not got):
            return None
        return f"legal_moves is {shown(list(raw))}; the legal {name} are {expected}"

    return near(judge)


def flag_judge(name: str, expected: bool, why: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        raw = reply.get("value")
        if not isinstance(raw, bool | int):
            return f"{name} should be True or False, got {shown(raw)}"
        if bool(raw) == expected:
            return None
        return f"{name} is {bool(raw)}; it should be {expected}: {why}"

    return near(judge)


def turn_judge(expected: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if reply.get("piece") == expected:
            return None
        return f"turn is {str(reply.get('shown'))[:80]}; {expected} is to move"

    return near(judge)


def move_judge(location: int, cells: Any, turn: str) -> Judge:
    def judge(reply: Mapping[str, Any]) -> str | None:
        if reply.get("same"):
            return f"move({location}) returned the board it was called on; return a new board"
        if reply.get("changed"):
            return (
                f"move({location}) changed the board it was called on; copy the position and "
                "change the copy"
            )
        if reply.get("cells") is None:
            return (
                f"after move({location}) the new board's squares cannot be read: the grader "
                "reads them from the board's position attribute, a list of pieces as the "
                "book's constructor keeps it; keep that name and shape"
            )
        if reply.get("cells") != cells:
            return (
                f"after move({location}) the new board's position is "
                f"{shown(reply.get('cells'))}; it should be {shown(cells)}"
            )
        if reply.get("turn") != turn:
            return (
                f"after move({location}) it is {reply.get('turn')!r} to move; it should be {turn}"
            )
        return None

    return near(judge)


def played(reply: Mapping[str, Any], legal: list[int], what: str) -> int | str:
    """The move ``find_best_move`` returned, or what is wrong with it."""
    if (problem := error(reply)) is not None:
        return problem
    raw = reply.get("move")
    if isinstance(raw, bool) or not isinstance(raw, int):
        return f"find_best_move returned {shown(raw)}, not a {what} number"
    if raw not in legal:
        return f"find_best_move returned {raw}, which is not a legal {what}; legal: {legal}"
    return raw
