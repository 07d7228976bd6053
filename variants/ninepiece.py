"""Ninepiece Nichtschach: nine linepieces on the 6x6x6 cube, fusion and fission, no king.

Rules, rulings, notes and figures: docs/variants/ninepiece.md (pieces, Stockbroker, fusion
table, end of the game).

Pieces (type ids in this order):
  1-3   R B U        straight riders (O6, SD12, ND8)
  4-9   G A S F C N  bent pieces: one step d1, then (only through an empty first cell) a ride
                     along a d2 of the second set with d1.d2 > 0; may stop after the step
  10    P            Stockbroker: one forward step; move-only / capture-only by the file's ring;
                     forced promotion to any of the nine simple pieces on the far rank
  11-34 (XY)         the 24 allowed compounds, components in canonical order R B U G A S F C N

Move kinds beyond the generic table moves (all made by make_special):
  FUSION  | SPECIAL  a simple piece's ordinary move onto a friendly simple piece of another
                     type whose pair is allowed; the target cell then holds the compound
  FISSION | SPECIAL  one component (its type id in the move's type field) makes its own move
                     to an empty cell; the other component stays behind
A compound's whole move is generated from the union of its components' atoms; a cell reached
by both components is one move (duplicates are dropped in ``legal_moves``).
"""
from __future__ import annotations

from engine.movegen import piece_targets
from engine.moves import FISSION, FUSION, SPECIAL
from engine.pieces import BENT, CAPTURE, MOVE, Atom, PieceType, compound_atoms, ride
from engine.tables import PieceTables, compile_piece
from engine.variant import WHITE
from variants.board3d import LATERAL, ND8, O6, SD12, SIZE, Board3D, Board3DText, ring

LINES = {"O": O6, "SD": SD12, "ND": ND8}

# canonical order of the simple linepieces (also the order of compound tokens)
ORDER = "RBUGASFCN"

# token: (name, short stage, long stage); straight pieces have both stages equal
SIMPLE = {
    "R": ("Rook", "O", "O"),
    "B": ("Bishop", "SD", "SD"),
    "U": ("Unicorn", "ND", "ND"),
    "G": ("Gryphon", "SD", "O"),
    "A": ("Anchorite", "O", "SD"),
    "S": ("Simurgh", "ND", "O"),
    "F": ("Farrier", "O", "ND"),
    "C": ("Celebrant", "ND", "SD"),
    "N": ("Nag", "SD", "ND"),
}

# the 24 compounds (docs/variants/ninepiece.md, "Fusion and fission"), with the fusion rule
# that allows each
COMPOUNDS = {
    "RB": ("Queen", 1), "RU": ("Duchess", 1), "BU": ("Governor", 1),
    "GA": ("Gorgon", 2), "SF": ("Mechanic", 2), "CN": ("Laypreacher", 2),
    "RG": ("Reaper", 3), "RS": ("Harpy", 3), "GS": ("Rooksheath", 3),
    "BA": ("Harvester", 3), "BC": ("Epicure", 3), "AC": ("Bishosheath", 3),
    "UF": ("Gunsmith", 3), "UN": ("Manticore", 3), "FN": ("Unicosheath", 3),
    "RA": ("Ancress", 4), "RF": ("Farrieress", 4), "AF": ("Ostler", 4),
    "BG": ("Metropolitan", 4), "BN": ("Patriarch", 4), "GN": ("Hippogryph", 4),
    "US": ("Cosmopolitan", 4), "UC": ("Godfather", 4), "SC": ("Termagant", 4),
}

# victory groups ("End of the game"): a side with no piece of one group (components included) has lost
GROUPS = ("RBU", "GCF", "ASN")
GROUP_NAMES = ("straight", "gryphon-celebrant-farrier", "anchorite-simurgh-nag")

# piece values in centipawns: about 30 cp per move of average mobility (measured with the
# evaluator's 35% blocker density) plus a base.  A compound is worth a little less than its
# two parts: it keeps both moves and may split again, but one capture takes both, so fusing
# must pay for itself in mobility (the evaluator's per-cell tables) or safety.
VALUES = {"R": 390, "B": 500, "U": 300, "G": 810, "A": 650, "S": 620, "F": 550, "C": 500,
          "N": 590, "P": 100}
COMPOUND_SHARE = 0.95


def angle_class(tok: str) -> frozenset:
    """The unordered pair of line kinds of a bent piece (its turning angle), None if straight."""
    _, short, long_ = SIMPLE[tok]
    return None if short == long_ else frozenset((short, long_))


