"""Nested Chess, Variants A and B (rules and rulings: docs/variants/nested.md).

The board is the FIDE board drawn together with its square corners: a doubled 17x17 grid of
points (x, y in 0..16).  Points with both coordinates odd are the 64 squares, points with
both even are the corners ("vertices"), the four board corners excepted; mixed parity is not
a cell.  That gives 141 cells named a1..q17 (letter = x, number = y + 1).

The nested geometry is the board's own turned by 45 degrees: a nested orthogonal step is
(+-1, +-1) (square <-> vertex), a nested diagonal step is (+-2, 0) / (0, +-2).  Every piece is
plain table data (leaps and rides at multiples of their step).  What tables cannot say lives
in the hooks below:

* paralysis: without its Fezbaba a side cannot move B C D I E, without its Waffle it cannot
  move R N A P, and paralysed pieces give no check;
* double disappearance: a Camel taking the enemy Fezbaba (a Knight taking the enemy Waffle)
  also removes the mover's own Fezbaba (Waffle), judged by the piece before the move;
* legality is therefore tested with paralysis-aware attack tables, and a capture of F/W is
  always tried on the board (the generic pin shortcut cannot see the vanishing blocker);
* dynamic promotion choices (Pawn -> F only without a Fezbaba, Esquire -> W only without a
  Waffle).

The two starting arrays are reconstructed (the source diagrams are lost); they are the
``start_fen`` strings only.  The promotion zones are derived from them, so recovering the
original diagrams is a change of those strings.
"""
from __future__ import annotations

from engine.geometry import Geometry
from engine.movegen import attacked_with, pinned_with, pseudo_moves
from engine.notation.formats import TextFormat
from engine.pieces import CAPTURE, MOVE, PieceType, leap, ride
from engine.variant import BLACK, WHITE, Variant

N = 17              # points per side of the doubled grid
LAST = N - 1
CORNERS = {(0, 0), (LAST, 0), (0, LAST), (LAST, LAST)}

# nested directions in doubled-grid units
NWAZ = ((1, 1), (-1, 1), (1, -1), (-1, -1))          # nested orthogonal step
NFERZ = ((2, 0), (-2, 0), (0, 2), (0, -2))           # nested diagonal step
DABBA = ((2, 2), (-2, 2), (2, -2), (-2, -2))
LONG = ((4, 0), (-4, 0), (0, 4), (0, -4))
CAMEL = ((4, 2), (2, 4), (-4, 2), (-2, 4), (4, -2), (2, -4), (-4, -2), (-2, -4))
KNIGHT = ((3, 1), (1, 3), (-3, 1), (-1, 3), (3, -1), (1, -3), (-3, -1), (-1, -3))

BOUND = ("B", "C", "D", "I", "E")    # need the Fezbaba to move
UNBOUND = ("R", "N", "A", "P")       # need the Waffle to move


def nested_geometry() -> Geometry:
    coords = [(x, y) for y in range(N) for x in range(N)
              if (x & 1) == (y & 1) and (x, y) not in CORNERS]
    names = [f"{chr(97 + x)}{y + 1}" for x, y in coords]
    return Geometry(coords, names)


def on_edge(c) -> bool:
    x, y = c
    return x == 0 or y == 0 or x == LAST or y == LAST


def same_edge(a, b) -> bool:
    """Both points on one edge line (the edge-diagonal ban)."""
    return ((a[0] == b[0] and a[0] in (0, LAST)) or (a[1] == b[1] and a[1] in (0, LAST)))


def one_foot(a, b) -> bool:
    """A move between an edge line and its adjoining line, either way (Knights only)."""
    for i in (0, 1):
        for edge, adj in ((0, 1), (LAST, LAST - 1)):
            if (a[i] == edge and b[i] == adj) or (a[i] == adj and b[i] == edge):
                return True
    return False


