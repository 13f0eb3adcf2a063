"""The solver against brute-force minimax on boards small enough to solve in a test.

The brute force below shares nothing with the solver but the rules: it lists every position as
plain masks, plays every move square by square, and computes values by fixed-point minimax
(each round, a position is won in d + 1 plies if some move reaches a position lost in d, lost
in d + 1 if every move reaches a position won, the slowest in d; what never settles is a draw).
The solver's retrograde, counters, ranking and drop-phase pass must all agree with it.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from autograder.games.teeko.solved.codes import UNKNOWN, loss_code, verdict, win_code
from autograder.games.teeko.solved.game import Game, slide_goals
from autograder.games.teeko.solved.layout import Layout

pytest.importorskip("numpy")
from autograder.games.teeko.solved.solver import Progress, Solver, fold  # noqa: E402

LINES_OF_3 = [
    (((0, 0), (0, 1), (0, 2)), None),
    (((0, 0), (1, 0), (2, 0)), None),
    (((0, 0), (1, 1), (2, 2)), None),
    (((0, 2), (1, 1), (2, 0)), None),
]
DIAGONALS_OF_3 = LINES_OF_3[2:]
# Three squares around a centre that must be empty, like teeko2's corners and diamond: moving
# off the centre can complete the other side's goal, and both sides can end up with one.
TEE = [(((0, 1), (1, 0), (1, 2)), (1, 1)), (((0, 1), (1, 0), (2, 1)), (1, 1))]

TINY = Game("tiny", 3, 3, slide_goals(3, LINES_OF_3 + TEE))
# Only diagonals win: a side on the top row with the other side on the middle row is blocked.
BLOCKING = Game("blocking", 3, 3, slide_goals(3, DIAGONALS_OF_3))
SMALL = Game("small", 4, 3, slide_goals(4, LINES_OF_3 + TEE))
# The tee in all four turns: a 4x4 game with all 8 symmetries, many placements symmetric
# themselves, and 15-ply forced wins.
TEES = TEE + [(((0, 0), (1, 1), (0, 2)), (0, 1)), (((0, 0), (2, 0), (1, 1)), (1, 0))]
SQUARE = Game("square", 4, 3, slide_goals(4, LINES_OF_3 + TEES))


def brute_force(game: Game) -> dict[tuple[int, int], int]:
    """Code of every (mover, other) position, by fixed-point minimax over explicit moves."""
    n, m = game.squares, game.markers
    positions = []
    for k in range(2 * m + 1):
        a, b = k // 2, k - k // 2
        for other in combinations(range(n), b):
            rest = [sq for sq in range(n) if sq not in other]
            for mover in combinations(rest, a):
                positions.append((sum(1 << s for s in mover), sum(1 << s for s in other)))
    value: dict[tuple[int, int], int] = {}
    children: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for mover, other in positions:
        occupied = mover | other
        if game.has_goal(other, occupied):  # also when both have one: the last mover won
            value[mover, other] = loss_code(0)
            continue
        if game.has_goal(mover, occupied):  # the other side's move completed our goal
            value[mover, other] = win_code(0)
            continue
        empty = [sq for sq in range(n) if not occupied >> sq & 1]
        if mover.bit_count() < m:
            after = [mover | 1 << sq for sq in empty]
        else:
            after = [
                mover & ~(1 << source) | 1 << to
                for source in range(n)
                if mover >> source & 1
                for to in empty
                if game.neighbours[source] >> to & 1
            ]
        if not after:  # no legal move: lost, the documented convention
            value[mover, other] = loss_code(0)
            continue
        children[mover, other] = [(other, x) for x in after]
        value[mover, other] = UNKNOWN
    # Plain lists by position number: the rounds below touch each undecided position once.
    number = {pos: i for i, pos in enumerate(value)}
    codes = list(value.values())
    undecided = [(number[pos], [number[kid] for kid in kids]) for pos, kids in children.items()]
    while True:
        settled = []
        waiting = []
        for i, kids in undecided:
            after = [codes[kid] for kid in kids]
            lost = [-c - 1 for c in after if c < 0 and c != UNKNOWN]  # plies of lost children
            if lost:
                settled.append((i, win_code(min(lost) + 1)))
            elif all(c > 0 for c in after):
                settled.append((i, loss_code(max(c - 1 for c in after) + 1)))
            else:
                waiting.append((i, kids))
        if not settled:
            break
        for i, code in settled:  # only now: a round sees the values of the round before
            codes[i] = code
        undecided = waiting
    value = dict(zip(value, codes, strict=True))
    return {pos: 0 if code == UNKNOWN else code for pos, code in value.items()}


def solve(game: Game, chunk: int = 1000, symmetric: bool = True) -> Solver:
    solver = Solver(game, chunk=chunk, symmetric=symmetric)
    reports = list(solver.run())
    assert reports and all(isinstance(r, Progress) for r in reports)
    assert [r.fraction for r in reports] == sorted(r.fraction for r in reports)
    return solver


def _compare(game: Game, solver: Solver) -> None:
    layout = Layout(game)
    expected = brute_force(game)
    assert len(expected) == layout.total
    wrong: Counter[int] = Counter()
    examples = []
    for (mover, other), code in expected.items():
        got = int(solver.table[solver.folding.index(mover, other)])
        if got != code:
            level = (mover | other).bit_count()
            wrong[level] += 1
            if len(examples) < 5:
                examples.append(f"mover {mover:#x} other {other:#x}: {got} != {code}")
    # A breakdown by marker count localises a bug to the move phase or one drop level.
    assert not wrong, f"mismatches by marker count {dict(wrong)}; e.g. {examples}"


@pytest.mark.parametrize("symmetric", [True, False], ids=["folded", "full"])
@pytest.mark.parametrize("game", [TINY, BLOCKING], ids=lambda g: g.name)
def test_solver_matches_brute_force(game: Game, symmetric: bool) -> None:
    _compare(game, solve(game, symmetric=symmetric))


@pytest.mark.parametrize("game", [TINY, BLOCKING, SQUARE], ids=lambda g: g.name)
def test_the_folded_solve_is_the_full_one_folded(game: Game) -> None:
    """Both phases solved on canonical placements only (the retrograde's counters included)
    give the full table's rows, and their figures count every position."""
    folded, full = solve(game), solve(game, symmetric=False)
    assert len(folded.folding.perms) > 1
    assert len(folded.table) < len(full.table)
    assert (folded.table == fold(full.table, folded.folding)).all()
    figures = {key: value for key, value in folded.stats.items() if "seconds" not in key}
    assert figures == {key: full.stats[key] for key in figures}
    assert set(figures) >= {"move_phase", "drop_phase", "goal_placements", "blocked", "start"}


@pytest.mark.slow
def test_solver_matches_brute_force_on_4x4() -> None:
    """216,697 positions with 17-ply forced wins: every level of the pipeline at work."""
    solver = solve(SMALL, chunk=4096)
    assert solver.stats["longest_move_phase_win"] >= 15
    _compare(SMALL, solver)


def test_chunk_size_does_not_change_the_table() -> None:
    assert (solve(TINY, chunk=7).table == solve(TINY, chunk=100_000).table).all()


def test_blocked_positions_exist_and_are_losses() -> None:
    solver = solve(BLOCKING)
    assert solver.stats["blocked"] > 0
    top, middle = 0b000_000_111, 0b000_111_000
    assert verdict(int(solver.table[solver.folding.index(top, middle)])) == ("loss", 0)


def test_vacating_a_centre_can_lose_and_both_goals_win_for_the_mover() -> None:
    """TINY's tee goal: squares 1, 3, 5 around the centre 4, which must be empty."""
    solver = solve(TINY)
    table, layout = solver.table, solver.folding
    # The other side holds 1, 3, 5 but we stand on the centre: nobody has a goal yet.
    mover, other = 1 << 4 | 1 << 6 | 1 << 7, 1 << 1 | 1 << 3 | 1 << 5
    assert not TINY.has_goal(other, mover | other) and not TINY.has_goal(mover, mover | other)
    # Our move off the centre to 8 completes our row 6-7-8 and their tee: we moved, we win.
    after = mover & ~(1 << 4) | 1 << 8
    assert TINY.has_goal(after, after | other) and TINY.has_goal(other, after | other)
    assert int(table[layout.index(other, after)]) == loss_code(0)
    assert int(table[layout.index(mover, other)]) == win_code(1)
    # Moving off the centre to 0 instead completes only their goal: they have won at once.
    blunder = mover & ~(1 << 4) | 1 << 0
    assert not TINY.has_goal(blunder, blunder | other)
    assert int(table[layout.index(other, blunder)]) == win_code(0)


def test_stats_describe_the_solution() -> None:
    stats = solve(TINY).stats
    layout = Layout(TINY)
    assert stats["levels"] == layout.sizes
    census = stats["move_phase"]
    assert sum(census.values()) == layout.sizes[-1]
    assert stats["start"] == int(solve(TINY).table[0])


def test_the_codes_fit_a_byte_with_room() -> None:
    table = solve(TINY).table
    assert table.dtype.itemsize == 1 and (table != UNKNOWN).all()
