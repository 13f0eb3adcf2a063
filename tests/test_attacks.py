"""The attack corpus (``tests/corpus.py``) graded end to end, in real child processes.

Each entry goes through ``autograder check`` and must get exactly its points and its message;
the filesystem attacks must also leave no trace (the file was not written, the secret does not
appear in any report), the process attacks must leave no process behind, and the attacks on
the grader must not change the games played. Then the whole corpus is graded as one batch with
good submissions among it, and a few entries again with ``TEEKO_SANDBOX=off``.

The submissions, the rubric and the output folders live under /var/tmp, not /tmp: outside the
private /tmp each child gets, so it is the read-only, hidden view of the rest that must stop
the filesystem attacks.
"""

from __future__ import annotations

import contextlib
import csv
import html
import json
import os
import re
import shutil
import socket
import statistics
import tempfile
import threading
import time
import uuid
import zipfile
from concurrent import futures
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from autograder.classroom.student_folder import student_dir
from autograder.play import fence
from autograder.play.launch import PACKAGES
from autograder.play.sandbox import INSTALL_BWRAP, available
from autograder.play.untrusted import admit
from tests.conftest import SOLUTIONS, STARTERS, autograder_process
from tests.corpus import (
    ATTACKS,
    CLASS_ATTACKS,
    COURSE_RUBRIC,
    FORGERS,
    HONEST,
    LONG_CLASS_NAME,
    LOOK,
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


def _param(name: str) -> Any:
    """An entry as a test parameter: skipped where a layer it needs is missing; in the serial
    pass (tests/conftest.py) unless it is pooled, since it spends or measures time or memory."""
    missing = missing_layers(ATTACKS[name], LAYERS)
    marks = [pytest.mark.skip(reason="needs " + "; ".join(missing))] if missing else []
    if name not in POOLED:
        marks.append(pytest.mark.serial)
    return pytest.param(name, marks=marks, id=name)


def _words(text: str) -> str:
    return " ".join(text.split())


def _scores(results: dict[str, Any]) -> dict[str, float]:
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
        return _words(self.stdout + " " + " ".join(outputs))


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
        self.cache[key] = _autograder(args, sandbox, tmpdir=self.tmpdir)

    def _context(self, folder: Path) -> Context:
        here = folder / "class"
        marker = f"teeko-attack-{uuid.uuid5(uuid.NAMESPACE_URL, str(folder)).hex[:12]}"
        return self.context(here, folder / "out", here / "classmate.py", marker)


def _autograder(
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


@pytest.fixture(scope="module")
def arena() -> Any:
    base = _scratch()
    arena = Arena(base)
    try:
        yield arena
    finally:
        arena.pool.shutdown(cancel_futures=True)
        arena.service.close()
        shutil.rmtree(base, ignore_errors=True)


def _survivors(marker: str, seconds: float = 3.0) -> list[str]:
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


def _secret_lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines() if len(line.strip()) >= 20]


# ---- every source attack, one ``check`` each ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n) for n in SOURCES])
def test_an_attack_gets_its_grade_and_its_message(name: str, arena: Arena) -> None:
    attack = ATTACKS[name]
    run, ctx = arena.check(name)
    assert run.returncode == 0, run.stderr
    assert run.results is not None
    assert _scores(run.results) == attack.scores, run.stdout
    assert run.results["score"] == attack.total
    assert _words(ctx.fill(attack.message)) in run.seen, run.stdout
    assert "Traceback" not in run.stdout + run.stderr
    allowed = attack.seconds * _load_per_core()  # a busy machine stretches any wall time
    assert run.seconds < allowed, f"the check took {run.seconds:.1f} s (allowed {allowed:.0f} s)"


def _load_per_core() -> float:
    """How many times oversubscribed this machine's cores were over the last minute, at least
    1: how much longer the same work takes in wall time (the kit stretches its own backstops
    by it: docs/sandbox.md). Beside two CPU burners per core and other work, the check of
    holds-memory-in-memfd took 31.1 s (at load 20 on 2 cores)."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1.0, os.getloadavg()[0] / (cores or 1))


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [_param(n) for n in SOURCES if ATTACKS[n].absent or ATTACKS[n].secret or ATTACKS[n].unchanged],
)
def test_a_filesystem_attack_leaves_no_trace(name: str, arena: Arena) -> None:
    """The files it wrote do not exist and the host files it wrote to are unchanged; what it
    read appears in no report or output."""
    attack = ATTACKS[name]
    run, ctx = arena.check(name)
    for template in attack.absent:
        assert not Path(ctx.fill(template)).exists(), ctx.fill(template)
    for path, before in arena.before[(name, "")].items():
        assert Path(path).read_text() == before, path
    assert sorted(p.name for p in ctx.here.iterdir()) == ["classmate.py", "student.py"]
    assert (ctx.here / "classmate.py").read_text() == CLASSMATE
    if attack.secret is not None:
        shown = run.stdout + run.stderr + run.results_text
        leaked = [line for line in _secret_lines(Path(ctx.fill(attack.secret))) if line in shown]
        assert not leaked, leaked


@pytest.mark.slow
@needs_fence
def test_a_fake_results_json_is_overwritten_and_cannot_be_replaced_later(arena: Arena) -> None:
    """The submission writes results.json at import and leaves a daemon to write it again
    after grading: the grader's own file stands, with the real score, seconds later."""
    run, ctx = arena.check("fakes-results-json")
    deadline = time.monotonic() + 4  # the daemon would write from 3 s on, for 10 s
    while time.monotonic() < deadline:
        assert (ctx.out / "results.json").read_text() == run.results_text
        time.sleep(0.1)
    assert json.loads(run.results_text)["score"] == ATTACKS["fakes-results-json"].total


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n) for n in SOURCES if ATTACKS[n].survivors])
def test_no_process_the_submission_started_survives(name: str, arena: Arena) -> None:
    _, ctx = arena.check(name)
    assert _survivors(ctx.fill(ATTACKS[name].survivors or "")) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n) for n in SOURCES if ATTACKS[n].same_games_as])
