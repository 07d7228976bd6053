"""Scripted transcripts for the conformance checklist of the wire protocol (and the replies
when there is no legal move), run against the real engine process.

Every wait is for an event (a line, the process's exit) with a generous deadline, and the
asserts are about what happened, never how fast: a loaded 2-core CI machine may be slow.
Latencies are measured by `cellfish bench latency`."""
from __future__ import annotations

import re
import sys
from pathlib import Path

import chess
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.driver import EngineProcess  # noqa: E402

DEADLINE = 30.0     # seconds to wait for an event; never a bound on speed

MATE_IN_1 = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
MATE_IN_2 = "r5k1/5ppp/8/8/8/8/3R1PPP/3R2K1 w - - 0 1"   # Rd8+ Rxd8 Rxd8#
MATED = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
ONE_MOVE = "7k/8/8/8/8/8/6q1/7K w - - 0 1"
MIDDLE = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"
TSUME_1 = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
SHOGI_MATED = "4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1"


@pytest.fixture
def eng():
    e = EngineProcess()
    yield e
    e.close()
    assert e.stderr == [], "stderr must stay silent"


def bestmoves(lines):
    return [l for l in lines if l.startswith("bestmove")]


def texts(pairs):
    return [l for _, l in pairs]


# 1. handshake, isready, isready during a search -------------------------------------
def test_uci_handshake(eng):
    eng.send("uci")
    out = eng.until(lambda l: l == "uciok", DEADLINE)
    lines = texts(out)
    assert lines[0].startswith("id name cellfish")
    assert any(l.startswith("option name UCI_Variant type combo default chess") for l in lines)
    for name in ("Hash", "MultiPV", "Move Overhead", "Ponder", "Clear Hash"):
        assert any(l.startswith(f"option name {name} type") for l in lines), name
    assert all(l.startswith(("id ", "option ")) for l in lines[:-1])   # nothing else first


def test_usi_handshake_uses_usi_names(eng):
    lines = texts(eng.handshake("usi"))
    assert lines[-1] == "usiok"
    assert any(l.startswith("option name USI_Variant type combo default shogi") for l in lines)
    assert any(l.startswith("option name USI_Hash") for l in lines)
    assert not any(l.startswith("option name UCI_") for l in lines)


def test_isready_answers_during_search_which_goes_on(eng):
    eng.handshake()
    eng.ready()
    eng.send("position startpos")
    eng.send("go infinite")
    started = eng.until_prefix("info depth 1", DEADLINE)
    eng.send("isready")
    out = eng.until(lambda l: l == "readyok", DEADLINE)
    assert not bestmoves(texts(started + out))
    more = eng.lines_during(0.5)
    assert not bestmoves(more), "the search must go on after isready"
    eng.send("stop")
    eng.until_prefix("bestmove", DEADLINE)


# 2. infinite / ponder / stop / exactly one bestmove ------------------------------------
@pytest.mark.parametrize("fen", [MATE_IN_1, ONE_MOVE])
def test_infinite_waits_for_stop_even_when_decided(eng, fen):
    eng.handshake()
    eng.send(f"position fen {fen}")
    eng.send("go infinite")
    early = eng.lines_during(1.0)
    assert not bestmoves(early)
    eng.send("stop")
    out = eng.until_prefix("bestmove", DEADLINE)
    assert len(bestmoves(texts(out))) == 1
    eng.ready()
    assert len(bestmoves(l for _, d, l in eng.transcript if d == "<")) == 1


def test_stop_latency_and_single_bestmove(eng):
    eng.handshake()
    eng.send(f"position fen {MIDDLE}")
    eng.send("go infinite")
    eng.until_prefix("info depth 3", DEADLINE)
    eng.send("stop")
    out = eng.until_prefix("bestmove", DEADLINE)
    eng.send("stop")              # a second stop: nothing more
    eng.ready()
    assert len(bestmoves(texts(out))) == 1


