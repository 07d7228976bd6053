"""`cellfish match` referees CECP (XBoard) engines: proto=xboard against a UCI engine, and two
CECP engines against each other, in chess and in Knavish (a shipped variants file)."""
from __future__ import annotations

import os
import shutil

import pytest

from match_helpers import CELLFISH, ROOT, replay

from match import EngineSpec, MatchConfig, TimeControl, parse_engine, run_match


def xb(name: str) -> EngineSpec:
    return EngineSpec(name, CELLFISH, proto="xboard", cwd=str(ROOT))


def uci(name: str) -> EngineSpec:
    return EngineSpec(name, CELLFISH, cwd=str(ROOT))


def test_parse_engine_proto_xboard():
    assert parse_engine(["cmd=cellfish", "proto=xboard"]).proto == "xboard"


def test_xboard_engine_against_uci_engine(stray_engines):
    cfg = MatchConfig("chess", [xb("cf-xb"), uci("cf-uci")], tc=TimeControl(depth=1), games=2,
                      max_plies=40)
    r = run_match(cfg)
    assert not r.errors
    for rec in r.records:
        assert "faulty" not in rec, rec["reason"]
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2")
        replay(rec)
        assert rec["plies"] >= 1


def test_two_xboard_engines_to_a_result_in_knavish(stray_engines):
    cfg = MatchConfig("knavish", [xb("a"), xb("b")], tc=TimeControl(depth=1), games=2, max_plies=30,
                      random_plies=4)
    r = run_match(cfg)
    assert not r.errors
    for rec in r.records:
        assert "faulty" not in rec, rec["reason"]
        replay(rec)
        assert rec["plies"] == 30 or rec["reason"] != ""


def test_xboard_engine_with_a_clock(stray_engines):
    cfg = MatchConfig("chess", [xb("cf-xb"), uci("cf-uci")], tc=TimeControl(base_ms=20000, inc_ms=200),
                      games=1, max_plies=10)
    r = run_match(cfg)
    assert not r.errors
    rec = r.records[0]
    assert "faulty" not in rec, rec["reason"]
    assert rec["plies"] == 10


FSF = shutil.which("fairy-stockfish") or ("/usr/games/fairy-stockfish"
                                          if os.path.exists("/usr/games/fairy-stockfish") else None)


# the README's test command (and CI) installs it: never skipped there
@pytest.mark.skipif(FSF is None and os.environ.get("CI") != "true",
                    reason="no fairy-stockfish program (Debian package fairy-stockfish)")
def test_fairy_stockfish_in_xboard_mode_refereed(stray_engines):
    assert FSF, "the fairy-stockfish program is missing: the README's test command installs it"
    fsf = EngineSpec("fsf-xboard", (FSF,), proto="xboard")
    cfg = MatchConfig("chess", [uci("cf"), fsf], tc=TimeControl(depth=2), games=2, max_plies=20)
    r = run_match(cfg)
    assert not r.errors
    for rec in r.records:
        assert "faulty" not in rec, rec["reason"]
        replay(rec)
        assert rec["plies"] >= 1


def test_two_xboard_engines_play_chu_shogi_to_its_end(stray_engines, tmp_path):
    """Chu Shogi between two CECP engines (asked for XBoard's `chu`) from a position where the
    Lion takes two pawns in one move: the referee reads the two legs (`f5f6,f6f7`) back into
    the core's move and the game runs to its checkmate."""
    book = tmp_path / "chu.epd"
    book.write_text("11k/9p2/12/12/12/5g6/5p6/5N6/12/12/12/K11 w 0 1\n")
    cfg = MatchConfig("chushogi", [xb("a"), xb("b")], tc=TimeControl(depth=2), games=1,
                      max_plies=80, openings=str(book))
    r = run_match(cfg)
    assert not r.errors
    rec = r.records[0]
    assert "faulty" not in rec, rec["reason"]
    replay(rec)
    assert rec["moves"][0] == "7h7g7f"          # USI: f5 (7h) takes f6 and f7 (the record's dialect)
    assert (rec["result"], rec["reason"]) == ("1-0", "checkmate"), rec
