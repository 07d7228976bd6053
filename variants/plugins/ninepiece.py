"""Ninepiece Nichtschach's rules that are not data, as the plugin ``fusion = ninepiece``
(docs/variants/ninepiece.md: fusion and fission, the Stockbroker, the victory groups).

The section (variants/files/ninepiece.ini) gives the cube, the nine linepieces in the 3D
notation (``R = O*`` ... ``G = S>O*`` ...), the Stockbroker's ring-free steps (``mfO cfT``),
its promotion, the start array and the draw rules.  This plugin adds:

* **The Stockbroker's ring steps.**  Its forward SD steps are move-only when they keep the
  ring of the file (the square ring around the rank axis the (level, filestack) pair lies in)
  and capture-only when they change it: a rule of the cell the 3D notation has no word for.
  The plugin gives the piece its two cell-dependent atoms (``stockbroker_move`` and
  ``stockbroker_capture``), which include the file's ``mfO`` and ``cfT``.
* **Compounds.**  Piece types 11-34 after the file's pieces: the 24 allowed pairs of two
  different linepieces (``(RB)`` Queen ...), each moving as either component.  A pair is
  allowed by the four fusion rules, read from each piece's stages in the file (a straight
  ``X*`` has both stages X; a bent ``X>Y*`` the short stage X and the long stage Y).  Their
  tables are the components' tables joined cell by cell.
* **Moves** beyond the tables (``extra_moves``/``make_special``): FUSION | SPECIAL, a simple
  linepiece's ordinary move onto a friendly partner; FISSION | SPECIAL, one component (its
  type id in the move's type field) to an empty cell its own move reaches.
* **The end**: a side without a piece of a group {R B U}, {G C F}, {A S N} has lost
  (``adjudicate``; ``legal_moves`` then gives no moves), and the evaluation terms of the
  group risk (``eval_terms``); fusion and fission are quiet (``is_tactical``).
* **Text**: 3D-FEN with the hand as its own field (always ``[-]``), compounds as ``(RB)``;
  the ``d`` picture lists compounds and each side's group carriers.

The board is the file's cube seen in the Nichtschach family's coordinates (level, file, rank)
(docs/variants/nichtschach.md, "The board"): the same cells, numbers and names, with the 3D
notation's (file, rank, level) vectors turned into that order and each piece's directions
sorted as the cube's direction sets (O6, SD12, ND8 of variants/board3d.py), so that moves are
generated in the same order as by the built-in module this plugin replaces.
"""
from __future__ import annotations

from dataclasses import replace

from engine.fusion import FusionRules
from engine.geometry import grid3d
from engine.moves import CELL, FROM_SHIFT, FUSION, TYPE_MASK, TYPE_SHIFT
from engine.pieces import CAPTURE, LEAP, MOVE, Atom, PieceType, compound_atoms
from engine.tables import PieceTables, compile_piece
from engine.variant import CAPTURE_WINS
from variants.board3d import SIZE, Board3DText, ring
from variants.inifile.values import in_region

from . import Plugin, PluginError
from .masks import army_memo
from .ninepiece_pieces import (COMPOUND_NAMES, COMPOUND_SHARE, GROUP_NAMES, GROUPS, LINE, NAMES,
                               ORDER, STAGES, STOCKBROKER, VALUES, in_cube, stages_of,
                               stockbroker_capture, stockbroker_move, fusion_rule)
from variants.inifile.filevariant import RuleBase

__all__ = ["Ninepiece", "NinepieceText", "ORDER", "fusion_rule"]

