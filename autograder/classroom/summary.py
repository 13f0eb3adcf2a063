"""The class summary for instructors: ``summary.md``, ``summary.html`` and ``histogram.svg``.

Everything is computed once from the students' :class:`~autograder.classroom.records.Record`
files into a :class:`_Summary`, then rendered per format; no renderer recomputes a figure. The
output is deterministic (students sorted, no clock), so the same records give byte-identical
files. The histogram is drawn by hand as SVG: the kit needs no plotting library.
"""

from __future__ import annotations

import html
import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from autograder.classroom.records import STATUS_GRADED, Record
from autograder.files import write_atomic
from autograder.grading.rubric import LEADERBOARD, Rubric
from autograder.grading.scoring import CRITERIA, LATE_PENALTY, OPTIONAL
from autograder.play.sandbox import missing_line
from autograder.play.untrusted import md_cell

__all__ = ["write_summary", "SUMMARY_FILES", "BINS", "SLOWEST_SHOWN"]

SUMMARY_FILES = ("summary.md", "summary.html", "histogram.svg")
BINS = 10  # histogram bars: 0-10, 10-20, ... 90-100 percent of the maximum score
SLOWEST_SHOWN = 5
PENALTIES = ("output", "packaging", LATE_PENALTY)  # criteria that only take points off

# Histogram geometry, in SVG user units.
_WIDTH, _HEIGHT = 600, 320
_LEFT, _RIGHT, _TOP, _BOTTOM = 56, 16, 28, 56
_BAR_GAP = 6


