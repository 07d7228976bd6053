"""Flipped-return Nichtschach: eleven subvariants on the 6x6x6 board
(docs/variants/nichtschach.md).

Every piece is data (atoms on the shared board of ``variants.board3d``).  A captured piece goes
to the capturer's hand as its *counterpart* (R <-> s1, B <-> s2, ..., P <-> F) and may be
returned on any empty cell (a Stockpoint only inside the returner's camp).  There is no check;
after every capture the victim must still have two board pieces moving along each of the 26
directions (Springer variants: two per class Rook/Ninja, Bishop/Sexton, Unicorn/Knight), else
the capturer has won.  No legal move loses; threefold repetition and 100 plies without capture,
return or Stockpoint move draw.

Perft convention (decided by the T1 figure; docs/variants/nichtschach.md, "How it is written"):
a position whose last move already won the game has no moves, so perft does not expand it.
"""
from __future__ import annotations

from itertools import permutations, product

from engine.pieces import LEAP, RIDE, Atom, PieceType, leap, ride
from engine.zobrist import Zobrist
from variants.board3d import (ALL26, F9, ND8, O6, SD12, Board3D, bND, bO, bSD, direction_mask, fND,
                              fO, fSD, ring_keeping, sO, sSD, times, unit_direction)

ODD = frozenset({1, 3, 5})
MAX_HAND = 144          # pieces of one kind a hand can hold (all 144 pieces, as a bound)
LOST_SCORE = 100_000    # eval_terms for a side that has already lost (well below mate scores)


def oblique(a, b, c):
    """All sign and axis permutations of the leap (a, b, c)."""
    out = set()
    for p in permutations((a, b, c)):
        for s in product((1, -1), repeat=3):
            out.add(tuple(x * y for x, y in zip(p, s)))
    return tuple(sorted(out))


NINJA, SEXTON, KNIGHT = oblique(2, 2, 1), oblique(2, 1, 1), oblique(2, 1, 0)


# ---- front-rank pieces -------------------------------------------------------------------
def stockpoint_vectors(coord):
    l, f, _ = coord
    return ((0, 0, 1),) + tuple((dl, df, 1) for dl, df in ring_keeping(l, f))


def stockfwazir_vectors(coord):
    fw = stockpoint_vectors(coord)
    return fw + tuple((a, b, -c) for a, b, c in fw) + sSD


def _u(*sets):
    """Union of vector sets, order kept, no duplicates."""
    out = []
    for s in sets:
        for v in s:
            if v not in out:
                out.append(v)
    return tuple(out)


# ---- piece atoms per kind ------------------------------------------------------------------
def rider(*sets):
    return (ride(_u(*sets)),)


def leaper(*sets):
    return (leap(_u(*sets)),)


def odd_rider(*sets):
    return (ride(_u(*sets), stops=ODD),)


def combine(*atom_groups):
    out = []
    for g in atom_groups:
        out.extend(g)
    return tuple(out)


R_ = rider(O6)
B_ = rider(SD12)
U_ = rider(ND8)
DAB, ELE, EUN = leaper(times(2, O6)), leaper(times(2, SD12)), leaper(times(2, ND8))
PANDA, BEAR, RACCOON = odd_rider(O6), odd_rider(SD12), odd_rider(ND8)

LONG = [  # token, name, atoms
    ("R", "Rook", R_),
    ("B", "Bishop", B_),
    ("Q", "Queen", rider(O6, SD12)),
    ("U", "Unicorn", U_),
    ("D", "Duchess", rider(O6, ND8)),
    ("G", "Governor", rider(SD12, ND8)),
]


def _general(dirs):
    return leaper(_u(dirs, F9))


