"""What the page is told: a generic geometry description and the state of a game.

Everything here is derived from the rules core (``Variant.geometry`` coordinates, piece tokens,
``legal_moves``, ``move_text``, ``game_result``, the position text); the page computes no rule.
Nothing here tests a variant's name.
"""
from __future__ import annotations

import os.path
import re
from fractions import Fraction

from engine.game import game_result
from engine import movedata
from engine.movegen import in_check, legal_moves, pseudo_moves
from engine.walker import walk_targets
from engine.moves import (CELL, DOUBLE, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT, acted_of, from_of,
                          is_drop, legs_victim, wall_of)
from engine.notation import code_token, format_position, move_text
from match.records import _file_rank


def _layout_2d(coords):
    """Cells of a 2D geometry: a full lattice of unit squares, or (when every cell has both
    coordinates of equal parity and both parities occur) squares on the odd points spanning
    two units and vertices on the even points, drawn as what they are."""
    parities = {(x % 2, y % 2) for x, y in coords}
    if parities <= {(0, 0), (1, 1)} and len(parities) == 2:
        out = []
        for x, y in coords:
            if x % 2:
                out.append({"x": x - 1, "y": y - 1, "w": 2, "shape": "square"})
            else:
                out.append({"x": x - 0.35, "y": y - 0.35, "w": 0.7, "shape": "vertex"})
        return out
    return [{"x": x, "y": y, "w": 1, "shape": "square"} for x, y in coords]


HEX_STEP = 0.75 * 2 / 3 ** 0.5     # the distance of two hexagon columns, a cell 1 high


def _layout_hex(coords):
    """Cells of a hexagonal geometry (axial coordinates: x the file, y up the file) as flat-
    topped hexagons one unit high, in columns ``HEX_STEP`` apart, each file's foot half a cell
    above its neighbour's nearer the middle; ``shade`` is one of three colours, so that no two
    neighbours share one and a diagonal move keeps it: the middle cell the medium one (2), as
    hex boards are drawn."""
    low = min(2 * y + x for x, y in coords)
    mid = round(sum(x + 2 * y for x, y in coords) / len(coords))
    return [{"x": x * HEX_STEP, "y": (2 * y + x - low) / 2, "w": 1, "shape": "hex",
             "shade": (2, 0, 1)[(x + 2 * y - mid) % 3]} for x, y in coords]


def _hex_labels(geo, cells) -> list[dict]:
    """A hexagonal board's coordinates: each file's letter under its foot cell, and the rank
    of each cell on the board's left edges (the first file, and the top cell of each file up
    to the middle one) beside it."""
    out = []
    files: dict[str, list[int]] = {}
    for i, n in enumerate(geo.names):
        files.setdefault(n[0], []).append(i)
    order = sorted(files, key=lambda f: cells[files[f][0]]["x"])
    for k, f in enumerate(order):
        members = sorted(files[f], key=lambda i: cells[i]["y"])
        foot = cells[members[0]]
        out.append({"x": foot["x"] + 0.5, "y": foot["y"] - 0.25, "text": f})
        edge = members if k == 0 else members[-1:] if k <= len(order) // 2 else []
        for i in edge:
            c = cells[i]
            out.append({"x": c["x"] + 0.5 - 0.7, "y": c["y"] + (0.5 if k == 0 else 0.95),
                        "text": geo.names[i][1:]})
    return out


def _layout_3d(coords, level_axis, separate):
    """A 3D geometry as level slices side by side (``level_axis``: which coordinate is the
    level; of the other two the first is the file, the second the rank); each cell keeps its
    coordinates (level, file, rank) for the page's stacked perspective view.  ``separate``:
    the levels are boards of their own (a levelled 2D game: each slice's a1 is dark); else
    the board is one solid, checkered in all three coordinates."""
    fa, ra = (i for i in range(3) if i != level_axis)
    files = max(c[fa] for c in coords) + 1
    return [{"x": c[level_axis] * (files + 1) + c[fa], "y": c[ra], "w": 1, "shape": "square",
             "level": c[level_axis], "coord": [c[level_axis], c[fa], c[ra]],
             "shade": (c[fa] + c[ra] + (0 if separate else c[level_axis])) % 2} for c in coords]


