"""Alice Chess's looking-glass rule as a plugin (docs/variants/alice.md; each ruling cited
by its number there as A1, A2, ...).

A section with ``levels = 2`` and ``plugins = alice`` plays on two boards.  The generic
generator makes every piece's moves on its own board (the levelled geometry lifts 2D vectors
with level offset 0); this plugin's ``legal_moves`` keeps a move only when the cell of the
same name on the other board is empty (A5) and the mover's king is safe (A8, A9), and marks it
SPECIAL, so that ``make_special`` takes the capture on the board of the move (A6) and puts the
piece (after promotion, A11) on the other board (A4); castling carries king and rook (A10).
A move keeps the text of the move on its own board (``ae2ae4``: from a-e2, on board a, to
e4, arriving on b-e4).
"""
from __future__ import annotations

from engine.movegen import attacked_with, pinned_with
from engine.moves import ACTED, CASTLE, CELL, DOUBLE, FROM_SHIFT, SPECIAL, TYPE_MASK, TYPE_SHIFT

from . import Plugin, PluginError
from variants.inifile.filevariant import RuleBase


class Alice(Plugin, RuleBase):
    """Every move passes the piece through the looking-glass to the other board."""
    plugin_name = "alice"

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        if keys.get("levels") != "2":
            raise PluginError("levels" if "levels" in keys else "plugins",
                              "alice needs levels = 2", keys.get("levels", "alice"))
        for key in ("pieceDrops", "capturesToHand"):
            if keys.get(key, "false").lower() in ("true", "1", "yes"):
                raise PluginError(key, "alice has no hands", keys[key])

    # ---- tables, worked out once ------------------------------------------------------
    def _alice(self):
        """(mirror cell of every cell, castling rule by (king from, king to), the rights a
        move from or to each cell keeps, for each board whether each cell is on it)."""
        t = self.__dict__.get("_alice_tables")
        if t is None:
            geo = self.geometry
            mirror = [geo.index[(c[0], c[1], 1 - c[2])] for c in geo.coords]
            rules = {(r.king_from, r.king_to): r for r in self.castling}
            keep = [~0] * geo.size
            for r in self.castling:
                keep[r.king_from] &= ~r.bit
                keep[r.rook_from] &= ~r.bit
            level = [[c[2] == lv for c in geo.coords] for lv in (0, 1)]
            t = self.__dict__["_alice_tables"] = (mirror, rules, keep, level)
        return t

    # ---- positions ----------------------------------------------------------------------
    def validate_position(self, pos):
        """A2 (no cell taken on both boards, which no game can reach) and A12 (no en-passant
        cell), then the chess checks (one king each, no pawn on the first or last rank, the
        side not to move not in check)."""
        from engine.notation.position_text import PositionTextError
        geo = self.geometry
        mirror = self._alice()[0]
        b = pos.board
        for c, p in enumerate(b):
            if p and c < mirror[c] and b[mirror[c]]:
                raise PositionTextError(f"a square taken on both boards "
                                        f"({geo.name(c)}, {geo.name(mirror[c])})")
        if pos.ep >= 0:
            raise PositionTextError(f"Alice Chess has no en passant ({geo.name(pos.ep)})")
        super().validate_position(pos)

    # ---- moves --------------------------------------------------------------------------
    def legal_moves(self, pos, pseudo):
        """The pseudo-legal moves on their own boards whose arrival cell on the other board
        is empty (A5; both arrival cells for castling, A10), with the king safe after the
        transfer (A8) and a king not moving onto a cell attacked on its own board (A9)."""
        mirror, rules, _, level = self._alice()
        coords = self.geometry.coords
        b = pos.board
        side = pos.side
        k = pos.king[side]
        atk = self.attacks[side ^ 1]
        check = k >= 0 and attacked_with(atk, b, k)
        home = level[k >= 0 and coords[k][2]]  # True on the cells of the king's board
        pinned = pinned_with(atk, b, k, side) if k >= 0 and not check else set()
        out = []
        app = out.append
        make, unmake = pos.make, pos.unmake
        king = pos.king
        for m in pseudo:
            to = m & CELL
            if b[mirror[to]]:
                continue
            frm = (m >> FROM_SHIFT) & CELL
            if m & CASTLE and b[mirror[rules[(frm, to)].rook_to]]:
                continue
            if m & DOUBLE:      # a double step leaves no en-passant cell (A12)
                m &= ~(DOUBLE | ACTED)
            m |= SPECIAL
            if not check and frm != k and frm not in pinned and not (b[to] and home[to]):
                # leaving an unpinned cell opens no line onto the king, and the arrival on the
                # other board can only block; but a capture on the king's board may open one
                # (the captor does not stay on the cell of the piece it takes)
                app(m)
                continue
            make(m)
            ok = king[side] < 0 or not attacked_with(atk, b, king[side])
            if ok and frm == k and not m & CASTLE:
                ok = not attacked_with(atk, b, to)     # the cell it moved to, on its own board
            unmake()
            if ok:
                app(m)
        return out

    def make_special(self, pos, m):
        """Capture on the board of the move (A6), then the piece — promoted if the move
        promotes (A11) — on the same cell of the other board (A4); castling moves both king
        and rook across (A10).  Returns (mover's code, captured code)."""
        mirror, rules, keep, _ = self._alice()
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        code = pos.clear(frm)
        cap = pos.clear(to)
        pt = (m >> TYPE_SHIFT) & TYPE_MASK
        pos.put(mirror[to], pt * 2 + (code & 1) if pt else code)
        if m & CASTLE:
            r = rules[(frm, to)]
            pos.put(mirror[r.rook_to], pos.clear(r.rook_from))
        rights = pos.castle & keep[frm] & keep[to]
        if rights != pos.castle:
            pos.set_castle(rights)
        pos.halfmove = 0 if cap or self.piece_types[code >> 1].pawn else pos.halfmove + 1
        return code, cap

    def unmake_special(self, pos, m, undo):
        """Take back ``make_special`` (the position restores hash, rights and clocks)."""
        mirror, rules, _, _ = self._alice()
        code, cap = undo
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        pos.clear(mirror[to])
        if m & CASTLE:
            r = rules[(frm, to)]
            pos.put(r.rook_from, pos.clear(mirror[r.rook_to]))
        pos.put(frm, code)
        if cap:
            pos.put(to, cap)
