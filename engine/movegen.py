"""Move generation from the compiled tables, attack tests and the legality filter.

One generator serves every geometry: it walks per-cell tuples of target cells and rays.
Variants add what tables cannot describe through ``Variant.extra_moves``.
"""
from __future__ import annotations

from .moves import CASTLE, DOUBLE, DROP, EP
from .pieces import CAPTURE, MOVE


def _complex_targets(T, s, b, side, ep, app):
    """Targets of a piece whose tables use move-only/capture-only parts, special rays or
    bent paths.  Appends target | flags."""
    for t in T.leaps[s]:
        p = b[t]
        if not p or (p & 1) != side:
            app(t)
    for t in T.mleaps[s]:
        if not b[t]:
            app(t)
    for t in T.cleaps[s]:
        p = b[t]
        if p and (p & 1) != side:
            app(t)
    for ray in T.rides[s]:
        for t in ray:
            p = b[t]
            if not p:
                app(t)
            else:
                if (p & 1) != side:
                    app(t)
                break
    for ray in T.mrides[s]:
        for t in ray:
            if b[t]:
                break
            app(t)
    for ray in T.crides[s]:
        for t in ray:
            p = b[t]
            if p:
                if (p & 1) != side:
                    app(t)
                break
    for ray, stops, mode, flag in T.special[s]:
        k = 0
        for t in ray:
            p = b[t]
            if p:
                if stops[k] and mode != MOVE and (p & 1) != side:
                    app(t)
                break
            if stops[k]:
                if mode != CAPTURE:
                    if flag == "double":
                        app(t | DOUBLE | ((ray[k - 1] + 1) << 24))
                    else:
                        app(t)
                elif flag == "ep" and t == ep:
                    app(t | EP)
            k += 1
    for ray, stops, mode, beyond in T.hops[s]:
        k, n = 0, len(ray)
        while k < n and not b[ray[k]]:      # up to the screen
            k += 1
        end = n if beyond is None else min(n, k + 1 + beyond)
        for k in range(k + 1, end):
            t = ray[k]
            p = b[t]
            if p:
                if stops[k] and mode != MOVE and (p & 1) != side:
                    app(t)
                break
            if stops[k] and mode != CAPTURE:
                app(t)
    for c1, stop1, rays in T.bent[s]:
        p = b[c1]
        if p:
            if stop1 and (p & 1) != side:
                app(c1)
            continue
        if stop1:
            app(c1)
        for ray in rays:
            for t in ray:
                p = b[t]
                if not p:
                    app(t)
                else:
                    if (p & 1) != side:
                        app(t)
                    break


def pseudo_moves(pos) -> list[int]:
    v = pos.variant
    tl = v.table_list
    promo = v.promo
    b = pos.board
    side = pos.side
    ep = pos.ep
    out: list[int] = []
    app = out.append
    for s in pos.occ[side]:
        code = b[s]
        T = tl[code]
        base = s << 8
        pr = promo.get(code)
        if T.simple and pr is None:
            for t in T.leaps[s]:
                p = b[t]
                if not p or (p & 1) != side:
                    app(base | t)
            for ray in T.rides[s]:
                for t in ray:
                    p = b[t]
                    if not p:
                        app(base | t)
                    else:
                        if (p & 1) != side:
                            app(base | t)
                        break
            continue
        tg: list[int] = []
        _complex_targets(T, s, b, side, ep, tg.append)
        if pr is None:
            for t in tg:
                app(base | t)
        else:
            for t in tg:
                opts = pr.get((s, t & 255))
                if opts is None:
                    app(base | t)
                else:
                    m = base | t
                    for o in opts:
                        app(m | (o << 16))
    if v.hands:
        hand = pos.hand
        drops = v.drops
        for code in range(2 + side, len(hand), 2):
            if hand[code]:
                mb = (DROP << 8) | ((code >> 1) << 16)
                for t in drops[code]:
                    if not b[t]:
                        app(mb | t)
    if v.castling and pos.castle:
        _castling(pos, app)
    v.extra_moves(pos, out)
    return out


def _castling(pos, app):
    b = pos.board
    side = pos.side
    them = side ^ 1
    checked = None
    for rule in pos.variant.castling:
        if rule.color != side or not (pos.castle & rule.bit):
            continue
        if any(b[c] for c in rule.empty):
            continue
        if checked is None:
            checked = attacked(pos, rule.king_from, them)
        if checked:
            return
        if any(attacked(pos, c, them) for c in rule.safe if c != rule.king_from):
            continue
        app(rule.king_to | (rule.king_from << 8) | CASTLE)


def attacked(pos, t: int, by: int) -> bool:
    """Is cell t attacked (capturable) by a piece of colour `by`?"""
    leaps, rays, _, hops = pos.variant.attacks[by]
    b = pos.board
    for s, codes in leaps[t]:
        if b[s] in codes:
            return True
    for cells, sets in rays[t]:
        i = 0
        for c in cells:
            p = b[c]
            if p:
                if p in sets[i]:
                    return True
                break
            i += 1
    for cells, sets, beyond in hops[t]:
        i, n = 0, len(cells)
        while i < n and not b[cells[i]]:      # empty cells up to the screen
            i += 1
        if beyond is not None and i >= beyond:
            continue
        for j in range(i + 1, n):
            p = b[cells[j]]
            if p:
                if p in sets[j]:
                    return True
                break
    return False


def in_check(pos, side: int | None = None) -> bool:
    v = pos.variant
    if side is None:
        side = pos.side
    if v.check_hook:
        return v.in_check(pos, side)
    if not v.royal_check:
        return False
    k = pos.king[side]
    return k >= 0 and attacked(pos, k, side ^ 1)


def pinned_cells(pos, k: int, them: int) -> set[int]:
    """Own cells whose piece, if it left, would open a line from an enemy piece to k."""
    slides = pos.variant.attacks[them][2]
    b = pos.board
    us = them ^ 1
    pinned = set()
    for cells, sets in slides[k]:
        first = -1
        i = 0
        for c in cells:
            p = b[c]
            if p:
                if first < 0:
                    if (p & 1) != us:
                        break
                    first = c
                else:
                    if p in sets[i]:
                        pinned.add(first)
                    break
            i += 1
    return pinned


def legal_moves(pos) -> list[int]:
    v = pos.variant
    pseudo = pseudo_moves(pos)
    r = v.legal_moves(pos, pseudo)
    if r is not None:
        return r
    if not v.royal_check:
        return pseudo
    side = pos.side
    k = pos.king[side]
    if k < 0:
        return pseudo
    them = side ^ 1
    drop_hook = v.drop_legal if v.has_drop_rule else None
    check = attacked(pos, k, them)
    out = []
    app = out.append
    make, unmake = pos.make, pos.unmake
    if v.fast_legality and not check:
        pinned = pinned_cells(pos, k, them)
        for m in pseudo:
            frm = (m >> 8) & 255
            if frm == DROP:
                if drop_hook is None or drop_hook(pos, m):
                    app(m)
            elif frm != k and frm not in pinned and not (m & EP):
                app(m)
            else:
                make(m)
                if not attacked(pos, pos.king[side], them):
                    app(m)
                unmake()
        return out
    for m in pseudo:
        if drop_hook is not None and (m >> 8) & 255 == DROP and not drop_hook(pos, m):
            continue
        make(m)
        kk = pos.king[side]
        if kk < 0 or not attacked(pos, kk, them):
            app(m)
        unmake()
    return out
