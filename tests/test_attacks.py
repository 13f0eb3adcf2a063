"""The attack corpus (``tests/corpus/``) graded end to end, in real child processes.

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

import json
import os
import re
import time
import uuid
from pathlib import Path

import pytest

from autograder.classroom.student_folder import student_dir
from autograder.play.untrusted import admit
from tests.attack_arena import (
    ARCHIVES,
    CLASSMATE,
    LAYERS,
    SOURCES,
    Arena,
    assert_nothing_raw,
    attack_param,
    grade_folder,
    grade_rows,
    needs_fence,
    normalised,
    run_autograder,
    scores_of,
    secret_lines,
    survivors,
)
from tests.conftest import STARTERS
from tests.corpus import (
    ATTACKS,
    FORGERS,
    HONEST,
    LOOK,
    PATIENT_RUBRIC,
    Context,
    missing_layers,
)

# ---- every source attack, one ``check`` each ------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("name", [attack_param(n) for n in SOURCES])
def test_an_attack_gets_its_grade_and_its_message(name: str, arena: Arena) -> None:
    attack = ATTACKS[name]
    run, ctx = arena.check(name)
    assert run.returncode == 0, run.stderr
    assert run.results is not None
    assert scores_of(run.results) == attack.scores, run.stdout
    assert run.results["score"] == attack.total
    assert normalised(ctx.fill(attack.message)) in run.seen, run.stdout
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
    [
        attack_param(n)
        for n in SOURCES
        if ATTACKS[n].absent or ATTACKS[n].secret or ATTACKS[n].unchanged
    ],
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
        leaked = [line for line in secret_lines(Path(ctx.fill(attack.secret))) if line in shown]
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
@pytest.mark.parametrize("name", [attack_param(n) for n in SOURCES if ATTACKS[n].survivors])
def test_no_process_the_submission_started_survives(name: str, arena: Arena) -> None:
    _, ctx = arena.check(name)
    assert survivors(ctx.fill(ATTACKS[name].survivors or "")) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", [attack_param(n) for n in SOURCES if ATTACKS[n].same_games_as])
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
@pytest.mark.parametrize("name", [attack_param(n) for n in LOOKED_AT])
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
    assert scores_of(run.results) == attack.scores, run.stdout
    assert normalised(ctx.fill(attack.unfenced or attack.message)) in run.seen
    header = run.results["output"]
    assert "sandbox: warning: no filesystem fence" in header
    assert "sandbox: warning: runs as the grader's user" in header
    if attack.survivors:
        assert survivors(ctx.fill(attack.survivors)) == []


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
    scores = scores_of(run.results)
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
    run = run_autograder(
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


@pytest.mark.slow
@pytest.mark.timeout(
    1200
)  # as long as its batch may run (grade_folder); on a busy machine, minutes
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
    run = grade_folder(folder, out, arena.rubric, arena.tmpdir)
    assert run.returncode == 0, run.stderr
    rows = grade_rows(out)
    assert sorted(rows) == sorted([*GOOD, "classmate", *(_row(n) for n in names)])

    alone_folder, alone_out = arena.base / "alone" / "class", arena.base / "alone" / "out"
    _write_class(alone_folder, ctx, [])
    assert grade_folder(alone_folder, alone_out, arena.rubric).returncode == 0
    alone = grade_rows(alone_out)
    for student in GOOD:
        keep = ("score", "rules", "state", "format", "time", "wins", "output", "reason")
        assert {k: rows[student][k] for k in keep} == {k: alone[student][k] for k in keep}
    assert rows["good_alice"]["score"] == "100"

    for name in names:
        attack, row = ATTACKS[name], rows[_row(name)]
        feedback = (student_dir(out, _row(name)) / "feedback.md").read_text()
        message = normalised(ctx.fill(attack.message))
        if attack.scores is None:
            assert row["status"] == "error" and row["score"] == "0", (name, row)
            assert message in row["reason"], (name, row["reason"])
        else:
            assert row["status"] == "graded", (name, row)
            if not attack.message.startswith("won ") and attack.rubric != PATIENT_RUBRIC:
                assert message in normalised(feedback), (name, row["reason"])
        if attack.total == 0 and attack.scores is not None:
            assert row["reason"], f"{name}: a zero needs its reason in grades.csv"
    for template in (a for n in names for a in ATTACKS[n].absent):
        assert not Path(ctx.fill(template)).exists(), ctx.fill(template)
    assert survivors(marker) == []
    everything = (
        "".join(p.read_text() for p in out.rglob("*.md")) + (out / "grades.csv").read_text()
    )
    assert CLASSMATE.strip() not in everything
    assert not any(line in everything for line in secret_lines(arena.rubric))
    for student in rows:  # one gate for submission text: nothing raw, nothing huge
        sizes = {p.name: p.stat().st_size for p in student_dir(out, student).iterdir()}
        assert sum(sizes.values()) <= 100_000, (student, sizes)
    assert_nothing_raw([run.stdout, run.stderr, *(p.read_text() for p in out.rglob("*.*"))])