class NinepieceText(Board3DText):
    """3D-FEN with the hand as its own field (always ``[-]``); the `d` picture also lists
    compounds and group carriers."""

    def hand_order(self):
        """R B Q U D G first, the other letters alphabetically, F and P last (the order of
        docs/variants/nichtschach.md, "The board"; Ninepiece's hand is always empty)."""
        v = self.variant
        toks = [pt.token for pt in v.piece_types if pt is not None]
        first = [t for t in "RBQUDG" if t in toks]
        last = [t for t in "FP" if t in toks]
        mid = sorted(t for t in toks if t not in first and t not in last)
        return [v.by_token[t].id for t in first + mid + last]

    def diagram(self, pos):
        """Six level slices side by side; a compound shows as its two letters without
        brackets (cells are blank-separated, so 'RB' is one cell), listed with names below."""
        v = self.variant
        geo = v.geometry
        pts = v.piece_types
        toks = []
        for p in pos.board:
            if not p:
                toks.append(".")
                continue
            t = pts[p >> 1].token.strip("()")
            toks.append(t.lower() if p & 1 else t)
        layout = self.layout
        gap = "   "
        names = v.level_names
        lines = [gap.join(f"  {lv}".ljust(2 + 3 * SIZE - 1) for lv in names).rstrip()]
        for row in range(SIZE):
            parts = [f"{SIZE - row} " + " ".join(f"{toks[c]:>2}" for c in layout[lv][row])
                     for lv in range(SIZE)]
            lines.append(gap.join(parts))
        files = " ".join(f"{chr(97 + f):>2}" for f in range(SIZE))
        lines.append(gap.join(f"  {files}" for _ in range(SIZE)))
        comps = [f"{geo.name(c)} {toks[c]} {pts[p >> 1].name}"
                 for c, p in enumerate(pos.board) if p and pts[p >> 1].components]
        if comps:
            lines.append("Compounds: " + ", ".join(comps))
        for color, word in ((0, "White"), (1, "Black")):
            counts = v._group_carriers(pos, color)
            lines.append(f"{word} group carriers: " + ", ".join(
                f"{g} {n}" for g, n in zip(GROUPS, counts)))
        return lines


