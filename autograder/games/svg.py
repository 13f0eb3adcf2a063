"""Boards as SVG, for the HTML reports and the play page: any game whose position is a grid.

A board is its rows, top first, one cell each: a character, a side's piece or ``' '`` empty
(a pack says which character is which side's piece and how to colour it:
``GamePack.colours``), or a count, an int, drawn as its figure in a pit (Kalah's seeds: a pack
whose ``kind.cells`` is ``Cells.COUNT``). Marks draw a move
over it: ``to`` (where a piece lands), ``from`` (where it left) and ``bad`` (a square the
rules refuse), each a ring of its own colour, so a report shows the offending move on the board.
Everything here is escaped text in a fixed layout: nothing a submission says reaches the markup
unescaped.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from autograder.games.pack import Rows

__all__ = ["CELL", "MARK_COLOURS", "SVG_JS", "board_svg"]

CELL = 48  # pixels a square, before the browser scales the drawing
_MARGIN = 18  # for the row and column labels
MARK_COLOURS = {"to": "#1a7f37", "from": "#0969da", "bad": "#cf222e"}
_BOARD = "#f3e3c3"
_LINE = "#8a6d3b"


def board_svg(
    rows: Rows,
    colours: Mapping[str, str],
    marks: Sequence[tuple[int, int, str]] = (),
    title: str = "",
    labels: bool = True,
) -> str:
    """The board as one ``<svg>`` element: a square per cell, a disc per piece, a ring per mark.

    Each cell is a ``<rect>`` with ``data-row``/``data-col`` (the play page clicks on them) and
    each piece a ``<circle class="piece" data-piece=...>``, each count a ``<g class="count"
    data-count=...>`` (a pit and its figure); rows and columns are numbered from 0 at the top
    left, as the course numbers them.
    """
    height = len(rows)
    width = max((len(row) for row in rows), default=0)
    side = _MARGIN if labels else 0
    total_w, total_h = side + width * CELL, side + height * CELL
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="0 0 {total_w} {total_h}" '
        f'width="{total_w}" height="{total_h}" role="img" aria-label="{escape(title or "board")}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    for r, row in enumerate(rows):
        for c in range(width):
            x, y = side + c * CELL, side + r * CELL
            parts.append(
                f'<rect class="cell" data-row="{r}" data-col="{c}" x="{x}" y="{y}" '
                f'width="{CELL}" height="{CELL}" fill="{_BOARD}" stroke="{_LINE}"/>'
            )
            piece = row[c] if c < len(row) else " "
            if isinstance(piece, int):
                parts.append(_count(r, c, x, y, piece))
            elif piece != " ":
                fill = colours.get(piece, "#777777")
                parts.append(
                    f'<circle class="piece" data-piece="{escape(piece)}" data-row="{r}" '
                    f'data-col="{c}" cx="{x + CELL // 2}" cy="{y + CELL // 2}" '
                    f'r="{CELL * 2 // 5}" fill="{fill}" stroke="#222" pointer-events="none"/>'
                )
    for r, c, role in marks:
        if 0 <= r < height and 0 <= c < width:
            x, y = side + c * CELL, side + r * CELL
            parts.append(
                f'<rect class="mark mark-{escape(role)}" data-row="{r}" data-col="{c}" '
                f'x="{x + 3}" y="{y + 3}" width="{CELL - 6}" height="{CELL - 6}" fill="none" '
                f'stroke="{MARK_COLOURS.get(role, "#000")}" stroke-width="5" '
                'pointer-events="none"/>'
            )
    if labels:
        for c in range(width):
            parts.append(
                f'<text x="{side + c * CELL + CELL // 2}" y="{_MARGIN - 5}" '
                f'text-anchor="middle" font-size="12">{c}</text>'
            )
        for r in range(height):
            parts.append(
                f'<text x="{_MARGIN // 2}" y="{side + r * CELL + CELL // 2 + 4}" '
                f'text-anchor="middle" font-size="12">{r}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)


def _count(row: int, col: int, x: int, y: int, count: int) -> str:
    """A pit holding ``count`` seeds: a ring and the figure."""
    return (
        f'<g class="count" data-count="{count}" data-row="{row}" data-col="{col}" '
        'pointer-events="none">'
        f'<circle cx="{x + CELL // 2}" cy="{y + CELL // 2}" r="{CELL * 2 // 5}" fill="#e6d2a8" '
        f'stroke="{_LINE}"/><text x="{x + CELL // 2}" y="{y + CELL // 2 + 6}" '
        f'text-anchor="middle" font-size="17">{count}</text></g>'
    )


# The same drawing in the browser, for pages that change the board as one watches: replays and
# the play page. ``svg(rows, colours, marks)`` returns an <svg> element (DOM, never markup).
SVG_JS = """const CELL=48, M=18;
function svg(rows, colours, marks){
  const h=rows.length, w=Math.max(0,...rows.map(r=>r.length));
  const W=M+w*CELL, H=M+h*CELL, NS="http://www.w3.org/2000/svg";
  const s=document.createElementNS(NS,"svg");
  s.setAttribute("viewBox",`0 0 ${W} ${H}`);s.setAttribute("width",W);s.setAttribute("height",H);
  s.setAttribute("class","board");
  const add=(tag,attrs)=>{const e=document.createElementNS(NS,tag);
    for(const k in attrs)e.setAttribute(k,attrs[k]);s.appendChild(e);return e;};
  rows.forEach((row,r)=>{for(let c=0;c<w;c++){const x=M+c*CELL,y=M+r*CELL;
    add("rect",{class:"cell","data-row":r,"data-col":c,x:x,y:y,width:CELL,height:CELL,
      fill:"#f3e3c3",stroke:"#8a6d3b"});
    const p=row[c]===undefined?" ":row[c];
    if(typeof p==="number"){const g=add("g",{class:"count","data-count":p,"data-row":r,
      "data-col":c,"pointer-events":"none"});
      g.appendChild(add("circle",{cx:x+CELL/2,cy:y+CELL/2,r:Math.floor(CELL*2/5),
        fill:"#e6d2a8",stroke:"#8a6d3b"}));
      const t=add("text",{x:x+CELL/2,y:y+CELL/2+6,"text-anchor":"middle","font-size":17});
      t.textContent=p;g.appendChild(t);}
    else if(p!==" ")add("circle",{class:"piece","data-piece":p,"data-row":r,"data-col":c,
      cx:x+CELL/2,cy:y+CELL/2,r:Math.floor(CELL*2/5),fill:colours[p]||"#777",stroke:"#222",
      "pointer-events":"none"});}});
  const ring={to:"#1a7f37",from:"#0969da",bad:"#cf222e"};
  (marks||[]).filter(([r,c])=>r>=0&&r<h&&c>=0&&c<w).forEach(([r,c,role])=>add("rect",
    {class:"mark mark-"+role,"data-row":r,"data-col":c,x:M+c*CELL+3,y:M+r*CELL+3,
    width:CELL-6,height:CELL-6,fill:"none",stroke:ring[role]||"#000","stroke-width":5,
    "pointer-events":"none"}));
  for(let c=0;c<w;c++)add("text",{x:M+c*CELL+CELL/2,y:M-5,"text-anchor":"middle",
    "font-size":12}).textContent=c;
  rows.forEach((_,r)=>add("text",{x:M/2,y:M+r*CELL+CELL/2+4,"text-anchor":"middle",
    "font-size":12}).textContent=r);
  return s;
}
"""
