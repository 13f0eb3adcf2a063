"""``autograder tournament``: the class's AIs against one another, rated, with replays."""

from __future__ import annotations

import argparse
from typing import Any

from autograder.classroom.class_tournament import TournamentRequest, class_tournament
from autograder.classroom.tournament import KIT_PLAYERS
from autograder.cli import options
from autograder.grading.tournament import leaderboard_text

__all__ = ["add_tournament"]

HELP = "every student's AI against every other's, rated, with replays"
OUT_HELP = "folder for the leaderboard and games"
DESCRIPTION = (
    "Play the class's AIs against one another (each sandboxed, the rubric's limits, the kit's "
    "referee between them), both colours, from several openings, and rate them on all the "
    "games at once (Bradley-Terry). Writes "
    "leaderboard.csv, leaderboard.json, leaderboard.html and a replay page per pair; each game "
    "is saved as it ends, so the same command again plays only what is missing. Changes no "
    "grade."
)


def _tournament(args: argparse.Namespace) -> int:
    listener = options.terminal_listener()
    done = class_tournament(options.request(TournamentRequest, args), listener)
    print(leaderboard_text(done.table), end="")
    for path in done.written:
        print(path)
    result = done.result
    for problem in result.failed:
        listener.say(problem)
    speed = result.played / result.seconds if result.seconds > 0 else 0.0
    listener.say(
        f"{result.played} games played in {result.seconds:.1f} s: {speed:.2f} games per "
        f"second; {len(result.games) - result.played} were saved already"
    )
    if result.interrupted or result.failed:
        listener.say("not every game was played: run the same command again to play the rest")
        return 130 if result.interrupted else 2
    return 0


def add_tournament(commands: Any) -> None:
    """``autograder tournament CLASS...``, on the subcommands ``commands``."""
    tourney = options.class_command(commands, "tournament", HELP, OUT_HELP, DESCRIPTION)
    tourney.add_argument(
        "--with",
        dest="kit",
        metavar="PLAYERS",
        help="the kit's players as benchmarks, comma-separated: the game's opponents (random, "
        f"greedy, minimax2 ...), {', '.join(KIT_PLAYERS)}",
    )
    tourney.add_argument(
        "--format",
        choices=("roundrobin", "swiss"),
        default="roundrobin",
        help="roundrobin: every pair, both colours (default); swiss: --rounds rounds, each "
        "player against one of like standing, both colours",
    )
    tourney.add_argument("--rounds", type=int, default=0, help="rounds of a Swiss tournament")
    options.add_roster(tourney, "the players' names as it has them")
    options.add_run(tourney, "games at a time (default: cores)", "; its limits and ply cap hold")
    options.add_cluster(tourney)
    tourney.set_defaults(run=_tournament)
