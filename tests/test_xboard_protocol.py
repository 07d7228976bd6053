"""CECP (XBoard) through a raw pipe: each command of issue #49 item 1, bad input, and whole
games.  `ping`/`pong` is the barrier: every answer before `pong N` belongs to the commands sent
before `ping N`."""
from __future__ import annotations

import itertools

import pytest

from tests.engine_proc import EngineProcess

_ping = itertools.count(1)


@pytest.fixture
def xb():
    e = EngineProcess()
    e.send("xboard")
    e.send("protover 2")
    e.expect("feature done=1")
    yield e
    e.close()


def sync(e: EngineProcess) -> list[str]:
    """The lines the engine sent before answering a fresh ping (the pong left out)."""
    n = next(_ping)
    got = e.ask(f"ping {n}", lambda s: s == f"pong {n}")
    return got[:-1]


def test_protover_features():
    e = EngineProcess()
    try:
        assert e.ask("xboard", lambda s: True) == [""]
        got = e.ask("protover 2", "feature done=1")
        assert got[0] == "feature done=0"
        first = got[1]
        for f in ("setboard=1", "usermove=1", "ping=1", "sigint=0", "san=0", "colors=0",
                  "analyze=1", "memory=1", "smp=0", "exclude=1", 'myname="cellfish'):
            assert f in first, f
        variants = first.split('variants="')[1].split('"')[0].split(",")
        assert "normal" in variants and "shogi" in variants and "knavish" in variants
        assert "chess" not in variants
        assert not any("nichtschach" in v or v == "alice" or v.startswith("nested") for v in variants)
        opts = [s for s in got if s.startswith("feature option=")]
        assert 'feature option="Hash -spin 16 1 4096"' in opts
        assert any(s.startswith('feature option="VariantPath -file') for s in opts)
    finally:
        e.close()


def test_uci_unchanged_after_cecp_module():
    e = EngineProcess()
    try:
        got = e.ask("uci", "uciok")
        assert got[0].startswith("id name cellfish")
        assert not any(s.startswith("feature") for s in got)
    finally:
        e.close()


def test_ping_pong(xb):
    assert sync(xb) == []


def test_usermove_engine_replies_as_black(xb):
    xb.send("new")
    xb.send("sd 2")
    xb.send("usermove e2e4")
    got = xb.expect("move ")
    assert got[-1].split()[1] in ("e7e5", "b8c6", "g8f6", "d7d5", "e7e6", "c7c5", "d7d6", "c7c6",
                                   "g7g6", "b7b6", "a7a6", "h7h6", "f7f5", "b8a6", "g8h6", "a7a5",
                                   "b7b5", "f7f6", "g7g5", "h7h5")


def test_illegal_and_unknown(xb):
    xb.send("force")
    xb.send("usermove e2e5")
    xb.send("frobnicate 3")
    xb.send("usermove")
    xb.send("level x y")
    got = sync(xb)
    assert got[0] == "Illegal move: e2e5"
    assert got[1] == "Error (unknown command): frobnicate"
    assert got[2].startswith("Error (") and got[2].endswith("usermove")
    assert got[3].startswith("Error (") and got[3].endswith("level x y")
    xb.send("usermove e2e4")          # the state was kept: e2e4 is still legal
    assert sync(xb) == []


def test_force_go_and_playother(xb):
    xb.send("force")
    xb.send("usermove e2e4")
    xb.send("usermove e7e5")
    assert sync(xb) == []             # force: no reply move
    xb.send("sd 1")
    xb.send("go")                     # the engine plays white now
    mv = xb.expect("move ")[-1].split()[1]
    assert mv[1] in "1234"            # a white move
    xb.send("force")
    xb.send("playother")              # engine plays the side not to move: white; black to move
    assert sync(xb) == []
    xb.send("usermove a7a6")
    assert xb.expect("move ")[-1].startswith("move ")


