"""Grader overhead: make_move round trips with an instant player, and process start + import.

    python bench/host_overhead.py [--calls 2000] [--starts 30]

Targets (issue 3): median round trip <= 2 ms; start + import of a small game.py <= 150 ms.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from autograder.host import Limits, PlayerProcess

INSTANT = """
class TeekoPlayer:
    board = [[' ' for j in range(5)] for i in range(5)]
    pieces = ['b', 'r']

    def make_move(self, state):
        return [(0, 0)]
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--starts", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "game.py").write_text(INSTANT)
        starts = []
        for _ in range(args.starts):
            began = time.perf_counter()
            with PlayerProcess(Path(folder), seed=0, limits=Limits()) as proc:
                assert proc.start().ok
                starts.append(time.perf_counter() - began)
        with PlayerProcess(Path(folder), seed=0, limits=Limits()) as proc:
            assert proc.start().ok
            proc.request({"op": "new", "cls": "TeekoPlayer", "piece": "b"}, 5, "init")
            trips = []
            for _ in range(args.calls):
                reply = proc.request({"op": "move"}, 5, "make_move")
                assert reply.ok
                trips.append(reply.seconds)
    print(
        f"start + import: median {statistics.median(starts) * 1000:.1f} ms, "
        f"max {max(starts) * 1000:.1f} ms over {len(starts)} starts"
    )
    print(
        f"make_move round trip: median {statistics.median(trips) * 1000:.3f} ms, "
        f"p99 {sorted(trips)[int(len(trips) * 0.99)] * 1000:.3f} ms over {len(trips)} calls"
    )


if __name__ == "__main__":
    main()
