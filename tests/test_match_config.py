"""The match runner's configuration and arithmetic: time controls, engine specs, statistics,
opening files, SAN against python-chess, the progress table and bad configurations."""
from __future__ import annotations

import io
import math
import os

import chess
import chess.pgn
import pytest
from match_helpers import cellfish

import variants
from engine.movegen import legal_moves
from engine.notation.position_text import parse as parse_position
from match import (
    ConfigError,
    MatchConfig,
    TimeControl,
    parse_engine,
    parse_tc,
    run_match,
    stats,
)


# ---- parsing and statistics -------------------------------------------------------------------
def test_parse_tc():
    assert parse_tc("10+0.1") == TimeControl(base_ms=10000, inc_ms=100)
    assert parse_tc("1:30") == TimeControl(base_ms=90000)
    assert parse_tc("30+b2") == TimeControl(base_ms=30000, byoyomi_ms=2000)
    assert parse_tc("0b0.5") == TimeControl(base_ms=0, byoyomi_ms=500)
    with pytest.raises(ConfigError):
        parse_tc("ten")


def test_parse_engine():
    e = parse_engine(["cmd=sunfish-uci --flag", "name=sf", "option.Hash=8", "tc=5+0.1", "depth=3"])
    assert e.name == "sf" and e.cmd[1:] == ("--flag",) and os.path.isabs(e.cmd[0])
    assert e.options == (("Hash", "8"),)
    assert e.tc == TimeControl(base_ms=5000, inc_ms=100, depth=3)
    with pytest.raises(ConfigError):
        parse_engine(["name=x"])
    with pytest.raises(ConfigError):
        parse_engine(["cmd=x", "colour=red"])


def test_stats():
    elo, margin = stats.elo_and_margin(6, 0, 4)          # 60%
    assert elo == pytest.approx(70.4, abs=0.1)
    assert 0 < margin < math.inf
    assert stats.elo_and_margin(5, 10, 5)[0] == 0
    assert math.isnan(stats.elo_and_margin(3, 0, 0)[1])  # a perfect score has no finite margin
    assert stats.los(10, 5) == pytest.approx(0.5 * (1 + math.erf(5 / math.sqrt(30))))
    assert stats.los(4, 4) == 0.5
    lo, hi = stats.sprt_bounds(0.05, 0.05)
    assert hi == pytest.approx(2.944, abs=1e-3) and lo == -hi
    assert stats.sprt_llr(40, 20, 10, 0, 10) > 0 > stats.sprt_llr(10, 20, 40, 0, 10)
    assert stats.sprt_llr(0, 30, 0, 0, 50) < 0          # only draws: evidence for H0 (elo 0)
    assert stats.sprt_llr(0, 0, 0, 0, 50) == 0


def test_openings_file_formats(tmp_path):
    from match.openings import load_openings, random_opening
    book = tmp_path / "b.epd"
    book.write_text("# EPD, FEN + moves, startpos\n"
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - bm e5; id \"x\";\n"
                    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 moves e7e5\n"
                    "startpos\n")
    ops = load_openings("chess", str(book))
    assert ops[0] == ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", ())
    assert ops[1][1] == ("e7e5",) and ops[2] == (None, ())
    sfen = tmp_path / "s.txt"
    sfen.write_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2\n")
    assert load_openings("shogi", str(sfen))[0][0].endswith(" b 0 1")
    bad = tmp_path / "bad.txt"
    bad.write_text("startpos\nstartpos moves e2e5\n")
    with pytest.raises(ConfigError, match=r"bad.txt:2: bad opening move"):
        load_openings("chess", str(bad))
    # random openings: seeded, legal, the same for the same seed
    a = random_opening("chess", 6, "s:0")
    assert a == random_opening("chess", 6, "s:0") and len(a) == 6
    assert a != random_opening("chess", 6, "s:1")


def test_san_matches_python_chess_on_random_games():
    import random

    from engine.notation.move_text import move_text
    from match.records import san
    v = variants.get("chess")
    rng = random.Random(5)
    n = 0
    for _ in range(40):
        pos, board = parse_position(v, v.start_fen), chess.Board()
        for _ in range(150):
            legal = legal_moves(pos)
            if not legal:
                break
            m = rng.choice(legal)
            assert san(v, pos, m, legal) == board.san(chess.Move.from_uci(move_text(v, m))), board.fen()
            pos.make(m)
            board.push_uci(move_text(v, m))
            n += 1
    assert n > 3000


def test_progress_bar_and_table():
    from cellfish.match_cli import ProgressBar
    from match.runner import MatchResult, PairScore
    r = MatchResult(["a", "b"], {(0, 1): PairScore(0, 1, w=3, d=2, l=1)}, total=10)
    buf = io.StringIO()
    bar = ProgressBar(buf, width=10)
    bar(6, 10, r)
    bar.end()
    assert buf.getvalue().startswith("\r[######....] 6/10 games +3 =2 -1")
    assert buf.getvalue().endswith("\n")
    row = r.table().splitlines()[2].split()
    assert row[:8] == ["a", "vs", "b", "6", "3", "2", "1", "66.7%"]
    assert row[8] == "+120.4"          # -400 log10(1/0.667 - 1)


def test_bad_config_is_reported():
    with pytest.raises(ConfigError, match="unknown variant"):
        run_match(MatchConfig("no-such-game", [cellfish("a", depth=1), cellfish("b", depth=1)]))
    with pytest.raises(ConfigError, match="no time control"):
        run_match(MatchConfig("chess", [cellfish("a"), cellfish("b")]))
    with pytest.raises(ConfigError, match="names must differ"):
        run_match(MatchConfig("chess", [cellfish("a", depth=1), cellfish("a", depth=1)]))
