"""The "needs a look" scan: time against the number of lines it lists.

    python bench/needs_look_scan.py

A file of N lines each reaching into a frame's caller (``vN = frame.f_back``, one finding a
line), as a ``.py`` file and as the module the grader makes of a notebook holding it in one
cell (whose findings are named "cell C, line M"). The scan runs on every graded submission,
so a file of a few megabytes must not hold up its student's grading: the time must grow
linearly with the findings. Time is the process's CPU time (what the machine's load does not
change).
"""

from __future__ import annotations

import json
import time

from autograder.classroom.notebook import from_notebook
from autograder.errors import GraderError
from autograder.grading.needs_look import scan

SIZES = (2_000, 8_000, 20_000, 60_000)


def lines(count: int) -> str:
    return "\n".join(f"v{n} = frame.f_back" for n in range(count)) + "\n"


def as_notebook(code: str) -> str:
    book = {"cells": [{"cell_type": "code", "source": code}], "metadata": {}, "nbformat": 4}
    return from_notebook(json.dumps(book).encode(), "agent.ipynb").source


def measure(text: str) -> tuple[float, int]:
    began = time.process_time()
    found = scan({"game.py": text})
    return time.process_time() - began, len(found)


def main() -> None:
    print("| lines | file | read as | CPU s | findings |")
    print("|-------|------|---------|-------|----------|")
    for count in SIZES:
        code = lines(count)
        for kind in ("file", "notebook"):
            try:
                text = code if kind == "file" else as_notebook(code)
            except GraderError:  # past a notebook's 512 KB of code: refused before any scan
                print(f"| {count:,} | {len(code.encode()) / 2**20:.1f} MB | {kind} | | refused |")
                continue
            seconds, found = measure(text)
            size = len(text.encode()) / 2**20
            print(f"| {count:,} | {size:.1f} MB | {kind} | {seconds:.2f} | {found:,} |")


if __name__ == "__main__":
    main()
