"""The play page: one self-contained HTML file (no network, no CDN) that draws the board from
``/state`` and sends a person's clicks and choices to the server as small JSON posts, each
carrying the session's token (read from its own address) in the ``X-Play-Token`` header."""

from __future__ import annotations

from autograder.games.svg import SVG_JS

__all__ = ["PAGE"]

_STYLE = """
body{font:15px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:60em;padding:0 1em;
color:#1f2328}
h1{font-size:1.3em}.row{display:flex;gap:1.5em;flex-wrap:wrap;align-items:flex-start}
#board .cell{cursor:pointer}#board .cell:hover{fill:#ead2a0}
#message{font-weight:600;min-height:1.4em}#over{color:#cf222e;font-weight:600}
#moves{max-height:28em;overflow-y:auto;min-width:15em;list-style:none;padding-left:1em}
fieldset{border:1px solid #d0d7de;margin-bottom:1em}
"""

_SCRIPT = (
    "(function(){\n"
    + SVG_JS
    + """
let busy=false, auto=null, shownAi=null;
const $=id=>document.getElementById(id);
const token=new URLSearchParams(location.search).get("token")||"";
async function call(path, init){
  const r=await fetch(path,{...init,headers:{...(init||{}).headers,"X-Play-Token":token}});
  if(!r.ok){$("message").textContent=(await r.text()).trim();return;}
  draw(await r.json());}
function fill(select, options, chosen){
  if(select.options.length)return;
  for(const [value,label] of Object.entries(options)){
    const o=document.createElement("option");o.value=value;o.textContent=label;
    if(value===chosen)o.selected=true;select.appendChild(o);}}
function draw(s){
  document.title=s.title; $("title").textContent=s.title;
  fill($("side"), s.sides, null); fill($("opponent"), s.opponents, s.opponent);
  if(s.ai!==shownAi){  // a new game's side, not a choice made for the next one
    const ai=Object.keys(s.sides).find(side=>s.sides[side]===s.ai);
    if(ai!==undefined)$("side").value=ai; shownAi=s.ai;}
  const board=svg(s.rows, s.colours, s.marks); board.id="board";
  board.querySelectorAll(".cell").forEach(cell=>cell.addEventListener("click",()=>
    post("/click",{row:+cell.dataset.row,col:+cell.dataset.col})));
  $("view").replaceChildren(board);
  const told=!!s.over&&s.message.startsWith("game over");
  $("message").textContent=told?"":s.message;
  $("over").textContent=s.over?(told?s.message:"game over: "+s.over):"";
  $("who").textContent=s.mode==="play"?`the AI plays ${s.ai}; you play the other side`
    :`watching: the AI plays ${s.ai}`;
  $("step").disabled=s.mode!=="watch"||!!s.over; $("auto").disabled=$("step").disabled;
  if(s.over&&auto){clearInterval(auto);auto=null;}
  $("moves").replaceChildren(...s.moves.map(t=>{const li=document.createElement("li");
    li.textContent=t;return li;}));
  document.body.dataset.plies=s.moves.length; document.body.dataset.over=s.over?"yes":"no";
}
async function post(path, body){
  if(busy)return; busy=true; document.body.dataset.busy="yes";
  try{await call(path,{method:"POST",headers:{"Content-Type":"application/json"},
      body:JSON.stringify(body||{})});}
  finally{busy=false; document.body.dataset.busy="no";}}
$("new").onclick=()=>post("/new",{mode:$("mode").value,ai:$("side").value,
  opponent:$("opponent").value});
$("step").onclick=()=>post("/step");
$("auto").onclick=()=>{if(auto){clearInterval(auto);auto=null;return;}
  auto=setInterval(()=>{if(!busy)post("/step");},400);};
call("/state");
})();
"""
)

PAGE = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<title>autograder play</title><style>{_STYLE}</style></head><body data-busy="no">
<h1 id="title">autograder play</h1>
<fieldset><legend>a new game</legend>
<label>mode <select id="mode"><option value="play">I play against the AI</option>
<option value="watch">watch the AI play</option></select></label>
<label>the AI plays <select id="side"></select></label>
<label>against (watching) <select id="opponent"></select></label>
<button id="new">start</button></fieldset>
<p id="who"></p>
<div class="row"><div><div id="view"></div>
<p id="message"></p><p id="over"></p>
<button id="step" disabled>step</button> <button id="auto" disabled>play on / pause</button>
</div><ol id="moves"></ol></div>
<script>{_SCRIPT}</script></body></html>
"""