def test_patching_the_grader_from_inside_changes_no_game(name: str, arena: Arena) -> None:
    """The random opponent, the clock and the referee live in the grader: patching random,
    time, builtins or the autograder package in the child plays exactly the same games."""
    run, _ = arena.check(name)
    baseline, _ = arena.check(ATTACKS[name].same_games_as or "")
    assert run.results is not None and baseline.results is not None
    games = {t["tags"][0]: t["output"] for t in run.results["tests"]}["wins"]
    expected = {t["tags"][0]: t["output"] for t in baseline.results["tests"]}["wins"]
    assert games == expected


LOOKED_AT = (
    *FORGERS,
    "silences-the-runner",
    "hides-its-code-compressed",
    "reaches-into-the-grader-by-other-means",
    "remounts-and-unshares-to-escape",
)


@pytest.mark.slow
@pytest.mark.parametrize("name", [_param(n) for n in LOOKED_AT])
def test_code_that_reaches_into_the_runner_is_listed_under_needs_a_look(
    name: str, arena: Arena
) -> None:
    """Nothing inside the process refuses it: the grader reads the source, and each report
    lists what it found, a line each, with no points taken (results.json's output and
    extra_data; the forgers' extra files are listed under packaging too)."""
    run, _ = arena.check(name)
    assert run.results is not None
    found = run.results["extra_data"]["needs_look"]
    assert found and all(line.startswith(("game.py line ", "_forge.py line ")) for line in found)
    assert all(f"{LOOK}{line}" in run.results["output"] for line in found)
    assert "needs a look (no points taken)" in run.stdout
    if ATTACKS[name].assignment == "board-abc":
        packaging = {t["tags"][0]: t["output"] for t in run.results["tests"]}["packaging"]
        assert "also handed in: _forge.py, _ref/board.py, _ref/connectfour.py" in packaging


# ---- archives: refused by ``check`` in one line ---------------------------------------------


@pytest.mark.parametrize("name", ARCHIVES)
def test_a_bad_archive_is_refused_in_one_line(name: str, arena: Arena) -> None:
    run, ctx = arena.check(name)
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0, run.stderr
    assert f"autograder: hw8_student.zip {ctx.fill(ATTACKS[name].message)}" in run.stderr
    assert sorted(p.name for p in ctx.here.iterdir()) == ["classmate.py", "hw8_student.zip"]
    assert not (ctx.here.parent / "game.py").exists(), "an entry was unpacked outside"


# ---- without the optional layers ------------------------------------------------------------

