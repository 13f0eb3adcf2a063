"""``feedback.html``: one self-contained page per report, for people who would rather look.

The criteria table, each deduction with its board and the offending move drawn on it, and each
game as a replay a student steps through (buttons, the arrow keys, or a click on the move
list), with every move's time. No network, no CDN: inline SVG, a little CSS and plain
JavaScript. Every text a submission could have influenced is escaped here, and the data the
replays read is JSON in a ``<script type="application/json">`` block that cannot end early.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from html import escape
from typing import Any

from autograder.games.pack import Assignment, must_pass
from autograder.games.svg import SVG_JS, board_svg
from autograder.grading.report import (
    LOOK_NOTE,
    NEEDS_LOOK,
    REPRODUCE,
    Feedback,
    drift_lines,
    extras_sections,
    header_lines,
    look_lines,
    plies_printed,
    ply_window,
    skipped_text,
)
from autograder.grading.scoring import Evidence, Grade
from autograder.play.records import Ply

__all__ = [
    "feedback_html",
    "game_frames",
    "page_start",
    "page_style",
    "replay_frames",
    "replay_page",
]


def page_style(width: str) -> str:
    """The style sheet a report page starts from (text, headings, tables), ``width`` its
    greatest width; the page's own rules follow it."""
    return (
        "\nbody{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;"
        f"max-width:{width};padding:0 1em;\ncolor:#1f2328}}\n"
        "h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\n"
        "table{border-collapse:collapse}td,th{border:1px solid #d0d7de;padding:.3em .6em;\n"
        "vertical-align:top;text-align:left}\n"
    )


_STYLE = (
    page_style("60em")
    + """.score{font-size:1.3em;font-weight:600}.lost{color:#cf222e}.full{color:#1a7f37}
.evidence{border-left:4px solid #cf222e;padding:.2em .8em;margin:1em 0}
.board{max-width:100%;height:auto}
pre{background:#f6f8fa;padding:.6em;overflow-x:auto;white-space:pre-wrap}
.replay{display:flex;gap:1.2em;flex-wrap:wrap;align-items:flex-start}
.moves{max-height:26em;overflow-y:auto;min-width:16em;list-style:none;padding-left:0}
.moves li{cursor:pointer;padding:0 .3em}.moves li.now{background:#ddf4ff}
.controls button{font-size:1em;margin-right:.3em}
"""
)

_SCRIPT = (
    "(function(){\n"
    + SVG_JS
    + """
const data=JSON.parse(document.getElementById("replays").textContent);
const players=[];
document.querySelectorAll(".replay").forEach((box,index)=>{
  const game=data.games[index]; let at=0;
  const place=box.querySelector(".view"), say=box.querySelector(".where");
  const items=box.querySelectorAll(".moves li");
  function show(n){at=Math.max(0,Math.min(game.frames.length-1,n));
    const f=game.frames[at]; place.replaceChildren(svg(f.rows,data.colours,f.marks));
    say.textContent=f.caption; box.dataset.ply=at;
    items.forEach((li,i)=>li.classList.toggle("now",i+1===at));}
  box.querySelector(".first").onclick=()=>show(0);
  box.querySelector(".prev").onclick=()=>show(at-1);
  box.querySelector(".next").onclick=()=>show(at+1);
  box.querySelector(".last").onclick=()=>show(game.frames.length-1);
  items.forEach((li,i)=>li.onclick=()=>{show(i+1);current=index;});
  box.addEventListener("click",()=>{current=index;});
  players.push({show:n=>show(n),step:d=>show(at+d),end:()=>show(game.frames.length-1)});
  show(0);
});
let current=0;
document.addEventListener("keydown",e=>{const p=players[current];if(!p)return;
  if(e.key==="ArrowRight"){p.step(1);e.preventDefault();}
  else if(e.key==="ArrowLeft"){p.step(-1);e.preventDefault();}
  else if(e.key==="Home"){p.show(0);e.preventDefault();}
  else if(e.key==="End"){p.end();e.preventDefault();}});
})();
"""
)


