"""Blasts on capture (``blastOnCapture``, ``blastImmuneTypes``, ``mutuallyImmuneTypes``), with
Fairy-Stockfish's meaning (docs/variant-files.md): atomic, nocheckatomic, atomar.

* ``blastOnCapture``: a capture (en passant included) removes, besides the taken piece, every
  piece on the eight cells around the capture's destination except pawns, and the capturing
  piece itself, whatever it is.
* ``blastImmuneTypes``: pieces of these types survive blasts (the capturer too).
* ``mutuallyImmuneTypes``: a piece of these types may not capture one of these types.

With ``extinctionPseudoRoyal`` (atomic) the pieces of ``extinctionPieceTypes`` are
pseudo-royal as Fairy-Stockfish rules them under blasts: a move that blasts one of the mover's
own is illegal; a move that blasts one of the opponent's is legal whatever else; otherwise no
own pseudo-royal piece may be left attacked, unless it touches an opponent's pseudo-royal piece
(taking it would blast the taker's own).  The game is lost by the side whose last piece of those
types is blasted (extinction).
"""
from __future__ import annotations

from engine.movegen import attacked_with, royal_filter
from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, SPECIAL, is_drop
from engine.variant import BLACK, WHITE, Result

from .filevariant import RuleBase
from .registry import names
from .results import piece_set
from .values import as_bool

BLAST_KEYS = names("blast")


def blast_attrs(val: dict[str, str], letters: set[str], attrs: dict) -> None:
    """The blast keys read into the class attributes (after the result keys: a blasting
    section's pseudo-royal pieces follow this module's rule, not pseudoroyal.py's)."""
    attrs["blast"] = as_bool("blastOnCapture", val.get("blastOnCapture", "false"))
    attrs["blast_immune"] = piece_set("blastImmuneTypes", val.get("blastImmuneTypes", ""), letters)
    attrs["mutually_immune"] = piece_set("mutuallyImmuneTypes", val.get("mutuallyImmuneTypes", ""),
                                         letters)
    attrs["blast_royal"] = attrs["blast"] and attrs.get("pseudo_royal", False)
    if attrs["blast_royal"]:
        attrs["pseudo_royal"] = False           # this module's rule (pseudoroyal.py's is left out)
        attrs["check_hook"] = True
        attrs["decided_no_moves"] = True


