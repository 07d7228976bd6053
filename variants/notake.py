"""Notake Shogi (Gilman): shogi pieces on the shogi board, but nothing is ever captured.

Plain moves go to empty cells only.  Besides them, each of the six forms has *acting* moves
that act on exactly one piece: an enemy piece is recruited (changes sides) or, when promoted,
demoted; an own unpromoted promotable piece is promoted.  Where the acted-on piece must be
relative to the mover's line of movement differs per form (rules/notake.md §3):

  approach   the piece one unit beyond the destination
  withdraw   the piece one unit behind the start
  tow        as withdraw, and the acted-on piece follows into the vacated start cell
  shunt      the mover stops on the piece's cell and pushes it one unit further
  overtake   the mover jumps the piece and lands beyond it
  rifle      the mover stays and acts on what shogi would let it capture

A King is in check when an enemy piece has an acting move on it (pins ignored).  Stalemate
is a draw; there are no hands and no drops.

Implementation: the generic table move generator would produce captures, so it is given
empty tables and every move comes from ``extra_moves``, which walks per-cell *component*
tables compiled here from the same piece atoms (a component is one line of movement with its
unit vector).  Acting moves carry the flag SPECIAL and the acted-on cell; the mover's
promotion is the move's type field.  ``in_check`` uses inverse tables built per form from
the same components, and ``legal_moves`` filters by make / check test / unmake, but only
the moves that could expose the King.
"""
from __future__ import annotations

from math import gcd

from engine.moves import SPECIAL
from engine.pieces import LEAP, RIDE
from engine.tables import PieceTables
from engine.variant import BLACK, WHITE

from .shogi import Shogi, ShogiBoard

NOP = (0,)          # promotion options of a move that cannot promote: stays as it is
_SHARED: dict = {}
_SHARED_KEYS = ("_comp", "_eff", "_silver", "_demotes", "_n", "_po", "_zone", "_beyond")
FORMS = ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")