@dataclass(frozen=True)
class _Table:
    """One table of the summary, in plain text; each format renders it. ``plain`` are the
    columns Markdown shows as they are (numbers, tiers), the others escaped; ``code`` the ids
    shown as code; ``numeric`` right-aligned in HTML; ``empty`` says why there are no rows."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    plain: frozenset[int] = frozenset()
    code: frozenset[int] = frozenset()
    numeric: frozenset[int] = frozenset()
    empty: str = ""


@dataclass(frozen=True)
class _Summary:
    title: str
    students: int
    graded: int
    errors: int
    late: int
    max_score: int
    mean: float | None
    median: float | None
    low: float | None
    high: float | None
    bins: tuple[tuple[str, int], ...]  # (range, students) per bar of the histogram
    passes: _Table  # per criterion: how many passed it
    slowest: _Table
    abnormal: _Table  # the students who did not grade normally, and why
    warnings: tuple[str, ...] = ()
    tallies: tuple[tuple[str, int, int], ...] = ()  # (criterion name, right, asked), the class's
    pages: tuple[tuple[str, str, str, bool], ...] = ()  # (id, who, score, graded) per student
    board: tuple[str, ...] = ()  # the leaderboard's figures, the first ranks
    ranking: _Table | None = None  # rank, student, then each figure; None: no leaderboard
    looks: _Table | None = None  # (student, finding) of the scan: needs a look; None: none


def _maxima(rubric: Rubric) -> dict[str, int]:
    """Full points per criterion id; 0 for the penalties."""
    checks = (ident for ident, _, _ in rubric.checks)
    return {ident: rubric.max_points(ident) for ident in (*CRITERIA, *checks, *OPTIONAL)}


def _bin_index(score: float, max_score: int) -> int:
    if max_score <= 0:
        return 0
    return max(0, min(BINS - 1, math.floor(BINS * score / max_score)))


def _time_tier(seconds: float, points: float, rubric: Rubric) -> str:
    """The time points with the tier the slowest answered move fits; a move killed at the hard
    limit (not in ``slowest_seconds``) explains points below that tier."""
    best = rubric.max_points("time")
    fits = next((t for t in rubric.time_tiers if seconds <= t.limit), None)
    if fits is not None and fits.points == points:
        within = f"≤ {fits.limit:g} s"
    elif fits is None and points == 0 and rubric.time_tiers:
        within = f"> {max(t.limit for t in rubric.time_tiers):g} s"
    else:
        within = "a move timed out"
    return f"{points:g}/{best} ({within})"


def _who(record: Record) -> str:
    """The student id, with the name (the roster's, with ``--roster``) when there is one."""
    if record.name and record.name != record.student:
        return f"{record.student} ({record.name})"
    return record.student


def _busy(records: Sequence[Record]) -> list[str]:
    """A warning when the machine had more to run than cores while students were graded."""
    busy = [r for r in records if r.load is not None and r.cores and r.load > r.cores]
    if not busy:
        return []
    peak = max(r.load or 0.0 for r in busy)
    cores = max(r.cores or 0 for r in busy)
    again = sum(r.measured_again > 0 for r in records)
    return [
        f"the machine was busier than its {cores} cores while {len(busy)} students were graded "
        f"(load average up to {peak:g}): their moves took longer than on a quiet machine. Where "
        "the grader has cgroups a move is judged on its own time, which the load does not "
        "change; elsewhere moves whose time cost a time tier were measured again alone and the "
        f"better time counts ({again} students). Either way a search that stops on the clock "
        "searched less deeply while busy: to be fair to all, grade again with fewer --jobs on "
        "a quieter machine"
    ]


def _unfenced(graded: Sequence[Record]) -> list[str]:
    """The sandbox layers some student was graded without, said once for the class."""
    lacking = [r for r in graded if r.missing_layers]
    layers = sorted({layer for r in lacking for layer in r.missing_layers})
    line = missing_line(layers, f"{len(lacking)} of {len(graded)} graded students were graded")
    again = "; once they are there, --regrade grades the class again with them"
    return [line.removeprefix("warning: ") + again] if line else []


def _passed(record: Record, ident: str, maxima: dict[str, int]) -> bool:
    """Every question right, for a criterion of many (the tactics, whatever their points, as
    the student's feedback counts them); else full points; for a penalty, nothing taken off."""
    tally = record.tallies.get(ident)
    if tally is not None:
        right, asked = tally
        return right >= asked
    points = record.criteria.get(ident, 0)
    return points >= 0 if ident in PENALTIES else points >= maxima[ident]


def _tallies(graded: Sequence[Record], shown: dict[str, str]) -> tuple[tuple[str, int, int], ...]:
    """The class's totals of the criteria of many questions: the students' own counts, added."""
    found = []
    for ident, name in shown.items():
        tallies = [r.tallies[ident] for r in graded if ident in r.tallies]
        if tallies:
            found.append((name, sum(t[0] for t in tallies), sum(t[1] for t in tallies)))
    return tuple(found)


def _bins(records: Sequence[Record], max_score: int) -> tuple[tuple[str, int], ...]:
    """The histogram's bars: each one's range of scores and how many students it holds."""
    counts = [0] * BINS
    for r in records:
        counts[_bin_index(r.score, r.max_score or max_score)] += 1
    step = max_score / BINS
    return tuple((f"{i * step:g}–{(i + 1) * step:g}", counts[i]) for i in range(BINS))


def _passes(graded: Sequence[Record], shown: dict[str, str], rubric: Rubric) -> _Table:
    maxima = _maxima(rubric)
    rows = []
    for ident, name in shown.items():
        passed = sum(_passed(r, ident, maxima) for r in graded)
        rate = f"{100 * passed / len(graded):.0f}%" if graded else "–"
        full = f"{maxima[ident]}" if ident not in PENALTIES else "0 off"
        rows.append((name, ident, full, f"{passed}/{len(graded)}", rate))
    header = ("criterion", "id", "full points", "passed", "rate")
    return _Table(
        header, tuple(rows), frozenset({0, 2, 3, 4}), frozenset({1}), frozenset({2, 3, 4})
    )


def _slowest(ordered: Sequence[Record], rubric: Rubric) -> _Table:
    timed = [r for r in ordered if r.slowest_seconds is not None]
    timed.sort(key=lambda r: (-(r.slowest_seconds or 0.0), r.student))  # slowest first
    rows = tuple(
        (
            _who(r),
            f"{r.slowest_seconds:.2f} s",
            _time_tier(r.slowest_seconds, r.criteria.get("time", 0), rubric)
            + ("; measured again alone" if r.measured_again else ""),
        )
        for r in timed[:SLOWEST_SHOWN]
        if r.slowest_seconds is not None
    )
    header = ("student", "slowest move", "time points")
    return _Table(header, rows, frozenset({1, 2}), numeric=frozenset({1}), empty=_NONE_TIMED)


def _abnormal(ordered: Sequence[Record]) -> _Table:
    rows = tuple(
        (_who(r), r.status, r.reason or "(no reason recorded)")
        for r in ordered
        if r.status != STATUS_GRADED or r.reason
    )
    return _Table(("student", "status", "reason"), rows, empty=_ALL_NORMAL)


def _looks(ordered: Sequence[Record]) -> _Table | None:
    """The findings of the scan of the files handed in, a row each; None when there are none."""
    rows = tuple((_who(r), line) for r in ordered for line in r.needs_look)
    return _Table(("student", "code"), rows) if rows else None


def _summarise(
    records: Sequence[Record], title: str, rubric: Rubric, notes: Sequence[str]
) -> _Summary:
    ordered = sorted(records, key=lambda r: r.student)
    graded = [r for r in ordered if r.status == STATUS_GRADED]
    max_score = max((r.max_score for r in ordered), default=rubric.max_score)
    scores = [r.score for r in ordered]
    shown = {
        **CRITERIA,
        **{ident: name for ident, name, _ in rubric.checks},
        **{o: n for o, n in OPTIONAL.items() if any(o in r.criteria for r in graded)},
    }
    return _Summary(
        title=title,
        students=len(ordered),
        graded=len(graded),
        errors=len(ordered) - len(graded),
        late=sum(r.late for r in ordered),
        max_score=max_score,
        mean=statistics.fmean(scores) if scores else None,
        median=statistics.median(scores) if scores else None,
        low=min(scores) if scores else None,
        high=max(scores) if scores else None,
        bins=_bins(ordered, max_score),
        passes=_passes(graded, shown, rubric),
        slowest=_slowest(ordered, rubric),
        abnormal=_abnormal(ordered),
        tallies=_tallies(graded, shown),
        warnings=(*_unfenced(graded), *_busy(ordered), *notes),
        pages=tuple(
            (r.student, _who(r), f"{r.score:g}/{r.max_score}", r.status == STATUS_GRADED)
            for r in ordered
        ),
        board=rubric.leaderboard,
        ranking=_ranking(graded, rubric.leaderboard),
        looks=_looks(ordered),
    )


def _number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    return f"{round(value, digits):g}"


def _facts(s: _Summary) -> list[tuple[str, str]]:
    """(label, value) lines shared by the Markdown and HTML reports."""
    return [
        ("students", str(s.students)),
        ("graded", str(s.graded)),
        ("could not be graded (score 0)", str(s.errors)),
        ("late", str(s.late)),
        (
            f"score out of {s.max_score} (every student; ungraded ones count as 0)",
            f"mean {_number(s.mean)}, median {_number(s.median)}, "
            f"min {_number(s.low)}, max {_number(s.high)}",
        ),
        *(
            (f"{name}: answered right, all students", f"{right} of {asked}")
            for name, right, asked in s.tallies
        ),
    ]


_CRITERIA_NOTE = (
    "A criterion is passed with its full points; the penalties (output, packaging) are passed "
    "when nothing was taken off. Rates are of the {graded} graded students."
)
_TALLY_NOTE = (
    " The tactics are passed when every tactical position was answered right, as each "
    "student's feedback counts them, whatever their points."
)
_HISTOGRAM_NOTE = (
    "Each bar counts the scores from its lower bound up to, not including, its upper bound; "
    "the last bar includes the maximum."
)
_ALL_NORMAL = "Every submission was graded normally."
_NONE_TIMED = "No move was timed."
_LOOK_NOTE = (
    "Code that hides what it runs or reaches into the grader's runner, found by reading the "
    "files handed in; no points were taken for it. Read it before the grades go out."
)
_LEADERBOARD_NOTE = (
    "Graded students ranked by {first} (the rubric's [leaderboard]); a figure that was not "
    "measured for a student is blank, and ranks last."
)


def _criteria_note(s: _Summary) -> str:
    return _CRITERIA_NOTE.format(graded=s.graded) + (_TALLY_NOTE if s.tallies else "")


def _ranking(graded: Sequence[Record], figures: tuple[str, ...]) -> _Table | None:
    """The leaderboard: rank, student, each figure; by the first figure, best first
    (``LEADERBOARD`` says which way is better), then by student. None without figures."""
    if not figures:
        return None
    first = figures[0]
    sign = 1 if LEADERBOARD[first][1] == "asc" else -1

    def key(record: Record) -> tuple[int, float, str]:
        value = record.leaderboard.get(first)
        return (value is None, sign * (value or 0.0), record.student)

    rows = []
    for rank, record in enumerate(sorted(graded, key=key), 1):
        values = [record.leaderboard.get(f) for f in figures]
        rows.append((str(rank), _who(record), *("" if v is None else f"{v:g}" for v in values)))
    numeric = frozenset(range(2, len(figures) + 2))
    return _Table(("rank", "student", *figures), tuple(rows), numeric=numeric)


# ---- Markdown ----------------------------------------------------------------------------------


def _bins_table(s: _Summary) -> _Table:
    rows = tuple((label, str(count)) for label, count in s.bins)
    return _Table(("score", "students"), rows, frozenset({0, 1}), numeric=frozenset({1}))


def _md_table(table: _Table) -> list[str]:
    """``table`` in Markdown, or the sentence saying why it has no rows."""
    if not table.rows and table.empty:
        return [table.empty]

    def cell(i: int, text: str) -> str:
        return f"`{text}`" if i in table.code else text if i in table.plain else md_cell(text)

    lines = ["| " + " | ".join(table.header) + " |", "|" + " --- |" * len(table.header)]
    lines += ["| " + " | ".join(cell(i, c) for i, c in enumerate(row)) + " |" for row in table.rows]
    return lines


def _markdown(s: _Summary) -> str:
    out = [f"# Class summary: {md_cell(s.title)}", ""]
    out += [f"- {label}: {value}" for label, value in _facts(s)]
    if s.warnings:
        out += ["", "## Warnings", ""] + [f"- {md_cell(w)}" for w in s.warnings]
    out += ["", "## Scores", "", "![Histogram of the scores](histogram.svg)", ""]
    out += _md_table(_bins_table(s))
    out += ["", _HISTOGRAM_NOTE, "", "## Criteria", "", _criteria_note(s), ""]
    out += _md_table(s.passes)
    out += ["", "## Slowest submissions", "", *_md_table(s.slowest)]
    out += ["", "## Did not grade normally", "", *_md_table(s.abnormal)]
    if s.looks is not None:
        out += ["", "## Needs a look", "", _LOOK_NOTE, "", *_md_table(s.looks)]
    if s.ranking is not None:
        out += ["", "## Leaderboard", "", _LEADERBOARD_NOTE.format(first=s.board[0]), ""]
        out += _md_table(s.ranking)
    return "\n".join(out) + "\n"


# ---- SVG histogram -----------------------------------------------------------------------------


def _svg(s: _Summary) -> str:
    """The histogram as a standalone SVG document: one ``rect class="bar"`` per bin, its count
    above it, bin ranges under the axis, and axis labels."""
    e = html.escape
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    base = _TOP + plot_h
    tallest = max((count for _, count in s.bins), default=0) or 1
    slot = plot_w / len(s.bins)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{e(s.title)}: scores of {s.students} students</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>',
    ]
    for i, (label, count) in enumerate(s.bins):
        x = _LEFT + i * slot + _BAR_GAP / 2
        h = plot_h * count / tallest
        centre = x + (slot - _BAR_GAP) / 2
        lines.append(
            f'<rect class="bar" x="{x:.1f}" y="{base - h:.1f}" width="{slot - _BAR_GAP:.1f}" '
            f'height="{h:.1f}" fill="#4472c4"><title>{label}: {count}</title></rect>'
        )
        lines.append(
            f'<text class="count" x="{centre:.1f}" y="{base - h - 4:.1f}" '
            f'text-anchor="middle">{count}</text>'
        )
        lines.append(
            f'<text class="range" x="{centre:.1f}" y="{base + 16}" text-anchor="middle" '
            f'font-size="10">{label}</text>'
        )
    lines += [
        f'<line x1="{_LEFT}" y1="{base}" x2="{_WIDTH - _RIGHT}" y2="{base}" stroke="#000000"/>',
        f'<line x1="{_LEFT}" y1="{_TOP}" x2="{_LEFT}" y2="{base}" stroke="#000000"/>',
        f'<text class="axis" x="{_LEFT + plot_w / 2:.1f}" y="{_HEIGHT - 12}" '
        f'text-anchor="middle">score (out of {s.max_score})</text>',
        f'<text class="axis" x="16" y="{_TOP + plot_h / 2:.1f}" text-anchor="middle" '
        f'transform="rotate(-90 16 {_TOP + plot_h / 2:.1f})">students</text>',
        "</svg>",
    ]
    return "\n".join(lines) + "\n"