def nested_pieces(pawn_move, pawn_capture, esq_move, esq_capture) -> list:
    """The twelve pieces; forward-only vectors are given in the first player's frame."""
    return [
        None,
        PieceType("King", "K", (leap(NWAZ + NFERZ),), royal=True),
        PieceType("Fezbaba", "F", (leap(NFERZ + DABBA),), value=400,
                  extra={"semi_royal": True}),
        PieceType("Waffle", "W", (leap(NWAZ + LONG),), value=350,
                  extra={"semi_royal": True}),
        PieceType("Bishop", "B", (ride(NFERZ),), value=500),
        PieceType("Camel", "C", (leap(CAMEL),), value=300),
        PieceType("Dabbarider", "D", (ride(DABBA),), value=325),
        PieceType("Inquisitor", "I", (ride(NFERZ), leap(DABBA)), value=600),
        PieceType("Esquire", "E", (leap(esq_move, MOVE), leap(esq_capture, CAPTURE)),
                  pawn=True, value=100),
        PieceType("Rook", "R", (ride(NWAZ),), value=550),
        PieceType("Knight", "N", (leap(KNIGHT),), value=275),
        PieceType("Infanta", "A", (ride(NWAZ), leap(LONG)), value=700),
        PieceType("Pawn", "P", (leap(pawn_move, MOVE), leap(pawn_capture, CAPTURE)),
                  pawn=True, value=100),
    ]


class NestedText(TextFormat):
    """Nested FEN: rows of the doubled grid top to bottom, vertices and squares of a row in
    file order, missing corners skipped; no castling or en-passant fields."""
    fields = ("side", "halfmove", "fullmove")

    def build_layout(self):
        geo = self.variant.geometry
        return [[[geo.index[(x, y)] for x in range(N) if (x, y) in geo.index]
                 for y in range(LAST, -1, -1)]]

    def diagram(self, pos):
        """Rows of the doubled grid, each point at column 4 + 2x: vertices and squares are
        offset as on the real board; 'o' empty vertex, '.' empty square, '#' missing corner."""
        from engine.notation.position_text import code_token
        geo = self.variant.geometry
        lines = []
        for y in range(LAST, -1, -1):
            row = [" "] * N
            for x in range(N):
                if (x & 1) != (y & 1):
                    continue
                c = geo.index.get((x, y))
                if c is None:
                    row[x] = "#"
                elif pos.board[c]:
                    row[x] = code_token(self.variant, pos.board[c])
                else:
                    row[x] = "o" if x % 2 == 0 else "."
            lines.append(f"{y + 1:>2}  " + " ".join(row).rstrip())
        lines.append("    " + " ".join(chr(97 + x) for x in range(N)))
        return lines


