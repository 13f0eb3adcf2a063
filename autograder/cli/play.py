"""``autograder play``: a game against the submission's AI, or watching it play, in the browser."""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
import webbrowser
from pathlib import Path
from typing import Any

from autograder.classroom.check import open_one
from autograder.cli.options import add_switch, submission_command
from autograder.errors import GraderError
from autograder.grading.rubric import load_rubric
from autograder.live.server import make_server, serve
from autograder.live.table import PROJECT_ROOT, Table

__all__ = ["add_play"]


def _play(args: argparse.Namespace) -> int:
    with tempfile.TemporaryDirectory(prefix="teeko-play-") as work:
        submission, assignment, _ = open_one(Path(args.submission), args.assignment, Path(work))
        rubric = load_rubric(args.rubric, assignment.pack)
        table = Table(assignment, rubric, submission.source_dir, PROJECT_ROOT, args.seed)
        table.new("play", assignment.pack.sides[1], "random")
        try:
            server = make_server(table, args.port)
        except OSError as err:
            table.close()
            raise GraderError(f"cannot listen on 127.0.0.1:{args.port}: {err.strerror}") from None
        url = server.url  # with the session's token: no other page can drive this game
        print(f"playing {submission.label} as {assignment.name}: open {url} (Ctrl-C to stop)")
        sys.stdout.flush()
        if not args.no_browser:
            webbrowser.open(url)
        signal.signal(signal.SIGTERM, _interrupt)  # a polite kill closes the AI's processes too
        serve(server, table)
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def add_play(commands: Any) -> None:
    """``autograder play SUBMISSION``, on the subcommands ``commands``."""
    play = submission_command(
        commands,
        "play",
        "play against the submission's AI, or watch it play, in the browser",
        "Serve a page on 127.0.0.1 where you play against the submission's AI (in the grader's "
        "sandbox, with the rubric's time limit) or watch it play the kit's opponents.",
    )
    play.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    add_switch(play, "--no-browser", "print the address only")
    play.set_defaults(run=_play)