# ---- HTML --------------------------------------------------------------------------------------

_STYLE = """
body { font-family: sans-serif; max-width: 56rem; margin: 2rem auto; padding: 0 1rem; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #bbbbbb; padding: 0.25rem 0.6rem; text-align: left; }
td.n { text-align: right; }
figure { margin: 0; }
""".strip()


def _html_table(table: _Table) -> str:
    """``table`` in HTML, every cell escaped; or the sentence saying why it has no rows."""
    e = html.escape
    if not table.rows and table.empty:
        return f"<p>{e(table.empty)}</p>"

    def cell(i: int, text: str) -> str:
        shown = f"<code>{e(text)}</code>" if i in table.code else e(text)
        return f'<td class="n">{shown}</td>' if i in table.numeric else f"<td>{shown}</td>"

    head = "".join(f"<th>{e(h)}</th>" for h in table.header)
    body = "\n".join(
        "<tr>" + "".join(cell(i, c) for i, c in enumerate(row)) + "</tr>" for row in table.rows
    )
    return f"<table>\n<tr>{head}</tr>\n{body}\n</table>"


def _pages_html(s: _Summary) -> str:
    """The table linking each student's feedback: the page with the games, where one was
    made, and the Markdown."""
    e, rows = html.escape, []
    for student, who, score, graded in s.pages:
        where = f"students/{quote(student)}"
        page = f'<a href="{where}/feedback.html">page with the games</a> · ' if graded else ""
        rows.append(
            f'<tr><td>{e(who)}</td><td class="n">{e(score)}</td>'
            f'<td>{page}<a href="{where}/feedback.md">Markdown</a></td></tr>'
        )
    head = "<tr><th>student</th><th>score</th><th>feedback</th></tr>"
    return f"<table>\n{head}\n" + "\n".join(rows) + "\n</table>"


