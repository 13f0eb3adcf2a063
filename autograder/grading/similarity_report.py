"""The similarity report: a CSV of pairs, an index page, and a page per flagged pair with the
two submissions side by side and the matched regions highlighted. Pure functions of a
:class:`~autograder.grading.similarity.Comparison`.

Pages are offline (inline CSS, no script) and escape every text: student code, file names and
student names are untrusted.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from autograder.files import file_name
from autograder.grading.html import page_style
from autograder.grading.similarity import Comparison, Document, Pair, matched_lines
from autograder.play.untrusted import csv_text

__all__ = ["CSV_COLUMNS", "pair_file", "similarity_csv", "similarity_html", "pair_html"]

CSV_COLUMNS = (
    "a",
    "b",
    "share_a",
    "share_b",
    "shared_fingerprints",
    "function_share",
    "function_a",
    "function_b",
    "flagged",
)
_INDEX_ROWS = 200  # pairs listed on the index page; the CSV holds them all
_COLOURS = ("#ffd8a8", "#b2f2bb", "#a5d8ff", "#fcc2d7", "#d0bfff", "#ffec99")

_STYLE = (
    page_style("110em")
    + """.flag{color:#cf222e;font-weight:600}.num{text-align:right}
.sides{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:1em}
.code{font:12px/1.35 ui-monospace,monospace;border:1px solid #d0d7de;overflow-x:auto}
.code div{white-space:pre;padding:0 .4em}.code .n{color:#8c959f;user-select:none;
display:inline-block;width:5.5em}
.r{font-size:10px;color:#1f2328;background:#fff;border-radius:.6em;padding:0 .35em;
margin-left:.3em;text-decoration:none}
.file{font-weight:600;background:#f6f8fa;padding:.2em .4em}
"""
)


def _percent(share: float) -> str:
    return f"{100 * share:.0f}%"


def pair_file(pair: Pair) -> str:
    """Where a flagged pair's page goes, relative to the report's folder: the two names as
    they are when plain, else readable parts and a digest of the pair, within a file system's
    limits (:func:`~autograder.files.file_name`), so two pairs never share a page."""
    return f"pairs/{file_name(pair.a, pair.b)}.html"


def similarity_csv(comparison: Comparison) -> str:
    """Every pair with a fingerprint in common, the most similar first."""
    rows: list[tuple[object, ...]] = [CSV_COLUMNS]
    for p in comparison.pairs:
        shares = (f"{p.share_a:.3f}", f"{p.share_b:.3f}", p.shared, f"{p.function_share:.3f}")
        rows.append((p.a, p.b, *shares, p.function_a, p.function_b, "yes" if p.flagged else ""))
    return csv_text(rows)


def _page(title: str, body: list[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def _settings_line(comparison: Comparison) -> str:
    s = comparison.settings
    return (
        "Code read as its syntax tree in one canonical form (names and literals as symbols; "
        "operand order, augmented assignments, mirrored comparisons, counting loops and "
        f"padding undone), k-grams of {s.k} symbols, winnowing window {s.w}, compared file by "
        "file and function by function. A pair is flagged when either side has "
        f"{_percent(s.threshold)} of its own fingerprints matched, or two of its functions are "
        f"that alike, and at least {s.min_shared} fingerprints are shared. "
        f"{len(comparison.ignored) - comparison.common} k-grams of boilerplate ignored; "
        f"{comparison.common} fingerprints held by more than {_percent(s.common)} of the class "
        "ignored as what it was given or its idioms. No grade is changed: whether a pair shared "
        "code is yours to judge."
    )


def similarity_html(
    comparison: Comparison, title: str, pages: Mapping[tuple[str, str], str]
) -> str:
    """The index: the pairs ranked, each student's closest match, and what could not be read."""
    flagged = [p for p in comparison.pairs if p.flagged]
    pupils = [d for d in comparison.documents if not d.archived]
    body = [
        f"<h1>{escape(title)}: similarity</h1>",
        f"<p>{len(pupils)} submissions compared with one another and with "
        f"{len(comparison.documents) - len(pupils)} archived solutions; "
        f'<span class="flag">{len(flagged)} pairs flagged</span>.</p>',
        f"<p>{escape(_settings_line(comparison))}</p>",
        *([f'<p class="flag">{escape(line)}</p>'] if (line := comparison.set_aside_line()) else []),
        "<h2>Pairs, most similar first</h2>",
        "<table><tr><th>#</th><th>a</th><th>b</th><th>of a matched</th><th>of b matched</th>"
        "<th>closest functions</th><th>shared</th><th></th></tr>",
    ]
    listed = [
        (rank, p)
        for rank, p in enumerate(comparison.pairs, 1)
        if rank <= _INDEX_ROWS or p.flagged  # every flagged pair, however many
    ]
    for rank, p in listed:
        page = pages.get((p.a, p.b))
        link = (
            f'<a class="flag" href="{escape(page)}">flagged: side by side</a>'
            if page
            else '<span class="flag">flagged</span>'
            if p.flagged
            else ""
        )
        body.append(
            f'<tr><td class="num">{rank}</td><td>{escape(p.a)}</td><td>{escape(p.b)}</td>'
            f'<td class="num">{_percent(p.share_a)}</td><td class="num">{_percent(p.share_b)}</td>'
            f'<td class="num">{_percent(p.function_share) if p.function_a else ""}</td>'
            f'<td class="num">{p.shared}</td><td>{link}</td></tr>'
        )
    body.append("</table>")
    if len(comparison.pairs) > len(listed):
        more = len(comparison.pairs) - len(listed)
        body.append(f"<p>{more} more pairs, none flagged, in similarity.csv.</p>")
    closest = comparison.closest()
    body += [
        "<h2>Each student's closest match</h2>",
        "<table><tr><th>student</th><th>fingerprints of their own</th><th>closest</th>"
        "<th>of the student matched there</th></tr>",
    ]
    for d in sorted(pupils, key=lambda d: d.name):
        pair = closest.get(d.name)
        other, share = "none", ""
        if pair is not None:
            mine = pair.a == d.name
            other = escape(pair.b if mine else pair.a)
            share = _percent(pair.share_a if mine else pair.share_b)
            page = pages.get((pair.a, pair.b))
            other += f' <a class="flag" href="{escape(page)}">flagged</a>' if page else ""
        body.append(
            f'<tr><td>{escape(d.name)}</td><td class="num">{comparison.own.get(d.name, 0)}</td>'
            f'<td>{other}</td><td class="num">{share}</td></tr>'
        )
    body.append("</table>")
    noted = [d for d in comparison.documents if d.notes or not d.files]
    if noted:
        body.append("<h2>Read with problems</h2><ul>")
        for d in noted:
            said = "; ".join(d.notes) or "no Python code found"
            body.append(f"<li>{escape(d.name)}: {escape(said)}</li>")
        body.append("</ul>")
    return _page(f"{title}: similarity", body)


def pair_html(
    pair: Pair, one: Document, other: Document, comparison: Comparison, title: str
) -> str:
    """Two submissions side by side, the lines their shared fingerprints cover coloured by
    region: the same colour on both sides is the same matched code."""
    left, right = matched_lines(one, other, comparison.ignored, comparison.settings)
    body = [
        f"<h1>{escape(pair.a)} and {escape(pair.b)}</h1>",
        f"<p>{_percent(pair.share_a)} of {escape(pair.a)}'s own fingerprints are found in "
        f"{escape(pair.b)}, {_percent(pair.share_b)} of {escape(pair.b)}'s in {escape(pair.a)} "
        f"({pair.shared} shared). Starter code and common idioms are not counted and not "
        'coloured. <a href="../similarity.html">All pairs</a></p>',
        *_functions_line(pair),
        f"<p>{escape(_settings_line(comparison))}</p>",
        '<div class="sides">',
        _side(one, left, "a", "b"),
        _side(other, right, "b", "a"),
        "</div>",
    ]
    return _page(f"{title}: {pair.a} and {pair.b}", body)


def _functions_line(pair: Pair) -> list[str]:
    """The pair's most similar functions, in a sentence (none when no function matched)."""
    if not pair.function_a:
        return []
    return [
        f"<p><b>Most similar functions</b>: {escape(pair.function_a)} in {escape(pair.a)} and "
        f"{escape(pair.function_b)} in {escape(pair.b)}: {_percent(pair.function_share)} alike "
        "(their shared fingerprints over the larger one's, less for short functions).</p>"
    ]


def _side(document: Document, marks: Mapping[tuple[int, int], int], me: str, them: str) -> str:
    """One side's files, numbered; the first line of each matched region carries its number,
    a link to the same region on the other side."""
    rows = [f'<div><h2>{escape(document.name)}</h2><div class="code">']
    started: set[int] = set()
    for number, source in enumerate(document.files):
        rows.append(f'<div class="file">{escape(source.name)}</div>')
        for line, text in enumerate(source.text.removesuffix("\n").split("\n"), 1):
            region = marks.get((number, line))
            style, badge = "", ""
            if region:
                colour = _COLOURS[(region - 1) % len(_COLOURS)]
                style = f' style="background:{colour}" title="matched region {region}"'
                if region not in started:
                    started.add(region)
                    badge = f'<a class="r" id="{me}{region}" href="#{them}{region}">{region}</a>'
            rows.append(
                f'<div{style}><span class="n">{line}{badge}</span>'
                f"{escape(text.expandtabs(4))}</div>"
            )
    rows.append("</div></div>")
    return "\n".join(rows)
