"""What XBoard is told of boards and pieces, and the CECP commands that change the games played
(issue #49's follow-ups): shogi-style promoted pieces in the piece table and `piece +X&` lines,
the en-passant cell of a ten-rank `setboard` in XBoard's rank numbering, a `VariantPath` set from
XBoard refreshing `variants=`, boards with holes as `*` squares, and draw offers."""
from __future__ import annotations

from pathlib import Path

import pytest

import variants
from protocol.xboard_board import (PROMOTED_OFFSET, drawable, fen_from_xboard, piece_lines, piece_table,
                                   rank_shift, xboard_variants)
from tests.test_xboard_protocol import sync, xb  # noqa: F401  (the fixture)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# ---- promoted pieces ------------------------------------------------------------------------

def test_notake_setup_has_promoted_slots_and_piece_lines(xb):  # noqa: F811
    xb.send("variant notake-tow")
    got = sync(xb)
    table, size, fen = got[0].split(" ", 3)[1:]
    # XBoard's shogi slots: Lance, Silver, Gold where XBoard's own shogi has them, and each
    # promoting piece's promoted form (`+`) eleven slots on
    assert table == "(PNBRLS...G.++++++....Kpnbrls...g.++++++....k)"
    assert size == "9x9+0_shogi"
    assert fen.startswith("lnsgkgsnl/1r5b1/")
    pieces = got[1:]
    assert "piece P& fW" in pieces and "piece G& fWfFsWbW" in pieces
    # the promoted forms move as the pieces they become: Gold, Horse, Dragon
    assert "piece +P& fWfFsWbW" in pieces and "piece +S& fWfFsWbW" in pieces
    assert "piece +B& fBbrBblBsWvW" in pieces and "piece +R& sRvRfFbrFblF" in pieces
    # the Horse and Dragon have no letter of their own in XBoard
    assert not [p for p in pieces if p.startswith(("piece H&", "piece D&"))]


def test_notake_promotion_and_promoted_piece_through_cecp(xb):  # noqa: F811
    xb.send("variant notake-tow")
    xb.send("force")
    sync(xb)
    xb.send("setboard 4k4/9/9/4S4/9/9/9/9/4K4[-] w 0 1")
    xb.send("usermove e6e7+")        # a Silver entering the zone promotes with XBoard's `+`
    assert sync(xb) == []
    # a promoted Pawn as XBoard writes it in a FEN (`+P`) moves as a Gold: sideways
    xb.send("setboard 4k4/9/4+P4/9/9/9/9/9/4K4[-] w 0 1")
    xb.send("usermove e7d7")
    assert sync(xb) == []
    xb.send("setboard 4k4/9/4P4/9/9/9/9/9/4K4[-] w 0 1")
    xb.send("usermove e7d7")         # an unpromoted Pawn does not
    assert sync(xb) == ["Illegal move: e7d7"]


