"""Nested Chess's semi-royal pieces as a plugin: ``semiRoyal = fezbaba-waffle``
(docs/variants/nested.md, "Special rules" and rulings 7, 11, 12, 14).

The Fezbaba (F) keeps its side's bound pieces (B C D I E) able to move, the Waffle (W) its
unbound pieces (R N A P); K, F and W always move.  So:

* paralysis: without its F a side cannot move B C D I E, without its W it cannot move R N A
  P; a paralysed piece still blocks and can be taken, but gives no check;
* double disappearance: a Camel taking the enemy F also removes the mover's own F, a Knight
  taking the enemy W its own W (``after_capture``; the piece is judged as it stood before
  the move, so a promoting capture removes nothing);
* legality: the mover's King must not be capturable by an enemy piece able to move, after the
  move (vanished pieces and new paralysis included).  Attacks are tested with four filtered
  copies of each colour's attack tables, one per (has F, has W) state; the pin shortcut is
  used only where it is valid (not in check, not a King move, the mover not pinned, not a
  capture of F or W), every other move is made and tested;
* a Pawn may become an F, an Esquire a W, only while the side has none (the section offers
  them in its promotion choices; this plugin takes them away per position);
* a position needs exactly one King a side, at most one F and one W;
* search: frozen material is mostly written off, an enemy F or W we can take is a bonus;
  quiescence looks for a stalemate only where a side has lost its F or W (``stalemate_risk``).

The plugin knows the Nested letters (it refuses a section without them); the board, the
pieces, the promotion region and choices and the edge rules are the section's data
(variants/files/nested.ini).
"""
from __future__ import annotations

from engine.movegen import attacked_with, pinned_with
from engine.moves import CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT
from engine.variant import BLACK, WHITE

from . import Plugin, PluginError
from variants.inifile.filevariant import RuleBase

KEEPS = {"F": "BCDIE", "W": "RNAP"}      # semi-royal piece: the pieces it keeps able to move
VANISH = {"C": "F", "N": "W"}           # mover taking the enemy's piece: its own one vanishes
LETTERS = "kfwbcdiernap"


