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
class _Bin:
    low: float
    high: float
    count: int

    @property
    def label(self) -> str:
        return f"{self.low:g}–{self.high:g}"


@dataclass(frozen=True)
class _Pass:
    id: str
    name: str
    max_points: int  # 0 for penalties: passed means nothing taken off
    passed: int
    graded: int

    @property
    def rate(self) -> str:
        return f"{100 * self.passed / self.graded:.0f}%" if self.graded else "–"


@dataclass(frozen=True)
class _Slow:
    student: str
    seconds: float
    tier: str


@dataclass(frozen=True)
class _Abnormal:
    student: str
    status: str
    reason: str


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
    bins: tuple[_Bin, ...]
    passes: tuple[_Pass, ...]
    slowest: tuple[_Slow, ...]
    abnormal: tuple[_Abnormal, ...]
    warnings: tuple[str, ...] = ()
    tallies: tuple[tuple[str, int, int], ...] = ()  # (criterion name, right, asked), the class's
    pages: tuple[tuple[str, str, str, bool], ...] = ()  # (id, who, score, graded) per student
    board: tuple[str, ...] = ()  # the leaderboard's figures, the first ranks
    ranking: tuple[tuple[str, ...], ...] = ()  # rank, student, then each figure
    looks: tuple[tuple[str, str], ...] = ()  # (student, finding) of the scan: needs a look


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


def _summarise(
    records: Sequence[Record], title: str, rubric: Rubric, notes: Sequence[str]
) -> _Summary:
    ordered = sorted(records, key=lambda r: r.student)
    graded = [r for r in ordered if r.status == STATUS_GRADED]
    max_score = max((r.max_score for r in ordered), default=rubric.max_score)
    scores = [r.score for r in ordered]
    counts = [0] * BINS
    for r in ordered:
        counts[_bin_index(r.score, r.max_score or max_score)] += 1
    step = max_score / BINS
    bins = tuple(_Bin(i * step, (i + 1) * step, counts[i]) for i in range(BINS))
    maxima = _maxima(rubric)
    shown = {
        **CRITERIA,
        **{ident: name for ident, name, _ in rubric.checks},
        **{o: n for o, n in OPTIONAL.items() if any(o in r.criteria for r in graded)},
    }
    passes = tuple(
        _Pass(
            ident, name, maxima[ident], sum(_passed(r, ident, maxima) for r in graded), len(graded)
        )
        for ident, name in shown.items()
    )
    timed = [r for r in ordered if r.slowest_seconds is not None]
    timed.sort(key=lambda r: (-(r.slowest_seconds or 0.0), r.student))  # slowest first
    slowest = tuple(
        _Slow(
            _who(r),
            r.slowest_seconds,
            _time_tier(r.slowest_seconds, r.criteria.get("time", 0), rubric)
            + ("; measured again alone" if r.measured_again else ""),
        )
        for r in timed[:SLOWEST_SHOWN]
        if r.slowest_seconds is not None
    )
    abnormal = tuple(
        _Abnormal(_who(r), r.status, r.reason or "(no reason recorded)")
        for r in ordered
        if r.status != STATUS_GRADED or r.reason
    )
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
        bins=bins,
        passes=passes,
        slowest=slowest,
        abnormal=abnormal,
        tallies=_tallies(graded, shown),
        warnings=(*_unfenced(graded), *_busy(ordered), *notes),
        pages=tuple(
            (r.student, _who(r), f"{r.score:g}/{r.max_score}", r.status == STATUS_GRADED)
            for r in ordered
        ),
        board=rubric.leaderboard,
        ranking=_ranking(graded, rubric.leaderboard),
        looks=tuple((_who(r), line) for r in ordered for line in r.needs_look),
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


