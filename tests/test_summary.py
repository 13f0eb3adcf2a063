"""The class summary, from hand-made records: whole small files, the SVG's bars, HTML escaping."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from autograder.classroom.records import STATUS_ERROR, STATUS_GRADED, Record
from autograder.classroom.summary import SUMMARY_FILES, write_summary
from autograder.files import file_name
from autograder.grading.rubric import load_rubric
from tests.conftest import COURSE_TOML, TEEKO, assignment, course_rubric

SVG = "{http://www.w3.org/2000/svg}"
FULL = {"rules": 25, "state": 10, "format": 10, "time": 25, "wins": 30, "output": 0, "packaging": 0}
TITLE = "HW8 Teeko2"
CONNECT4 = assignment("connect4").pack


def _graded(student: str, score: float, slowest: float | None = 0.5, **changes: float) -> Record:
    return Record(
        student=student,
        status=STATUS_GRADED,
        score=score,
        max_score=100,
        criteria={**FULL, **changes},
        slowest_seconds=slowest,
    )


def _error(student: str, reason: str) -> Record:
    zero = dict.fromkeys(FULL, 0)
    return Record(student, STATUS_ERROR, 0, 100, zero, reason=reason, slowest_seconds=None)


CLASS = [
    _graded("alice", 100, slowest=0.97),
    _graded("bob", 88, slowest=6.31, time=13),
    dataclasses.replace(
        _graded("<script>alert(1)</script>", 50, slowest=0.01, rules=10, format=5, wins=0),
        reason="make_move raised an exception in 3 of 32 calls (first: probe 11)",
    ),
    _error("dave", "dave.zip holds no game.py (it holds notes.txt)"),
    dataclasses.replace(_graded("erin", 90, slowest=2.5, output=-10), late=True),
    _graded("frank", 73, slowest=10.2, time=0, packaging=-2),
    _graded("gina", 99.5, slowest=0.2),
]


def _write(records: list[Record], tmp_path: Path, **kwargs) -> dict[str, str]:
    kwargs.setdefault("rubric", course_rubric())
    paths = write_summary(records, tmp_path, TITLE, **kwargs)
    assert paths == [tmp_path / name for name in SUMMARY_FILES]
    return {p.name: p.read_text("utf-8") for p in paths}


def test_a_small_class_summary_in_full(tmp_path):
    two = [_graded("bob", 88, slowest=6.31, time=13), _error("amy", "amy.zip is not a zip")]
    assert _write(two, tmp_path)["summary.md"] == (
        """\
# Class summary: HW8 Teeko2

- students: 2
- graded: 1
- could not be graded (score 0): 1
- late: 0
- score out of 100 (every student; ungraded ones count as 0): mean 44, median 44, min 0, max 88

## Scores

![Histogram of the scores](histogram.svg)

| score | students |
| --- | --- |
| 0–10 | 1 |
| 10–20 | 0 |
| 20–30 | 0 |
| 30–40 | 0 |
| 40–50 | 0 |
| 50–60 | 0 |
| 60–70 | 0 |
| 70–80 | 0 |
| 80–90 | 1 |
| 90–100 | 0 |

Each bar counts the scores from its lower bound up to, not including, its upper bound; \
the last bar includes the maximum.

## Criteria

A criterion is passed with its full points; the penalties (output, packaging) are passed \
when nothing was taken off. Rates are of the 1 graded students.

| criterion | id | full points | passed | rate |
| --- | --- | --- | --- | --- |
| follows the rules | `rules` | 25 | 1/1 | 100% |
| does not modify state | `state` | 10 | 1/1 | 100% |
| move format | `format` | 10 | 1/1 | 100% |
| time | `time` | 25 | 0/1 | 0% |
| beats a random player | `wins` | 30 | 1/1 | 100% |
| debug output | `output` | 0 off | 1/1 | 100% |
| packaging | `packaging` | 0 off | 1/1 | 100% |

## Slowest submissions

| student | slowest move | time points |
| --- | --- | --- |
| bob | 6.31 s | 13/25 (≤ 10 s) |

## Did not grade normally

