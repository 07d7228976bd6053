"""Game records: JSON lines (every variant) and PGN (2D variants).

The PGN moves are SAN written from the rules core: piece token, the least disambiguation
(file, then rank, then both), ``x`` for captures, ``=Q`` for a promotion (``+`` for a
shogi-style one), ``P@e4`` for drops, ``O-O``/``O-O-O``, ``+``/``#``.  Moves a 2D SAN cannot
say (Notake actions, fission) keep their protocol suffix (``,c3`` / ``/b``).  A two-leg move
(a Lion's) names its from cell, the cell taken in passing and its last cell: ``Nf6xf7xg7``,
``Nf6xf7-g6``, ``Nf6xf7-f6`` (taking without moving), ``Nf6-f6`` (a pass).
"""
from __future__ import annotations

import datetime
import json
import re

import variants
from engine.movegen import in_check, legal_moves
from engine.moves import (CASTLE, CELL, EP, FISSION, FROM_SHIFT, LEGS, SPECIAL, acted_of,
                          from_of, legs_victim,
                          ptype_of, to_of, wall_of)
from engine.notation.move_text import parse_move
from engine.notation.position_text import format as format_position, parse as parse_position

_CELL = re.compile(r"([a-z]+)(\d+)$")


def _file_rank(geo, cell: int) -> tuple[str, str]:
    m = _CELL.match(geo.name(cell))
    return (m.group(1), m.group(2)) if m else (geo.name(cell), "")


def _letter(v, code: int) -> str:
    pt = v.piece_types[code >> 1]
    return "" if pt.pawn else pt.token.rstrip("~")


def san(v, pos, m: int, legal: list[int]) -> str:
    geo = v.geometry
    to = to_of(m)
    frm = from_of(m)
    pt = ptype_of(m)
    if frm < 0:                 # a drop
        s = f"{v.piece_types[pt].token}@{geo.name(to)}"
    elif m & CASTLE:
        # a move of the king's (to its destination or its rook's cell), or, gating onto the
        # rook's cell, from the rook's cell to the king's (Seirawan's h1e1h)
        king_move = (frm, to) in pos._cbymove
        outward = geo.coords[to][0] > geo.coords[frm][0]
        s = "O-O" if outward == king_move else "O-O-O"
        if pt:                  # the piece gated in, and the cell it enters
            s += "/" + v.piece_types[pt].token + geo.name(frm)
    elif m & LEGS:
        code = pos.board[frm]
        target = pos.board[to]
        victim = legs_victim(m)
        s = _letter(v, code) + geo.name(frm)
        if victim >= 0:
            s += "x" + geo.name(victim)
        s += ("x" if to != frm and target and (target & 1) != (code & 1) else "-") + geo.name(to)
    else:
        code = pos.board[frm]
        ptype = v.piece_types[code >> 1]
        target = pos.board[to]
        cap = bool(m & EP) or (target != 0 and (target & 1) != (code & 1))
        ffile, frank = _file_rank(geo, frm)
        mine = _letter(v, code)
        # other pieces of this side written with the same letter (all pawns write none, a
        # piece and its '~' twin the same) reaching the same cell: disambiguate
        rf = [_file_rank(geo, (o >> FROM_SHIFT) & CELL) for o in legal
              if (o & CELL) == to and from_of(o) not in (frm, -1)
              and pos.board[(o >> FROM_SHIFT) & CELL] & 1 == code & 1
              and _letter(v, pos.board[(o >> FROM_SHIFT) & CELL]) == mine]
        if ptype.pawn and cap:
            dis = ffile + (frank if any(f == ffile for f, _ in rf) else "")
        elif not rf:
            dis = ""
        elif all(f != ffile for f, _ in rf):
            dis = ffile
        elif not ptype.pawn and all(r != frank for _, r in rf):
            dis = frank
        else:
            dis = ffile + frank
        s = mine + dis + ("x" if cap else "") + geo.name(to)
        if m & FISSION:
            s += "/" + v.piece_types[pt].token.lower()
        elif pt:
            tok = v.piece_types[pt].token
            s += "+" if tok.startswith("+") else "=" + tok.rstrip("~")
        elif any(from_of(o) == frm and to_of(o) == to and ptype_of(o) and not o & FISSION
                 and acted_of(o) == acted_of(m) for o in legal):
            s += "="        # promotion declined (else 'N+' for a check reads as a promotion)
        acted = acted_of(m)
        if acted >= 0 and m & SPECIAL:
            s += "," + geo.name(acted)
    wall = wall_of(m)
    if wall >= 0:               # the cell the duck (a wall, an arrow) goes to
        s += "," + geo.name(wall)
    pos.make(m)
    try:
        if in_check(pos):
            s += "#" if not legal_moves(pos) else "+"
    finally:
        pos.unmake()
    return s


