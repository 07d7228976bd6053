"""Real clients drive the engine: python-chess (ping, configure, analyse, a game against
sunfish), cshogi's referee (a shogi game between two cellfish processes) and cshogi's
usi.Engine (handshake, go, stop, go mate)."""
from __future__ import annotations

import re
import stat
import sys
from pathlib import Path

import chess
import chess.engine
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench.common import engine_command, engine_env, sunfish_command  # noqa: E402
from bench.match import EnginePlayer, play_game  # noqa: E402


@pytest.fixture
def engine():
    eng = chess.engine.SimpleEngine.popen_uci(engine_command(), cwd=str(ROOT), env=engine_env(),
                                              timeout=60)
    yield eng
    eng.quit()


def test_python_chess_ping_configure_analyse(engine):
    assert engine.id["name"].startswith("cellfish")
    assert "Hash" in engine.options and "UCI_Variant" in engine.options
    engine.ping()
    engine.configure({"Hash": 8, "Move Overhead": 30, "Clear Hash": None})
    engine.ping()
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    info = engine.analyse(board, chess.engine.Limit(depth=4))
    assert "score" in info and info["pv"]
    b = board.copy()
    for m in info["pv"]:
        assert m in b.legal_moves
        b.push(m)
    infos = engine.analyse(board, chess.engine.Limit(depth=3), multipv=3)
    assert len(infos) == 3
    assert len({i["pv"][0] for i in infos}) == 3
    mate = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), chess.engine.Limit(depth=3))
    assert mate["score"].white() == chess.engine.Mate(1)
    res = engine.play(chess.Board(), chess.engine.Limit(time=0.2))
    assert res.move in chess.Board().legal_moves


def test_python_chess_analysis_stop(engine):
    with engine.analysis(chess.Board()) as analysis:
        for info in analysis:
            if info.get("depth", 0) >= 3:
                break
        analysis.stop()
        best = analysis.wait()
    assert best.move in chess.Board().legal_moves


@pytest.mark.slow
def test_game_against_sunfish():
    cmd = sunfish_command()
    if cmd is None:
        pytest.skip("sunfish-uci is not installed")
    me = EnginePlayer("cellfish", engine_command(), env=engine_env(), cwd=str(ROOT))
    opp = EnginePlayer("sunfish", cmd)
    try:
        result, reason, board = play_game(me, opp, 0.1, "", max_plies=120)
    finally:
        me.close()
        opp.close()
    assert "illegal" not in reason
    assert result in ("1-0", "0-1", "1/2-1/2")
    assert board.ply() >= 20 or board.is_game_over()


def _usi_script(tmp_path: Path) -> str:
    """cshogi's Engine starts a single executable: a tiny wrapper around this checkout."""
    script = tmp_path / "cellfish-usi"
    env = engine_env()
    script.write_text(
        "#!/bin/sh\n"
        f"export PYTHONPATH='{env['PYTHONPATH']}'\n"
        f"cd '{ROOT}'\n"
        f"exec '{sys.executable}' -m cellfish \"$@\"\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return str(script)


@pytest.mark.slow
def test_cshogi_referees_a_game(tmp_path, capsys):
    """cshogi's referee (`cshogi.cli.main`) plays one whole shogi game between two cellfish
    processes, and the record it writes is legal move by move.

    Time control: `byoyomi 100` per move and no main time.  Each engine receives `go byoyomi
    100` and answers after about 50 ms, so the game stays short.  Without a main time the
    referee keeps no clock (cshogi only declares a time-up against a main time, 1 s past its
    end), so the game cannot be lost on time however loaded the machine is.  That the engine
    keeps to a clock is a speed property: `cellfish bench latency` and `cellfish match`
    measure it, and tests/test_checklist.py checks how the clocks are read (USI btime is
    sente's)."""
    from cshogi import Board, Parser, cli
    exe = _usi_script(tmp_path)
    csa_dir = tmp_path / "csa"
    csa_dir.mkdir()
    cli.main(exe, exe, options1={"USI_Hash": 8}, options2={"USI_Hash": 8}, games=1,
             byoyomi=100, time=None, draw=50, csa=str(csa_dir), print_summary=True)
    out = capsys.readouterr().out
    files = list(csa_dir.iterdir())
    assert len(files) == 1
    record = files[0].read_text()
    assert "%ILLEGAL" not in record and "%TIME_UP" not in record, record[-300:]
    moves = [l for l in record.splitlines() if l[:1] in "+-" and len(l) >= 7 and l[1:5].isdigit()]
    assert len(moves) >= 10, record
    assert "反則" not in out and "切れ負け" not in out, out
    # the record replays legally from the start, and the game ended by a rule: resignation
    # (or no move), fourfold repetition, or the 50-move limit the referee was given
    game = Parser.parse_str(record)[0]
    assert len(game.moves) == len(moves)
    board = Board()
    for m in game.moves:
        assert board.is_legal(m), (board.sfen(), m)
        board.push(m)
    assert game.endgame in ("%TORYO", "%SENNICHITE", "%JISHOGI"), game.endgame


def test_cshogi_usi_engine(tmp_path):
    from cshogi.usi import Engine
    eng = Engine(_usi_script(tmp_path))
    try:
        assert eng.name.startswith("cellfish")
        eng.setoption("USI_Hash", 8)
        eng.isready()
        eng.usinewgame()
        eng.position(["7g7f", "3c3d"])
        best, ponder = eng.go(byoyomi=300)
        import cshogi
        board = cshogi.Board()
        board.push_usi("7g7f")
        board.push_usi("3c3d")
        assert board.is_legal(board.move_from_usi(best))
        # go ponder waits for stop, even past the byoyomi it was given; stop answers with a
        # legal bestmove.  No wall-clock wait: the engine's own info lines say how long it has
        # searched, and the test waits (30 s at most) for one that reports five times the
        # byoyomi, which a search that was not pondering would never reach.
        import threading
        byoyomi = 100
        lines: list[str] = []
        seen = threading.Event()

        def listen(line: str) -> None:
            lines.append(line)
            m = re.match(r"info .*\btime (\d+)", line)
            if line.startswith("bestmove") or (m and int(m.group(1)) >= 5 * byoyomi):
                seen.set()

        out = {}
        eng.position(["7g7f"])
        t = threading.Thread(target=lambda: out.setdefault(
            "r", eng.go(ponder=True, byoyomi=byoyomi, listener=listen)), daemon=True)
        t.start()
        assert seen.wait(30), lines
        assert not any(l.startswith("bestmove") for l in lines), \
            f"a ponder search must wait for stop: {lines}"
        eng.stop()
        t.join(30)
        assert not t.is_alive(), "no bestmove within 30 s of stop"
        assert lines[-1].startswith("bestmove")
        board = cshogi.Board()
        board.push_usi("7g7f")
        assert board.is_legal(board.move_from_usi(out["r"][0]))
        eng.position(sfen="sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1")
        assert eng.go_mate(byoyomi=3000) == "G*5b"
        eng.gameover("win")
        eng.isready()
    finally:
        eng.quit()
