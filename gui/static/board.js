// The board: draws what the server describes and offers the moves it sends (clicks, drags,
// choices drawn as pieces, premoves).  Every rule (legal moves, their text, positions,
// results) comes from the server; none is computed here.
"use strict";
const $ = (id) => document.getElementById(id);
let geo = null, st = null, flipped = false, sel = null, dropSel = null, variantName = null;
let pending = [], pvMove = null, perspective = false;
let via = null;     // a two-leg move's first leg picked (a Lion's): its cell, then the second
let premove = null, preSel = null;      // {from, to} cells played when the engine has moved
let preDrop = null;                     // a hand piece picked for a premove: {ptype, tok}
let legendShow = null;                  // a piece's moves on an empty board (the legend)
let animateNext = null;                 // the move to animate at the next drawing

// A 3D board's level slices, described side by side, are drawn as a grid of `cols` columns,
// as many as make the cells largest in the space there is.
let cols = 0;
const ROW = 1.3;    // room between rows of slices for their titles and coordinates
function gridXY(x, y) {   // a point of the description -> the grid of slices
  if (!geo.solid || !cols) return [x, y];
  const S = geo.solid, span = S.files + 1, lv = Math.floor((x + 0.5) / span);
  const rows = Math.ceil(S.levels / cols), col = lv % cols, row = Math.floor(lv / cols);
  return [col * span + (x - lv * span), y + (rows - 1 - row) * (S.ranks + ROW)];
}
function extent(k) {   // [width, height] of the drawing with k columns of slices
  if (!geo.solid || !k) return [geo.width, geo.height];
  const S = geo.solid, rows = Math.ceil(S.levels / k);
  return [k * (S.files + 1) - 1, rows * (S.ranks + ROW) - ROW];
}
function chooseCols() {
  cols = 0;
  if (!geo.solid || perspective) return;
  const aw = $("board").clientWidth || 800, ah = maxHeight();
  let best = -1;
  for (let k = 1; k <= geo.solid.levels; k++) {
    const [w, h] = extent(k), s = Math.min(aw / (w + 0.7), ah / (h + 1.3));
    if (s > best + 1e-9) { best = s; cols = k; }
  }
}
function maxHeight() { return window.innerWidth <= 700 ? window.innerHeight * 0.62 : window.innerHeight - 80; }
function place(c) {   // cell -> svg box, y grows upward on the board
  const [W, H] = extent(cols), [gx, gy] = gridXY(c.x, c.y);
  const x = flipped ? W - (gx - geo.minx) - c.w : gx - geo.minx;
  const y = flipped ? gy - geo.miny : H - (gy - geo.miny) - c.w;
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
  if (c.shape === "hex") {   // a flat-topped hexagon c.w high
    const R = c.w / Math.sqrt(3);
    const pts = [0, 1, 2, 3, 4, 5].map((k) => [cx + R * Math.cos(k * Math.PI / 3), cy + R * Math.sin(k * Math.PI / 3)]);
    return {tag: "polygon", attrs: {points: pts.map((p) => p.join(",")).join(" ")}, cx, cy, r: 0.4};
  }
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
  const top = geo.top, edge = geo.edge_labels.length ? 0.5 : 0;   // room for titles, coordinates
  const [W, H] = extent(cols), S = geo.solid;
  const titles = geo.labels.map((lb) => {   // above each slice
    const [x, y] = place({x: lb.x, y: S && cols ? (flipped ? 0 : S.ranks) : 0, w: 0});
    return [x, S && cols ? y - 0.2 : -0.2, lb.text];
  });
  // (coordinates go left and below, or right and above on a flipped board: room on all sides)
  return [[-0.1 - edge, -0.1 - top - edge, W + 0.2 + 2 * edge, H + 0.2 + top + 2 * edge], titles, 0];
}
function edgeLabels(svg) {   // coordinates beside a lattice board and each 3D slice
  if (perspective) return;
  for (const lb of geo.edge_labels) {
    const [x, y] = place({x: lb.x, y: lb.y, w: 0});
    el("text", {x, y, class: "coord edge", "text-anchor": "middle", "dominant-baseline": "central",
      style: "font-size:.28px"}, svg).textContent = lb.text;
  }
}
function draw() {
  if (!geo || !st) return;
  if (!geo.solid) perspective = false;
  $("view3d").style.display = geo.solid ? "" : "none";
  const box = $("board"); box.innerHTML = "";
  $("main").style.maxWidth = "";   // measured at full width, then fitted to the board (below)
  chooseCols();
  const [[x0, y0, w, h], titles, anchorEnd] = frame();
  const svg = el("svg", {viewBox: `${x0} ${y0} ${w} ${h}`, width: w * 60, height: h * 60}, box);
  // as large as the window allows: the full width beside the controls, no taller than it
  svg.style.width = `min(100%, ${(maxHeight() * w / h).toFixed(0)}px)`;
  svg.style.height = "auto";
  // the controls right beside the board, not across the space a board limited by the
  // window's height leaves empty
  const spare = box.clientWidth - svg.getBoundingClientRect().width;
  if (spare > 1) $("main").style.maxWidth = ($("main").clientWidth - spare) + "px";
  svg.dataset.view = perspective ? "perspective" : "flat";
  const defs = el("defs", {}, svg);
  const mk = el("marker", {id: "pvhead", viewBox: "0 0 10 10", refX: 8, refY: 5,
    markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse"}, defs);
  el("path", {d: "M0,0 L10,5 L0,10 z", class: "pvhead"}, mk);
  const glow = el("radialGradient", {id: "checkglow"}, defs);
  el("stop", {offset: "0%", "stop-color": "#ff2020"}, glow);
  el("stop", {offset: "100%", "stop-color": "#ff2020", "stop-opacity": "0.15"}, glow);
  for (const [x, y, text] of titles) {
    const t = el("text", {x, y, "text-anchor": anchorEnd ? "end" : "middle", style: "font-size:.5px"}, svg);
    t.textContent = text;
  }
  edgeLabels(svg);
  const dests = new Set(), acted = new Set();
  // a piece picked: the cells its one-leg moves go to and its two-leg moves' first legs;
  // a first leg picked: where the moves through it end (and itself, when a move stops there)
  for (const m of candidates()) {
    if (via === null) dests.add(m.via !== null && m.via !== undefined ? m.via : m.to);
    else if (m.via === via) dests.add(m.to);
    else if (m.to === via && (m.via === null || m.via === undefined)) dests.add(via);
  }
  document.body.dataset.via = via !== null ? geo.cells[via].name : "";
  for (const m of pending) if (m.acted !== null) acted.add(m.acted);
  const last = legendShow ? {} : st.lastmove || {}, pv = pvMove || {};
  const check = new Set(legendShow ? [] : st.check || []);
  const pre = new Set(premove ? [premove.from, premove.to] : preSel !== null ? [preSel] : []);
  pre.delete(undefined);   // a drop premove has no cell it comes from
  const lmoves = new Set(legendShow ? legendShow.moves : []);
  const lcaps = new Set(legendShow ? legendShow.captures.filter((c) => !lmoves.has(c)) : []);
  const order = geo.cells.map((c, i) => i).sort((a, b) => geo.cells[b].w - geo.cells[a].w);
  for (const i of order) {
    const c = geo.cells[i]; const sh = shape(i);
    let cls = "cell " + (c.shape === "vertex" ? "vertex" : "s" + (geo.checkered ? c.shade : 0) + (geo.checkered ? "" : " grid"));
    if (i === sel) cls += " sel";
    if (i === via) cls += " via";
    if ((pending.length ? acted : dests).has(i)) cls += " dest";
    if (pending.length && acted.has(i)) cls += " acttarget";
    if (i === last.from || i === last.to) cls += " last";
    if (i === last.acted) cls += " acted";
    if (check.has(i)) cls += " check";
    if (pre.has(i)) cls += " pre";
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
    const tok = legendShow ? (i === legendShow.from ? legendShow.token : null) : st.board[i];
    // an empty vertex: a small mark, its whole circle still a target (coloured when it is one)
    if (!tok && c.shape === "vertex") el("circle", {cx: sh.cx, cy: sh.cy, r: 0.08, class: "vdot"}, g);
    if (tok) drawPiece(g, geo, tok, sh.cx, sh.cy, sh.r, isWhite(tok) === flipped);
    if (lmoves.has(i)) el("circle", {cx: sh.cx, cy: sh.cy, r: sh.r * 0.35, class: "lmove"}, g);
    if (lcaps.has(i)) {
      const d = sh.r * 0.4;
      el("path", {d: `M${sh.cx - d},${sh.cy - d}L${sh.cx + d},${sh.cy + d}M${sh.cx - d},${sh.cy + d}L${sh.cx + d},${sh.cy - d}`, class: "lcap"}, g);
    }
    g.dataset.i = i;
    // a press acts as the first or second click; releasing over another cell ends a drag
    g.addEventListener("pointerdown", (e) => { if (e.button === 0) startDrag(i, e, svg); });
  }
  arrow(svg, pvMove);
  hands();
  animate(svg);
}
function animate(svg) {   // slide the piece just moved from where it came from
  const m = animateNext; animateNext = null;
  if (!m || m.from === null || m.from === undefined || legendShow) return;
  const pg = svg.querySelector(`g[data-i="${m.to}"] .pc`);
  if (!pg || !pg.animate) return;
  const a = shape(m.from), b = shape(m.to);
  pg.animate([{transform: `translate(${a.cx - b.cx}px, ${a.cy - b.cy}px)`}, {transform: "translate(0px, 0px)"}],
    {duration: 200, easing: "ease-out"});
  document.body.dataset.animated = m.text;
}
let dragFrom = null, dragStart = null, dragPiece = null;
function startDrag(i, e, svg) {
  dragFrom = i; dragStart = [e.clientX, e.clientY]; dragPiece = null;
  clickCell(i);
  const g = document.querySelector(`#board g[data-i="${i}"]`);
  const pc = g && g.querySelector(".pc");
  if (pc && (sel === i || preSel === i)) {
    const ctm = svg.getScreenCTM();
    dragPiece = {el: pc, k: ctm ? 1 / ctm.a : 1};
  }
}
document.addEventListener("pointermove", (e) => {   // the dragged piece follows the pointer
  if (dragFrom === null || !dragPiece) return;
  const k = dragPiece.k, dx = (e.clientX - dragStart[0]) * k, dy = (e.clientY - dragStart[1]) * k;
  dragPiece.el.style.transform = `translate(${dx}px, ${dy}px)`;
});
document.addEventListener("pointerup", (e) => {   // drag and drop, mouse or touch
  const from = dragFrom; dragFrom = null;
  if (dragPiece) dragPiece.el.style.transform = "";
  dragPiece = null;
  if (from === null || (sel !== from && preSel !== from)) return;
  const under = document.elementFromPoint(e.clientX, e.clientY);
  const g = under && under.closest("g[data-cell]");
  if (g && +g.dataset.i !== from) clickCell(+g.dataset.i);
});
document.addEventListener("pointercancel", () => { dragFrom = null; dragPiece = null; });
function arrow(svg, m) {   // the PV's first move: an arrow, or a ring on a drop's target
  if (!m || legendShow) return;
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
      const b = document.createElement("button");   // the piece drawn, and how many
      b.appendChild(pieceIcon(geo, tok, 30)); b.append(n > 1 ? "×" + n : "");
      b.dataset.piece = tok; b.title = tok;
      if (dropSel === ptype && side === st.side) b.className = "sel";
      const pre = preDrop ? preDrop.ptype : premove && premove.drop !== undefined ? premove.drop : null;
      if (pre === ptype && side === premoveSide()) b.className = "pre";
      b.onclick = () => {
        if (premoveSide() === side) {   // the engine's turn: a drop premove (then its cell)
          premove = null; preSel = null; preDrop = {ptype, tok};
          document.body.dataset.premove = ""; return draw();
        }
        if (side !== st.side) return;
        dropSel = ptype; sel = null; pending = []; draw();
      };
      box.appendChild(b);
    }
  }
}
// the engine is to move (or thinking) and the person's pieces are the other side's
function premoveSide() {
  const es = $("engineside").value;
  if (!st || st.result || st.ply !== st.moves.length || (es !== "0" && es !== "1")) return null;
  return st.side === +es ? 1 - +es : null;
}
function clickCell(i) {
  $("error").textContent = "";
  if (legendShow) { legendShow = null; document.body.dataset.legend = ""; return draw(); }
  const mine = premoveSide();
  if (mine !== null) {   // the engine's turn: a premove, played when it has moved
    const tok = st.board[i];
    if (preDrop !== null) {   // a hand piece picked: dropped on this cell (if legal then)
      premove = {drop: preDrop.ptype, to: i};
      document.body.dataset.premove = preDrop.tok + "@" + geo.cells[i].name; preDrop = null;
      return draw();
    }
    if (preSel === null || (tok && isWhite(tok) === (mine === 0) && i !== preSel)) {
      premove = null;
      preSel = tok && isWhite(tok) === (mine === 0) ? i : null;
    } else if (i !== preSel) { premove = {from: preSel, to: i}; preSel = null; }
    document.body.dataset.premove = premove ? geo.cells[premove.from].name + geo.cells[premove.to].name : "";
    return draw();
  }
  if (pending.length) {   // second click: the acted-on cell
    const ms = pending.filter((m) => m.acted === i);
    if (ms.length === 1) return play(ms[0].text);
    pending = []; sel = null; return draw();
  }
  hideChooser();
  const oneLeg = (m) => m.via === null || m.via === undefined;
  if (via !== null) {   // the first leg picked: the move through it ending here
    const ms = candidates().filter((m) => i === via ? oneLeg(m) && m.to === i : m.via === via && m.to === i);
    via = null;
    if (ms.length) return choose(ms);
  } else if (sel !== null && candidates().some((m) => m.via === i)) {   // a two-leg move's first leg
    via = i; return draw();
  }
  const ms = candidates().filter((m) => oneLeg(m) && m.to === i);
  // a move back to the piece's own cell (a pass) is offered, not played by a click on it
  if (ms.length) return i === sel ? showChooser(ms) : choose(ms);
  if (st.legal.some((m) => m.from === i)) { sel = i; dropSel = null; }
  else { sel = null; dropSel = null; }
  draw();
}
function choose(ms) {
  if (ms.length === 1) return play(ms[0].text);
  const actedCells = new Set(ms.map((m) => m.acted));
  if (ms.every((m) => m.acted !== null) && actedCells.size === ms.length) { pending = ms; return draw(); }
  showChooser(ms);
}
let armed = false;
function hideChooser() {
  const box = $("choices"); box.innerHTML = ""; box.style.display = "none";
  for (const e of document.querySelectorAll(".cell.choicecell")) e.classList.remove("choicecell");
}
// the moves that share a target, each drawn as the piece it leaves there, in a column over
// the board at that cell (as lichess's promotion dialog); what else a choice changes is
// written under it, and highlighted on the board while the pointer is over it
function showChooser(ms) {
  hideChooser();
  const box = $("choices"), row = $("boardrow").getBoundingClientRect();
  const cellEl = document.querySelector(`#board g[data-i="${ms[0].to}"]`);
  const r = cellEl.getBoundingClientRect(), size = Math.max(44, Math.min(r.width, r.height, 90));
  const from = ms[0].from !== null ? st.board[ms[0].from] : null;
  for (const m of ms) {
    const b = document.createElement("button"); b.dataset.move = m.text; b.title = m.text;
    const after = m.after || [{cell: m.to, token: from}];
    b.appendChild(pieceIcon(geo, after[0].token || from || "?", size * 0.8));
    const notes = after.slice(1).map((a) => geo.cells[a.cell].name + (a.token ? " " + a.token : " ✕"));
    if (m.to === m.from && !notes.length) notes.push("pass");   // a Lion's pass: it stays
    for (const [side, tok, n] of m.hand || []) notes.push(`${n > 0 ? "+" : ""}${n} ${tok} in ${geo.sides[side]}'s hand`);
    if (notes.length) { const s = document.createElement("span"); s.textContent = notes.join(", "); b.appendChild(s); }
    const cells = after.slice(1).map((a) => a.cell).concat(m.acted !== null ? [m.acted] : []);
    b.onpointerenter = () => { for (const c of cells) mark(c, true); };
    b.onpointerleave = () => { for (const c of cells) mark(c, false); };
    b.onclick = () => { if (armed) { hideChooser(); play(m.text); } };
    box.appendChild(b);
  }
  const x = document.createElement("button"); x.className = "cancel"; x.textContent = "✕";
  x.onclick = () => { if (armed) { hideChooser(); sel = null; draw(); } }; box.appendChild(x);
  // a choice counts only when pressed on the chooser: a finger's tap that opened it ends in
  // a click where the chooser now lies
  armed = false;
  box.onpointerdown = () => { armed = true; };
  box.style.display = "flex";
  box.style.left = Math.max(0, r.left - row.left + r.width / 2 - size / 2) + "px";
  const height = box.getBoundingClientRect().height;
  box.style.top = Math.max(0, Math.min(r.top - row.top, row.height - height)) + "px";
}
function mark(c, on) {
  const e = document.querySelector(`#board g[data-i="${c}"] .cell`);
  if (e) e.classList.toggle("choicecell", on);
}
