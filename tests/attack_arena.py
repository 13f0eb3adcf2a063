"""The arena the attack tests grade the corpus (``tests/corpus/``) in: a scratch folder
under /var/tmp with what an attacker would go for, each entry checked once and kept, and the
helpers that read what the grader left behind."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import shutil
import socket
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autograder.play.sandbox import INSTALL_BWRAP, available
from tests.conftest import SOLUTIONS, autograder_process
from tests.corpus import (
    ATTACKS,
    COURSE_RUBRIC,
    LONG_CLASS_NAME,
    PATIENT_RUBRIC,
    Attack,
    Context,
    missing_layers,
    quick_rubric,
)

LAYERS = available()
needs_fence = pytest.mark.skipif(
    not LAYERS.fence, reason=f"needs the fence: {INSTALL_BWRAP} (and root or user namespaces)"
)
needs_cgroups = pytest.mark.skipif(
    LAYERS.cgroups is None, reason="needs cgroups: root and a writable cgroup hierarchy"
)
SOURCES = [name for name, attack in ATTACKS.items() if attack.scores is not None]
ARCHIVES = [name for name, attack in ATTACKS.items() if attack.scores is None]
CLASSMATE = "CLASSMATE_SECRET = 'the answer to problem 3 is B2'\n"
# Entries whose check neither spends nor measures time or memory, nor kills what it can reach:
# checked two at a time (as the kit's own ``--jobs 2`` grades), each beside the next one;
# every other check runs alone, once those have finished.
POOLED = [
    name
    for name in SOURCES
    if ATTACKS[name].kind not in ("time", "space")
    and ATTACKS[name].seconds == Attack.seconds
    and not name.startswith("kills-")
    and not missing_layers(ATTACKS[name], LAYERS)
]


def attack_param(name: str) -> Any:
    """An entry as a test parameter: skipped where a layer it needs is missing; in the serial
    pass (tests/conftest.py) unless it is pooled, since it spends or measures time or memory."""
    missing = missing_layers(ATTACKS[name], LAYERS)
    marks = [pytest.mark.skip(reason="needs " + "; ".join(missing))] if missing else []
    if name not in POOLED:
        marks.append(pytest.mark.serial)
    return pytest.param(name, marks=marks, id=name)


def normalised(text: str) -> str:
    return " ".join(text.split())


def scores_of(results: dict[str, Any]) -> dict[str, float]:
    return {test["tags"][0]: test["score"] for test in results["tests"]}


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    seconds: float
    results: dict[str, Any] | None
    results_text: str

    @property
    def seen(self) -> str:
        """Everything the student is shown, whitespace-normalised."""
        outputs = [self.results.get("output", "")] if self.results else []
        outputs += [t["output"] for t in (self.results or {}).get("tests", [])]
        return normalised(self.stdout + " " + " ".join(outputs))


class _Service:
    """Unix sockets a service outside listens on (one in the file system, one abstract);
    it keeps what it hears, which must stay nothing."""

    def __init__(self, path: Path) -> None:
        self.path, self.name = path, f"teeko-service-{uuid.uuid4().hex[:12]}"
        self.heard: list[bytes] = []
        self._servers = []
        for address in (str(path), "\0" + self.name):
            server = socket.socket(socket.AF_UNIX)
            server.bind(address)
            server.listen()
            self._servers.append(server)
            threading.Thread(target=self._serve, args=(server,), daemon=True).start()

    def _serve(self, server: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while True:
                connection, _ = server.accept()
                with connection:
                    self.heard.append(connection.recv(1024))

    def close(self) -> None:
        for server in self._servers:
            server.close()


class Arena:
    """A scratch folder under /var/tmp where attacks are written, graded and inspected, with
    the things an attacker would go for: a root-only file, another checkout of the kit's
    solution, the grader's temporary folder and a listening service."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.rubric = base / "quick.toml"
        self.rubric.write_text(quick_rubric())
        self.patient = base / "patient.toml"
        self.patient.write_text(quick_rubric(call_seconds=10.0))
        self.root_only = base / "root-only.txt"
        self.root_only.write_text("ROOT_ONLY_SECRET = 'the grading key is 4242'\n")
        self.root_only.chmod(0o600)
        self.checkout = base / "other-checkout" / "solution" / "teeko" / "game.py"
        self.checkout.parent.mkdir(parents=True)
        shutil.copy(SOLUTIONS["teeko"], self.checkout)
        self.tmpdir = base / "graders-tmp"
        self.tmpdir.mkdir()
        self.service = _Service(base / "service.sock")
        self.cache: dict[tuple[str, str], Run] = {}
        self.before: dict[tuple[str, str], dict[str, str]] = {}
        self.pool = futures.ThreadPoolExecutor(2)
        self.started: dict[str, futures.Future[None]] = {}

    def context(self, here: Path, out: Path, other: Path, marker: str) -> Context:
        return Context(
            here=here,
            out=out,
            other=other,
            rubric=self.rubric,
            marker=marker,
            root_only=self.root_only,
            checkout=self.checkout,
            tmpdir=self.tmpdir,
            socket=self.service.path,
            service=self.service.name,
        )

    def check(self, name: str, sandbox: str = "") -> tuple[Run, Context]:
        """``autograder check`` on the attack as a student's file in a class folder (once: the
        run is kept for the entry's other tests). A pooled entry starts with the next pooled
        one beside it and raises its own failure, in each of its tests."""
        key = (name, sandbox)
        folder = self.base / f"{name}{'-' + sandbox if sandbox else ''}"
        if key not in self.cache:
            if not sandbox and name in POOLED:
                at = POOLED.index(name)
                for ahead in POOLED[at : at + 2]:
                    if ahead not in self.started:
                        self.started[ahead] = self.pool.submit(self._check, ahead, "")
                self.started[name].result()
            else:
                self.settle()
                self._check(name, sandbox)
        return self.cache[key], self._context(folder)

    def settle(self) -> None:
        """Wait for the pooled checks still running: what follows runs alone."""
        futures.wait(self.started.values())

    def _check(self, name: str, sandbox: str) -> None:
        key = (name, sandbox)
        folder = self.base / f"{name}{'-' + sandbox if sandbox else ''}"
        attack = ATTACKS[name]
        here, out = folder / "class", folder / "out"
        here.mkdir(parents=True)
        out.mkdir()
        ctx = self._context(folder)
        ctx.other.write_text(CLASSMATE)
        if isinstance(attack.payload, dict):  # a folder, as a student checks theirs
            path = here / "student"
            for relative, data in attack.files(ctx).items():
                (path / relative).parent.mkdir(parents=True, exist_ok=True)
                (path / relative).write_bytes(data)
        else:
            path = here / (
                attack.filename or ("student.py" if attack.suffix == ".py" else "hw8_student.zip")
            )
            path.write_bytes(attack.content(ctx))
        args = ["check", str(path), "--assignment", attack.assignment]
        args += ["--json", str(out / "results.json")]
        args += ["--markdown", str(out / "report.md")]
        if attack.rubric != COURSE_RUBRIC:
            rubric = self.patient if attack.rubric == PATIENT_RUBRIC else self.rubric
            args += ["--rubric", str(rubric)]
        self.before[key] = {p: Path(p).read_text() for p in attack.unchanged}
        self.cache[key] = run_autograder(args, sandbox, tmpdir=self.tmpdir)

    def _context(self, folder: Path) -> Context:
        here = folder / "class"
        marker = f"teeko-attack-{uuid.uuid5(uuid.NAMESPACE_URL, str(folder)).hex[:12]}"
        return self.context(here, folder / "out", here / "classmate.py", marker)


