"""The whole attack corpus as one batch: wall time and the grader's peak memory.

    python bench/corpus_batch.py [--rubric course|quick] [--jobs 2]

Every entry of ``tests/corpus/`` (hostile and broken submissions, bad archives) plus three
good submissions, in one folder, graded by ``autograder grade`` run as a child process. The
grader's own peak resident memory is its VmHWM, read from /proc while it runs (getrusage's
RUSAGE_CHILDREN would also count the submissions' processes, which it reaps); that figure is
printed too, as the largest process of the whole tree.

Targets (issue 5): --jobs 2 on 2 cores, <= 15 minutes, grader peak <= 300 MB.
"""

from __future__ import annotations

import argparse
import collections
import csv
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from autograder.play.sandbox import available  # noqa: E402
from tests.conftest import STARTERS  # noqa: E402
from tests.corpus import ATTACKS, HONEST, Context, missing_layers, quick_rubric  # noqa: E402


def _write_class(folder: Path, rubric: Path) -> int:
    folder.mkdir(parents=True)
    good = {"good_alice": HONEST, "good_bob": HONEST, "good_carol": STARTERS["teeko"].read_text()}
    for student, source in good.items():
        (folder / f"{student}.py").write_text(source)
    marker = f"teeko-attack-bench-{uuid.uuid4().hex[:8]}"
    ctx = Context(folder, folder.parent / "out", folder / "good_alice.py", rubric, marker)
    layers = available()
    names = [
        n
        for n, a in ATTACKS.items()
        if not n.startswith("honest") and not missing_layers(a, layers)
    ]
    for name in names:
        attack, student = ATTACKS[name], "atk_" + name.replace("-", "_")
        target = folder / (f"{student}.py" if attack.suffix == ".py" else f"hw8_{student}.zip")
        target.write_bytes(attack.content(ctx))
    return len(good) + len(names)


def _peak_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rubric", choices=("course", "quick"), default="course")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the class and its outputs")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="teeko-bench-", dir="/var/tmp"))
    quick = base / "quick.toml"
    quick.write_text(quick_rubric())
    students = _write_class(base / "class", quick)
    command = [sys.executable, "-m", "autograder", "grade", str(base / "class"), "-a", "teeko"]
    command += ["--out", str(base / "out"), "--jobs", str(args.jobs)]
    if args.rubric == "quick":
        command += ["--rubric", str(quick)]
    began = time.monotonic()
    grader = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    peak = 0
    while grader.poll() is None:
        peak = max(peak, _peak_kb(grader.pid))
        time.sleep(0.1)
    wall = time.monotonic() - began
    tree = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if grader.returncode != 0:
        sys.exit(f"grade failed ({grader.returncode}): {grader.stderr.read().decode()[-2000:]}")
    with (base / "out" / "grades.csv").open() as handle:
        rows = list(csv.DictReader(handle))
    statuses = collections.Counter(row["status"] for row in rows)
    print(
        f"{students} submissions ({len(rows)} rows: {dict(statuses)}), rubric {args.rubric}, "
        f"--jobs {args.jobs}: {wall:.0f} s wall ({wall / 60:.1f} min); grader peak RSS "
        f"{peak / 1024:.0f} MB (VmHWM); largest process of the tree {tree / 1024:.0f} MB"
    )
    if args.keep:
        print(f"outputs kept in {base}")
    else:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
