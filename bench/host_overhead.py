"""Grader overhead: make_move round trips with an instant player, and process start + import,
with each set of sandbox layers this machine offers.

    python bench/host_overhead.py [--calls 2000] [--starts 30]

Layer sets: "bare" (a process and resource limits only, as with TEEKO_SANDBOX=off), "fence"
(bubblewrap and the uid switch) and "all" (fence, cgroups with a freeze between calls, seccomp).

Targets (issue 3): median round trip <= 2 ms; start + import of a small game.py <= 150 ms.
Target (issue 17): the fence adds <= 30 ms per process started.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from autograder.games import PACKS
from autograder.play.host import PlayerProcess
from autograder.play.launch import Launch, Limits
from autograder.play.sandbox import Protections, available

INSTANT = """
class TeekoPlayer:
    board = [[' ' for j in range(5)] for i in range(5)]
    pieces = ['b', 'r']

    def make_move(self, state):
        return [(0, 0)]
"""


def _measure(folder: Path, layers: Protections, starts: int, calls: int) -> str:
    launch = Launch(folder, PACKS["teeko"].driver, "game.py", 0, Limits(), layers)
    began_all = []
    for _ in range(starts):
        began = time.perf_counter()
        with PlayerProcess(launch) as proc:
            assert proc.start().ok
            began_all.append(time.perf_counter() - began)
    with PlayerProcess(launch) as proc:
        assert proc.start().ok
        proc.request({"op": "new", "cls": "TeekoPlayer", "side": "b"}, 5, "init")
        trips = []
        for _ in range(calls):
            reply = proc.request({"op": "move"}, 5, "make_move")
            assert reply.ok
            trips.append(reply.seconds)
    return (
        f"start + import median {statistics.median(began_all) * 1000:.1f} ms "
        f"(max {max(began_all) * 1000:.1f}); round trip median "
        f"{statistics.median(trips) * 1000:.3f} ms (p99 "
        f"{sorted(trips)[int(len(trips) * 0.99)] * 1000:.3f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--starts", type=int, default=30)
    args = parser.parse_args()
    full = available()
    sets = {"bare": Protections(full.resource_limits)}
    if full.fence:
        sets["fence"] = replace(full, cgroups=None, seccomp=False)
    sets["all"] = full
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "game.py").write_text(INSTANT)
        for name, layers in sets.items():
            print(f"{name:6} {_measure(Path(folder), layers, args.starts, args.calls)}")


if __name__ == "__main__":
    main()
