"""docs/protocol.md, "Bad input", beyond UCI chess: bad input in the other dialect and the other
variants (malformed position text, impossible setups, illegal or unparsable moves, drops and
returns) is answered by exactly one `info string error: <what> (<the token>)` line, the
previous position is kept (the `Fen:` line of `d`), and the engine still answers isready.
Also the core's limit on the number of cells (8-bit cell fields in a move)."""
import pytest

from engine.geometry import grid2d
from engine.variant import MAX_CELLS, Variant
from test_protocol_basic import assert_refused, eng, fen_of  # noqa: F401  (eng is a fixture)
from variants.chess import Chess, ChessLike

SHOGI_START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"
# both sides hold a pawn, file 5 has no pawn: P*5e is legal, P*5a (last rank) is not
SHOGI_HANDS = "lnsg1gsnl/1r2k2b1/pppp1pppp/9/9/9/PPPP1PPPP/1B5R1/LNSGKGSNL b Pp 1"
KNAVISH_START = ("1dn1cc1nd1/rdnbqkbndr/pppppppppp/10/10/10/10/PPPPPPPPPP/RDNBQKBNDR/1DN1CC1ND1"
                 " w KQkq - 0 1")
KNAVISH_ROOK = "5k4/10/10/10/10/10/10/10/R4K4/10 w - - 0 1"     # a2a10 is legal, a2a10+ is not
LEVELS = ["rubenr/pppppp/6/6/PPPPPP/RUBENR", "nadgau/pppppp/6/6/PPPPPP/NADGAU",
          "ekqlyb/pppppp/6/6/PPPPPP/EKQLYB", "bylqke/pppppp/6/6/PPPPPP/BYLQKE",
          "uagdan/pppppp/6/6/PPPPPP/UAGDAN", "rnebur/pppppp/6/6/PPPPPP/RNEBUR"]
NESTED_ROWS = ["rnakwnr", "bcdifdcb", "ppppppppp", "eeeeeeee", "9", "8", "9", "8", "9", "8", "9",
               "8", "9", "EEEEEEEE", "PPPPPPPPP", "BCDIFDCB", "RNAKWNR"]


def usi(variant=None):
    return ["usi"] + ([f"setoption name USI_Variant value {variant}"] if variant else [])


def uci(variant):
    return ["uci", f"setoption name UCI_Variant value {variant}"]