def _coordinates(v, cells) -> None:
    """Board coordinates on a 2D board: `file_label` on each file's lowest square,
    `rank_label` on each rank's leftmost square, read from the cell names (a1 style); in a variant
    written in USI, shogi's own: files numbered from Sente's right, ranks lettered from the
    top."""
    geo = v.geometry
    squares = [i for i, c in enumerate(cells) if c["shape"] == "square"]
    xs = sorted({geo.coords[i][0] for i in squares})
    ys = sorted({geo.coords[i][1] for i in squares})
    usi = v.notation.dialect == "usi"
    # each file's lowest square and each rank's leftmost one (a board with holes, as Omega's
    # whose first rank is only two corner cells, still shows every file and rank)
    low: dict[int, int] = {}
    left: dict[int, int] = {}
    for i in squares:
        x, y = geo.coords[i][:2]
        low[x] = min(low.get(x, y), y)
        left[y] = min(left.get(y, x), x)
    for i in squares:
        x, y = geo.coords[i][:2]
        if usi:
            f, r = str(len(xs) - xs.index(x)), chr(ord("a") + len(ys) - 1 - ys.index(y))
        else:
            f, r = _file_rank(geo, i)
        if y == low[x]:
            cells[i]["file_label"] = f
        if x == left[y]:
            cells[i]["rank_label"] = r


def _edge_labels(geo, cells) -> list[dict]:
    """Coordinates drawn beside the board where they cannot sit in the cells' corners (a
    lattice of squares and vertices, each level slice of a 3D board): a file under each
    column and a rank left of each row, read from the cell names (the group's common prefix,
    such as a 3D level's letter, left out), at the column's or row's centre in layout units."""
    groups: dict = {}
    for i, c in enumerate(cells):
        groups.setdefault(c.get("level"), []).append(i)
    out = []
    for members in groups.values():
        prefix = os.path.commonprefix([geo.names[i] for i in members]) if len(groups) > 1 else ""
        left = min(cells[i]["x"] for i in members)
        bottom = min(cells[i]["y"] for i in members)
        files: dict = {}
        ranks: dict = {}
        for i in members:
            m = re.match(r"^(\D*)(\d+)$", geo.names[i][len(prefix):])
            if not m:
                continue
            c = cells[i]
            files.setdefault(c["x"] + c["w"] / 2, m.group(1))
            ranks.setdefault(c["y"] + c["w"] / 2, m.group(2))
        out += [{"x": x, "y": bottom - 0.3, "text": t} for x, t in sorted(files.items())]
        out += [{"x": left - 0.3, "y": y, "text": t} for y, t in sorted(ranks.items())]
    return out


def piece_moves(v, token: str) -> dict | None:
    """A piece's moves on an otherwise empty board, from the core's move tables (as the
    legend shows them; without a variant's own hooks): `from` a central cell it can stand
    on, `moves` the cells it reaches, `captures` the cells it can take on when every other
    cell holds an enemy piece (those not in `moves` are its capture-only moves).  None when
    the core cannot say (a piece type the variant does not place, or moves that need more of
    a position)."""
    pt = v.by_token.get(token.upper()) or v.by_token.get(token)
    if pt is None:
        return None
    geo = v.geometry
    start = v.start_position()
    code = pt.id << 1
    home = [c for c, p in enumerate(start.board) if p and p >> 1 == pt.id]
    cells = geometry_description(v)["cells"]
    shapes = {cells[c]["shape"] for c in home} or {"square"}
    centre = [sum(c[k] for c in geo.coords) / geo.size for k in range(geo.dims)]
    frm = min((c for c in range(geo.size) if cells[c]["shape"] in shapes),
              key=lambda c: sum((geo.coords[c][k] - centre[k]) ** 2 for k in range(geo.dims)))
    foe = next((t.id << 1 | 1 for t in v.piece_types
                if t is not None and not t.royal and not t.pawn), code | 1)
    try:
        found = []
        for fill in (0, foe):
            pos = start.copy()
            for c in range(geo.size):
                if pos.board[c]:
                    pos.clear(c)
                if fill and c != frm:
                    pos.put(c, fill)
            pos.put(frm, code)
            pos.side = 0
            tables = movedata.of(pos).tl[code]      # the piece's own moves, no variant hook
            got = {t & CELL for t in walk_targets(tables, frm, pos.board, 0, -1)}
            if not got:     # moves only the variant's hook makes (Notake): its pseudo-moves
                got = {m & CELL for m in pseudo_moves(pos, drops=False) if (m >> FROM_SHIFT) & CELL == frm}
            found.append(sorted(got - {frm}))
    except Exception:       # a variant's own hooks may need kings or more
        return None
    return {"token": pt.token, "name": pt.name, "from": frm, "moves": found[0],
            "captures": found[1]}


