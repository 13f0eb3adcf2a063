"""The "needs a look" scan (``autograder/grading/needs_look.py``): each way of hiding code or
reaching into the runner is listed with its file and line, and honest code never is: not one
finding on the kit's starters, answer keys, solutions or example classes."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import textwrap
import zipfile
from pathlib import Path

import pytest
from rich.console import Console

from autograder.classroom.notebook import from_notebook
from autograder.classroom.outputs import write_grades_csv
from autograder.classroom.records import STATUS_GRADED, Record
from autograder.classroom.summary import write_summary
from autograder.grading.html import feedback_html
from autograder.grading.needs_look import scan
from autograder.grading.report import NEEDS_LOOK, Feedback, markdown, results_json, terminal
from tests.conftest import ROOT, course_rubric
from tests.corpus import ATTACKS, FORGERS, Context
from tests.test_report import _grade as _report_grade

pytestmark = pytest.mark.timeout(60)

_PAYLOAD = 'print("hi")'

# One small source per technique, with the words its finding must hold.
HIDING = {
    "exec-of-a-variable": ("code = 'x = 1'\nexec(code)\n", "runs text that is not a literal"),
    "eval-of-an-fstring": ("n = 2\nv = eval(f'{n} + 1')\n", "runs text that is not a literal"),
    "compile-of-a-joined-text": (
        "parts = ['x', '=1']\ncode = compile(''.join(parts), 'f', 'exec')\n",
        "runs text that is not a literal",
    ),
    "exec-of-zlib": (
        "import zlib\nexec(zlib.decompress(b'...'))\n",
        "runs decoded code: exec() of zlib.decompress(...)",
    ),
    "exec-of-base64-through-a-name": (
        "import base64 as b\nsrc = b.b64decode('cHJpbnQoMSk=').decode()\n\n\n"
        "def run():\n    exec(src, {})\n",
        "runs decoded code: exec() of src(...)",
    ),
    "exec-of-marshal": (
        "from marshal import loads\nexec(loads(b'...'))\n",
        "runs decoded code: exec() of loads(...)",
    ),
    "exec-of-codecs-rot13": (
        "import codecs\nexec(codecs.decode('cevag(1)', 'rot13'))\n",
        "runs decoded code: exec() of codecs.decode(...)",
    ),
    "exec-of-fromhex": (
        "exec(bytes.fromhex('7072696e74283129').decode())\n",
        "runs decoded code: exec() of bytes.fromhex(...)",
    ),
    "exec-of-lzma": ("import lzma\nexec(lzma.decompress(b'...'))\n", "runs decoded code"),
    "exec-of-bz2": ("import bz2\nexec(bz2.decompress(b'...'))\n", "runs decoded code"),
    "import-of-a-decoded-name": (
        "import base64, importlib\n"
        "m = importlib.import_module(base64.b64decode(b'c3lz').decode())\n",
        "imports a module whose name is decoded",
    ),
    "dunder-import-of-a-decoded-name": (
        "import zlib\nm = __import__(zlib.decompress(b'...').decode())\n",
        "imports a module whose name is decoded",
    ),
    "module-built-from-decoded-code": (
        "import types, zlib\nsrc = zlib.decompress(b'...')\nm = types.ModuleType('m')\n"
        "exec(src, m.__dict__)\n",
        "runs decoded code",
    ),
    "subclasses": ("x = object.__subclasses__()\n", "__subclasses__"),
    "globals-of-a-function": ("def f():\n    pass\n\n\ng = f.__globals__\n", "__globals__"),
    "code-assignment": (
        "def f():\n    pass\n\n\ndef g():\n    pass\n\n\nf.__code__ = g.__code__\n",
        "replaces a function's code (__code__)",
    ),
    "code-by-setattr": (
        "def f():\n    pass\n\n\nsetattr(f, '__code__', (lambda: 1).__code__)\n",
        "replaces a function's code",
    ),
    "builtins-module-changed": ("import builtins\nbuiltins.print = len\n", "changes the builtins"),
    "dunder-builtins-changed": ("__builtins__['print'] = len\n", "changes the builtins"),
    "meta-path-insert": (
        "import sys\nsys.meta_path.insert(0, object())\n",
        "changes the import machinery (sys.meta_path.insert)",
    ),
    "path-hooks-append": ("import sys\nsys.path_hooks.append(len)\n", "sys.path_hooks.append"),
    "sys-modules-assigned": (
        "import sys as s\ns.modules['json'] = None\n",
        "changes the import machinery (sys.modules)",
    ),
    "sys-modules-popped": ("import sys\nsys.modules.pop('json')\n", "sys.modules.pop"),
    "frame-back": (
        "import sys\nf = sys._getframe()\nwhile f:\n    f = f.f_back\n",
        "reads another frame (f_back)",
    ),
    "frame-locals": ("import sys\nv = sys._getframe(2).f_locals\n", "f_locals"),
    "frame-globals": ("import inspect\ng = inspect.currentframe().f_globals\n", "f_globals"),
    "traceback-frame": (
        "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    f = e.__traceback__.tb_frame\n",
        "tb_frame",
    ),
    "generator-frame": ("g = (i for i in [])\nf = g.gi_frame\n", "gi_frame"),
    "coroutine-frame": ("async def c():\n    pass\n\n\nf = c().cr_frame\n", "cr_frame"),
    "frame-by-getattr": ("import sys\nf = getattr(sys._getframe(), 'f_back')\n", "f_back"),
    "current-frames": ("import sys\nframes = sys._current_frames()\n", "sys._current_frames"),
    "gc-get-objects": ("import gc\nobjs = gc.get_objects()\n", "gc.get_objects"),
    "gc-get-referrers": ("from gc import get_referrers\nr = get_referrers(1)\n", "get_referrers"),
    "gc-get-referents": ("import gc as g\nr = g.get_referents(1)\n", "gc.get_referents"),
    "ctypes": ("import ctypes\n", "imports ctypes"),
    "ctypes-from": ("from ctypes import CDLL\n", "imports ctypes"),
    "getattr-computed-on-a-module": (
        "import os\nname = 'sys' + 'tem'\nf = getattr(os, name)\n",
        "getattr() with a computed name on a module",
    ),
    "setattr-computed-on-builtins": (
        "import builtins\nn = 'pr' + 'int'\nsetattr(builtins, n, len)\n",
        "setattr() with a computed name on a module",
    ),
    "proc-mem": ("data = open('/proc/self/mem', 'rb')\n", "a process's memory file"),
    "proc-mem-fstring": (
        "import os\nf = open(f'/proc/{os.getpid()}/mem', 'rb')\n",
        "a process's memory file",
    ),
}


@pytest.mark.parametrize("name", sorted(HIDING))
def test_each_way_of_hiding_code_is_listed_with_its_line(name: str) -> None:
    source, words = HIDING[name]
    found = scan({"game.py": source})
    assert found, f"nothing found in {source!r}"
    assert any(words in f.what for f in found), [f.text() for f in found]
    lines = source.splitlines()
    for finding in found:
        assert finding.text().startswith(f"game.py line {finding.line}: ")
        assert 1 <= finding.line <= len(lines)


HONEST = {
    "tracebacks": (
        "import traceback, logging\n\n\ndef f():\n    try:\n        1 / 0\n    except Exception:\n"
        "        traceback.print_exc()\n        text = traceback.format_exc()\n"
        "        logging.exception('failed')\n    return text\n"
    ),
    "inspect-and-caller-name": (
        "import inspect, sys\n\n\ndef f():\n    stack = inspect.stack()\n"
        "    print(sys._getframe().f_code.co_name, sys._getframe(1).f_code.co_name)\n"
        "    return stack\n"
    ),
    "gc-collect-warnings-pdb": (
        "import gc, warnings, pdb\ngc.collect()\nwarnings.warn('slow')\ngc.disable()\ngc.enable()\n"
    ),
    "literals-and-typed-moves": (
        "import ast\nv = eval('1 + 2')\nexec('x = 1')\n\n\ndef main():\n"
        "    move = eval(input('your move: '))\n    typed = input('again: ')\n"
        "    m2 = eval(typed)\n    return ast.literal_eval(typed), move, m2\n"
    ),
    "getattr-on-self-and-regex-compile": (
        "import re\nfrom re import compile as rc\n\n\nclass P:\n    def f(self, name):\n"
        "        return getattr(self, name), getattr(self, 'x', None), re.compile(name), rc(name)\n"
    ),
    "sys-modules-read-and-path": (
        "import sys, os\nme = sys.modules[__name__]\nsys.path.insert(0, os.getcwd())\n"
        "here = sys.modules.get('game')\n"
    ),
    "copying-and-codecs-for-text": (
        "import copy, codecs, base64\nb = copy.deepcopy([[1]])\n"
        "t = codecs.decode(b'abc', 'utf-8')\nd = base64.b64decode('YQ==')\nprint(t, d)\n"
    ),
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_habits_are_not_listed(name: str) -> None:
    assert scan({"game.py": HONEST[name]}) == ()


def _kit_sources() -> dict[str, str]:
    """Every Python source of the kit's starters, answer keys, solutions and example classes,
    with each notebook's code cells as intake makes them a module and each zip's members."""
    folders = ["starter", "answer_key", "solution", "examples"]
    paths = [p for folder in folders for p in (ROOT / folder).rglob("*") if p.is_file()]
    paths += [p for p in (ROOT / "tests" / "data").glob("seed00*_students/**/*") if p.is_file()]
    sources: dict[str, str] = {}
    for path in paths:
        name = str(path.relative_to(ROOT))
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as bundle:
                for member in bundle.namelist():
                    _add(sources, f"{name}:{member}", member, bundle.read(member))
        else:
            _add(sources, name, path.name, path.read_bytes())
    return sources


def _add(sources: dict[str, str], label: str, name: str, data: bytes) -> None:
    if name.endswith((".py", ".pyde")):
        sources[label] = data.decode("utf-8", "replace")
    elif name.endswith(".ipynb"):
        sources[label] = from_notebook(data, label).source
    elif name.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as inner:
            for member in inner.namelist():
                _add(sources, f"{label}:{member}", member, inner.read(member))


def test_no_finding_on_the_kits_starters_keys_solutions_and_example_classes() -> None:
    sources = _kit_sources()
    assert len(sources) > 100, "the kit's sources were not found"
    assert [f.text() for f in scan(sources)] == []


def test_a_notebooks_finding_names_its_cell() -> None:
    book = {
        "cells": [
            {
                "id": "one",
                "cell_type": "code",
                "metadata": {},
                "source": "x = 1",
                "outputs": [],
                "execution_count": None,
            },
            {
                "id": "two",
                "cell_type": "code",
                "metadata": {},
                "outputs": [],
                "execution_count": None,
                "source": "import zlib\nexec(zlib.decompress(b'x'))",
            },
        ],
        "metadata": {},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    module = from_notebook(json.dumps(book).encode(), "agent.ipynb").source
    (found,) = scan({"game.py": module})
    assert found.text() == (
        "game.py cell 2, line 2: runs decoded code: exec() of zlib.decompress(...)"
    )


@pytest.mark.parametrize("name", [*FORGERS, "hides-its-code-compressed", "silences-the-runner"])
def test_the_corpus_forgers_are_listed(name: str, tmp_path: Path) -> None:
    """Each forging attack of the corpus is found by the scan, whatever route it takes."""
    attack = ATTACKS[name]
    ctx = Context(tmp_path, tmp_path, tmp_path, tmp_path, "marker")
    files = (
        {k: v.decode() for k, v in attack.files(ctx).items()}
        if isinstance(attack.payload, dict)
        else {"game.py": attack.content(ctx).decode()}
    )
    found = scan(files)
    assert found, name
    if name == "hides-its-code-compressed":
        assert any("runs decoded code" in f.what for f in found)


def test_code_nested_past_what_the_scan_can_rebuild_is_still_listed() -> None:
    """Python runs an expression of 900 terms; ``ast.unparse`` cannot rebuild it. The finding
    names it by what it is, and a file the scan cannot walk to its end is listed whole."""
    deep = " + ".join(["''"] * 900)
    (found,) = scan({"game.py": f"def never_called():\n    exec({deep})\n"})
    assert found.text() == (
        "game.py line 2: runs text that is not a literal: (a call nested too deeply to show)"
    )


def test_a_notebooks_findings_by_the_thousand_name_their_cells() -> None:
    cells = [{"cell_type": "code", "source": "x = 1"} for _ in range(3)]
    cells[2]["source"] = "\n".join(f"v{n} = frame.f_back" for n in range(3000))
    book = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    module = from_notebook(json.dumps(book).encode(), "agent.ipynb").source
    found = scan({"game.py": module})
    assert len(found) == 3000
    assert [f.where for f in (found[0], found[-1])] == ["cell 3, line 1", "cell 3, line 3000"]


def test_a_file_that_does_not_parse_is_skipped() -> None:
    assert scan({"game.py": "def (:\n", "helper.py": textwrap.dedent(_PAYLOAD)}) == ()


def _record(student: str, looks: list[str]) -> Record:
    full = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30}
    return Record(student, STATUS_GRADED, 100, 100, full, needs_look=looks)


_LOOKS = [f"game.py line {n}: runs decoded code: exec() of zlib.decompress(...)" for n in (4, 9)]


def test_the_grade_sheet_and_the_summary_list_who_needs_a_look(tmp_path: Path) -> None:
    """grades.csv's ``needs_look`` holds the count and the findings; the class summary has a
    section listing each student's findings; a student with none is in neither."""
    records = [_record("amy", []), _record("<b>bo</b>", _LOOKS)]
    write_grades_csv(records, tmp_path / "grades.csv")
    with (tmp_path / "grades.csv").open() as handle:
        rows = {row["student"]: row for row in csv.DictReader(handle)}
    assert rows["amy"]["needs_look"] == ""
    assert rows["<b>bo</b>"]["needs_look"] == "2: " + "; ".join(_LOOKS)
    assert rows["<b>bo</b>"]["score"] == "100"
    write_summary(records, tmp_path, "class", rubric=course_rubric())
    text = (tmp_path / "summary.md").read_text()
    section = text.split("## Needs a look", 1)[1]
    assert "| <b>bo</b> | game.py line 4: runs decoded code" not in section  # escaped
    assert section.count("bo") == 2 and "amy" not in section
    page = (tmp_path / "summary.html").read_text()
    assert "<h2>Needs a look</h2>" in page and "&lt;b&gt;bo&lt;/b&gt;" in page
    nobody = tmp_path / "nobody"
    nobody.mkdir()
    write_summary([records[0]], nobody, "class", rubric=course_rubric())
    assert "Needs a look" not in (nobody / "summary.md").read_text()