# (id, handshake and variant, the position before, the bad line, the token the error names)
CASES = [
    # ---- shogi under USI -------------------------------------------------------------------
    ("usi malformed sfen (8 rows)", usi(), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START.rsplit('/', 1)[0]} b - 1", "(lnsgkgsnl/1r5b1/"),
    ("usi sfen bad side", usi(), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START} x - 1", "(x)"),
    ("usi sfen bad hand", usi(), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START} b 2 1", "(2)"),
    ("usi sfen without a gote king", usi(), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START.replace('k', '1', 1)} b - 1", "(gote kings: 0)"),
    ("usi illegal drop on the last rank", usi(), "position startpos moves 7g7f",
     f"position sfen {SHOGI_HANDS} moves P*5a", "(P*5a)"),
    ("usi drop of a piece not in hand", usi(), "position startpos moves 7g7f",
     "position startpos moves 7g7f 3c3d P*5e", "(P*5e)"),
    ("usi move with a bad square", usi(), "position startpos moves 7g7f",
     "position startpos moves 7g7f 3c3d 0j1a", "(0j1a)"),
    ("usi uci-style move", usi(), "position startpos moves 7g7f",
     "position startpos moves e2e4", "(e2e4)"),
    # ---- knavish ---------------------------------------------------------------------------
    ("knavish hand in a non-returns variant", uci("knavish"), "position startpos moves e3e4",
     "position fen " + KNAVISH_START.replace(" ", "[Pp] ", 1), "(Pp)"),
    ("knavish drop in base knavish", uci("knavish"), "position startpos moves e3e4",
     "position startpos moves e3e4 P@e5", "(P@e5)"),
    ("knavish promotion suffix where none", uci("knavish"), f"position fen {KNAVISH_ROOK}",
     f"position fen {KNAVISH_ROOK} moves a2a10+", "(a2a10+)"),
    ("knavish pawn on rank 10", uci("knavish"), "position startpos moves e3e4",
     "position fen P4k4/10/10/10/10/10/10/10/R4K4/10 w - - 0 1", "(a10)"),
    ("knavish without kings", uci("knavish"), "position startpos moves e3e4",
     "position fen 10/10/10/10/10/10/10/10/R9/10 w - - 0 1", "(white kings: 0)"),
    ("knavish8 move off the board", uci("knavish8"), "position startpos moves e3e4",
     "position startpos moves e3e4 e8e7 e4i5", "(e4i5)"),
    # ---- notake (USI) ----------------------------------------------------------------------
    ("notake sfen with pieces in hand", usi("notake-approach"), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START} b 2Pb 1", "(PPb)"),
    ("notake without a sente king", usi("notake-withdraw"), "position startpos moves 7g7f",
     f"position sfen {SHOGI_START[:-5]}1GSNL b - 1", "(sente kings: 0)"),
    ("notake move without its action", usi("notake-approach"), "position startpos moves 7g7f",
     "position startpos moves 7g7f 3c3d 2g2f,9z", "(2g2f,9z)"),
    # ---- a 3D variant ----------------------------------------------------------------------
    ("3d fen with five levels", uci("elefantnichtschach"), "position startpos moves ua2ua3",
     "position fen " + "|".join(LEVELS[:5]) + " w [-] 0 1", "(rubenr/"),
    ("3d fen with a short level", uci("elefantnichtschach"), "position startpos moves ua2ua3",
     "position fen " + "|".join(LEVELS[:5] + ["rnebur/pppppp/6/PPPPPP/RNEBUR"]) + " w [-] 0 1",
     "(rnebur/pppppp/6/PPPPPP/RNEBUR)"),
    ("3d return of a piece not in hand", uci("elefantnichtschach"), "position startpos moves ua2ua3",
     "position fen " + "|".join(LEVELS) + " w [N] 0 1 moves P@wc3", "(P@wc3)"),
    ("3d return from an empty hand", uci("elefantnichtschach"), "position startpos moves ua2ua3",
     "position startpos moves ua2ua3 ua5ua4 L@wc3", "(L@wc3)"),
    ("3d move with a bad level", uci("elefantnichtschach"), "position startpos moves ua2ua3",
     "position startpos moves ua2ua3 ua5ua4 ka3ka4", "(ka3ka4)"),
    # ---- ninepiece --------------------------------------------------------------------------
    ("ninepiece fission into an unknown part", uci("ninepiece-nichtschach"),
     "position startpos moves ua2ua3", "position startpos moves ua2ua3 ua5ua4 ua1ub1/z",
     "(ua1ub1/z)"),
    ("ninepiece stockpoint two steps", uci("ninepiece-nichtschach"),
     "position startpos moves ua2ua3", "position startpos moves ua2ua3 ua5ua4 ub2ub4", "(ub2ub4)"),
    ("ninepiece move with a bad level", uci("ninepiece-nichtschach"),
     "position startpos moves ua2ua3", "position startpos moves ua2ua3 ua5ua4 ka1ka2", "(ka1ka2)"),
    # ---- notake in the UCI dialect (translated cells) ---------------------------------------
    ("notake-uci action on an empty cell", uci("notake-approach"), "position startpos moves c1d2",
     "position startpos moves c1d2 a7a6 a3a4,a5", "(a3a4,a5)"),
    ("notake-uci action off the board", uci("notake-approach"), "position startpos moves c1d2",
     "position startpos moves c1d2 a7a6 c1c2,z9", "(c1c2,z9)"),
    ("notake-uci usi-style move", uci("notake-approach"), "position startpos moves c1d2",
     "position startpos moves c1d2 7c7d", "(7c7d)"),
    # ---- nested ----------------------------------------------------------------------------
    ("nested wrong number of rows", uci("nested-a"), "position startpos moves g1g5",
     "position fen " + "/".join(NESTED_ROWS[:12] + NESTED_ROWS[13:]) + " w 0 1", "(rnakwnr/"),
    ("nested without a black king", uci("nested-b"), "position startpos",
     "position fen " + "/".join(["rna1wnr"] + NESTED_ROWS[1:]) + " w 0 1", "(black kings: 0)"),
    ("nested unknown piece", uci("nested-a"), "position startpos moves g1g5",
     "position fen " + "/".join(["rnaqwnr"] + NESTED_ROWS[1:]) + " w 0 1", "(q)"),
]


@pytest.mark.parametrize("what,setup,before,line,token", CASES, ids=[c[0] for c in CASES])
def test_bad_input_one_error_line_state_kept(eng, what, setup, before, line, token):  # noqa: F811
    for s in setup:
        eng.send(s)
    eng.send(before)
    lines = eng.ask("isready", "readyok")
    assert not [l for l in lines if l.startswith("info string error")], lines
    assert_refused(eng, line, token)
    # still playing the same variant and position: a search answers from it
    assert eng.ask("go depth 1", "bestmove")[-1].split()[1] not in ("(none)", "resign")
    assert not eng.err


def test_knavish_promotion_suffix_is_legal_where_allowed(eng):  # noqa: F811
    """The counterpart of the refused `a2a10+`: in knavish-promotion it is a move."""
    for s in uci("knavish-promotion"):
        eng.send(s)
    eng.send(f"position fen {KNAVISH_ROOK} moves a2a10+")
    assert fen_of(eng) == "+R4k4/10/10/10/10/10/10/10/5K4/10 b - - 1 1"


# ---- the move encoding carries at most 4,096 cells -------------------------------------------
def test_cell_limit_is_4096():
    assert MAX_CELLS == 4096


def test_64x65_variant_is_refused():
    class Big(ChessLike):
        name = "big"
        files, ranks = 64, 65

        def __init__(self):
            self.piece_types = Chess().piece_types[:]
            super().__init__()

    with pytest.raises(ValueError, match=r"4160 cells.*at most 4096"):
        Big()


def test_4097_cells_are_refused_for_any_variant():
    class Bare(Variant):
        name = "bare"

        def __init__(self):
            self.geometry = grid2d(17, 241)         # 4,097 cells
            self.piece_types = [None]
            super().__init__()

    with pytest.raises(ValueError, match=r"^variant bare: 4097 cells, but the move encoding carries "
                                         r"at most 4096 cells \(12-bit cell fields\)$"):
        Bare()


def test_geometry_set_after_init_is_refused_when_compiled():
    v = Chess()
    v.geometry = grid2d(64, 65)
    v._tables = None
    with pytest.raises(ValueError, match="at most 4096 cells"):
        _ = v.tables


def test_largest_board_allowed():
    class Edge(ChessLike):
        name = "edge"
        files, ranks = 64, 64          # 4,096 cells: 0..4095, every value of a 12-bit field

        def __init__(self):
            self.piece_types = [None] + Chess().piece_types[1:]
            super().__init__()

    edge = Edge()
    assert edge.geometry.size == 4096
    assert edge.geometry.names[-1] == "bl64"        # files past z: aa .. bl
