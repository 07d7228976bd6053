"""Pseudo-royal extinction pieces (``extinctionPseudoRoyal``, ``dupleCheck``), with
Fairy-Stockfish's meaning (docs/variant-files.md).

A side's pieces of an extinction type are pseudo-royal while it has at most
``extinctionPieceCount + 1`` of that type on the board (counted before the move): no move may
leave one of them attacked (a castling pseudo-royal piece may not start from or pass an
attacked cell either), and a side without moves whose pseudo-royal piece is attacked is
checkmated.  ``dupleCheck``: a move may not leave every piece of the extinction types of the
mover attacked (each of several royal pieces may be attacked, not all of them).  A pawn
promoting to an extinction type adds the new piece to both sets.  The extinction result
itself then no longer applies (such a piece cannot be taken), as in Fairy-Stockfish.

A pseudo-royal piece that may not capture at all (a capture would petrify it: petrify.py
names such codes in ``_barred``) attacks nothing while it is pseudo-royal: the other side's
pseudo-royal piece may stand next to it (Fairy-Stockfish's petrified: a king may step beside
the other king, which cannot take it without turning to stone).
"""
from __future__ import annotations

from engine.movegen import attacked_with
from engine.moves import CASTLE, CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.tables import AttackTables

from .results import ALL
from .filevariant import RuleBase


class PseudoRoyalRules(RuleBase):
    """Mixed into a file variant with ``extinctionPseudoRoyal``: a legality filter after the
    variant's own, and the check test that tells checkmate from stalemate."""
    pseudo_royal = True
    duple_check = False
    check_hook = True               # in_check below: the royal piece or a pseudo-royal one

    def __init__(self) -> None:
        super().__init__()
        types = [pt for pt in self.piece_types[1:] if pt is not None]
        ext = self.extinction_types
        # a promoted piece is of the type it moves as (``promotedPieceType = e:k``: Sho shogi's
        # crown prince is a second king, so with both a side has two of that type)
        groups = [frozenset(pt.id for pt in types if pt.extra.get("move", pt.token.lower()) == t)
                  for t in sorted(ext - {ALL})]
        if ALL in ext:
            groups.append(frozenset(pt.id for pt in types))
        self._pr_groups = [g for g in groups if g]
        self._pr_ids = frozenset().union(*self._pr_groups) if self._pr_groups else frozenset()
        self._pr_limit = self.extinction_count + 1
        # per side: its codes that may not capture while pseudo-royal (petrify.py), and its
        # attack tables without them (built when first needed)
        barred: frozenset[int] = getattr(self, "_barred", frozenset())
        self._pr_barred = (frozenset(c for c in barred if c & 1 == 0),
                           frozenset(c for c in barred if c & 1 == 1))
        self._pr_atk_barred: list[AttackTables | None] = [None, None]

    def _atk(self, pos, by: int) -> AttackTables:
        """Side ``by``'s attack tables for the pseudo-royal test: without its pieces that may
        not capture while they are pseudo-royal, when one of them is."""
        barred = self._pr_barred[by]
        if barred:
            b = pos.board
            if any(b[c] in barred for c in self._pseudo_royals(pos, by)[0]):
                t = self._pr_atk_barred[by]
                if t is None:
                    t = self._pr_atk_barred[by] = _without(self.attacks[by], barred)
                return t
        return self.attacks[by]

    def _pseudo_royals(self, pos, side: int) -> tuple[list[int], list[int]]:
        """(the pseudo-royal cells of ``side``, its cells of the extinction types)."""
        b = pos.board
        ids = self._pr_ids
        cand = [c for c in pos.occ[side] if b[c] >> 1 in ids]
        royals: list[int] = []
        for g in self._pr_groups:
            mine = [c for c in cand if b[c] >> 1 in g]
            if len(mine) <= self._pr_limit:
                royals.extend(c for c in mine if c not in royals)
        return royals, cand

    def legal_moves(self, pos, pseudo):
        from engine.movegen import royal_filter
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            moves = royal_filter(pos, pseudo)
        side = pos.side
        royals, cand = self._pseudo_royals(pos, side)
        duple = self.duple_check and bool(cand)
        if not royals and not duple and not self._promotes_to_royal(pos):
            return moves
        b = pos.board
        barred = bool(self._pr_barred[side ^ 1])
        atk = self.attacks[side ^ 1] if not barred else self._atk(pos, side ^ 1)
        out = []
        for m in moves:
            frm = (m >> FROM_SHIFT) & CELL
            if m & CASTLE and frm in royals and not self._castle_path_safe(pos, m, atk):
                continue
            to = m & CELL
            promo = (m >> TYPE_SHIFT) & TYPE_MASK
            added = not is_drop(m) and promo in self._pr_ids \
                and self.piece_types[b[frm] >> 1].pawn
            now = [to if c == frm else c for c in royals] + ([to] if added else [])
            pos.make(m)
            if barred:                  # the mover may have taken the other side's piece
                atk = self._atk(pos, side ^ 1)
            ok = not any(attacked_with(atk, b, c) for c in now)
            if ok and duple:
                now = [to if c == frm else c for c in cand] + ([to] if added else [])
                ok = not all(attacked_with(atk, b, c) for c in now)
            pos.unmake()
            if ok:
                out.append(m)
        return out

    def _promotes_to_royal(self, pos) -> bool:
        return bool(self._pr_ids) and any(
            self.piece_types[pos.board[c] >> 1].pawn for c in pos.occ[pos.side])

    def _castle_path_safe(self, pos, m: int, atk) -> bool:
        """The cells from the castling piece's start up to its destination (excluded) are
        not attacked, the piece itself taken off the board."""
        geo = self.geometry
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        a, z = geo.coords[frm], geo.coords[to]
        step = 1 if z[0] > a[0] else -1
        b = pos.board
        code = b[frm]
        b[frm] = 0
        try:
            return not any(attacked_with(atk, b, geo.index[(x,) + tuple(a[1:])])
                           for x in range(a[0], z[0], step))
        finally:
            b[frm] = code

    def in_check(self, pos, side: int) -> bool:
        """The royal piece attacked, a pseudo-royal piece attacked, or with ``dupleCheck``
        every piece of the extinction types attacked."""
        atk = self.attacks[side ^ 1]
        b = pos.board
        k = pos.king[side]
        if self.royal_check and k >= 0 and attacked_with(atk, b, k):
            return True
        if self._pr_barred[side ^ 1]:
            atk = self._atk(pos, side ^ 1)
        royals, cand = self._pseudo_royals(pos, side)
        if any(attacked_with(atk, b, c) for c in royals):
            return True
        return self.duple_check and bool(cand) and all(attacked_with(atk, b, c) for c in cand)


def _without(atk: AttackTables, codes: frozenset[int]) -> AttackTables:
    """Attack tables with the pieces of ``codes`` attacking nothing (they still block)."""
    leaps, rays, sliders, hops = atk
    return ([tuple((c, s - codes) for c, s in e) for e in leaps],
            [tuple((cells, tuple(s - codes for s in sets)) for cells, sets in e) for e in rays],
            [tuple((cells, tuple(s - codes for s in sets)) for cells, sets in e) for e in sliders],
            None if hops is None else
            [tuple((cells, tuple(s - codes for s in sets), beyond) for cells, sets, beyond in e)
             for e in hops])
