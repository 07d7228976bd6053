"""Notake Shogi's acting moves as plugins, one per form (docs/variants/notake.md): a section
names its form with ``actingMoves = approach`` (``withdraw``, ``shunt``, ``tow``, ``overtake``,
``rifle``); the board, the pieces, the start position and the promotion of pieces are the
section's data (variants/files/notake.ini).

Nothing is ever captured.  Plain moves go to empty cells only.  Besides them, each form has
*acting* moves that act on exactly one piece: an enemy piece is recruited (changes sides) or,
when promoted, demoted; an own unpromoted promotable piece is promoted.  Where the acted-on
piece must be relative to the mover's line of movement differs per form (docs/variants/
notake.md, "The game in short"):

  approach   the piece one unit beyond the destination
  withdraw   the piece one unit behind the start
  tow        as withdraw, and the acted-on piece follows into the vacated start cell
  shunt      the mover stops on the piece's cell and pushes it one unit further
  overtake   the mover jumps the piece and lands beyond it
  rifle      the mover stays and acts on what shogi would let it capture

A King is in check when an enemy piece has an acting move on it (pins ignored).  Fourfold
repetition draws, and the side that checked with every move of the cycle loses (shogi's rule,
``Shogi.check_ok_repetition``).

Implementation: the generic table move generator would produce captures, so it is given
empty tables and every move comes from ``extra_moves``, which walks per-cell *component*
tables compiled here from the same piece atoms (a component is one line of movement with its
unit vector; notake_walker.py).  Acting moves carry the flag SPECIAL and the acted-on cell;
the mover's promotion is the move's type field.  ``in_check`` uses inverse tables built per
form from the same components, and ``legal_moves`` filters by make / check test / unmake,
but only the moves that could expose the King.
"""
from __future__ import annotations

from math import gcd

from engine.geometry import Geometry
from engine.movegen import attacked_with
from engine.moves import ACTED_SHIFT, CELL, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT
from engine.pieces import LEAP, RIDE
from engine.tables import PieceTables
from engine.variant import BLACK, WHITE
from variants.inifile.values import in_region
from variants.shogi import Shogi, ShogiText

from . import Plugin, PluginError
from .notake_walker import build_walk_tables, walk
from variants.inifile.filevariant import RuleBase

NOP = (0,)          # promotion options of a move that cannot promote: stays as it is
_SHARED: dict = {}  # form-independent tables, by the section's pieces and board
_SHARED_KEYS = ("_comp", "_eff", "_silver", "_demotes", "_n", "_po", "_zone", "_beyond")
FORMS = ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")


class NotakeText(ShogiText):
    """Shogi text (SFEN under USI, hand order R B G S N L P); no piece type can be held: the
    GUI is told ``pocket 0``, the hand is written ``-`` (SFEN) and ``[-]`` (FEN)."""

    def hand_order(self):
        return []

    def sfen_hand_order(self):
        return ShogiText.hand_order(self)


