"""Move generation from the compiled tables, attack tests and the legality filter.

One generator serves every geometry: it walks per-cell tuples of target cells and rays (the
plain leaps and rides inline, every other part of a piece's tables through ``walker.py``).
Variants add what tables cannot describe through ``Variant.extra_moves``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from . import movedata
from .attacks import attacked_mask, pinned_mask
from .moves import (ACTED, ACTED_SHIFT, CASTLE, CELL, DOUBLE, DROP_CELLS, EP, FISSION, FROM_SHIFT, FROM_TO, FUSION,
                    IN_PLACE, LEGS,
                    SPECIAL, TYPE_SHIFT)
from .walker import QUIET_PARTS, quiet_targets_into, targets_into, walk_targets

if TYPE_CHECKING:
    from .attacks import MaskAttacks
    from .movedata import MoveData
    from .position import Position
    from .tables import AttackTables

# True where this module runs compiled by mypyc (``cellfish native``), whose ints wider than
# 62 bits are objects: the capture generator then reads its index cell by cell
COMPILED: Final = not __file__.endswith(".py")


def pseudo_moves(pos: Position, captures_only: bool = False, drops: bool = True) -> list[int]:
    """Pseudo-legal moves of the side to move: table moves, drops, castling and the variant's
    extra moves.  ``captures_only``: only captures, en passant and promotions (plus the
    variant's extra moves), without quiet moves, drops and castling — what quiescence plays.
    ``drops=False``: without the drops (``drop_moves`` gives them, in the same order)."""
    md = movedata.of(pos)
    if captures_only:
        caps = _captures(pos, md)
        if md.extra_moves:
            pos.variant.extra_moves(pos, caps)
        return caps
    tl = md.tl
    promo = md.promo_at
    b = pos.board
    side = pos.side
    ep = pos.ep
    out: list[int] = []
    for s in pos.occ[side]:
        code = b[s]
        T = tl[code]
        base = s << FROM_SHIFT
        pr = promo[code][s]             # None: no promotion from s (a pawn far from its zone)
        if T.simple and pr is None:
            # the walker's own inner loop: a mode test per empty cell cost 4-6% of perft
            # (measured)
            for t in T.leaps[s]:
                p = b[t]
                if not p or (p & 1) != side:
                    out.append(base | t)
            for ray in T.rides[s]:
                for t in ray:
                    p = b[t]
                    if not p:
                        out.append(base | t)
                    else:
                        if (p & 1) != side:
                            out.append(base | t)
                        break
            continue
        if pr is None and not T.overlap:
            targets_into(T, s, b, side, ep, out, base)
            continue
        tg = walk_targets(T, s, b, side, ep)
        if pr is None:
            for t in tg:
                out.append(base | t)
        else:
            for t in tg:
                opts = pr.get((s, t & CELL))
                if opts is None:
                    out.append(base | t)
                else:
                    m = base | t
                    for o in opts:
                        out.append(m | (o << TYPE_SHIFT))
    if md.hands and drops:
        _drops(pos, out)
    if md.castling and pos.castle:
        _castling(pos, out)
    if md.extra_moves:
        pos.variant.extra_moves(pos, out)
    return out


def quiet_moves(pos: Position) -> list[int]:
    """The pseudo-legal moves of ``pseudo_moves(pos)`` that ``pseudo_moves(pos, True)`` leaves
    out: table moves to empty cells that do not promote, castling and drops.  The two lists
    together hold every pseudo-legal move once, for the searcher, which generates the quiet
    moves only when the captures have not cut the node off."""
    md = movedata.of(pos)
    tl = md.tl
    promo = md.promo_at
    b = pos.board
    side = pos.side
    ep = pos.ep
    out: list[int] = []
    for s in pos.occ[side]:
        code = b[s]
        T = tl[code]
        base = s << FROM_SHIFT
        pr = promo[code][s]             # None: no promotion from s (a pawn far from its zone)
        if T.simple and pr is None:
            for t in T.leaps[s]:
                if not b[t]:
                    out.append(base | t)
            for ray in T.rides[s]:
                for t in ray:
                    if b[t]:
                        break
                    out.append(base | t)
            continue
        if pr is None and not T.overlap and not T.parts & ~QUIET_PARTS:
            quiet_targets_into(T, s, b, out, base)      # a pawn's steps, its captures not walked
            continue
        tg = walk_targets(T, s, b, side, ep)
        for t in tg:
            # flags or an acted-on cell: en passant, a capture in passing (LEGS) go with the
            # captures
            if t > FROM_TO and (t & EP or (t & LEGS and t & ACTED)):
                continue
            to = t & CELL
            p = b[to]
            if p and (p & 1) != side:
                continue
            opts = pr.get((s, to)) if pr is not None else None
            if opts is None:
                out.append(base | t)
            elif 0 in opts:
                out.append(base | t)
    if md.hands:
        _drops(pos, out)
    if md.castling and pos.castle:
        _castling(pos, out)
    return out


def _captures(pos: Position, md: MoveData) -> list[int]:
    """The table moves of ``pseudo_moves(pos, True)``: captures, en passant and promotions.
    A piece whose captures the capture index describes (``tables.index_captures``) and that
    cannot promote from its cell takes its leaps' captures from one mask against the enemy's
    cells (compiled: from its capture cells one by one, as a mask of more than 62 cells is an
    object there) and walks only its rides; any other walks every target and keeps the
    captures."""
    tl = md.tl
    promo = md.promo_at
    b = pos.board
    side = pos.side
    ep = pos.ep
    out: list[int] = []
    them = 0                            # the enemy's cells as a bit mask
    if not COMPILED:
        for s in pos.occ[side ^ 1]:
            them |= 1 << s
    for s in pos.occ[side]:
        code = b[s]
        T = tl[code]
        base = s << FROM_SHIFT
        pr = promo[code][s]             # None: no promotion from s (a pawn far from its zone)
        if T.capfast and pr is None:
            if COMPILED:
                for t in T.capcells[s]:
                    p = b[t]
                    if p and (p & 1) != side:
                        out.append(base | t)
            else:
                x = T.capbits[s] & them
                while x:
                    low = x & -x
                    out.append(base | (low.bit_length() - 1))
                    x ^= low
            for ray in T.caprides[s]:
                for t in ray:
                    p = b[t]
                    if p:
                        if (p & 1) != side:
                            out.append(base | t)
                        break
            if ep >= 0 and ep in T.epcells[s] and not b[ep]:
                out.append(base | ep | EP)
            continue
        tg = walk_targets(T, s, b, side, ep)
        for t in tg:
            to = t & CELL
            p = b[to]
            cap = (p and (p & 1) != side) or (t > FROM_TO and (t & EP or (t & LEGS and t & ACTED)))
            opts = pr.get((s, to)) if pr is not None else None
            if opts is None:
                if cap:
                    out.append(base | t)
            else:
                for o in opts:
                    if cap or o:
                        out.append(base | t | (o << TYPE_SHIFT))
    return out


def drop_moves(pos: Position) -> list[int]:
    """The pseudo-legal drops of the side to move (by piece in hand, then by cell)."""
    out: list[int] = []
    if movedata.of(pos).hands:
        _drops(pos, out)
    return out


def _drops(pos: Position, out: list[int]) -> None:
    b = pos.board
    hand = pos.hand
    drops = pos.variant.drops
    for code in range(2 + pos.side, len(hand), 2):
        if hand[code]:
            mb = (code >> 1) << TYPE_SHIFT
            for t in drops[code]:
                if not b[t]:
                    out.append(mb | t * DROP_CELLS)


def _castling(pos: Position, out: list[int]) -> None:
    b = pos.board
    side = pos.side
    them = side ^ 1
    castle = pos.castle
    checked = None
    # loops, not any() over generators: compiled, each generator is a new object
    for rule in movedata.of(pos).castle_rules:
        bit = rule.bit
        if rule.color != side or (castle & bit) != bit:
            continue
        blocked = False
        for c in rule.empty:
            if b[c]:
                blocked = True
                break
        if blocked:
            continue
        kf = rule.king_from
        safe = rule.safe
        if kf in safe:                      # a royal king may not castle out of check
            if checked is None:
                checked = attacked(pos, kf, them)
            if checked:
                return
        for c in safe:
            if c != kf and attacked(pos, c, them):
                blocked = True
                break
        if blocked:
            continue
        out.append(rule.move_to | (kf << FROM_SHIFT) | CASTLE)


def attacked_with(atk: AttackTables, b: list[int], t: int) -> bool:
    """Is cell t attacked on board b by a piece of the attack tables ``atk`` (one colour's
    ``(leaps, rays, slider_rays, hops)``, see ``tables.build_attack_tables``)?  A ray's cells
    are walked outward from t; they need not lie on a line, so a cell that must be empty for a
    move is a ray cell with an empty set of codes (a lame leaper's path, Notake's acting
    moves).  Variants pass tables of their own (Nested: only the pieces that are not
    paralysed; Notake: acting moves)."""
    for s, codes in atk[0][t]:
        if b[s] in codes:
            return True
    for cells, sets in atk[1][t]:
        i = 0
        for c in cells:
            p = b[c]
            if p:
                if p in sets[i]:
                    return True
                break
            i += 1
    hops = atk[3]
    if hops is not None:
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


def _attack_tables(pos: Position) -> list[AttackTables]:
    """The variant's attack tables, through the position's move data once it has them (a
    test of check alone, as when a position is read, builds no generator tables)."""
    md = pos.md
    return md.attacks() if md is not None else pos.variant.attacks


def _attack_masks(pos: Position) -> list[MaskAttacks]:
    """The variant's attack tables with code masks (``engine/attacks.py``), as
    ``_attack_tables`` reads the frozenset ones."""
    md = pos.md
    return md.attack_masks() if md is not None else pos.variant.attack_masks


def attacked(pos: Position, t: int, by: int) -> bool:
    """Is cell t attacked (capturable) by a piece of colour `by`?"""
    return attacked_mask(_attack_masks(pos)[by], pos.board, t)


def in_check(pos: Position, side: int | None = None) -> bool:
    v = pos.variant
    if side is None:
        side = pos.side
    if v.check_hook:
        return v.in_check(pos, side)
    if not v.royal_check:
        return False
    k = pos.king[side]
    return k >= 0 and attacked(pos, k, side ^ 1)


def evasions(pos: Position, moves: list[int], k: int, them: int, drops: bool = False) -> list[int]:
    """``moves`` without those that cannot end the check on the royal on cell k, for a side in
    check under the generic legality filter (the attack tables decide check; no hoppers,
    whose screens a move can open or close).  Against one attacker a move other than the
    royal's must take it or land on the empty cells between it and the royal (a ray's, or a
    lame leaper's path); against two it must land on a cell both attacks pass (in chess
    there is none: only the royal can move; zigzag paths can cross).  Royal moves, en passant, the
    variant's special moves and moves that act on a second cell (other than a pawn's long
    step, whose second cell is its en-passant cell) are kept.  Every move kept is still
    tested after make; the board is not changed.  ``drops``: ``moves`` holds no drops, and
    the drops that can end the check (onto those cells) are added after them."""
    fa = _attack_masks(pos)[them]
    if fa.hops is not None:
        return moves + drop_moves(pos) if drops else moves
    b = pos.board
    # each attacker's own cell and the cells of every path by which it attacks (the code
    # mask tables: cell, mask, cell, mask, ...)
    attackers: dict[int, set[int]] = {}
    lp = fa.leaps[k]
    for i in range(0, len(lp), 2):
        s = lp[i]
        p = b[s]
        if p and (lp[i + 1] >> p) & 1:
            attackers.setdefault(s, {s})
    for ray in fa.rays[k]:
        for i in range(0, len(ray), 2):
            c = ray[i]
            p = b[c]
            if p:
                if (ray[i + 1] >> p) & 1:
                    attackers.setdefault(c, {c}).update(ray[0:i:2])
                break
    # a move must end every attack: land on a cell of each attacker's set (zigzag paths of
    # two attackers may cross, so one piece can block both)
    paths = list(attackers.values())
    cells = paths[0].intersection(*paths[1:]) if paths else set()
    keep = EP | SPECIAL | FISSION | FUSION | LEGS
    out = [m for m in moves if (m & CELL) in cells or (m >> FROM_SHIFT) & CELL == k or m & keep
           or ((m >> ACTED_SHIFT) & CELL and not m & DOUBLE)]
    if drops and cells and pos.variant.hands:
        hand = pos.hand
        regions = pos.variant.drops
        targets = sorted(c for c in cells if not b[c])
        for code in range(2 + pos.side, len(hand), 2):
            if hand[code]:
                mb = (code >> 1) << TYPE_SHIFT
                reg = regions[code]
                out += [mb | t * DROP_CELLS for t in targets if t in reg]
    return out


def pinned_with(atk: AttackTables, b: list[int], k: int, us: int) -> set[int]:
    """Cells of colour `us` whose piece, if it left, would open a slider line (or a lame
    leaper's path) of the attack tables ``atk`` (the enemy's) onto cell k."""
    pinned: set[int] = set()
    for cells, sets in atk[2][k]:
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


def pinned_cells(pos: Position, k: int, them: int) -> set[int]:
    """Own cells whose piece, if it left, would open a line from an enemy piece to k."""
    return pinned_mask(_attack_masks(pos)[them], pos.board, k, them ^ 1)


def legal_moves(pos: Position) -> list[int]:
    """The legal moves: the royal-check filter (or the variant's own), then the rule flags
    ``decided_no_moves``, ``checks_allowed`` and ``must_capture`` when the variant sets them."""
    out = _legal(pos)
    if movedata.of(pos).rule_filter:
        return rule_filter(pos, out)
    return out


def legal_tactical(pos: Position) -> list[int]:
    """The legal moves among ``pseudo_moves(pos, True)`` (captures, en passant, promotions, the
    variant's extra moves), by the variant's own filter or the royal-check one; not for
    variants with rule flags (``Rules.rule_filter``), which judge the whole list."""
    pseudo = pseudo_moves(pos, True)
    r = pos.variant.legal_moves(pos, pseudo) if movedata.of(pos).own_legality else None
    return r if r is not None else royal_filter(pos, pseudo)


def gives_check(pos: Position, m: int) -> bool:
    """Does move m leave the opponent in check?"""
    pos.make(m)
    r = in_check(pos)
    pos.unmake()
    return r


def is_capture(pos: Position, m: int) -> bool:
    """Does move m take an enemy piece (en passant included; a drop never does)?"""
    if (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE:    # moves.is_drop
        return False
    p = pos.board[m & CELL]
    if m & LEGS:
        return bool(m & ACTED) or (m & CELL != (m >> FROM_SHIFT) & CELL and bool(p) and (p & 1) != pos.side)
    return bool(m & EP) or (bool(p) and (p & 1) != pos.side and not m & CASTLE)


def rule_filter(pos: Position, moves: list[int], decided: bool = True) -> list[int]:
    """Apply the variant's rule flags to legal moves: none once ``adjudicate`` has decided the
    game (``decided_no_moves``; skipped with ``decided=False``, for ``adjudicate`` itself);
    no move giving check (``checks_allowed`` False); only the captures when there is one
    (``must_capture``)."""
    v = pos.variant
    if decided and v.decided_no_moves and v.adjudicate(pos) is not None:
        return []
    if not v.checks_allowed:
        moves = [m for m in moves if not gives_check(pos, m)]
    if v.must_capture:
        caps = [m for m in moves if is_capture(pos, m)]
        if caps:
            return caps
    return moves


def moves_before_result(pos: Position) -> list[int]:
    """The legal moves as if the game were not decided (for a variant's ``adjudicate`` that
    asks what the side to move could still do)."""
    out = _legal(pos)
    return rule_filter(pos, out, False) if pos.variant.rules.rule_filter else out


def _legal(pos: Position) -> list[int]:
    pseudo = pseudo_moves(pos)
    if movedata.of(pos).own_legality:      # else Variant's default, which returns None
        r = pos.variant.legal_moves(pos, pseudo)
        if r is not None:
            return r
    return royal_filter(pos, pseudo)


def royal_filter(pos: Position, pseudo: list[int]) -> list[int]:
    """The generic legality filter: the moves of ``pseudo`` that leave no royal piece of the
    mover attacked (and pass the variant's drop rule); a variant's own ``legal_moves`` may
    call it after its own filtering."""
    v = pos.variant
    rules = v.rules
    drop_hook = v.drop_legal if rules.drop_rule else None
    side = pos.side
    k = pos.king[side]
    if not v.royal_check or k < 0:
        # no royal piece to guard: only the drop rule (a pawn not doubled, no dropped check)
        if drop_hook is None:
            return pseudo
        return [m for m in pseudo
                if (m >> FROM_SHIFT) & CELL != m & CELL or m & IN_PLACE or drop_hook(pos, m)]
    them = side ^ 1
    fa = _attack_masks(pos)[them]
    b = pos.board
    check = attacked_mask(fa, b, k)
    king = pos.king
    # a plain move of the royal (no flag, no promotion, no second cell, no capture hook) is
    # legal when its destination is not attacked with the royal lifted from its cell: what
    # make would leave, but for the destination's own cell, which the attack test does not
    # read (``selfref``: unless a ray wraps round to it)
    lift = not fa.selfref[k] and not pos._capfx
    # the indices of the illegal moves, taken out of a copy at the end: most moves are
    # legal, and compiled, a move put in a new list is a new int object
    bad: list[int] = []
    if rules.pin_shortcut and not check:
        pinned = pinned_mask(fa, b, k, side)
        made = EP | LEGS            # en passant, a capture in passing: made and tested
        for i in range(len(pseudo)):
            m = pseudo[i]
            frm = (m >> FROM_SHIFT) & CELL        # from cell
            if frm != k:
                if frm in pinned or m & made:       # (never a drop: it lands on an empty cell)
                    pos.make(m)
                    if attacked_mask(fa, b, king[side]):
                        bad.append(i)
                    pos.unmake()
                elif drop_hook is not None and frm == m & CELL and not m & IN_PLACE \
                        and not drop_hook(pos, m):  # a drop (moves.is_drop) the rule refuses
                    bad.append(i)
            elif lift and m <= FROM_TO:         # a plain move: no type, acted cell or flag
                if _lifted_attacked(pos, fa, k, m & CELL):
                    bad.append(i)
            else:
                pos.make(m)
                if attacked_mask(fa, b, king[side]):
                    bad.append(i)
                pos.unmake()
        return _without(pseudo, bad)
    if check and rules.evasion_shortcut:
        pseudo = evasions(pos, pseudo, k, them)      # only what can end the check
    for i in range(len(pseudo)):
        m = pseudo[i]
        frm = (m >> FROM_SHIFT) & CELL
        if frm == k:
            if lift and m <= FROM_TO:
                if _lifted_attacked(pos, fa, k, m & CELL):
                    bad.append(i)
                continue
        elif frm == m & CELL and not m & IN_PLACE:     # a drop (moves.is_drop)
            if drop_hook is not None and not drop_hook(pos, m):
                bad.append(i)
                continue
        pos.make(m)
        kk = king[side]
        if kk >= 0 and attacked_mask(fa, b, kk):
            bad.append(i)
        pos.unmake()
    return _without(pseudo, bad)


def _without(moves: list[int], bad: list[int]) -> list[int]:
    """A copy of ``moves`` without the entries at the indices ``bad`` (ascending)."""
    out = moves[:]
    j = len(bad) - 1
    while j >= 0:
        del out[bad[j]]
        j -= 1
    return out


def _lifted_attacked(pos: Position, fa: MaskAttacks, k: int, to: int) -> bool:
    """Would the royal on k stand attacked on ``to`` after its plain move there?  Tested with
    the royal lifted from k and the board otherwise as it is (the attack test does not read
    ``to`` itself), instead of making and unmaking the move.  The occupancy sets are put
    through the very changes make and unmake put them through: a set's iteration order
    depends on its history, the generators walk the pieces in that order, and the searcher's
    move order (so its node counts) follows it."""
    b = pos.board
    side = pos.side
    code = b[k]
    own = pos.occ[side]
    own.discard(k)
    cap = b[to]
    if cap:
        them = pos.occ[side ^ 1]
        them.discard(to)
        them.add(to)
    own.add(to)
    b[k] = 0
    r = attacked_mask(fa, b, to)
    b[k] = code
    own.discard(to)
    own.add(k)
    return r