def test_setboard_and_mate_result(xb):
    xb.send("force")
    xb.send("setboard 7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
    xb.send("sd 3")
    xb.send("go")
    got = xb.expect(lambda s: s.startswith("1-0"))
    assert any(s.startswith("move ") for s in got)
    assert got[-1].startswith("1-0 {")


def test_setboard_bad_keeps_position(xb):
    xb.send("force")
    xb.send("setboard not a position")
    got = sync(xb)
    assert got and got[0].startswith("tellusererror Illegal position")
    xb.send("usermove e2e4")
    assert sync(xb) == []


def test_user_mates_engine_result(xb):
    xb.send("new")
    xb.send("force")
    for m in ("f2f3", "e7e5", "g2g4"):
        xb.send(f"usermove {m}")
    xb.send("go")                     # black to move: the engine finds the mate
    xb.send("sd 2")
    got = xb.expect(lambda s: s.startswith("0-1"))
    assert "move d8h4" in got


def test_clock_commands(xb):
    xb.send("new")
    xb.send("level 40 0:30 0")
    xb.send("level 0 1 2")
    xb.send("st 1")
    xb.send("time 3000")
    xb.send("otim 3000")
    assert sync(xb) == []
    xb.send("level 40 5 0")
    xb.send("time 500")
    xb.send("otim 500")
    xb.send("usermove d2d4")
    assert xb.expect("move ")[-1].startswith("move ")


def test_post_and_nopost(xb):
    xb.send("new")
    xb.send("post")
    xb.send("sd 2")
    xb.send("usermove e2e4")
    got = xb.expect("move ")
    thinking = [s for s in got if s[:1].isdigit()]
    assert thinking
    ply, score, cs, nodes = thinking[-1].split()[:4]
    assert int(ply) >= 1 and int(nodes) > 0 and int(cs) >= 0
    int(score)
    xb.send("new")
    xb.send("nopost")
    xb.send("sd 2")
    xb.send("usermove e2e4")
    got = xb.expect("move ")
    assert not [s for s in got if s[:1].isdigit()]


def test_move_now_during_search(xb):
    xb.send("new")
    xb.send("force")
    xb.send("go")                     # no clock: the search runs until `?`
    xb.send("?")
    assert xb.expect("move ")[-1].startswith("move ")


def test_quit_during_search():
    e = EngineProcess()
    e.send("xboard")
    e.send("protover 2")
    e.expect("feature done=1")
    e.send("new")
    e.send("go")
    assert e.close() == 0


def test_analyze_exit_dot(xb):
    xb.send("new")
    xb.send("force")
    xb.send("analyze")
    xb.expect(lambda s: s[:1].isdigit())          # thinking output without `post`
    xb.send(".")
    xb.expect("stat01: ")
    xb.send("usermove e2e4")                       # analysis goes on in the new position
    got = xb.expect(lambda s: s[:1].isdigit() and "e2e4" not in s and s.split()[-1][1] in "5678")
    assert got
    xb.send("undo")
    xb.send("exit")
    sync(xb)
    xb.send("usermove e2e4")                       # back at the start: e2e4 is legal again
    assert not [s for s in sync(xb) if s.startswith("Illegal")]


def test_undo_and_remove(xb):
    xb.send("new")
    xb.send("force")
    for m in ("e2e4", "e7e5", "g1f3"):
        xb.send(f"usermove {m}")
    xb.send("undo")
    xb.send("remove")
    xb.send("usermove e2e4")          # both undone down to after e2e4? no: to the start
    assert sync(xb) == []
    xb.send("new")
    xb.send("undo")                   # nothing to take back
    got = sync(xb)
    assert got and got[0].startswith("Error (")


def test_result_draw_hint_memory_option(xb):
    xb.send("new")
    xb.send("draw")
    xb.send("hard")
    xb.send("easy")
    xb.send("memory 32")
    xb.send("option Hash=8")
    xb.send("option Clear Hash")
    xb.send("option MultiPV=1")
    xb.send("option Nonsense=3")
    xb.send("hint")
    got = sync(xb)
    assert got[0].startswith("Error (") and "Nonsense" in got[0]
    assert got[1].startswith("Hint: ")
    xb.send("result 1/2-1/2 {agreed}")
    xb.send("usermove e2e4")          # the game is over: no reply move
    got = sync(xb)
    assert got == ["Illegal move: e2e4"] or got == []


def test_exclude_include(xb):
    xb.send("new")
    xb.send("force")
    xb.send("setboard 7k/8/5K2/8/8/8/8/6Q1 w - - 0 1")
    xb.send("exclude g1g7")
    xb.send("exclude g1g8")
    xb.send("sd 3")
    xb.send("go")
    got = xb.expect("move ")
    assert got[-1] not in ("move g1g7", "move g1g8")
    xb.send("include all")
    assert not [s for s in sync(xb) if s.startswith("Error")]


def test_hard_ponders_and_answers(xb):
    xb.send("new")
    xb.send("hard")
    xb.send("sd 2")
    xb.send("usermove e2e4")
    xb.expect("move ")
    xb.send("usermove d2d4")          # pondering is cut off by the opponent's move
    assert xb.expect("move ")[-1].startswith("move ")
    xb.send("easy")
    sync(xb)
    assert not xb.err                 # no exception in the search thread that moved and pondered


def test_variant_knavish_setup_and_game(xb):
    xb.send("new")
    xb.send("variant knavish")
    got = sync(xb)
    table, size, fen = got[0].split(" ", 3)[1:]
    assert got[0].startswith("setup (")
    assert table == "(PNBRQ...C.......D....Kpnbrq...c.......d....k)"
    assert size == "10x10+0_fairy"
    assert fen.startswith("1dn1cc1nd1/rdnbqkbndr/")
    pieces = got[1:]
    assert "piece N& vNsD" in pieces and "piece D& sNvD" in pieces and "piece C& ND" in pieces
    assert "piece P& fmWfceFifmnD" in pieces
    xb.send("variant nichtschach-of-nowhere")
    assert sync(xb)[0].startswith("Error (unknown variant)")
    xb.send("variant elefantnichtschach")        # 3D: XBoard cannot draw it
    assert sync(xb)[0].startswith("Error (unknown variant)")
    # a ten-rank board: XBoard counts its ranks from 0, so a white pawn's double step from
    # cellfish's e3 is e2e4 on the wire
    xb.send("force")
    xb.send("usermove e2e4")
    xb.send("usermove e7e5")
    assert sync(xb) == []
    xb.send("sd 1")
    xb.send("go")
    mv = xb.expect("move ")[-1].split()[1]
    assert all(ch not in mv for ch in ("10",))


def test_shogi_drop_and_promotion_through_cecp(xb):
    xb.send("new")
    xb.send("variant shogi")
    xb.send("force")
    assert sync(xb) == []             # XBoard knows shogi: no setup line
    # white (sente) holds a pawn: drop it
    xb.send("setboard 4k4/9/9/9/9/9/9/9/4K4[P] w 0 1")
    xb.send("usermove P@e5")
    assert sync(xb) == []
    xb.send("usermove P@e6")          # the drop is made: no second pawn in hand
    assert sync(xb) == ["Illegal move: P@e6"]
    # a promotion: a silver entering the zone may promote with +
    xb.send("setboard 4k4/9/9/4S4/9/9/9/9/4K4[] w 0 1")
    xb.send("usermove e6e7+")
    assert sync(xb) == []


def test_knavish_game_to_a_result_through_raw_cecp(xb):
    """A shipped variants-file game played through the pipe alone: the engine moves for both
    sides (`go`, then `force`) until it announces the result; every move it sends is taken back
    by the same engine as legal, and the result line names the rules core's reason."""
    xb.send("new")
    xb.send("variant knavish")
    xb.send("force")
    xb.send("sd 1")
    sync(xb)
    result = None
    for _ in range(800):
        xb.send("go")
        xb.expect("move ")
        xb.send("force")
        done = [s for s in sync(xb) if s.split()[:1] and s.split()[0] in ("1-0", "0-1", "1/2-1/2")]
        if done:
            result = done[0]
            break
    assert result is not None
    assert result.split()[1].startswith("{") and result.endswith("}")


def test_bad_input_never_crashes(xb):
    bad = ["level", "level 40", "st x", "sd", "sd -3x", "time abc", "otim", "setboard", "variant",
           "option", "option =", "option Hash=lots", "usermove P@z99", "usermove e2", "exclude",
           "include e9e9", "?", ".", "undo", "remove", "memory x", "ping", "é ü", "((", "go perft",
           "protover", "variant " + "x" * 300, "setboard 8/8/8/8/8/8/8/8 w - - 0 1"]
    xb.send("force")
    for line in bad:
        xb.send(line)
    got = sync(xb)
    assert not xb.err, xb.err
    assert all(s.startswith(("Error (", "Illegal move:", "tellusererror", "pong", "feature"))
               or s == "" for s in got), got
    xb.send("new")
    xb.send("sd 1")
    xb.send("usermove e2e4")          # still serving: it answers with a move
    assert xb.expect("move ")[-1].startswith("move ")