class NestedBase(Variant):
    notation_class = NestedText
    move_rule_plies = 100      # draw rules: ruling 13 of docs/variants/nested.md
    repetition_count = 3
    stalemate_result = "draw"
    capture_hook = True        # double disappearance
    check_hook = True          # paralysed pieces give no check
    fast_legality = False

    # forward-only vectors, first player's frame (set by the subclasses)
    pawn_move: tuple = ()
    pawn_capture: tuple = ()
    esq_move: tuple = ()
    esq_capture: tuple = ()

    def far_edge(self, c) -> bool:
        """Far edge line(s) in the first player's frame (part of the promotion zone)."""
        raise NotImplementedError

    def __init__(self):
        self.geometry = nested_geometry()
        self.piece_types = nested_pieces(self.pawn_move, self.pawn_capture,
                                         self.esq_move, self.esq_capture)
        super().__init__()
        geo = self.geometry
        tid = {t: pt.id for t, pt in self.by_token.items()}
        self.tid = tid
        ncodes = 2 * len(self.piece_types)
        # need[code]: 0 always mobile, 1 needs own Fezbaba, 2 needs own Waffle
        self.need = [0] * ncodes
        for t in BOUND:
            self.need[tid[t] * 2] = self.need[tid[t] * 2 + 1] = 1
        for t in UNBOUND:
            self.need[tid[t] * 2] = self.need[tid[t] * 2 + 1] = 2
        self.fcode = (tid["F"] * 2, tid["F"] * 2 + 1)
        self.wcode = (tid["W"] * 2, tid["W"] * 2 + 1)
        self.edge_cells = frozenset(i for i, c in enumerate(geo.coords) if on_edge(c))
        self._zone = None
        self._patt = None

    # ---- frames and compile-time filters -----------------------------------------------
    def allow_move(self, code, frm, to):
        a, b = self.geometry.coords[frm], self.geometry.coords[to]
        if same_edge(a, b):
            return False
        if self.piece_types[code >> 1].token == "N" and one_foot(a, b):
            return False
        return True

    # ---- promotion ------------------------------------------------------------------------
    @property
    def zone(self):
        """zone[colour] = frozenset of cells: the enemy camp of the start array plus the far
        edge line(s)."""
        if self._zone is None:
            geo = self.geometry
            board = self.start_position().board
            zones = []
            for color in (WHITE, BLACK):
                z = {c for c, p in enumerate(board) if p and (p & 1) != color}
                z |= {c for c in range(geo.size)
                      if self.far_edge(self.white_coord(geo.coords[c], color))}
                zones.append(frozenset(z))
            self._zone = tuple(zones)
        return self._zone

    def promotion_options(self, code, frm, to):
        tok = self.piece_types[code >> 1].token
        if tok not in ("P", "E") or to not in self.zone[code & 1]:
            return ()
        t = self.tid
        if tok == "P":
            opts = (t["R"], t["N"], t["A"])
            if to not in self.edge_cells:
                opts += (t["F"],)      # offered only while the side has no Fezbaba
            return opts
        return (t["B"], t["C"], t["D"], t["I"], t["W"])   # W only without a Waffle

    # ---- paralysis-aware attacks ----------------------------------------------------------
    @property
    def patt(self):
        """patt[colour][state]: the attack tables of that colour keeping only the pieces that
        can move in paralysis state  (has Fezbaba) * 2 + (has Waffle)."""
        if self._patt is None:
            out = []
            for color in (WHITE, BLACK):
                leaps, rays = self.attacks[color][:2]
                per = []
                for state in range(4):
                    hasf, hasw = state >> 1, state & 1

                    def ok(code, hasf=hasf, hasw=hasw):
                        return not ((self.need[code] == 1 and not hasf)
                                    or (self.need[code] == 2 and not hasw))

                    lt, rt, st = [], [], []
                    for t in range(self.geometry.size):
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
            self._patt = out
        return self._patt

    def state(self, b, color) -> int:
        return (self.fcode[color] in b) * 2 + (self.wcode[color] in b)

    def attacked_by(self, pos, t: int, by: int) -> bool:
        """Can a non-paralysed piece of colour `by` capture on cell t?"""
        b = pos.board
        return attacked_with(self.patt[by][self.state(b, by)], b, t)

    def in_check(self, pos, side):
        k = pos.king[side]
        return k >= 0 and self.attacked_by(pos, k, side ^ 1)

    # ---- double disappearance ------------------------------------------------------------
    def after_capture(self, pos, move, mover, captured):
        pm, pc = mover >> 1, captured >> 1
        t = self.tid
        if pm == t["C"] and pc == t["F"]:
            own = self.fcode[mover & 1]
        elif pm == t["N"] and pc == t["W"]:
            own = self.wcode[mover & 1]
        else:
            return None
        b = pos.board
        undo = []
        for c in list(pos.occ[mover & 1]):
            if b[c] == own:
                undo.append((c, own))
                pos.clear(c)
        return undo or None

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
                     if need[b[(m >> 8) & 255]] not in (frozen, frozen2)]
        else:
            moves = pseudo
        # dynamic promotion choices
        if hasf or hasw:
            moves = [m for m in moves if (m >> 16) & 255 not in (fprom, wprom)]
        k = pos.king[side]
        if k < 0:
            return moves
        fw = (self.fcode[them], self.wcode[them])
        patt_them = self.patt[them]
        atk = patt_them[self.state(b, them)]
        attacked = attacked_with
        check = attacked(atk, b, k)
        pinned = () if check else pinned_with(atk, b, k, side)
        out = []
        app = out.append
        make, unmake = pos.make, pos.unmake
        for m in moves:
            frm = (m >> 8) & 255
            if not check and frm != k and frm not in pinned and b[m & 255] not in fw:
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
        for color in (WHITE, BLACK):
            who = "white" if color == WHITE else "black"
            kings = sum(1 for p in b if p and p & 1 == color and self.piece_types[p >> 1].royal)
            if kings != 1:
                raise PositionTextError(f"each side needs exactly one King ({who} kings: {kings})")
            for code, piece in ((self.fcode[color], "Fezbabas"), (self.wcode[color], "Waffles")):
                n = b.count(code)
                if n > 1:
                    raise PositionTextError(f"a side has at most one Fezbaba and one Waffle "
                                            f"({who} {piece}: {n})")

    # ---- search awareness ---------------------------------------------------------------
    FROZEN_SHARE = 0.75     # frozen material is worth this much less (it still blocks)
    SEMI_ROYAL_THREAT = 60  # an F/W that the side to move can take next

    def _side_terms(self, pos, color) -> int:
        b = pos.board
        pts = self.piece_types
        need = self.need
        hasf = self.fcode[color] in b
        hasw = self.wcode[color] in b
        if hasf and hasw:
            return 0
        frozen = 0
        for c in pos.occ[color]:
            nd = need[b[c]]
            if (nd == 1 and not hasf) or (nd == 2 and not hasw):
                frozen += pts[b[c] >> 1].value or 0
        return -int(frozen * self.FROZEN_SHARE)

    def eval_terms(self, pos) -> int:
        """Centipawns for the side to move: material frozen by a lost Fezbaba or Waffle is
        mostly written off, and an enemy F/W we attack is worth part of what it guards."""
        side = pos.side
        them = side ^ 1
        score = self._side_terms(pos, side) - self._side_terms(pos, them)
        b = pos.board
        atk = None
        for code in (self.fcode[them], self.wcode[them]):
            if code in b:
                cell = b.index(code)
                if atk is None:
                    atk = self.patt[side][self.state(b, side)]
                if attacked_with(atk, b, cell):
                    score += self.SEMI_ROYAL_THREAT
        return score

    # ---- helpers for tests / tools ---------------------------------------------------------
    def moves_from(self, pos, cell):
        """Pseudo-legal moves of the piece on `cell` (paralysis ignored)."""
        return [m for m in pseudo_moves(pos) if (m >> 8) & 255 == cell]


