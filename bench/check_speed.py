"""How long ``autograder check`` takes on a fast, deterministic submission, with every sandbox
layer this machine offers and with ``TEEKO_SANDBOX=off``.

    python bench/check_speed.py [--runs 5]

The submission is the attack corpus's honest player (the reference solution with a search of
fixed work, so its games do not depend on the machine's load) graded by the course rubric:
3 games and 20 probes, each in the processes a submission gets. Target (issue 17): a whole
check of a fast submission stays within 1.5x of its time before the allowlist fence.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.corpus import HONEST  # noqa: E402


def _time(path: Path, sandbox: str) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    if sandbox:
        env["TEEKO_SANDBOX"] = sandbox
    began = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "autograder", "check", str(path), "-a", "teeko"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "score: 100/100" in done.stdout, done.stdout[-2000:]
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "game.py"
        path.write_text(HONEST)
        for label, sandbox in (("every layer", ""), ("TEEKO_SANDBOX=off", "off")):
            times = [_time(path, sandbox) for _ in range(args.runs)]
            print(
                f"{label:18} median {statistics.median(times):.2f} s "
                f"(min {min(times):.2f}, max {max(times):.2f}) over {args.runs} checks"
            )


if __name__ == "__main__":
    main()
