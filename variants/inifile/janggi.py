"""The keys and piece of Fairy-Stockfish's janggi family (docs/variant-files.md):

* ``janggiCannon``: a cannon that moves and captures only by hopping (``pR``) over exactly
  one screen that is not a cannon of either side, and never takes a cannon.  The core's
  hop has no screen filter, so the piece has no table moves: :class:`JanggiRules`
  generates its moves (``extra_moves``), its checks (``in_check``) and the legality they
  need (``legal_moves``: no move may leave the own king attacked by a cannon).
* ``diagonalLines``: the cells joined by the palace diagonals.  Between two of them a
  ``rook`` also rides diagonally, a ``wazir`` (and a ``king`` that moves as a wazir,
  ``king = k:W``) also steps diagonally, a ``soldier`` also steps diagonally forward, and a
  ``janggiCannon`` also hops diagonally, as Fairy-Stockfish lets them.
* ``bikjangRule``: when a move leaves the two kings facing on an open line (bikjang), the
  side to move must break it or pass (a pass is then legal even in check); a position of
  facing kings after one of facing kings ends the game drawn.
* ``moveRepetitionIllegal`` (janggimodern, Kakao Janggi's rule): a side that moves one piece
  back and forth five times running (a pass may stand for the first move back), none of it
  in check nor out of a check, with a piece that could reach the other king's palace, loses:
  the other side, to move, wins (:meth:`JanggiRules.move_repetition`, as Fairy-Stockfish
  walks its history).
* ``materialCounting = janggi``: every drawn end (bikjang, two passes, repetition, the move
  rule) is decided by the material on the board instead: rook 13, cannon 7, horse 5,
  elephant 3, wazir 3, soldier 2 (by piece key), the first player (Cho) needing more than
  the second (Han) plus 1 to win (:meth:`JanggiRules.judge_draw`).
"""
from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

from engine.attacks import attacked_mask
from engine.geometry import Coord
from engine.movegen import royal_filter
from engine.moves import CELL, FROM_SHIFT, SPECIAL, TYPE_SHIFT
from engine.pieces import BOTH, LEAP, RIDE, Atom, PieceType
from engine.variant import BLACK, WHITE

from .filevariant import RuleBase
from .values import as_bool, as_region, in_region

DIAG = ((1, 1), (-1, 1), (1, -1), (-1, -1))
ORTH = ((1, 0), (-1, 0), (0, 1), (0, -1))
# Fairy-Stockfish's janggi material weights, by piece key
WEIGHTS = {"rook": 13, "janggiCannon": 7, "horse": 5, "janggiElephant": 3, "wazir": 3,
           "soldier": 2}


def janggi_attrs(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...],
                 attrs: dict[str, Any], files: int, ranks: int) -> tuple[type, ...]:
    """Set the class attributes of these keys; the rule part they need (none without them)."""
    region = as_region("diagonalLines", val.get("diagonalLines", ""), files, ranks)
    lines = frozenset((f, r) for f in range(files) for r in range(ranks) if in_region((f, r), region))
    attrs["diagonal_lines"] = lines
    attrs["bikjang"] = bikjang = as_bool("bikjangRule", val.get("bikjangRule", "false"))
    attrs["move_repetition_illegal"] = repeat = as_bool(
        "moveRepetitionIllegal", val.get("moveRepetitionIllegal", "false"))
    material = val.get("materialCounting", "none").strip().lower() == "janggi"
    attrs["janggi_material"] = material
    if material:
        attrs["draws_judged"] = True
    attrs["material_weights"] = {letter: WEIGHTS[name] for name, letter, _ in pieces
                                 if name in WEIGHTS}
    cannons = frozenset(letter for name, letter, _ in pieces if name == "janggiCannon")
    attrs["cannon_letters"] = cannons
    if cannons or lines or bikjang or material or repeat:
        return (JanggiRules,)
    return ()


def _on_lines(lines: frozenset, c: tuple[int, ...], d: tuple[int, int], n: int) -> bool:
    """Are the n cells from c along d all on the diagonal lines (c itself too)?"""
    return c[:2] in lines and all((c[0] + k * d[0], c[1] + k * d[1]) in lines for k in range(1, n + 1))


def _diagonal_atoms(lines: frozenset, ride: bool, forward: bool) -> tuple[Atom, ...]:
    """The palace-diagonal moves of a piece, one atom per colour (the vectors depend on the
    cell, and Black's are White's turned half round): a step to a neighbouring line cell (a
    ``forward`` one only), or for a rider a ride of one or two cells along the line."""
    out: list[Atom] = []
    for color in (WHITE, BLACK):
        sign = -1 if color else 1

        def dirs(c: Coord, n: int, exact: bool, sign: int = sign) -> tuple[Coord, ...]:
            # real directions d with n cells on the lines (and, ``exact``, not one more),
            # given in the mover's frame (a half turn for Black)
            return tuple((sign * d[0], sign * d[1]) for d in DIAG
                         if (not forward or d[1] == sign) and _on_lines(lines, c, d, n)
                         and not (exact and _on_lines(lines, c, d, n + 1)))

        def mine(c: Coord, col: int, color: int = color) -> bool:
            return col == color
        if ride:
            out.append(Atom(partial(dirs, n=2, exact=False), RIDE, BOTH, max_dist=2, origin=mine))
            out.append(Atom(partial(dirs, n=1, exact=True), RIDE, BOTH, max_dist=1, origin=mine))
        else:
            out.append(Atom(partial(dirs, n=1, exact=False), LEAP, BOTH, origin=mine))
    return tuple(out)