def geometry_description(v) -> dict:
    geo = v.geometry
    coords = geo.coords
    if geo.hexagonal:
        cells = _layout_hex(coords)
    elif geo.dims == 2:
        cells = _layout_2d(coords)
    elif geo.dims == 3:
        cells = _layout_3d(coords, 0 if geo.level_axis is None else geo.level_axis, geo.lift_vectors)
    else:
        raise ValueError(f"no drawing for {geo.dims}-dimensional boards")
    for i, c in enumerate(cells):
        c["name"] = geo.names[i]
        if "shade" not in c:    # (a level slice's own: its a1 is dark whatever its place)
            c["shade"] = int(round(c["x"] + c["y"]) // max(1, int(c["w"]))) % 2
    labels = []
    if geo.dims == 3:       # each slice titled by what its cell names share (u, v, ... w)
        for lv in sorted({c["level"] for c in cells}):
            members = [i for i, c in enumerate(cells) if c["level"] == lv]
            prefix = os.path.commonprefix([geo.names[i] for i in members])
            left = min(cells[i]["x"] for i in members)
            right = max(cells[i]["x"] + 1 for i in members)
            top = max(cells[i]["y"] + 1 for i in members)
            labels.append({"x": (left + right) / 2, "y": top + 0.1, "text": prefix or str(lv),
                           "level": lv})
    if geo.dims == 2 and all(c["shape"] == "square" for c in cells):
        _coordinates(v, cells)      # (not on a lattice: its vertices sit on the edges)
    edge = [] if any("file_label" in c for c in cells) else \
        _hex_labels(geo, cells) if geo.hexagonal else _edge_labels(geo, cells)
    width = max(c["x"] + c["w"] for c in cells) - min(c["x"] for c in cells)
    height = max(c["y"] + c["w"] for c in cells) - min(c["y"] for c in cells)
    pieces = {pt.id: pt.token for pt in v.piece_types if pt is not None}
    usi = v.notation.dialect == "usi"
    return {"cells": cells, "width": width, "height": height,
            # shogi boards are one colour; their sides are Sente (moves first) and Gote
            "checkered": not usi, "sides": ["Sente", "Gote"] if usi else ["White", "Black"],
            "minx": min(c["x"] for c in cells), "miny": min(c["y"] for c in cells),
            "hands": bool(v.hands), "pieces": pieces, "labels": labels,
            "edge_labels": edge, "piece_style": "shogi" if usi else "disc",
            "piece_names": {pt.token: pt.name for pt in v.piece_types if pt is not None},
            "top": 0.7 if labels else 0,
            "solid": ({"levels": max(c["coord"][0] for c in cells) + 1,
                       "files": max(c["coord"][1] for c in cells) + 1,
                       "ranks": max(c["coord"][2] for c in cells) + 1} if geo.dims == 3 else None)}


def readable(v, pos, m: int) -> str:
    """A move on a board without SAN (3D), as the move list shows it: the moving piece's
    letters, a space, its cell, `-` or `×` (a capture), the target cell, then what the
    protocol text adds after the cells (`=Q` for a promotion letter, a fission's `/r` as
    written); a return or drop from the hand `R@ua1`.  (Not `x` for a capture: a level of the
    cube is called x.)"""
    names = v.geometry.names
    to, frm = m & CELL, (m >> FROM_SHIFT) & CELL
    text = move_text(v, m)
    if is_drop(m):
        return f"{v.piece_types[(m >> TYPE_SHIFT) & TYPE_MASK].token}@{names[to]}"
    code, target = pos.board[frm], pos.board[to]
    letters = code_token(v, code).upper()
    cap = bool(target) and (target & 1) != (code & 1)
    cells = names[frm] + names[to]
    rest = text[len(cells):] if text.startswith(cells) else ""
    if len(rest) == 1 and rest.isalpha():
        rest = "=" + rest.upper()
    return f"{letters} {names[frm]}{'×' if cap else '-'}{names[to]}{rest}"


def move_description(v, m: int) -> dict:
    frm = from_of(m)
    # (a pawn's long step keeps its en-passant cell there: no cell it acts on; a move of the
    # variant's own that puts a wall, Amazons' arrow, offers the wall's cell as that choice)
    acted = -1 if m & DOUBLE else acted_of(m)
    if acted < 0 and m & SPECIAL:
        acted = wall_of(m)
    via = legs_victim(m)     # (a Lion's pass is a two-leg move with no cell in passing)
    return {"text": move_text(v, m), "from": None if frm < 0 else frm, "to": m & CELL,
            "drop": (m >> TYPE_SHIFT) & TYPE_MASK if frm < 0 else None,
            "acted": acted if acted >= 0 else None,
            # a two-leg move (a Lion's): the cell its first leg goes to, where it takes
            "via": via if via >= 0 else None}


def choices(pos, legal: list[int], out: list[dict]) -> None:
    """For moves that share their cells with another (promotions, fission, Notake's acting or
    not, returns), what each leaves on the board, so the page can draw the choice as pieces:
    `after` lists the cells the move changes (`cell`, `token` or null when emptied) with the
    moved-to cell first (the cell moved from is listed only when something stays there),
    and `hand` the hand counts it changes ([side, token, change])."""
    v = pos.variant
    groups: dict[tuple, list[int]] = {}
    for k, d in enumerate(out):
        groups.setdefault((d["from"], d["to"], d["drop"]), []).append(k)
    for ks in groups.values():
        if len(ks) < 2:
            continue
        for k in ks:
            after = pos.copy()
            after.make(legal[k])
            to = out[k]["to"]
            frm = out[k]["from"]     # (emptied, as by any move: not listed)
            cells = [to] + [c for c in range(len(pos.board))
                            if c != to and after.board[c] != pos.board[c]
                            and not (c == frm and not after.board[c])]
            out[k]["after"] = [{"cell": c, "token": code_token(v, after.board[c])
                                if after.board[c] else None} for c in cells]
            out[k]["hand"] = [[code & 1, code_token(v, code), after.hand[code] - n]
                              for code, n in enumerate(pos.hand) if after.hand[code] != n]


def check_cells(pos) -> list[int]:
    """The royal cell of the side to move when it is in check (none when the variant has no
    single royal piece to show)."""
    k = pos.king[pos.side]
    return [k] if k >= 0 and in_check(pos) else []


def state(pos, moves_played: list[str], ply: int) -> dict:
    """The page's whole view of a position: board tokens, hands, legal moves, result."""
    v = pos.variant
    legal = legal_moves(pos)
    board = {i: code_token(v, c) for i, c in enumerate(pos.board) if c}
    hands: list[list[list]] = [[], []]
    for code, n in enumerate(pos.hand):
        if n and v.piece_types[code >> 1] is not None:
            hands[code & 1].append([code >> 1, code_token(v, code), n])
    res = game_result(pos, legal)
    described = [] if res else [move_description(v, m) for m in legal]
    if not res:
        choices(pos, legal, described)
    return {"type": "state", "fen": format_position(pos), "side": pos.side,
            "board": board, "hands": hands,
            "legal": described, "check": check_cells(pos),
            "result": None if res is None else _result(res),
            "moves": moves_played, "ply": ply}


def _result(res) -> dict:
    """A result as the page gets it: the score for the side to move and the reason, and the
    side to move's ``share`` of the point where that is a fraction (Glinski's stalemate)."""
    out = {"score": res[0], "reason": str(res[1])}
    share = getattr(res[1], "share", None)
    if share is not None:
        out["share"] = str(share)
    return out


def result_text(v, side: int, result: dict) -> str:
    """The banner: who won and why (`result` scores the game for the side to move, or names
    the winner of a game the page ended)."""
    score, reason = result["score"], result["reason"]
    names = geometry_description(v)["sides"]
    if score is None:
        winner = result["winner"]
        if winner is None:
            return "Draw: agreed"
        loser = names[1 - winner]
        why = f"{loser} resigns" if reason == "resignation" else f"{loser}'s time is up"
        return f"{names[winner]} wins: {why}"
    if "share" in result:           # both sides score: the larger share first
        share = Fraction(result["share"])
        top = side if share > Fraction(1, 2) else 1 - side
        return f"{names[top]} scores {max(share, 1 - share)}: {reason}"
    if score == 0:
        return f"Draw: {reason}"
    winner = side if score > 0 else 1 - side
    result["winner"] = winner
    return f"{names[winner]} wins: {reason}"
