"""The student's side of a game: what a course's students hand in and how the kit calls it
(:class:`Student`, its methods' names in :class:`Calls`), and the questions other than a move
a homework may ask (:class:`Check`, judged into a :class:`Verdict` or a :class:`Noted`), with
the numbers a rubric may set for them (:class:`Setting`). A pack holds its own ``Student``
(``pack.py``); an interface maps it to another course's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

__all__ = [
    "Calls",
    "Check",
    "CourseRules",
    "Noted",
    "Setting",
    "Student",
    "Verdict",
    "game_py",
]

P = TypeVar("P")  # a pack's position
M = TypeVar("M")  # a pack's move
V = TypeVar("V")  # a pack's rule variant
P_in = TypeVar("P_in", contravariant=True)  # a position, where it is only given
M_out = TypeVar("M_out", covariant=True)  # a move, where it is only returned


@dataclass(frozen=True)
class Verdict:
    """A judge's answer when one sentence is not all of it."""

    problem: str
    board: str | None = None  # the board it is about, when the check asked about many at once
    # a kind of check whose fault is shown to explain this one (the search, run again with a
    # right win test, plays a right move): reported, and not charged when that kind failed
    explained_by: str = ""
    # how much of its kind's points the fault costs: 1 when it breaks the whole rule (a win
    # test blind to a whole direction), less for a near miss (one edge case); a kind wrong on
    # every check it was asked loses all of them whatever the shares say
    share: float = 1.0


@dataclass(frozen=True)
class Noted:
    """A check's answer that is right but worth a remark in the report, not charged; when
    ``sooner``, the remark is that a sooner win was there, charged if the rubric prefers the
    sooner win (``[tactics] prefer_sooner``)."""

    note: str
    sooner: bool = False


@dataclass(frozen=True)
class Check:
    """One question to the student's code that is not a move: the ``request`` (plain data) goes
    to the driver's ``check`` handler in the sandbox, and ``judge`` (pure, in the grader) reads
    the reply: None when it is right, a :class:`Noted` when it is right with a remark, else
    one sentence saying what is wrong. A value the
    student's code returned travels under ``value`` or ``move``, encoded as a move is
    (``protocol.encode``); the judge sees it decoded. A :class:`Verdict` says more: the board
    of the one position reported when many were asked at once, or what explains the fault."""

    criterion: str  # the id, in ``GamePack.check_criteria``, it earns points for
    kind: str  # what it asks, for the summary: "tic-tac-toe is_win"
    where: str  # which one, for reports: "tic-tac-toe position 3"
    request: Mapping[str, Any]
    judge: Callable[[Mapping[str, Any]], str | Verdict | Noted | None]
    board: str = ""  # the position it asks about, drawn for reports
    # its kind's part of the criterion's points, against the other kinds' (every check of a
    # kind carries the same): how much of the game a fault of that kind breaks
    weight: float = 1.0


@dataclass(frozen=True)
class Setting:
    """A whole number the student's code is called with that a rubric may set, as
    ``[table] key`` (``play.agent_depth``): declared by the pack or interface that uses it,
    with its value when the rubric leaves it out and the least that works (``why`` says why,
    in the sentence a rubric below it gets)."""

    table: str
    key: str
    doc: str
    default: int
    least: int = 1
    why: str = ""

    @property
    def label(self) -> str:
        return f"{self.table}.{self.key}"


@dataclass(frozen=True)
class Calls:
    """The student's methods the course's driver calls, by name, for reports: ``move`` asks
    for a move; ``own`` and ``other`` tell the player its own move and the other side's before
    its next one ("" where the driver tells the student's code nothing: it builds it afresh
    from each position)."""

    move: str = "make_move"
    own: str = "place_piece"
    other: str = "opponent_move"

    @property
    def told(self) -> str:
        """The calls that tell the player the plies since its last move, for messages."""
        return "/".join(name for name in (self.own, self.other) if name) or "the board update"


@dataclass(frozen=True)
class Student(Generic[P, M, V]):
    """One course's student side of a game: the files handed in, how the course's driver
    (child side) calls the student's code and how what comes back is read, how the board and
    the sides are shown to that course, its rubric, starter and solution, and any questions
    other than a move. A pack holds its own (``GamePack.student``); an :class:`Interface`
    presents the same game through another."""

    files: tuple[str, ...]  # what a submission holds; the first is the module to import
    driver: Path  # the child-side module that calls the student's class
    rubric: Path  # the default rubric TOML
    starter: Callable[[V], str]  # its starter, relative to the project's root
    solution: Callable[[V], str]  # its reference solution, likewise
    read_move: Callable[[Any, P], M]  # a raw value -> a move; raises MoveError
    format_problem: Callable[[Any, P], str | None]  # a raw value -> what is inexact
    state: Callable[[P], Any]  # the position as plain data for the driver
    side_names: Mapping[str, str]  # "b" -> "black"
    render: Callable[[P], str]  # the board as the student's program prints it
    student_move: Callable[[M], Any] = lambda move: move  # the move as plain data, for the driver
    # what the student's call gave back, in a report's words; None: its repr (a value
    # returned). A course whose call returns nothing and changes a board says what it did.
    shown: Callable[[Any, P], str] | None = None
    calls: Calls = Calls()  # the student's methods the driver calls, for reports
    # -- checks: the student's code asked questions other than a move (the book's boards) ---
    check_criteria: Mapping[str, str] = field(default_factory=dict)  # id -> name in reports
    checks: Callable[[V, int], Sequence[Check]] = lambda variant, seed: ()  # variant, seed
    # a submission's .py files (name -> source) -> what is missing, in one sentence, or None
    missing: Callable[[Mapping[str, bytes]], str | None] = lambda sources: None
    # -- the numbers a rubric may set for the student's calls (see :class:`Setting`)
    settings: tuple[Setting, ...] = ()


class CourseRules(Protocol[P_in, M_out]):
    """What :func:`game_py` reads from a pack's rules module, by these names: a student's
    value read as a move (raising a ``MoveError`` that says why not), whether it had the exact
    format, and the position as the student's code is given it and prints it."""

    def read_student_move(self, raw: Any, pos: P_in, /) -> M_out: ...

    def format_problem(self, raw: Any, pos: P_in, /) -> str | None: ...

    def to_board(self, pos: P_in, /) -> Any: ...

    def render(self, pos: P_in, /) -> str: ...


def game_py(
    here: Path, folder: Callable[[V], str], rules: CourseRules[P, M], sides: Mapping[str, str]
) -> Student[P, M, V]:
    """The student side of the course's usual homework: one file, ``game.py``, read by the
    ``rules`` module's functions; the pack's ``driver.py`` and ``rubric.toml`` in its package
    (``here``); the starter and solution in ``starter/<folder>/game.py`` and
    ``solution/<folder>/game.py`` (``folder`` of a variant); ``sides``: how the course names
    the sides ("b" -> "black")."""
    return Student(
        ("game.py",),
        here / "driver.py",
        here / "rubric.toml",
        lambda variant: f"starter/{folder(variant)}/game.py",
        lambda variant: f"solution/{folder(variant)}/game.py",
        rules.read_student_move,
        rules.format_problem,
        rules.to_board,
        sides,
        rules.render,
    )
