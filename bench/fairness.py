"""The fairness table: each homework's submissions with a known fault, graded, beside the band
of grades the fault deserves (``tests/data/fairness/<homework>/cases.toml``).

    .venv/bin/python bench/fairness.py                 # every homework
    .venv/bin/python bench/fairness.py board-abc -v    # one, with each criterion's summary

Prints one line per case ("ok" or "OUT", the grade, the band, the case) and exits 1 when a
grade leaves its band; ``tests/test_fairness.py`` asserts the same.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fairness import HOMEWORKS, cases, grade_all, reasons  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("homework", nargs="*", default=list(HOMEWORKS))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="cases whose name holds this text")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    out = 0
    for homework in args.homework:
        print(f"{homework}:")
        found = [c for c in cases(homework) if args.only in c.name]
        for graded in grade_all(found, args.jobs):
            print("  " + graded.line(), flush=True)
            if args.verbose or not graded.within:
                print(reasons(graded))
            out |= not graded.within
    return out


if __name__ == "__main__":
    sys.exit(main())