def fusion_rule(a: str, b: str) -> int:
    """Number of the first fusion rule (1-4) that allows simple pieces a and b, 0 if none."""
    if a == b:
        return 0
    ka, kb = angle_class(a), angle_class(b)
    if ka is None and kb is None:
        return 1
    if ka is not None and ka == kb:
        return 2
    if SIMPLE[a][2] == SIMPLE[b][2]:
        return 3
    if SIMPLE[a][1] == SIMPLE[b][1]:
        return 4
    return 0


def compound_token(a: str, b: str) -> str:
    x, y = sorted((a, b), key=ORDER.index)
    return x + y


def dot(v, w) -> int:
    return sum(a * b for a, b in zip(v, w))


def bent_atom(first: str, second: str) -> Atom:
    seconds = LINES[second]

    def turns(v, seconds=seconds):
        return [w for w in seconds if dot(v, w) > 0]
    return Atom(LINES[first], BENT, turns=turns)


def _on(l, f):
    return 0 <= l < SIZE and 0 <= f < SIZE


def stockbroker_move_vectors(coord):
    """fO and the two forward SD steps that keep the file's ring (non-capturing only)."""
    l, f = coord[0], coord[1]
    r0 = ring(l, f)
    out = [(0, 0, 1)]
    for dl, df in LATERAL:
        if _on(l + dl, f + df) and ring(l + dl, f + df) == r0:
            out.append((dl, df, 1))
    return out


def stockbroker_capture_vectors(coord):
    """The forward SD steps that change ring, and all four forward ND steps (capture only)."""
    l, f = coord[0], coord[1]
    r0 = ring(l, f)
    out = []
    for dl, df in LATERAL:
        if _on(l + dl, f + df) and ring(l + dl, f + df) != r0:
            out.append((dl, df, 1))
    for dl in (1, -1):
        for df in (1, -1):
            out.append((dl, df, 1))
    return out


def simple_piece(tok: str) -> PieceType:
    name, short, long_ = SIMPLE[tok]
    atoms = (ride(LINES[short]),) if short == long_ else (bent_atom(short, long_),)
    return PieceType(name, tok, atoms, value=VALUES[tok], extra={"short": short, "long": long_})


def build_piece_types() -> list:
    simples = {t: simple_piece(t) for t in ORDER}
    types: list = [None] + [simples[t] for t in ORDER]
    types.append(PieceType("Stockbroker", "P", (
        Atom(stockbroker_move_vectors, mode=MOVE),
        Atom(stockbroker_capture_vectors, mode=CAPTURE),
    ), pawn=True, value=VALUES["P"]))
    for pair, (name, rule) in COMPOUNDS.items():
        a, b = pair
        pt = PieceType(name, f"({pair})", compound_atoms(simples[a], simples[b]),
                       components=(a, b), value=int(COMPOUND_SHARE * (VALUES[a] + VALUES[b])),
                       extra={"rule": rule})
        types.append(pt)
    return types


class NinepieceText(Board3DText):
    """3D-FEN; the `d` picture also lists compounds and group carriers."""

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
        lines = [gap.join(f"  {lv}".ljust(2 + 3 * SIZE - 1) for lv in "uvwxyz").rstrip()]
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
            counts = v.group_carriers(pos, color)
            lines.append(f"{word} group carriers: " + ", ".join(
                f"{g} {n}" for g, n in zip(GROUPS, counts)))
        return lines


