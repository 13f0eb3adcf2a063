"""The reference solutions in ``solution/<variant>/game.py``, checked against the rules engine.

Each file is imported as a module of its own with its ``TIME_BUDGET`` cut to 0.05 s, then asked
for moves in seeded random reachable positions of both phases. The opening book is checked at
the file's own budget against the oracle, when its table is cached.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import random
import re
import time
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest

from autograder.games.teeko.rules import (
    BLACK,
    RED,
    Move,
    Position,
    format_problem,
    from_board,
    has_goal,
    is_drop_phase,
    legal_moves,
    opponent,
    parse_position,
    parse_square,
    play,
    read_student_move,
    render,
    start,
    to_board,
    winner,
)
from autograder.games.teeko.variants import find_variant
from autograder.oracle import Verdict
from tests.conftest import SOLUTIONS, cached_oracle

VARIANTS = ["teeko", "teeko2"]
PHASES = ["drop", "move"]
BUDGET = 0.05  # seconds per move: enough for the tactics here, short enough for the suite
SLOWEST = 1.0  # a move slower than this means the time budget is not obeyed


def _load(variant: str, budget: float | None = BUDGET) -> ModuleType:
    """The solution as a module of its own; ``budget=None`` keeps the file's TIME_BUDGET."""
    spec = importlib.util.spec_from_file_location(f"solution_{variant}", SOLUTIONS[variant])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if budget is not None:
        module.TIME_BUDGET = budget
    return module


@pytest.fixture(scope="module", params=VARIANTS)
def solution(request: pytest.FixtureRequest) -> ModuleType:
    return _load(request.param)


def _variant_of(module: ModuleType) -> str:
    return "teeko2" if hasattr(module, "Teeko2Player") else "teeko"


def _player(module: ModuleType, piece: str, pos: Position | None = None) -> Any:
    """A fresh player of ``piece`` whose board shows ``pos``."""
    player = getattr(module, find_variant(_variant_of(module)).player_class)()
    player.my_piece, player.opp = piece, opponent(piece)
    if pos is not None:
        player.board = to_board(pos)
    return player


# ---- positions --------------------------------------------------------------------------------


def _positions(
    variant: str, phase: str, seed: int, count: int, accept: Callable[[Position], bool]
) -> list[Position]:
    """``count`` distinct non-terminal positions of ``phase`` reached by random games."""
    rng = random.Random(f"{variant}-{phase}-{seed}")
    found: dict[Position, None] = {}
    while len(found) < count:
        pos = start(find_variant(variant))
        for _ in range(rng.randrange(8) if phase == "drop" else rng.randrange(8, 48)):
            pos = play(pos, rng.choice(list(legal_moves(pos))))
            if winner(pos) is not None:
                break
        if winner(pos) is None and is_drop_phase(pos) == (phase == "drop") and accept(pos):
            found[pos] = None
    return list(found)


def _wins(pos: Position, move: Move) -> bool:
    return winner(play(pos, move)) == pos.turn


def _loses_at_once(pos: Position, move: Move) -> bool:
    """After ``move`` the opponent holds a goal, or has a move that completes one."""
    after = play(pos, move)
    if winner(after) is not None:
        return winner(after) != pos.turn
    return any(_wins(after, reply) for reply in legal_moves(after))


def _has_win(pos: Position) -> bool:
    return any(_wins(pos, move) for move in legal_moves(pos))


def _must_block(pos: Position) -> bool:
    """No win at once, some moves lose at once and some do not."""
    threat = _has_win(pos._replace(turn=opponent(pos.turn)))  # cheap filter: a threat now
    if not threat or _has_win(pos):
        return False
    losing = [_loses_at_once(pos, move) for move in legal_moves(pos)]
    return any(losing) and not all(losing)


def _ask(module: ModuleType, pos: Position) -> Move:
    """The solution's move in ``pos``, after checking it is legal, exact and left all alone."""
    player = _player(module, pos.turn, pos)
    before = copy.deepcopy(player.board)
    raw = player.make_move(player.board)
    assert format_problem(raw, pos) is None, f"{pos!r}: {raw!r}"
    move = read_student_move(raw, pos)  # raises when illegal
    assert player.board == before, f"{pos!r}: make_move changed the board"
    return move