UNFENCED = [
    "honest",
    "os-exit-in-make-move",
    "kills-itself",
    "kills-its-process-group",
    "segfault-by-recursion",
    "infinite-loop-in-make-move",
    "child-in-a-new-session",
    "double-fork-daemon",
    "process-floods-stdout-forever",
    "thread-prints-after-the-call",
    "memory-creep",
    "forges-a-reply",
    "patches-builtins-json-and-copy",
    "imports-numpy",  # the rubric's packages, no more, whatever the grader's Python holds
    "imports-a-package-the-course-does-not-allow",
    "saved-as-latin-1-accent-in-a-comment",
]


@pytest.mark.slow
@pytest.mark.serial  # unfenced, what an attack reaches is the machine's
@pytest.mark.parametrize("name", UNFENCED)
def test_without_the_fence_the_grader_still_works_and_warns(name: str, arena: Arena) -> None:
    """TEEKO_SANDBOX=off (a student's laptop, macOS): the same grades, the processes still
    reaped, and the report's header says what is missing."""
    attack = ATTACKS[name]
    run, ctx = arena.check(name, sandbox="off")
    assert run.returncode == 0, run.stderr
    assert run.results is not None
    assert _scores(run.results) == attack.scores, run.stdout
    assert _words(ctx.fill(attack.unfenced or attack.message)) in run.seen
    header = run.results["output"]
    assert "sandbox: warning: no filesystem fence" in header
    assert "sandbox: warning: runs as the grader's user" in header
    if attack.survivors:
        assert _survivors(ctx.fill(attack.survivors)) == []


@pytest.mark.slow
@pytest.mark.serial  # unfenced
def test_without_the_fence_killing_the_parent_kills_only_the_reaper(arena: Arena) -> None:
    """Without a pid namespace the submission's parent is a reaper of its own, not the grader:
    killing it ends the submission's process (the kernel kills the runner with its parent), the
    grader goes on. Each of the three move-phase probes races the kernel's kill against its
    reply: when the reply wins, that call answered and earns its time. On a quiet machine the
    reply wins two races of three (time 23 of 25); beside CPU burners, one or none (21 or 20):
    time is the answered calls' share of the 14, whichever way the races went."""
    run, _ = arena.check("kills-its-parent", sandbox="off")
    assert run.returncode == 0, run.stderr
    assert run.results is not None
    scores = _scores(run.results)
    assert (scores["rules"], scores["wins"]) == (10, 30)
    time = next(t["output"] for t in run.results["tests"] if t["tags"][0] == "time")
    raced = re.search(r"(\d) calls? raised and made no move to time: (\d+) of 14 timed", time)
    assert raced, time
    raised, answered = int(raced[1]), int(raced[2])
    assert 1 <= raised <= 3 and answered == 14 - raised, time
    assert scores["time"] == round(25 * answered / 14), time
    assert "the submission's process was killed by SIGKILL" in run.seen


@pytest.mark.slow
@needs_fence
def test_the_report_header_names_the_active_layers(arena: Arena) -> None:
    run, _ = arena.check("honest")
    assert run.results is not None
    header = run.results["output"]
    assert "sandbox: own process group, killed whole" in header
    assert "sandbox: fence: sees only Python, its standard library, the runner" in header
    if LAYERS.root:
        assert "sandbox: runs as an unprivileged user of its own, with no capability" in header
    if LAYERS.cgroups and LAYERS.seccomp:
        assert "warning" not in header


@pytest.mark.slow
@needs_fence
def test_every_mount_but_the_private_tmp_is_read_only(arena: Arena, tmp_path: Path) -> None:
    """Not only the mounts the corpus happens to try: every mount point the child sees. Its
    private /tmp and /dev/shm (tmpfs, sized, its own) are the only places it can write."""
    probe = HONEST + (
        "\nimport os as _os\n_open = []\n"
        "for _line in open('/proc/self/mountinfo'):\n"
        "    _point = _line.split()[4]\n"
        "    if _point.startswith('/proc') or not _os.path.isdir(_point):\n"
        "        continue\n"
        "    try:\n"
        "        open(_os.path.join(_point, '.teeko-probe'), 'w').close()\n"
        "        _os.remove(_os.path.join(_point, '.teeko-probe'))\n"
        "        _open.append(_point)\n"
        "    except OSError:\n"
        "        pass\n"
        "print('writable:', sorted(_open))\n"
    )
    (tmp_path / "game.py").write_text(probe)
    out = arena.base / "mounts.json"
    run = _autograder(
        ["check", str(tmp_path / "game.py"), "--rubric", str(arena.rubric), "--json", str(out)]
    )
    assert run.returncode == 0, run.stderr
    assert "printed: writable: ['/dev/shm', '/tmp']" in run.seen


