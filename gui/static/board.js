// The board page: draws what the server describes and sends the moves it offers.  Every rule
// (legal moves, their text, positions, results) comes from the server; none is computed here.
"use strict";
const $ = (id) => document.getElementById(id);
const NS = "http://www.w3.org/2000/svg";
let ws, geo = null, st = null, flipped = false, sel = null, dropSel = null, variantName = null;
let pending = [], infos = {}, pvMove = null, perspective = false;

function send(o, keepError) {   // each new request clears the last one's message
  if (!keepError) $("error").textContent = "";
  ws.send(JSON.stringify(o));
}
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function place(c) {   // cell -> svg box, y grows upward on the board
  const x = flipped ? geo.width - (c.x - geo.minx) - c.w : c.x - geo.minx;
  const y = flipped ? c.y - geo.miny : geo.height - (c.y - geo.miny) - c.w;
  return [x, y];
}
// Perspective view of a solid board: each level a parallelogram (ranks slanting away), the
// levels stacked with the first at the bottom.  Built from the cells' coordinates only.
const SLANT = 0.5, DEPTH = 0.45, GAP = 0.6;
function solidPoint(lv, f, r) {
  const S = geo.solid;
  if (flipped) { f = S.files - f; r = S.ranks - r; lv = S.levels - 1 - lv; }
  return [f + r * SLANT, (S.levels - 1 - lv) * (S.ranks * DEPTH + GAP) + (S.ranks - r) * DEPTH];
}
function shape(i) {   // the cell's outline and its centre in svg units
  const c = geo.cells[i];
  if (perspective) {
    const [lv, f, r] = c.coord;
    const pts = [[f, r], [f + 1, r], [f + 1, r + 1], [f, r + 1]].map(([a, b]) => solidPoint(lv, a, b));
    const [cx, cy] = solidPoint(lv, f + 0.5, r + 0.5);
    return {tag: "polygon", attrs: {points: pts.map((p) => p.join(",")).join(" ")}, cx, cy, r: 0.26};
  }
  const [x, y] = place(c);
  const cx = x + c.w / 2, cy = y + c.w / 2;
  if (c.shape === "vertex") return {tag: "circle", attrs: {cx, cy, r: c.w / 2}, cx, cy, r: Math.min(0.42, c.w * 0.45)};
  return {tag: "rect", attrs: {x, y, width: c.w, height: c.w}, cx, cy, r: Math.min(0.42, c.w * 0.45)};
}
function frame() {   // [x0, y0, width, height] of the drawing and its titles [x, y, text]
  if (perspective) {
    const S = geo.solid, w = S.files + S.ranks * SLANT, h = S.levels * (S.ranks * DEPTH + GAP);
    const titles = geo.labels.map((lb) => {
      const [x, y] = flipped ? solidPoint(lb.level, S.files, S.ranks) : solidPoint(lb.level, 0, 0);
      return [x - 0.3, y - 0.2, lb.text];
    });
    return [[-1.2, -0.2, w + 1.4, h + 0.2], titles, 0.75];
  }
  const top = geo.top;    // room for slice titles above the board
  const titles = geo.labels.map((lb) => [place({x: lb.x, y: 0, w: 0})[0], -0.2, lb.text]);
  return [[-0.1, -0.1 - top, geo.width + 0.2, geo.height + 0.2 + top], titles, 0];
}
function draw() {
  if (!geo || !st) return;
  if (!geo.solid) perspective = false;
  $("view3d").style.display = geo.solid ? "" : "none";
  const box = $("board"); box.innerHTML = "";
  const [[x0, y0, w, h], titles, anchorEnd] = frame();
  const scale = perspective ? Math.min(60, 860 / h) : Math.min(60, 900 / geo.width);
  const svg = el("svg", {viewBox: `${x0} ${y0} ${w} ${h}`, width: w * scale, height: h * scale}, box);
  svg.dataset.view = perspective ? "perspective" : "flat";
  const mk = el("marker", {id: "pvhead", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"}, el("defs", {}, svg));
  el("path", {d: "M0,0 L10,5 L0,10 z", class: "pvhead"}, mk);
  for (const [x, y, text] of titles) {
    const t = el("text", {x, y, "text-anchor": anchorEnd ? "end" : "middle", style: "font-size:.5px"}, svg);
    t.textContent = text;
  }
  const dests = new Set(), acted = new Set();
  for (const m of candidates()) dests.add(m.to);
  for (const m of pending) if (m.acted !== null) acted.add(m.acted);
  const last = st.lastmove || {}, pv = pvMove || {};
  const order = geo.cells.map((c, i) => i).sort((a, b) => geo.cells[b].w - geo.cells[a].w);
  for (const i of order) {
    const c = geo.cells[i]; const sh = shape(i);
    let cls = "cell " + (c.shape === "vertex" ? "vertex" : "s" + (geo.checkered ? c.shade : 0) + (geo.checkered ? "" : " grid"));
    if (i === sel) cls += " sel";
    if ((pending.length ? acted : dests).has(i)) cls += " dest";
    if (i === last.from || i === last.to) cls += " last";
    if (i === pv.from || i === pv.to) cls += " pv";
    const g = el("g", {"data-cell": c.name, class: "cellg"}, svg);
    el(sh.tag, {...sh.attrs, class: cls}, g);
    if (c.file_label !== undefined || c.rank_label !== undefined) {   // coordinates, from the server
      const x = shape(i).attrs.x, y = shape(i).attrs.y, w = c.w, fs = 0.2 * w;
      if (c.file_label !== undefined)
        el("text", {x: x + w - 0.04 * w, y: y + w - 0.05 * w, class: "coord", "text-anchor": "end", style: `font-size:${fs}px`}, g).textContent = c.file_label;
      if (c.rank_label !== undefined)
        el("text", {x: x + 0.04 * w, y: y + 0.2 * w, class: "coord", style: `font-size:${fs}px`}, g).textContent = c.rank_label;
    }
    const tok = st.board[i];
    // an empty vertex: a small mark, its whole circle still a target (coloured when it is one)
    if (!tok && c.shape === "vertex") el("circle", {cx: sh.cx, cy: sh.cy, r: 0.08, class: "vdot"}, g);
    if (tok) {
      const white = tok.replace(/[^A-Za-z]/g, "") === tok.replace(/[^A-Za-z]/g, "").toUpperCase();
      const pg = el("g", {"data-piece": tok, class: "pc " + (white ? "w" : "b") + (tok.startsWith("+") ? " promoted" : "")}, g);
      el("circle", {cx: sh.cx, cy: sh.cy, r: sh.r}, pg);
      const t = el("text", {x: sh.cx, y: sh.cy}, pg);
      t.textContent = tok.replace("+", "").toUpperCase();
      if (sh.r < 0.4) t.setAttribute("style", `font-size:${sh.r * 1.1}px`);
    }
    g.dataset.i = i;
    // a press acts as the first or second click; releasing over another cell ends a drag
    g.addEventListener("pointerdown", (e) => { if (e.button === 0) { dragFrom = i; clickCell(i); } });
  }
  arrow(svg, pvMove);
  hands();
}
let dragFrom = null;
document.addEventListener("pointerup", (e) => {   // drag and drop, mouse or touch
  const from = dragFrom; dragFrom = null;
  if (from === null || sel !== from) return;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const g = under && under.closest("g[data-cell]");
  if (g && +g.dataset.i !== from) clickCell(+g.dataset.i);
});
document.addEventListener("pointercancel", () => { dragFrom = null; });
function arrow(svg, m) {   // the PV's first move: an arrow, or a ring on a drop's target
  if (!m) return;
  const centre = (k) => { const sh = shape(k); return [sh.cx, sh.cy]; };
  const [x2, y2] = centre(m.to);
  if (m.from === null || m.from === m.to) {
    el("circle", {cx: x2, cy: y2, r: 0.3, class: "pvarrow"}, svg); return;
  }
  const [x1, y1] = centre(m.from);
  el("line", {x1, y1, x2, y2, class: "pvarrow", "marker-end": "url(#pvhead)"}, svg);
}
function setPv(m) { pvMove = m; document.body.dataset.pv = m ? m.text : ""; }
function candidates() {
  if (!st) return [];
  if (dropSel !== null) return st.legal.filter((m) => m.drop === dropSel && m.from === null);
  if (sel !== null) return st.legal.filter((m) => m.from === sel);
  return [];
}
function hands() {
  for (const side of [0, 1]) {
    const box = $("hand" + side); box.innerHTML = geo.hands ? geo.sides[side] + " hand: " : "";
    for (const [ptype, tok, n] of st.hands[side]) {
      const b = document.createElement("button");
      b.textContent = tok + (n > 1 ? "×" + n : ""); b.dataset.piece = tok;
      if (dropSel === ptype && side === st.side) b.className = "sel";
      b.onclick = () => { if (side !== st.side) return; dropSel = ptype; sel = null; pending = []; draw(); };
      box.appendChild(b);
    }
  }
}
function clickCell(i) {
  $("error").textContent = "";
  if (pending.length) {   // second click: the acted-on cell
    const ms = pending.filter((m) => m.acted === i);
    if (ms.length === 1) return play(ms[0].text);
    pending = []; sel = null; return draw();
  }
  const ms = candidates().filter((m) => m.to === i);
  if (ms.length) return choose(ms);
  if (st.legal.some((m) => m.from === i)) { sel = i; dropSel = null; }
  else { sel = null; dropSel = null; }
  draw();
}
function choose(ms) {
  if (ms.length === 1) return play(ms[0].text);
  const actedCells = new Set(ms.map((m) => m.acted));
  if (ms.every((m) => m.acted !== null) && actedCells.size === ms.length) { pending = ms; return draw(); }
  const box = $("choices"); box.innerHTML = "Choose: ";
  for (const m of ms) {
    const b = document.createElement("button"); b.textContent = m.text; b.dataset.move = m.text;
    b.onclick = () => { box.innerHTML = ""; play(m.text); }; box.appendChild(b);
  }
}
function play(text) {
  sel = null; dropSel = null; pending = []; $("choices").innerHTML = "";
  send({type: "move", text});
}
function engineTurn() {
  const es = $("engineside").value;
  if (!st || st.result || st.ply !== st.moves.length) return false;
  return es === "both" || es === String(st.side);
}
function go(play) {
  infos = {};
  const ms = parseInt($("movetime").value, 10);
  const limit = ms > 0 ? {movetime: ms} : {depth: parseInt($("depth").value, 10)};
  send({type: "go", ...limit, multipv: parseInt($("multipv").value, 10), play});
}
function showInfo() {
  $("analysis").textContent = Object.keys(infos).sort().map((k) => {
    const f = infos[k];
    return `${f.multipv || 1}: depth ${f.depth || "?"} score ${f.score || "?"} nodes ${f.nodes || "?"} nps ${f.nps || "?"}\n   ${(f.pv || []).join(" ")}`;
  }).join("\n");
}
function onState(m) {
  // the PV's highlight stays after an analysis that changed nothing, and goes with any change
  if (!st || m.fen !== st.fen || m.ply !== st.ply || m.variant !== st.variant) setPv(null);
  st = m; sel = null; dropSel = null; pending = [];
  $("variant").value = m.variant;
  $("fen").value = m.fen;
  $("result").textContent = m.result ? m.result.text : "";
  const mv = $("moves"); mv.innerHTML = "";
  m.moves.forEach((t, k) => {     // numbered pairs; SAN when the server gives it (2D boards)
    if (k % 2 === 0) { const n = document.createElement("b"); n.textContent = (k / 2 + 1) + "."; mv.appendChild(n); }
    const s = document.createElement("span"); s.textContent = m.san ? m.san[k] : t;
    s.dataset.move = t; s.dataset.ply = k + 1;
    if (k + 1 === m.ply) s.className = "cur";
    s.onclick = () => send({type: "goto", ply: k + 1}); mv.appendChild(s);
  });
  restoring = false; keep(m);
  document.body.dataset.fen = m.fen; document.body.dataset.ply = m.ply;
  document.body.dataset.variant = m.variant;
  draw();
  if (engineTurn()) go(true);
}
const SAVED = "cellfish-game";
let restoring = false;
function keep(m) {   // the game kept across reloads, and its permalink
  const rec = {variant: m.variant, dialect: "uci", moves: m.moves};
  if (!m.standard_start) rec.start = m.start;
  try { localStorage.setItem(SAVED, JSON.stringify(rec)); } catch (e) { /* storage off */ }
  const q = new URLSearchParams({variant: m.variant});
  if (!m.standard_start) q.set("fen", m.start);
  q.set("moves", m.moves.join(","));
  $("permalink").href = "?" + q.toString();
}
function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "variants") {
      for (const v of m.variants) { const o = document.createElement("option"); o.value = o.textContent = v; $("variant").appendChild(o); }
      const q = new URLSearchParams(location.search), want = q.get("variant");
      if (want) $("variant").value = want;
      // a permalink's moves, else (no address parameters) the game kept from the last visit;
      // the server checks either like any record and refuses it whole
      let rec = null;
      if (q.get("moves") !== null || q.get("fen") !== null)
        rec = {variant: $("variant").value, dialect: "uci", start: q.get("fen") || undefined,
               moves: (q.get("moves") || "").split(/[ ,]+/).filter((t) => t)};
      else if (!location.search) {
        try { rec = JSON.parse(localStorage.getItem(SAVED) || "null"); } catch (e) { rec = null; }
      }
      if (rec) { restoring = true; send({type: "load", json: JSON.stringify(rec)}); }
      else send({type: "new", variant: $("variant").value});
    } else if (m.type === "geometry") {
      geo = m.geometry; variantName = m.variant;
      for (const o of $("engineside").options)    // the sides as this variant calls them
        if (o.value === "0" || o.value === "1") o.textContent = geo.sides[+o.value].toLowerCase();
    }
    else if (m.type === "state") onState(m);
    else if (m.type === "info") {
      infos[m.info.multipv || "1"] = m.info; showInfo();
      if ((m.info.multipv || "1") === "1" && m.pvmove) { setPv(m.pvmove); draw(); }
    }
    else if (m.type === "thinking") { document.body.dataset.thinking = "1"; $("thinking").textContent = `engine thinking (${m.limit})`; }
    else if (m.type === "bestmove") { delete document.body.dataset.thinking; $("thinking").textContent = ""; }
    else if (m.type === "record") { $("record").value = m.json; $("pgn").textContent = m.pgn || ""; }
    else if (m.type === "error") {
      $("error").textContent = m.text;
      if (restoring && !st) { restoring = false; send({type: "new", variant: $("variant").value}, true); }
    }
    else if (m.type === "full" || m.type === "idle") {
      $("error").textContent = m.text; document.body.dataset.closed = m.type;
    }
  };
}
document.addEventListener("keydown", (e) => {   // arrow keys step through the game
  if (!st || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  const to = {ArrowLeft: st.ply - 1, ArrowRight: st.ply + 1, Home: 0, End: st.moves.length}[e.key];
  if (to === undefined || to < 0 || to > st.moves.length || to === st.ply) return;
  e.preventDefault(); send({type: "goto", ply: to});
});
$("variant").onchange = () => send({type: "new", variant: $("variant").value});
$("newgame").onclick = () => send({type: "new", variant: $("variant").value});
$("flip").onclick = () => { flipped = !flipped; draw(); };
$("view3d").onclick = () => { perspective = !perspective; draw(); };
$("go").onclick = () => go(true);
$("analyse").onclick = () => go(false);
$("stop").onclick = () => {   // Stop also ends engine-against-engine: the engine plays no side
  $("engineside").value = "none"; send({type: "stop"});
};
$("loadfen").onclick = () => send({type: "new", variant: variantName, position: $("fen").value});
$("first").onclick = () => send({type: "goto", ply: 0});
$("back").onclick = () => st && st.ply > 0 && send({type: "goto", ply: st.ply - 1});
$("fwd").onclick = () => st && st.ply < st.moves.length && send({type: "goto", ply: st.ply + 1});
$("last").onclick = () => st && send({type: "goto", ply: st.moves.length});
$("export").onclick = () => send({type: "export"});
$("import").onclick = () => send({type: "load", json: $("record").value.trim().split("\n")[0]});
$("importpgn").onclick = () => send({type: "pgn", text: $("record").value, variant: variantName});
connect();