def run_autograder(
    args: list[str], sandbox: str = "", timeout: float = 300, tmpdir: Path | None = None
) -> Run:
    began = time.monotonic()
    env = {"TEEKO_SANDBOX": sandbox} if sandbox else {}
    if tmpdir is not None:  # where the grader unpacks and stages submissions
        env["TMPDIR"] = str(tmpdir)
    done = autograder_process(args, env, timeout)
    seconds = time.monotonic() - began
    results, text = None, ""
    if "--json" in args:
        target = Path(args[args.index("--json") + 1])
        if target.exists():
            text = target.read_text()
            results = json.loads(text)
    if done.returncode not in (0, 2):
        print(done.stdout, done.stderr, sep="\n")
    return Run(done.returncode, done.stdout, done.stderr, seconds, results, text)


def _scratch() -> Path:
    """A folder outside /tmp when the machine has one we may write, else a temporary one."""
    for parent in ("/var/tmp", None):
        try:
            return Path(tempfile.mkdtemp(prefix="teeko-attacks-", dir=parent))
        except OSError:
            continue
    raise AssertionError("no scratch folder")


@contextlib.contextmanager
def open_arena() -> Iterator[Arena]:
    """An arena for the run (the ``arena`` fixture in tests/conftest.py), removed after it."""
    base = _scratch()
    arena = Arena(base)
    try:
        yield arena
    finally:
        arena.pool.shutdown(cancel_futures=True)
        arena.service.close()
        shutil.rmtree(base, ignore_errors=True)


def survivors(marker: str, seconds: float = 3.0) -> list[str]:
    """Command lines of live processes carrying ``marker``, after giving them time to die."""
    deadline = time.monotonic() + seconds
    while True:
        found = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit() and entry.name != str(os.getpid()):
                try:
                    command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                except (OSError, IndexError):
                    continue
                if marker in command and state != "Z":
                    found.append(command)
        if not found or time.monotonic() > deadline:
            return found
        time.sleep(0.1)


def secret_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if len(line.strip()) >= 20]


def grade_rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def grade_folder(inputs: Path, out: Path, rubric: Path, tmpdir: Path | None = None) -> Run:
    args = ["grade", str(inputs), "-a", "teeko", "--out", str(out), "--jobs", "2"]
    return run_autograder([*args, "--rubric", str(rubric)], timeout=1200, tmpdir=tmpdir)


def assert_nothing_raw(texts: list[str]) -> None:
    """No terminal escape, no bidirectional override, no 2000-character name, in any text."""
    for text in texts:
        loaded = text
        with contextlib.suppress(ValueError):
            loaded = json.dumps(json.loads(text), ensure_ascii=False)  # \\u escapes undone
        assert "\x1b" not in loaded and "\u202e" not in loaded
        assert LONG_CLASS_NAME not in loaded