# ---- the whole corpus as one batch ----------------------------------------------------------

GOOD = {"good_alice": HONEST, "good_bob": HONEST, "good_carol": STARTERS["teeko"].read_text()}


def _student(name: str) -> str:
    return "atk_" + name.replace("-", "_")


def _write_class(folder: Path, ctx: Context, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for student, source in GOOD.items():
        (folder / f"{student}.py").write_text(source)
    (folder / "classmate.py").write_text(CLASSMATE)
    for name in names:
        attack = ATTACKS[name]
        student = _student(name)
        name = f"{student}.py" if attack.suffix == ".py" else f"hw8_{student}.zip"
        target = folder / (
            attack.filename.replace("student", student, 1) if attack.filename else name
        )
        target.write_bytes(attack.content(ctx))


def _key(name: str) -> str:
    """The id the batch keys the attack ``name`` by: its file's name as handed in."""
    attack = ATTACKS[name]
    if attack.filename is None:
        return _student(name)
    return Path(attack.filename.replace("student", _student(name), 1)).stem


def _row(name: str) -> str:
    """The row the batch gives the attack ``name``: its id, escaped by the text gate."""
    return admit(_key(name), "file")


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "grades.csv").open() as handle:
        return {row["student"]: row for row in csv.DictReader(handle)}


def _grade(inputs: Path, out: Path, rubric: Path, tmpdir: Path | None = None) -> Run:
    args = ["grade", str(inputs), "-a", "teeko", "--out", str(out), "--jobs", "2"]
    return _autograder([*args, "--rubric", str(rubric)], timeout=1200, tmpdir=tmpdir)


@pytest.mark.slow
@pytest.mark.timeout(1200)  # as long as its batch may run (_grade); on a busy machine, minutes
@pytest.mark.long(35)
@needs_fence
def test_the_whole_corpus_as_one_batch(arena: Arena) -> None:
    """Every attack gets its row and its reason; the good submissions get exactly the grades
    they get in a batch of their own; no process of the batch survives it."""
    names = [
        n
        for n, a in ATTACKS.items()
        if not n.startswith("honest") and a.assignment == "teeko" and not missing_layers(a, LAYERS)
    ]
    folder, out = arena.base / "batch" / "class", arena.base / "batch" / "out"
    marker = f"teeko-attack-batch-{uuid.uuid4().hex[:8]}"
    ctx = arena.context(folder, out, folder / "classmate.py", marker)
    _write_class(folder, ctx, names)
    run = _grade(folder, out, arena.rubric, arena.tmpdir)
    assert run.returncode == 0, run.stderr
    rows = _rows(out)
    assert sorted(rows) == sorted([*GOOD, "classmate", *(_row(n) for n in names)])

    alone_folder, alone_out = arena.base / "alone" / "class", arena.base / "alone" / "out"
    _write_class(alone_folder, ctx, [])
    assert _grade(alone_folder, alone_out, arena.rubric).returncode == 0
    alone = _rows(alone_out)
    for student in GOOD:
        keep = ("score", "rules", "state", "format", "time", "wins", "output", "reason")
        assert {k: rows[student][k] for k in keep} == {k: alone[student][k] for k in keep}
    assert rows["good_alice"]["score"] == "100"

    for name in names:
        attack, row = ATTACKS[name], rows[_row(name)]
        feedback = (student_dir(out, _row(name)) / "feedback.md").read_text()
        message = _words(ctx.fill(attack.message))
        if attack.scores is None:
            assert row["status"] == "error" and row["score"] == "0", (name, row)
            assert message in row["reason"], (name, row["reason"])
        else:
            assert row["status"] == "graded", (name, row)
            if not attack.message.startswith("won ") and attack.rubric != PATIENT_RUBRIC:
                assert message in _words(feedback), (name, row["reason"])
        if attack.total == 0 and attack.scores is not None:
            assert row["reason"], f"{name}: a zero needs its reason in grades.csv"
    for template in (a for n in names for a in ATTACKS[n].absent):
        assert not Path(ctx.fill(template)).exists(), ctx.fill(template)
    assert _survivors(marker) == []
    everything = (
        "".join(p.read_text() for p in out.rglob("*.md")) + (out / "grades.csv").read_text()
    )
    assert CLASSMATE.strip() not in everything
    assert not any(line in everything for line in _secret_lines(arena.rubric))
    for student in rows:  # one gate for submission text: nothing raw, nothing huge
        sizes = {p.name: p.stat().st_size for p in student_dir(out, student).iterdir()}
        assert sum(sizes.values()) <= 100_000, (student, sizes)
    _assert_nothing_raw([run.stdout, run.stderr, *(p.read_text() for p in out.rglob("*.*"))])