def test_ponder_then_ponderhit(eng):
    eng.handshake()
    eng.send("position startpos moves e2e4")
    eng.send("go ponder wtime 2000 btime 2000")
    assert not bestmoves(eng.lines_during(1.0))
    eng.send("ponderhit")
    # after ponderhit the search runs on the clock it was given and ends by itself
    out = eng.until_prefix("bestmove", DEADLINE)
    assert chess.Move.from_uci(out[-1][1].split()[1]) in chess.Board(
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
    eng.ready()
    assert len(bestmoves(l for _, d, l in eng.transcript if d == "<")) == 1


def test_ponder_then_stop(eng):
    eng.handshake()
    eng.send(f"position fen {MATE_IN_1}")
    eng.send("go ponder movetime 100")
    assert not bestmoves(eng.lines_during(0.8))
    eng.send("stop")
    out = eng.until_prefix("bestmove", DEADLINE)
    assert len(bestmoves(texts(out))) == 1


def test_go_after_go_gives_one_bestmove_each(eng):
    eng.handshake()
    eng.send("position startpos")
    for _ in range(3):
        eng.send("go depth 2")
    # each go ends the previous search: three go commands, three bestmoves in total (the
    # last search ends by itself at depth 2); wait for the third, then make sure no fourth
    # follows before the engine answers isready
    def received():
        return bestmoves(l for _, d, l in eng.transcript if d == "<")
    while len(received()) < 3:
        eng.until_prefix("bestmove", DEADLINE)
    eng.ready()
    assert len(received()) == 3, received()


# 3. limits ------------------------------------------------------------------------------
def test_movetime_is_honoured(eng):
    eng.handshake()
    eng.send(f"position fen {MIDDLE}")
    eng.ready()
    eng.send("go movetime 400")
    # the search ends by itself (no stop is sent) with a legal move, after using its time:
    # its last info line reports a search time of at least a quarter of the 400 ms
    out = texts(eng.until_prefix("bestmove", DEADLINE))
    assert chess.Move.from_uci(out[-1].split()[1]) in chess.Board(MIDDLE).legal_moves
    times = [int(re.search(r"\btime (\d+)", l).group(1)) for l in out if l.startswith("info depth")]
    assert times and max(times) >= 100, out[-3:]


def test_clock_is_honoured(eng):
    eng.handshake()
    eng.send(f"position fen {MIDDLE}")
    eng.ready()
    # half a second on a clock far shorter than the deadline: the search ends by itself
    eng.send("go wtime 500 btime 500")
    out = texts(eng.until_prefix("bestmove", DEADLINE))
    assert chess.Move.from_uci(out[-1].split()[1]) in chess.Board(MIDDLE).legal_moves


def test_depth_nodes_searchmoves(eng):
    eng.handshake()
    eng.send("position startpos")
    eng.send("go depth 3")
    out = texts(eng.until_prefix("bestmove", 30))
    depths = [int(re.search(r"\bdepth (\d+)", l).group(1)) for l in out if l.startswith("info depth")]
    assert max(depths) == 3
    eng.send("go nodes 2000")
    out = texts(eng.until_prefix("bestmove", DEADLINE))
    nodes = [int(re.search(r"\bnodes (\d+)", l).group(1)) for l in out if " nodes " in l]
    # no other limit is given, so the bestmove itself shows the node limit ended the search;
    # 2000 nodes reach past depth 1, so info lines are printed, and none reports more
    assert nodes, out
    assert max(nodes) <= 2000 + 200
    eng.send("go depth 3 searchmoves a2a3 h2h4")
    out = texts(eng.until_prefix("bestmove", 30))
    assert out[-1].split()[1] in ("a2a3", "h2h4")


def test_go_mate_finds_mate_in_two(eng):
    eng.handshake()
    eng.send(f"position fen {MATE_IN_2}")
    eng.send("go mate 2")
    out = texts(eng.until_prefix("bestmove", 60))
    assert any(" score mate 2 " in l for l in out), out[-3:]
    board = chess.Board(MATE_IN_2)
    board.push_uci(out[-1].split()[1])
    assert board.is_check()


# 4. info lines ---------------------------------------------------------------------------
def test_info_fields_and_legal_pv(eng):
    eng.handshake()
    eng.send(f"position fen {MIDDLE}")
    eng.send("go depth 4")
    out = texts(eng.until_prefix("bestmove", 60))
    infos = [l for l in out if l.startswith("info depth")]
    assert infos
    for l in infos:
        for f in ("depth", "seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"):
            assert re.search(rf"\b{f}\b", l), (f, l)
        board = chess.Board(MIDDLE)
        for u in l.split(" pv ")[1].split():
            move = chess.Move.from_uci(u)
            assert move in board.legal_moves, (u, l)
            board.push(move)
    parts = out[-1].split()
    board = chess.Board(MIDDLE)
    board.push_uci(parts[1])
    if "ponder" in parts:
        assert chess.Move.from_uci(parts[3]) in board.legal_moves


def test_mate_score_in_moves(eng):
    eng.handshake()
    eng.send(f"position fen {MATE_IN_1}")
    eng.send("go depth 3")
    out = texts(eng.until_prefix("bestmove", 30))
    assert out[-1].split()[1] == "a1a8"
    assert any(" score mate 1 " in l for l in out)


def test_multipv(eng):
    eng.handshake()
    eng.send("setoption name MultiPV value 3")
    eng.send("position startpos")
    eng.send("go depth 3")
    out = texts(eng.until_prefix("bestmove", 60))
    last = [l for l in out if l.startswith("info depth 3 ")]
    ks = sorted(int(re.search(r"multipv (\d+)", l).group(1)) for l in last)
    assert ks == [1, 2, 3]
    firsts = {l.split(" pv ")[1].split()[0] for l in last}
    assert len(firsts) == 3


# no legal move (docs/protocol.md, "No legal move") ----------------------------------
@pytest.mark.parametrize("fen,score", [(MATED, "mate 0"), (STALEMATE, "cp 0")])
def test_no_legal_move_uci(eng, fen, score):
    eng.handshake()
    eng.send(f"position fen {fen}")
    eng.send("go movetime 200")
    out = texts(eng.until_prefix("bestmove", DEADLINE))
    assert out[-1] == "bestmove (none)"
    assert out[-2] == f"info depth 0 score {score}"


# 5. bad input keeps the engine alive ------------------------------------------------------
def test_bad_input_never_crashes(eng):
    eng.handshake()
    for line in ("frobnicate", "setoption name Hash value lots", "setoption name UCI_Variant value nochess",
                 "position fen not/a/fen", "position startpos moves e2e5", "go depth x"):
        eng.send(line)
        out = texts(eng.until_prefix("info string error:", DEADLINE))
        assert len([l for l in out if l.startswith("info string error:")]) == 1
    eng.ready()
    eng.send("go depth 2")
    assert chess.Move.from_uci(texts(eng.until_prefix("bestmove", 30))[-1].split()[1]) \
        in chess.Board().legal_moves


# 6. variant announcement ----------------------------------------------------------------------
def test_variant_announcement_before_readyok(eng):
    eng.handshake()
    eng.send("setoption name UCI_Variant value shogi")
    out = texts(eng.ready())
    ann = [l for l in out if l.startswith("info string variant shogi ")]
    assert ann and "files 9 ranks 9" in ann[0] and "template shogi" in ann[0]
    eng.send("position startpos")
    eng.send("go depth 2")
    assert texts(eng.until_prefix("bestmove", 30))[-1].startswith("bestmove ")


def test_variant_switch_without_isready_plays_it(eng):
    eng.handshake()
    eng.send("setoption name UCI_Variant value shogi")
    eng.send("position startpos")
    eng.send("go depth 1")
    out = texts(eng.until_prefix("bestmove", 30))
    move = out[-1].split()[1]
    assert re.fullmatch(r"[a-i][1-9][a-i][1-9]\+?|[A-Z]@[a-i][1-9]", move), move


# 7. quit / end of input ---------------------------------------------------------------------
def test_quit_mid_search_exits(eng):
    eng.handshake()
    eng.send("position startpos")
    eng.send("go infinite")
    eng.until_prefix("info depth 2", DEADLINE)
    eng.send("quit")
    assert eng.wait_exit(DEADLINE) == 0


def test_end_of_stdin_exits(eng):
    eng.handshake()
    eng.send("position startpos")
    eng.send("go infinite")
    eng.until_prefix("info depth 2", DEADLINE)
    eng.proc.stdin.close()
    assert eng.wait_exit(DEADLINE) == 0


# 8. USI extras ----------------------------------------------------------------------------------
def test_usi_game_commands(eng):
    eng.handshake("usi")
    eng.ready()
    eng.send("usinewgame")
    eng.send("position startpos moves 7g7f")
    eng.send("go btime 0 wtime 0 byoyomi 300")
    out = texts(eng.until_prefix("bestmove", DEADLINE))
    assert re.fullmatch(r"bestmove [1-9][a-i][1-9][a-i]\+?( ponder \S+)?", out[-1]), out[-1]
    for line in ("gameover win", "gameover lose", "gameover draw", "gameover"):
        eng.send(line)
    eng.ready()


def test_usi_clock_of_sente_is_btime(eng):
    """USI gives sente's clock as btime and gote's as wtime.  Each side to move gets 400 ms on
    its own clock and an hour on the other: read the wrong way round the engine would think
    for minutes, so a bestmove inside the 30 s deadline shows it read its own clock."""
    eng.handshake("usi")
    eng.ready()
    eng.send("position startpos")
    eng.send("go btime 400 wtime 3600000")
    assert texts(eng.until_prefix("bestmove", DEADLINE))[-1].startswith("bestmove ")
    eng.send("position startpos moves 7g7f")
    eng.send("go btime 3600000 wtime 400")
    assert texts(eng.until_prefix("bestmove", DEADLINE))[-1].startswith("bestmove ")


def test_usi_go_mate(eng):
    eng.handshake("usi")
    eng.send(f"position sfen {TSUME_1}")
    eng.send("go mate 5000")
    out = texts(eng.until_prefix("checkmate", DEADLINE))
    assert out[-1] == "checkmate G*5b"


def test_usi_mate_score_in_plies_and_resign(eng):
    eng.handshake("usi")
    eng.send(f"position sfen {TSUME_1}")
    eng.send("go depth 3")
    out = texts(eng.until_prefix("bestmove", 30))
    assert out[-1].split()[1] == "G*5b"
    assert any(" score mate 1 " in l for l in out)
    eng.send(f"position sfen {SHOGI_MATED}")
    eng.send("go byoyomi 200")
    assert texts(eng.until_prefix("bestmove", DEADLINE))[-1] == "bestmove resign"


# 9. option lines ------------------------------------------------------------------------------
def test_option_lines_short_and_all_variants_in_the_combo(eng):
    import variants
    lines = texts(eng.handshake())
    opts = [l for l in lines if l.startswith("option ")]
    for l in opts:
        if "UCI_Variant" not in l:
            assert len(l.encode()) < 300, l
    combo = next(l for l in opts if "UCI_Variant" in l)
    for name in variants.builtin_names():
        assert f" var {name}" in combo


@pytest.mark.parametrize("variant", ["chess", "knavish-returns", "notake-withdraw"])
def test_bestmove_and_ponder_match_the_last_pv(eng, variant):
    """A search stopped by its clock in the middle of a depth reports the move and ponder move
    of the last pv it printed (or prints the new line first)."""
    import random
    import variants
    from engine.movegen import legal_moves
    from engine.notation.move_text import move_text
    from engine.notation.position_text import parse
    dialect = "usi" if variant.startswith("notake") else "uci"
    eng.handshake(dialect)
    eng.send(f"setoption name {dialect.upper()}_Variant value {variant}")
    eng.ready()
    v = variants.get(variant)
    rng = random.Random(11)
    checked = 0
    for _ in range(12):
        pos, texts = parse(v, v.start_fen), []
        for _ in range(rng.randrange(4, 40)):
            legal = legal_moves(pos)
            if not legal:
                break
            m = rng.choice(legal)
            texts.append(move_text(v, m, dialect))
            pos.make(m)
        if not legal_moves(pos):
            continue
        eng.send("position startpos moves " + " ".join(texts))
        eng.send(f"go movetime {rng.choice([30, 60, 90, 120])}")
        out = [l for _, l in eng.until_prefix("bestmove", DEADLINE)]
        pvs = [l.split(" pv ")[1].split() for l in out if " pv " in l]
        best = out[-1].split()
        if not pvs:      # stopped before its first root move was searched: nothing to contradict
            continue
        checked += 1
        assert best[1] == pvs[-1][0], out[-3:]
        if "ponder" in best and len(pvs[-1]) > 1:
            assert best[3] == pvs[-1][1], out[-3:]
    assert checked >= 6
