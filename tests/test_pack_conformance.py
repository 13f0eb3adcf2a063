"""Every registered pack and every interface keeps the seam's contracts (in the spirit of
PettingZoo's ``api_test``): a new pack is checked here with no edit to this file, and no test
here lists the packs: they come from the registry.

Per pack and variant, the rules' checks of ``tests/conformance.py`` (whose teeth
``tests/test_conformance_teeth.py`` shows): no rule changes its input; random games end, in
the pack's words, and some are won; the turn passes as the pack declares (alternating, with
passes, with extra turns); perft against a second, plain implementation where the pack has
one; cells of the declared shape and kind. Per pack: ``marks`` never raises on junk, probes are
legal positions to ask a move on. Per interface: every legal move survives the student's
format, states and moves are JSON, the driver loads in the sandbox and answers a move request,
the starter imports and answers, and (slow) the solution beats the random player, the starter
grades low and the answer key full.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from autograder.classroom.intake import open_submission
from autograder.classroom.submission import grade_submission
from autograder.games import ASSIGNMENTS, PACKS
from autograder.games.pack import AnyPack, Assignment, must_pass
from autograder.grading.rubric import load_rubric
from autograder.play.host import Status
from autograder.play.protocol import decode, encode
from autograder.play.referee import Budget, Plan, Referee, default_spawner
from tests.conformance import CHECKS, random_games
from tests.conftest import ROOT

pytestmark = pytest.mark.timeout(300)

ROUND_TRIP_PLIES = 40  # plies of each game whose every legal move is sent through the format
ROLES = {"to", "from", "bad"}
JUNK: list[Any] = [
    None, "", "x", "A1", "0 0", 0, -1, 3.5, float("nan"), 10**30, True, b"\xff",
    [], [[]], [None], [1], [1, 2, 3], [[1, 2], [3]], [["a", "b"]], [(99, 99)], [(-1, -1)],
    [[0, 0], [0, 0]], [[True, False]], [{}], [1.5, 2.5], {"move": 1}, {(1, 2)}, (1, 2),
    ((0, 0), (9, 9)), object(),
]  # fmt: skip

PACK_IDS = sorted(PACKS)


def _interfaces() -> dict[str, Assignment]:
    """One assignment per pack interface: its first variant (every interface, not every size)."""
    found: dict[str, Assignment] = {}
    for assignment in ASSIGNMENTS.values():
        found.setdefault(f"{assignment.game.name}:{assignment.interface.name or 'own'}", assignment)
    return found


INTERFACES = _interfaces()
INTERFACE_IDS = sorted(INTERFACES)
VARIANTS = [(name, variant) for name in PACK_IDS for variant in PACKS[name].variants]


def _moves(pack: AnyPack, pos: Any) -> list[Any]:
    """The moves the side to move may make (``[pass_move]`` where it must pass)."""
    return list(pack.legal_moves(pos))


@pytest.mark.parametrize("check", CHECKS, ids=[c.__name__ for c in CHECKS])
@pytest.mark.parametrize(("name", "variant_name"), VARIANTS)
def test_the_rules_pass_every_check(name: str, variant_name: str, check: Any):
    pack = PACKS[name]
    check(pack, pack.variants[variant_name])


@pytest.mark.parametrize("interface", INTERFACE_IDS)
def test_moves_survive_the_student_format_and_states_are_json(interface: str):
    assignment = INTERFACES[interface]
    pack = assignment.pack
    for game in random_games(pack, assignment.variant, seed=1, games=3):
        for pos in game[:ROUND_TRIP_PLIES]:
            state = pack.state(pos)
            assert json.loads(json.dumps(state)) == state, f"state not plain JSON: {state!r}"
            for move in _moves(pack, pos) if pack.result(pos) is None else []:
                raw = pack.student_move(move)
                json.dumps(raw)  # the driver gets the opponent's moves as JSON
                back = decode(encode(raw))  # a student's value, as the runner returns it
                assert pack.read_move(back, pos) == move, (move, raw, pack.render(pos))
                assert pack.format_problem(back, pos) is None, (move, raw)
                assert pack.move_name(move)


@pytest.mark.parametrize("name", PACK_IDS)
def test_marks_never_raise_and_stay_on_the_board(name: str):
    pack = PACKS[name]
    variant = next(iter(pack.variants.values()))
    (game, *_) = random_games(pack, variant, seed=2, games=1)
    for pos in game[:: max(1, len(game) // 8)]:
        rows = pack.cells(pos)
        plain = (
            [pack.student_move(m) for m in _moves(pack, pos)] if pack.result(pos) is None else []
        )
        as_json = [json.loads(json.dumps(raw)) for raw in plain]  # as a driver would see them
        for raw in [*JUNK, *plain, *as_json]:
            drawn = pack.marks(pos, raw)  # raises: the test fails with the value in the trace
            for row, col, role in drawn:
                assert 0 <= row < len(rows) and 0 <= col < len(rows[0]), (raw, drawn)
                assert role in ROLES, (raw, drawn)
        for raw in plain:
            assert pack.marks(pos, raw), f"the opponent's move {raw!r} draws nothing"


@pytest.mark.parametrize(("name", "variant_name"), VARIANTS)
def test_probes_are_positions_to_ask_a_move_on(name: str, variant_name: str):
    pack = PACKS[name]
    variant = pack.variants[variant_name]
    counts = {phase: 4 for phase in pack.phases}
    probes = pack.probes(variant, 7, counts)
    assert probes, "no probes"
    assert probes == pack.probes(variant, 7, counts), "probes of a seed must not change"
    for pos in probes:
        assert pack.result(pos) is None, pack.render(pos)
        assert pack.turn(pos) in pack.sides and pack.phase(pos) in pack.phases
        moves = list(pack.legal_moves(pos))
        assert moves and not must_pass(pack, pos), f"nothing to choose:\n{pack.render(pos)}"
        state = pack.state(pos)
        assert json.loads(json.dumps(state)) == state


def _submission(assignment: Assignment, relative: str, tmp_path: Path) -> Path:
    """The folder the kit grades when ``relative`` (from the project's root) is handed in."""
    return open_submission(
        ROOT / relative, tmp_path, assignment.main_file, assignment.pack.files
    ).source_dir


def _referee(assignment: Assignment, folder: Path) -> Referee:
    plan = Plan()
    return Referee(default_spawner(folder, assignment, plan.limits), assignment, plan, 1, Budget(2))


def _probe(assignment: Assignment) -> Any:
    pack = assignment.pack
    return pack.probes(assignment.variant, 1, {phase: 1 for phase in pack.phases})[0]


@pytest.mark.parametrize("interface", INTERFACE_IDS)
def test_the_driver_loads_the_solution_in_the_sandbox_and_it_answers(
    interface: str, tmp_path: Path
):
    assignment = INTERFACES[interface]
    folder = _submission(assignment, assignment.pack.solution(assignment.variant), tmp_path)
    calls, problem, _ = _referee(assignment, folder).ask([_probe(assignment)])
    assert problem is None
    (call,) = calls
    assert call.status is Status.OK, call.error
    assert call.illegal is None and call.move is not None, call.returned


@pytest.mark.parametrize("interface", INTERFACE_IDS)
def test_the_starter_imports_and_answers(interface: str, tmp_path: Path):
    assignment = INTERFACES[interface]
    folder = _submission(assignment, assignment.pack.starter(assignment.variant), tmp_path)
    calls, problem, _ = _referee(assignment, folder).ask([_probe(assignment)])
    assert problem is None, problem
    (call,) = calls
    assert call.status in (Status.OK, Status.ERROR), call.error  # a TODO may raise: it lives on


@pytest.mark.slow
@pytest.mark.parametrize("interface", INTERFACE_IDS)
def test_the_solution_beats_the_random_player(interface: str, tmp_path: Path):
    assignment = INTERFACES[interface]
    folder = _submission(assignment, assignment.pack.solution(assignment.variant), tmp_path)
    main = folder / assignment.main_file
    # a short match: a solution that searches for TIME_BUDGET seconds a move searches less
    main.write_text(
        re.sub(r"^TIME_BUDGET = .*$", "TIME_BUDGET = 0.1", main.read_text(), flags=re.M)
    )
    referee = _referee(assignment, folder)
    for number in (1, 2):  # first, then second to move
        game = referee.game(number)
        assert game.result == "win", f"game {number}: {game.result}, {game.reason}"


STARTER_MOST = 50  # points a starter may earn: it is the homework not done (chance is not skill)


def _graded(assignment: Assignment, path: Path, tmp_path: Path) -> float:
    """The score ``check`` gives the file at ``path`` (with the homework's files beside it)."""
    tmp_path.mkdir()
    submission = open_submission(path, tmp_path, assignment.main_file, assignment.pack.files)
    rubric = load_rubric(None, assignment.pack)
    return grade_submission(submission, assignment, rubric, 0).grade.score


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("interface", INTERFACE_IDS)
def test_the_starter_grades_low_and_the_answer_key_full(interface: str, tmp_path: Path):
    """The answer key is the starter's file under ``answer_key/`` (the book's Board homework
    ships none: its starter alone is graded)."""
    assignment = INTERFACES[interface]
    starter = assignment.pack.starter(assignment.variant)
    score = _graded(assignment, ROOT / starter, tmp_path / "starter")
    assert score <= STARTER_MOST, f"the starter of {interface} earns {score}"
    key = ROOT / "answer_key" / Path(starter).relative_to("starter")
    if key.is_file():
        assert _graded(assignment, key, tmp_path / "key") == 100
    else:
        assert assignment.game.name == "board-abc", f"{interface} ships no answer key at {key}"
