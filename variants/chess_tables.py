"""Square tables for FIDE chess: what each piece is worth on each square, once for the
middlegame and once for the ending (``Variant.square_tables``; the evaluation blends the two
by the game phase).

The generic tables, derived from how many moves a piece has on a square, know centralisation
and pawn advancement but nothing of chess practice.  These tables add what a chess player
knows and mobility cannot see:

* pawns: the centre pawns advance first in the middlegame, the pawns before a castled king stay
  home; in the ending every step forward counts;
* knights: strongest near the centre, worst in the corners; on the rim they are weak in both
  phases;
* bishops: long diagonals and the squares in front of the own pawns (b2, g2, c4, f4) in the
  middlegame, the centre in the ending;
* rooks: the seventh rank, and the centre files of the first rank once castled;
* queen: no early sortie beyond the third rank in the middlegame, centralised in the ending;
* king: behind its pawns on the wing in the middlegame, in the centre in the ending.

Each entry: the piece's value in the middlegame and in the ending, then two tables of 64
bonuses in centipawns, seen from the first player, rows from the eighth rank down to the
first (as a diagram is printed).  The second player's tables are the same mirrored along the
ranks.  Written for this engine; the figures were chosen by hand and measured by self-play
(bench/results/climb.md).
"""
from __future__ import annotations

from engine.structure import Structure

_ = 0