# Short-range counterparts, slot order s1..s6 <-> R B Q U D G.
SHORT = {
    "elefant": [
        ("A", "Dabbaba", DAB), ("E", "Elephant", ELE), ("L", "Alibaba", leaper(times(2, O6), times(2, SD12))),
        ("N", "Eunuch", EUN), ("Y", "Dybbuk", leaper(times(2, O6), times(2, ND8))),
        ("K", "Elk", leaper(times(2, SD12), times(2, ND8)))],
    "general": [
        ("S", "Sungeneral", _general(O6)), ("M", "Moongeneral", _general(SD12)),
        ("Y", "Skygeneral", _general(O6 + SD12)), ("C", "Coastgeneral", _general(ND8)),
        ("O", "Forestgeneral", _general(O6 + ND8)), ("E", "Seageneral", _general(SD12 + ND8))],
    "schwein": [
        ("S", "Sow", leaper(O6, times(2, fO))), ("O", "Boar", leaper(SD12, times(2, fSD))),
        ("H", "Hood", leaper(O6, times(2, fO), SD12, times(2, fSD))),
        ("T", "Piglet", leaper(ND8, times(2, fND))),
        ("I", "Fiend", leaper(O6, times(2, fO), ND8, times(2, fND))),
        ("L", "Laird", leaper(SD12, times(2, fSD), ND8, times(2, fND)))],
    "raj": [
        ("M", "Memsahib", leaper(times(2, O6), fO)), ("S", "Sahib", leaper(times(2, SD12), fSD)),
        ("A", "Aladdin", leaper(times(2, O6), fO, times(2, SD12), fSD)),
        ("N", "Nabob", leaper(times(2, ND8), fND)),
        ("I", "Idolator", leaper(times(2, O6), fO, times(2, ND8), fND)),
        ("W", "Fawn", leaper(times(2, SD12), fSD, times(2, ND8), fND))],
    "pascha": [
        ("W", "Wazbaba", leaper(O6, times(2, O6))), ("E", "Fearful", leaper(SD12, times(2, SD12))),
        ("H", "Pasha", leaper(O6, times(2, O6), SD12, times(2, SD12))),
        ("V", "Vinnock", leaper(ND8, times(2, ND8))),
        ("K", "Khan", leaper(O6, times(2, O6), ND8, times(2, ND8))),
        ("I", "Imam", leaper(SD12, times(2, SD12), ND8, times(2, ND8)))],
    "springer": [
        ("J", "Ninja", leaper(NINJA)), ("X", "Sexton", leaper(SEXTON)),
        ("O", "Oberon", leaper(NINJA, SEXTON)), ("N", "Knight", leaper(KNIGHT)),
        ("A", "Samurai", leaper(NINJA, KNIGHT)), ("W", "Churchwarden", leaper(SEXTON, KNIGHT))],
    "baer": [
        ("A", "Panda", PANDA), ("E", "Bear", BEAR), ("H", "Harlequin", odd_rider(O6, SD12)),
        ("C", "Raccoon", RACCOON), ("T", "Pantaloon", odd_rider(O6, ND8)),
        ("L", "Balloon", odd_rider(SD12, ND8))],
    "hummer": [
        ("S", "Snail", leaper(sO, bO, times(2, fO))), ("L", "Lobster", leaper(sSD, bSD, times(2, fSD))),
        ("T", "Trilobite", leaper(sO, bO, times(2, fO), sSD, bSD, times(2, fSD))),
        ("H", "Shrimp", leaper(bND, times(2, fND))),
        ("W", "Prawn", leaper(sO, bO, times(2, fO), bND, times(2, fND))),
        ("O", "Octopus", leaper(sSD, bSD, times(2, fSD), bND, times(2, fND)))],
}

# Crossovers: the simple pieces of the base stay; each compound slot holds a crossover pair.
CROSS = {
    "spanien": ("elefant", [
        (("I", "Infanta", combine(R_, ELE)), ("T", "Inquisitor", combine(B_, DAB))),
        (("C", "Concubine", combine(R_, EUN)), ("O", "Cyclops", combine(U_, DAB))),
        (("M", "Mutilator", combine(B_, EUN)), ("H", "Behemoth", combine(U_, ELE)))]),
    "springerx": ("springer", [
        (("V", "Senvasser", combine(R_, leaper(SEXTON))), ("I", "Nirdinal", combine(B_, leaper(NINJA)))),
        (("M", "Marshal", combine(R_, leaper(KNIGHT))), ("L", "Nivalcade", combine(U_, leaper(NINJA)))),
        (("C", "Cardinal", combine(B_, leaper(KNIGHT))), ("S", "Sefila", combine(U_, leaper(SEXTON))))]),
    "baerx": ("baer", [
        (("O", "Columbine", combine(R_, BEAR)), ("W", "Clown", combine(B_, PANDA))),
        (("I", "Crinoline", combine(R_, RACCOON)), ("N", "Pangolin", combine(U_, PANDA))),
        (("Y", "Buffoon", combine(B_, RACCOON)), ("K", "Bunthorne", combine(U_, BEAR)))]),
}