def _ranking(graded: Sequence[Record], figures: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The rows of the leaderboard: rank, student, each figure; by the first figure, best
    first (``LEADERBOARD`` says which way is better), then by student."""
    if not figures:
        return ()
    first = figures[0]
    sign = 1 if LEADERBOARD[first][1] == "asc" else -1

    def key(record: Record) -> tuple[int, float, str]:
        value = record.leaderboard.get(first)
        return (value is None, sign * (value or 0.0), record.student)

    rows = []
    for rank, record in enumerate(sorted(graded, key=key), 1):
        values = [record.leaderboard.get(f) for f in figures]
        rows.append((str(rank), _who(record), *("" if v is None else f"{v:g}" for v in values)))
    return tuple(rows)


# ---- Markdown ----------------------------------------------------------------------------------


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _markdown(s: _Summary) -> str:
    out = [f"# Class summary: {md_cell(s.title)}", ""]
    out += [f"- {label}: {value}" for label, value in _facts(s)]
    if s.warnings:
        out += ["", "## Warnings", ""] + [f"- {md_cell(w)}" for w in s.warnings]
    out += ["", "## Scores", "", "![Histogram of the scores](histogram.svg)", ""]
    out += _md_table(["score", "students"], [[b.label, str(b.count)] for b in s.bins])
    out += ["", _HISTOGRAM_NOTE, "", "## Criteria", "", _criteria_note(s), ""]
    out += _md_table(
        ["criterion", "id", "full points", "passed", "rate"],
        [
            [p.name, f"`{p.id}`", f"{p.max_points}" if p.id not in PENALTIES else "0 off"]
            + [f"{p.passed}/{p.graded}", p.rate]
            for p in s.passes
        ],
    )
    out += ["", "## Slowest submissions", ""]
    if s.slowest:
        out += _md_table(
            ["student", "slowest move", "time points"],
            [[md_cell(w.student), f"{w.seconds:.2f} s", w.tier] for w in s.slowest],
        )
    else:
        out.append("No move was timed.")
    out += ["", "## Did not grade normally", ""]
    if s.abnormal:
        out += _md_table(
            ["student", "status", "reason"],
            [[md_cell(a.student), md_cell(a.status), md_cell(a.reason)] for a in s.abnormal],
        )
    else:
        out.append(_ALL_NORMAL)
    if s.looks:
        out += ["", "## Needs a look", "", _LOOK_NOTE, ""]
        out += _md_table(["student", "code"], [[md_cell(w), md_cell(x)] for w, x in s.looks])
    if s.board:
        out += ["", "## Leaderboard", "", _LEADERBOARD_NOTE.format(first=s.board[0]), ""]
        out += _md_table(
            ["rank", "student", *s.board], [[md_cell(c) for c in r] for r in s.ranking]
        )
    return "\n".join(out) + "\n"


# ---- SVG histogram -----------------------------------------------------------------------------


def _svg(s: _Summary) -> str:
    """The histogram as a standalone SVG document: one ``rect class="bar"`` per bin, its count
    above it, bin ranges under the axis, and axis labels."""
    e = html.escape
    plot_w = _WIDTH - _LEFT - _RIGHT
    plot_h = _HEIGHT - _TOP - _BOTTOM
    base = _TOP + plot_h
    tallest = max((b.count for b in s.bins), default=0) or 1
    slot = plot_w / len(s.bins)
    lines = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{_HEIGHT}" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" role="img" font-family="sans-serif" font-size="12">',
        f"<title>{e(s.title)}: scores of {s.students} students</title>",
        '<rect x="0" y="0" width="100%" height="100%" fill="#ffffff"/>',
    ]
    for i, b in enumerate(s.bins):
        x = _LEFT + i * slot + _BAR_GAP / 2
        h = plot_h * b.count / tallest
        centre = x + (slot - _BAR_GAP) / 2
        lines.append(
            f'<rect class="bar" x="{x:.1f}" y="{base - h:.1f}" width="{slot - _BAR_GAP:.1f}" '
            f'height="{h:.1f}" fill="#4472c4"><title>{b.label}: {b.count}</title></rect>'
        )
        lines.append(
            f'<text class="count" x="{centre:.1f}" y="{base - h - 4:.1f}" '
            f'text-anchor="middle">{b.count}</text>'
        )
        lines.append(
            f'<text class="range" x="{centre:.1f}" y="{base + 16}" text-anchor="middle" '
            f'font-size="10">{b.label}</text>'
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


def _html_table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric: set[int]) -> str:
    """A table of already-escaped cells; columns in ``numeric`` are right-aligned."""
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "\n".join(
        "<tr>"
        + "".join(
            f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>"
            for i, c in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    return f"<table>\n<tr>{head}</tr>\n{body}\n</table>"


def _html(s: _Summary, svg: str) -> str:
    e = html.escape
    facts = "\n".join(f"<li>{e(label)}: {e(value)}</li>" for label, value in _facts(s))
    passes = _html_table(
        ["criterion", "id", "full points", "passed", "rate"],
        [
            [
                e(p.name),
                f"<code>{e(p.id)}</code>",
                str(p.max_points) if p.id not in PENALTIES else "0 off",
            ]
            + [f"{p.passed}/{p.graded}", e(p.rate)]
            for p in s.passes
        ],
        {2, 3, 4},
    )
    if s.slowest:
        slowest = _html_table(
            ["student", "slowest move", "time points"],
            [[e(w.student), f"{w.seconds:.2f} s", e(w.tier)] for w in s.slowest],
            {1},
        )
    else:
        slowest = "<p>No move was timed.</p>"
    if s.abnormal:
        abnormal = _html_table(
            ["student", "status", "reason"],
            [[e(a.student), e(a.status), e(a.reason)] for a in s.abnormal],
            set(),
        )
    else:
        abnormal = f"<p>{e(_ALL_NORMAL)}</p>"
    looks = ""
    if s.looks:
        table = _html_table(["student", "code"], [[e(w), e(x)] for w, x in s.looks], set())
        looks = f"<h2>Needs a look</h2>\n<p>{e(_LOOK_NOTE)}</p>\n{table}\n"
    bins = _html_table(["score", "students"], [[e(b.label), str(b.count)] for b in s.bins], {1})
    pages = _html_table(
        ["student", "score", "feedback"],
        [
            [
                e(who),
                e(score),
                (
                    f'<a href="students/{quote(student)}/feedback.html">page with the games</a> · '
                    if graded
                    else ""
                )
                + f'<a href="students/{quote(student)}/feedback.md">Markdown</a>',
            ]
            for student, who, score, graded in s.pages
        ],
        {1},
    )
    board = ""
    if s.board:
        ranked = _html_table(
            ["rank", "student", *(e(f) for f in s.board)],
            [[e(c) for c in row] for row in s.ranking],
            set(range(2, len(s.board) + 2)),
        )
        note = e(_LEADERBOARD_NOTE.format(first=s.board[0]))
        board = f"<h2>Leaderboard</h2>\n<p>{note}</p>\n{ranked}\n"
    warnings = ""
    if s.warnings:
        items = "\n".join(f"<li>{e(w)}</li>" for w in s.warnings)
        warnings = f"<h2>Warnings</h2>\n<ul>\n{items}\n</ul>\n"
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
{bins}
<h2>Criteria</h2>
<p>{e(_criteria_note(s))}</p>
{passes}
<h2>Slowest submissions</h2>
{slowest}
<h2>Did not grade normally</h2>
{abnormal}
{looks}{board}<h2>Each student's feedback</h2>
{pages}
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
