"""What ``make`` keeps for ``unmake`` (``engine.position.Undo``): one record per move on
``pos.stack``, read by attribute, and still readable as the tuple it once was (indexed by the
``U_*`` names, unpacked, with a length) for code written against that."""
from __future__ import annotations

import variants
from engine import position
from engine.evaluate import Evaluator
from engine.movegen import legal_moves
from engine.moves import NULL_MOVE
from engine.notation import parse_position
from engine.notation.move_text import parse_move
from engine.undo import (U_ACC, U_ACCH, U_CAP, U_CASTLE, U_CODE, U_EP, U_EP_VICTIM, U_EXTRA, U_HALFMOVE,
                         U_HASH, U_MOVE, Undo)

# White's e-pawn has just gone e2-e4 beside Black's d4 pawn: d4xe3 takes it in passing
EP_FEN = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3"
# White's bishop c4 can take the f7 pawn with check
CAPTURE_FEN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def _make(v, pos, text: str) -> int:
    m = parse_move(v, legal_moves(pos), text)
    pos.make(m)
    return m


def test_a_capture_keeps_the_mover_the_victim_and_the_state_before():
    v = variants.get("chess")
    pos = parse_position(v, CAPTURE_FEN)
    Evaluator(v).prime(pos)
    before = (pos.ep, pos.ep_victim, pos.castle, pos.halfmove, pos.hash, pos.acc, pos.acch)
    m = _make(v, pos, "c4f7")
    u = pos.stack[-1]
    assert isinstance(u, Undo)
    assert u.move == m and u.extra is None
    assert u.cap == pos.board[v.geometry.by_name["a7"]] and u.cap & 1 == 1     # a black pawn
    assert u.code == pos.board[v.geometry.by_name["f7"]]                      # the white bishop
    assert (u.ep, u.ep_victim, u.castle, u.halfmove, u.hash, u.acc, u.acch) == before
    assert pos.halfmove == 0 and pos.history[-1] == pos.hash != u.hash


def test_en_passant_keeps_the_pawn_taken_as_its_extra():
    v = variants.get("chess")
    pos = parse_position(v, EP_FEN)
    e4 = v.geometry.by_name["e4"]
    white_pawn = pos.board[e4]
    ep = pos.ep
    _make(v, pos, "d4e3")
    u = pos.stack[-1]
    assert u.cap == 0 and u.extra == white_pawn and u.ep == ep and u.ep_victim == e4
    assert pos.board[e4] == 0
    pos.unmake()
    assert pos.board[e4] == white_pawn and pos.ep == ep


def test_the_record_still_reads_as_the_tuple_it_was():
    v = variants.get("chess")
    pos = parse_position(v, CAPTURE_FEN)
    Evaluator(v).prime(pos)
    m = _make(v, pos, "c4f7")
    u = pos.stack[-1]
    fields = (u.move, u.ep, u.ep_victim, u.castle, u.halfmove, u.hash, u.acc, u.acch, u.cap,
              u.extra, u.code)
    assert tuple(u) == u.astuple() == fields and len(u) == 11
    names = (U_MOVE, U_EP, U_EP_VICTIM, U_CASTLE, U_HALFMOVE, U_HASH, U_ACC, U_ACCH, U_CAP,
             U_EXTRA, U_CODE)
    assert [u[i] for i in names] == list(fields) and u[-1] == u.code
    assert (position.U_CAP, position.Undo) == (U_CAP, Undo)     # the names position gave
    first, *_, cap, extra, code = u
    assert (first, cap, extra, code) == (m, u.cap, None, u.code)
    assert [r[0] for r in reversed(pos.stack)] == [m]
    pos.make_null()
    assert pos.stack[-1][0] == pos.stack[-1].move == NULL_MOVE and pos.stack[-1].cap == 0


def test_a_copy_shares_no_record_that_its_moves_change():
    """make refills the records unmake took off: a copy's moves must not refill its
    original's (the copy taking back a move both have, then making another)."""
    v = variants.get("chess")
    pos = parse_position(v, CAPTURE_FEN)
    m = _make(v, pos, "c4f7")
    kept = pos.stack[-1].astuple()
    other = pos.copy()
    _make(v, other, "e8f7")
    other.unmake()
    other.unmake()
    castle = _make(v, other, "e1g1")
    _make(v, other, "g8f6")
    assert other.stack[0].move == castle != m
    assert len(pos.stack) == 1 and pos.stack[-1].astuple() == kept and pos.stack[-1].move == m
    pos.unmake()
    assert pos.hash == other.history[0] and pos.board[v.geometry.by_name["c4"]] != 0


def test_unmake_then_make_keeps_every_record_of_the_line():
    """Records refilled along a line of moves and take-backs hold their own move's facts: the
    stack after a walk equals the one made afresh by the same moves."""
    v = variants.get("chess")
    pos = parse_position(v, CAPTURE_FEN)
    line = ["c4f7", "e8f7", "f3g5", "f7e8", "e1g1"]
    for t in line[:3]:
        _make(v, pos, t)
    pos.unmake()
    pos.unmake()
    for t in line[1:]:
        _make(v, pos, t)
    fresh = parse_position(v, CAPTURE_FEN)
    for t in line:
        _make(v, fresh, t)
    assert [u.astuple() for u in pos.stack] == [u.astuple() for u in fresh.stack]
    assert pos.history == fresh.history
