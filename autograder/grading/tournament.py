"""A tournament's table: ratings, records, ties and the head-to-head, from its games.

Ratings are a Bradley-Terry fit of all the games at once (:mod:`autograder.grading.ratings`):
the same games give the same table whatever order they were played or listed in. A rating is
on Elo's scale (400 points are odds of 10 to 1; 1500 is the average player of the fit's prior)
with its standard error. Players the games cannot tell apart share a group, shown as the
range of places it spans; a student's points are those of the best place it could hold.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from html import escape
from typing import Any

from autograder.files import file_name
from autograder.grading.html import page_start
from autograder.grading.ratings import ELO, Fit, Z, fit, groups, rank_ranges
from autograder.grading.rubric import Tier
from autograder.play.untrusted import csv_text

__all__ = [
    "Standing",
    "RATING",
    "rate",
    "head_to_head",
    "band_points",
    "leaderboard_csv",
    "leaderboard_json",
    "leaderboard_html",
    "leaderboard_text",
    "pair_file",
]

BASE = 1500.0  # the rating of the fit's virtual average player
RATING = (
    "Bradley-Terry, fitted on all games at once (a draw is half a win; a prior of one win and "
    f"one loss against a {BASE:g} player); Elo scale, with its standard error; players within "
    f"{Z} standard errors of each other's difference are tied"
)


@dataclass(frozen=True)
class Standing:
    """One player's line of the table."""

    rank: int
    player: str
    kind: str  # "student" or "kit" (the kit's own players, benchmarks)
    name: str  # as people know it (a Canvas name, "the random player"); may be empty
    rating: float  # Elo scale, BASE for the average player of the prior
    error: float  # its standard error against the class's mean, in the same points
    ranks: tuple[int, int]  # the best and worst rank the games leave possible for it
    tied: tuple[int, int]  # its group: the first and last rank no clean split of the games
    # separates it from (every player above the group is told apart from every one below)
    wins: int
    draws: int
    losses: int
    forfeits: int  # games lost by an illegal move, a crash, a timeout or a protocol fault
    points: int | None = None  # by the rubric's [tournament] bands; None when it has none
    forfeit_reason: str = ""  # why it lost its first forfeited game (by game id), if any

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def could_be(self) -> str:
        """The ranks the games leave possible for it: "2-4", or "2" when only its own."""
        return _span(self.ranks)

    @property
    def group(self) -> str:
        """Its tied group's ranks: "1-4", or "3" when the games set it apart."""
        return _span(self.tied)


def _span(span: tuple[int, int]) -> str:
    first, last = span
    return str(first) if first == last else f"{first}-{last}"


def _tally(
    ids: set[str], games: Sequence[Mapping[str, Any]]
) -> tuple[dict[str, list[int]], dict[tuple[str, str], float]]:
    """Each player's wins, draws, losses and forfeits, and (a, b) -> a's points against b."""
    tally = {pid: [0, 0, 0, 0] for pid in ids}
    scores: dict[tuple[str, str], float] = {}
    for game in games:
        first, second, winner = game["first"], game["second"], game["winner"]
        if first not in ids or second not in ids or first == second:
            continue
        for me, them in ((first, second), (second, first)):
            won = winner == me
            scores[(me, them)] = scores.get((me, them), 0.0) + (
                1.0 if won else 0.5 if winner is None else 0.0
            )
            tally[me][0 if won else 1 if winner is None else 2] += 1
            if not won and winner is not None and game.get("fault") == me:
                tally[me][3] += 1
    return tally, scores


def rate(
    players: Sequence[tuple[str, str, str]],
    games: Sequence[Mapping[str, Any]],
    bands: Sequence[Tier] = (),
) -> list[Standing]:
    """The table: ``players`` (id, kind, name) rated by ``games`` (saved game records, in any
    order), best first; equal ratings by wins, then losses, then the id. With ``bands``,
    students earn points by their place among students (the kit's players take none): the
    best place among students each could hold (``_best_places``)."""
    kinds = {pid: (kind, name) for pid, kind, name in players}
    tally, scores = _tally(set(kinds), games)
    reasons = _forfeit_reasons(games)
    result = fit(list(kinds), scores)
    index = {pid: n for n, pid in enumerate(result.players)}
    order = sorted(
        result.players,
        key=lambda p: (-round(result.strength[index[p]], 9), -tally[p][0], tally[p][2], p),
    )
    spans = groups([index[p] for p in order], result)
    possible = rank_ranges(result)
    best = _best_places([index[p] for p in order if kinds[p][0] == "student"], result)
    table = []
    for place, pid in enumerate(order):
        first, last = spans[place]
        points = None
        if bands and kinds[pid][0] == "student":
            points = next((t.points for t in bands if best[index[pid]] <= t.limit), 0)
        i = index[pid]
        table.append(
            Standing(
                place + 1,
                pid,
                kinds[pid][0],
                kinds[pid][1],
                round(BASE + ELO * result.strength[i], 1),
                round(ELO * result.error(i), 1),
                possible[i],
                (first + 1, last + 1),
                wins=tally[pid][0],
                draws=tally[pid][1],
                losses=tally[pid][2],
                forfeits=tally[pid][3],
                points=points,
                forfeit_reason=reasons.get(pid, ""),
            )
        )
    return table


