"""Hoppers in the piece description (engine/pieces.py ``hop``): a piece that runs along a line
to the first piece of either colour (the screen), passes over it and goes on.  No game of the
mission has one yet; the foundation asked that they fit the same description as every other
piece, so a small test game defines two and the core's moves are compared with a plain
coordinate walker written here:

* the Cannon (xiangqi's): moves as a Rook without capturing, captures only by hopping a screen
  along a rank or file (``ride`` MOVE + ``hop`` CAPTURE);
* the Grasshopper: along the Queen's lines it lands on the cell right behind the screen,
  empty or enemy (``hop`` with ``max_dist=1``).

The inverse attack tables (engine/tables.py) describe hops too, checked against the moves."""
from __future__ import annotations

import random
import threading

import pytest

from engine.moves import CELL, FROM_SHIFT
from engine.evaluate import Evaluator
from engine.movegen import attacked, legal_moves, pseudo_moves
from engine.pieces import CAPTURE, DIAG, KING, MOVE, ORTH, PieceType, hop, leap, ride
from engine.search import TT, Limits, Searcher
from engine.notation.position_text import parse
from variants.chess import ChessLike, pawn_atoms


class HopperTest(ChessLike):
    """Rooks, Cannons, Grasshoppers, a non-royal King and Pawns; no check."""
    name = "hopper-test"
    royal_check = False
    promotion_tokens = ("C", "G", "R")
    start_fen = "rcgkgcr1/pppppppp/8/8/8/8/PPPPPPPP/RCGKGCR1 w - - 0 1"

    def __init__(self):
        self.piece_types = [
            None, PieceType("Pawn", "P", pawn_atoms(1, 6), pawn=True),
            PieceType("Cannon", "C", (ride(ORTH, MOVE), hop(ORTH, CAPTURE))),
            PieceType("Grasshopper", "G", (hop(ORTH + DIAG, max_dist=1),)),
            PieceType("Rook", "R", (ride(ORTH),)),
            PieceType("King", "K", (leap(KING),))]
        super().__init__()

    def validate_position(self, pos):
        """No royal piece, so no king count to check."""


def naive_hopper_moves(v, pos):
    """(from, to) of every Cannon and Grasshopper move, walked on coordinates."""
    geo, side, out = v.geometry, pos.side, set()
    at = lambda x, y: geo.index.get((x, y))  # noqa: E731
    for s, code in enumerate(pos.board):
        if not code or code & 1 != side:
            continue
        tok = v.piece_types[code >> 1].token
        if tok not in ("C", "G"):
            continue
        x0, y0 = geo.coords[s]
        for dx, dy in (ORTH if tok == "C" else ORTH + DIAG):
            x, y, screen = x0 + dx, y0 + dy, False
            while at(x, y) is not None:
                p = pos.board[at(x, y)]
                if not screen:
                    if p:
                        screen = True
                    elif tok == "C":
                        out.add((s, at(x, y)))              # the Cannon's quiet ride
                else:
                    if tok == "G":                          # right behind the screen only
                        if not p or p & 1 != side:
                            out.add((s, at(x, y)))
                        break
                    if p:                                   # the Cannon's capture
                        if p & 1 != side:
                            out.add((s, at(x, y)))
                        break
                x, y = x + dx, y + dy
    return out


def core_hopper_moves(v, pos):
    moves = set()
    for m in legal_moves(pos):
        s = (m >> FROM_SHIFT) & CELL
        if v.piece_types[pos.board[s] >> 1].token in ("C", "G"):
            moves.add((s, m & CELL))
    return moves


def test_start_position_by_hand():
    """White's Cannons (b1, f1) hop their own Pawns to take the Pawns on b7 and f7 (sideways
    their screens are followed by own pieces or nothing); the Grasshoppers (c1, e1) land right
    behind the Pawns ahead and diagonally ahead: a3, c3, e3 and c3, e3, g3."""
    v = HopperTest()
    pos = parse(v, v.start_fen)
    names = {v.geometry.name(s) + v.geometry.name(t) for s, t in core_hopper_moves(v, pos)}
    assert names == {"b1b7", "f1f7", "c1a3", "c1c3", "c1e3", "e1c3", "e1e3", "e1g3"}


@pytest.mark.parametrize("seed", range(4))
def test_hoppers_agree_with_a_coordinate_walker(seed):
    v = HopperTest()
    rng = random.Random(seed)
    pos = parse(v, v.start_fen)
    seen = 0
    for _ in range(120):
        assert core_hopper_moves(v, pos) == naive_hopper_moves(v, pos)
        legal = legal_moves(pos)
        if not legal:
            break
        seen += any(pos.board[m & CELL] for m in legal
                    if v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1].token in ("C", "G"))
        pos.make(rng.choice(legal))
    assert seen > 10          # hopper captures were on the board, not only quiet moves


def test_hoppers_are_valued_and_searched():
    v = HopperTest()
    ev = Evaluator(v)
    val = {pt.token: ev.value[pt.id * 2] for pt in v.piece_types if pt}
    assert val["P"] < val["G"] and val["C"] > val["P"]
    pos = parse(v, v.start_fen)
    best, _, _ = Searcher(v, TT(1)).search(pos, Limits(depth=3), threading.Event())
    assert best in legal_moves(pos)


@pytest.mark.parametrize("seed", range(3))
def test_attack_tables_see_hopper_captures(seed):
    """``attacked`` (the inverse tables, hop entries included) says a piece is attacked
    exactly when some pseudo-legal move of the other side captures it, in random games."""
    v = HopperTest()
    rng = random.Random(seed)
    pos = parse(v, v.start_fen)
    for _ in range(80):
        for by in (0, 1):
            saved = pos.side
            pos.side = by
            hit = {m & CELL for m in pseudo_moves(pos) if pos.board[m & CELL]}
            pos.side = saved
            for t, p in enumerate(pos.board):
                if p and p & 1 != by:
                    assert attacked(pos, t, by) == (t in hit), (by, v.geometry.name(t))
        legal = legal_moves(pos)
        if not legal:
            break
        pos.make(rng.choice(legal))
