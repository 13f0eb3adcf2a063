"""A tournament's table: ratings, records and the head-to-head, from its games.

Ratings are OpenSkill's (the Plackett-Luce model of the ``openskill`` package: a maintained,
openly licensed TrueSkill-like rating with an uncertainty, that needs no fitting and rates a
draw as a draw). A player's rating is ``mu - 3 sigma``: what it is at least worth, very
likely, so one lucky game against a strong player does not put a barely-tested player first.
Games are rated in the schedule's order, never in the order they happened to finish, so the
same games give the same table.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from html import escape
from typing import Any

from autograder.errors import GraderError
from autograder.grading.html import page_start
from autograder.grading.rubric import Tier

__all__ = [
    "Standing",
    "INSTALL",
    "rate",
    "head_to_head",
    "band_points",
    "leaderboard_csv",
    "leaderboard_json",
    "leaderboard_html",
    "pair_file",
]

INSTALL = "pip install 'teeko-autograder[tournament]'  (or: pip install openskill)"


@dataclass(frozen=True)
class Standing:
    """One player's line of the table."""

    rank: int
    player: str
    kind: str  # "student" or "kit" (the kit's own players, benchmarks)
    name: str  # as people know it (a Canvas name, "the random player"); may be empty
    rating: float  # mu - 3 sigma
    mu: float
    sigma: float
    wins: int
    draws: int
    losses: int
    forfeits: int  # games lost by an illegal move, a crash, a timeout or a protocol fault
    points: int | None = None  # by the rubric's [tournament] bands; None when it has none

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


def _model() -> Any:
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        raise GraderError(
            f"the tournament rates with OpenSkill, not installed: {INSTALL}"
        ) from None
    return PlackettLuce()


def rate(
    players: Sequence[tuple[str, str, str]],
    games: Sequence[Mapping[str, Any]],
    bands: Sequence[Tier] = (),
) -> list[Standing]:
    """The table: ``players`` (id, kind, name) rated by ``games`` (saved game records, in the
    schedule's order), best first; ties broken by wins, then the id. With ``bands``, students
    earn points by their place among students (the kit's players take none)."""
    model = _model()
    ratings = {pid: model.rating(name=pid) for pid, _, _ in players}
    tally = {pid: [0, 0, 0, 0] for pid, _, _ in players}  # wins, draws, losses, forfeits
    for game in games:
        first, second, winner = game["first"], game["second"], game["winner"]
        if first not in ratings or second not in ratings:
            continue
        ranks = [1, 1] if winner is None else [1, 2] if winner == first else [2, 1]
        [[a], [b]] = model.rate([[ratings[first]], [ratings[second]]], ranks=ranks)
        ratings[first], ratings[second] = a, b
        for pid in (first, second):
            won = winner == pid
            tally[pid][0 if won else 1 if winner is None else 2] += 1
            if not won and winner is not None and game.get("fault") == pid:
                tally[pid][3] += 1
    kinds = {pid: (kind, name) for pid, kind, name in players}
    order = sorted(
        ratings, key=lambda p: (-round(ratings[p].ordinal(), 9), -tally[p][0], tally[p][2], p)
    )
    table, place = [], 0
    for rank, pid in enumerate(order, 1):
        r = ratings[pid]
        points = None
        if bands and kinds[pid][0] == "student":
            place += 1
            points = next((t.points for t in bands if place <= t.limit), 0)
        table.append(
            Standing(
                rank,
                pid,
                kinds[pid][0],
                kinds[pid][1],
                round(r.ordinal(), 3),
                round(r.mu, 3),
                round(r.sigma, 3),
                wins=tally[pid][0],
                draws=tally[pid][1],
                losses=tally[pid][2],
                forfeits=tally[pid][3],
                points=points,
            )
        )
    return table


def band_points(table: Sequence[Standing]) -> bool:
    """Whether the table carries points (the rubric has bands)."""
    return any(s.points is not None for s in table)


def head_to_head(games: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str], list[int]]:
    """(a, b) -> a's wins, draws and losses against b, both colours."""
    cells: dict[tuple[str, str], list[int]] = {}
    for game in games:
        first, second, winner = game["first"], game["second"], game["winner"]
        for me, them in ((first, second), (second, first)):
            cell = cells.setdefault((me, them), [0, 0, 0])
            cell[0 if winner == me else 1 if winner is None else 2] += 1
    return cells


def pair_file(a: str, b: str) -> str:
    """The replay page of the games between ``a`` and ``b``, relative to the output folder."""
    low, high = sorted((a, b))
    return f"games/{low}--{high}.html"


_COLUMNS = (
    "rank",
    "player",
    "kind",
    "name",
    "rating",
    "mu",
    "sigma",
    "wins",
    "draws",
    "losses",
    "forfeits",
    "games",
)


def leaderboard_csv(table: Sequence[Standing]) -> str:
    """``leaderboard.csv``: one row per player, best first (a points column where bands are)."""
    columns = [*_COLUMNS, "points"] if band_points(table) else list(_COLUMNS)
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(columns)
    for s in table:
        row = {**asdict(s), "games": s.games}
        writer.writerow(["" if row[c] is None else _cell(row[c]) for c in columns])
    return buffer.getvalue()


def _cell(value: Any) -> str:
    text = f"{value:g}" if isinstance(value, float) else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@") and not _number(text) else text


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


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
                "rating": "OpenSkill Plackett-Luce, mu - 3 sigma",
                "players": [{**asdict(s), "games": s.games} for s in table],
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
        "<table><tr><th>rank</th><th>player</th><th>rating</th><th>μ ± σ</th>"
        "<th>wins</th><th>draws</th><th>losses</th><th>of them forfeits</th>"
        + ("<th>points</th>" if points else "")
        + "</tr>",
    ]
    for s in table:
        who = escape(s.player) + (f" ({escape(s.name)})" if s.name else "")
        out.append(
            f'<tr class="{s.kind}"><td class="n">{s.rank}</td><td>{who}</td>'
            f'<td class="n">{s.rating:.2f}</td><td class="n">{s.mu:.2f} ± {s.sigma:.2f}</td>'
            f'<td class="n">{s.wins}</td><td class="n">{s.draws}</td>'
            f'<td class="n">{s.losses}</td><td class="n">{s.forfeits}</td>'
            + (f'<td class="n">{"" if s.points is None else s.points}</td>' if points else "")
            + "</tr>"
        )
    out.append("</table>")
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
