"""How strong the Connect Four reference solution is: games against a random and a depth-4
alpha-beta player.

The solution is driven as the course's driver drives a submission: a fresh player per game with
``my_piece``/``opp`` set and its board the variant's empty board, ``make_move(player.board)``
for its moves (each checked by the rules engine for legality and format, checked for changes to
the board, and timed), ``place_piece`` to apply them and ``opponent_move`` to tell it the other
side's moves. Colours alternate, red (moving first) for even games. Against ``alphabeta4`` the
opponent's own first 1-2 moves of a game are random (from the seed), so the games differ; the
solution always chooses its own moves.

    .venv/bin/python bench/connect4_strength.py --opponent random --games 500 --budget 0.05
    .venv/bin/python bench/connect4_strength.py --opponent alphabeta4 --games 100
"""

from __future__ import annotations

import argparse
import copy
import importlib.util
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.connect4.rules import (  # noqa: E402
    RED,
    Position,
    Variant,
    format_problem,
    legal_moves,
    opponent,
    play,
    read_student_move,
    result,
    start,
    to_board,
    winner,
)
from autograder.games.connect4.variants import find_variant  # noqa: E402
from autograder.games.pack import DRAW, MoveError  # noqa: E402


def load_solution() -> ModuleType:
    """Import ``solution/connect4/game.py`` as a module of its own."""
    path = ROOT / "solution" / "connect4" / "game.py"
    spec = importlib.util.spec_from_file_location("solution_connect4", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---- the opponents ----------------------------------------------------------------------------

Opponent = Callable[[Position, random.Random], int]


def random_opponent(pos: Position, rng: random.Random) -> int:
    """A uniformly random legal column."""
    return rng.choice(legal_moves(pos))


_WIN = 1_000_000
_WINDOW_WEIGHT = (0, 1, 4, 16)  # a line of four holding 0-3 discs of one side and none of the other
_WINDOWS: dict[str, list[int]] = {}


def _windows(variant: Variant) -> list[int]:
    """Every line of four cells of the board, as masks of the engine's bits."""
    if variant.name not in _WINDOWS:
        found = []
        for col in range(variant.columns):
            for row in range(variant.rows):
                for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                    cells = [(col + k * dc, row + k * dr) for k in range(4)]
                    if all(0 <= c < variant.columns and 0 <= r < variant.rows for c, r in cells):
                        found.append(sum(variant.cell(r, c) for c, r in cells))
        _WINDOWS[variant.name] = found
    return _WINDOWS[variant.name]


def _window_count(pos: Position) -> int:
    """For the side to move: lines of four still open to one side, weighted by its discs there."""
    own, theirs = pos.discs(pos.turn), pos.discs(opponent(pos.turn))
    total = 0
    for window in _windows(pos.variant):
        mine, yours = (own & window).bit_count(), (theirs & window).bit_count()
        if not yours:
            total += _WINDOW_WEIGHT[mine]
        elif not mine:
            total -= _WINDOW_WEIGHT[yours]
    return total


def _centre_first(pos: Position) -> list[int]:
    middle = pos.variant.columns - 1
    return sorted(legal_moves(pos), key=lambda c: (abs(2 * c - middle), c))


def _negamax(pos: Position, depth: int, alpha: int, beta: int) -> int:
    """Plain alpha-beta for the side to move; a win sooner scores more."""
    if depth == 0:
        return _window_count(pos)
    best = -_WIN - depth
    for col in _centre_first(pos):
        after = play(pos, col)
        if winner(after) == pos.turn:
            return _WIN + depth  # a line now: nothing is better
        end = result(after)
        score = 0 if end == DRAW else -_negamax(after, depth - 1, -beta, -alpha)
        if score > best:
            best = score
            alpha = max(alpha, score)
            if alpha >= beta:
                break
    return best if best > -_WIN - depth else 0  # no move: a full board, a draw


def alphabeta_opponent(depth: int) -> Opponent:
    """Depth-``depth`` alpha-beta over the window count; the first best column, centre first."""

    def choose(pos: Position, rng: random.Random) -> int:
        best, best_col = -2 * _WIN, -1
        alpha = -2 * _WIN
        for col in _centre_first(pos):
            after = play(pos, col)
            if winner(after) == pos.turn:
                return col
            end = result(after)
            score = 0 if end == DRAW else -_negamax(after, depth - 1, -2 * _WIN, -alpha)
            if score > best:
                best, best_col = score, col
                alpha = max(alpha, score)
        return best_col

    return choose


OPPONENTS: dict[str, Opponent] = {
    "random": random_opponent,
    "alphabeta4": alphabeta_opponent(4),
}


# ---- one game ---------------------------------------------------------------------------------


@dataclass
class Game:
    index: int
    colour: str
    result: int = 0  # +1 the solution won, 0 draw, -1 it lost
    plies: int = 0
    problem: str = ""  # why the solution lost by forfeit, if it did
    moves: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    depths: list[tuple[int, float]] = field(default_factory=list)  # (completed depth, seconds)


_SOLUTION: ModuleType | None = None


def play_game(task: tuple[int, str, str, int, float]) -> Game:
    """Play game ``index`` of a run; the solution is red in even games."""
    global _SOLUTION
    index, variant_name, opponent_name, seed, budget = task
    if _SOLUTION is None:
        _SOLUTION = load_solution()
    _SOLUTION.TIME_BUDGET = budget
    variant = find_variant(variant_name)
    rng = random.Random(seed * 1_000_003 + index)
    choose = OPPONENTS[opponent_name]
    opening = rng.randint(1, 2) if opponent_name != "random" else 0  # the opponent's own moves

    player = getattr(_SOLUTION, variant.player_class)()
    player.my_piece = RED if index % 2 == 0 else opponent(RED)
    player.opp = opponent(player.my_piece)
    pos = start(variant)
    player.board = to_board(pos)
    game = Game(index, player.my_piece)
    own_moves = 0
    while (end := result(pos)) is None:
        if pos.turn == player.my_piece:
            before = copy.deepcopy(player.board)
            started = time.perf_counter()
            raw = player.make_move(player.board)
            game.times.append(time.perf_counter() - started)
            game.depths.append((player.last_depth, game.times[-1]))
            try:
                move = read_student_move(raw, pos)
            except MoveError as err:
                game.result, game.problem = -1, f"ply {game.plies}: {raw!r}: {err}"
                return game
            problem = format_problem(raw, pos)
            if problem is None and player.board != before:
                problem = "make_move changed the board"
            if problem is not None:
                game.result, game.problem = -1, f"ply {game.plies}: {raw!r}: {problem}"
                return game
            player.place_piece(raw, player.my_piece)
        else:
            move = (random_opponent if own_moves < opening else choose)(pos, rng)
            own_moves += 1
            player.opponent_move(move)
        pos = play(pos, move)
        game.moves.append(move)
        game.plies += 1
        if player.board != to_board(pos):
            game.result, game.problem = -1, f"ply {game.plies}: the player's board drifted"
            return game
    game.result = 0 if end == DRAW else 1 if end == player.my_piece else -1
    return game


# ---- the run ----------------------------------------------------------------------------------


def _spread(values: list[int]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):g} (range {min(values)}-{max(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="connect4", help="connect4, connect4-8x6, ...")
    parser.add_argument("--opponent", default="random", choices=sorted(OPPONENTS))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget", type=float, help="seconds per move (default: the solution's TIME_BUDGET)"
    )
    args = parser.parse_args(argv)
    variant = find_variant(args.variant)
    budget = args.budget if args.budget is not None else load_solution().TIME_BUDGET

    print(
        f"{variant.name} vs {args.opponent}: {args.games} games, seed {args.seed}, "
        f"budget {budget:g} s, jobs {args.jobs}, "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    tasks = [(i, variant.name, args.opponent, args.seed, budget) for i in range(args.games)]
    started = time.perf_counter()
    games = []
    pool = multiprocessing.Pool(args.jobs) if args.jobs > 1 else None
    try:
        played = pool.imap_unordered(play_game, tasks) if pool else map(play_game, tasks)
        # one line per finished game, so a long run interrupted still shows what it measured
        for game in played:
            games.append(game)
            outcome = {1: "win", 0: "draw", -1: "loss"}[game.result]
            print(
                f"  [{len(games)}/{args.games}] game {game.index} ({game.colour}): {outcome} "
                f"after {game.plies} plies, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    games.sort(key=lambda g: g.index)
    elapsed = time.perf_counter() - started

    counts = {r: sum(g.result == r for g in games) for r in (1, 0, -1)}
    times = [t for g in games for t in g.times]
    print(f"solution wins {counts[1]}, draws {counts[0]}, losses {counts[-1]}")
    for colour in (RED, opponent(RED)):
        mine = [g for g in games if g.colour == colour]
        print(f"  as {colour!r}: {sum(g.result == 1 for g in mine)} of {len(mine)} won")
    if times:
        print(
            f"move time: median {statistics.median(times):.3f} s, max {max(times):.3f} s "
            f"over {len(times)} moves"
        )
    searched = [pair for g in games for pair in g.depths]
    # a search stopping early proved a win or loss, or had no choice (a win, a block, one safe
    # move): the moves that used at least half the budget show how deep the clock lets it go
    full = [depth for depth, seconds in searched if seconds >= budget / 2]
    print(
        f"completed depth: {_spread([d for d, _ in searched])}; "
        f"in the {len(full)} moves that used the clock: {_spread(full)}"
    )
    print(f"game length in plies: {_spread([g.plies for g in games])}")
    for game in games:
        if game.result <= 0:
            what = "draw" if game.result == 0 else "loss"
            print(
                f"  game {game.index} ({game.colour}): {what} after {game.plies} plies"
                f"{': ' + game.problem if game.problem else ''}"
            )
            print(f"    moves: {' '.join(map(str, game.moves))}")
    print(f"wall time {elapsed:.0f} s, load average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
