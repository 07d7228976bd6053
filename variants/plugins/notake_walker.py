"""The one move walker of every Notake form, and the per-form tables it walks.

Where the forms differ (which cell is acted on, which cell must be empty, where the mover
lands) is decided once, when the tables are built, so that one loop generates the plain and
acting moves of all six forms.  Every move int is precomputed, promotion choices included.

Per piece code and cell, ``leaps`` entries are ``(t, plain, a, e, acting)``: the plain moves
to t (when t is empty), and the acting moves, made when the piece on cell ``a`` can be acted
on and cell ``e`` (if any) is empty.  ``rides`` entries are ``(ray, plain, back, behind,
blocked)``: ``plain[i]`` are the plain moves to ``ray[i]``; while the ray is empty so far,
``behind[i]`` are the moves that act on the piece on ``back`` (withdraw, tow); at the first
piece met, on ``ray[i]``, ``blocked[i]`` lists ``(cell that must be empty or -1, moves)``,
taken in order until a listed cell is occupied, when that piece can be acted on.
"""
from __future__ import annotations

from engine.moves import ACTED_SHIFT, FROM_SHIFT, SPECIAL, TYPE_SHIFT

NONE: tuple = ()


def _moves(base: int, dest: int, acted: int, opts: tuple[int, ...]) -> tuple[int, ...]:
    # the acted cell XOR the from cell (moves.py): base is the from field
    m = base | dest | ((acted ^ (base >> FROM_SHIFT)) << ACTED_SHIFT) | SPECIAL
    return tuple(m | (o << TYPE_SHIFT) for o in opts)


def _plain(base: int, t: int, opts: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(base | t | (o << TYPE_SHIFT) for o in opts)


def build_walk_tables(v, form: str, nop: tuple[int, ...]) -> list:
    """tables[code][cell] = (leaps, rides) for one form (see the module docstring)."""
    n = v._n
    out: list = [None] * len(v._comp)
    for code, per_cell in enumerate(v._comp):
        if per_cell is None:
            continue
        po = v._po[code]
        zone = v._zone[code & 1]
        silver = v._silver[code]
        cells = []
        for s, (leaps, rides) in enumerate(per_cell):
            base = s << FROM_SHIFT
            row = s * n

            lt = []
            for t, t2, back in leaps:
                if form == "approach":
                    a, e, d = t2, t, t
                elif form in ("withdraw", "tow"):
                    a, e, d = back, t, t
                elif form == "shunt":
                    a, e, d = t, t2, t
                elif form == "overtake":
                    a, e, d = t, t2, t2
                else:                                   # rifle: the mover stays
                    a, e, d = t, -1, s
                if a < 0 or (form in ("shunt", "overtake") and e < 0):
                    acting = NONE
                elif form == "rifle":
                    acting = (base | s | SPECIAL | ((t ^ s) << ACTED_SHIFT),)
                else:
                    opts = po[row + d]
                    if silver and len(opts) == 2 and not (zone[d] or zone[a]):
                        opts = nop          # a Silver acting outside the zone: no choice
                    acting = _moves(base, d, a, opts)
                lt.append((t, _plain(base, t, po[row + t]), a, e, acting))
            rt = []
            for ray, back in rides:
                last = len(ray) - 1
                behind = tuple(_moves(base, t, back, po[row + t]) for t in ray) \
                    if form in ("withdraw", "tow") and back >= 0 else NONE
                blocked = []
                for i, t in enumerate(ray):
                    if form == "approach":
                        b = ((-1, _moves(base, ray[i - 1], t, po[row + ray[i - 1]])),) if i else NONE
                    elif form == "shunt":
                        b = ((ray[i + 1], _moves(base, t, t, po[row + t])),) if i < last else NONE
                    elif form == "overtake":
                        b = tuple((c, _moves(base, c, t, po[row + c])) for c in ray[i + 1:])
                    elif form == "rifle":
                        b = ((-1, (base | s | SPECIAL | ((t ^ s) << ACTED_SHIFT),)),)
                    else:
                        b = NONE
                    blocked.append(b)
                rt.append((ray, tuple(_plain(base, t, po[row + t]) for t in ray),
                           back if behind else -1, behind,
                           tuple(blocked)))
            cells.append((tuple(lt), tuple(rt)))
        out[code] = cells
    return out


def walk(tables: list, eff: list[int], pos, out: list[int]) -> None:
    """Append every plain and acting move of the side to move (one loop for all forms)."""
    b = pos.board
    ext = out.extend
    for s in pos.occ[pos.side]:
        leaps, rides = tables[b[s]][s]
        for t, plain, a, e, acting in leaps:
            if not b[t]:
                ext(plain)
            if acting and eff[b[a]] and (e < 0 or not b[e]):
                ext(acting)
        for ray, plain, back, behind, blocked in rides:
            act = back >= 0 and eff[b[back]]
            i = 0
            for t in ray:
                p = b[t]
                if p:
                    if eff[p]:
                        for c, moves in blocked[i]:
                            if c >= 0 and b[c]:
                                break
                            ext(moves)
                    break
                ext(plain[i])
                if act:
                    ext(behind[i])
                i += 1
