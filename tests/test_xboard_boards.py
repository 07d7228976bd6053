"""What XBoard is told of boards and pieces, and the CECP commands that change the games played
(issue #49's follow-ups): shogi-style promoted pieces in the piece table and `piece +X&` lines
(checked against Fairy-Stockfish's XBoard mode), Notake left out,
the en-passant cell of a ten-rank `setboard` in XBoard's rank numbering, a `VariantPath` set from
XBoard refreshing `variants=`, boards with holes as `*` squares, and draw offers."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import variants
from protocol.xboard_board import (PROMOTED_OFFSET, drawable, fen_from_xboard, holdings, piece_lines,
                                   piece_table, rank_shift, xboard_variants)
from tests.test_xboard_protocol import sync, xb  # noqa: F401  (the fixture)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


# ---- promoted pieces ------------------------------------------------------------------------

MINISHOGI = """[minishogi-file]
maxRank = 5
maxFile = 5
customPiece1 = p:fW
customPiece2 = s:fWfFbrFblF
customPiece3 = g:fWfFsWbW
customPiece4 = b:B
customPiece5 = r:R
king = k:K
customPiece6 = h:BW
customPiece7 = d:RF
promotedPieceType = p:g s:g b:h r:d
promotedOnlyTypes = hd
startFen = rbsgk/4p/5/P4/KGSBR[-] w 0 1
pieceDrops = true
capturesToHand = true
promotionRegionWhite = *5
promotionRegionBlack = *1
pawnTypes = p
promotionPawnTypes = -
promotionPieceTypes = -
doubleStep = false
castling = false
"""
FSF = shutil.which("fairy-stockfish") or ("/usr/games/fairy-stockfish"
                                          if os.path.exists("/usr/games/fairy-stockfish") else None)


@pytest.fixture
def minishogi(tmp_path):
    path = tmp_path / "minishogi.ini"
    path.write_text(MINISHOGI)
    return path


def test_shogi_like_file_setup_and_promoted_piece_lines(xb, minishogi):  # noqa: F811
    """A variants file with shogi's promotions (Minishogi's pieces written as custom pieces):
    each promoting piece in one of XBoard's first ten slots, `+` eleven slots on, and the
    promoted forms' moves told as `piece +X&` (Gold, Horse, Dragon); the Horse and Dragon,
    pieces only as promoted forms, have no letter of their own."""
    xb.send(f"option VariantPath={minishogi}")
    sync(xb)
    xb.send("variant minishogi-file")
    got = sync(xb)
    assert got[0] == ("setup (P.BR.S...G.+.++.+....Kp.br.s...g.+.++.+....k) 5x5+5_fairy "
                      "rbsgk/4p/5/P4/KGSBR[-] w 0 1")
    pieces = got[1:]
    assert "piece P& fW" in pieces and "piece G& fWfFsWbW" in pieces
    assert "piece +P& fWfFsWbW" in pieces and "piece +S& fWfFsWbW" in pieces
    assert "piece +B& BW" in pieces and "piece +R& RF" in pieces
    assert not [p for p in pieces if p.startswith(("piece H&", "piece D&"))]
    # a Pawn reaching the far rank promotes with XBoard's `+`; the promoted Pawn as XBoard
    # writes it in a FEN (`+P`) moves as a Gold: sideways, which a Pawn cannot
    xb.send("force")
    xb.send("setboard 4k/P4/5/5/K4[-] w 0 1")
    xb.send("usermove a4a5+")
    assert sync(xb) == []
    xb.send("setboard 2k2/5/+P4/5/K4[-] w 0 1")
    xb.send("usermove a3b3")
    assert sync(xb) == []
    xb.send("setboard 2k2/5/P4/5/K4[-] w 0 1")
    xb.send("usermove a3b3")
    assert sync(xb) == ["Illegal move: a3b3"]


# the README's test command (and CI) installs it: never skipped there
@pytest.mark.skipif(FSF is None and os.environ.get("CI") != "true",
                    reason="no fairy-stockfish program (Debian package fairy-stockfish)")
def test_promoted_slots_agree_with_fairy_stockfish(minishogi):
    """Fairy-Stockfish's XBoard mode tells XBoard its built-in Minishogi with a piece table;
    the same pieces from a variants file get the same slots from cellfish (cellfish writes
    every slot up to the king's, Fairy-Stockfish stops at the last one it uses)."""
    assert FSF, "the fairy-stockfish program is missing: the README's test command installs it"
    out = subprocess.run([FSF], input="xboard\nprotover 2\nvariant minishogi\nping 1\nquit\n",
                         capture_output=True, text=True, timeout=60).stdout.splitlines()
    setup = next(s for s in out if s.startswith("setup ("))
    theirs = setup.split("(")[1].split(")")[0]
    theirs_white = theirs[:len(theirs) // 2]
    variants.load_file(str(minishogi))
    ours = piece_table(variants.get("minishogi-file"))
    ours_white = ours[:len(ours) // 2]
    assert ours_white[:len(theirs_white) - 1] == theirs_white[:-1]
    assert set(ours_white[len(theirs_white) - 1:-1]) <= {"."} and ours_white[-1] == theirs_white[-1] == "K"
    assert setup.split()[2].split("+")[1].split("_")[0] == "5" == str(holdings(variants.get("minishogi-file")))


def test_notake_left_out(xb):  # noqa: F811
    """Notake's acting moves change a piece on a third cell (recruit, demote, promote): XBoard's
    moves only move pieces, and XBoard 4.9 forfeited cellfish on the first one (`b3b4,b2`,
    "invalid move"), so the Notake forms are not offered to it."""
    assert not drawable(variants.get("notake-tow"))
    xb.send("variant notake-tow")
    assert sync(xb)[0].startswith("Error (unknown variant)")


def test_knavish_promotion_table_keeps_pawn_and_queen_slots():
    v = variants.get("knavish-promotion")
    table = piece_table(v)
    white = table[:len(table) // 2]
    assert white == "PNBRQD..C...+++.+....K"
    lines = piece_lines(v)
    assert "piece +R& Q" in lines and "piece +B& Q" in lines and "piece +D& ND" in lines


def test_returning_promoted_pieces_get_xboards_tilde_slot():
    """Knavish with captures returning: a Pawn promoted to a Queen or Carpenter (`Q~`, `C~`)
    goes back to the hand as a Pawn when taken.  XBoard knows such a piece by `~` in the
    promoted slot of the piece's own; without it XBoard 4.9 put a taken `C~` in the hand as a
    Carpenter and forfeited cellfish for the Pawn drop that followed (P@b5)."""
    v = variants.get("knavish-returns")
    white = piece_table(v)[:len(piece_table(v)) // 2]
    assert white == "PNBRQD..C...+++~+..~.K"
    for ch in "QC":
        assert white[white.index(ch) + PROMOTED_OFFSET] == "~"
    assert "~" not in piece_table(variants.get("knavish-promotion"))   # nothing returns there


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
    # each name once: chess is XBoard's `normal`, and so is Fairy-Stockfish's built-in `normal`
    assert names.count("normal") == 1 and len(names) == len(set(names))


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


def test_draw_judged_by_the_running_search(xb):  # noqa: F811
    """An offer while the engine thinks is judged by that search's own line (as XBoard 4.9
    sent it: Action > Draw during cellfish's turn): Black's best line takes White's last pawn,
    knight against king, so the offer is accepted before the engine moves."""
    xb.send("force")
    xb.send("setboard K7/8/8/8/8/7k/7P/1n6 b - - 0 1")
    xb.send("post")
    xb.send("go")                     # no clock: it thinks until `?`
    xb.expect(lambda s: s[:1].isdigit() and int(s.split()[0]) >= 3)
    xb.send("draw")
    got = xb.expect(lambda s: s == "offer draw" or s.startswith("move "))
    assert got[-1] == "offer draw"
    xb.send("?")
    assert xb.expect("move ")[-1].startswith("move ")


# ---- the large boards ------------------------------------------------------------------------

def test_large_boards_told_to_xboard():
    """XXL Chess (14x14) and Omega Chess (12x12 with holes) are offered: XBoard 4.9 draws both.
    Omega's pawns step two or three from their home rank: without the triple step in its piece
    line (`ifmnH`, a three-cell step through empty cells) XBoard 4.9 forfeited cellfish's
    b3b6; with it the same game went on."""
    assert drawable(variants.get("xxl")) and drawable(variants.get("omega"))
    from protocol.xboard_board import setup_line
    xxl, omega = variants.get("xxl"), variants.get("omega")
    assert setup_line(xxl).split()[2] == "14x14+0_fairy"
    assert setup_line(omega).split()[2] == "12x12+0_fairy"
    assert setup_line(omega).split()[3].startswith("w**********w/*crnbqkbnrc*/")
    assert "piece P& fmWfceFifmnDifmnH" in piece_lines(omega)
    assert "piece P& fmWfceFifmnD" in piece_lines(xxl)          # a double step only
