"""Hand-made positions for the six 3D subvariants that the rulings tests do not single out:
Schwein, Pascha, Hummer, Spanien, Springer-X and Bär-X (docs/variants/nichtschach.md, "Short
pieces of each subvariant").  Each test states the moves of its pieces, counted by hand in
the comments, and checks the whole position against a coordinate walker written here from
the definitions in the docs (not from the engine's piece tables).  Three of the six have
Black to move, whose forward is toward rank 1.

The positions are sparse, so they would be lost games; as in the other 3D tests the moves
are the pseudo-legal ones with the game-over hook switched off (board3d_helpers.shapes)."""
from __future__ import annotations

from itertools import permutations, product

import pytest
from board3d_helpers import board, moves_from, shapes

import variants
from engine.notation.move_text import move_text

LEVELS, FILES = "uvwxyz", "abcdef"

# ---- the walker: direction sets and pieces as the docs define them (White's frame) ---------
UNIT = [d for d in product((-1, 0, 1), repeat=3) if d != (0, 0, 0)]
O6 = [d for d in UNIT if sum(map(abs, d)) == 1]
SD12 = [d for d in UNIT if sum(map(abs, d)) == 2]
ND8 = [d for d in UNIT if sum(map(abs, d)) == 3]


def fwd(ds):
    return [d for d in ds if d[2] > 0]


def side_(ds):
    return [d for d in ds if d[2] == 0]


def back(ds):
    return [d for d in ds if d[2] < 0]


def twice(ds):
    return [(2 * a, 2 * b, 2 * c) for a, b, c in ds]


def oblique(a, b, c):
    """All sign and axis permutations of the leap (a, b, c)."""
    return sorted({tuple(s * x for s, x in zip(signs, p))
                   for p in permutations((a, b, c)) for signs in product((1, -1), repeat=3)})


def step(ds):
    return [("step", d) for d in ds]


def leap(ds):
    return [("leap", d) for d in ds]


def ride(ds):
    return [("ride", d) for d in ds]


def odd(ds):
    return [("odd", d) for d in ds]


ROOK = ride(O6)
BISHOP = ride(SD12)
UNICORN = ride(ND8)
PIECES = {
    "schweinnichtschach": {"R": ROOK, "S": step(O6) + leap(twice(fwd(O6))),
                           "O": step(SD12) + leap(twice(fwd(SD12)))},
    "paschanichtschach": {"R": ROOK, "W": step(O6) + leap(twice(O6)),
                          "V": step(ND8) + leap(twice(ND8))},
    "hummernichtschach": {"R": ROOK, "S": step(side_(O6) + back(O6)) + leap(twice(fwd(O6))),
                          "H": step(back(ND8)) + leap(twice(fwd(ND8)))},
    "spaniennichtschach": {"R": ROOK, "I": ride(O6) + leap(twice(SD12)),
                           "H": ride(ND8) + leap(twice(SD12))},
    "springernichtschach-x": {"R": ROOK, "I": BISHOP + leap(oblique(2, 2, 1)),
                              "M": ROOK + leap(oblique(2, 1, 0))},
    "baernichtschach-x": {"R": ROOK, "O": ROOK + odd(SD12), "Y": BISHOP + odd(ND8)},
}


def name(l, f, r):
    return f"{LEVELS[l]}{FILES[f]}{r + 1}"


def walk(variant: str, cells: dict, side: int) -> set[str]:
    """Every move of the side to move: steps and leaps land on an empty or enemy cell; rides
    go on through empty cells and stop at the first piece (capturing an enemy); odd riders
    may stop only at distances 1, 3 and 5 and are blocked by a piece at any distance.
    Black's vectors are White's with the rank component negated."""
    at = {}
    for cell, tok in cells.items():
        at[(LEVELS.index(cell[0]), FILES.index(cell[1]), int(cell[2]) - 1)] = tok
    out = set()
    for (l, f, r), tok in at.items():
        if tok.isupper() != (side == 0):
            continue
        for kind, (dl, df, dr) in PIECES[variant][tok.upper()]:
            if side == 1:
                dr = -dr
            for k in range(1, 6 if kind in ("ride", "odd") else 2):
                t = (l + k * dl, f + k * df, r + k * dr)
                if not all(0 <= x < 6 for x in t):
                    break
                p = at.get(t)
                own = p is not None and p.isupper() == (side == 0)
                if (kind != "odd" or k % 2) and not own:
                    out.add(name(l, f, r) + name(*t))
                if p is not None:
                    break
    return out


def check(variant, cells, side, piece_cell, expected):
    v = variants.get(variant)
    pos = board(cells, v, side)
    assert sorted(moves_from(v, pos, piece_cell)) == sorted(piece_cell + t for t in expected)
    assert {move_text(v, m) for m in shapes(pos)} == walk(variant, cells, side)