def blast_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section that blasts or has mutually immune pieces (none otherwise)."""
    return (BlastRules,) if attrs.get("blast") or attrs.get("mutually_immune") else ()


class BlastRules(RuleBase):
    """Blasts (``after_move``), mutual immunity and atomic's pseudo-royal legality
    (``legal_moves``, ``in_check``) and extinction by blast (``adjudicate``)."""
    blast = False
    blast_immune: frozenset[str] = frozenset()
    mutually_immune: frozenset[str] = frozenset()
    blast_royal = False

    def __init__(self) -> None:
        super().__init__()
        geo = self.geometry
        ids = [pt for pt in self.piece_types[1:] if pt is not None]
        ncodes = 2 * len(self.piece_types)
        self._pawn_code = [False] * ncodes
        self._immune_code = [False] * ncodes
        self._mutual_code = [False] * ncodes
        self._ext_code = [False] * ncodes
        for pt in ids:
            for col in (WHITE, BLACK):
                c = pt.id * 2 + col
                low = pt.token.lower()
                self._pawn_code[c] = pt.pawn
                self._immune_code[c] = low in self.blast_immune
                self._mutual_code[c] = low in self.mutually_immune
                self._ext_code[c] = low in self.extinction_types
        # the eight cells around each cell
        self._around: list[tuple[int, ...]] = []
        for co in geo.coords:
            near = []
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if dx or dy:
                        n = geo.index.get((co[0] + dx, co[1] + dy) + tuple(co[2:]))
                        if n is not None:
                            near.append(n)
            self._around.append(tuple(near))

    # ---- the blast ------------------------------------------------------------------------
    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        if not self.blast or move & SPECIAL or is_drop(move):
            return
        cap = pos.stack[-1].cap
        if not cap and not move & EP:
            return
        to = move & CELL
        b = pos.board
        immune, pawn = self._immune_code, self._pawn_code
        for c in self._around[to]:
            code = b[c]
            if code and not pawn[code] and not immune[code]:
                pos.clear(c)
        if b[to] and not immune[b[to]]:
            pos.clear(to)

    # ---- legality -------------------------------------------------------------------------
    def legal_moves(self, pos, pseudo):
        moves = super().legal_moves(pos, pseudo)
        if moves is None:
            moves = royal_filter(pos, pseudo)
        if self.mutually_immune:
            b = pos.board
            mutual = self._mutual_code
            moves = [m for m in moves
                     if not (not is_drop(m) and mutual[b[(m >> FROM_SHIFT) & CELL]]
                             and mutual[b[m & CELL]])]
        if self.blast_royal:
            moves = [m for m in moves if self._royal_safe(pos, m)]
        return moves

    def _royals(self, pos, side: int) -> list[int]:
        """The cells of ``side``'s pieces of the extinction types while they are pseudo-royal
        (at most extinctionPieceCount + 1 of them)."""
        ext = self._ext_code
        b = pos.board
        cells = [c for c in pos.occ[side] if ext[b[c]]]
        return cells if len(cells) <= self.extinction_count + 1 else []

    def _royal_safe(self, pos, m: int) -> bool:
        side = pos.side
        mine = self._royals(pos, side)
        if not mine:
            return True
        theirs = len(self._royals(pos, side ^ 1))
        if (m >> FROM_SHIFT) & CELL in mine and not self._castle_ok(pos, m):
            return False
        pos.make(m)
        try:
            now = self._royals(pos, side)
            if len(now) < len(mine):
                return False                      # a blast took one of the mover's own
            if theirs and len(self._royals(pos, side ^ 1)) < theirs:
                return True                       # one of the opponent's blasted
            return not any(self._attacked(pos, c, side) for c in now)
        finally:
            pos.unmake()

    def _castle_ok(self, pos, m: int) -> bool:
        """Castling: the cells from the castling piece's start up to its destination (excluded)
        are not attacked, the piece itself taken off the board."""
        if not m & CASTLE:
            return True
        geo = self.geometry
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        a, z = geo.coords[frm], geo.coords[to]
        step = 1 if z[0] > a[0] else -1
        b = pos.board
        code = b[frm]
        b[frm] = 0
        try:
            return not any(self._attacked(pos, geo.index[(x,) + tuple(a[1:])], pos.side)
                           for x in range(a[0], z[0], step))
        finally:
            b[frm] = code

    def _attacked(self, pos, cell: int, side: int) -> bool:
        """Is ``side``'s pseudo-royal piece on ``cell`` attacked, not touching an opponent's
        pseudo-royal piece?"""
        b = pos.board
        ext = self._ext_code
        if any(b[n] and b[n] & 1 != side and ext[b[n]] for n in self._around[cell]):
            return False
        return attacked_with(self.attacks[side ^ 1], b, cell)

    def in_check(self, pos, side: int) -> bool:
        return self.blast_royal and any(self._attacked(pos, c, side) for c in self._royals(pos, side))

    # ---- extinction by blast ----------------------------------------------------------------
    def adjudicate(self, pos) -> Result:
        r = super().adjudicate(pos)
        if r is not None or not self.blast_royal:
            return r
        ext = self._ext_code
        b = pos.board
        for col in (pos.side ^ 1, pos.side):
            if sum(1 for c in pos.occ[col] if ext[b[c]]) <= self.extinction_count:
                value = {"win": 1, "loss": -1, "draw": 0}[self.extinction_value]
                return (value if col == pos.side else -value, "extinction")
        return None