def _html_sections(s: _Summary) -> tuple[str, str]:
    """The warnings and the leaderboard, each with its heading; "" for one there is none of."""
    e = html.escape
    board = ""
    if s.looks is not None:
        board = f"<h2>Needs a look</h2>\n<p>{e(_LOOK_NOTE)}</p>\n{_html_table(s.looks)}\n"
    if s.ranking is not None:
        note = e(_LEADERBOARD_NOTE.format(first=s.board[0]))
        board += f"<h2>Leaderboard</h2>\n<p>{note}</p>\n{_html_table(s.ranking)}\n"
    warnings = ""
    if s.warnings:
        items = "\n".join(f"<li>{e(w)}</li>" for w in s.warnings)
        warnings = f"<h2>Warnings</h2>\n<ul>\n{items}\n</ul>\n"
    return warnings, board


def _html(s: _Summary, svg: str) -> str:
    e = html.escape
    facts = "\n".join(f"<li>{e(label)}: {e(value)}</li>" for label, value in _facts(s))
    warnings, board = _html_sections(s)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Class summary: {e(s.title)}</title>
<style>
{_STYLE}
</style>
</head>
<body>
<h1>Class summary: {e(s.title)}</h1>
<ul>
{facts}
</ul>
{warnings}<h2>Scores</h2>
<figure>
{svg.rstrip()}
<figcaption>{e(_HISTOGRAM_NOTE)} Also as <a href="histogram.svg">histogram.svg</a>.</figcaption>
</figure>
{_html_table(_bins_table(s))}
<h2>Criteria</h2>
<p>{e(_criteria_note(s))}</p>
{_html_table(s.passes)}
<h2>Slowest submissions</h2>
{_html_table(s.slowest)}
<h2>Did not grade normally</h2>
{_html_table(s.abnormal)}
{board}<h2>Each student's feedback</h2>
{_pages_html(s)}
</body>
</html>
"""


# ---- writing -----------------------------------------------------------------------------------


def write_summary(
    records: Sequence[Record],
    out_dir: Path,
    title: str,
    *,
    rubric: Rubric,
    notes: Sequence[str] = (),
) -> list[Path]:
    """Write ``summary.md``, ``summary.html`` and ``histogram.svg`` into ``out_dir``; returns
    their paths in that order.

    ``rubric`` (the one the class was graded with) gives each criterion's full points (for the
    pass rates) and the time tiers; ``notes`` are warnings for the instructor (a roster that
    does not match, say), shown near the top with the kit's own.
    """
    summary = _summarise(records, title, rubric, notes)
    svg = _svg(summary)
    texts = {
        "summary.md": _markdown(summary),
        "summary.html": _html(summary, svg),
        "histogram.svg": svg,
    }
    paths = []
    for name in SUMMARY_FILES:
        path = out_dir / name
        write_atomic(path, texts[name])
        paths.append(path)
    return paths