def _best_places(students: Sequence[int], result: Fit) -> dict[int, int]:
    """Per student (indices into ``result``, best first), the best place among students it
    could hold: one past the students the games show stronger than it, never worse than a
    student ranked below it gets. Not through a chain of close pairs: a student the games
    show weaker than every student above it earns its own place's points."""
    found: dict[int, int] = {}
    lowest = len(students)
    for me in reversed(students):
        above = sum(
            result.apart(me, other) and result.strength[other] > result.strength[me]
            for other in students
        )
        lowest = min(lowest, above + 1)
        found[me] = lowest
    return found


def band_points(table: Sequence[Standing]) -> bool:
    """Whether the table carries points (the rubric has bands)."""
    return any(s.points is not None for s in table)


def _forfeit_reasons(games: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Player -> why it lost its first forfeited game (by game id), without the "lost on ply"
    prefix: what a course reads to see why a player forfeits."""
    found: dict[str, str] = {}
    for game in sorted(games, key=lambda g: str(g.get("id", ""))):
        fault, reason = game.get("fault"), game.get("reason")
        if isinstance(fault, str) and isinstance(reason, str) and fault not in found:
            found[fault] = reason.split(": ", 1)[1] if " lost on ply " in reason else reason
    return found


def head_to_head(games: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], list[int]]:
    """(a, b) -> a's wins, draws and losses against b, both colours."""
    cells: dict[tuple[str, str], list[int]] = {}
    for game in games:
        first, second, winner = game["first"], game["second"], game["winner"]
        for me, them in ((first, second), (second, first)):
            cell = cells.setdefault((me, them), [0, 0, 0])
            cell[0 if winner == me else 1 if winner is None else 2] += 1
    return cells


def leaderboard_text(table: Sequence[Standing]) -> str:
    """The table for the terminal: rank, the ranks it could hold, player, rating with its
    error, record; a line where the games split the table (between tied groups)."""
    rows: list[tuple[str, ...]] = [
        ("rank", "could be", "player", "rating", "W-D-L", "forfeits", "points")
    ]
    for s in table:
        rows.append(
            (
                str(s.rank),
                s.could_be,
                s.player + (f" ({s.name})" if s.name else ""),
                f"{s.rating:.0f} ± {s.error:.0f}",
                f"{s.wins}-{s.draws}-{s.losses}",
                str(s.forfeits),
                "" if s.points is None else str(s.points),
            )
        )
    if not band_points(table):
        rows = [row[:-1] for row in rows]
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    lines = []
    for number, row in enumerate(rows):
        if number > 1 and table[number - 1].tied[0] == table[number - 1].rank:
            lines.append("-" * (sum(widths) + 2 * (len(widths) - 1)))  # the games split here
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)))
    return "\n".join(line.rstrip() for line in lines) + "\n"


def pair_file(a: str, b: str) -> str:
    """The replay page of the games between ``a`` and ``b``, relative to the output folder:
    a name no other pair's page has, within a file system's limits."""
    low, high = sorted((a, b))
    return f"games/{file_name(low, high)}.html"


_COLUMNS = (
    "rank",
    "player",
    "kind",
    "name",
    "rating",
    "error",
    "could_be",
    "group",
    "wins",
    "draws",
    "losses",
    "forfeits",
    "games",
    "forfeit_reason",
)


def leaderboard_csv(table: Sequence[Standing], incomplete: str | None = None) -> str:
    """``leaderboard.csv``: one row per player, best first (a points column where bands are);
    a table of a schedule not played through ends with a row saying so (``incomplete``)."""
    columns = [*_COLUMNS, "points"] if band_points(table) else list(_COLUMNS)
    rows: list[list[Any]] = [columns]
    for s in table:
        row = {**asdict(s), "games": s.games, "could_be": s.could_be, "group": s.group}
        rows.append([f"{row[c]:g}" if isinstance(row[c], float) else row[c] for c in columns])
    if incomplete is not None:
        rows.append([incomplete])
    return csv_text(rows)