# ---- what the fence lets it see, reach and print ---------------------------------------------

_LOOKS_AROUND = """
import os as _os
_allowed = $allowed
_outside, _names = [], []


def _inside(path):
    return any(path == a or path.startswith(a.rstrip("/") + "/") for a in _allowed)


def _above(path):
    return any(a.startswith(path.rstrip("/") + "/") for a in _allowed)


for _root, _dirs, _files in _os.walk("/"):
    _names += [n for n in _dirs + _files if "teeko" in n or "autograder" in n or "rubric" in n]
    if _root in ("/proc", "/sys", "/dev"):
        _dirs[:] = []
        continue
    for _name in _dirs + _files:
        _path = _os.path.join(_root, _name)
        if not (_inside(_path) or _above(_path)):
            _outside.append(_path)
    _paths = [_os.path.join(_root, d) for d in _dirs]
    _dirs[:] = [_os.path.basename(p) for p in _paths if _above(p) or _inside(p)]
print("outside the allowlist:", sorted(_outside)[:10], "kit names:", sorted(_names)[:10])
"""


@pytest.mark.slow
@needs_fence
def test_the_submission_sees_only_the_allowlist(arena: Arena, tmp_path: Path) -> None:
    """Every path it can find is on the fence's allowlist (the interpreter, its library and
    the folders of the libraries it loads, the runner, its own files, /tmp, /dev, /proc), and
    nothing anywhere it can see is named after the kit, its rubrics or this test."""
    where = fence.layout(PACKAGES)
    allowed = [*where.read_only, *(link for _, link in where.symlinks)]
    allowed += ["/sandbox", "/tmp", "/dev", "/proc"]
    source = HONEST + _LOOKS_AROUND.replace("$allowed", repr(allowed))
    (tmp_path / "game.py").write_text(source)
    out = arena.base / "looks-around.json"
    run = _autograder(["check", str(tmp_path / "game.py"), "--json", str(out)])
    assert run.returncode == 0, run.stderr
    assert "printed: outside the allowlist: [] kit names: []" in run.seen, run.stdout


@pytest.mark.slow
@needs_fence
def test_no_service_outside_hears_from_the_submission(arena: Arena) -> None:
    run, _ = arena.check("connects-to-a-unix-socket")
    assert run.returncode == 0
    assert arena.service.heard == []


@pytest.mark.slow
def test_terminal_escapes_reach_no_report_raw(arena: Arena) -> None:
    run, ctx = arena.check("prints-terminal-escapes")
    markdown = (ctx.out / "report.md").read_text()
    for text in (run.stdout, run.results_text, markdown):
        assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "\\x1b[2J" in markdown and "\\u202eevil" in markdown


def _assert_nothing_raw(texts: list[str]) -> None:
    """No terminal escape, no bidirectional override, no 2000-character name, in any text."""
    for text in texts:
        loaded = text
        with contextlib.suppress(ValueError):
            loaded = json.dumps(json.loads(text), ensure_ascii=False)  # \\u escapes undone
        assert "\x1b" not in loaded and "\u202e" not in loaded
        assert LONG_CLASS_NAME not in loaded


@pytest.mark.slow
@pytest.mark.parametrize(
    "name", ["defines-a-2000-character-class-name", "file-name-with-terminal-escapes"]
)
def test_names_reach_no_report_raw_nor_whole(name: str, arena: Arena, tmp_path: Path) -> None:
    """The class name and the file name enter the grader through one gate: the terminal,
    results.json, the Markdown and the HTML hold them cleaned and cut."""
    run, ctx = arena.check(name)
    page = tmp_path / "feedback.html"
    path = next(p for p in ctx.here.iterdir() if p.name != "classmate.py")
    args = ["check", str(path), "-a", "teeko", "--rubric", str(arena.rubric), "--html", str(page)]
    again = _autograder(args)
    assert again.returncode == 0, again.stderr
    texts = [run.stdout, run.stderr, run.results_text, (ctx.out / "report.md").read_text()]
    if name == "defines-a-2000-character-class-name":
        assert f"{'K' * 100} [... 1900 more characters]); the course's driver" in run.seen
    else:
        assert ctx.fill("submission: $here/student\\x1b[2J\\u202egnp.py") in run.seen
    _assert_nothing_raw([*texts, again.stdout, page.read_text()])