def test_knavish_promotion_table_keeps_pawn_and_queen_slots():
    v = variants.get("knavish-promotion")
    table = piece_table(v)
    white = table[:len(table) // 2]
    assert white == "PNBRQD..C...+++.+....K"
    lines = piece_lines(v)
    assert "piece +R& Q" in lines and "piece +B& Q" in lines and "piece +D& ND" in lines


@pytest.mark.parametrize("name", [n for n in variants.shipped_names()
                                  if n.startswith(("notake", "knavish"))])
def test_every_promoting_piece_has_its_plus_slot(name):
    """For each shipped 2D game: every piece that promotes shogi-style sits in one of the first
    ten slots with `+` eleven slots on, and every `+` belongs to such a piece."""
    v = variants.get(name)
    white = piece_table(v)[:-len(piece_table(v)) // 2]
    promoting = {pt.token[1] for pt in v.piece_types[1:] if pt.token.startswith("+")}
    for ch in promoting:
        i = white.index(ch)
        assert i < PROMOTED_OFFSET - 1 and white[i + PROMOTED_OFFSET] == "+", (name, ch, white)
    for i, ch in enumerate(white):
        if ch == "+":
            assert white[i - PROMOTED_OFFSET] in promoting, (name, white)


# ---- ten ranks: the en-passant cell of setboard ------------------------------------------------

def test_fen_from_xboard_converts_only_the_ep_cell():
    v = variants.get("knavish")
    assert rank_shift(v) == 1
    fen = "1dn1cc1nd1/rdnbqkbndr/ppp1pppppp/10/10/3pP5/10/PPPP1PPPPP/RDNBQKBNDR/1DN1CC1ND1 b KQkq e3 0 1"
    assert fen_from_xboard(v, fen) == fen.replace(" e3 ", " e4 ")
    assert fen_from_xboard(variants.get("chess"), "8/8/8/8/3pP3/8/8/8 b - e3 0 1").endswith(" e3 0 1")


def test_knavish_setboard_en_passant_as_xboard_writes_it(xb):  # noqa: F811
    """XBoard 4.9 (Edit > Paste Position, seen in its debug log) sends a Knavish position after
    White's e-pawn double step with the en-passant cell `e3`, its name for cellfish's e4; Black's
    d-pawn beside the pawn takes it en passant: d4e3 on the wire."""
    xb.send("variant knavish")
    xb.send("force")
    sync(xb)
    xb.send("setboard 1dn1cc1nd1/rdnbqkbndr/ppp1pppppp/10/10/3pP5/10/PPPP1PPPPP/RDNBQKBNDR/1DN1CC1ND1"
            " b KQkq e3 0 1")
    assert sync(xb) == []
    xb.send("usermove d4e3")
    assert sync(xb) == []
    xb.send("usermove e4e5")          # the white pawn was taken: nothing is left to move there
    assert sync(xb) == ["Illegal move: e4e5"]


def test_only_exactly_ten_ranks_count_from_zero():
    """XBoard's protocol text: "on boards with exactly 10 ranks, counting of the ranks starts
    at 0"; a board of twelve (no variants file has one: maxRank stops at 10, but a plugin's
    geometry may) counts from 1 as cellfish does."""
    from types import SimpleNamespace

    from engine.geometry import grid2d
    assert rank_shift(SimpleNamespace(geometry=grid2d(8, 12))) == 0
    assert rank_shift(SimpleNamespace(geometry=grid2d(10, 10))) == 1
    assert rank_shift(SimpleNamespace(geometry=grid2d(9, 9))) == 0
    assert rank_shift(variants.get("knavish")) == 1
    assert rank_shift(variants.get("chess")) == 0


# ---- VariantPath from XBoard ----------------------------------------------------------------

def test_variantpath_sends_new_variants_feature(xb):  # noqa: F811
    path = EXAMPLES / "lake.ini"
    xb.send(f"option VariantPath={path}")
    got = sync(xb)
    feats = [s for s in got if s.startswith('feature variants="')]
    assert len(feats) == 1, got
    names = feats[0].split('"')[1].split(",")
    assert "lake" in names and "knavish" in names and "normal" in names
    # the new game is played at once: its board has holes, `*` squares for XBoard
    xb.send("variant lake")
    got = sync(xb)
    assert got[0] == ("setup (PNBRQ................Kpnbrq................k) 8x8+0_fairy "
                      "rnbqkbnr/pppppppp/8/3**3/3**3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    xb.send("force")
    xb.send("usermove d2d4")          # d4 is lake
    xb.send("usermove e2e3")
    assert sync(xb) == ["Illegal move: d2d4"]


def test_bad_variantpath_keeps_the_list(xb, tmp_path):  # noqa: F811
    bad = tmp_path / "bad.ini"
    bad.write_text("[broken:chess]\nmaxRank = x\n")
    xb.send(f"option VariantPath={bad}")
    got = sync(xb)
    assert got and all(s.startswith("Error (") for s in got), got
    assert not [s for s in got if s.startswith("feature")]
    xb.send("variant broken")
    assert sync(xb)[0].startswith("Error (unknown variant)")


def test_drawable_boards():
    variants.load_file(str(EXAMPLES / "lake.ini"))
    assert drawable(variants.get("lake"))               # holes: `*` squares
    assert not drawable(variants.get("alice"))         # two boards, stored as two levels
    assert not drawable(variants.get("nested-a"))       # a lattice
    assert not drawable(variants.get("elefantnichtschach"))   # 3D
    names = xboard_variants()
    assert "lake" in names and "alice" not in names


# ---- draw offers ------------------------------------------------------------------------------

def offer(xb, fen):  # noqa: F811
    xb.send("force")
    xb.send(f"setboard {fen}")
    xb.send("draw")
    return sync(xb)


def test_draw_accepted_when_level_late_or_dead(xb):  # noqa: F811
    # rook against rook at move 50: the score is within the margin of 0
    assert offer(xb, "8/8/3k4/8/8/2r5/8/3K2R1 w - - 0 50") == ["offer draw"]
    # move 1, but the best line takes the last white piece: bishop against king, a dead draw
    assert offer(xb, "8/1b6/8/8/8/5N2/8/K5k1 b - - 0 1") == ["offer draw"]


def test_draw_declined_when_early_or_ahead(xb):  # noqa: F811
    # the same rook ending at move 5: level, but too early
    assert offer(xb, "8/8/3k4/8/8/2r5/8/3K2R1 w - - 0 5") == []
    # a queen up at move 50
    assert offer(xb, "7k/8/8/8/8/8/Q7/6K1 w - - 0 50") == []
    # the start position: nothing to judge yet
    xb.send("new")
    xb.send("draw")
    assert sync(xb) == []
    xb.send("sd 2")
    xb.send("usermove e2e4")          # still serving: the engine answers with a move
    assert xb.expect("move ")[-1].startswith("move ")