def piece_set(family: str):
    """[(token, name, atoms, counterpart token)] for a subvariant, front-rank pieces first."""
    out = [("P", "Stockpoint", (Atom(stockpoint_vectors, LEAP),), "F"),
           ("F", "Stockfwazir", (Atom(stockfwazir_vectors, LEAP),), "P")]
    if family in CROSS:
        base, pairs = CROSS[family]
        short = SHORT[base]
        for i in (0, 1, 3):                     # simple slots R, B, U keep the base pieces
            out.append(LONG[i] + (short[i][0],))
            out.append(short[i] + (LONG[i][0],))
        for a, b in pairs:
            out.append(a + (b[0],))
            out.append(b + (a[0],))
        return out
    for lg, sh in zip(LONG, SHORT[family]):
        out.append(lg + (sh[0],))
        out.append(sh + (lg[0],))
    return out


# ---- coverage classes --------------------------------------------------------------------
CLASS_OF_LEAP = {(1, 2, 2): 0, (1, 1, 2): 1, (0, 1, 2): 2}    # Ninja, Sexton, Knight
CLASS_OF_DIR = {1: 0, 2: 1, 3: 2}                              # O, SD, ND by nonzero count


def _all_vectors(atoms):
    for a in atoms:
        vs = a.vectors
        if callable(vs):
            continue
        for v in vs:
            yield a, v


def radial_mask(atoms) -> int:
    """26-bit mask of the directions the piece's definition moves along (owner's frame)."""
    return direction_mask(v for a, v in _all_vectors(atoms))


def class_mask(atoms) -> int:
    """Springer rule: bit 0 Rook/Ninja, bit 1 Bishop/Sexton, bit 2 Unicorn/Knight."""
    m = 0
    for a, v in _all_vectors(atoms):
        key = tuple(sorted(abs(x) for x in v))
        if a.kind == RIDE and unit_direction(v) == v:
            m |= 1 << CLASS_OF_DIR[sum(1 for x in v if x)]
        elif key in CLASS_OF_LEAP:
            m |= 1 << CLASS_OF_LEAP[key]
    return m