def _outside_code_blocks(markdown: str) -> list[str]:
    """The lines of ``markdown`` a renderer would treat as markup (not inside a fence)."""
    lines, fence_open = [], ""
    for line in markdown.splitlines():
        ticks = len(line) - len(line.lstrip("`"))
        if not fence_open and ticks >= 3:
            fence_open = "`" * ticks
        elif fence_open and line.strip() == fence_open:
            fence_open = ""
        elif not fence_open:
            lines.append(line)
    return lines


@pytest.mark.slow
def test_printed_markdown_stays_inside_its_code_block(arena: Arena) -> None:
    _, ctx = arena.check("breaks-out-of-markdown")
    markdown = (ctx.out / "report.md").read_text()
    assert "# Score: 100/100" in markdown
    markup = "\n".join(_outside_code_blocks(markdown))
    assert "Score: 100/100" not in markup and "<img" not in markup
    assert "**Score: 90/100**" in markup  # the grader's own score line is still markup


@pytest.mark.slow
def test_a_flood_of_huge_texts_makes_small_reports(arena: Arena) -> None:
    """400 KB class names, exception messages and prints in every call: each report of the
    student stays under 100 KB."""
    run, ctx = arena.check("floods-every-report-field")
    assert run.returncode == 0
    for text in (run.stdout, run.results_text, (ctx.out / "report.md").read_text()):
        assert len(text.encode()) < 100_000, len(text.encode())


_STEADY = """
def _steady_work():  # the same amount of work for every move, whatever the clock says
    total = 0
    for step in range(4_000_000):
        total += step
    return total


_honest_steady = TeekoPlayer.make_move


def _steady_make_move(self, state):
    _steady_work()
    return _honest_steady(self, state)


TeekoPlayer.make_move = _steady_make_move
"""


def _slowest(out: Path, student: str) -> float:
    record = json.loads((out / "students" / student / "record.json").read_text())
    return float(record["slowest_seconds"])


def _moves(out: Path, student: str) -> list[float]:
    """The times of the student's moves in its graded games (the records keep each)."""
    record = json.loads((out / "students" / student / "record.json").read_text())
    return [m["seconds"] for g in record["games"] for m in g["moves"] if m["seconds"] is not None]


@pytest.mark.slow
@pytest.mark.serial  # compares move times beside a fair student and beside the thief
@pytest.mark.timeout(1200)  # four batches: 291 s beside two CPU burners per core at load 23
@needs_cgroups
def test_a_cpu_thief_does_not_slow_the_student_graded_beside_it(arena: Arena) -> None:
    """``--jobs 2``: a submission that leaves three busy processes in sessions of their own
    slows the neighbour graded beside it no more than a fair one that leaves a single busy
    process, which takes the one core its cgroup may use. Without cgroups the thief's three
    busy processes and the neighbour share two cores, and its median move took 1.6 times as
    long beside the thief as beside the fair one (0.42 s against 0.26 s).

    The yardstick is the fair neighbour, not the neighbour graded alone: a busy core beside
    it slows the same steady move even when no CPU is taken from it (two cores that are one
    core's two hyperthreads share its caches and units; CI measured a median 0.18 s alone and
    0.24 s beside the thief). Both are its own time, as the rubric judges it (the records'
    moves carry that time), and each side is graded twice, fair, thief, thief, fair, so that
    both meet the same machine. The slowest move stays within 75%, the median, steadier,
    within 25%."""
    arena.settle()
    # its own marker: another run of this test on the machine has thieves of its own
    marker = f"teeko-attack-thief-{uuid.uuid4().hex[:8]}"
    ctx = arena.context(arena.base, arena.base, arena.base / "x.py", marker)
    thief = ctx.fill(ATTACKS["steals-cpu-with-busy-processes"].payload) + _STEADY
    fair = thief.replace("for _ in range(3):", "for _ in range(1):", 1)
    assert fair != thief
    beside = {"fair": fair, "thief": thief}
    slowest: dict[str, list[float]] = {"fair": [], "thief": []}
    moves: dict[str, list[float]] = {"fair": [], "thief": []}
    for index, label in enumerate(("fair", "thief", "thief", "fair")):
        students = {"neighbour": HONEST + _STEADY, "other": beside[label]}
        folder = arena.base / "thief" / f"{label}{index}"
        folder.mkdir(parents=True)
        for student, source in students.items():
            (folder / f"{student}.py").write_text(source)
        out = arena.base / "thief" / f"{label}{index}-out"
        run = _grade(folder, out, arena.rubric)
        assert run.returncode == 0, run.stderr
        slowest[label].append(_slowest(out, "neighbour"))
        moves[label] += _moves(out, "neighbour")
    fair_slowest, thief_slowest = max(slowest["fair"]), max(slowest["thief"])
    assert thief_slowest <= fair_slowest * 1.75, (
        f"beside a fair student {fair_slowest:.3f} s, beside the thief {thief_slowest:.3f} s"
    )
    typical_fair = statistics.median(moves["fair"])
    typical_thief = statistics.median(moves["thief"])
    assert typical_thief <= typical_fair * 1.25, (typical_fair, typical_thief)
    assert _survivors(marker) == []