PAWN_MG = (
    _, _, _, _, _, _, _, _,
    45, 50, 50, 55, 55, 50, 50, 45,
    10, 15, 20, 30, 30, 20, 15, 10,
    -2, 2, 8, 22, 22, 8, 2, -2,
    -6, -2, 4, 18, 18, 4, -2, -6,
    -6, -4, 2, 6, 6, -2, -4, -6,
    -4, 4, 4, -12, -12, 8, 8, -4,
    _, _, _, _, _, _, _, _,
)
PAWN_EG = (
    _, _, _, _, _, _, _, _,
    75, 75, 70, 65, 65, 70, 75, 75,
    45, 45, 40, 35, 35, 40, 45, 45,
    22, 22, 18, 15, 15, 18, 22, 22,
    8, 8, 5, 5, 5, 5, 8, 8,
    0, 0, -2, -2, -2, -2, 0, 0,
    _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _,
)
KNIGHT_MG = (
    -60, -35, -25, -20, -20, -25, -35, -60,
    -35, -15, 0, 5, 5, 0, -15, -35,
    -20, 5, 15, 20, 20, 15, 5, -20,
    -15, 8, 18, 25, 25, 18, 8, -15,
    -15, 5, 15, 20, 20, 15, 5, -15,
    -20, 0, 12, 10, 10, 12, 0, -20,
    -30, -15, 0, 5, 5, 0, -15, -30,
    -50, -25, -20, -18, -18, -20, -25, -50,
)
KNIGHT_EG = (
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15, -5, 0, 0, -5, -15, -30,
    -20, -5, 5, 10, 10, 5, -5, -20,
    -15, 0, 10, 15, 15, 10, 0, -15,
    -15, 0, 10, 15, 15, 10, 0, -15,
    -20, -5, 5, 10, 10, 5, -5, -20,
    -30, -15, -5, 0, 0, -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
)
BISHOP_MG = (
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 10, 10, 5, 0, -10,
    -10, 5, 5, 12, 12, 5, 5, -10,
    -10, 0, 12, 12, 12, 12, 0, -10,
    -10, 10, 8, 10, 10, 8, 10, -10,
    -10, 12, 0, 5, 5, 0, 12, -10,
    -20, -10, -12, -10, -10, -12, -10, -20,
)
BISHOP_EG = (
    -15, -10, -8, -5, -5, -8, -10, -15,
    -10, -3, 0, 2, 2, 0, -3, -10,
    -8, 0, 5, 7, 7, 5, 0, -8,
    -5, 2, 7, 10, 10, 7, 2, -5,
    -5, 2, 7, 10, 10, 7, 2, -5,
    -8, 0, 5, 7, 7, 5, 0, -8,
    -10, -3, 0, 2, 2, 0, -3, -10,
    -15, -10, -8, -5, -5, -8, -10, -15,
)
ROOK_MG = (
    5, 5, 8, 10, 10, 8, 5, 5,
    15, 20, 20, 20, 20, 20, 20, 15,
    0, 0, 0, 2, 2, 0, 0, 0,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -5, 0, 0, 0, 0, 0, 0, -5,
    -8, -2, 0, 0, 0, 0, -2, -8,
    -5, 0, 3, 8, 8, 5, 0, -5,
)
ROOK_EG = (
    5, 5, 5, 5, 5, 5, 5, 5,
    12, 12, 12, 12, 12, 12, 12, 12,
    3, 3, 3, 3, 3, 3, 3, 3,
    _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _,
    _, _, _, _, _, _, _, _,
    -3, -3, -3, -3, -3, -3, -3, -3,
    -5, -3, 0, 0, 0, 0, -3, -5,
)
QUEEN_MG = (
    -20, -10, -10, -5, -5, -10, -10, -20,
    -10, 0, 0, 0, 0, 0, 0, -10,
    -10, 0, 5, 5, 5, 5, 0, -10,
    -5, 0, 5, 5, 5, 5, 0, -5,
    -5, 0, 5, 5, 5, 5, 0, -5,
    -10, 2, 5, 5, 5, 5, 0, -10,
    -10, 0, 2, 0, 0, 0, 0, -10,
    -20, -10, -10, 0, -5, -10, -10, -20,
)
QUEEN_EG = (
    -25, -15, -10, -5, -5, -10, -15, -25,
    -15, -5, 0, 5, 5, 0, -5, -15,
    -10, 0, 10, 15, 15, 10, 0, -10,
    -5, 5, 15, 20, 20, 15, 5, -5,
    -5, 5, 15, 20, 20, 15, 5, -5,
    -10, 0, 10, 15, 15, 10, 0, -10,
    -15, -5, 0, 5, 5, 0, -5, -15,
    -25, -15, -10, -5, -5, -10, -15, -25,
)
KING_MG = (
    -60, -70, -70, -80, -80, -70, -70, -60,
    -60, -70, -70, -80, -80, -70, -70, -60,
    -50, -60, -60, -70, -70, -60, -60, -50,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -15, -25, -25, -30, -30, -25, -25, -15,
    10, 10, -8, -20, -20, -8, 10, 10,
    15, 28, 10, -10, 0, -10, 30, 18,
)
KING_EG = (
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -10, 0, 5, 5, 0, -10, -30,
    -25, 0, 15, 20, 20, 15, 0, -25,
    -20, 5, 20, 30, 30, 20, 5, -20,
    -20, 5, 20, 30, 30, 20, 5, -20,
    -25, 0, 15, 20, 20, 15, 0, -25,
    -30, -15, 0, 5, 5, 0, -15, -30,
    -50, -35, -25, -20, -20, -25, -35, -50,
)

CHESS_SQUARE_TABLES = {
    "P": (90, 110, PAWN_MG, PAWN_EG),
    "N": (320, 290, KNIGHT_MG, KNIGHT_EG),
    "B": (335, 305, BISHOP_MG, BISHOP_EG),
    "R": (475, 520, ROOK_MG, ROOK_EG),
    "Q": (980, 960, QUEEN_MG, QUEEN_EG),
    "K": (0, 0, KING_MG, KING_EG),
}

# what depends on more than one piece (``Variant.structure``, engine/structure.py): a doubled
# or isolated pawn is a lasting weakness, two bishops cover both colours, a rook wants a file
# without pawns (or without its own)
CHESS_STRUCTURE = Structure(doubled=12, isolated=10, pair={"B": 35}, open_file={"R": (20, 10)})