class Ninepiece(Plugin, RuleBase):
    """Fusion, fission, compounds, the Stockbroker's ring steps and the group rules."""
    plugin_name = "ninepiece"
    plugin_key = "fusion"
    notation_class = NinepieceText
    # the cube's frame (Black's vectors mirror the rank only) and the Stockbroker's own
    # promotion replace the solid board's and the drop keys' versions
    plugin_replaces = frozenset({"orient", "white_coord", "promotion_options"})
    # the Stockbroker (the one piece whose moves restart the move count) only moves forward,
    # so none of its moves can be taken back: no reversible moves to look up (and no tables
    # to compile while the file is loaded)
    reversible = None

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        need = {"solid": "true", "levels": "6", "maxFile": "f", "maxRank": "6", "blackFrame": "rank"}
        for key, want in need.items():
            if keys.get(key, "").strip().lower() != want.lower():
                raise PluginError(key if key in keys else "fusion",
                                  f"ninepiece needs {key} = {want}", keys.get(key, "ninepiece"))
        if keys.get("king", "k").strip() != "-":
            raise PluginError("king", "ninepiece has no royal piece (king = -)", keys.get("king", "k"))
        for key in ("pieceDrops", "capturesToHand"):
            if keys.get(key, "false").lower() in ("true", "1", "yes"):
                raise PluginError(key, "ninepiece has no hands", keys[key])
        pawns = set(keys.get("pawnTypes", ""))
        letters = set()
        for key, value in keys.items():
            if not key.startswith("customPiece") or value.strip() == "-":
                continue
            letter, _, text = value.partition(":")
            letter = letter.strip().upper()
            letters.add(letter)
            if letter.lower() in pawns:
                if " ".join(text.split()) != STOCKBROKER:
                    raise PluginError(key, f"ninepiece's Stockbroker is written {STOCKBROKER} "
                                           f"(the plugin adds its ring steps)", text)
            elif letter not in STAGES:
                raise PluginError(key, "ninepiece's pieces are the linepieces R B U G A S F C "
                                       "N and the Stockbroker", value)
            elif stages_of(text) != STAGES[letter]:
                want = "".join(k for k, x in LINE.items() if x == STAGES[letter][0])
                if STAGES[letter][0] != STAGES[letter][1]:
                    want += ">" + "".join(k for k, x in LINE.items() if x == STAGES[letter][1])
                raise PluginError(key, f"ninepiece's {NAMES[letter]} is written {want}*", text)
        missing = [t for t in ORDER + "P" if t not in letters]
        if missing:
            raise PluginError("fusion", "ninepiece needs the pieces R B U G A S F C N and the "
                                        "Stockbroker P", "".join(missing))

    # ---- pieces ---------------------------------------------------------------------------
    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        """The file's piece named and valued as in docs/variants/ninepiece.md, its directions
        in the cube's order; the Stockbroker with its ring steps."""
        pt = super()._piece(name, letter, betza)
        tok = pt.token
        if pt.pawn:
            atoms: tuple[Atom, ...] = (Atom(stockbroker_move, LEAP, MOVE),
                                       Atom(stockbroker_capture, LEAP, CAPTURE))
            return replace(pt, name=NAMES[tok], atoms=atoms, value=VALUES[tok])
        short, long_ = STAGES[tok]
        return replace(pt, name=NAMES[tok], atoms=tuple(in_cube(a) for a in pt.atoms),
                       value=VALUES[tok], extra={"short": short, "long": long_})

    def _forms(self, base: list[PieceType]) -> list[PieceType]:
        """The file's other forms, then the 24 compounds (tokens in the order R B U G A S F C
        N: ``(RB)``), in the order of docs/variants/ninepiece.md's table."""
        out = super()._forms(base)
        simples = sorted((pt for pt in base if pt.token in STAGES), key=lambda pt: ORDER.index(pt.token))
        for i, a in enumerate(simples):
            for b in simples[i + 1:]:
                rule = fusion_rule(a.token, b.token)
                if not rule:
                    continue
                pair = a.token + b.token
                assert a.value is not None and b.value is not None
                out.append(PieceType(COMPOUND_NAMES.get(pair, f"{a.name}-{b.name}"), f"({pair})",
                                     compound_atoms(a, b), components=(a.token, b.token),
                                     value=int(COMPOUND_SHARE * (a.value + b.value)),
                                     extra={"rule": rule}))
        out.sort(key=lambda pt: _RULE_ORDER.get(pt.token.strip("()"), 99))
        return out

    def __init__(self) -> None:
        super().__init__()
        pts = self.piece_types
        by_token = self.by_token
        # the cube in the Nichtschach family's coordinates (level, file, rank), as
        # docs/variants/nichtschach.md names them: the file's cells, numbered and named alike
        geo = grid3d(SIZE, SIZE, SIZE, self.level_names)
        assert geo.names == self.geometry.names
        self.geometry = geo
        # the ring of each cell's file, and the linepieces a Stockbroker may become
        # (solid.py's ring_of property reads this cache first)
        self.__dict__["_ring_of"] = [ring(c[0], c[1]) for c in geo.coords]
        self.simple_ids = tuple(by_token[t].id for t in ORDER)
        ncodes = 2 * len(pts)
        simple_tokens = [pt.token for pt in pts if pt is not None and pt.token in STAGES]
        self._stockbroker_id = next(pt.id for pt in pts if pt is not None and pt.pawn)
        self._first_compound = min(pt.id for pt in pts if pt is not None and pt.components)
        # fuse[mover code][target code] -> compound code (0: no fusion)
        fuse = [[0] * ncodes for _ in range(ncodes)]
        # split[compound code] -> ((component code, other component code), ...)
        split: list[tuple] = [()] * ncodes
        # group bits per code (bit 0 straight, 1 G/C/F, 2 A/S/N)
        gmask = [0] * ncodes
        for pt in pts:
            if pt is None:
                continue
            toks = pt.components or ((pt.token,) if pt.token in simple_tokens else ())
            bits = 0
            for t in toks:
                for gi, g in enumerate(GROUPS):
                    if t in g:
                        bits |= 1 << gi
            for color in (0, 1):
                gmask[pt.id * 2 + color] = bits
                if pt.components:
                    a, b = (by_token[t].id * 2 + color for t in pt.components)
                    split[pt.id * 2 + color] = ((a, b), (b, a))
                    fuse[a][b] = fuse[b][a] = pt.id * 2 + color
        self._fuse = fuse
        self._split = split
        self._gmask = gmask
        self._group_armies = army_memo(self._army_facts)
        self._simple_code = [bool((spt := pts[c >> 1]) is not None and spt.token in simple_tokens)
                             for c in range(ncodes)]
        # the per-node work of the hooks below runs in the compiled engine (engine/fusion.py),
        # which the searcher and the generator call directly
        rank = [[self._rank(c, color) for c in range(geo.size)] for color in (0, 1)]
        core = FusionRules(fuse, split, self._simple_code, gmask, self._first_compound * 2,
                           self._stockbroker_id, rank, [f"{g} group eliminated" for g in GROUP_NAMES],
                           self._group_armies)
        self._core = core
        for hook, fast in (("extra_moves", core.extra_moves), ("legal_moves", core.legal_moves),
                           ("adjudicate", core.adjudicate), ("is_tactical", core.is_tactical),
                           ("capture_gains", core.capture_gains), ("eval_terms", core.terms)):
            if getattr(type(self), hook) is getattr(Ninepiece, hook):    # not overridden
                self.__dict__[hook] = fast

    def _rank(self, cell: int, color: int) -> int:
        """0 = own back rank .. 5 = far rank, in the colour's own frame."""
        r = self.geometry.coords[cell][2]
        return r if color == 0 else SIZE - 1 - r

    # ---- frames (the cube's coordinates) --------------------------------------------------
    def orient(self, v):
        """Black's vectors are White's with the rank component negated."""
        return (v[0], v[1], -v[2])

    def white_coord(self, coord, color):
        if color == 0:
            return coord
        return (coord[0], coord[1], SIZE - 1 - coord[2])

    # ---- tables ---------------------------------------------------------------------------
    def build_tables(self):
        """As the core compiles them, except that a compound's tables are its two components'
        tables joined cell by cell (the same result as compiling the union of the atoms, in a
        fraction of the time: 24 of the 34 piece types are compounds)."""
        t = {}
        compounds = []
        by_token = self.by_token
        for pt in self.piece_types:
            if pt is None:
                continue
            if pt.components:
                compounds.append(pt)
                continue
            for color in (0, 1):
                t[pt.id * 2 + color] = compile_piece(self, pt, color)
        n = self.geometry.size
        for pt in compounds:
            for color in (0, 1):
                ta, tb = (t[by_token[c].id * 2 + color] for c in pt.components)
                tab = PieceTables(pt.id * 2 + color, n)
                for attr in ("leaps", "mleaps", "cleaps", "rides", "mrides", "crides",
                             "special", "bent"):
                    setattr(tab, attr, [x + y for x, y in zip(getattr(ta, attr), getattr(tb, attr))])
                tab.simple = ta.simple and tb.simple
                t[pt.id * 2 + color] = tab
        return t

    # ---- promotion ------------------------------------------------------------------------
    def promotion_options(self, code, frm, to):
        """Only the Stockbroker promotes, where and to what the file's promotion keys say
        (read here, in the cube's coordinates); every other piece is answered at once, since
        the table of promotions asks for each move of each of the 34 piece types."""
        if code >> 1 != self._stockbroker_id:
            return ()
        color = code & 1
        lv, f, r = self.geometry.coords[to]
        if not in_region((f, r, lv), self.promo_region[color]):
            return ()
        ids = tuple(sorted(self.by_token[t.upper()].id
                           for t in self.promo_letters[color]))
        return ids if self.promo_mandatory else (0,) + ids

    # ---- fusion and fission ---------------------------------------------------------------
    def extra_moves(self, pos, out):
        """Fusion: a simple linepiece's ordinary move onto a friendly partner (the first
        occupied cell of each line); fission: one component to each empty cell its own move
        reaches (``FusionRules.extra_moves``)."""
        self._core.extra_moves(pos, out)

    def legal_moves(self, pos, pseudo):
        """No check in the game: every pseudo-legal move is legal, but a position whose side
        to move has lost a whole group is over (no moves, as the reference perft counts), and
        a compound's two components reaching one cell by two paths make one move."""
        return self._core.legal_moves(pos, pseudo)

    def make_special(self, pos, m):
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        b = pos.board
        if m & FUSION:
            mover, target = b[frm], b[to]
            pos.clear(frm)
            pos.clear(to)
            pos.put(to, self._fuse[mover][target])
            undo = (mover, target)
        else:   # FISSION
            comp = b[frm]
            moving = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + (comp & 1)
            a, rest = self._split[comp][0]
            if a != moving:
                rest = a
            pos.clear(frm)
            pos.put(frm, rest)
            pos.put(to, moving)
            undo = comp
        pos.halfmove += 1      # fusion and fission can be undone: no reset
        return undo

    def unmake_special(self, pos, m, undo):
        to = m & CELL
        frm = (m >> FROM_SHIFT) & CELL
        if m & FUSION:
            mover, target = undo
            pos.clear(to)
            pos.put(to, target)
            pos.put(frm, mover)
        else:
            pos.clear(to)
            pos.clear(frm)
            pos.put(frm, undo)

    # ---- victory ----------------------------------------------------------------------------
    def adjudicate(self, pos):
        """The side to move, then the other, without a piece of a group has lost."""
        return self._core.adjudicate(pos)

    # ---- positions --------------------------------------------------------------------------
    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        pid = self._stockbroker_id
        for cell, p in enumerate(pos.board):
            if p >> 1 == pid and self._rank(cell, p & 1) == SIZE - 1:
                raise PositionTextError(
                    f"unpromoted Stockbroker on its far rank ({self.geometry.name(cell)})")
        if any(pos.hand):
            raise PositionTextError("Ninepiece has no hands ([-])")
        super().validate_position(pos)

    # ---- searcher support -------------------------------------------------------------------
    def is_tactical(self, pos, m):
        """Captures and promotions.  Fusion lands on a friendly piece and fission carries a
        type id, but both are quiet."""
        return self._core.is_tactical(pos, m)

    def capture_gains(self, pos):
        """Taking the opponent's last carrier of a group wins at once."""
        return self._core.capture_gains(pos)

    def _group_carriers(self, pos, color):
        """For each victory group, how many of the colour's board pieces carry a member
        (a compound counts once for each group it carries)."""
        b = pos.board
        gm = self._gmask
        n0 = n1 = n2 = 0
        for s in pos.occ[color]:
            g = gm[b[s]]
            if g:
                n0 += g & 1
                n1 += (g >> 1) & 1
                n2 += g >> 2
        return n0, n1, n2

    def _army_facts(self, codes):
        """For an army (the sorted codes of a side's board pieces): the group risk penalty,
        the fewest carriers of a group, the groups it still holds (bits of 7) and what
        capturing each code gains (``capture_gains``: taking a group's last carrier wins)."""
        gm = self._gmask
        cnt = [0, 0, 0]
        comp = []
        for c in codes:
            g = gm[c]
            if g:
                if g & 1:
                    cnt[0] += 1
                if g & 2:
                    cnt[1] += 1
                if g & 4:
                    cnt[2] += 1
                if g & (g - 1):
                    comp.append(g)
        pen = 0
        for n in cnt:
            if n < 4:
                pen += _RISK[n]
        for g in comp:
            # a compound carrying two groups that are both thin: losing it costs double
            thin = sum(1 for i in range(3) if g >> i & 1 and cnt[i] <= 2)
            if thin == 2:
                pen += 80
        held = sum(1 << i for i in range(3) if cnt[i])
        sole = sum(1 << i for i in range(3) if cnt[i] == 1)
        gains = [CAPTURE_WINS if g & sole else 0 for g in gm] if sole else None
        return pen, min(cnt), held, gains

    def eval_terms(self, pos):
        """Centipawns for the side to move: group-elimination risk of both sides, and the
        worth of Stockbrokers near promotion when a group is thin (a promotion restores it):
        ``FusionRules.terms``."""
        return self._core.terms(pos)


# penalty by number of pieces still carrying a group (index: carriers, 0..3)
_RISK = (0, 320, 90, 30)
# the compounds in the order of docs/variants/ninepiece.md's table (by fusion rule)
_RULE_ORDER = {pair: i for i, pair in enumerate(COMPOUND_NAMES)}