# ---- make_move --------------------------------------------------------------------------------


@pytest.mark.parametrize("phase", PHASES)
def test_moves_are_legal_exact_silent_and_leave_the_state_alone(
    solution: ModuleType, phase: str, capsys: pytest.CaptureFixture[str]
) -> None:
    variant = _variant_of(solution)
    for pos in _positions(variant, phase, 1, 25, lambda pos: True):
        player = _player(solution, pos.turn, pos)
        state = to_board(pos)  # a state that is not the player's own board, as some drivers pass
        board_before, state_before = copy.deepcopy(player.board), copy.deepcopy(state)
        raw = player.make_move(state)
        assert format_problem(raw, pos) is None, f"{pos!r}: {raw!r}"
        read_student_move(raw, pos)
        assert (player.board, state) == (board_before, state_before), f"{pos!r}"
        assert player.last_depth >= 1, f"{pos!r}: not even depth 1 was searched"
    assert capsys.readouterr() == ("", "")


@pytest.mark.parametrize("phase", PHASES)
def test_takes_a_win_in_one(solution: ModuleType, phase: str) -> None:
    variant = _variant_of(solution)
    for pos in _positions(variant, phase, 2, 15, _has_win):
        assert not all(_wins(pos, move) for move in legal_moves(pos))  # a wrong choice exists
        move = _ask(solution, pos)
        assert _wins(pos, move), f"{pos!r}: played {move} and missed the win"


@pytest.mark.parametrize("phase", PHASES)
def test_blocks_a_win_in_one(solution: ModuleType, phase: str) -> None:
    variant = _variant_of(solution)
    for pos in _positions(variant, phase, 3, 15, _must_block):
        move = _ask(solution, pos)
        assert not _loses_at_once(pos, move), f"{pos!r}: played {move}, the opponent wins next"


def _pos(variant: str, black: str, red: str, turn: str) -> Position:
    """The position with markers on the named squares (``B3``: column B, row 3)."""
    cells = ["."] * 25
    for names, piece in ((black, BLACK), (red, RED)):
        for name in names.split():
            cells[parse_square(name)] = piece
    return parse_position("".join(cells) + " " + turn, variant)


@pytest.mark.parametrize(
    ("black", "red", "turn", "best"),
    [
        # black's marker on C2, the centre, slides to the fourth corner: the goal is complete
        # and its centre empty at once
        pytest.param("B1 D1 B3 C2", "A4 E4 E0 A0", BLACK, "C2-D3", id="vacate-own-centre"),
        # red on C2 is pinned: every move of it gives black the corners B1 D1 B3 D3
        pytest.param("B1 D1 B3 D3", "C2 A4 E4 E0", RED, None, id="pinned-on-centre"),
        # red's C2-C1 completes D0 C1 B2 A3 and hands black its corners: the mover wins
        pytest.param("B1 D1 B3 D3", "C2 D0 B2 A3", RED, "C2-C1", id="both-goals-mover-wins"),
    ],
)
def test_teeko2_tactics_around_an_empty_centre(
    black: str, red: str, turn: str, best: str | None
) -> None:
    pos = _pos("teeko2", black, red, turn)
    wrong = _loses_at_once if best is None else lambda pos, move: not _wins(pos, move)
    assert any(wrong(pos, move) for move in legal_moves(pos))  # the test can fail
    move = _ask(_load("teeko2"), pos)
    if best is None:
        assert not _loses_at_once(pos, move), f"{pos!r}: played {move}"
    else:
        assert str(move) == best and _wins(pos, move), f"{pos!r}: played {move}"


