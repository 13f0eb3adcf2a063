"""The game-pack seam: all the kit knows about a game is its :class:`GamePack`.

A pack is plain data and pure functions: the rules (positions, moves, phases, the end of a
game, a text board), the student interface (the files a submission holds, the class it
defines, how a returned value is read as a move and what its exact format is, what the child
runner's driver sends and expects), the grading material (probe positions, opponents, the
default rubric) and where its starter and solution live. The referee, scoring, the reports,
the batch and the Gradescope bundle see games only through it; positions, moves and variants
are the pack's own values, handed back to its functions untouched.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from autograder.games.perfect import Exact, Perfect, Tables

__all__ = [
    "GamePack",
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
    "UnknownAssignmentError",
    "DRAW",
    "Outcome",
    "shown",
    "Outcome",
    "must_pass",
]

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


P = TypeVar("P")  # a pack's position
M = TypeVar("M")  # a pack's move
V = TypeVar("V", bound=Variant)  # a pack's rule variant

# (position, the referee's seeded generator) -> a legal move; runs in the grader.
Opponent = Callable[[P, random.Random], M]


@dataclass(frozen=True)
class Outcome:
    """How a game ended, in the game's words: ``winner`` is a side, or None for a draw;
    ``reason`` says why ("more discs: 20 to 16", "four in a row", "the board is full")."""

    winner: str | None
    reason: str


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
    variants: Mapping[str, V]  # assignment name -> rule variant
    # -- the rules ---------------------------------------------------------------------------
    sides: tuple[str, str]  # the two sides, first to move first ("b", "r")
    side_names: Mapping[str, str]  # "b" -> "black"
    phases: tuple[str, ...]  # the rubric's per-phase criteria, in order ("drop", "move")
    start: Callable[[V], P]
    turn: Callable[[P], str]  # the side to move
    phase: Callable[[P], str]  # one of ``phases``
    legal_moves: Callable[[P], Iterable[M]]
    play: Callable[[P, M], P]  # a new position
    result: Callable[[P], str | None]  # the side that won, DRAW, or None: it goes on
    render: Callable[[P], str]  # the board as the student's program prints it
    # -- the student interface ---------------------------------------------------------------
    files: tuple[str, ...]  # what a submission holds; the first is the module to import
    read_move: Callable[[Any, P], M]  # a raw value -> a move; raises MoveError
    format_problem: Callable[[Any, P], str | None]  # a raw value -> what is inexact
    student_move: Callable[[M], Any]  # the move as plain data for the driver
    state: Callable[[P], Any]  # the position as plain data for the driver
    driver: Path  # the child-side module that calls the student's class
    # -- grading material --------------------------------------------------------------------
    probes: Callable[[V, int, Mapping[str, int]], list[P]]  # variant, seed, per phase
    random_position: Callable[[V, random.Random, int], P | None]  # variant, rng, plies
    opponents: Mapping[str, tuple[str, Opponent[P, M]]]  # id -> (name in reports, opponent)
    rubric: Path  # the default rubric TOML
    starter: Callable[[V], str]  # its starter, relative to the project's root
    solution: Callable[[V], str]  # its reference solution, likewise
    # -- drawing: the HTML reports and the play page ------------------------------------------
    cells: Callable[[P], list[str]]  # its rows, top first, a character a cell (' ' empty)
    colours: Mapping[str, str]  # a piece's character -> its CSS colour
    # a position and a raw move (the student's value, the opponent's plain-data move or None)
    # -> (row, col, role); never raises: what it cannot read draws nothing
    marks: Callable[[P, Any], list[tuple[int, int, str]]]
    clicks: Callable[[P, list[tuple[int, int]]], Any | None]  # squares -> raw move or None
    # a name outside ``variants`` -> a variant it names (a board size, say), or None
    parse_variant: Callable[[str], V | None] = lambda name: None
    goal: str = "goal"  # what wins, in reports: "you completed a goal on ply 9"
    move_call: str = "make_move"  # the student's function the referee's move requests call
    move_name: Callable[[M], str] = str  # the move in reports' words: "column 3"
    # a square of the driver's grid (row, column: ``state[row][col]``) in the game's own words
    square_name: Callable[[int, int], str] = lambda row, col: f"[{row}][{col}]"
    passed: str = "state"  # what ``move_call`` is given, in a message: "the state passed to it"
    copy_advice: str = "work on a copy (copy.deepcopy(state))"  # when it changed what it got
    # -- checks: the student's code asked questions other than a move (the book's boards) ---
    check_criteria: Mapping[str, str] = field(default_factory=dict)  # id -> name in reports
    checks: Callable[[V, int], Sequence[Check]] = lambda variant, seed: ()  # variant, seed
    # a submission's .py files (name -> source) -> what is missing, in one sentence, or None
    missing: Callable[[Mapping[str, bytes]], str | None] = lambda sources: None
    # -- the numbers a rubric may set for the student's calls (see :class:`Setting`)
    settings: tuple[Setting, ...] = ()
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


# The pack's fields an interface may replace: what the student writes and how it is called.
_INTERFACE_FIELDS = (
    "side_names",
    "render",
    "files",
    "driver",
    "move_call",
    "state",
    "student_move",
    "read_move",
    "format_problem",
    "rubric",
    "starter",
    "solution",
    "check_criteria",
    "checks",
    "missing",
    "settings",
)


@dataclass(frozen=True)
class Interface(Generic[P, M, V]):
    """One course's student interface to a pack's game: the files handed in, the classes they
    define, how the driver (child side) calls them and the rubric that grades them. The game's
    rules, probes, opponents, tactics, replays and solver stay the pack's, shared by every
    interface. A field left None is the pack's own; the default interface replaces nothing.
    """

    name: str = ""  # "" for the pack's own; else it names the assignments: connect4-notebook
    course: str = ""  # whose homework this is, for messages: "seed 004's notebook"
    player_class: str | None = None  # the class the driver constructs; None: the variant's
    # every class a submission of this interface defines, to tell it from the others
    classes: tuple[str, ...] = ()
    entry: str = ""  # how the driver calls the student's code, for messages; "" is "Cls()"
    aliases: tuple[str, ...] = ()  # other names of its assignments' prefix: "connect4-colab"
    description: str = ""  # one line for the list of assignments
    variants: tuple[str, ...] | None = None  # the pack's variants it plays; None: every one
    side_names: Mapping[str, str] | None = None  # its course's names of the sides
    render: Callable[[P], str] | None = None  # a position as its course's board shows it
    files: tuple[str, ...] | None = None
    driver: Path | None = None
    move_call: str | None = None
    state: Callable[[P], Any] | None = None
    student_move: Callable[[M], Any] | None = None
    read_move: Callable[[Any, P], M] | None = None
    format_problem: Callable[[Any, P], str | None] | None = None
    rubric: Path | None = None
    starter: Callable[[V], str] | None = None
    solution: Callable[[V], str] | None = None
    check_criteria: Mapping[str, str] | None = None
    checks: Callable[[V, int], Sequence[Check]] | None = None
    missing: Callable[[Mapping[str, bytes]], str | None] | None = None
    settings: tuple[Setting, ...] | None = None
    # the rubric's values of ``settings`` (label -> value) -> this interface's fields that
    # change with them (its ``state``, ``checks``, ``entry``)
    configure: Callable[[Mapping[str, int]], Mapping[str, Any]] | None = None

    def over(self, pack: GamePack[P, M, V]) -> GamePack[P, M, V]:
        """``pack`` as a student of this interface meets it (``pack`` itself for the default)."""
        changes = {f: getattr(self, f) for f in _INTERFACE_FIELDS if getattr(self, f) is not None}
        return dataclasses.replace(pack, **changes) if changes else pack


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
    variant: Any  # the pack's own variant value
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
        changes = self.interface.configure(values)
        return Assignment(self.game, self.variant, dataclasses.replace(self.interface, **changes))

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
