"""The game-pack seam: all the kit knows about a game is its :class:`GamePack`.

A pack is plain data and pure functions: what kind of game it is (:class:`GameType`: how the
turn passes, what a cell holds, the board's shape), the rules (positions, moves, phases, the
end of a game), the student's side (:class:`~autograder.games.student.Student`: the files a
submission holds, how a returned value is read as a move, what the child runner's driver sends
and expects, the rubric, starter and solution), the grading material (probe positions,
opponents) and its drawing. The turn engine, the referee, scoring, the reports, the batch and
the Gradescope bundle see games only through it; positions, moves and variants are the pack's
own values, handed back to its functions untouched.
"""

from __future__ import annotations

import dataclasses
import operator
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from autograder.games.layout import Layout
from autograder.games.perfect import Exact, Perfect, Tables
from autograder.games.student import (
    Calls,
    Check,
    M,
    Noted,
    P,
    Setting,
    Student,
    Verdict,
    game_py,
)

__all__ = [
    "GamePack",
    "Rules",
    "Drawing",
    "Student",
    "game_py",
    "GameType",
    "Turns",
    "Cells",
    "Calls",
    "AnyPack",
    "Interface",
    "Setting",
    "DEFAULT_INTERFACE",
    "Check",
    "Verdict",
    "Noted",
    "move_marks",
    "Assignment",
    "Variant",
    "Opponent",
    "MoveError",
    "MalformedMoveError",
    "IllegalMoveError",
    "whole_number",
    "plain_int",
    "index_or_none",
    "named",
    "by_name",
    "UnknownAssignmentError",
    "DRAW",
    "Outcome",
    "result_of",
    "shown",
    "must_pass",
    "Rows",
]

Rows = Sequence[Sequence[str | int]]  # a board as drawn: rows of cells (see ``GamePack.cells``)
DRAW = "draw"  # what ``GamePack.result`` says of a game over without a winner (a full board)


def shown(value: Any) -> str:
    """A value a student's code returned, short and with its type, for a message."""
    kind = type(value)
    name = (
        kind.__qualname__
        if kind.__module__ == "builtins"
        else f"{kind.__module__}.{kind.__qualname__}"
    )
    text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    return f"{text} (a {name})"


class MoveError(ValueError):
    """A value ``make_move`` returned that the referee cannot accept; the message says why in
    the student's terms (packs raise subclasses: malformed, illegal)."""


class MalformedMoveError(MoveError):
    """The value is not a move in the course's format at all (wrong shape or type)."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow in this position."""


def whole_number(raw: Any, caller: str, noun: str) -> int:
    """A returned value that names one thing by number (a column, a pit) as an int; any
    integer type is read (the exact format is ``format_problem``'s: :func:`plain_int`).

    :raises MalformedMoveError: for a bool, a str, a list, anything else.
    """
    if isinstance(raw, bool):
        raise MalformedMoveError(f"{caller} returned {raw!r}, a bool: return the {noun}, an int")
    try:
        return operator.index(raw)
    except TypeError:
        hint = f" (return the {noun} alone, not a list)" if isinstance(raw, list | tuple) else ""
        raise MalformedMoveError(
            f"{caller} should return a {noun} number, an int, got {shown(raw)}{hint}"
        ) from None


def plain_int(raw: Any, caller: str) -> str | None:
    """What keeps ``raw`` from the exact format of such a move, a plain ``int``, or None."""
    return None if type(raw) is int else f"{caller} should return a plain int, got {shown(raw)}"


def index_or_none(raw: Any) -> int | None:
    """``raw`` as an int when it is an integer of any type but a bool (drawing a returned
    value, which may be anything), else None."""
    if isinstance(raw, bool):
        return None
    try:
        return operator.index(raw)
    except TypeError:
        return None


def by_name(*variants: V) -> dict[str, V]:
    """A pack's variants under their names, in the order given (the list of assignments')."""
    return {variant.name: variant for variant in variants}


def named(variants: Mapping[str, V], name: str) -> V | None:
    """The variant called ``name`` (any case, surrounding space, or an alias), or None."""
    wanted = name.strip().casefold()
    return next((v for v in variants.values() if wanted in (v.name, *v.aliases)), None)