# ---- the variant class -------------------------------------------------------------------------
class Nichtschach(Board3D):
    family = "elefant"
    hands = True
    royal_check = False
    stalemate_result = "loss"      # no legal move loses
    repetition_count = 3
    move_rule_plies = 100
    move_rule_name = "100-ply rule"   # the rules count plies, not moves
    drop_resets_clock = True       # a return resets the 100-ply count
    class_rule = False             # Springer variants: the three-class requirement

    def __init__(self):
        spec = piece_set(self.family)
        self.piece_types = [None] + [
            PieceType(name, tok, atoms, pawn=(tok == "P"), extra={"flip": flip})
            for tok, name, atoms, flip in spec]
        super().__init__()
        self.p_id = self.by_token["P"].id
        self.f_id = self.by_token["F"].id
        ncodes = 2 * len(self.piece_types)
        cover = [0] * ncodes
        for pt in self.piece_types[1:]:
            if pt.token in ("P", "F"):
                continue
            m = class_mask(pt.atoms) if self.class_rule else radial_mask(pt.atoms)
            pt.extra["cover"] = m
            cover[pt.id * 2] = cover[pt.id * 2 + 1] = m
        self.cover = cover
        # per colour: (code, bit indices of its cover) for every code that covers something
        self.cover_idx = [[(c, tuple(i for i in range(26) if cover[c] >> i & 1))
                           for c in range(side, ncodes, 2) if cover[c]] for side in (0, 1)]
        self.cover_full = 7 if self.class_rule else ALL26
        self.cover_bits = 3 if self.class_rule else 26

    # -- hands and returns --------------------------------------------------------------
    def hand_type(self, captured_code):
        return self.by_token[self.piece_types[captured_code >> 1].extra["flip"]].id

    def drop_allowed(self, code, cell):
        if code >> 1 == self.p_id:
            return self.in_camp(cell, code & 1)
        return True

    # -- promotion: a Stockpoint on the far rank must become a Stockfwazir ------------------
    def promotion_options(self, code, frm, to):
        if code >> 1 == self.p_id and self.rank_of(to, code & 1) == 5:
            return (self.f_id,)
        return ()

    # -- the coverage requirement ---------------------------------------------------------
    def meets_requirement(self, pos, side: int) -> bool:
        cov = self.cover
        b = pos.board
        once = twice = 0
        for s in pos.occ[side]:
            m = cov[b[s]]
            twice |= once & m
            once |= m
        return twice == self.cover_full

    def coverage_counts(self, pos, side: int) -> list[int]:
        """Per direction (or class): how many of side's board pieces move along it."""
        b = pos.board
        tc = [0] * len(self.cover)
        for s in pos.occ[side]:
            tc[b[s]] += 1
        counts = [0] * self.cover_bits
        for code, idx in self.cover_idx[side]:
            n = tc[code]
            if n:
                for i in idx:
                    counts[i] += n
        return counts

    def _decided(self, pos) -> bool:
        """Has the last move won the game (the side to move fails the requirement)?  Only a
        capture can take pieces away, so other moves need no look."""
        st = pos.stack
        if st and not st[-1][1]:
            return False
        return not self.meets_requirement(pos, pos.side)

    def adjudicate(self, pos):
        if self._decided(pos):
            what = "classes" if self.class_rule else "directions"
            return (-1, f"lost {what}")
        return None

    def extra_moves(self, pos, out):
        # No check, so every pseudo-legal move is legal; but once the last move has won, the
        # game is over and there is no move at all (perft does not expand such a position).
        # Done here rather than in legal_moves so that the searcher keeps its fast path.
        if self._decided(pos):
            out.clear()

    def build_zobrist(self):
        # Up to 72 Stockpoints/Stockfwazirs can end in one hand (the core keys go to 64).
        import random
        z = Zobrist(self)
        rnd = random.Random(0x3D)
        for keys in z.hand:
            keys.extend(rnd.getrandbits(64) for _ in range(MAX_HAND + 1 - len(keys)))
        return z

    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError
        geo = self.geometry
        for code, n in enumerate(pos.hand):
            if n > MAX_HAND:
                raise PositionTextError(f"too many pieces in hand ({code_name(self, code)} x{n})")
        for c, p in enumerate(pos.board):
            if p and p >> 1 == self.p_id and self.rank_of(c, p & 1) == 5:
                raise PositionTextError(f"Stockpoint on its last rank ({geo.name(c)})")

    # -- evaluation terms for the searcher -----------------------------------------------
    def eval_terms(self, pos) -> int:
        """Centipawns for the side to move, added to the generic evaluation (which already
        values board pieces by mobility and pieces in hand at a share of that):

        * a side that has already lost scores -LOST_SCORE;
        * coverage: a direction (or Springer class) held by only two board pieces is one
          capture from losing the game, three is a warning; each such direction costs its side
          ``danger2`` / ``danger3`` (larger for the three Springer classes);
        * a piece in hand gets a small extra bonus: it can be returned on any empty cell, so it
          can also refill a thin direction."""
        side = pos.side
        if self._decided(pos):
            return -LOST_SCORE
        d2, d3 = (150, 40) if self.class_rule else (60, 15)
        h = pos.hand
        score = 0
        for sgn, who in ((1, side), (-1, side ^ 1)):
            danger = 0
            for n in self.coverage_counts(pos, who):
                if n <= 2:
                    danger += d2
                elif n == 3:
                    danger += d3
            held = 0
            for c in range(2 + who, len(h), 2):
                held += h[c]
            score += sgn * (10 * held - danger)
        return score


def code_name(v, code):
    tok = v.piece_types[code >> 1].token
    return tok if code & 1 == 0 else tok.lower()


def _make(name, family, class_rule=False):
    return type(name.capitalize().replace("-", "_"), (Nichtschach,),
                {"name": name, "family": family, "class_rule": class_rule})