class Ninepiece(Board3D):
    name = "ninepiece-nichtschach"
    notation_class = NinepieceText
    start_fen = ("rgsfar/pppppp/6/6/PPPPPP/RGSFAR|abcnbg/pppppp/6/6/PPPPPP/ABCNBG|"
                 "fnuucs/pppppp/6/6/PPPPPP/FNUUCS|scuunf/pppppp/6/6/PPPPPP/SCUUNF|"
                 "gbncba/pppppp/6/6/PPPPPP/GBNCBA|rafsgr/pppppp/6/6/PPPPPP/RAFSGR w [-] 0 1")
    royal_check = False
    hands = False
    stalemate_result = "loss"      # no legal move loses ("End of the game")
    move_rule_plies = 100
    move_rule_name = "100-ply rule"   # the rules count plies, not moves
    repetition_count = 3

    def __init__(self):
        self.piece_types = build_piece_types()
        super().__init__()
        pts = self.piece_types
        ncodes = 2 * len(pts)
        self.simple_ids = tuple(self.by_token[t].id for t in ORDER)
        self.stockbroker_id = self.by_token["P"].id
        self.first_compound = min(pt.id for pt in pts if pt is not None and pt.components)
        # fuse[mover_code][target_code] -> compound code (0 = no fusion)
        fuse = [[0] * ncodes for _ in range(ncodes)]
        # split[compound code] -> ((component code, other component code), ...)
        split = [()] * ncodes
        # group bits per code (bit 0 straight, 1 G/C/F, 2 A/S/N)
        gmask = [0] * ncodes
        for pt in pts:
            if pt is None:
                continue
            toks = pt.components or ((pt.token,) if pt.token in SIMPLE else ())
            bits = 0
            for t in toks:
                for gi, g in enumerate(GROUPS):
                    if t in g:
                        bits |= 1 << gi
            for color in (0, 1):
                gmask[pt.id * 2 + color] = bits
                if pt.components:
                    a, b = (self.by_token[t].id * 2 + color for t in pt.components)
                    split[pt.id * 2 + color] = ((a, b), (b, a))
        for a in ORDER:
            for b in ORDER:
                if fusion_rule(a, b):
                    cid = self.by_token["(" + compound_token(a, b) + ")"].id
                    for color in (0, 1):
                        fuse[self.by_token[a].id * 2 + color][self.by_token[b].id * 2 + color] = \
                            cid * 2 + color
        self.fuse = fuse
        self.split = split
        self.gmask = gmask
        self._simple_code = [bool(pts[c >> 1] is not None and pts[c >> 1].token in SIMPLE)
                             for c in range(ncodes)]

    # ---- tables ---------------------------------------------------------------------------
    def build_tables(self):
        """As the base compiles them, except that a compound's tables are its two components'
        tables joined cell by cell (the same result as compiling the union of the atoms, in a
        fraction of the time: 24 of the 34 piece types are compounds)."""
        t = {}
        compounds = []
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
                ta, tb = (t[self.by_token[c].id * 2 + color] for c in pt.components)
                tab = PieceTables(pt.id * 2 + color, n)
                for attr in ("leaps", "mleaps", "cleaps", "rides", "mrides", "crides",
                             "special", "bent"):
                    setattr(tab, attr, [x + y for x, y in zip(getattr(ta, attr), getattr(tb, attr))])
                tab.simple = ta.simple and tb.simple
                t[pt.id * 2 + color] = tab
        return t

    # ---- promotion --------------------------------------------------------------------
    def promotion_options(self, code, frm, to):
        if code >> 1 != self.stockbroker_id:
            return ()
        far = 5 if code & 1 == WHITE else 0
        if self.geometry.coords[to][2] != far:
            return ()
        return self.simple_ids

    # ---- fusion and fission -------------------------------------------------------------
    def extra_moves(self, pos, out):
        b = pos.board
        side = pos.side
        tl = self.table_list
        fuse = self.fuse
        split = self.split
        simple = self._simple_code
        app = out.append
        ffl = SPECIAL | FUSION
        xfl = SPECIAL | FISSION
        for s in pos.occ[side]:
            code = b[s]
            base = s << 8
            if simple[code]:
                row = fuse[code]
                T = tl[code]
                # fusion: the first occupied cell of each line, if a friendly partner
                for ray in T.rides[s]:
                    for t in ray:
                        p = b[t]
                        if p:
                            if row[p]:
                                app(base | t | ffl)
                            break
                for c1, stop1, rays in T.bent[s]:
                    p = b[c1]
                    if p:
                        if stop1 and row[p]:
                            app(base | c1 | ffl)
                        continue
                    for ray in rays:
                        for t in ray:
                            p = b[t]
                            if p:
                                if row[p]:
                                    app(base | t | ffl)
                                break
            else:
                parts = split[code]
                if not parts:
                    continue
                # fission: each component to each empty cell its own move reaches (the
                # core's walker of a piece's tables; its captures are dropped)
                for comp, _ in parts:
                    mb = base | ((comp >> 1) << 16) | xfl
                    tg: list[int] = []
                    piece_targets(tl[comp], s, b, side, -1, tg.append)
                    for t in tg:
                        if not b[t]:
                            app(mb | t)

    def legal_moves(self, pos, pseudo):
        # no check in Nichtschach: every pseudo-legal move is legal; a compound's two
        # components may reach one cell by two paths, which is still one move
        # a position whose side to move has lost a whole group is over: no moves (this is
        # also what the reference perft counts)
        b = pos.board
        gm = self.gmask
        m = 0
        fc = self.first_compound * 2
        compound = False
        for s in pos.occ[pos.side]:
            c = b[s]
            m |= gm[c]
            if c >= fc:
                compound = True
        if m != 7:
            return []
        return list(dict.fromkeys(pseudo)) if compound else pseudo

    def make_special(self, pos, m):
        to = m & 255
        frm = (m >> 8) & 255
        b = pos.board
        if m & FUSION:
            mover, target = b[frm], b[to]
            pos.clear(frm)
            pos.clear(to)
            pos.put(to, self.fuse[mover][target])
            undo = (mover, target)
        else:   # FISSION
            comp = b[frm]
            moving = ((m >> 16) & 255) * 2 + (comp & 1)
            a, rest = self.split[comp][0]
            if a != moving:
                rest = a
            pos.clear(frm)
            pos.put(frm, rest)
            pos.put(to, moving)
            undo = comp
        pos.halfmove += 1      # fusion and fission can be undone: no reset
        return undo

    def unmake_special(self, pos, m, undo):
        to = m & 255
        frm = (m >> 8) & 255
        if m & FUSION:
            mover, target = undo
            pos.clear(to)
            pos.put(to, target)
            pos.put(frm, mover)
        else:
            pos.clear(to)
            pos.clear(frm)
            pos.put(frm, undo)

    # ---- victory ------------------------------------------------------------------------
    def group_masks(self, pos):
        b = pos.board
        gm = self.gmask
        out = []
        for color in (0, 1):
            m = 0
            for s in pos.occ[color]:
                m |= gm[b[s]]
                if m == 7:
                    break
            out.append(m)
        return out

    def adjudicate(self, pos):
        masks = self.group_masks(pos)
        side = pos.side
        if masks[side] != 7:
            return (-1, f"{GROUP_NAMES[_first_missing(masks[side])]} group eliminated")
        if masks[side ^ 1] != 7:
            return (1, f"{GROUP_NAMES[_first_missing(masks[side ^ 1])]} group eliminated")
        return None


    # ---- positions and display -------------------------------------------------------------
    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        pid = self.stockbroker_id
        for cell, p in enumerate(pos.board):
            if p >> 1 == pid and self.rank_of(cell, p & 1) == SIZE - 1:
                raise PositionTextError(
                    f"unpromoted Stockbroker on its far rank ({self.geometry.name(cell)})")
        if any(pos.hand):
            raise PositionTextError("Ninepiece has no hands ([-])")

    # ---- searcher support ----------------------------------------------------------------
    def is_tactical(self, pos, m):
        """Captures and promotions.  Fusion lands on a friendly piece and fission carries a
        type id, but both are quiet."""
        if m & SPECIAL:
            return False
        if (m >> 16) & 255:
            return True
        p = pos.board[m & 255]
        return p != 0 and (p & 1) != pos.side

    def group_carriers(self, pos, color):
        """For each victory group, how many of the colour's board pieces carry a member
        (a compound counts once for each group it carries)."""
        b = pos.board
        gm = self.gmask
        n0 = n1 = n2 = 0
        for s in pos.occ[color]:
            g = gm[b[s]]
            if g:
                n0 += g & 1
                n1 += (g >> 1) & 1
                n2 += g >> 2
        return n0, n1, n2

    # penalty by number of pieces still carrying a group: one capture away from losing is
    # serious; a compound that is the sole carrier of two groups is worse still
    RISK = (0, 320, 90, 30)

    def _risk(self, pos, color):
        b = pos.board
        gm = self.gmask
        cnt = [0, 0, 0]
        comp = []
        for s in pos.occ[color]:
            g = gm[b[s]]
            if g:
                if g & 1:
                    cnt[0] += 1
                if g & 2:
                    cnt[1] += 1
                if g & 4:
                    cnt[2] += 1
                if g & (g - 1):
                    comp.append(g)
        risk = self.RISK
        pen = 0
        for n in cnt:
            if n < 4:
                pen += risk[n]
        for g in comp:
            # a compound carrying two groups that are both thin: losing it costs double
            thin = sum(1 for i in range(3) if g >> i & 1 and cnt[i] <= 2)
            if thin == 2:
                pen += 80
        return pen, min(cnt)

    def eval_terms(self, pos):
        """Centipawns for the side to move: group-elimination risk of both sides, and the
        worth of Stockbrokers near promotion when a group is thin (a promotion restores it)."""
        side = pos.side
        us, ulow = self._risk(pos, side)
        them, tlow = self._risk(pos, side ^ 1)
        score = them - us
        if ulow <= 2 or tlow <= 2:
            b = pos.board
            pid = self.stockbroker_id
            rank_of = self.rank_of
            for color, low, sign in ((side, ulow, 1), (side ^ 1, tlow, -1)):
                if low > 2:
                    continue
                for s in pos.occ[color]:
                    if b[s] >> 1 == pid:
                        r = rank_of(s, color)
                        if r >= 3:
                            score += sign * 25 * (r - 2)
        return score

def _first_missing(mask: int) -> int:
    for i in range(3):
        if not mask >> i & 1:
            return i
    return 0


VARIANTS = {"ninepiece-nichtschach": Ninepiece}