class UnknownAssignmentError(KeyError):
    """An assignment name no pack knows; the message lists the known ones."""

    def __str__(self) -> str:
        return str(self.args[0])


class Variant(Protocol):
    """What the kit reads of a pack's rule variant."""

    @property
    def name(self) -> str: ...

    @property
    def description(self) -> str: ...

    @property
    def player_class(self) -> str: ...

    @property
    def aliases(self) -> tuple[str, ...]: ...


V = TypeVar("V", bound=Variant)  # a pack's rule variant (``P`` and ``M``: the student side's)

# (position, the referee's seeded generator) -> a legal move; runs in the grader.
Opponent = Callable[[P, random.Random], M]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, in the game's words: ``winner`` is a side, or None for a draw;
    ``reason`` says why ("more discs: 20 to 16", "four in a row", "the board is full")."""

    winner: str | None
    reason: str


@dataclass(frozen=True)
class Rules(Generic[P, M, V]):
    """A game's rules as every game is played: the two sides, the start of a variant, the
    legal moves, a move played and the result. A rules module declares its own (``RULES``);
    the pack holds it (``GamePack.rules``) and the kit reads it as ``pack.play`` and so on."""

    sides: tuple[str, str]  # the two sides, first to move first ("b", "r")
    start: Callable[[V], P]
    legal_moves: Callable[[P], Iterable[M]]
    play: Callable[[P, M], P]  # a new position
    result: Callable[[P], str | None]  # the side that won, DRAW, or None: it goes on

    def random_position(self, variant: V, rng: random.Random, plies: int) -> P | None:
        """The position after ``plies`` random moves from the start (``rng`` choosing), or
        None when the game ended before."""
        pos = self.start(variant)
        for _ in range(plies):
            if self.result(pos) is not None:
                return None
            pos = self.play(pos, rng.choice(list(self.legal_moves(pos))))
        return None if self.result(pos) is not None else pos


@dataclass(frozen=True)
class Drawing(Generic[P]):
    """How a game's positions are drawn, in the HTML reports and on the play page, and how
    the squares a person clicks there are read as a move. A view module declares its own
    (``DRAWING``); the pack holds it (``GamePack.drawing``)."""

    # its rows, top first: a cell holds a character (' ' empty) or, where ``kind.cells`` is
    # ``Cells.COUNT``, a count (an int; ' ' where the drawing has no pit)
    cells: Callable[[P], Rows]
    colours: Mapping[str, str]  # a piece's character -> its CSS colour
    # a position and a raw move (the student's value, the opponent's plain-data move or None)
    # -> (row, col, role); never raises: what it cannot read draws nothing
    marks: Callable[[P, Any], list[tuple[int, int, str]]]
    clicks: Callable[[P, list[tuple[int, int]]], Any | None]  # squares -> raw move or None


def result_of(outcome: Outcome | None) -> str | None:
    """What ``GamePack.result`` says of a game that ended so (the winner, or DRAW), or None
    while it goes on: for rules whose ``outcome`` already decides both."""
    if outcome is None:
        return None
    return outcome.winner or DRAW


class Turns(Enum):
    """Whose turn follows a move (OpenSpiel's ``GameType`` says it of every game): shared code
    asks ``GamePack.turn`` of each position and never assumes the sides alternate; this says
    what the conformance suite expects to see."""

    ALTERNATE = "alternate"  # the other side's, after every ply
    PASSES = "passes"  # the other side's; a side with no move passes (``pass_move``), a ply
    EXTRA = "extra"  # a move may leave the same side to move again (Kalah's last seed home)


class Cells(Enum):
    """What a cell of ``GamePack.cells`` holds, and so how a board is drawn."""

    MARK = "mark"  # a piece: one character, ``' '`` for an empty square
    COUNT = "count"  # a number (seeds in a pit), drawn as its figure; ``' '`` where none is


@dataclass(frozen=True)
class GameType:
    """What kind of game a pack plays, as data the shared code reads (the turn engine, minimax,
    tactics, the drawings, the conformance suite) instead of assuming it."""

    shape: Callable[[Any], tuple[int, int]]  # a variant -> rows and columns of ``cells``
    turns: Turns = Turns.ALTERNATE
    cells: Cells = Cells.MARK


@dataclass(frozen=True)
class GamePack(Generic[P, M, V]):
    """One game, as the kit sees it. Positions (``P``), moves (``M``) and variants (``V``)
    are the pack's own types: a pack declares them (``GamePack[Position, Move, Variant]``) so
    mypy checks its functions against the seam; code that handles any pack holds an
    :data:`AnyPack`.

    Two contracts the types do not say, which tests/test_pack_conformance.py checks:

    - a move survives the student's format: ``read_move(student_move(m), pos) == m`` for every
      legal ``m`` of ``pos`` (the referee sends the opponent's moves that way, and reads the
      student's back);
    - ``marks`` is given the student's raw value (any shape), the opponent's plain-data move
      (``student_move(m)``) and None; it draws what it can read and never raises (the replays
      draw every ply through it, and :func:`move_marks` is only a last guard).
    """

    name: str  # "teeko"
    title: str  # "Teeko", for report titles
    kind: GameType  # how turns pass, what a cell holds, the board's shape
    variants: Mapping[str, V]  # assignment name -> rule variant
    rules: Rules[P, M, V]  # the sides, the start, the moves, the end (read as ``pack.play``)
    # -- the student's side: what it hands in, how it is called, its rubric (see Student) ----
    student: Student[P, M, V]
    # -- grading material --------------------------------------------------------------------
    probes: Callable[[V, int, Mapping[str, int]], list[P]]  # variant, seed, per phase
    opponents: Mapping[str, tuple[str, Opponent[P, M]]]  # id -> (name in reports, opponent)
    drawing: Drawing[P]  # the HTML reports' and the play page's (read as ``pack.cells``)
    # -- the rules' defaults: a game of one phase whose position says whose turn it is -------
    turn: Callable[[P], str] = operator.attrgetter("turn")  # the side to move
    phases: tuple[str, ...] = ("play",)  # the rubric's per-phase criteria ("drop", "move")
    phase: Callable[[P], str] = lambda pos: "play"  # one of ``phases``
    # a name outside ``variants`` -> a variant it names (a board size, say), or None
    parse_variant: Callable[[str], V | None] = lambda name: None
    goal: str = "goal"  # what wins, in reports: "you completed a goal on ply 9"
    move_name: Callable[[M], str] = str  # the move in reports' words: "column 3"
    # a square of the driver's grid (row, column: ``state[row][col]``) in the game's own words
    square_name: Callable[[int, int], str] = lambda row, col: f"[{row}][{col}]"
    passed: str = "state"  # what ``move_call`` is given, in a message: "the state passed to it"
    copy_advice: str = "work on a copy (copy.deepcopy(state))"  # when it changed what it got
    # -- other courses' interfaces to the same game: name -> interface (see :class:`Interface`)
    interfaces: Mapping[str, Interface[P, M, V]] = field(default_factory=dict)
    # -- perfect play (``autograder/games/perfect.py``), where the game has some -------------
    # a variant -> its perfect player (the extras, the perfect opponent), or None; raises
    # OracleError when it cannot be had here (a table not built)
    perfect: Callable[[V], Perfect[P, M] | None] = lambda variant: None
    # a variant -> the exact solver that picks and judges tactical probes, or None
    exact: Callable[[V], Exact | None] = lambda variant: None
    tables: Tables | None = None  # the solved tables ``autograder oracle`` builds and reads
    # -- passes and outcomes -----------------------------------------------------------------
    # the move that means "pass" when the side to move has no other; None: the game has no
    # passes. Where the side to move must pass, ``legal_moves`` returns ``[pass_move]``.
    pass_move: M | None = None
    # P -> how the game ended, in the game's words (None while it goes on); None: the kit
    # words it from ``result`` and ``goal`` ("you completed a goal", "the board is full")
    outcome: Callable[[P], Outcome | None] | None = None
    # -- a second, plain implementation of the rules, where the pack has one: (variant,
    # depth) -> the move sequences of ``depth`` plies from the start, which the conformance
    # suite compares with the count the pack's own rules give (perft, as python-chess checks)
    perft: Callable[[V, int], int] | None = None

    def random_position(self, variant: V, rng: random.Random, plies: int) -> P | None:
        """The position after ``plies`` random moves from the start (``rng`` choosing), or
        None when the game ended before (the tactical probes and puzzles start there)."""
        return self.rules.random_position(variant, rng, plies)

    # ---- the rules and the drawing, read through the pack (``rules``, ``drawing``) --------

    @property
    def sides(self) -> tuple[str, str]:
        return self.rules.sides

    @property
    def start(self) -> Callable[[V], P]:
        return self.rules.start

    @property
    def legal_moves(self) -> Callable[[P], Iterable[M]]:
        return self.rules.legal_moves

    @property
    def play(self) -> Callable[[P, M], P]:
        return self.rules.play

    @property
    def result(self) -> Callable[[P], str | None]:
        return self.rules.result

    @property
    def cells(self) -> Callable[[P], Rows]:
        return self.drawing.cells

    @property
    def colours(self) -> Mapping[str, str]:
        return self.drawing.colours

    @property
    def marks(self) -> Callable[[P, Any], list[tuple[int, int, str]]]:
        return self.drawing.marks

    @property
    def clicks(self) -> Callable[[P, list[tuple[int, int]]], Any | None]:
        return self.drawing.clicks

    # ---- the student's side, read through the pack (``student`` holds it) -----------------

    @property
    def side_names(self) -> Mapping[str, str]:
        return self.student.side_names

    @property
    def render(self) -> Callable[[P], str]:
        return self.student.render

    @property
    def files(self) -> tuple[str, ...]:
        return self.student.files

    @property
    def driver(self) -> Path:
        return self.student.driver

    @property
    def calls(self) -> Calls:
        return self.student.calls

    @property
    def state(self) -> Callable[[P], Any]:
        return self.student.state

    @property
    def student_move(self) -> Callable[[M], Any]:
        return self.student.student_move

    @property
    def read_move(self) -> Callable[[Any, P], M]:
        return self.student.read_move

    @property
    def format_problem(self) -> Callable[[Any, P], str | None]:
        return self.student.format_problem

    def shown(self, raw: Any, pos: P) -> str:
        """What the student's call gave back, as reports show it (the student's value: any
        shape, so its repr where the course's own words cannot be had)."""
        if self.student.shown is not None:
            try:
                return self.student.shown(raw, pos)
            except Exception:  # noqa: BLE001 - the value is the submission's
                pass
        return repr(raw)

    @property
    def rubric(self) -> Path:
        return self.student.rubric

    @property
    def starter(self) -> Callable[[V], str]:
        return self.student.starter

    @property
    def solution(self) -> Callable[[V], str]:
        return self.student.solution

    @property
    def check_criteria(self) -> Mapping[str, str]:
        return self.student.check_criteria

    @property
    def checks(self) -> Callable[[V, int], Sequence[Check]]:
        return self.student.checks

    @property
    def missing(self) -> Callable[[Mapping[str, bytes]], str | None]:
        return self.student.missing

    @property
    def settings(self) -> tuple[Setting, ...]:
        return self.student.settings

    @property
    def move_call(self) -> str:
        """The student's function the referee's move requests call: ``make_move``."""
        return self.calls.move

    @property
    def goal_one(self) -> str:
        return f"an {self.goal}" if self.goal[0] in "aeiou" else f"a {self.goal}"


def must_pass(pack: AnyPack, pos: Any) -> bool:
    """Whether the side to move on ``pos`` must pass: the game has passes, it is not over, and
    its legal moves are the pass alone (or none). The referee plays such a pass itself."""
    if pack.pass_move is None or pack.result(pos) is not None:
        return False
    moves = list(pack.legal_moves(pos))
    return not moves or moves == [pack.pass_move]


def _own(student: Student[P, M, V]) -> Student[P, M, V]:
    return student


@dataclass(frozen=True)
class Interface(Generic[P, M, V]):
    """One course's student interface to a pack's game: the files handed in, the classes they
    define, how the driver (child side) calls them and the rubric that grades them
    (``student``: the pack's student side -> this course's). The game's rules, probes,
    opponents, tactics, replays and solver stay the pack's, shared by every interface; the
    default interface is the pack's own.
    """

    name: str = ""  # "" for the pack's own; else it names the assignments: connect4-notebook
    course: str = ""  # whose homework this is, for messages: "the Colab notebook course"
    player_class: str | None = None  # the class the driver constructs; None: the variant's
    # every class a submission of this interface defines, to tell it from the others
    classes: tuple[str, ...] = ()
    entry: str = ""  # how the driver calls the student's code, for messages; "" is "Cls()"
    aliases: tuple[str, ...] = ()  # other names of its assignments' prefix: "connect4-colab"
    description: str = ""  # one line for the list of assignments
    variants: tuple[str, ...] | None = None  # the pack's variants it plays; None: every one
    # the pack's own student side -> this course's (usually ``dataclasses.replace`` of it)
    student: Callable[[Student[P, M, V]], Student[P, M, V]] = _own
    # the rubric's values of the student side's ``settings`` (label -> value) -> this
    # interface at those values (its state, checks and entry change with them)
    configure: Callable[[Mapping[str, int]], Interface[P, M, V]] | None = None
    layout: Layout | None = None  # how a submission holds its main module by another name

    def over(self, pack: GamePack[P, M, V]) -> GamePack[P, M, V]:
        """``pack`` as a student of this interface meets it (``pack`` itself for the default)."""
        student = self.student(pack.student)
        return pack if student is pack.student else dataclasses.replace(pack, student=student)


DEFAULT_INTERFACE: Interface[Any, Any, Any] = Interface()
AnyPack = GamePack[Any, Any, Any]  # what code that handles every pack holds


def move_marks(pack: AnyPack, pos: Any, raw: Any) -> tuple[tuple[int, int, str], ...]:
    """A returned value's squares as ``pack.marks`` draws them; none when they cannot be read
    (the value is the submission's: any shape)."""
    try:
        return tuple((int(r), int(c), str(role)) for r, c, role in pack.marks(pos, raw))
    except Exception:
        return ()


@dataclass(frozen=True)
class Assignment:
    """One homework: a game, an interface and a rubric. ``pack`` is the game as the interface
    presents it (its files, driver and rubric in place of the pack's own); ``game`` the pack as
    its game defines it, shared by all its interfaces."""

    pack: AnyPack
    variant: Variant  # the pack's own variant (its name, description, player class, aliases)
    interface: Interface[Any, Any, Any] = DEFAULT_INTERFACE
    game: AnyPack = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "game", self.pack)
        object.__setattr__(self, "pack", self.interface.over(self.pack))

    def configured(self, values: Mapping[str, int]) -> Assignment:
        """This homework with a rubric's values of its settings (label -> value) in the calls
        that use them; itself when it has nothing to configure."""
        if not values or self.interface.configure is None:
            return self
        return Assignment(self.game, self.variant, self.interface.configure(values))

    @property
    def name(self) -> str:
        base = str(self.variant.name)
        if not self.interface.name:
            return base
        return interface_name(self.game.name, self.interface.name, base)

    @property
    def description(self) -> str:
        return str(self.variant.description)

    @property
    def player_class(self) -> str:
        return self.interface.player_class or str(self.variant.player_class)

    @property
    def classes(self) -> tuple[str, ...]:
        """The classes a submission of this homework defines, all of them."""
        return self.interface.classes or (self.player_class,)

    @property
    def entry(self) -> str:
        """How the course's driver calls the student's code: ``Connect4Player()``."""
        return self.interface.entry or f"{self.player_class}()"

    @property
    def main_file(self) -> str:
        return self.pack.files[0]

    def side_name(self, side: str) -> str:
        return self.pack.side_names.get(side, side)


def interface_name(game: str, interface: str, variant: str) -> str:
    """An interface's assignment name for a variant: connect4-8x6 -> connect4-notebook-8x6."""
    if variant == game:
        return f"{game}-{interface}"
    if variant.startswith(game + "-"):
        return f"{game}-{interface}{variant[len(game) :]}"
    return f"{variant}-{interface}"
