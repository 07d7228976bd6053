"""A file variant's move filter written into its promotion table (variants/inifile/movefilter.py):
where the filter's answer depends on the move alone, the section gets ``TableMoveFilter``, no
legality filter of its own, and the very same legal moves in the same order; named positions
checked against Fairy-Stockfish (pyffish).  The faster ``dropNoDoubled`` test (drops.py) too."""
import random

import pyffish
import pytest

import variants
from engine.movegen import in_check, legal_moves
from engine.notation.move_text import move_text
from engine.notation.position_text import parse
from file_helpers import one
from variants.inifile import build, load_text
from variants.inifile.build import build_class
from variants.inifile.drops import MoveFilter
from variants.inifile.movefilter import TableMoveFilter

# a piece that steps forward and never promotes: on the far rank it could never move again, so
# with the shogi family's immobilityIllegal it may not go there at all, yet it still gives check
STUCK = "[stuckstep:minishogi]\ncustomPiece1 = a:fW\n"


def _cls(text: str) -> type:
    """The class of a one-section text, its start position not read (no tables built)."""
    (cls,) = load_text(text, "f.ini", set(variants.builtin_names()), read_starts=False).values()
    return cls


def _moves(v, fen: str) -> list[str]:
    return sorted(move_text(v, m) for m in legal_moves(parse(v, fen)))


def test_a_filter_that_depends_on_the_move_alone_is_a_table():
    v = _cls(STUCK)()
    mro = type(v).__mro__
    assert TableMoveFilter in mro and MoveFilter not in mro
    assert not v.rules.own_legality and v.rules.lazy_legality and v.rules.fast_evasions
    # the position decides (promotionLimit counts pieces, piecePromotionOnCapture asks for a
    # capture): the filter stays
    for extra in ("promotionLimit = g:1\n", "piecePromotionOnCapture = true\n"):
        mro = _cls(STUCK + extra).__mro__
        assert MoveFilter in mro and TableMoveFilter not in mro, extra
    # a pawn that takes en passant (whose promotion choices the filter strips): it stays
    assert MoveFilter in _cls("[x:chess]\nimmobilityIllegal = true\n").__mro__


def test_the_stuck_piece_and_the_two_pawn_rule_as_fairy_stockfish_plays_them():
    """White: a pawn on b4 must promote on b5, the stepper on e4 may not enter e5, a tokin on a2
    (it moves as a gold: no pawn for the two-pawn rule), a pawn in hand (not on the b-file,
    where a pawn stands; not on rank 5).  Then Black's king on e5 in check from the stepper that
    cannot go there."""
    pyffish.load_variant_config(STUCK)
    v = one(STUCK)
    fen = "3k1/1P2A/5/+P4/2K2[P] w - - 0 1"
    ours = _moves(v, fen)
    assert ours == sorted(pyffish.legal_moves("stuckstep", fen, []))
    assert [m for m in ours if not m.startswith("P@")] == \
        ["a2a1", "a2a3", "a2b2", "a2b3", "b4b5+", "c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]
    assert sorted(m for m in ours if m.startswith("P@")) == \
        ["P@a1", "P@a3", "P@a4", "P@c2", "P@c3", "P@c4", "P@d1", "P@d2", "P@d3", "P@d4",
         "P@e1", "P@e2", "P@e3"]
    check = "4k/4A/5/5/K4[] b - - 0 1"
    assert in_check(parse(v, check))
    assert _moves(v, check) == ["e5d4", "e5d5", "e5e4"] == sorted(pyffish.legal_moves("stuckstep", check, []))


@pytest.mark.parametrize("name", ["minishogi", "torishogi"])
def test_the_table_gives_the_filters_moves_in_its_order(name, monkeypatch):
    """The section built both ways (the filter forced back): the same legal moves, in the same
    order, along a random game of 30 plies."""
    keys = variants.get(name).section_keys
    table, _ = build_class(name, keys)
    monkeypatch.setattr(build, "table_filters", lambda parts, attrs: parts["drop_filters"])
    filt, _ = build_class(name, keys)
    assert TableMoveFilter in table.__mro__ and MoveFilter in filt.__mro__
    vt, vf = table(), filt()
    for seed in (1,):
        rnd = random.Random(seed)
        pt, pf = parse(vt, vt.start_fen), parse(vf, vf.start_fen)
        for _ in range(30):
            mt, mf = legal_moves(pt), legal_moves(pf)
            assert mt == mf
            if not mt:
                break
            m = rnd.choice(mt)
            pt.make(m)
            pf.make(m)
