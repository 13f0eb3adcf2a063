"""Reading a notebook or a script export: time and memory against its size.

    python bench/notebook_reading.py

The hardest notebook for the reader: a chain of functions, each calling the one before, the
first calling ``input()``, and a last cell calling the end of the chain (the reader must name
that chain to skip the cell). It is built at growing sizes of code, padded with outputs to
5 MB, and read as a notebook and as its script export (``# In[ ]:`` markers). One past the
limit of code is refused in one sentence.

Targets (issue 34): a 5 MB notebook read in under 2 s and 200 MB, time linear in its size.
Time is the process's CPU time (what the machine's load does not change); memory is the peak
of Python's allocations while reading (tracemalloc, measured in a second pass).
"""

from __future__ import annotations

import contextlib
import functools
import json
import resource
import time
import tracemalloc
from collections.abc import Callable

from autograder.classroom.notebook import MAX_CODE_BYTES, from_notebook, from_script_export
from autograder.errors import GraderError

_PER_CELL = 100  # functions in one cell
_PADDED = 5 << 20  # bytes of the whole notebook, outputs included


def chain(code_bytes: int) -> list[str]:
    """Cells of a chain of functions of about ``code_bytes`` of code, ending in a call."""
    functions = ["def f0():\n    return input()\n"]
    size = len(functions[0])
    while size < code_bytes - 40:
        n = len(functions)
        functions.append(f"def f{n}():\n    return f{n - 1}()\n")
        size += len(functions[-1])
    cells = ["".join(functions[k : k + _PER_CELL]) for k in range(0, len(functions), _PER_CELL)]
    return [*cells, f"f{len(functions) - 1}()\n"]


def notebook(cells: list[str], total: int) -> bytes:
    """A notebook of ``cells`` with a stream output padding it to ``total`` bytes."""
    book = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": []} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    pad = max(0, total - len(json.dumps(book)) - 200)
    book["cells"][0]["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "x" * pad}]
    return json.dumps(book).encode()


def export(cells: list[str]) -> str:
    return "".join(f"# In[{n}]:\n\n{cell}\n\n" for n, cell in enumerate(cells, 1))


def measure(read: Callable[[], object]) -> tuple[float, float, str]:
    """CPU seconds, peak MB of Python's allocations, and the outcome of ``read``."""
    start = time.process_time()
    try:
        read()
        outcome = "read"
    except GraderError as err:
        outcome = f"refused: {err}"
    seconds = time.process_time() - start
    tracemalloc.start()
    with contextlib.suppress(GraderError):
        read()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak, outcome


def main() -> None:
    print(f"{'code MB':>8} {'file MB':>8} {'kind':>9} {'CPU s':>7} {'peak MB':>8}  outcome")
    sizes = [MAX_CODE_BYTES // 4, MAX_CODE_BYTES // 2, MAX_CODE_BYTES - 1024, 5 << 20]
    for code in sizes:
        cells = chain(code)
        data = notebook(cells, _PADDED)
        text = export(cells)
        for kind, read in (
            ("notebook", functools.partial(from_notebook, data, "hw.ipynb")),
            ("export", functools.partial(from_script_export, text, "hw.py")),
        ):
            seconds, peak, outcome = measure(read)
            size = len(data) if kind == "notebook" else len(text.encode())
            print(
                f"{code / 2**20:8.2f} {size / 2**20:8.2f} {kind:>9} {seconds:7.2f} "
                f"{peak:8.1f}  {outcome[:90]}"
            )
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"the whole bench process, notebooks and all: {rss:.0f} MB resident at most")


if __name__ == "__main__":
    main()