class Notake(Plugin, RuleBase):
    """Base of the six forms; ``_form`` selects the acting geometry."""
    plugin_key = "actingMoves"
    _form = ""
    notation_class = NotakeText
    template = "shogi"
    check_hook = True
    fast_legality = False
    acts_elsewhere = True       # the acting moves recruit, demote or promote another piece
    # its own legality test covers what the drop keys' move filter would check (a piece
    # left without moves, promotion): acting moves are not the moves that filter reads
    plugin_replaces = frozenset({"legal_moves"})

    check_ok_repetition = Shogi.check_ok_repetition   # fourfold; perpetual checker loses

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        for key in ("capturesToHand", "dropLoop"):
            if keys.get(key, "false").lower() in ("true", "1", "yes"):
                raise PluginError(key, "Notake Shogi captures nothing", keys[key])
        if keys.get("pieceDrops", "false").lower() not in ("true", "1", "yes"):
            raise PluginError("pieceDrops" if "pieceDrops" in keys else "actingMoves",
                              "Notake Shogi writes the (always empty) hand: needs pieceDrops = true",
                              keys.get("pieceDrops", cls.plugin_name))
        if "promotedPieceType" not in keys:
            raise PluginError("actingMoves", "Notake Shogi needs promotedPieceType "
                              "(what an acting move promotes)", cls.plugin_name)

    def __init__(self):
        super().__init__()
        from engine.notation.position_text import format, parse
        g = self.geometry
        files, ranks = self.files, self.ranks
        usi = [f"{files - x}{chr(97 + ranks - 1 - y)}" for x, y in g.coords]  # shogi's: 9a .. 1i
        self.geometry = Geometry(g.coords, g.names, {**g.alt_names, "usi": usi})
        shared_key = (self.pieces, self.files, self.ranks,
                      tuple(sorted(self.promoted_of.items())), self.promo_region)
        shared = _SHARED.get(shared_key)
        if shared is None:                    # form-independent: built once for all six
            self._build_components()
            self._build_effects()
            self._build_promotion_lists()
            self._build_beyond()
            _SHARED[shared_key] = {k: getattr(self, k) for k in _SHARED_KEYS}
        else:
            for k in _SHARED_KEYS:
                setattr(self, k, shared[k])
        self._fixed, self._rays = self._build_check_tables()
        self._atk = self._core_attack_tables()
        self._walk_tables = build_walk_tables(self, self._form, NOP)
        self._undo_kind = {"approach": 0, "withdraw": 0, "overtake": 0,
                           "tow": 1, "shunt": 2, "rifle": 3}[self._form]
        self.start_sfen = format(parse(self, self.start_fen), "sfen")

    # ---- frames and compiled data -----------------------------------------------------------
    def orient(self, v):
        """Black's vectors are White's mirrored front to back (every Notake piece is symmetric,
        so this is the half turn of the file; it keeps the order moves are listed in)."""
        return (v[0], -v[1])

    def build_generator_tables(self):
        """The generic generator walks empty tables and finds nothing: every move, plain or
        acting, comes from extra_moves.  ``tables`` keeps the pieces' real tables."""
        return [PieceTables(0, self.geometry.size)] * (2 * len(self.piece_types))

    def build_promotions(self):
        """Promotions are generated by the form's own walker, not the generic table."""
        return {}

    def extra_moves(self, pos, out):
        """Every move of the position, by the one walker over this form's tables."""
        walk(self._walk_tables, self._eff[pos.side], pos, out)

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

    def _promotes_to(self, pt):
        """The promoted type id of an unpromoted piece of promotedPieceType, else 0."""
        letter = None if pt.promoted else self.promoted_of.get(pt.token.lower())
        return self.by_token["+" + pt.token].id if letter else 0

    def _build_effects(self):
        """_eff[side][code]: the code an action by `side` turns `code` into; 0 = not actable."""
        types = self.piece_types
        nc = 2 * len(types)
        eff = [[0] * nc, [0] * nc]
        for pt in types:
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
                    elif self._promotes_to(pt):   # own unpromoted promotable: promote
                        eff[side][code] = self._promotes_to(pt) * 2 + side
        self._eff = eff
        silver = self.by_token["S"].id if "S" in self.by_token else -1
        self._silver = [code >> 1 == silver for code in range(nc)]
        # _demotes[side][code]: acting on it by `side` leaves it hostile (an enemy promoted piece)
        self._demotes = [[bool(c >= 2 and types[c >> 1] is not None and c & 1 != side
                               and types[c >> 1].promoted) for c in range(nc)]
                         for side in (WHITE, BLACK)]

    def _build_promotion_lists(self):
        """_po[code][s*n+t]: type ids of the plain move s->t (0 = stays); zone lists."""
        geo = self.geometry
        n = geo.size
        self._n = n
        nc = 2 * len(self.piece_types)
        flat_nop = [NOP] * (n * n)
        po = [flat_nop] * nc
        for pt in self.piece_types:
            if pt is None or not self._promotes_to(pt):
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
        self._zone = [[in_region(geo.coords[c], self.promo_region[col]) for c in range(n)]
                      for col in (WHITE, BLACK)]

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
            for s, (leaps, _rides) in enumerate(per_cell or ()):
                for t, t2, _back in leaps:
                    if bey[s * n + t] != t2:
                        raise ValueError("Notake leaps must have primitive vectors")
        self._beyond = bey

    def _build_check_tables(self):
        """Inverse tables per attacking colour, indexed by the King's cell:
        fixed[k] = ((source cell, cell that must be empty or -1, codes), ...)
        rays[k]  = ((cells outward from k, codes per index, cell that must be empty or -1), ...)
        A piece of those codes at the source (fixed) or as the first piece met on the ray has
        an acting move on k in this form (docs/variants/notake.md, "Check and the end of the
        game")."""
        geo = self.geometry
        n = geo.size
        form = self._form
        out_fixed, out_rays = [], []
        for color in (WHITE, BLACK):
            fixed = [dict() for _ in range(n)]
            rays = [dict() for _ in range(n)]

            def add_fixed(k, s, e, code, fixed=fixed):
                fixed[k].setdefault((s, e), set()).add(code)

            def add_ray(k, s, code, min_index, e, rays=rays):
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
    def _attacked_by(self, b, k, by):
        """Has a piece of colour `by` an acting move on cell k (board list b)?"""
        return k >= 0 and attacked_with(self._atk[by], b, k)

    def _core_attack_tables(self):
        """The check tables in the core's attack-table form, for ``movegen.attacked_with``: a
        fixed source with a cell that must be empty becomes the two-cell walk (that cell,
        the source); a ray with such a cell starts with it.  Per colour."""
        none = frozenset()
        out = []
        for fixed, rays in zip(self._fixed, self._rays):
            leaps, walks = [], []
            for k in range(len(fixed)):
                leaps.append(tuple((s, codes) for s, e, codes in fixed[k] if e < 0))
                w = [((e, s), (none, codes)) for s, e, codes in fixed[k] if e >= 0]
                w += [((e,) + cells, (none,) + sets) if e >= 0 else (cells, sets)
                      for cells, sets, e in rays[k]]
                walks.append(tuple(w))
            out.append((leaps, walks, [], None))    # (no pins, no hops)
        return out

    def in_check(self, pos, side):
        return self._attacked_by(pos.board, pos.king[side], side ^ 1)

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
        chk = self._attacked_by
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
                s = (m >> FROM_SHIFT) & CELL
                if m & SPECIAL:
                    a = ((m >> ACTED_SHIFT) & CELL) ^ s
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
        return self._eff[pos.side][pos.board[((m >> ACTED_SHIFT) & CELL) ^ ((m >> FROM_SHIFT) & CELL)]]

    # ---- make / unmake of acting moves ----------------------------------------------------
    def make_special(self, pos, m):
        side = pos.side
        t = m & CELL
        s = (m >> FROM_SHIFT) & CELL
        a = ((m >> ACTED_SHIFT) & CELL) ^ s
        pt = (m >> TYPE_SHIFT) & TYPE_MASK
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
        t = m & CELL
        s = (m >> FROM_SHIFT) & CELL
        a = ((m >> ACTED_SHIFT) & CELL) ^ s
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
        """No piece in hand (ruling 17), one King a side, the side not to move not in check
        by Notake's own check test.  It replaces the section's checks (not chained: those
        find check as an attack by capture, which Notake has not)."""
        from engine.notation.position_text import PositionTextError
        if any(pos.hand):
            from engine.notation.position_text import code_token
            held = "".join(code_token(self, code) * n for code, n in enumerate(pos.hand) if n)
            raise PositionTextError(f"Notake Shogi has no hands: the hand field must be '-' ({held})")
        types = self.piece_types
        kings = [[c for c, p in enumerate(pos.board)
                  if p and types[p >> 1].royal and p & 1 == col] for col in (0, 1)]
        for col, who in ((0, "sente"), (1, "gote")):
            if len(kings[col]) != 1:
                raise PositionTextError(f"each side needs exactly one king ({who} kings: {len(kings[col])})")
        other = pos.side ^ 1
        if self._attacked_by(pos.board, kings[other][0], pos.side):
            who = "sente" if other == 0 else "gote"
            name = self.geometry.name(kings[other][0], self.notation.dialect)
            raise PositionTextError(f"the side not to move is in check ({who} king on {name})")


def _form_class(form: str) -> type[Notake]:
    return type(f"Notake{form.capitalize()}", (Notake,),
                {"plugin_name": form, "_form": form,
                 "__doc__": f"Notake Shogi, {form} form (docs/variants/notake.md)."})


Approach, Withdraw, Shunt, Tow, Overtake, Rifle = (_form_class(f) for f in FORMS)