class NestedA(NestedBase):
    name = "nested-a"
    start_fen = ("rnakwnr/bcdifdcb/ppppppppp/eeeeeeee/9/8/9/8/9/8/9/8/9/"
                 "EEEEEEEE/PPPPPPPPP/BCDIFDCB/RNAKWNR w 0 1")
    pawn_move = ((1, 1), (-1, 1))
    pawn_capture = ((0, 2),)
    esq_move = ((0, 2),)
    esq_capture = ((2, 2), (-2, 2))

    def far_edge(self, c):
        return c[1] == LAST

    def orient(self, v):
        return (v[0], -v[1])

    def white_coord(self, coord, color):
        return coord if color == WHITE else (coord[0], LAST - coord[1])


class NestedB(NestedBase):
    name = "nested-b"
    start_fen = ("4rna/4bcdf/4pppkw/3eeeid/5pppn/4e1ec/6ppr/1E3eeb/1P5p1/BEE3e1/RPP6/"
                 "CE1E4/NPPP5/DIEEE3/AKPPP4/FDCB4/WNR4 w 0 1")
    pawn_move = ((1, 1),)
    pawn_capture = ((2, 0), (0, 2))
    esq_move = ((2, 0), (0, 2))
    esq_capture = ((2, 2),)

    def far_edge(self, c):
        return c[0] == LAST or c[1] == LAST

    def orient(self, v):
        # Black's frame is the reflection (x, y) -> (16 - y, 16 - x)
        return (-v[1], -v[0])

    def white_coord(self, coord, color):
        return coord if color == WHITE else (LAST - coord[1], LAST - coord[0])


VARIANTS = {"nested-a": NestedA, "nested-b": NestedB}