def test_a_folder_with_a_huge_helper_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(HONEST)
    with (folder / "helper.py").open("wb") as handle:
        handle.truncate(100 << 20)  # sparse
    run = _autograder(["check", str(folder), "--assignment", "teeko"])
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0, run.stderr
    assert "holds more than 50 MB ('student/helper.py' is 100 MB)" in run.stderr


# ---- who is who: Canvas downloads graded together -----------------------------------------------


def _canvas_class(folder: Path, files: dict[str, str]) -> None:
    folder.mkdir(parents=True)
    for name, source in files.items():
        if name.endswith(".zip"):
            with zipfile.ZipFile(folder / name, "w") as bundle:
                bundle.writestr("game.py", source)
        else:
            (folder / name).write_text(source)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CLASS_ATTACKS))
def test_a_file_name_never_takes_a_classmates_grade(name: str, arena: Arena) -> None:
    """Each Canvas user is one row, graded on their own file, whatever the file names; the
    name that claims another student is a warning in the summary; a roster gives each their
    own grade."""
    attack = CLASS_ATTACKS[name]
    folder, out = arena.base / "class-attacks" / name, arena.base / "class-attacks" / f"{name}-out"
    _canvas_class(folder, attack.files)
    args = ["grade", str(folder), "-a", "teeko", "--out", str(out), "--jobs", "2"]
    args += ["--rubric", str(arena.rubric)]
    if attack.roster is not None:
        roster = folder.parent / f"{name}-roster.csv"
        roster.write_text(attack.roster)
        args += ["--roster", str(roster)]
    if attack.similarity:
        args.append("--similarity")
    run = _autograder(args, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = _rows(out)
    assert {s: float(r["score"]) for s, r in rows.items()} == attack.rows
    assert {s: r["source"] for s, r in rows.items()} == attack.graded
    summary = (out / "summary.md").read_text()
    if attack.warning is not None:
        assert f"- {attack.warning}" in summary
        assert attack.warning in run.stderr
    written = [p for p in out.rglob("*") if p.is_file()]
    for text in attack.never:
        assert text not in run.stderr, f"{text!r} reached the terminal"
        assert not [p for p in written if text in p.read_text(errors="replace")], text
    _no_live_formula([p for p in written if p.suffix == ".csv"])
    if attack.similarity:
        index = (out / "similarity" / "similarity.html").read_text()
        pages = re.findall(r'href="(pairs/[^"]+)"', index)
        assert pages, "no flagged pair"
        assert all((out / "similarity" / html.unescape(page)).is_file() for page in pages)
    if attack.imported is not None:
        with (out / "canvas_import.csv").open() as handle:
            imported = {r["SIS Login ID"]: r["HW8 (1001)"] for r in csv.DictReader(handle)}
        assert {k: v for k, v in imported.items() if k} == attack.imported


def _no_live_formula(sheets: list[Path]) -> None:
    """No cell of ``sheets`` starts a spreadsheet formula (a number such as -10 is no formula)."""
    assert sheets, "no CSV written"
    for sheet in sheets:
        with sheet.open(newline="") as handle:
            for row in csv.reader(handle):
                for cell in row:
                    live = cell[:1] in ("=", "+", "-", "@") and not _is_number(cell)
                    assert not live, f"{sheet.name}: {cell!r}"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


_SECRET = "INSTRUCTOR_ONLY = 'the key to problem 4 is C3'\n"


def _outputs(run: Run, *folders: Path) -> str:
    """What a command showed and wrote: its terminal text and every file in ``folders``."""
    written = [p for f in folders if f.is_dir() for p in f.rglob("*") if p.is_file()]
    return "\n".join([run.stdout, run.stderr, *(p.read_text(errors="replace") for p in written)])


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_a_link_in_a_submission_is_refused_by_every_command(arena: Arena) -> None:
    """A student's folder holding a link to a file of the instructor's (a GitHub Classroom
    repository can hold one): check, grade, tournament and similarity each refuse it in one
    sentence and show nothing of the file it points at."""
    base = arena.base / "linked"
    secret = base / "instructor" / "answers.py"
    secret.parent.mkdir(parents=True)
    secret.write_text(_SECRET + HONEST)
    folder = base / "class"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "game.py").write_text(HONEST)
    (folder / "mallory").mkdir()
    (folder / "mallory" / "game.py").write_text(HONEST)
    (folder / "mallory" / "helper.py").symlink_to(secret)
    refused = "holds the symbolic link 'mallory/helper.py'; submit the file itself"
    rubric = ["--rubric", str(arena.rubric)]
    check = _autograder(["check", str(folder / "mallory"), "-a", "teeko", *rubric])
    assert check.returncode == 2 and refused in check.stderr, check.stderr
    assert "INSTRUCTOR_ONLY" not in _outputs(check)
    runs = {
        "grade": ["grade", str(folder), "-a", "teeko", "--jobs", "2", *rubric],
        "tournament": ["tournament", str(folder), "-a", "teeko", "--with", "random", *rubric],
        "similarity": ["similarity", str(folder), "-a", "teeko"],
    }
    for command, args in runs.items():
        out = base / command
        run = _autograder([*args, "--out", str(out)], timeout=600)
        assert run.returncode == 0, (command, run.stderr)
        shown = html.unescape(_outputs(run, out))  # the web pages as read
        assert "INSTRUCTOR_ONLY" not in shown and "problem 4" not in shown, command
        assert refused in shown, (command, run.stderr)
    assert _rows(base / "grade")["mallory"]["score"] == "0"
    assert _rows(base / "grade")["alice"]["score"] == "100"


