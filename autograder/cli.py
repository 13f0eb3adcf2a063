"""The command line: each command parses its options, calls the core and hands the result to a
renderer. The kit's :class:`GraderError` becomes one line on stderr and exit status 2."""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from autograder.errors import GraderError
from autograder.intake import infer_variant, open_submission
from autograder.referee import run_session
from autograder.report import markdown, results_json, terminal
from autograder.rubric import load_rubric
from autograder.scoring import score
from autograder.variants import UnknownVariantError, find_variant

__all__ = ["main", "build_parser"]

DEFAULT_SEED = 0
SEED_HELP = "seed for probes and the random opponent; same seed and submission, same grade"
ASSIGNMENT_HELP = "teeko, teeko2 or teeko2-diamond (default: inferred from the player class)"
RUBRIC_HELP = "rubric TOML file (default: the course's published rubric)"


def _check(args: argparse.Namespace) -> int:
    rubric = load_rubric(args.rubric)
    with tempfile.TemporaryDirectory(prefix="teeko-check-") as work:
        submission = open_submission(Path(args.submission), Path(work), rubric.packaging_pattern)
        notes: tuple[str, ...] = ()
        if args.assignment:
            variant = _variant(args.assignment)
        else:
            variant, how = infer_variant(submission.source_dir)
            notes = (how,)
        print(
            f"grading {submission.label} as {variant.name}, seed {args.seed} ...", file=sys.stderr
        )
        session = run_session(
            submission.source_dir, variant, rubric, args.seed, label=submission.label
        )
    grade = score(session, submission.packaging)
    terminal(grade, notes)
    if args.json:
        _write(Path(args.json), json.dumps(results_json(grade, notes), indent=2) + "\n")
    if args.markdown:
        _write(Path(args.markdown), markdown(grade, notes))
    return 0


def _variant(name: str):  # type: ignore[no-untyped-def]
    try:
        return find_variant(name)
    except UnknownVariantError as err:
        raise GraderError(f"--assignment: {err}") from None


def _write(path: Path, text: str) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text, "utf-8")
        tmp.replace(path)
    except OSError as err:
        raise GraderError(f"cannot write {path}: {err.strerror}") from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="autograder", description="Grade Teeko / Teeko2 minimax homework by the course rubric."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    check = commands.add_parser(
        "check", help="grade one submission (a game.py, a folder or a zip) and print the report"
    )
    check.add_argument("submission", help="game.py, a folder holding it, or a zip")
    check.add_argument("--assignment", "-a", help=ASSIGNMENT_HELP)
    check.add_argument("--seed", type=int, default=DEFAULT_SEED, help=SEED_HELP)
    check.add_argument("--rubric", help=RUBRIC_HELP)
    check.add_argument("--json", metavar="FILE", help="also write a Gradescope results.json")
    check.add_argument("--markdown", metavar="FILE", help="also write the feedback as Markdown")
    check.set_defaults(run=_check)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except GraderError as err:
        print(f"autograder: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("autograder: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
