"""How strong the reference solutions are: games against a random and a depth-2 minimax player.

The solution is driven as the course's driver drives a submission: a fresh player per game with
``my_piece``/``opp`` set, ``make_move(player.board)`` for its moves (each checked by the rules
engine for legality, format and mutation, and timed), ``place_piece`` to apply them and
``opponent_move`` to tell it the other side's moves. Colours alternate, black for even games;
a game reaching the ply cap is a draw. Against ``minimax2`` the opponent's moves within the
first 2-4 plies of a game are random (from the seed), so the games differ; the solution always
chooses its own moves, since a random move of its own can lose the game by itself.

    .venv/bin/python bench/solution_strength.py --variant teeko --opponent random --games 500
    .venv/bin/python bench/solution_strength.py --variant teeko2 --opponent minimax2 --games 100
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
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games.pack import MoveError, Opponent  # noqa: E402
from autograder.games.teeko.opponents import OPPONENTS as LADDER  # noqa: E402
from autograder.games.teeko.rules import (  # noqa: E402
    BLACK,
    RED,
    format_problem,
    is_drop_phase,
    opponent,
    outcome,
    play,
    read_student_move,
    start,
)
from autograder.games.teeko.variants import find_variant  # noqa: E402

PLY_CAP = 200


def load_solution(variant: str) -> ModuleType:
    """Import ``solution/<variant>/game.py`` as a module of its own."""
    path = ROOT / "solution" / variant / "game.py"
    spec = importlib.util.spec_from_file_location(f"solution_{variant}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the random player (a uniformly random legal move) and plain depth-2 minimax (random ties)
OPPONENTS: dict[str, Opponent] = {name: LADDER[name][1] for name in ("random", "minimax2")}
random_opponent = OPPONENTS["random"]

_PERFECT: dict[str, Opponent] = {}


def _perfect(variant: str) -> Opponent:
    """The oracle's perfect player (needs ``autograder oracle build --variant V``)."""
    if variant not in _PERFECT:
        from autograder.games.teeko.solved import load
        from autograder.oracle import perfect_opponent

        _PERFECT[variant] = perfect_opponent(load(variant))
    return _PERFECT[variant]


# ---- one game ---------------------------------------------------------------------------------


@dataclass
class Game:
    index: int
    colour: str
    result: int = 0  # +1 the solution won, 0 draw, -1 it lost
    plies: int = 0
    problem: str = ""  # why the solution lost by forfeit, if it did
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    # (completed depth, seconds) of each of the solution's moves, by phase
    depths: dict[str, list[tuple[int, float]]] = field(
        default_factory=lambda: {"drop": [], "move": []}
    )


_SOLUTION: ModuleType | None = None


def play_game(task: tuple[int, str, str, int, float]) -> Game:
    """Play game ``index`` of a run; the solution is black in even games."""
    global _SOLUTION
    index, variant_name, opponent_name, seed, budget = task
    if _SOLUTION is None:
        _SOLUTION = load_solution(variant_name)
    _SOLUTION.TIME_BUDGET = budget
    variant = find_variant(variant_name)
    rng = random.Random(seed * 1_000_003 + index)
    choose = _perfect(variant_name) if opponent_name == "perfect" else OPPONENTS[opponent_name]
    opening = rng.randint(2, 4) if opponent_name == "minimax2" else 0

    player = getattr(_SOLUTION, variant.player_class)()
    player.my_piece = BLACK if index % 2 == 0 else RED
    player.opp = opponent(player.my_piece)
    game = Game(index, player.my_piece)
    pos = start(variant)
    while (end := outcome(pos, game.plies, PLY_CAP)) is None:
        if pos.turn == player.my_piece:
            phase = "drop" if is_drop_phase(pos) else "move"
            before = copy.deepcopy(player.board)
            started = time.perf_counter()
            raw = player.make_move(player.board)
            game.times.append(time.perf_counter() - started)
            game.depths[phase].append((player.last_depth, game.times[-1]))
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
            move = (random_opponent if game.plies < opening else choose)(pos, rng)
            player.opponent_move(move.student())
        pos = play(pos, move)
        game.moves.append(str(move))
        game.plies += 1
    game.result = 0 if end.winner is None else 1 if end.winner == player.my_piece else -1
    return game


# ---- the run ----------------------------------------------------------------------------------


def _spread(values: list[int]) -> str:
    if not values:
        return "none"
    return f"median {statistics.median(values):g} (range {min(values)}-{max(values)})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="teeko", choices=["teeko", "teeko2"])
    parser.add_argument("--opponent", default="random", choices=[*sorted(OPPONENTS), "perfect"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2, help="games played in parallel")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--budget", type=float, help="seconds per move (default: the solution's TIME_BUDGET)"
    )
    args = parser.parse_args(argv)
    budget = args.budget if args.budget is not None else load_solution(args.variant).TIME_BUDGET

    print(
        f"{args.variant} vs {args.opponent}: {args.games} games, seed {args.seed}, "
        f"budget {budget:g} s, jobs {args.jobs}, ply cap {PLY_CAP}, "
        f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs"
    )
    tasks = [(i, args.variant, args.opponent, args.seed, budget) for i in range(args.games)]
    started = time.perf_counter()
    games = []
    with multiprocessing.Pool(args.jobs) as pool:
        # one line per finished game, so a long run interrupted still shows what it measured
        for game in pool.imap_unordered(play_game, tasks):
            games.append(game)
            result = {1: "win", 0: "draw", -1: "loss"}[game.result]
            print(
                f"  [{len(games)}/{args.games}] game {game.index} ({game.colour}): {result} "
                f"after {game.plies} plies, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    games.sort(key=lambda g: g.index)
    elapsed = time.perf_counter() - started

    counts = {r: sum(g.result == r for g in games) for r in (1, 0, -1)}
    times = [t for g in games for t in g.times]
    print(f"solution wins {counts[1]}, draws {counts[0]}, losses {counts[-1]}")
    if times:
        print(
            f"move time: median {statistics.median(times):.3f} s, max {max(times):.3f} s "
            f"over {len(times)} moves"
        )
    for phase in ("drop", "move"):
        searched = [pair for g in games for pair in g.depths[phase]]
        # a search stopping early proved a win or loss (or had one legal move): the moves that
        # used at least half the budget show how deep the clock lets it go
        full = [depth for depth, seconds in searched if seconds >= budget / 2]
        print(
            f"completed depth, {phase} phase: {_spread([d for d, _ in searched])}; "
            f"in the {len(full)} moves that used the clock: {_spread(full)}"
        )
    plies = [g.plies for g in games]
    print(f"game length in plies: {_spread(plies)}")
    for game in games:
        if game.result <= 0:
            what = "draw" if game.result == 0 else "loss"
            print(
                f"  game {game.index} ({game.colour}): {what} after {game.plies} plies"
                f"{': ' + game.problem if game.problem else ''}"
            )
            if game.result < 0:
                print(f"    moves: {' '.join(game.moves)}")
    print(f"wall time {elapsed:.0f} s, load average now {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