START = {
    "elefant": "rubenr/pppppp/6/6/PPPPPP/RUBENR|nadgau/pppppp/6/6/PPPPPP/NADGAU|ekqlyb/pppppp/6/6/PPPPPP/EKQLYB|bylqke/pppppp/6/6/PPPPPP/BYLQKE|uagdan/pppppp/6/6/PPPPPP/UAGDAN|rnebur/pppppp/6/6/PPPPPP/RNEBUR",
    "general": "rubmcr/pppppp/6/6/PPPPPP/RUBMCR|csdgsu/pppppp/6/6/PPPPPP/CSDGSU|meqyob/pppppp/6/6/PPPPPP/MEQYOB|boyqem/pppppp/6/6/PPPPPP/BOYQEM|usgdsc/pppppp/6/6/PPPPPP/USGDSC|rcmbur/pppppp/6/6/PPPPPP/RCMBUR",
    "schwein": "rubotr/pppppp/6/6/PPPPPP/RUBOTR|tsdgsu/pppppp/6/6/PPPPPP/TSDGSU|olqhib/pppppp/6/6/PPPPPP/OLQHIB|bihqlo/pppppp/6/6/PPPPPP/BIHQLO|usgdst/pppppp/6/6/PPPPPP/USGDST|rtobur/pppppp/6/6/PPPPPP/RTOBUR",
    "raj": "rubsnr/pppppp/6/6/PPPPPP/RUBSNR|nmdgmu/pppppp/6/6/PPPPPP/NMDGMU|swqaib/pppppp/6/6/PPPPPP/SWQAIB|biaqws/pppppp/6/6/PPPPPP/BIAQWS|umgdmn/pppppp/6/6/PPPPPP/UMGDMN|rnsbur/pppppp/6/6/PPPPPP/RNSBUR",
    "pascha": "rubevr/pppppp/6/6/PPPPPP/RUBEVR|vwdgwu/pppppp/6/6/PPPPPP/VWDGWU|eiqhkb/pppppp/6/6/PPPPPP/EIQHKB|bkhqie/pppppp/6/6/PPPPPP/BKHQIE|uwgdwv/pppppp/6/6/PPPPPP/UWGDWV|rvebur/pppppp/6/6/PPPPPP/RVEBUR",
    "springer": "rubxnr/pppppp/6/6/PPPPPP/RUBXNR|njdgju/pppppp/6/6/PPPPPP/NJDGJU|xwqoab/pppppp/6/6/PPPPPP/XWQOAB|baoqwx/pppppp/6/6/PPPPPP/BAOQWX|ujgdjn/pppppp/6/6/PPPPPP/UJGDJN|rnxbur/pppppp/6/6/PPPPPP/RNXBUR",
    "baer": "rubecr/pppppp/6/6/PPPPPP/RUBECR|cadgau/pppppp/6/6/PPPPPP/CADGAU|elqhtb/pppppp/6/6/PPPPPP/ELQHTB|bthqle/pppppp/6/6/PPPPPP/BTHQLE|uagdac/pppppp/6/6/PPPPPP/UAGDAC|rcebur/pppppp/6/6/PPPPPP/RCEBUR",
    "hummer": "rublhr/pppppp/6/6/PPPPPP/RUBLHR|hsdgsu/pppppp/6/6/PPPPPP/HSDGSU|loqtwb/pppppp/6/6/PPPPPP/LOQTWB|bwtqol/pppppp/6/6/PPPPPP/BWTQOL|usgdsh/pppppp/6/6/PPPPPP/USGDSH|rhlbur/pppppp/6/6/PPPPPP/RHLBUR",
    "spanien": "rubenr/pppppp/6/6/PPPPPP/RUBENR|nacmau/pppppp/6/6/PPPPPP/NACMAU|ehitob/pppppp/6/6/PPPPPP/EHITOB|botihe/pppppp/6/6/PPPPPP/BOTIHE|uamcan/pppppp/6/6/PPPPPP/UAMCAN|rnebur/pppppp/6/6/PPPPPP/RNEBUR",
    "springerx": "rubxnr/pppppp/6/6/PPPPPP/RUBXNR|njmcju/pppppp/6/6/PPPPPP/NJMCJU|xsvilb/pppppp/6/6/PPPPPP/XSVILB|blivsx/pppppp/6/6/PPPPPP/BLIVSX|ujcmjn/pppppp/6/6/PPPPPP/UJCMJN|rnxbur/pppppp/6/6/PPPPPP/RNXBUR",
    "baerx": "rubecr/pppppp/6/6/PPPPPP/RUBECR|caiyau/pppppp/6/6/PPPPPP/CAIYAU|ekownb/pppppp/6/6/PPPPPP/EKOWNB|bnwoke/pppppp/6/6/PPPPPP/BNWOKE|uayiac/pppppp/6/6/PPPPPP/UAYIAC|rcebur/pppppp/6/6/PPPPPP/RCEBUR",
}

NAMES = {  # variant name -> (family, class rule)
    "elefantnichtschach": ("elefant", False),
    "generalnichtschach": ("general", False),
    "schweinnichtschach": ("schwein", False),
    "rajnichtschach": ("raj", False),
    "paschanichtschach": ("pascha", False),
    "springernichtschach": ("springer", True),
    "baernichtschach": ("baer", False),
    "hummernichtschach": ("hummer", False),
    "spaniennichtschach": ("spanien", False),
    "springernichtschach-x": ("springerx", True),
    "baernichtschach-x": ("baerx", False),
}

VARIANTS = {}
for _name, (_fam, _cls) in NAMES.items():
    _c = _make(_name, _fam, _cls)
    _c.start_fen = START[_fam] + " w [-] 0 1"
    VARIANTS[_name] = _c