def leaderboard_json(
    table: Sequence[Standing],
    games: Sequence[Mapping[str, Any]],
    about: Mapping[str, Any],
) -> str:
    """``leaderboard.json``: the table, the head-to-head and how the tournament was run."""
    cells = head_to_head(games)
    return (
        json.dumps(
            {
                **about,
                "rating": RATING,
                "players": [
                    {**asdict(s), "games": s.games, "could_be": s.could_be, "group": s.group}
                    for s in table
                ],
                "head_to_head": [
                    {"player": a, "against": b, "wins": w, "draws": d, "losses": lost}
                    for (a, b), (w, d, lost) in sorted(cells.items())
                ],
            },
            indent=2,
        )
        + "\n"
    )


_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:72em;padding:0 1em;
color:#1f2328}h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}
table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.25em .5em;
text-align:left}td.n{text-align:right}.kit{color:#57606a;font-style:italic}
.w{background:#dafbe1}.l{background:#ffebe9}.d{background:#fff8c5}.self{background:#eaeef2}
tr.split td{border-top:3px solid #57606a}
th.v{writing-mode:vertical-rl;transform:rotate(180deg);white-space:nowrap}
"""


def leaderboard_html(
    title: str,
    table: Sequence[Standing],
    games: Sequence[Mapping[str, Any]],
    lines: Sequence[str],
) -> str:
    """``leaderboard.html``: ranks and ratings, then the head-to-head table, each cell linking
    to the replays of its games (``games/<a>--<b>.html``). Offline: no script, no network."""
    cells = head_to_head(games)
    points = band_points(table)
    out = [
        *page_start(title, _STYLE),
        *(f"<p>{escape(line)}</p>" for line in lines),
        "<p><i>Could be</i>: the ranks the games leave possible for a player, from one past "
        "the players they show stronger to the last but those they show weaker (two players "
        "are told apart when their difference is beyond the uncertainty of the ratings). A "
        "line is drawn only where the games split the table: every player above it told apart "
        "from every player below; players between two lines are tied. A student's points "
        "are those of the best place among students it could hold, and never fewer than a "
        "student's below it.</p>",
        "<table><tr><th>rank</th><th>could be</th><th>player</th><th>rating ± error</th>"
        "<th>wins</th><th>draws</th><th>losses</th><th>of them forfeits</th>"
        + ("<th>points</th>" if points else "")
        + "</tr>",
    ]
    for s in table:
        who = escape(s.player) + (f" ({escape(s.name)})" if s.name else "")
        split = " split" if s.tied[0] == s.rank and s.rank > 1 else ""
        out.append(
            f'<tr class="{s.kind}{split}"><td class="n">{s.rank}</td>'
            f'<td class="n">{s.could_be.replace("-", "–")}</td><td>{who}</td>'
            f'<td class="n">{s.rating:.0f} ± {s.error:.0f}</td>'
            f'<td class="n">{s.wins}</td><td class="n">{s.draws}</td>'
            f'<td class="n">{s.losses}</td><td class="n">{s.forfeits}</td>'
            + (f'<td class="n">{"" if s.points is None else s.points}</td>' if points else "")
            + "</tr>"
        )
    out.append("</table>")
    forfeiting = [s for s in table if s.forfeit_reason]
    if forfeiting:
        out.append("<h2>Why players forfeited</h2><p>Each player's first forfeited game:</p><ul>")
        out += [
            f"<li>{escape(s.player)} ({s.forfeits}): {escape(s.forfeit_reason)}</li>"
            for s in forfeiting
        ]
        out.append("</ul>")
    out.append(
        "<h2>Head to head</h2><p>Each cell is the row player's wins–draws–losses against the "
        "column player, both colours; click it for the games, move by move.</p>"
    )
    names = [s.player for s in table]
    out.append(
        "<table><tr><th></th>" + "".join(f'<th class="v">{escape(n)}</th>' for n in names) + "</tr>"
    )
    for me in names:
        row = [f"<tr><th>{escape(me)}</th>"]
        for them in names:
            cell = cells.get((me, them))
            if me == them or cell is None:
                row.append(f'<td class="{"self" if me == them else ""}"></td>')
                continue
            w, d, lost = cell
            kind = "w" if w > lost else "l" if lost > w else "d"
            href = escape(pair_file(me, them))
            row.append(f'<td class="{kind}"><a href="{href}">{w}–{d}–{lost}</a></td>')
        out.append("".join(row) + "</tr>")
    out.append("</table></body></html>")
    return "\n".join(out) + "\n"