def _chain_notebook(functions: int) -> bytes:
    """A notebook of a chain of functions, each calling the one before, the first calling
    input(), and a last cell that calls the end of the chain."""
    lines = ["def f0():\n    return input()\n"]
    lines += [f"def f{n}():\n    return f{n - 1}()\n" for n in range(1, functions)]
    cells = ["".join(lines[k : k + 100]) for k in range(0, functions, 100)]
    cells.append(f"f{functions - 1}()\n")
    book = {
        "cells": [{"cell_type": "code", "metadata": {}, "source": c, "outputs": []} for c in cells],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(book).encode()


@pytest.mark.slow
@pytest.mark.timeout(300)  # the reader once took 395 s on such a notebook before any grading
def test_a_huge_chain_of_functions_in_a_notebook_is_read_in_linear_time(arena: Arena) -> None:
    """A 1.1 MB notebook whose last cell calls the end of a chain of 30,000 functions ending
    in input(), as a notebook and as a script export: each is refused in one sentence (more
    code than a homework's), in a fraction of a second of the grader's CPU."""
    base = arena.base / "chain"
    base.mkdir()
    notebook = base / "homework.ipynb"
    notebook.write_bytes(_chain_notebook(30_000))
    assert notebook.stat().st_size > 1_000_000
    cells = json.loads(notebook.read_bytes())["cells"]
    export = base / "homework.py"
    export.write_text("".join(f"# In[{n}]:\n\n{c['source']}\n\n" for n, c in enumerate(cells)))
    for path in (notebook, export):
        run = _autograder(["check", str(path), "-a", "connect4-notebook"], timeout=240)
        assert run.returncode == 2, run.stderr
        assert "KB of code; the grader reads at most 512 KB of code" in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