class NotakeShogi(ShogiBoard):
    """Base of the six forms; ``form`` selects the acting geometry."""
    form = ""
    hands = True                # only so that FEN shows the empty hand `[-]`; never filled
    repetition_count = 4
    stalemate_result = "draw"
    check_hook = True
    fast_legality = False

    check_ok_repetition = Shogi.check_ok_repetition   # fourfold; perpetual checker loses

    def hand_order(self):
        """No piece type can be held: the GUI is told `pocket 0`, FEN still shows `[-]`."""
        return []

    def __init__(self):
        super().__init__()
        if self.form not in FORMS:
            raise ValueError(f"unknown Notake form ({self.form})")
        self.name = f"notake-{self.form}"
        n = self.geometry.size
        ncodes = 2 * len(self.piece_types)
        # The generic generator walks these (empty) tables and finds nothing: every move,
        # plain or acting, comes from extra_moves.  `tables` keeps the real shogi tables.
        empty = PieceTables(0, n)
        self._table_list = [empty] * ncodes
        self._promo = {}
        shared = _SHARED.get("data")
        if shared is None:                    # form-independent: built once for all six
            self._build_components()
            self._build_effects()
            self._build_promotion_lists()
            self._build_beyond()
            _SHARED["data"] = {k: getattr(self, k) for k in _SHARED_KEYS}
        else:
            for k in _SHARED_KEYS:
                setattr(self, k, shared[k])
        self._fixed, self._rays = self._build_check_tables()
        self.extra_moves = getattr(self, "_gen_" + self.form)
        self._undo_kind = {"approach": 0, "withdraw": 0, "overtake": 0,
                           "tow": 1, "shunt": 2, "rifle": 3}[self.form]

    # ---- compiled data ----------------------------------------------------------------
    def _build_components(self):
        """_comp[code][cell] = (leaps, rides); leap = (t, t+u or -1, s-u or -1),
        ride = (ray cells, s-u or -1).  Vectors as compile_piece orients them."""
        geo = self.geometry
        n = geo.size
        comp = [None] * (2 * len(self.piece_types))
        for pt in self.piece_types:
            if pt is None:
                continue
            for color in (WHITE, BLACK):
                orient = self.orient if color else (lambda v: v)
                per_cell = []
                for s in range(n):
                    coord = self.white_coord(geo.coords[s], color)
                    leaps, rides = [], []
                    for atom in pt.atoms:
                        for v0 in atom.vectors_at(coord):
                            u = orient(v0)
                            back = geo.step(s, tuple(-a for a in u))
                            back = -1 if back is None else back
                            if atom.kind == LEAP:
                                t = geo.step(s, u)
                                if t is None:
                                    continue
                                t2 = geo.step(t, u)
                                leaps.append((t, -1 if t2 is None else t2, back))
                            elif atom.kind == RIDE:
                                ray = geo.ray(s, u, atom.max_dist)
                                if ray:
                                    rides.append((tuple(ray), back))
                            else:
                                raise ValueError("Notake pieces are leapers and riders")
                    per_cell.append((tuple(leaps), tuple(rides)))
                comp[pt.id * 2 + color] = per_cell
        self._comp = comp

    def _build_effects(self):
        """_eff[side][code]: the code an action by `side` turns `code` into; 0 = not actable."""
        nc = 2 * len(self.piece_types)
        eff = [[0] * nc, [0] * nc]
        for pt in self.piece_types:
            if pt is None:
                continue
            for col in (WHITE, BLACK):
                code = pt.id * 2 + col
                for side in (WHITE, BLACK):
                    if col != side:
                        if pt.promoted:      # demote, owner kept
                            eff[side][code] = self.by_token[pt.demotes_to].id * 2 + col
                        else:                # recruit, type and status kept
                            eff[side][code] = pt.id * 2 + side
                    elif pt.extra.get("promotes"):   # own unpromoted promotable: promote
                        eff[side][code] = self.by_token[pt.extra["promotes"]].id * 2 + side
        self._eff = eff
        silver = self.by_token["S"].id
        self._silver = [code >> 1 == silver for code in range(nc)]
        # _demotes[side][code]: acting on it by `side` leaves it hostile (an enemy promoted piece)
        self._demotes = [[bool(c >= 2 and self.piece_types[c >> 1] is not None and c & 1 != side
                               and self.piece_types[c >> 1].promoted) for c in range(nc)]
                         for side in (WHITE, BLACK)]

    def _build_promotion_lists(self):
        """_po[code][s*n+t]: type ids of the plain move s->t (0 = stays); zone lists."""
        n = self.geometry.size
        self._n = n
        nc = 2 * len(self.piece_types)
        flat_nop = [NOP] * (n * n)
        po = [flat_nop] * nc
        for pt in self.piece_types:
            if pt is None or not pt.extra.get("promotes"):
                continue
            for col in (WHITE, BLACK):
                code = pt.id * 2 + col
                lst = [NOP] * (n * n)
                for s in range(n):
                    leaps, rides = self._comp[code][s]
                    reach = {c for t, t2, back in leaps for c in (t, t2) if c >= 0}
                    reach.update(c for ray, back in rides for c in ray)
                    for t in reach:
                        opts = self.promotion_options(code, s, t)
                        if opts:
                            lst[s * n + t] = tuple(opts)
                po[code] = lst
        self._po = po
        self._zone = [[self.in_zone(c, col) for c in range(n)] for col in (WHITE, BLACK)]

    def _build_beyond(self):
        """_beyond[s*n+t] = t + unit(t - s): where a shunted piece goes."""
        geo = self.geometry
        n = geo.size
        bey = [-1] * (n * n)
        for s in range(n):
            xs, ys = geo.coords[s]
            for t in range(n):
                if t == s:
                    continue
                xt, yt = geo.coords[t]
                dx, dy = xt - xs, yt - ys
                g = gcd(abs(dx), abs(dy))
                c = geo.index.get((xt + dx // g, yt + dy // g))
                bey[s * n + t] = -1 if c is None else c
        # the unit of a step/leap is the whole vector: it must be primitive for this table
        for per_cell in self._comp:
            for s, (leaps, rides) in enumerate(per_cell or ()):
                for t, t2, back in leaps:
                    if bey[s * n + t] != t2:
                        raise ValueError("Notake leaps must have primitive vectors")
        self._beyond = bey

    def _build_check_tables(self):
        """Inverse tables per attacking colour, indexed by the King's cell:
        fixed[k] = ((source cell, cell that must be empty or -1, codes), ...)
        rays[k]  = ((cells outward from k, codes per index, cell that must be empty or -1), ...)
        A piece of those codes at the source (fixed) or as the first piece met on the ray has
        an acting move on k in this form (rules/notake.md §5)."""
        geo = self.geometry
        n = geo.size
        form = self.form
        out_fixed, out_rays = [], []
        for color in (WHITE, BLACK):
            fixed = [dict() for _ in range(n)]
            rays = [dict() for _ in range(n)]

            def add_fixed(k, s, e, code):
                fixed[k].setdefault((s, e), set()).add(code)

            def add_ray(k, s, code, min_index, e):
                w = tuple(a - b for a, b in zip(geo.coords[s], geo.coords[k]))
                g = gcd(*(abs(x) for x in w))
                w = tuple(x // g for x in w)              # unit from k toward the attacker
                idx = g - 1
                if idx < min_index:
                    return
                d = rays[k].setdefault((w, e), {})
                d.setdefault(idx, set()).add(code)

            for code in range(2 * len(self.piece_types)):
                if code & 1 != color or self._comp[code] is None:
                    continue
                for s in range(n):
                    leaps, rides = self._comp[code][s]
                    for t, t2, back in leaps:
                        if form == "approach":
                            if t2 >= 0:
                                add_fixed(t2, s, t, code)
                        elif form in ("withdraw", "tow"):
                            if back >= 0:
                                add_fixed(back, s, t, code)
                        elif form in ("shunt", "overtake"):
                            if t2 >= 0:
                                add_fixed(t, s, t2, code)
                        else:
                            add_fixed(t, s, -1, code)
                    for ray, back in rides:
                        if form == "approach":
                            for k in ray[1:]:
                                add_ray(k, s, code, 1, -1)
                        elif form in ("withdraw", "tow"):
                            if back >= 0:
                                add_fixed(back, s, ray[0], code)
                        elif form in ("shunt", "overtake"):
                            for i, k in enumerate(ray[:-1]):
                                add_ray(k, s, code, 0, ray[i + 1])
                        else:
                            for k in ray:
                                add_ray(k, s, code, 0, -1)
            fx = [tuple((s, e, frozenset(c)) for (s, e), c in fixed[k].items()) for k in range(n)]
            rs = []
            for k in range(n):
                entries = []
                for (w, e), d in rays[k].items():
                    cells = geo.ray(k, w)
                    top = max(d) + 1
                    sets = tuple(frozenset(d.get(i, ())) for i in range(top))
                    entries.append((tuple(cells[:top]), sets, e))
                rs.append(tuple(entries))
            out_fixed.append(fx)
            out_rays.append(rs)
        return out_fixed, out_rays

    # ---- check ------------------------------------------------------------------------
    def attacked_by(self, b, k, by):
        """Has a piece of colour `by` an acting move on cell k (board list b)?"""
        if k < 0:
            return False
        for s, e, codes in self._fixed[by][k]:
            if b[s] in codes and (e < 0 or not b[e]):
                return True
        for cells, sets, e in self._rays[by][k]:
            if e >= 0 and b[e]:
                continue
            i = 0
            for c in cells:
                p = b[c]
                if p:
                    if p in sets[i]:
                        return True
                    break
                i += 1
        return False

    def in_check(self, pos, side):
        return self.attacked_by(pos.board, pos.king[side], side ^ 1)

    def legal_moves(self, pos, pseudo):
        """Make / check test / unmake, skipped for moves that provably cannot expose the King.
        A check needs an enemy piece plus some empty cells, and filling a cell only blocks;
        so when not in check only these can create one: moving the King; vacating a cell
        that matters to a check pattern of the King (the mover's start, a towed piece's
        cell); demoting an enemy piece (it stays hostile and moves differently).  The cells
        that matter: the cell that must be empty for a fixed-source check whose source holds
        a piece able to give it; on an inverse ray, the first piece when an able piece stands
        right behind it, or, when the first piece is itself able, that piece and the cell
        that must be empty beyond the King."""
        side = pos.side
        them = side ^ 1
        b = pos.board
        king = pos.king
        k = king[side]
        chk = self.attacked_by
        make, unmake = pos.make, pos.unmake
        out = []
        app = out.append
        if k >= 0 and not chk(b, k, them):
            rel = set()
            for src, e, codes in self._fixed[them][k]:
                if e >= 0 and b[src] in codes:
                    rel.add(e)
            for cells, sets, e in self._rays[them][k]:
                n = len(cells)
                i = 0
                while i < n and not b[cells[i]]:
                    i += 1
                if i == n:
                    continue
                f = cells[i]
                if b[f] in sets[i]:          # an attacker, held off only by an occupied e
                    rel.add(f)
                    rel.add(e)
                elif e < 0 or not b[e]:      # vacating f would expose an attacker behind it
                    j = i + 1
                    while j < n and not b[cells[j]]:
                        j += 1
                    if j < n and b[cells[j]] in sets[j]:
                        rel.add(f)
            dem = self._demotes[side]
            kind = self._undo_kind
            for m in pseudo:
                s = (m >> 8) & 255
                if m & SPECIAL:
                    a = ((m >> 24) & 255) - 1
                    if not dem[b[a]]:
                        if kind == 3:                    # rifle: nothing moves
                            app(m)
                            continue
                        if s != k and s not in rel and not (kind == 1 and a in rel):
                            app(m)
                            continue
                elif s != k and s not in rel:
                    app(m)
                    continue
                make(m)
                if not chk(b, king[side], them):
                    app(m)
                unmake()
            return out
        for m in pseudo:
            make(m)
            if not chk(b, king[side], them):
                app(m)
            unmake()
        return out

    # ---- searcher support ------------------------------------------------------------
    @staticmethod
    def is_tactical(pos, m) -> bool:
        """Acting moves change material (recruit/demote/promote): treat them like captures."""
        return bool(m & SPECIAL)

    def acted_result(self, pos, m) -> int:
        """The code the acted-on piece of an acting move ends with (for move ordering)."""
        return self._eff[pos.side][pos.board[((m >> 24) & 255) - 1]]

    # ---- move generation (one generator per form) ----------------------------------------
    def _gen_approach(self, pos, out):
        b = pos.board
        side = pos.side
        eff = self._eff[side]
        Z = self._zone[side]
        comp, pol, silv = self._comp, self._po, self._silver
        n = self._n
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            leaps, rides = comp[code][s]
            PO = pol[code]
            base = s << 8
            row = s * n
            for t, t2, back in leaps:
                if b[t]:
                    continue
                opts = PO[row + t]
                for o in opts:
                    app(base | t | (o << 16))
                if t2 >= 0 and eff[b[t2]]:
                    if silv[code] and len(opts) == 2 and not (Z[t] or Z[t2]):
                        opts = NOP
                    m = base | t | ((t2 + 1) << 24) | SPECIAL
                    for o in opts:
                        app(m | (o << 16))
            for ray, back in rides:
                prev = -1
                for t in ray:
                    p = b[t]
                    if p:
                        if prev >= 0 and eff[p]:
                            m = base | prev | ((t + 1) << 24) | SPECIAL
                            for o in PO[row + prev]:
                                app(m | (o << 16))
                        break
                    for o in PO[row + t]:
                        app(base | t | (o << 16))
                    prev = t

    def _gen_withdraw(self, pos, out):
        b = pos.board
        side = pos.side
        eff = self._eff[side]
        Z = self._zone[side]
        comp, pol, silv = self._comp, self._po, self._silver
        n = self._n
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            leaps, rides = comp[code][s]
            PO = pol[code]
            base = s << 8
            row = s * n
            for t, t2, back in leaps:
                if b[t]:
                    continue
                opts = PO[row + t]
                for o in opts:
                    app(base | t | (o << 16))
                if back >= 0 and eff[b[back]]:
                    if silv[code] and len(opts) == 2 and not (Z[t] or Z[back]):
                        opts = NOP
                    m = base | t | ((back + 1) << 24) | SPECIAL
                    for o in opts:
                        app(m | (o << 16))
            for ray, back in rides:
                act = ((back + 1) << 24) | SPECIAL if back >= 0 and eff[b[back]] else 0
                for t in ray:
                    if b[t]:
                        break
                    opts = PO[row + t]
                    for o in opts:
                        app(base | t | (o << 16))
                    if act:
                        for o in opts:
                            app(base | t | act | (o << 16))

    _gen_tow = _gen_withdraw

    def _gen_shunt(self, pos, out):
        b = pos.board
        side = pos.side
        eff = self._eff[side]
        Z = self._zone[side]
        comp, pol, silv = self._comp, self._po, self._silver
        n = self._n
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            leaps, rides = comp[code][s]
            PO = pol[code]
            base = s << 8
            row = s * n
            for t, t2, back in leaps:
                p = b[t]
                opts = PO[row + t]
                if not p:
                    for o in opts:
                        app(base | t | (o << 16))
                elif t2 >= 0 and eff[p] and not b[t2]:
                    if silv[code] and len(opts) == 2 and not Z[t]:
                        opts = NOP
                    m = base | t | ((t + 1) << 24) | SPECIAL
                    for o in opts:
                        app(m | (o << 16))
            for ray, back in rides:
                last = len(ray) - 1
                i = 0
                for t in ray:
                    p = b[t]
                    if p:
                        if i < last and eff[p] and not b[ray[i + 1]]:
                            m = base | t | ((t + 1) << 24) | SPECIAL
                            for o in PO[row + t]:
                                app(m | (o << 16))
                        break
                    for o in PO[row + t]:
                        app(base | t | (o << 16))
                    i += 1

    def _gen_overtake(self, pos, out):
        b = pos.board
        side = pos.side
        eff = self._eff[side]
        Z = self._zone[side]
        comp, pol, silv = self._comp, self._po, self._silver
        n = self._n
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            leaps, rides = comp[code][s]
            PO = pol[code]
            base = s << 8
            row = s * n
            for t, t2, back in leaps:
                p = b[t]
                if not p:
                    for o in PO[row + t]:
                        app(base | t | (o << 16))
                elif t2 >= 0 and eff[p] and not b[t2]:
                    opts = PO[row + t2]
                    if silv[code] and len(opts) == 2 and not (Z[t2] or Z[t]):
                        opts = NOP
                    m = base | t2 | ((t + 1) << 24) | SPECIAL
                    for o in opts:
                        app(m | (o << 16))
            for ray, back in rides:
                i = 0
                for t in ray:
                    p = b[t]
                    if p:
                        if eff[p]:
                            act = base | ((t + 1) << 24) | SPECIAL
                            for c in ray[i + 1:]:
                                if b[c]:
                                    break
                                for o in PO[row + c]:
                                    app(act | c | (o << 16))
                        break
                    for o in PO[row + t]:
                        app(base | t | (o << 16))
                    i += 1

    def _gen_rifle(self, pos, out):
        b = pos.board
        side = pos.side
        eff = self._eff[side]
        comp, pol = self._comp, self._po
        n = self._n
        app = out.append
        for s in pos.occ[side]:
            code = b[s]
            leaps, rides = comp[code][s]
            PO = pol[code]
            base = s << 8
            row = s * n
            stay = base | s | SPECIAL
            for t, t2, back in leaps:
                p = b[t]
                if not p:
                    for o in PO[row + t]:
                        app(base | t | (o << 16))
                elif eff[p]:
                    app(stay | ((t + 1) << 24))
            for ray, back in rides:
                for t in ray:
                    p = b[t]
                    if p:
                        if eff[p]:
                            app(stay | ((t + 1) << 24))
                        break
                    for o in PO[row + t]:
                        app(base | t | (o << 16))

    # ---- make / unmake of acting moves ----------------------------------------------------
    def make_special(self, pos, m):
        side = pos.side
        t = m & 255
        s = (m >> 8) & 255
        a = ((m >> 24) & 255) - 1
        pt = (m >> 16) & 255
        kings = (pos.king[0], pos.king[1])
        eff = self._eff[side]
        kind = self._undo_kind
        b = pos.board
        if kind == 3:                                   # rifle: the mover stays
            ac = b[a]
            pos.clear(a)
            pos.put(a, eff[ac])
            pos.halfmove = 0
            return (0, ac, -1, kings)
        code = pos.clear(s)
        new = pt * 2 + side if pt else code
        if kind == 0:                                   # approach, withdraw, overtake
            ac = pos.clear(a)
            pos.put(t, new)
            pos.put(a, eff[ac])
            dest = a
        elif kind == 1:                                 # tow: the acted piece follows to s
            ac = pos.clear(a)
            pos.put(t, new)
            pos.put(s, eff[ac])
            dest = s
        else:                                           # shunt: pushed one unit beyond t
            ac = pos.clear(t)
            dest = self._beyond[s * self._n + t]
            pos.put(t, new)
            pos.put(dest, eff[ac])
        pos.halfmove = 0
        return (code, ac, dest, kings)

    def unmake_special(self, pos, m, undo):
        code, ac, dest, kings = undo
        t = m & 255
        s = (m >> 8) & 255
        a = ((m >> 24) & 255) - 1
        if dest < 0:                                    # rifle
            pos.clear(a)
            pos.put(a, ac)
        else:
            pos.clear(dest)
            if dest != t:
                pos.clear(t)
            pos.put(s, code)
            pos.put(a, ac)
        pos.king[0], pos.king[1] = kings

    # ---- position text ------------------------------------------------------------------
    def validate_position(self, pos):
        from protocol.position_text import PositionTextError
        if any(pos.hand):
            from protocol.position_text import code_token
            held = "".join(code_token(self, code) * n for code, n in enumerate(pos.hand) if n)
            raise PositionTextError(f"Notake Shogi has no hands: the hand field must be '-' ({held})")
        kings = [[c for c, p in enumerate(pos.board)
                  if p and self.piece_types[p >> 1].royal and p & 1 == col] for col in (0, 1)]
        for col, who in ((0, "sente"), (1, "gote")):
            if len(kings[col]) != 1:
                raise PositionTextError(f"each side needs exactly one king ({who} kings: {len(kings[col])})")
        other = pos.side ^ 1
        if self.attacked_by(pos.board, kings[other][0], pos.side):
            who = "sente" if other == 0 else "gote"
            raise PositionTextError(f"the side not to move is in check "
                                    f"({who} king on {self.geometry.name(kings[other][0], self.default_dialect)})")


def _form_class(form: str):
    return type(f"Notake{form.capitalize()}", (NotakeShogi,),
                {"form": form, "name": f"notake-{form}",
                 "__doc__": f"Notake Shogi, {form} form (rules/notake.md)."})


VARIANTS = {f"notake-{f}": _form_class(f) for f in FORMS}