def test_make_move_falls_back_to_a_legal_move_when_the_search_fails(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("search bug")

    monkeypatch.setattr(solution._Searcher, "choose", broken)
    for phase in PHASES:
        for pos in _positions(_variant_of(solution), phase, 4, 5, lambda pos: True):
            _ask(solution, pos)


@pytest.mark.serial
def test_make_move_keeps_to_the_time_budget(solution: ModuleType) -> None:
    for phase in PHASES:
        for pos in _positions(_variant_of(solution), phase, 5, 5, lambda pos: True):
            started = time.perf_counter()
            _ask(solution, pos)
            assert time.perf_counter() - started < SLOWEST, f"{pos!r}"


# ---- game_value, opponent_move, place_piece, print_board ---------------------------------------


def _placements(variant: str, seed: int, count: int) -> Iterator[Position]:
    """Move-phase placements: half random, half with one side's markers on a random goal's
    squares (the other side's then often on its centre)."""
    rng = random.Random(seed)
    goals = find_variant(variant).masks
    for index in range(count):
        squares = rng.sample(range(25), 8)
        own = sum(1 << sq for sq in squares[:4])
        if index % 2:
            own = rng.choice(goals)[0]
            squares = [sq for sq in squares if not own >> sq & 1] + rng.sample(range(25), 25)
            squares = [sq for sq in dict.fromkeys(squares) if not own >> sq & 1]
        other = sum(1 << sq for sq in squares[-4:])
        black, red = (own, other) if rng.random() < 0.5 else (other, own)
        yield Position(black, red, rng.choice([BLACK, RED]), find_variant(variant))


def test_game_value_agrees_with_the_engine(solution: ModuleType) -> None:
    variant = _variant_of(solution)
    goals = find_variant(variant).masks
    won = centred = 0
    for pos in _placements(variant, 6, 2000):
        side = winner(pos)  # when both hold a goal, the side that just moved
        for piece in (BLACK, RED):
            expected = 0 if side is None else 1 if side == piece else -1
            player = _player(solution, piece)
            assert player.game_value(to_board(pos), opponent(pos.turn)) == expected, f"{pos!r}"
            if not (has_goal(pos, BLACK) and has_goal(pos, RED)):
                assert player.game_value(to_board(pos)) == expected, f"{pos!r}"
        won += side is not None
        # a goal's squares all held by one side while its centre is taken: not a goal
        centred += any(
            e and pos.occupied & e and (pos.black & s == s or pos.red & s == s) for s, e in goals
        )
    assert won > 700
    assert centred > 20 or variant == "teeko"


@pytest.mark.parametrize(
    ("black", "red", "value"),
    [
        pytest.param("A0 C0 A2 C2", "E0 E2 A4 C4", 1, id="corners-centre-empty"),
        pytest.param("A0 C0 A2 C2", "B1 E2 A4 C4", 0, id="corners-centre-taken"),
        pytest.param("A0 C0 A2 B1", "C2 E2 A4 C4", 0, id="three-corners"),
        pytest.param("E0 E2 A4 C4", "A0 C0 A2 C2", -1, id="opponent-corners"),
    ],
)
def test_teeko2_corner_goal_needs_an_empty_centre(black: str, red: str, value: int) -> None:
    pos = _pos("teeko2", black, red, RED)
    assert {None: 0, BLACK: 1, RED: -1}[winner(pos)] == value
    assert _player(_load("teeko2"), BLACK).game_value(to_board(pos)) == value


def test_opponent_move_applies_legal_moves(solution: ModuleType) -> None:
    variant = _variant_of(solution)
    for phase in PHASES:
        for pos in _positions(variant, phase, 7, 10, lambda pos: True):
            for move in list(legal_moves(pos))[:5]:
                player = _player(solution, opponent(pos.turn), pos)
                player.opponent_move(move.student())
                assert player.board == to_board(play(pos, move)), f"{pos!r} {move}"


DROPPING = "b........................ r"  # red drops next
MOVING = "brbrb......br.......r.... r"  # black A0 C0 E0 B2, red B0 D0 C2 A4; red moves next


@pytest.mark.parametrize(
    ("text", "move", "message"),
    [
        pytest.param(DROPPING, [(0, 0)], "occupied", id="drop-occupied"),
        pytest.param(DROPPING, [(5, 0)], "not on the board", id="off-board"),
        pytest.param(DROPPING, [(0, 1), (0, 0)], "must drop", id="slide-while-dropping"),
        pytest.param(MOVING, [(1, 1)], "move one", id="drop-when-all-down"),
        pytest.param(MOVING, [(1, 0), (0, 0)], "holds no 'r'", id="source-not-theirs"),
        pytest.param(MOVING, [(3, 3), (4, 4)], "holds no 'r'", id="source-empty"),
        pytest.param(MOVING, [(2, 3), (0, 1)], "not adjacent", id="too-far"),
        pytest.param(MOVING, [(0, 0), (0, 1)], "occupied", id="onto-a-marker"),
        pytest.param(MOVING, "A0", "a move is", id="not-a-list"),
        pytest.param(MOVING, [(0, 0, 1)], "a square is", id="not-a-pair"),
    ],
)
def test_opponent_move_rejects_illegal_moves(
    solution: ModuleType, text: str, move: Any, message: str
) -> None:
    pos = parse_position(text, _variant_of(solution))
    player = _player(solution, BLACK, pos)
    before = copy.deepcopy(player.board)
    with pytest.raises(ValueError, match=message):
        player.opponent_move(move)
    assert player.board == before


def test_each_player_starts_on_an_empty_board(solution: ModuleType) -> None:
    first = _player(solution, BLACK)
    first.place_piece([(2, 2)], BLACK)
    second = _player(solution, RED)
    assert from_board(second.board, find_variant(_variant_of(solution))).occupied == 0


def test_init_picks_a_colour_at_random(solution: ModuleType) -> None:
    cls = getattr(solution, find_variant(_variant_of(solution)).player_class)
    seen = set()
    for _ in range(64):
        player = cls()
        assert {player.my_piece, player.opp} == {BLACK, RED}
        seen.add(player.my_piece)
    assert seen == {BLACK, RED}
    assert cls.pieces == ["b", "r"] and cls.board == [[" "] * 5 for _ in range(5)]


def test_print_board_matches_the_course_layout(
    solution: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    pos = parse_position("b...r.....bb......r.....r b", _variant_of(solution))
    _player(solution, BLACK, pos).print_board()
    assert capsys.readouterr().out == render(pos) + "\n"


# ---- the terminal game ------------------------------------------------------------------------


class _Human:
    """Answers main()'s prompts: the scripted lines first (``later`` at the first prompt of the
    move phase, where ``NOT_MINE`` stands for a square without the human's marker), else the
    moves ``choose`` picks."""

    NOT_MINE = "?"

    def __init__(
        self,
        module: ModuleType,
        script: list[str],
        choose: Callable[[Position], Move],
        later: tuple[str, ...] = (),
    ) -> None:
        self.variant = find_variant(_variant_of(module))
        self.script, self.later, self.choose = list(script), list(later), choose
        self.players: list[Any] = []  # the AI that main() builds
        self.prompts: list[str] = []
        self.pending: list[str] = []

    def __call__(self, prompt: str = "") -> str:
        self.prompts.append(prompt)
        if "from" in prompt and self.later:
            self.script, self.later = self.later, []
        ai = self.players[0] if self.players else None
        if self.script:
            text = self.script.pop(0)
            if text == self.NOT_MINE and ai is not None:
                row, col = next(
                    (r, c) for r in range(5) for c in range(5) if ai.board[r][c] != ai.opp
                )
                text = f"{'ABCDE'[col]}{row}"
            return text
        if not self.pending:
            assert ai is not None
            move = self.choose(from_board(ai.board, self.variant, ai.opp))
            self.pending = str(move).split("-")  # a slide is typed source first, then target
        return self.pending.pop(0)


def _run_main(
    module: ModuleType, monkeypatch: pytest.MonkeyPatch, human: _Human, ai_piece: str
) -> None:
    cls = getattr(module, human.variant.player_class)
    original = cls.__init__

    def init(self: Any) -> None:
        original(self)
        self.my_piece, self.opp = ai_piece, opponent(ai_piece)
        human.players.append(self)

    monkeypatch.setattr(cls, "__init__", init)
    monkeypatch.setattr("builtins.input", human)
    module.main()


def test_main_plays_a_game_and_asks_again_after_bad_input(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The human is black and drops on b2 (lower case: column B, row 2), then tries B2 again;
    # after that it plays the first legal move, which the AI beats.
    human = _Human(solution, ["zz", "F9", "b2", "B2"], lambda pos: next(iter(legal_moves(pos))))
    _run_main(solution, monkeypatch, human, RED)
    out = capsys.readouterr().out
    assert "'zz' is not a square" in out and "'F9' is not a square" in out
    assert "Illegal move: (2, 1) [B2] is occupied" in out
    assert out.rstrip().endswith("The AI wins.")


def test_main_move_phase_asks_from_and_to_and_stops_at_the_ply_cap(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both sides play seeded random moves (the AI's search is replaced) so the game is fixed:
    # no goal within 14 plies. The human first names a square off the board, then tries to
    # move a marker that is not its own.
    rng = random.Random(3)
    monkeypatch.setattr(solution, "MAX_PLIES", 14)
    cls = getattr(solution, find_variant(_variant_of(solution)).player_class)

    def random_move(self: Any, state: list[list[str]]) -> list[tuple[int, int]]:
        pos = from_board(state, find_variant(_variant_of(solution)), self.my_piece)
        return rng.choice(list(legal_moves(pos))).student()

    monkeypatch.setattr(cls, "make_move", random_move)
    # at the first "from" prompt: not a square; then a square not holding the human's marker
    later = ("Q7", _Human.NOT_MINE, "C2")
    human = _Human(solution, [], lambda pos: rng.choice(list(legal_moves(pos))), later)
    _run_main(solution, monkeypatch, human, BLACK)
    out = capsys.readouterr().out
    assert "'Q7' is not a square" in out
    assert re.search(r"Illegal move: \(\d, \d\) \[[A-E]\d\] holds no 'r' marker", out)
    assert sum("from" in prompt for prompt in human.prompts) >= 3
    assert out.rstrip().endswith("Draw: 14 plies were played and nobody holds a goal.")


def test_main_ends_quietly_when_input_runs_out(
    solution: ModuleType, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def no_more(prompt: str = "") -> str:
        raise EOFError

    monkeypatch.setattr("builtins.input", no_more)
    monkeypatch.setattr(solution.random, "choice", lambda seq: seq[1])  # the AI is red
    solution.main()
    assert capsys.readouterr().out.rstrip().endswith("Game abandoned.")


def test_the_two_solutions_differ_only_in_the_variant() -> None:
    """Everything but the goal definitions, the opening book and the greeting is the same code
    in both files."""

    def parts(variant: str) -> dict[str, str]:
        tree = ast.parse(SOLUTIONS[variant].read_text())
        sources = [ast.unparse(node).replace("Teeko2", "Teeko") for node in tree.body[1:]]
        return {
            text.split("(")[0].split("=")[0].split(":")[0]: text
            for text in sources
            if not text.startswith(("def _variant_goals(", "OPENING_BOOK", "def main("))
        }

    teeko, teeko2 = parts("teeko"), parts("teeko2")
    assert teeko.keys() == teeko2.keys()
    assert [name for name in teeko if teeko[name] != teeko2[name]] == []


# ---- the opening book, judged by the oracle ---------------------------------------------------


def _book_position(variant: str, key: str) -> Position:
    """The position of an OPENING_BOOK key "my squares|their squares"; fewer of mine: red."""
    mine, theirs = ([parse_square(n) for n in part.split()] for part in key.split("|"))
    me = RED if len(mine) < len(theirs) else BLACK
    cells = ["."] * 25
    for squares, piece in ((mine, me), (theirs, opponent(me))):
        for sq in squares:
            cells[sq] = piece
    return parse_position("".join(cells) + " " + me, variant)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_opening_book_move_keeps_the_value(variant: str) -> None:
    """The books hold moves the search gets wrong, so each entry must be one perfect play
    allows, and the solution at its own budget must play it."""
    module, oracle = _load(variant, budget=None), cached_oracle(variant)
    for key, reply in module.OPENING_BOOK.items():
        pos = _book_position(variant, key)
        move = _ask(module, pos)
        assert str(move) == reply, key
        assert oracle.value(play(pos, move)).after_move() == oracle.value(pos), key


def test_teeko_answers_a_centre_drop_from_its_book() -> None:
    """At the default budget on a quiet machine the search answered C2 with D3, which loses in
    14 plies to perfect play (bench/solution_strength.py --opponent perfect, game 77); which
    reply it finds depends on the load, so the answer must come from the book, not the clock."""
    pos = play(start(find_variant("teeko")), Move(parse_square("C2")))
    player = _player(_load("teeko", budget=None), RED, pos)
    move = read_student_move(player.make_move(player.board), pos)
    assert player.last_depth == 0  # no search ran
    assert cached_oracle("teeko").value(play(pos, move)).after_move() == Verdict("draw", None), move
