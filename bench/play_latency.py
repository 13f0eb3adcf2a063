"""How long the play page waits for an answer to a person's move, beyond the AI's own thinking.

Serves ``autograder play`` for a submission (default: the Connect Four answer key, a quick
player) on 127.0.0.1, plays games by posting clicks as the page does, and for each click
subtracts the AI's own ``make_move`` time (as the grader timed it) from the round trip. Target:
at most 50 ms.

    .venv/bin/python bench/play_latency.py --moves 60
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.games import find_assignment  # noqa: E402
from autograder.grading.rubric import load_rubric  # noqa: E402
from autograder.live.server import TOKEN_HEADER, make_server  # noqa: E402
from autograder.live.table import PROJECT_ROOT, Table  # noqa: E402


def _post(url: str, body: dict[str, object], token: str) -> dict:  # type: ignore[type-arg]
    data = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", TOKEN_HEADER: token}
    request = urllib.request.Request(url, data, headers)
    with urllib.request.urlopen(request, timeout=60) as answer:
        return json.loads(answer.read())  # type: ignore[no-any-return]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--submission", default=str(ROOT / "answer_key" / "connect4" / "game.py"))
    parser.add_argument("--assignment", default="connect4")
    parser.add_argument("--moves", type=int, default=60)
    args = parser.parse_args(argv)
    assignment = find_assignment(args.assignment)
    source = Path(args.submission).resolve()
    table = Table(assignment, load_rubric(None, assignment.pack), source.parent, PROJECT_ROOT)
    server = make_server(table)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    overheads: list[float] = []
    thinking: list[float] = []
    try:
        _post(base + "/new", {"mode": "play", "ai": "y"}, server.token)
        column = 0
        while len(overheads) < args.moves:
            before = time.perf_counter()
            state = _post(base + "/click", {"row": 0, "col": column}, server.token)
            took = time.perf_counter() - before
            moves = state["moves"]
            if state["over"] or not moves or not moves[-1].startswith(f"{len(moves)}. yellow"):
                if state["over"]:
                    _post(base + "/new", {"mode": "play", "ai": "y"}, server.token)
                column = (column + 1) % 7
                continue
            ai = float(state["ai_seconds"])
            overheads.append(took - ai)
            thinking.append(ai)
            column = (column + 3) % 7
    finally:
        server.shutdown()
        server.server_close()
        table.close()
    ms = [o * 1000 for o in overheads]
    print(f"{len(ms)} moves answered; AI thinking median {statistics.median(thinking):.3f} s")
    print(
        f"beyond the AI's own time: median {statistics.median(ms):.1f} ms, "
        f"90th percentile {sorted(ms)[int(len(ms) * 0.9)]:.1f} ms, max {max(ms):.1f} ms"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
