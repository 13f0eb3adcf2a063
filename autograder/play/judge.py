"""Reading one reply of the submission's process: into a move or a fault (``judge``), into
a check's verdict (``judge_check``), or into one sentence on why it could not start
(``load_problem``). Pure functions of the reply and the pack; the submission's data may be any
shape."""

from __future__ import annotations

from typing import Any

from autograder.games import looks_like
from autograder.games.pack import AnyPack, Assignment, Check, MoveError, Noted, Verdict
from autograder.play.host import Reply, Status
from autograder.play.launch import Limits
from autograder.play.protocol import cut_size, decode
from autograder.play.records import Call
from autograder.play.untrusted import admit

__all__ = ["judge", "judge_check", "load_problem"]


_SQUARES_SHOWN = 4  # changed squares named in a message; the rest are counted
_CELL_SHOWN = 8  # characters of a changed cell shown (a piece is one)


def _squares(pack: AnyPack, pos: Any, changes: Any) -> str:
    """ ": squares B3 (' ' → 'b'), …" for the squares the child says ``make_move`` changed, in
    the pack's names; "" when it sent none we can read (it is the submission's process)."""
    try:
        rows = pack.cells(pos)
        count = int(changes["count"])
        named = []
        for row, col, was, now in changes["squares"][:_SQUARES_SHOWN]:
            if not (0 <= int(row) < len(rows) and 0 <= int(col) < len(rows[int(row)])):
                return ""
            before, after = (admit(repr(str(cell)[:_CELL_SHOWN]), "name") for cell in (was, now))
            named.append(f"{pack.square_name(int(row), int(col))} ({before} → {after})")
    except (TypeError, ValueError, KeyError, IndexError):
        return ""
    if not named or count < len(named):
        return ""
    more = f" and {count - len(named)} more" if count > len(named) else ""
    return f": square{'s' if count > 1 else ''} {', '.join(named)}{more}"


def judge(assignment: Assignment, where: str, pos: Any, reply: Reply) -> Call:
    pack = assignment.pack
    phase = pack.phase(pos)
    if not reply.ok:
        return Call(
            where,
            pos,
            phase,
            reply.status,
            reply.seconds,
            printed=reply.printed,
            error=reply.detail,
            cpu_seconds=reply.cpu_seconds,
            own_seconds=reply.own_seconds,
            unbuilt=reply.data.get("kind") == "unbuilt",
        )
    raw = decode(reply.data.get("move"))
    changed = []
    state = _squares(pack, pos, reply.data.get("state_changes"))
    if reply.data.get("state_changed"):
        changed.append(f"the {pack.passed} passed to it{state}")
    if reply.data.get("board_changed"):
        board = _squares(pack, pos, reply.data.get("board_changes"))
        if not (reply.data.get("state_changed") and board == state):  # the same object
            changed.append(f"the player's own board (self.board){board}")
    try:
        move: Any = pack.read_move(raw, pos)
        illegal = None
    except MoveError as err:
        move, illegal = None, str(err)
    problem = pack.format_problem(raw, pos)
    size = cut_size(reply.data.get("move"))
    if size is not None:  # the child sent the first items only: name the real length
        shown, real = f"a list of {len(raw)} items", f"a list of {size} items"
        illegal = illegal and illegal.replace(shown, real)
        problem = problem and problem.replace(shown, real)
    return Call(
        where,
        pos,
        phase,
        Status.OK,
        reply.seconds,
        returned=admit(pack.shown(raw, pos), "repr"),
        raw=raw,
        illegal=illegal,
        format_problem=problem,
        changed=" and ".join(changed) or None,
        printed=reply.printed,
        move=move,
        cpu_seconds=reply.cpu_seconds,
        own_seconds=reply.own_seconds,
    )


def judge_check(check: Check, reply: Reply) -> Verdict | Noted | None:
    """The judge's verdict on a check's reply; what happened instead when there is no answer."""
    if not reply.ok:
        return Verdict(reply.detail or "no answer came back")
    data = {k: decode(v) if k in _DECODED else v for k, v in reply.data.items()}
    try:
        verdict = check.judge(data)
    except Exception as err:  # the reply is the submission's data: it may be any shape
        return Verdict(f"its answer could not be read ({type(err).__name__})")
    return Verdict(verdict) if isinstance(verdict, str) else verdict