class FezbabaWaffle(Plugin, RuleBase):
    """Paralysis by the loss of the Fezbaba or the Waffle, and what follows from it."""
    plugin_name = "fezbaba-waffle"
    plugin_key = "semiRoyal"

    capture_hook = True        # double disappearance
    check_hook = True          # paralysed pieces give no check
    fast_legality = False

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        if "lattice" not in keys:
            raise PluginError("semiRoyal", "fezbaba-waffle plays on a lattice board "
                                           "(lattice = squares vertices)", "fezbaba-waffle")
        letters = {v.partition(":")[0].lower() for k, v in keys.items()
                   if k == "king" or k.startswith("customPiece")}
        missing = "".join(ch for ch in LETTERS if ch not in letters)
        if missing:
            raise PluginError("semiRoyal", f"fezbaba-waffle needs the pieces {LETTERS} "
                                           f"(missing {missing})", "fezbaba-waffle")

    def __init__(self) -> None:
        super().__init__()
        tid = {t: pt.id for t, pt in self.by_token.items()}
        self.tid = tid
        ncodes = 2 * len(self.piece_types)
        # need[code]: 0 always mobile, 1 needs its own Fezbaba, 2 needs its own Waffle
        self.need = [0] * ncodes
        for n, semi in ((1, "F"), (2, "W")):
            for t in KEEPS[semi]:
                self.need[tid[t] * 2] = self.need[tid[t] * 2 + 1] = n
        self.fcode = (tid["F"] * 2, tid["F"] * 2 + 1)
        self.wcode = (tid["W"] * 2, tid["W"] * 2 + 1)
        self._vanish = {tid[m]: tid[c] for m, c in VANISH.items()}
        self._patt_cache = None

    # ---- paralysis-aware attacks ----------------------------------------------------------
    def _patt(self):
        """patt[colour][state]: the attack tables of that colour keeping only the pieces that
        can move in paralysis state  (has Fezbaba) * 2 + (has Waffle)."""
        if self._patt_cache is None:
            out = []
            size = self.geometry.size
            need = self.need
            for color in (WHITE, BLACK):
                leaps, rays = self.attacks[color][:2]
                per = []
                for state in range(4):
                    hasf, hasw = state >> 1, state & 1

                    def ok(code, hasf=hasf, hasw=hasw):
                        return not ((need[code] == 1 and not hasf)
                                    or (need[code] == 2 and not hasw))

                    lt, rt, st = [], [], []
                    for t in range(size):
                        lt.append(tuple((s, frozenset(c for c in codes if ok(c)))
                                        for s, codes in leaps[t]
                                        if any(ok(c) for c in codes)))
                        rs = []
                        for cells, sets in rays[t]:
                            fs = [frozenset(c for c in s if ok(c)) for s in sets]
                            while fs and not fs[-1]:
                                fs.pop()
                            if fs:
                                rs.append((cells[:len(fs)], tuple(fs)))
                        rt.append(tuple(rs))
                        st.append(tuple(r for r in rs if len(r[1]) > 1))
                    per.append((lt, rt, st, None))     # no hoppers in Nested
                out.append(per)
            self._patt_cache = out
        return self._patt_cache

    def _state(self, b, color) -> int:
        return (self.fcode[color] in b) * 2 + (self.wcode[color] in b)

    def in_check(self, pos, side):
        """Can a piece of the other side that is able to move take the King?"""
        k = pos.king[side]
        return k >= 0 and attacked_with(self._patt()[side ^ 1][self._state(pos.board, side ^ 1)],
                                        pos.board, k)

    # ---- double disappearance ------------------------------------------------------------
    def after_capture(self, pos, move, mover, captured):
        semi = self._vanish.get(mover >> 1)
        if semi is None or captured >> 1 != semi:
            return None
        own = semi * 2 + (mover & 1)
        b = pos.board
        for c in list(pos.occ[mover & 1]):
            if b[c] == own:
                pos.clear(c)            # the position records it and puts it back at unmake
        return None

    # ---- legality -------------------------------------------------------------------------
    def legal_moves(self, pos, pseudo):
        b = pos.board
        side = pos.side
        them = side ^ 1
        need = self.need
        hasf = self.fcode[side] in b
        hasw = self.wcode[side] in b
        fprom = self.tid["F"] if hasf else -1
        wprom = self.tid["W"] if hasw else -1
        if not (hasf and hasw):
            frozen = 1 if not hasf else 2
            frozen2 = 2 if not hasw else 1
            moves = [m for m in pseudo
                     if need[b[(m >> FROM_SHIFT) & CELL]] not in (frozen, frozen2)]
        else:
            moves = pseudo
        # dynamic promotion choices
        if hasf or hasw:
            moves = [m for m in moves if (m >> TYPE_SHIFT) & TYPE_MASK not in (fprom, wprom)]
        k = pos.king[side]
        if k < 0:
            return moves
        fw = (self.fcode[them], self.wcode[them])
        patt_them = self._patt()[them]
        atk = patt_them[self._state(b, them)]
        attacked = attacked_with
        check = attacked(atk, b, k)
        pinned = () if check else pinned_with(atk, b, k, side)
        out = []
        app = out.append
        make, unmake = pos.make, pos.unmake
        for m in moves:
            frm = (m >> FROM_SHIFT) & CELL
            if not check and frm != k and frm not in pinned and b[m & CELL] not in fw:
                app(m)
                continue
            make(m)
            a2 = patt_them[(fw[0] in b) * 2 + (fw[1] in b)]
            if not attacked(a2, b, pos.king[side]):
                app(m)
            unmake()
        return out

    # ---- position checks ----------------------------------------------------------------
    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        b = pos.board
        pts = self.piece_types
        for color in (WHITE, BLACK):
            who = "white" if color == WHITE else "black"
            kings = sum(1 for p in b if p and p & 1 == color and pts[p >> 1].royal)
            if kings != 1:
                raise PositionTextError(f"each side needs exactly one King ({who} kings: {kings})")
            for code, piece in ((self.fcode[color], "Fezbabas"), (self.wcode[color], "Waffles")):
                n = b.count(code)
                if n > 1:
                    raise PositionTextError(f"a side has at most one Fezbaba and one Waffle "
                                            f"({who} {piece}: {n})")
        super().validate_position(pos)

    # ---- search awareness ---------------------------------------------------------------
    _FROZEN_SHARE = 0.75     # frozen material is worth this much less (it still blocks)
    _SEMI_ROYAL_THREAT = 60  # an F/W that the side to move can take next

    def _frozen(self, pos, color, hasf, hasw) -> int:
        """The value of the pieces of ``color`` that cannot move for want of their F or W."""
        b = pos.board
        pts = self.piece_types
        need = self.need
        frozen = 0
        for c in pos.occ[color]:
            nd = need[b[c]]
            if (nd == 1 and not hasf) or (nd == 2 and not hasw):
                frozen += pts[b[c] >> 1].value or 0
        return frozen

    def stalemate_risk(self, pos):
        """Only a side that has lost its Fezbaba or its Waffle, its own pieces then frozen and
        blocking, may run out of moves out of check (the F and W leap out of any crowd):
        quiescence elsewhere takes only the legal captures and promotions."""
        b = pos.board
        side = pos.side
        return self.fcode[side] not in b or self.wcode[side] not in b

    def capture_gains(self, pos):
        """Taking the opponent's Fezbaba or Waffle also freezes the pieces that need it: the
        gain beyond its value is the share of their value the evaluation writes off."""
        them = pos.side ^ 1
        b = pos.board
        fc, wc = self.fcode[them], self.wcode[them]
        hasf = fc in b
        hasw = wc in b
        if not hasf and not hasw:
            return None
        need = self.need
        pts = self.piece_types
        kept = [0, 0, 0]            # by need: nothing, the Fezbaba, the Waffle
        for c in pos.occ[them]:
            kept[need[b[c]]] += pts[b[c] >> 1].value or 0
        gains = [0] * len(need)
        if hasf:
            gains[fc] = int(kept[1] * self._FROZEN_SHARE)
        if hasw:
            gains[wc] = int(kept[2] * self._FROZEN_SHARE)
        return gains

    def eval_terms(self, pos) -> int:
        """Centipawns for the side to move: material frozen by a lost Fezbaba or Waffle is
        mostly written off, and an enemy F/W we attack is worth part of what it guards."""
        side = pos.side
        them = side ^ 1
        b = pos.board
        fc, wc = self.fcode, self.wcode
        f0, w0, f1, w1 = fc[side] in b, wc[side] in b, fc[them] in b, wc[them] in b
        score = 0
        if not (f0 and w0):
            score -= int(self._frozen(pos, side, f0, w0) * self._FROZEN_SHARE)
        if not (f1 and w1):
            score += int(self._frozen(pos, them, f1, w1) * self._FROZEN_SHARE)
        atk = None
        for code, here in ((fc[them], f1), (wc[them], w1)):
            if here:
                if atk is None:
                    atk = self._patt()[side][f0 * 2 + w0]
                if attacked_with(atk, b, b.index(code)):
                    score += self._SEMI_ROYAL_THREAT
        return score