| student | status | reason |
| --- | --- | --- |
| amy | error | amy.zip is not a zip |
"""
    )


def test_key_figures_of_a_class(tmp_path):
    md = _write(CLASS, tmp_path)["summary.md"]
    lines = md.splitlines()
    assert "- students: 7" in lines
    assert "- graded: 6" in lines
    assert "- could not be graded (score 0): 1" in lines
    assert "- late: 1" in lines
    assert (
        "- score out of 100 (every student; ungraded ones count as 0): "
        "mean 71.5, median 88, min 0, max 100"
    ) in lines
    assert "| time | `time` | 25 | 4/6 | 67% |" in lines
    assert "| beats a random player | `wins` | 30 | 5/6 | 83% |" in lines
    assert "| debug output | `output` | 0 off | 5/6 | 83% |" in lines
    assert "| packaging | `packaging` | 0 off | 5/6 | 83% |" in lines
    assert "| 90–100 | 3 |" in lines  # 90, 99.5 and 100
    slowest = lines[lines.index("## Slowest submissions") + 4 :][:5]
    assert [row.split(" | ")[0] for row in slowest] == [
        "| frank",
        "| bob",
        "| erin",
        "| alice",
        "| gina",
    ]
    assert "| frank | 10.20 s | 0/25 (> 10 s) |" in lines
    abnormal = md.split("## Did not grade normally", 1)[1]
    assert "| \\<script\\>alert(1)\\</script\\> | graded | make_move raised" in abnormal
    assert "| dave | error | dave.zip holds no game.py (it holds notes.txt) |" in abnormal
    assert "| bob |" not in abnormal


def test_the_histogram_is_an_svg_with_a_labelled_bar_per_ten_points(tmp_path):
    svg = _write(CLASS, tmp_path)["histogram.svg"]
    tree = ET.fromstring(svg)
    assert tree.tag == f"{SVG}svg"
    bars = [r for r in tree.iter(f"{SVG}rect") if r.get("class") == "bar"]
    counts = [t.text for t in tree.iter(f"{SVG}text") if t.get("class") == "count"]
    ranges = [t.text for t in tree.iter(f"{SVG}text") if t.get("class") == "range"]
    assert len(bars) == 10
    assert counts == ["1", "0", "0", "0", "0", "1", "0", "1", "1", "3"]
    assert ranges[0] == "0–10" and ranges[-1] == "90–100"
    heights = [float(b.get("height", "")) for b in bars]
    assert heights[9] == max(heights) and heights[1] == 0
    assert (
        heights[0]
        == heights[5]
        == heights[7]
        == heights[8]
        == pytest.approx(heights[9] / 3, abs=0.1)
    )
    axes = [t.text for t in tree.iter(f"{SVG}text") if t.get("class") == "axis"]
    assert axes == ["score (out of 100)", "students"]


def test_bins_scale_to_the_rubric_maximum(tmp_path):
    records = [dataclasses.replace(_graded("a", 60), max_score=60), _error("b", "no game.py")]
    records[1] = dataclasses.replace(records[1], max_score=60)
    svg = ET.fromstring(_write(records, tmp_path)["histogram.svg"])
    ranges = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "range"]
    counts = [t.text for t in svg.iter(f"{SVG}text") if t.get("class") == "count"]
    assert ranges[:2] == ["0–6", "6–12"] and ranges[-1] == "54–60"
    assert counts == ["1"] + ["0"] * 8 + ["1"]


def test_html_escapes_student_text_and_embeds_the_histogram(tmp_path):
    page = _write(CLASS, tmp_path)["summary.html"]
    assert "<script" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert page.count('class="bar"') == 10  # the SVG is inline: one self-contained file
    assert 'href="histogram.svg"' in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")

    class Tags(HTMLParser):
        seen: list[str] = []

        def handle_starttag(self, tag, attrs):
            self.seen.append(tag)

    parser = Tags()
    parser.feed(page)
    assert parser.seen.count("table") == 5
    assert "script" not in parser.seen


def test_html_links_each_students_pages(tmp_path):
    page = _write(CLASS, tmp_path)["summary.html"]
    assert '<a href="students/alice/feedback.html">page with the games</a>' in page
    folder = file_name("<script>alert(1)</script>")  # where the batch writes that student
    assert folder.startswith("_script_alert_1_") and "<" not in folder
    assert f'href="students/{folder}/feedback.html"' in page
    # dave's submission could not be graded: no page with games, the Markdown says why
    assert 'href="students/dave/feedback.html"' not in page
    assert 'href="students/dave/feedback.md"' in page


def test_the_output_does_not_depend_on_the_order_of_the_records(tmp_path):
    first = _write(CLASS, tmp_path / "a")
    second = _write(list(reversed(CLASS)), tmp_path / "b")
    assert first == second
    raw = (tmp_path / "a" / "summary.md").read_bytes()
    assert b"\r\n" not in raw and "–".encode() in raw


def test_pass_rates_follow_the_rubric_the_class_was_graded_with(tmp_path):
    text = COURSE_TOML.read_text()
    lenient = tmp_path / "lenient.toml"
    lenient.write_text(
        text.replace("{ seconds = 5.0, points = 25 }", "{ seconds = 5.0, points = 13 }")
    )
    rubric = load_rubric(lenient, TEEKO)
    records = [_graded("bob", 76, slowest=6.0, time=13)]
    md = _write(records, tmp_path, rubric=rubric)["summary.md"]
    assert "| time | `time` | 13 | 1/1 | 100% |" in md
    assert "| bob | 6.00 s | 13/13 (≤ 10 s) |" in md


def test_an_empty_class_still_gets_a_summary(tmp_path):
    files = _write([], tmp_path)
    assert "- students: 0" in files["summary.md"]
    assert "mean –, median –, min –, max –" in files["summary.md"]
    assert "No move was timed." in files["summary.md"]
    assert "Every submission was graded normally." in files["summary.html"]
    assert len(ET.fromstring(files["histogram.svg"]).findall(f"{SVG}rect")) == 11


def test_a_busy_grading_machine_is_a_warning_at_the_top(tmp_path):
    busy = [
        dataclasses.replace(_graded("alice", 100), load=5.2, cores=2, measured_again=1),
        dataclasses.replace(_graded("bob", 88, time=13), load=1.5, cores=2),
    ]
    files = _write(busy, tmp_path)
    md = files["summary.md"]
    assert md.index("## Warnings") < md.index("## Scores")
    assert "busier than its 2 cores while 1 students were graded (load average up to 5.2)" in md
    assert "(1 students)" in md and "grade again with fewer --jobs" in md
    assert "| alice | 0.50 s | 25/25 (≤ 5 s); measured again alone |" in md
    assert "<h2>Warnings</h2>" in files["summary.html"]


def test_a_quiet_machine_and_no_notes_give_no_warnings(tmp_path):
    quiet = [dataclasses.replace(_graded("alice", 100), load=1.9, cores=2)]
    files = _write(quiet, tmp_path)
    assert "Warnings" not in files["summary.md"] and "Warnings" not in files["summary.html"]


def test_notes_for_the_instructor_are_warnings_escaped(tmp_path):
    md = _write(CLASS, tmp_path, notes=["roster: no row for | x <b>"])["summary.md"]
    assert "- roster: no row for \\| x \\<b\\>" in md


def test_tactics_are_passed_as_the_students_feedback_counts_them(tmp_path):
    """Tactics reported without points: a student who answered 4 of 6 right has not passed
    them, though 0 of 0 points is "full points"; the class's total is the students' own."""
    rubric = load_rubric(None, CONNECT4)
    assert rubric.max_points("tactics") == 35
    reported = dataclasses.replace(rubric, tactics_points=0)
    records = [
        dataclasses.replace(_graded("ann", 100, tactics=0), tallies={"tactics": [6, 6]}),
        dataclasses.replace(_graded("ben", 100, tactics=0), tallies={"tactics": [4, 6]}),
        dataclasses.replace(_graded("cal", 100, tactics=0), tallies={"tactics": [5, 6]}),
    ]
    files = _write(records, tmp_path, rubric=reported)
    md = files["summary.md"]
    assert "| tactics (win in 1, block) | `tactics` | 0 | 1/3 | 33% |" in md
    assert "- tactics (win in 1, block): answered right, all students: 15 of 18" in md
    assert "The tactics are passed when every tactical position was answered right" in md
    assert "15 of 18" in files["summary.html"]


def test_records_without_tallies_are_passed_by_their_points(tmp_path):
    """Records written before tallies were kept: the tactics pass by points, as before."""
    rubric = load_rubric(None, CONNECT4)
    records = [_graded("ann", 100, tactics=35), _graded("ben", 95, tactics=5)]
    md = _write(records, tmp_path, rubric=rubric)["summary.md"]
    assert "| tactics (win in 1, block) | `tactics` | 35 | 1/2 | 50% |" in md
    assert "answered right, all students" not in md


def test_a_class_graded_without_the_fence_says_so_first_with_the_install_line(tmp_path):
    unfenced = [
        dataclasses.replace(_graded("alice", 100), missing_layers=["fence"]),
        dataclasses.replace(_graded("bob", 88, time=13), missing_layers=["fence", "seccomp"]),
        _graded("carol", 90),
        _error("dave", "dave.zip is not a zip"),
    ]
    files = _write(unfenced, tmp_path)
    md = files["summary.md"]
    warnings = md[md.index("## Warnings") : md.index("## Scores")].splitlines()
    assert warnings[2] == (
        "- 2 of 3 graded students were graded without the filesystem fence (a submission can "
        "read every file the grader can, and reach the network; to get it: apt install "
        "bubblewrap, on a kernel that allows namespaces) and the seccomp filter (system calls a "
        "game never needs are allowed; to get it: Linux on x86-64 or arm64); see "
        "docs/sandbox.md; once they are there, --regrade grades the class again with them"
    )
    page = files["summary.html"]
    assert "<h2>Warnings</h2>\n<ul>\n<li>2 of 3 graded students were graded without the " in page
    assert "to get it: apt install bubblewrap" in page


def test_a_class_graded_with_every_layer_gets_no_sandbox_warning(tmp_path):
    files = _write([_graded("alice", 100)], tmp_path)
    assert "sandbox" not in files["summary.md"] and "bubblewrap" not in files["summary.html"]