def pgn_fits(variant_name: str) -> bool:
    return variants.get(variant_name).geometry.dims == 2


def _comment(score, depth, ms) -> str:
    parts = []
    if score is not None:
        if isinstance(score, str):
            sc = score
        else:
            sc = f"{score / 100:+.2f}"
        parts.append(sc + (f"/{depth}" if depth is not None else ""))
    if ms is not None:
        parts.append(f"{ms / 1000:.3f}s")
    return "{" + " ".join(parts) + "}" if parts else ""


def to_pgn(rec: dict, event: str = "cellfish match", round_no: int | None = None) -> str:
    v = variants.get(rec["variant"])
    dialect = rec.get("dialect", v.notation.dialect)
    pos = parse_position(v, rec["start"])
    start_text = format_position(pos)
    std = format_position(parse_position(v, v.start_fen))
    tags = [
        ("Event", event),
        ("Site", "?"),
        ("Date", datetime.date.today().strftime("%Y.%m.%d")),
        ("Round", str(round_no if round_no is not None else rec["game"] + 1)),
        ("White", rec["white"]),
        ("Black", rec["black"]),
        ("Result", rec["result"]),
    ]
    if rec["variant"] != "chess":
        tags.append(("Variant", rec["variant"]))
    if rec["variant"] != "chess" or start_text != std:
        tags += [("SetUp", "1"), ("FEN", start_text)]
    tags += [("PlyCount", str(len(rec["opening"]) + len(rec["moves"]))),
             ("Termination", rec["reason"])]
    tc = rec.get("tc_pgn")
    if tc:      # as cutechess: one tag, or one per side when the sides' limits differ
        if tc[0] == tc[1]:
            tags.append(("TimeControl", tc[0]))
        else:
            tags += [("WhiteTimeControl", tc[0]), ("BlackTimeControl", tc[1])]
    out = [f'[{k} "{str(val).replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}"]'
           for k, val in tags]
    words = []
    n_open = len(rec["opening"])
    all_moves = list(rec["opening"]) + list(rec["moves"])
    for i, t in enumerate(all_moves):
        legal = legal_moves(pos)
        m = parse_move(v, legal, t, dialect)
        if pos.side == 0:
            words.append(f"{pos.fullmove}.")
        elif i == 0:
            words.append(f"{pos.fullmove}...")
        words.append(san(v, pos, m, legal))
        if i < n_open:
            if i == n_open - 1:
                words.append("{book}")
        else:
            j = i - n_open
            c = _comment(rec["scores"][j], rec["depths"][j], rec["times_ms"][j])
            if c:
                words.append(c)
        pos.make(m)
    words.append("{" + rec["reason"].replace("{", "(").replace("}", ")") + "}")
    words.append(rec["result"])
    lines, cur = [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > 79:
            lines.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        lines.append(cur)
    return "\n".join(out) + "\n\n" + "\n".join(lines) + "\n\n"


class RecordWriter:
    """Appends each finished game at once (a crash of the runner keeps the games so far)."""

    def __init__(self, jsonl: str | None, pgn: str | None, variant: str, event: str):
        self.jsonl = open(jsonl, "w", encoding="utf-8") if jsonl else None
        self.pgn = open(pgn, "w", encoding="utf-8") if pgn and pgn_fits(variant) else None
        self.event = event

    def write_json(self, rec: dict) -> None:
        if self.jsonl:
            self.jsonl.write(json.dumps(rec, separators=(",", ":")) + "\n")
            self.jsonl.flush()

    def write(self, rec: dict) -> None:
        self.write_json(rec)
        if self.pgn:
            self.pgn.write(to_pgn(rec, self.event))
            self.pgn.flush()

    def close(self) -> None:
        for f in (self.jsonl, self.pgn):
            if f:
                f.close()