_DECODED = ("value", "move", "fair_move")  # a check's reply: the values the student's code made


def _driver_text(assignment: Assignment) -> str:
    """How the homework's driver reaches the student's code, in its course's own terms."""
    if assignment.interface.entry:
        return f"the grader calls {assignment.entry}, as the homework's own code does"
    return f"the course's driver creates {assignment.entry}"


def _absent(assignment: Assignment, defined: object) -> str:
    """The homework's classes the submission does not define (its player class at least)."""
    names = [n.strip() for n in defined.split(",")] if isinstance(defined, str) else []
    absent = [c for c in assignment.classes if c not in names]
    return " and ".join(absent) or assignment.player_class


def _looks_like(assignment: Assignment, defined: object) -> str:
    """``; it looks like <homework>: ...`` when the classes defined are another homework's."""
    names = [n.strip() for n in defined.split(",")] if isinstance(defined, str) else []
    other = looks_like(names)
    if other is None or (other.game.name, other.interface.name) == (
        assignment.game.name,
        assignment.interface.name,  # by name: a rubric's settings give a configured copy
    ):
        return ""
    course = other.interface.course or f"the {other.game.title} homework"
    return f"; it looks like {course}: grade it with --assignment {other.name}"


def load_problem(reply: Reply, assignment: Assignment, limits: Limits) -> str:
    """One sentence on why the submission could not be started, and what to do."""
    main = assignment.main_file
    guard = 'move the code that plays a game under `if __name__ == "__main__":`'
    kind, error = reply.data.get("kind"), reply.data.get("error")
    if reply.status is Status.TIMEOUT:
        return (
            f"importing {main} did not finish within {limits.import_seconds:g} s; if it "
            f"plays a game or waits for input when imported, {guard}"
        )
    messages = {
        "input": f"{main} called input() while being imported, and the grader gives it no "
        f"keyboard: {guard}",
        "syntax": f"the notebook has a syntax error ({error}); fix that cell and run it"
        if isinstance(error, str) and " at cell " in error
        else f"{main} has a syntax error ({error}); run `python {main}` to see where",
        "sandbox": f"the grader could not fence the submission in ({error}), so it was not "
        "run: this is the grader's problem, not yours; it needs grading again",
        "files": f"{error}; submit only the files of the homework",
        "encoding": f"Python cannot read {main}: {error}, so no import can run it; "
        + (
            "remove that line and save it with the UTF-8 encoding"
            if str(error).startswith("its coding line")
            else "save it with the UTF-8 encoding (in most editors: Save with Encoding, UTF-8)"
        ),
        "package": _package_problem(main, str(error), limits.packages),
        "exit": f"{main} tried to end the program while being imported ({error}): {guard}",
        "class": f"{main} defines no class {_absent(assignment, error)} (it defines: "
        f"{error or 'no classes'}); "
        f"{_driver_text(assignment)}, so keep that name{_looks_like(assignment, error)}",
    }
    if isinstance(kind, str) and kind in messages:
        return messages[kind]
    if reply.status is Status.ERROR:
        return f"importing {main} raised {error}; fix it and run `python {main}`"
    return f"{reply.detail}; {main} must import without ending the program"


def _allowed_text(packages: tuple[str, ...]) -> str:
    """``numpy and the standard library``: what a submission may import, in words."""
    if not packages:
        return "only the standard library"
    return ", ".join(packages) + " and the standard library"


def _package_problem(main: str, name: str, allowed: tuple[str, ...]) -> str:
    if name in allowed:
        return (
            f"{main} imports {name}, which the rubric allows but the grading machine does not "
            f"have (pip install {name}): this is the grader's problem, not yours; it needs "
            "grading again"
        )
    return (
        f"{main} imports {name}, which this course does not allow: the rubric allows "
        f"{_allowed_text(allowed)}; if {name} is a file of yours, hand it in beside {main}"
    )