def test_every_report_of_a_student_shows_what_needs_a_look() -> None:
    """The terminal, Markdown, HTML and results.json reports each carry the section, escaped
    for their format, with the score untouched."""
    grade = _report_grade()
    looks = scan({"game.py": "import zlib\nexec(zlib.decompress(b'<b>'))\n"})
    looked = dataclasses.replace(grade, looks=looks)
    line = "game.py line 2: runs decoded code: exec() of zlib.decompress(...)"
    console = Console(file=io.StringIO(), width=200)
    terminal(Feedback(looked), console=console)
    assert "needs a look (no points taken)" in console.file.getvalue()  # type: ignore[attr-defined]
    assert line in console.file.getvalue()  # type: ignore[attr-defined]
    assert f"## {NEEDS_LOOK}" in markdown(Feedback(looked)) and line in markdown(Feedback(looked))
    assert f"<h2>{NEEDS_LOOK}</h2>" in feedback_html(Feedback(looked)) and line in feedback_html(
        Feedback(looked)
    )
    results = results_json(Feedback(looked))
    assert results["extra_data"]["needs_look"] == [line]
    assert f"{NEEDS_LOOK}: {line}" in results["output"]
    assert results["score"] == results_json(Feedback(grade))["score"]
    assert NEEDS_LOOK not in markdown(Feedback(grade))
    assert "needs_look" not in results_json(Feedback(grade))["extra_data"]
