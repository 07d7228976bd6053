// The game around the board: the connection, the move list (with kept variations), the
// engine's side and searches, clocks, resign / draw offer / takeback, the evaluation bar and
// graph, the legend, keeping the game across reloads.  No rule is computed here.
"use strict";
let ws, infos = {}, restoring = false, thinking = false, search = null, pendingEnd = null;
let goPending = false;   // a search asked for, not yet answered by "thinking" or an error
let evals = {};          // ply -> score from White's (Sente's) view: {cp} or {mate}
let clock = null;        // {ms: [side 0, side 1], inc, counted: moves, since: time or null}

function send(o, keepError) {   // each new request clears the last one's message
  if (!keepError) $("error").textContent = "";
  ws.send(JSON.stringify(o));
}
function play(text) {
  sel = null; dropSel = null; pending = []; via = null; hideChooser();
  send({type: "move", text});
}
function engineTurn() {
  const es = $("engineside").value;
  if (!st || st.result || st.ply !== st.moves.length) return false;
  return es === "both" || es === String(st.side);
}
function go(playIt) {
  infos = {};
  const ms = parseInt($("movetime").value, 10);
  let limit = ms > 0 ? {movetime: ms} : {depth: parseInt($("depth").value, 10)};
  if (clock && playIt) limit = {wtime: Math.max(0, Math.round(left(0))), btime: Math.max(0, Math.round(left(1))),
    winc: Math.round(clock.inc), binc: Math.round(clock.inc)};
  search = {ply: st.ply, side: st.side};
  // busy from the moment it is asked, so nothing is sent between a search and the next
  goPending = true; document.body.dataset.thinking = "1";
  send({type: "go", ...limit, multipv: parseInt($("multipv").value, 10), play: playIt});
}
// ---- scores: the engine's are for the side to move; shown from White's (Sente's) view ----
function whiteView(score, side) {
  const [kind, n] = score.split(" "), v = side === 0 ? +n : -n;
  return kind === "mate" ? {mate: v} : {cp: v};
}
function scoreText(s) {
  if (!s) return "";
  if (s.mate !== undefined) return "#" + s.mate;
  return (s.cp >= 0 ? "+" : "-") + (Math.abs(s.cp) / 100).toFixed(2);
}
function shownEval() {   // the score of the shown position, else the latest before it
  for (let k = st.ply; k >= 0; k--) if (evals[k]) return evals[k];
  return null;
}
function showEval() {
  const s = shownEval();
  const frac = !s ? 0.5 : s.mate !== undefined ? (s.mate > 0 ? 1 : 0) : 1 / (1 + Math.exp(-s.cp / 250));
  $("evalfill").style.height = (100 * frac).toFixed(1) + "%";
  $("evalbar").classList.toggle("flipped", flipped);
  $("evaltext").textContent = scoreText(s);
  document.body.dataset.eval = scoreText(s);
  const g = $("graph"); g.innerHTML = "";
  const n = Math.max(1, st.moves.length), y = (s) => 20 - 18 * Math.max(-1, Math.min(1,
    s.mate !== undefined ? Math.sign(s.mate) : s.cp / 500));
  el("line", {x1: 0, y1: 20, x2: 100, y2: 20, stroke: "#bbb", "stroke-width": 0.3}, g);
  const pts = Object.keys(evals).map(Number).filter((k) => k <= st.moves.length).sort((a, b) => a - b)
    .map((k) => `${(100 * k / n).toFixed(2)},${y(evals[k]).toFixed(2)}`);
  if (pts.length) el("polyline", {points: pts.join(" "), fill: "none", stroke: "#246", "stroke-width": 0.8}, g);
  for (const p of pts) { const [x, yy] = p.split(","); el("circle", {cx: x, cy: yy, r: 0.9, fill: "#246"}, g); }
  el("line", {x1: 100 * st.ply / n, y1: 0, x2: 100 * st.ply / n, y2: 40, stroke: "#d33", "stroke-width": 0.4}, g);
  g.dataset.points = pts.length;
}
function showInfo() {
  $("analysis").textContent = Object.keys(infos).sort().map((k) => {
    const f = infos[k], s = f.score && search ? scoreText(whiteView(f.score, search.side)) : "?";
    return `${f.multipv || 1}: depth ${f.depth || "?"} score ${s} nodes ${f.nodes || "?"} nps ${f.nps || "?"}\n   ${(f.shown || f.pv || []).join(" ")}`;
  }).join("\n");
}
// ---- clocks: kept by the page; the engine is told them with each search it plays ----
function newClock() {   // "minutes+increment seconds" (3+2); anything else: no clock
  const tc = /^\s*(\d+(?:\.\d+)?)\s*\+\s*(\d+(?:\.\d+)?)\s*$/.exec($("tc").value);
  if (!tc || !(+tc[1] > 0)) { clock = null; return showClocks(); }
  const min = +tc[1], inc = +tc[2];
  clock = {ms: [min * 60000, min * 60000], inc: inc * 1000, counted: 0, since: null};
  showClocks();
}
function running() { return clock && clock.since !== null && st && !st.result; }
function left(side) {
  return clock.ms[side] - (running() && side === st.side ? performance.now() - clock.since : 0);
}
function clockMoved() {   // a state arrived: charge the mover, start the side to move
  if (!clock || !st) return;
  const n = st.moves.length, now = performance.now();
  if (n === clock.counted + 1 && st.ply === n) {
    const mover = 1 - st.side;
    if (clock.since !== null) clock.ms[mover] -= now - clock.since;
    clock.ms[mover] += clock.inc;
    clock.since = now;
  } else if (n !== clock.counted && clock.since !== null) {   // a takeback: no time given back
    clock.since = now;
  } else if (st.result && clock.since !== null) {   // ended (resigned, flagged): time stops
    clock.ms[st.side] -= now - clock.since;
  }
  clock.counted = n;
  if (st.result) clock.since = null;
}
function fmt(ms) {
  ms = Math.max(0, ms);
  const s = ms / 1000, m = Math.floor(s / 60);
  return s < 10 ? `${m}:0${s.toFixed(1)}` : `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
}
function showClocks() {
  for (const side of [0, 1]) {
    const c = $("clock" + side);
    if (!clock || !geo) { c.textContent = ""; delete c.dataset.ms; continue; }
    const t = left(side);
    c.textContent = `${geo.sides[side]} ${fmt(t)}`;
    c.dataset.ms = Math.round(Math.max(0, t));
    c.className = "clock" + (running() && st.side === side ? " run" : "") + (t < 10000 ? " low" : "");
  }
  $("clocks").classList.toggle("flipped", flipped);
  // the clock of the side at the top of the board goes above it
  const top = $("clocks"), bottom = $("clocks0");
  const [up, down] = flipped ? [$("clock0"), $("clock1")] : [$("clock1"), $("clock0")];
  if (up.parentNode !== top) top.appendChild(up);
  if (down.parentNode !== bottom) bottom.appendChild(down);
}
setInterval(() => {
  if (!clock || !st) return;
  showClocks();
  if (running() && left(st.side) <= 0 && !pendingEnd) endGame(1 - st.side, "time");
}, 100);
// ---- endings the page decides: resignation, time, agreed draw (the server records them) ----
function endGame(winner, reason) {
  if (thinking || goPending) { pendingEnd = {winner, reason}; send({type: "stop"}); return; }
  send({type: "end", winner, reason});
}
function humanSide() {
  const es = $("engineside").value;
  return es === "0" || es === "1" ? 1 - +es : st.side;
}
// ---- the move list: numbered in columns, the kept variations under the move they replace ----
function moveList(m) {
  const mv = $("moves"); mv.innerHTML = "";
  const vars = m.variations || [];
  const flush = (row) => {
    const here = (v) => row === Infinity ? v.at >= m.moves.length
      : v.at < m.moves.length && Math.floor(v.at / 2) === row;
    for (const v of vars.filter(here)) {
      const d = document.createElement("div"); d.className = "var"; d.append("(");
      v.moves.forEach((t, j) => {
        const p = v.at + j + 1;
        if (p % 2 === 1) d.append(` ${(p + 1) / 2}. `); else if (j === 0) d.append(` ${p / 2}... `);
        const a = document.createElement("a"); a.className = "vm"; a.textContent = (v.notation || v.san || v.moves)[j];
        a.dataset.move = t; a.dataset.ply = p; a.dataset.line = v.index;
        a.onclick = () => send({type: "line", index: v.index, ply: p});
        d.appendChild(a);
      });
      d.append(")"); mv.appendChild(d);
    }
  };
  m.moves.forEach((t, k) => {     // numbered pairs; the notation or SAN the server gives
    if (k % 2 === 0) { const n = document.createElement("b"); n.textContent = (k / 2 + 1) + "."; mv.appendChild(n); }
    const s = document.createElement("span"); s.textContent = (m.notation || m.san || m.moves)[k];
    s.dataset.move = t; s.dataset.ply = k + 1;
    if (k + 1 === m.ply) s.className = "cur";
    s.onclick = () => send({type: "goto", ply: k + 1}); mv.appendChild(s);
    if (k % 2 === 1 || k === m.moves.length - 1) flush(Math.floor(k / 2));
  });
  flush(Infinity);
}
function onState(m) {
  // the PV's highlight stays after an analysis that changed nothing, and goes with any change
  const old = st;
  if (!st || m.fen !== st.fen || m.ply !== st.ply || m.variant !== st.variant) setPv(null);
  if (old && m.variant === old.variant && m.ply === old.ply + 1 && m.lastmove) animateNext = m.lastmove;
  if (!old || m.variant !== old.variant || m.start !== old.start ||
      m.moves.slice(0, old.moves.length).join() !== old.moves.slice(0, m.moves.length).join()) {
    for (const k of Object.keys(evals)) if (+k > Math.min(m.moves.length, old ? old.moves.length : 0)) delete evals[k];
    if (!old || m.variant !== old.variant || m.start !== old.start) evals = {};
  }
  if (extras) {   // the clocks and scores kept with the game restored at this reload
    const x = extras; extras = null;
    if (restoring && x.variant === m.variant && x.start === m.start && x.moves === m.moves.join(",")) restoreExtras(x, m);
  }
  st = m; sel = null; dropSel = null; pending = []; via = null; hideChooser();
  if (premoveSide() === null) preDrop = null;   // a hand piece picked, no cell: forgotten
  $("variant").value = m.variant;
  $("fen").value = m.fen;
  $("result").textContent = m.result ? m.result.text : "";
  moveList(m);
  restoring = false; keep(m);
  document.body.dataset.fen = m.fen; document.body.dataset.ply = m.ply;
  document.body.dataset.variant = m.variant;
  document.body.dataset.check = (m.check || []).map((c) => geo.cells[c].name).join(" ");
  clockMoved();
  showClocks();
  keepExtras();
  if (premove && !premoveSide() && m.ply === m.moves.length && !m.result) {   // the premove
    // played when legal now, else dropped silently (a drop too: from the hand, to its cell)
    const p = premove, ms = m.legal.filter((x) => p.drop !== undefined
      ? x.from === null && x.drop === p.drop && x.to === p.to : x.from === p.from && x.to === p.to);
    premove = null; preDrop = null; document.body.dataset.premove = "";
    if (ms.length) { draw(); showEval(); return play(ms[0].text); }
  }
  draw();
  showEval();
  if (pendingEnd && !thinking) {
    const e = pendingEnd; pendingEnd = null;
    if (!m.result) return send({type: "end", ...e});
  }
  if (engineTurn()) go(true);
}
const SAVED = "cellfish-game", ENGINE = "cellfish-engine", EXTRAS = "cellfish-clock-eval";
let extras = null;   // what keepExtras saved, read at a reload, applied to the restored game
// The clocks and the scores of the game kept across reloads, beside the game: the time left
// on each clock as of a wall-clock instant (a running clock goes on running while the page
// reloads, as a server's clock would), the time control, and each ply's score.
function keepExtras() {
  if (!st) return;
  const x = {variant: st.variant, start: st.start, moves: st.moves.join(","), evals, tc: $("tc").value};
  if (clock) x.clock = {ms: [left(0), left(1)], inc: clock.inc, running: running(), at: Date.now()};
  try { localStorage.setItem(EXTRAS, JSON.stringify(x)); } catch (e) { /* storage off */ }
}
function restoreExtras(x, m) {
  evals = x.evals || {};
  $("tc").value = x.tc || "";
  const c = x.clock;
  if (!c || !Array.isArray(c.ms)) return;
  const since = c.running ? performance.now() - Math.max(0, Date.now() - c.at) : null;
  clock = {ms: c.ms.slice(), inc: c.inc, counted: m.moves.length, since};
}
function keep(m) {   // the game kept across reloads (with its variations), and its permalink
  const rec = {variant: m.variant, dialect: "uci", moves: m.moves,
    lines: (m.variations || []).map((v) => m.moves.slice(0, v.at).concat(v.moves))};
  if (!m.standard_start) rec.start = m.start;
  try { localStorage.setItem(SAVED, JSON.stringify(rec)); } catch (e) { /* storage off */ }
  const q = new URLSearchParams({variant: m.variant});
  if (!m.standard_start) q.set("fen", m.start);
  q.set("moves", m.moves.join(","));
  $("permalink").href = "?" + q.toString();
}
function newGame(position) {
  newClock(); evals = {}; premove = null; preSel = null; preDrop = null; pendingEnd = null;
  $("notice").textContent = "";
  send({type: "new", variant: $("variant").value, ...(position ? {position} : {})});
}
function legendButtons() {
  const box = $("legend"); box.innerHTML = ""; $("legendtext").textContent = "";
  const seen = new Set();
  for (const tok of Object.values(geo.pieces)) {
    if (seen.has(tok)) continue; seen.add(tok);
    const b = document.createElement("button"); b.dataset.legend = tok;
    b.title = (geo.piece_names || {})[tok] || tok;
    b.appendChild(pieceIcon(geo, tok, 30));
    b.onclick = () => {
      if (legendShow && legendShow.token === tok) { legendShow = null; document.body.dataset.legend = ""; return draw(); }
      send({type: "legend", token: tok});
    };
    box.appendChild(b);
  }
}
function connect() {
  ws = new WebSocket(`ws://${location.host}/ws`);
  ws.onmessage = (ev) => {
    const m = JSON.parse(ev.data);
    if (m.type === "variants") {
      for (const v of m.variants) { const o = document.createElement("option"); o.value = o.textContent = v; $("variant").appendChild(o); }
      const q = new URLSearchParams(location.search), want = q.get("variant");
      if (want) $("variant").value = want;
      // who the engine plays: the address's `engine`, else the last choice, else the second side
      let es = q.get("engine");
      try { es = es || localStorage.getItem(ENGINE); } catch (e) { /* storage off */ }
      if (["none", "0", "1", "both"].includes(es)) {
        $("engineside").value = es;
        flipped = es === "0";           // the person's side at the bottom
        try { localStorage.setItem(ENGINE, es); } catch (e) { /* storage off */ }
      }
      // a permalink's moves, else (no address parameters but engine) the game kept from the
      // last visit; the server checks either like any record and refuses it whole
      let rec = null;
      if (q.get("moves") !== null || q.get("fen") !== null)
        rec = {variant: $("variant").value, dialect: "uci", start: q.get("fen") || undefined,
               moves: (q.get("moves") || "").split(/[ ,]+/).filter((t) => t)};
      else if (![...q.keys()].some((k) => k !== "engine")) {
        try { rec = JSON.parse(localStorage.getItem(SAVED) || "null"); } catch (e) { rec = null; }
        try { extras = rec && JSON.parse(localStorage.getItem(EXTRAS) || "null"); } catch (e) { extras = null; }
      }
      // the address's parameters are used once: a reload then brings back the game as it
      // stands (kept by the page), not the game the address started
      if (location.search) history.replaceState(null, "", location.pathname);
      if (rec) { restoring = true; send({type: "load", json: JSON.stringify(rec)}); }
      else newGame();
    } else if (m.type === "geometry") {
      geo = m.geometry; variantName = m.variant; legendShow = null;
      for (const o of $("engineside").options)    // the sides as this variant calls them
        if (o.value === "0" || o.value === "1") o.textContent = geo.sides[+o.value].toLowerCase();
      legendButtons();
    }
    else if (m.type === "state") onState(m);
    else if (m.type === "info") {
      infos[m.info.multipv || "1"] = {...m.info, shown: m.pvshown}; showInfo();
      if ((m.info.multipv || "1") === "1" && m.info.score && search) {
        evals[search.ply] = whiteView(m.info.score, search.side); showEval(); keepExtras();
      }
      if ((m.info.multipv || "1") === "1" && m.pvmove) { setPv(m.pvmove); draw(); }
    }
    else if (m.type === "thinking") { thinking = true; goPending = false; document.body.dataset.thinking = "1"; $("thinking").textContent = `engine thinking (${m.limit})`; }
    else if (m.type === "bestmove") { thinking = false; if (!goPending) delete document.body.dataset.thinking; $("thinking").textContent = ""; }
    else if (m.type === "record") {
      $("record").value = m.json; $("pgn").textContent = m.pgn || "";
      if (copyNext) {
        const pgn = copyNext === "pgn"; copyNext = null;
        copy(pgn ? m.pgn : m.json, pgn ? "PGN" : "JSON record");
      }
    }
    else if (m.type === "offer") { $("notice").textContent = m.text; document.body.dataset.offer = m.accepted ? "accepted" : "declined"; }
    else if (m.type === "legend") {
      legendShow = m; document.body.dataset.legend = m.token;
      $("legendtext").textContent = `${m.name} (${m.token}): ${m.moves.length} moves from ${geo.cells[m.from].name} on an empty board (dots)` +
        (m.captures.some((c) => !m.moves.includes(c)) ? "; crosses: captures only" : "") + ". Click the board to go back.";
      draw();
    }
    else if (m.type === "error") {
      $("error").textContent = m.text;
      if (goPending) { goPending = false; if (!thinking) delete document.body.dataset.thinking; }
      if (restoring && !st) { restoring = false; extras = null; send({type: "new", variant: $("variant").value}, true); }
    }
    else if (m.type === "full" || m.type === "idle") {
      $("error").textContent = m.text; document.body.dataset.closed = m.type;
    }
  };
}
document.addEventListener("keydown", (e) => {   // arrow keys step through the game
  if (!st || ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName)) return;
  if (e.key === "Escape") { premove = null; preSel = null; preDrop = null; legendShow = null; hideChooser(); return draw(); }
  const to = {ArrowLeft: st.ply - 1, ArrowRight: st.ply + 1, Home: 0, End: st.moves.length}[e.key];
  if (to === undefined || to < 0 || to > st.moves.length || to === st.ply) return;
  e.preventDefault(); send({type: "goto", ply: to});
});
$("variant").onchange = () => newGame();          // another variant: a new game of it
$("newgame").onclick = () => newGame();
$("flip").onclick = () => { flipped = !flipped; draw(); showEval(); showClocks(); };
$("view3d").onclick = () => { perspective = !perspective; draw(); };
$("go").onclick = () => go(true);
$("analyse").onclick = () => go(false);
$("engineside").onchange = () => {   // the engine starts at once when it is its side's turn
  try { localStorage.setItem(ENGINE, $("engineside").value); } catch (e) { /* storage off */ }
  premove = null; preSel = null; preDrop = null;
  const es = $("engineside").value;   // the person's side at the bottom
  if (es === "0" || es === "1") { flipped = es === "0"; showEval(); showClocks(); }
  if (!thinking && !goPending && engineTurn()) go(true); else draw();
};
$("stop").onclick = () => {   // Stop also ends engine-against-engine: the engine plays no side
  $("engineside").value = "none"; premove = null; preSel = null; preDrop = null; send({type: "stop"});
  try { localStorage.setItem(ENGINE, "none"); } catch (e) { /* storage off */ }
};
$("takeback").onclick = () => {   // the person's last move (and the engine's answer to it)
  if (!st || thinking || goPending || !st.moves.length) return;
  const es = $("engineside").value;
  const plies = (es === "0" || es === "1") && st.side !== +es && st.moves.length >= 2 ? 2 : 1;
  premove = null; send({type: "takeback", plies});
};
$("offer").onclick = () => { if (st && !st.result) send({type: "offer"}); };
$("resign").onclick = () => { if (st && !st.result) endGame(1 - humanSide(), "resignation"); };
$("loadfen").onclick = () => newGame($("fen").value);
$("first").onclick = () => send({type: "goto", ply: 0});
$("back").onclick = () => st && st.ply > 0 && send({type: "goto", ply: st.ply - 1});
$("fwd").onclick = () => st && st.ply < st.moves.length && send({type: "goto", ply: st.ply + 1});
$("last").onclick = () => st && send({type: "goto", ply: st.moves.length});
$("export").onclick = () => send({type: "export"});
// ---- copy buttons: the position text, the link, and (from an export) PGN or the JSON record ----
let copyNext = null;
function copy(text, what) {
  if (!text) { $("notice").textContent = `no ${what} for this game`; return; }
  const done = () => { $("notice").textContent = `${what} copied`; document.body.dataset.copied = what; };
  const fallback = () => {   // without the clipboard API: a selected text area and the copy command
    const t = document.createElement("textarea"); t.value = text; document.body.appendChild(t);
    t.select(); try { document.execCommand("copy"); done(); } catch (e) { $("error").textContent = "copy failed"; }
    t.remove();
  };
  if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
  else fallback();
}
$("copyfen").onclick = () => st && copy(st.fen, "position");
$("copylink").onclick = () => copy($("permalink").href, "link");
$("copypgn").onclick = () => { copyNext = "pgn"; send({type: "export"}); };
$("copyjson").onclick = () => { copyNext = "json"; send({type: "export"}); };
$("import").onclick = () => send({type: "load", json: $("record").value.trim().split("\n")[0]});
$("importpgn").onclick = () => send({type: "pgn", text: $("record").value, variant: variantName});
window.addEventListener("resize", () => { if (st) draw(); });
connect();
