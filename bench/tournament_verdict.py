"""A tournament of Connect Four players of known strength: is the strongest first, whatever
the order of the games?

    python bench/tournament_verdict.py [--jobs 2] [--shuffles 200] [--save FILE]

Ten players: the kit's reference solution held to a fixed depth of 8 and of 6 plies (no clock:
its moves depend on the board alone), the answer key's plain minimax at depths 4, 3 and 2, the
greedy and the random player, and three that lose every game they are asked to move in (one
crashes, one returns a full column, one sleeps past the time limit). A round robin, both
colours, from the rubric's openings, each game in the sandbox as ``autograder tournament``
plays it. The games are then rated in many random orders: the table fitted on all games at
once must be the same every time, with the depth-8 solution first. Where OpenSkill is
installed, the rating the kit used before (one OpenSkill update per game, in order) is shown
beside it, first place counted over the same orders. ``--save`` writes each game's players
and result (JSON) for ``tests/test_tournament.py``
(``tests/data/connect4_known_strength_games.json``).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from autograder.classroom.tournament import (
    GameTask,
    Player,
    kit_players,
    play_game,
    run_tournament,
)
from autograder.games import find_assignment
from autograder.grading.rubric import load_rubric
from autograder.grading.tournament import leaderboard_text, rate

ROOT = Path(__file__).resolve().parent.parent
MAKE_MOVE = "    def make_move(self, state) -> int:\n"


def _solution(depth: int) -> str:
    """The reference solution searching exactly ``depth`` plies, whatever the clock says."""
    text = (ROOT / "solution" / "connect4" / "game.py").read_text()
    loop = "for depth in range(1, empty.bit_count() + 1):"
    budget = "TIME_BUDGET = 1.0"
    assert loop in text and budget in text
    text = text.replace(loop, f"for depth in range(1, min(empty.bit_count(), {depth}) + 1):")
    return text.replace(budget, "TIME_BUDGET = 1e9")


def _answer_key(depth: int) -> str:
    text = (ROOT / "answer_key" / "connect4" / "game.py").read_text()
    assert "DEPTH_LIMIT = 4" in text
    return text.replace("DEPTH_LIMIT = 4", f"DEPTH_LIMIT = {depth}")


def _broken(body: str) -> str:
    text = (ROOT / "starter" / "connect4" / "game.py").read_text()
    assert MAKE_MOVE in text
    return text.replace(MAKE_MOVE, f"{MAKE_MOVE}        {body}\n", 1)


STRENGTH = [  # strongest first, as far as anyone knows
    ("solution-d8", _solution(8)),
    ("solution-d6", _solution(6)),
    ("key-d4", _answer_key(4)),
    ("key-d3", _answer_key(3)),
    ("key-d2", _answer_key(2)),
    ("greedy", ""),
    ("random", ""),
    ("crashes", _broken("raise RuntimeError('oops')")),
    ("illegal", _broken("return 99")),
    ("sleeps", _broken("import time; time.sleep(60)")),
]


def _openskill_first(players: list[str], games: list[dict[str, Any]]) -> str | None:
    """First place when OpenSkill rates the games one by one, in the order given."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    ratings = {p: model.rating(name=p) for p in players}
    for g in games:
        a, b, winner = g["first"], g["second"], g["winner"]
        ranks = [1, 1] if winner is None else [1, 2] if winner == a else [2, 1]
        [[ra], [rb]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        ratings[a], ratings[b] = ra, rb
    return max(players, key=lambda p: (ratings[p].ordinal(), p))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--shuffles", type=int, default=200)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--out", type=Path, help="keep the games here (a rerun plays none)")
    args = parser.parse_args()
    assignment = find_assignment("connect4")
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        rubric_file = work / "bench.toml"
        rubric_file.write_text(
            assignment.pack.rubric.read_text().replace("call_seconds = 10.5", "call_seconds = 5.0")
        )
        rubric = load_rubric(rubric_file, assignment.pack)
        kit = {p.opponent: p for p in kit_players(["greedy", "random"], assignment, work)}
        players = [
            kit[name]
            if not source
            else Player(name, "student", files=(("game.py", source.encode()),))
            for name, source in STRENGTH
        ]
        out = args.out or work / "out"
        began = time.perf_counter()
        with ThreadPoolExecutor(args.jobs) as pool:

            def submit(task: GameTask) -> Any:
                return pool.submit(play_game, task)

            result = run_tournament(players, assignment, rubric, out, seed=0, submit=submit)
        wall = time.perf_counter() - began
    ids = [p.id for p in players]
    entrants = [(p.id, p.kind, p.name) for p in players]
    games = [
        {k: g[k] for k in ("id", "first", "second", "winner", "fault", "opening")}
        for g in result.games
    ]
    print(f"{len(games)} games ({result.played} played now) in {wall:.0f} s, {args.jobs} jobs")
    table = rate(entrants, games)
    print(leaderboard_text(table))
    rng = random.Random(0)
    same, firsts, old = 0, Counter[str](), Counter[str]()
    for _ in range(args.shuffles):
        order = games[:]
        rng.shuffle(order)
        again = rate(entrants, order)
        same += again == table
        firsts[again[0].player] += 1
        first = _openskill_first(ids, order)
        if first is not None:
            old[first] += 1
    print(f"over {args.shuffles} random orders of the same games:")
    print(f"  the same table, Bradley-Terry: {same} times; first: {dict(firsts)}")
    if old:
        print(f"  first under OpenSkill one game at a time (the rating before): {dict(old)}")
    if args.save:
        about = (
            "python bench/tournament_verdict.py --save: Connect Four 7x6, round robin, "
            f"{len({g['opening'] for g in games})} openings, both colours; each game: first, "
            "second, winner (null: a draw), the player at fault, the opening"
        )
        rows = [[g["first"], g["second"], g["winner"], g["fault"], g["opening"]] for g in games]
        saved = {"about": about, "players": [p[:2] for p in entrants], "games": rows}
        text = json.dumps(saved, separators=(",", ":")).replace("],[", "],\n[")
        args.save.write_text(text + "\n")
        print(f"saved {args.save}")


if __name__ == "__main__":
    main()
