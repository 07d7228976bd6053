"""Generic evaluation derived from the variant's data.

Piece values come from mobility: the average number of moves a lone piece has over all
cells, counted on a board where every cell is occupied with a fixed probability (so long
rays count less than on an empty board, as they do in play), then mapped to centipawns by a
slightly convex curve.  For FIDE chess this gives about P 100, N 300, B 330, R 480, Q 990.
A variant may fix a piece's value instead (``PieceType.value``; shogi does, since every
captured piece returns as a drop, which mobility cannot see).

Per-cell tables (precomputed, and summed over the pieces by ``make`` as it moves them, see
``Evaluator.prime``, so evaluating reads a kept sum instead of walking the board):
* centralisation: a piece's own empty-board move count on that cell relative to its average
  (weighted down for heavy pieces);
* advancement: pieces that promote get a bonus that grows as their distance (in their own
  moves) to a promotion shrinks;
* royal pieces: in the middlegame they stay near their home rank and away from the centre
  file, in the endgame they centralise; the two tables are blended by the phase (non-pawn
  material left on the board and in hand).  Their home rank lies along the axis the second
  player sees reversed (on a board turned half a turn, as file variants orient it: the axis
  the royals start apart on).
A variant may declare its own square tables (``Variant.square_tables``; chess does): a value
and a bonus per cell for the middlegame and for the ending, packed in one int per cell and
blended by the phase; they replace the generic tables of those pieces (and the royal blend).
Counted per position:
* pawn structure and files, where the variant declares them (``Variant.structure``, see
  ``structure.py``; chess does): doubled and isolated pawns, the bishop pair, rooks on open
  and half-open files;
* royal safety in drop games (2D, with hands, check as an attack on the royal piece): in the
  middlegame, own pieces beside the royal guard it and enemy pieces within two steps of it
  count against it, scaled by the phase.
Pieces in hand are valued a little above their board value (a drop goes anywhere).  Variants
add their own terms (win conditions, paralysis ...) through ``Variant.eval_terms(pos)``.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .notation import NotationError
from .position import Position
from .undo import NO_SUM
from .structure import WORD_BITS, WORD_MASK, StructureTables
from .tables import PieceTables, reachable

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from .variant import Variant

DENSITY = 0.35        # chance that a cell is occupied, for the mobility count


def _mobility(tab: PieceTables, s: int, p: float = DENSITY) -> float:
    """Expected number of moves of a lone piece on cell s with blockers of density p."""
    q = 1.0 - p
    n = len(tab.leaps[s]) + len(tab.mleaps[s]) * q + len(tab.cleaps[s]) * p * 0.5
    for r in tab.rides[s]:
        n += (1 - q ** len(r)) / p
    for r in tab.mrides[s]:
        n += q * (1 - q ** len(r)) / p
    for r in tab.crides[s]:
        n += 0.5 * (1 - q ** len(r))
    for _r, st, mode, _flag in tab.special[s]:
        w = q if mode == "move" else (p * 0.5 if mode == "capture" else 1.0)
        n += sum(w * q ** k for k, ok in enumerate(st) if ok)
    for _c1, stop1, rays in tab.bent[s]:
        n += stop1
        for r in rays:
            n += q * (1 - q ** len(r)) / p
    best: dict[int, float] = {}     # zigzags cross: a cell counts once, by its likeliest path
    for r, st, mode in tab.paths[s]:
        w = q if mode == "move" else (p * 0.5 if mode == "capture" else 1.0)
        for k, t in enumerate(r):
            if st[k]:
                best[t] = max(best.get(t, 0.0), w * q ** k)
    n += sum(best.values())
    for r, _st, mode, beyond in tab.hops[s]:
        # a screen at i (chance q**i * p), then cells beyond it as a ride (capped by beyond)
        w = q if mode == "move" else (p * 0.5 if mode == "capture" else 1.0)
        for i in range(len(r) - 1):
            rest = len(r) - 1 - i if beyond is None else min(beyond, len(r) - 1 - i)
            n += q ** i * p * w * (1 - q ** rest) / p
    return n


def _cells(bits: int) -> list[int]:
    """The cells of a bit mask, lowest first.  Read WORD_BITS cells at a time: compiled, a
    mask wider than 62 bits is an object, and each operation on it a new one, so the bits
    are taken apart within a word that is a plain int."""
    out = []
    base = 0
    while bits:
        w = bits & WORD_MASK
        bits >>= WORD_BITS
        while w:
            low = w & -w
            out.append(base + low.bit_length() - 1)
            w ^= low
        base += WORD_BITS
    return out


def piece_value(avg_mobility: float) -> int:
    return int(max(100.0, 35.0 * avg_mobility ** 1.3))


class Evaluator:
    CENTRE = 4.0         # centipawns per move above the piece's average (empty board)
    TEMPO = 10

    def __init__(self, variant: Variant, start: Position | None = None) -> None:
        """``start``: the start array, for the royal tables and the game phase (default: the
        variant's own start position, if it has one)."""
        self.variant = v = variant
        if start is None:
            try:
                start = v.start_position()
            except NotationError:          # a test variant without a start array
                start = None
        self.start = start
        # read at every evaluation: an interpreted Variant's attribute is a dictionary lookup
        self.hands = bool(v.hands)
        geo = v.geometry
        n = geo.size
        ncodes = 2 * len(v.piece_types)
        self.value = [0] * ncodes
        self.pst = [[0] * n for _ in range(ncodes)]
        self.royal_mg = [[0] * n for _ in range(ncodes)]
        self.royal_eg = [[0] * n for _ in range(ncodes)]
        self.phase_w = [0] * ncodes     # weight of a piece in the game phase
        self.royal = [False] * ncodes
        self.pawnish = [False] * ncodes
        tables = v.tables
        mobs = {}
        for code, tab in tables.items():
            pt = v.piece_type(code >> 1)
            mob = [_mobility(tab, s) for s in range(n)]
            nz = [m for m in mob if m]
            avg = sum(nz) / len(nz) if nz else 0.0
            mobs[code] = (mob, avg)
            if pt.value is not None:
                val = pt.value
            elif pt.royal:
                val = 0
            else:
                val = piece_value(avg)
            self.value[code] = val
            self.royal[code] = pt.royal
            self.pawnish[code] = pt.pawn
            if not pt.royal and not pt.pawn:
                self.phase_w[code] = val
        promo = v.promo
        self.promo_dist: dict[int, tuple[list[int], int, int]] = {}
        for code, tab in tables.items():
            pt = v.piece_type(code >> 1)
            mob, avg = mobs[code]
            val = self.value[code]
            row = self.pst[code]
            # centralisation from the empty-board move count (a rook is as mobile on a1 as
            # on d4 there); heavy pieces care less, so they do not rush to the centre
            raw = [len(reachable(tab, s)) for s in range(n)]
            nz = [r for r in raw if r]
            ravg = sum(nz) / len(nz) if nz else 0.0
            w = self.CENTRE * min(1.0, 400.0 / max(1, val))
            for s in range(n):
                row[s] = val + int(w * (raw[s] - ravg)) if mob[s] else val - 20
            if pt.royal:
                row[:] = [0] * n
                self.royal_eg[code] = [int(6.0 * (mob[s] - avg)) for s in range(n)]
            pr = promo.get(code)
            if pr and any(not o for o in pr.values()):
                # a move the table forbids (no choice left: a file variant's immobile piece)
                # is no promotion
                pr = {k: o for k, o in pr.items() if o}
            if pr and not pt.royal:
                gain = max(self.value[t * 2 + (code & 1)] if t else val for opts in pr.values()
                           for t in opts) - val
                if gain > 0:
                    self._advancement(code, tab, pr, gain, row)
        share = v.hand_share
        self.hand_value = [int(self.value[c] * share) for c in range(ncodes)]
        self.terms = v.eval_terms if v.rules.eval_terms else None
        self.phase_max = 0
        self.has_royal_tables = False
        self.kdist: list[list[int]] | None = None
        self.zone: list[tuple[list[int], list[int]]] | None = None
        self.has_passed = False
        self.passed_front: list[list[int] | None] = [None] * ncodes
        self.passed_bonus: list[list[int]] = [[] for _ in range(ncodes)]
        # what the one pass over the pieces collects: 1 a pawn, 2 a piece the structure
        # terms name (bishops for the pair, rooks for the open files)
        self.kind = [1 if p else 0 for p in self.pawnish]
        self.structure: StructureTables | None = None
        self._home(mobs)
        # the pawn terms depend on the pawn cells alone where each player has one kind of
        # pawn: they are kept by those cells
        # keyed by both sides' pawn cells in one mask (the first's, then the second's)
        self.pawn_cache: dict[int, tuple[int, int, int, int]] | None = None
        if all(sum(1 for c in range(side, ncodes, 2) if self.pawnish[c]) <= 1 for side in (0, 1)):
            self.pawn_cache = {}
        # the mop-up drives a lone royal to the edge by the generic ending table (kept apart
        # when square tables replace the royal blend)
        self.mop_edge = self.royal_eg
        self.packed: list[list[int]] | None = None
        if v.square_tables:
            self._square_tables(v.square_tables)
        self._accumulator_table()

    def _advancement(self, code: int, tab: PieceTables, pr: dict, gain: int, row: list[int]) -> None:
        """Bonus by the number of the piece's own moves needed to reach a promotion."""
        n = len(row)
        inf = 1 << 20
        dist = [inf] * n
        for (s, _t) in pr:
            dist[s] = 1
        adj = [reachable(tab, s) for s in range(n)]
        changed = True
        while changed:
            changed = False
            for s in range(n):
                best = dist[s]
                for t in adj[s]:
                    if dist[t] + 1 < best:
                        best = dist[t] + 1
                if best < dist[s]:
                    dist[s] = best
                    changed = True
        finite = [d for d in dist if d < inf]
        if not finite:
            return
        dmax = max(finite)
        self.promo_dist[code] = (dist, dmax, gain)
        base = gain * 0.5 / (dmax + 1) ** 2
        for s in range(n):
            if dist[s] < inf:
                row[s] += int(gain * 0.5 / (dist[s] + 1) ** 2 - base)

    def _home(self, mobs: dict) -> None:
        """Royal middlegame tables (home rank, away from the centre file) and the phase
        scale, from the start position."""
        v = self.variant
        pos = self.start
        if pos is None:
            return
        self.phase_max = sum(self.phase_w[p] for p in pos.board if p) + sum(
            self.phase_w[c] * k for c, k in enumerate(pos.hand) if k)
        # without a royal piece the tables have nothing to score (and the phase weighs
        # nothing else)
        self.has_royal_tables = self.phase_max > 0 and any(
            pt is not None and pt.royal for pt in v.piece_types)
        geo = v.geometry
        if geo.dims != 2:
            return
        if self.has_royal_tables and geo.size <= 400:
            cs = geo.coords
            self.kdist = [[max(abs(a[0] - b[0]), abs(a[1] - b[1])) for b in cs] for a in cs]
            if v.hands and v.rules.royal_attacks:
                # drop games where check is an attack on the royal: who stands around
                # each royal (see _royal_zone)
                kd = self.kdist
                self.zone = [([t for t in range(len(cs)) if kd[s][t] == 1],
                              [t for t in range(len(cs)) if kd[s][t] == 2]) for s in range(len(cs))]
        fwd = self._forward_axis(pos)
        if fwd is None:
            return
        side_axis = 1 - fwd
        xs = [c[side_axis] for c in geo.coords]
        cx = (min(xs) + max(xs)) / 2.0
        for cell, code in enumerate(pos.board):
            if code and self.royal[code]:
                home = geo.coords[cell][fwd]
                self.royal_mg[code] = [int(-15 * abs(c[fwd] - home) + 6 * abs(c[side_axis] - cx))
                                       for c in geo.coords]
        if not v.hands:
            self._passed_tables(fwd, side_axis)
            if v.structure is not None:
                self.structure = st = StructureTables(v, v.structure, side_axis)
                for code in st.codes():
                    self.kind[code] = 2

    def _forward_axis(self, pos: Position) -> int | None:
        """The rank axis: the one the second player sees reversed.  Where the board is
        turned half a turn for the second player (both axes reversed, as in shogi and the
        Knavish games), it is the axis along which the two royal pieces start apart."""
        v = self.variant
        axes = [i for i in range(2) if v.orient(tuple(1 if j == i else 0 for j in range(2)))[i] == -1]
        if len(axes) == 1:
            return axes[0]
        if len(axes) != 2:
            return None
        homes = [v.geometry.coords[c] for c, code in enumerate(pos.board) if code and self.royal[code]]
        if len(homes) != 2:
            return None
        apart = [abs(homes[0][i] - homes[1][i]) for i in range(2)]
        if apart[0] == apart[1]:
            return None
        return 0 if apart[0] > apart[1] else 1

    def _passed_tables(self, fwd: int, side_axis: int) -> None:
        """Passed pawns (pawn pieces that promote, 2D boards without hands): no enemy pawn
        on the cells ahead on the same or a neighbouring file.  Bonus by the distance to
        the promotion, half in the middlegame and full in the ending."""
        v = self.variant
        coords = v.geometry.coords
        n = len(coords)
        front = {}
        bonus = {}
        for code, (dist, dmax, gain) in self.promo_dist.items():
            if not self.pawnish[code]:
                continue
            sign = 1 if (code & 1) == 0 else -1
            fr = [0] * n
            for s, cs in enumerate(coords):
                m = 0
                for t, ct in enumerate(coords):
                    if abs(ct[side_axis] - cs[side_axis]) <= 1 and (ct[fwd] - cs[fwd]) * sign > 0:
                        m |= 1 << t
                fr[s] = m
            front[code] = fr
            base = gain * 0.3 / (dmax + 1)
            bonus[code] = [int(gain * 0.3 / (d + 1) - base) if d <= dmax else 0 for d in dist]
        if front:
            ncodes = len(self.value)
            self.passed_front = [front.get(c) for c in range(ncodes)]
            self.passed_bonus = [bonus.get(c, []) for c in range(ncodes)]
            self.has_passed = True

    PACK = 1 << 16        # a packed square value: middlegame + ending * PACK

    def _square_tables(self, tables: Mapping[str, tuple[int, int, Sequence[int], Sequence[int]]]) -> None:
        """The variant's own square values (``Variant.square_tables``), middlegame and ending
        packed in one int per cell, so evaluating stays one lookup per piece."""
        v = self.variant
        geo = v.geometry
        fwd = self._forward_axis(self.start) if self.start is not None and geo.dims == 2 else None
        if fwd is None:         # no rank axis to read them along: the generic tables stay
            return
        side_axis = 1 - fwd
        fs = [c[fwd] for c in geo.coords]
        xs = [c[side_axis] for c in geo.coords]
        lo_f, hi_f, lo_x = min(fs), max(fs), min(xs)
        width = max(xs) - lo_x + 1
        pk = self.PACK
        packed = [[p + p * pk for p in row] for row in self.pst]
        self.mop_edge = [row[:] for row in self.royal_eg]
        for token, (vmg, veg, tmg, teg) in tables.items():
            pt = v.by_token[token]
            if len(tmg) != len(teg) or len(tmg) != width * (hi_f - lo_f + 1):
                raise ValueError(f"{v.name}: the square tables of {token} do not fit the board")
            for color in (0, 1):
                code = pt.id * 2 + color
                row = packed[code]
                for cell, c in enumerate(geo.coords):
                    r = hi_f - c[fwd] if color == 0 else c[fwd] - lo_f
                    i = r * width + c[side_axis] - lo_x
                    row[cell] = vmg + tmg[i] + (veg + teg[i]) * pk
                if pt.royal:
                    # the tables replace the generic royal blend
                    self.royal_mg[code] = [0] * geo.size
                    self.royal_eg[code] = [0] * geo.size
        self.packed = packed

    # ---- the accumulator (``Position.acc`` and ``Position.acch``) ---------------------------
    # Two ints per piece code and cell, each summed over the pieces.  ``acc_table``: the square
    # value (the first player's positive, the second's negative), a small int that make adds
    # at every move.  ``acc_hi``: the phase weight (PHASE_BITS bits) and above it, where the
    # pawn or structure terms need them, one bit per cell for each player's pawns and then for
    # each player's pieces the structure terms name; the same on every cell for the other
    # pieces, so their plain moves leave it as it is.  A cell holds one piece, so no field
    # carries into the next.  ``prime`` returns both as one int, the high sum ACC_SHIFT bits up.
    ACC_SHIFT = 48
    PHASE_BITS = 24

    def _accumulator_table(self) -> None:
        n = self.variant.geometry.size
        rows = self.pst if self.packed is None else self.packed
        bits = self.has_passed or self.structure is not None
        acc = []
        hi = []
        for code, row in enumerate(rows):
            sign = -1 if code & 1 else 1
            ph = self.phase_w[code]
            k = self.kind[code] if bits else 0
            base = self.PHASE_BITS + ((k - 1) * 2 + (code & 1)) * n
            acc.append([sign * row[c] for c in range(n)])
            hi.append([ph + ((1 << (base + c)) if k else 0) for c in range(n)])
        self.acc_table = acc
        self.acc_hi = hi
        self.cell_mask = (1 << n) - 1
        self.cell_bits = n                      # the cells of one side's field in acch
        self.pawns_mask = (1 << (2 * n)) - 1   # both sides' pawn cells

    def prime(self, pos: Position) -> int:
        """Sum ``pos.acc`` and ``pos.acch`` afresh from the board (and mark them as this
        evaluator's, so that ``make`` keeps them from here on); the searcher primes its root.
        Returns both as one int: ``acc + (acch << ACC_SHIFT)``."""
        a = self._prime(pos)
        return a + (pos.acch << self.ACC_SHIFT)

    def _prime(self, pos: Position) -> int:
        w = self.acc_table
        hw = self.acc_hi
        b = pos.board
        a = 0
        hi = 0
        for side in (0, 1):
            for c in pos.occ[side]:
                p = b[c]
                a += w[p][c]
                hi += hw[p][c]
        pos.accw = w
        pos.acchw = hw
        pos.acc_sum = a
        pos.acch = hi
        return a

    def evaluate(self, pos: Position) -> int:
        """Centipawns from the side to move's point of view."""
        a = pos.acc_sum
        if a == NO_SUM or pos.accw is not self.acc_table:
            a = self._prime(pos)
        hi = pos.acch
        score = a
        ph = hi & ((1 << self.PHASE_BITS) - 1)
        if self.has_passed or self.packed is not None or self.structure is not None:
            return self._evaluate_pawns(pos, score, ph, hi >> self.PHASE_BITS)
        return self._finish(pos, score, ph if self.has_royal_tables else 0)

    def _evaluate_pawns(self, pos: Position, score: int, ph: int, bits: int) -> int:
        """evaluate() with the passed-pawn term, with the variant's own square tables,
        blended by the phase, and its structure terms, where it declares them.  What
        depends on the pawns alone is kept by pawn cells (``pawn_cache``)."""
        b = pos.board
        mask = self.cell_mask
        n = self.cell_bits
        cache = self.pawn_cache
        if cache is None:
            m0 = bits & mask
            m1 = (bits >> n) & mask
            pp, ps, f0, f1 = self._pawn_terms(b, _cells(m0), _cells(m1), m0, m1)
        else:
            key = bits & self.pawns_mask
            hit = cache.get(key)
            if hit is None:
                if len(cache) >= self.PAWN_CACHE:
                    cache.clear()
                m0 = key & mask
                m1 = key >> n
                cache[key] = hit = self._pawn_terms(b, _cells(m0), _cells(m1), m0, m1)
            pp, ps, f0, f1 = hit
        if self.packed is not None:
            pm = self.phase_max or 1
            phc = ph if ph < pm else pm
            eg = (score + (self.PACK >> 1)) // self.PACK
            r = (score - eg * self.PACK) * phc + eg * (pm - phc)
            score = r // pm if r >= 0 else -(-r // pm)
        if pp:
            pm = self.phase_max or 1
            phc = ph if ph < pm else pm
            r = pp * (2 * pm - phc)
            score += r // (2 * pm) if r >= 0 else -(-r // (2 * pm))
        st = self.structure
        if st is not None:
            score += ps
            x0 = (bits >> (2 * n)) & mask
            x1 = bits >> (3 * n)
            if x0:
                score += st.pieces(b, x0, f0, f0 | f1)
            if x1:
                score -= st.pieces(b, x1, f1, f0 | f1)
        return self._finish(pos, score, ph)

    PAWN_CACHE = 1 << 14    # entries kept before the pawn cache starts afresh

    def _pawn_terms(self, b: list[int], p0: list[int], p1: list[int], m0: int,
                    m1: int) -> tuple[int, int, int, int]:
        """What the pawns alone decide, for the first player minus the second: the passed
        pawns (before the phase blend), the structure terms, and each player's pawn files."""
        pp = 0
        front = self.passed_front
        bonus = self.passed_bonus
        for c in p0:
            p = b[c]
            fr = front[p]
            if fr is not None and not fr[c] & m1:
                pp += bonus[p][c]
        for c in p1:
            p = b[c]
            fr = front[p]
            if fr is not None and not fr[c] & m0:
                pp -= bonus[p][c]
        st = self.structure
        if st is None:
            return pp, 0, 0, 0
        return (pp, *st.pawns(p0, p1))

    GUARD = 12            # drop games, middlegame: per own piece next to the own royal
    ATTACKER = 16         # per enemy piece next to it, half that two steps away

    def _royal_zone(self, b: list[int], k: int, who: int) -> int:
        """Royal safety in drop games, for player ``who``: own pieces around the royal guard
        it, enemy pieces near it are where drops and attacks land."""
        near, far = self.zone[k]      # type: ignore[index]
        s = 0
        g = self.GUARD
        a = self.ATTACKER
        for t in near:
            p = b[t]
            if p:
                s += g if (p & 1) == who else -a
        a >>= 1
        for t in far:
            p = b[t]
            if p and (p & 1) != who:
                s -= a
        return s

    def _finish(self, pos: Position, score: int, ph: int) -> int:
        b = pos.board
        if self.hands:
            pw = self.phase_w
            hv = self.hand_value
            for code, k in enumerate(pos.hand):
                if k:
                    if code & 1:
                        score -= hv[code] * k
                    else:
                        score += hv[code] * k
                    ph += pw[code] * k
        if self.has_royal_tables:
            pm = self.phase_max or 1
            if ph > pm:
                ph = pm
            k0, k1 = pos.king
            r = 0
            if k0 >= 0:
                p = b[k0]
                r += self.royal_mg[p][k0] * ph + self.royal_eg[p][k0] * (pm - ph)
            if k1 >= 0:
                p = b[k1]
                r -= self.royal_mg[p][k1] * ph + self.royal_eg[p][k1] * (pm - ph)
            score += r // pm if r >= 0 else -(-r // pm)     # rounds the same for both colours
            if self.zone is not None and k0 >= 0 and k1 >= 0:
                z = self._royal_zone(b, k0, 0) - self._royal_zone(b, k1, 1)
                score += z * ph // pm if z >= 0 else -(-z * ph // pm)
            # mop-up: far ahead in an ending, drive the lone royal to the edge and come close
            if ph * 2 < pm and k0 >= 0 and k1 >= 0 and self.kdist is not None:
                diff = score
                if diff > 250:
                    score += 8 * (7 - self.kdist[k0][k1]) - 3 * self.mop_edge[b[k1]][k1]
                elif diff < -250:
                    score -= 8 * (7 - self.kdist[k0][k1]) - 3 * self.mop_edge[b[k0]][k0]
        if pos.side:
            score = -score
        if self.terms is not None:
            score += self.terms(pos)
        return score + self.TEMPO
