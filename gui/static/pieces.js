// Piece drawings, made by the page from the piece's name the server gives (never from a
// variant's name): in a game whose pieces are all chess pieces (king ... pawn), Unicode chess
// glyphs; in a game whose pieces are shogi pieces (`piece_style` "shogi") pentagons pointing
// at the opponent, with the shogi piece's kanji when its name is one of shogi's, else its
// letter; in any other game every piece a disc (white or black), a chess piece with its
// figure on it, any other with its letter(s), so that one game's pieces look alike.  A
// promoted piece (token "+X") has a red ring or red writing.
"use strict";
const NS = "http://www.w3.org/2000/svg";
function el(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
const CHESS_GLYPH = {king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D",
  knight: "\u265E", pawn: "\u265F"};
const SHOGI_KANJI = {pawn: "歩", lance: "香", knight: "桂", silver: "銀", gold: "金",
  bishop: "角", rook: "飛", king: "玉", tokin: "と", promotedlance: "杏",
  promotedknight: "圭", promotedsilver: "全", horse: "馬", dragon: "龍",
  // Chu Shogi's pieces, by the names its core gives (with spaces: "Promoted Silver" is Chu's,
  // which moves as a Vertical Mover, "PromotedSilver" shogi's); a promoted piece that moves as
  // another piece has that piece's kanji, written red
  copper: "銅", "ferocious leopard": "豹", "blind tiger": "虎", "drunk elephant": "象",
  kirin: "麒", phoenix: "鳳", "reverse chariot": "反", "side mover": "横",
  "vertical mover": "竪", "dragon king": "龍", "dragon horse": "馬", queen: "奔", lion: "獅",
  "go-between": "仲", "flying stag": "鹿", "crown prince": "太", "white horse": "駒",
  whale: "鯨", "free boar": "猪", "flying ox": "牛", "soaring eagle": "鷲", "horned falcon": "鷹",
  "promoted gold": "飛", "promoted silver": "竪", "promoted copper": "横",
  "promoted leopard": "角", "promoted kirin": "獅", "promoted phoenix": "奔",
  "promoted rook": "龍", "promoted bishop": "馬", "promoted go-between": "象"};
function isWhite(tok) {   // side 0's tokens are upper case
  const letters = tok.replace(/[^A-Za-z]/g, "");
  return letters === letters.toUpperCase();
}
function pieceName(g, tok) {
  return ((g.piece_names || {})[tok.toUpperCase()] || "").toLowerCase();
}
function chessGlyph(g, tok) {   // a chess piece's glyph; a piece promoted from a pawn
  // (crazyhouse's "Q~", named "promoted queen") is drawn as the piece it is
  if (tok.startsWith("+")) return null;
  const name = pieceName(g, tok);
  return CHESS_GLYPH[tok.includes("~") ? name.replace(/^promoted /, "") : name] || null;
}
function allChess(g) {   // every piece of the game (walls aside) is a chess piece: worked out once
  if (g._allChess === undefined)
    g._allChess = Object.values(g.pieces || {}).every((t) => pieceName(g, t) === "wall" || chessGlyph(g, t));
  return g._allChess;
}
// draw token `tok` centred at (cx, cy) with radius r; `down`: a shogi piece points down
function drawPiece(parent, g, tok, cx, cy, r, down) {
  const white = isWhite(tok), promoted = tok.startsWith("+");
  const pg = el("g", {"data-piece": tok, class: "pc " + (white ? "w" : "b") + (promoted ? " promoted" : "")}, parent);
  const name = pieceName(g, tok), letters = tok.replace(/[+~()]/g, "").toUpperCase();
  if (g.piece_style === "shogi") {
    const s = r * 1.05, d = down ? -1 : 1;
    const pts = [[0, -1], [0.62, -0.66], [0.78, 0.92], [-0.78, 0.92], [-0.62, -0.66]]
      .map(([x, y]) => `${cx + x * s * 0.92},${cy + y * s * d}`);
    el("path", {d: "M" + pts.join("L") + "Z", class: "koma", "stroke-width": r * 0.06}, pg);
    const kanji = SHOGI_KANJI[name] || SHOGI_KANJI[name.replace(/\s/g, "")];
    const t = el("text", {x: cx, y: cy + 0.08 * s * d, class: "kanji",
      transform: down ? `rotate(180 ${cx} ${cy + 0.08 * s * d})` : ""}, pg);
    t.textContent = kanji || letters;
    t.setAttribute("style", `font-size:${(kanji ? 0.95 : 0.9) * r / Math.max(1, letters.length * 0.7)}px`);
    return pg;
  }
  const glyph = chessGlyph(g, tok);
  if (glyph && allChess(g)) {
    const t = el("text", {x: cx, y: cy + r * 0.08, class: "glyph", "stroke-width": r * 0.05}, pg);
    t.textContent = glyph;
    t.setAttribute("style", `font-size:${r * 2.05}px`);
    return pg;
  }
  el("circle", {cx, cy, r}, pg);
  if (glyph) {   // a chess piece among others: its figure on the disc
    const t = el("text", {x: cx, y: cy + r * 0.06, class: "figure"}, pg);
    t.textContent = glyph;
    t.setAttribute("style", `font-size:${r * 1.6}px`);
    return pg;
  }
  const t = el("text", {x: cx, y: cy}, pg);
  t.textContent = letters;
  const size = Math.min(r * 1.2, 2.2 * r / Math.max(1, letters.length));
  t.setAttribute("style", `font-size:${size}px`);
  return pg;
}
// a piece alone in a small svg (the chooser, the legend)
function pieceIcon(g, tok, px) {
  const svg = el("svg", {viewBox: "-0.5 -0.5 1 1", width: px, height: px});
  drawPiece(svg, g, tok, 0, 0, 0.42, false);
  return svg;
}