class JanggiRules(RuleBase):
    """The janggi cannon, the palace diagonals, bikjang and janggi's material count."""
    diagonal_lines: frozenset = frozenset()
    bikjang = False
    move_repetition_illegal = False
    janggi_material = False
    material_weights: dict[str, int] = {}
    cannon_letters: frozenset[str] = frozenset()
    check_hook = True               # in_check below: the attack tables, then the cannons

    def __init__(self) -> None:
        super().__init__()
        geo = self.geometry
        lines = self.diagonal_lines
        # per cell: the lines a cannon hops along (its rook lines; its palace diagonals)
        rays: list[tuple[tuple[int, ...], ...]] = []
        for cell, c in enumerate(geo.coords):
            rs = [tuple(geo.ray(cell, d)) for d in ORTH]
            if c[:2] in lines:
                for d in DIAG:
                    r = []
                    for t in geo.ray(cell, d):
                        if geo.coords[t][:2] not in lines:
                            break
                        r.append(t)
                    rs.append(tuple(r))
            rays.append(tuple(r for r in rs if len(r) >= 2))
        self._cannon_rays = rays
        self._cannon_codes = frozenset(pt.id * 2 + col for pt in self.piece_types[1:]
                                       if pt is not None and pt.token.lower() in self.cannon_letters
                                       for col in (WHITE, BLACK))
        # the codes whose mobility region meets the other side's king's region (every piece
        # without a region): the pieces the move repetition rule watches
        mobility: dict = getattr(self, "mobility", {})
        royal = self.royal_letter
        reach = set()
        for pt in self.piece_types[1:]:
            if pt is None:
                continue
            for col in (WHITE, BLACK):
                mine = mobility.get((col, pt.token.lower()))
                king = mobility.get((col ^ 1, royal))
                if any((mine is None or in_region(c, mine)) and (king is None or in_region(c, king))
                       for c in geo.coords):
                    reach.add(pt.id * 2 + col)
        self._reach = frozenset(reach)

    # ---- the pieces --------------------------------------------------------------------------
    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        pt = super()._piece(name, letter, betza)
        if name == "janggiCannon":
            # its moves are this part's (extra_moves); a value as the material count rates it
            return replace(pt, atoms=(), value=pt.value or 450)
        lines = self.diagonal_lines
        if not lines:
            return pt
        if name == "rook":
            extra = _diagonal_atoms(lines, True, False)
        elif name == "wazir" or (name == "king" and betza == "W"):
            extra = _diagonal_atoms(lines, False, False)
        elif name == "soldier":
            extra = _diagonal_atoms(lines, False, True)
        else:
            return pt
        return replace(pt, atoms=pt.atoms + extra)

    def extra_moves(self, pos, out: list) -> None:
        super().extra_moves(pos, out)
        cannons = self._cannon_codes
        if not cannons:
            return
        b = pos.board
        side = pos.side
        allow = self.allow_move
        for s in pos.occ[side]:
            code = b[s]
            if code not in cannons:
                continue
            base = s << FROM_SHIFT
            for ray in self._cannon_rays[s]:
                screen = False
                for t in ray:
                    p = b[t]
                    if not screen:
                        if p:
                            if p in cannons:
                                break
                            screen = True
                        continue
                    if not p:
                        if allow(code, s, t):
                            out.append(base | t)
                        continue
                    if (p & 1) != side and p not in cannons and allow(code, s, t):
                        out.append(base | t)
                    break

    def cannon_attacks(self, pos, t: int, by: int) -> bool:
        """Does a cannon of colour ``by`` attack cell t (t holds no cannon)?"""
        cannons = self._cannon_codes
        b = pos.board
        for ray in self._cannon_rays[t]:
            screen = False
            for c in ray:
                p = b[c]
                if not p:
                    continue
                if not screen:
                    if p in cannons:
                        break
                    screen = True
                    continue
                if p in cannons and (p & 1) == by:
                    return True
                break
        return False

    def in_check(self, pos, side: int) -> bool:
        if super().in_check(pos, side):
            return True
        k = pos.king[side]
        if k < 0 or not self.royal_check:
            return False
        if attacked_mask(self.attack_masks[side ^ 1], pos.board, k):
            return True
        return bool(self._cannon_codes) and self.cannon_attacks(pos, k, side ^ 1)

    # ---- legality: cannons and bikjang ------------------------------------------------------
    def facing(self, pos) -> bool:
        """Do the two kings face each other on an open file or rank (bikjang)?"""
        w, bk = pos.king[WHITE], pos.king[BLACK]
        if w < 0 or bk < 0:
            return False
        geo = self.geometry
        (x1, y1), (x2, y2) = geo.coords[w][:2], geo.coords[bk][:2]
        board, index = pos.board, geo.index
        if x1 == x2:
            lo, hi = sorted((y1, y2))
            return all(not board[index[(x1, r)]] for r in range(lo + 1, hi))
        if y1 == y2:
            lo, hi = sorted((x1, x2))
            return all(not board[index[(f, y1)]] for f in range(lo + 1, hi))
        return False

    def legal_moves(self, pos, pseudo):
        r = super().legal_moves(pos, pseudo)
        moves = r if r is not None else royal_filter(pos, pseudo)
        side = pos.side
        them = side ^ 1
        bik = self.bikjang and self.facing(pos)
        cannons = self._cannon_codes
        b = pos.board
        armed = bool(cannons) and any(b[c] in cannons for c in pos.occ[them])
        if not armed and not bik:
            return moves
        out = []
        king = pos.king
        for m in moves:
            if _is_pass(m) and bik:
                continue                    # added below, whatever else holds
            pos.make(m)
            ok = not (armed and king[side] >= 0 and self.cannon_attacks(pos, king[side], them)) \
                and not (bik and self.facing(pos))
            pos.unmake()
            if ok:
                out.append(m)
        if bik:
            out.extend(m for m in pseudo if _is_pass(m))
        return out

    # ---- results ------------------------------------------------------------------------------
    def result(self, pos, legal):
        # a claim, as Fairy-Stockfish has it (the moves stay legal), not an end by itself
        r = super().result(pos, legal)
        if r is None and self.move_repetition_illegal and self.move_repetition(pos):
            return (1, "move repetition")
        return r

    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None or not self.bikjang or not pos.stack or not self.facing(pos):
            return r
        m = pos.stack[-1].move
        pos.unmake()
        before = self.facing(pos)
        pos.make(m)
        return (0, "bikjang") if before else None

    def move_repetition(self, pos) -> bool:
        """Has the side not to move just moved one piece back and forth five times (Fairy-
        Stockfish's janggi move repetition: the moves M0, M2, M4... of that side each undo
        the one before, or M2 is a pass and M4 undoes M0; no check in the positions it moved
        from; the moved piece could reach the other king's region; the fifth move back took
        nothing)?  Walked within the moves since the last capture."""
        st = pos.stack
        end = min(pos.halfmove, len(st))
        if end < 8:
            return False

        def mv(k: int) -> int:
            return st[-1 - k].move if k < len(st) else 0     # 0: before the first move
        m0 = mv(0)
        if m0 >= 1 << TYPE_SHIFT or (m0 >> FROM_SHIFT) & CELL == m0 & CELL or pos.board[m0 & CELL] not in self._reach:
            return False
        rep = 2 if mv(2) == _reverse(m0) else 1 if _is_pass(mv(2)) else 0
        if not rep:
            return False
        checks = self._checks_back(pos, min(end, 11))
        if checks[1] or checks[3]:
            return False
        for i in range(4, end + 1, 2):
            if i + 1 <= end and checks[i + 1]:
                return False
            if rep < 4:
                if mv(i) != _reverse(m0 if rep == 1 else mv(i - 2)):
                    return False
                rep += 1
            else:
                m = mv(i)
                return bool(m) and not st[-1 - i].cap and (mv(i - 2) >> FROM_SHIFT) & CELL == m & CELL
        return False

    def _checks_back(self, pos, n: int) -> list[bool]:
        """Was the side to move in check, now and 1..n plies ago (the position put back)?"""
        from engine.movegen import in_check
        out = [in_check(pos)]
        undone = []
        for _ in range(n):
            undone.append(pos.stack[-1].move)
            pos.unmake()
            out.append(in_check(pos))
        for m in reversed(undone):
            pos.make(m)
        return out + [False] * 12

    def judge_draw(self, pos, result):
        """A drawn end decided by the material count (``materialCounting = janggi``)."""
        r = super().judge_draw(pos, result)
        if not self.janggi_material or r[0] != 0:
            return r
        weights = self.material_weights
        b = pos.board
        count = -1
        for side, sign in ((WHITE, 1), (BLACK, -1)):
            for c in pos.occ[side]:
                count += sign * weights.get(self.piece_types[b[c] >> 1].token.lower(), 0)
        white_wins = count > 0
        return (1 if white_wins == (pos.side == WHITE) else -1, r[1] + ", material count")


def _reverse(m: int) -> int:
    """The plain move back from where m went to where it came from."""
    return ((m & CELL) << FROM_SHIFT) | ((m >> FROM_SHIFT) & CELL)


def _is_pass(m: int) -> bool:
    return bool(m & SPECIAL) and (m >> FROM_SHIFT) & CELL == m & CELL