def page_start(title: str, style: str | None = None) -> list[str]:
    """The opening of every page the kit writes: its head, with its style sheet (the
    feedback's unless ``style``), and ``title`` as its heading; offline, nothing fetched."""
    return [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title><style>{style or _STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
    ]


def _json_for_script(value: object) -> str:
    """JSON that is safe inside ``<script>``: no ``<``, ``>`` or ``&`` left to end the block."""
    text = json.dumps(value, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _evidence_html(item: Evidence, colours: dict[str, str], picture: bool = True) -> str:
    parts = [f'<div class="evidence"><p><b>{escape(item.where)}</b>: {escape(item.problem)}</p>']
    if item.returned:
        parts.append(
            f"<p><code>{escape(item.returned_by)}</code> returned "
            f"<code>{escape(item.returned)}</code></p>"
        )
    if item.rows and (picture or not item.board):
        caption = "the position before the move" if item.returned else "the position"
        parts.append(f"<p>{caption}:</p>")
        parts.append(board_svg(item.rows, colours, item.marks, title=item.where))
    elif item.board:
        parts.append(f"<pre>{escape(item.board)}</pre>")
    parts.append("</div>")
    return "".join(parts)


def replay_frames(
    assignment: Assignment,
    plies: Sequence[Ply],
    who: Callable[[Ply], str],
    ending: str,
    printed: Sequence[str] | None = None,
    window: int | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """One game as the replay reads it: a frame per position (rows, the last move's marks, a
    caption naming ``who`` moved) and the move list with times and ``printed`` text (default:
    each ply's own). A move the rules refused is a frame of its own: the same position, the
    refused squares marked. At most ``window`` moves (None: all): the middle of a longer game
    is one frame, the position after it. ``ending`` (the result and why) closes the last
    caption."""
    pack = assignment.pack
    pos = pack.start(assignment.variant)
    frames: list[dict[str, Any]] = [{"rows": pack.cells(pos), "marks": [], "caption": "the start"}]
    moves = []
    shown_text = printed if printed is not None else [ply.printed for ply in plies]
    head, resume = ply_window(len(plies), window)
    for number, (ply, shown) in enumerate(zip(plies, shown_text, strict=True), 1):
        took = (
            ""
            if ply.seconds is None
            else " (stopped at the time limit)"
            if math.isinf(ply.seconds)
            else f" in {ply.seconds:.2f} s"
        )
        text = f"ply {number}, {who(ply)} ({assignment.side_name(ply.side)}): {ply.text}{took}"
        if ply.illegal is None and must_pass(pack, pos):  # a forced pass, played by the referee
            pos = pack.play(pos, pack.pass_move)
        elif ply.illegal is None and ply.move is not None:
            pos = pack.play(pos, pack.read_move(ply.move, pos))
        else:
            text += f" — refused: {ply.illegal}"
        if head < number <= resume:  # skipped: the last one shows where the game went
            if number == resume:
                caption = skipped_text(head, resume)
                frames.append({"rows": pack.cells(pos), "marks": [], "caption": caption})
                moves.append({"text": caption, "printed": ""})
            continue
        frames.append({"rows": pack.cells(pos), "marks": list(ply.marks), "caption": text})
        moves.append({"text": text, "printed": shown})
    frames[-1]["caption"] += f" ({ending})"
    return frames, moves


def game_frames(grade: Grade, plies: int | None = None) -> list[dict[str, Any]]:
    """Each graded game as the replay reads it (see :func:`replay_frames`), at most ``plies``
    moves a game (None: all)."""
    session = grade.session
    assignment = session.assignment
    games = []
    for game, printed in zip(session.games, plies_printed(grade), strict=True):
        yours = 0

        def who(ply: Ply, ai: str = game.ai_side) -> str:
            nonlocal yours
            if ply.side != ai:
                return "the opponent"
            yours += 1
            return f"your move {yours}"

        frames, moves = replay_frames(
            assignment, game.moves, who, f"{game.result}: {game.reason}", printed, plies
        )
        played = assignment.side_name(game.ai_side)
        games.append(
            {
                "title": f"game {game.number}: you played {played}; {game.result}, {game.reason}",
                "frames": frames,
                "moves": moves,
            }
        )
    return games


def replay_page(
    title: str, lines: Sequence[str], games: Sequence[dict[str, Any]], colours: dict[str, str]
) -> str:
    """A page of replays alone (a tournament's games): ``lines`` above them, each game as
    :func:`replay_frames` made it with its ``title``; the same player as feedback.html's."""
    out = [
        *page_start(title),
        *(f"<p>{escape(line)}</p>" for line in lines),
        "<p>Step with the buttons or the arrow keys; click a move to jump to it.</p>",
        *(_game_html(game) for game in games),
    ]
    payload = {"colours": colours, "games": list(games)}
    out.append(f'<script type="application/json" id="replays">{_json_for_script(payload)}</script>')
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"


def _game_html(game: dict[str, Any]) -> str:
    items = "".join(
        f"<li>{escape(m['text'])}"
        + (f"<pre>{escape(m['printed'])}</pre>" if m["printed"] else "")
        + "</li>"
        for m in game["moves"]
    )
    return (
        f"<h3>{escape(game['title'])}</h3>"
        '<div class="replay" tabindex="0"><div>'
        '<div class="controls"><button class="first" title="the start (Home)">start</button>'
        '<button class="prev" title="back (←)">◀ back</button>'
        '<button class="next" title="forward (→)">forward ▶</button>'
        '<button class="last" title="the end (End)">end</button></div>'
        '<div class="view"></div><p class="where"></p></div>'
        f'<ul class="moves">{items}</ul></div>'
    )


def feedback_html(feedback: Feedback, plies: int | None = None, pictures: int | None = None) -> str:
    """The whole page for ``feedback``'s grade, as one string of HTML; its games with at most
    ``plies`` moves each, the first ``pictures`` boards of the evidence drawn as pictures (4-6
    KB each), the others as text (None: all)."""
    grade, notes = feedback.grade, feedback.notes
    extras, reproduce = feedback.extras, feedback.reproduce
    pack = grade.session.assignment.pack
    colours = dict(pack.colours)
    title = f"{pack.title} autograder feedback"
    out = [
        *page_start(title),
        "<ul>",
        *(f"<li>{escape(line)}</li>" for line in header_lines(grade, notes)),
        "</ul>",
        f'<p class="score">Score: {grade.score:g}/{grade.max_score}</p>',
        "<table><tr><th>criterion</th><th>points</th><th>summary</th></tr>",
    ]
    for c in grade.criteria:
        lost = c.points < c.max_points or c.points < 0
        points = f"{c.points:g}/{c.max_points}" if c.max_points else f"{c.points:g}"
        out.append(
            f"<tr><td>{escape(c.name)} (<code>{escape(c.id)}</code>)</td>"
            f'<td class="{"lost" if lost else "full"}">{points}</td>'
            f"<td>{escape(c.summary)}</td></tr>"
        )
    out.append("</table>")
    drawn = 0
    for c in grade.criteria:
        if c.evidence:
            out.append(f"<h2>{escape(c.name)} (<code>{escape(c.id)}</code>)</h2>")
            for item in c.evidence:
                picture = pictures is None or drawn < pictures
                out.append(_evidence_html(item, colours, picture=picture))
                drawn += bool(item.rows)
    drift = drift_lines(grade)
    if drift:
        out.append("<h2>Your board drifted from the referee's</h2>")
        out.append("<ul>" + "".join(f"<li>{escape(line)}</li>" for line in drift) + "</ul>")
    if grade.looks:
        out.append(f"<h2>{escape(NEEDS_LOOK)}</h2><p>{escape(LOOK_NOTE)}</p>")
        out.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in look_lines(grade)) + "</ul>")
    games = game_frames(grade, plies)
    if games:
        out.append("<h2>The games, move by move</h2>")
        out.append("<p>Step with the buttons or the arrow keys; click a move to jump to it.</p>")
        out += [_game_html(game) for game in games]
    for ident, summary, evidence in extras_sections(extras, lambda pos: pack.render(pos)):
        out.append(f"<h2>Beyond the rubric, no points: {escape(ident)}</h2>")
        out.append(f"<p>{escape(summary)}</p>")
        out += [_evidence_html(item, colours) for item in evidence]
    if reproduce:
        out.append(f"<h2>{escape(REPRODUCE)}</h2><pre>{escape(reproduce)}</pre>")
    payload = {"colours": colours, "games": games}
    out.append(f'<script type="application/json" id="replays">{_json_for_script(payload)}</script>')
    out.append(f"<script>{_SCRIPT}</script></body></html>")
    return "\n".join(out) + "\n"