# ---- one position per subvariant ------------------------------------------------------------
def test_schwein_black_sow_leaps_forward_over_a_piece():
    """Black to move.  The Sow on wc4 steps one cell orthogonally (vc4 xc4 wb4 wd4, wc3
    capturing; wc5 holds its own Rook) and leaps two cells forward, which for Black is toward
    rank 1: wc2, over the White Rook on wc3.  The Boar on ua1 steps diagonally (vb1 va2 ub2);
    its forward leaps would leave the board."""
    cells = {"wc4": "s", "wc5": "r", "ua1": "o", "wc3": "R"}
    check("schweinnichtschach", cells, 1, "wc4", ["vc4", "xc4", "wb4", "wd4", "wc3", "wc2"])
    check("schweinnichtschach", cells, 1, "ua1", ["vb1", "va2", "ub2"])


def test_pascha_vinnock_steps_and_leaps_on_all_eight_diagonals():
    """White to move.  The Vinnock on wc3 steps to the eight 3D-diagonal neighbours and leaps
    two cells along each of them: 16 cells from the middle, less the step onto its own Rook on
    xd4 (the leap to ye5 over it stands), with the capture of the Black Rook on vb2: 15."""
    cells = {"wc3": "V", "xd4": "R", "vb2": "r"}
    steps = ["vb2", "vb4", "vd2", "vd4", "xb2", "xb4", "xd2"]
    leaps = ["ua1", "ua5", "ue1", "ue5", "ya1", "ya5", "ye1", "ye5"]
    check("paschanichtschach", cells, 0, "wc3", steps + leaps)
    # the Wazbaba in a corner: three steps and three 2-cell leaps
    check("paschanichtschach", {"ua1": "W"}, 0, "ua1", ["va1", "ub1", "ua2", "wa1", "uc1", "ua3"])


def test_hummer_black_snail_never_steps_forward():
    """Black to move.  The Snail on wc4 steps sideways (vc4 xc4 wb4 wd4) and backward (wc5 for
    Black) but forward only by the 2-cell leap: wc2, over the White Rook on wc3 that it cannot
    take.  The Shrimp on yd4 steps only backward-diagonally (xc5 xe5 zc5 ze5) and leaps two
    cells forward-diagonally (wb2 wf2; level 6 does not exist)."""
    cells = {"wc4": "s", "wc3": "R", "yd4": "h"}
    check("hummernichtschach", cells, 1, "wc4", ["vc4", "xc4", "wb4", "wd4", "wc5", "wc2"])
    check("hummernichtschach", cells, 1, "yd4", ["xc5", "xe5", "zc5", "ze5", "wb2", "wf2"])


def test_spanien_infanta_rides_and_leaps():
    """White to move.  The Infanta on ua1 rides orthogonally (va1..za1, ub1..uf1, and up the
    rank only to ua2 ua3 below its own Rook on ua4) and leaps 2 cells along the three
    two-axis diagonals that stay on the board (wc1 wa3 uc3): 5 + 5 + 2 + 3 = 15."""
    cells = {"ua1": "I", "ua4": "R", "zf6": "h"}
    expected = ["va1", "wa1", "xa1", "ya1", "za1", "ub1", "uc1", "ud1", "ue1", "uf1",
                "ua2", "ua3", "wc1", "wa3", "uc3"]
    check("spaniennichtschach", cells, 0, "ua1", expected)


def test_springer_x_black_nirdinal_in_the_far_corner():
    """Black to move.  The Nirdinal (Bishop + Ninja) on zf6 rides the three two-axis diagonals
    out of the corner (5 cells each) and makes the three (2,2,1) leaps that stay on the board
    (xd5 xe4 yd4): 18.  The White Marshal on ua1 is not to move."""
    cells = {"zf6": "i", "ua1": "M"}
    rides = ["ye6", "xd6", "wc6", "vb6", "ua6", "yf5", "xf4", "wf3", "vf2", "uf1",
             "ze5", "zd4", "zc3", "zb2", "za1"]
    check("springernichtschach-x", cells, 1, "zf6", rides + ["xd5", "xe4", "yd4"])


def test_baer_x_columbine_odd_rides_are_blocked_anywhere():
    """White to move.  The Columbine (Rook + Bear) on ua1: the Rook part rides 15 cells; the
    Bear part stops at distances 1, 3, 5 on the three two-axis diagonals (vb1 xd1 zf1, va2 xa4
    za6, ub2 ud4 uf6).  A Black piece on wc1 (distance 2) cannot be taken and blocks xd1 and
    zf1; the Black piece on ud4 (distance 3) is taken and blocks uf6: 15 + 6 = 21."""
    cells = {"ua1": "O", "wc1": "r", "ud4": "y"}
    rook = ["va1", "wa1", "xa1", "ya1", "za1", "ub1", "uc1", "ud1", "ue1", "uf1",
            "ua2", "ua3", "ua4", "ua5", "ua6"]
    check("baernichtschach-x", cells, 0, "ua1", rook + ["vb1", "va2", "xa4", "za6", "ub2", "ud4"])


@pytest.mark.parametrize("variant", sorted(PIECES))
def test_the_walker_names_pieces_of_the_variant(variant):
    """The walker's letters are the variant's own, so the positions above mean the pieces
    their docstrings name."""
    v = variants.get(variant)
    assert set(PIECES[variant]) <= {pt.token for pt in v.piece_types[1:]}
