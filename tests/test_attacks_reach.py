"""The attack corpus, continued: what the fence lets a submission see, reach and print, who
is who when Canvas downloads are graded together, and what a flood of text or a thief of CPU
changes (nothing). The arena and the corpus are ``tests/attack_arena.py`` and
``tests/corpus/``."""

from __future__ import annotations

import csv
import html
import json
import re
import statistics
import uuid
import zipfile
from pathlib import Path

import pytest

from autograder.play import fence
from autograder.play.launch import PACKAGES
from tests.attack_arena import (
    Arena,
    Run,
    assert_nothing_raw,
    grade_folder,
    grade_rows,
    needs_cgroups,
    needs_fence,
    run_autograder,
    survivors,
)
from tests.corpus import (
    ATTACKS,
    CLASS_ATTACKS,
    HONEST,
)

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
    the folders of the libraries it loads, the runner, its own files, /tmp, /dev, /proc, and
    the /etc/passwd and /etc/group naming its user), and nothing anywhere it can see is named
    after the kit, its rubrics or this test."""
    where = fence.layout(PACKAGES)
    allowed = [*where.read_only, *(link for _, link in where.symlinks)]
    allowed += ["/sandbox", "/tmp", "/dev", "/proc", *fence.IDENTITY]
    source = HONEST + _LOOKS_AROUND.replace("$allowed", repr(allowed))
    (tmp_path / "game.py").write_text(source)
    out = arena.base / "looks-around.json"
    run = run_autograder(["check", str(tmp_path / "game.py"), "--json", str(out)])
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
    again = run_autograder(args)
    assert again.returncode == 0, again.stderr
    texts = [run.stdout, run.stderr, run.results_text, (ctx.out / "report.md").read_text()]
    if name == "defines-a-2000-character-class-name":
        assert f"{'K' * 100} [... 1900 more characters]); the course's driver" in run.seen
    else:
        assert ctx.fill("submission: $here/student\\x1b[2J\\u202egnp.py") in run.seen
    assert_nothing_raw([*texts, again.stdout, page.read_text()])


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
        run = grade_folder(folder, out, arena.rubric)
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
    assert survivors(marker) == []


def test_a_folder_with_a_huge_helper_is_refused_in_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "game.py").write_text(HONEST)
    with (folder / "helper.py").open("wb") as handle:
        handle.truncate(100 << 20)  # sparse
    run = run_autograder(["check", str(folder), "--assignment", "teeko"])
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
    run = run_autograder(args, timeout=600)
    assert run.returncode == 0, run.stderr
    rows = grade_rows(out)
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
    check = run_autograder(["check", str(folder / "mallory"), "-a", "teeko", *rubric])
    assert check.returncode == 2 and refused in check.stderr, check.stderr
    assert "INSTRUCTOR_ONLY" not in _outputs(check)
    runs = {
        "grade": ["grade", str(folder), "-a", "teeko", "--jobs", "2", *rubric],
        "tournament": ["tournament", str(folder), "-a", "teeko", "--with", "random", *rubric],
        "similarity": ["similarity", str(folder), "-a", "teeko"],
    }
    for command, args in runs.items():
        out = base / command
        run = run_autograder([*args, "--out", str(out)], timeout=600)
        assert run.returncode == 0, (command, run.stderr)
        shown = html.unescape(_outputs(run, out))  # the web pages as read
        assert "INSTRUCTOR_ONLY" not in shown and "problem 4" not in shown, command
        assert refused in shown, (command, run.stderr)
    assert grade_rows(base / "grade")["mallory"]["score"] == "0"
    assert grade_rows(base / "grade")["alice"]["score"] == "100"


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
        run = run_autograder(["check", str(path), "-a", "connect4-notebook"], timeout=240)
        assert run.returncode == 2, run.stderr
        assert "KB of code; the grader reads at most 512 KB of code" in run.stderr, run.stderr
        assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr
