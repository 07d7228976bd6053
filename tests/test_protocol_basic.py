"""Protocol transcripts (send/expect) against the installed `cellfish` command: handshake,
options, variant switch, position and moves, perft format, d, help, quit, and every
bad-input case of docs/protocol.md, "Bad input"."""
import re

import pytest

import variants
from engine_proc import EngineProcess


@pytest.fixture
def eng():
    e = EngineProcess()
    yield e
    e.close()


def fen_of(eng):
    lines = eng.ask("d", "Game state:")
    return next(l[5:] for l in lines if l.startswith("Fen: "))


ERROR_LINE = re.compile(r"info string error: .*\S.* \(.*\S.*\)$")   # <what> (<the token>)


def assert_refused(eng, line, token):
    """docs/protocol.md, "Bad input": `line` is answered by exactly one `info string error: <what>
    (<token>)` line naming `token`, the position (the `Fen:` of `d`) is the one before, and
    the engine still answers isready.  Returns the lines read up to readyok."""
    before = fen_of(eng)
    eng.send(line)
    eng.send("isready")
    lines = eng.expect("readyok")
    errors = [l for l in lines if l.startswith("info string error:")]
    assert len(errors) == 1, lines
    assert ERROR_LINE.match(errors[0]), errors[0]
    assert token in errors[0], (token, errors[0])
    assert lines[-1] == "readyok"
    assert fen_of(eng) == before
    return lines


def test_uci_handshake_lists_every_variant(eng):
    lines = eng.ask("uci", "uciok")
    assert lines[0].startswith("id name cellfish ")
    assert lines[1].startswith("id author ")
    combo = next(l for l in lines if l.startswith("option name UCI_Variant "))
    assert combo.split(" var ")[1:] == variants.builtin_names()
    names = {re.match(r"option name (.*?) type", l).group(1) for l in lines if l.startswith("option")}
    assert {"UCI_Variant", "Hash", "MultiPV", "Move Overhead", "Ponder", "Clear Hash", "VariantPath"} <= names
    assert all(len(l.encode()) < 300 for l in lines if not l.startswith("option name UCI_Variant"))
    assert lines[-1] == "uciok"


def test_usi_handshake_uses_usi_names_and_shogi(eng):
    lines = eng.ask("usi", "usiok")
    names = {re.match(r"option name (\S+) type", l).group(1) for l in lines if l.startswith("option")}
    assert {"USI_Variant", "USI_Hash", "USI_MultiPV", "Move_Overhead", "USI_Ponder"} <= names
    combo = next(l for l in lines if l.startswith("option name USI_Variant "))
    assert " default shogi " in combo
    eng.ask("isready", "readyok")
    assert fen_of(eng) == "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def test_usi_moves_and_sfen(eng):
    eng.ask("usi", "usiok")
    eng.send("position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*4e")
    # the same SFEN as cshogi gives after these moves (drop, capture to hand, promotion)
    assert fen_of(eng) == "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6"
    lines = eng.ask("go perft 1", "Nodes searched:")
    assert any(l.startswith("B*") for l in lines)


def test_variant_switch_announces_and_plays_at_once(eng):
    eng.ask("uci", "uciok")
    eng.send("setoption name UCI_Variant value shogi")
    eng.send("position startpos moves c3c4")
    lines = eng.ask("go perft 1", "Nodes searched:")
    ann = next(l for l in lines if l.startswith("info string variant "))
    assert ann == ("info string variant shogi files 9 ranks 9 pocket 7 template shogi startpos "
                   "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1")
    assert lines[-1] == "Nodes searched: 30"


def test_perft_format_and_divide(eng):
    eng.ask("uci", "uciok")
    eng.send("position startpos")
    lines = eng.ask("go perft 3", "Nodes searched:")
    rows = [l for l in lines if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbn]?: \d+", l)]
    assert len(rows) == 20
    assert sum(int(r.split(": ")[1]) for r in rows) == 8902
    i = lines.index("Nodes searched: 8902")
    assert lines[i - 1] == ""
    eng.send("position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    lines = eng.ask("perft 2", "Nodes searched:")
    assert "e1g1: 43" in lines and "e1c1: 43" in lines
    assert lines[-1] == "Nodes searched: 2039"


def test_position_moves_and_d(eng):
    eng.ask("uci", "uciok")
    eng.send("position startpos moves e2e4 e7e5 g1f3")
    lines = eng.ask("d", "Game state:")
    assert "Fen: rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2" in lines
    assert any(l.startswith("Side to move: black") for l in lines)
    assert lines[-1] == "Game state: in progress"
    eng.send("position startpos moves f2f3 e7e5 g2g4 d8h4")
    assert eng.ask("d", "Game state:")[-1] == "Game state: black wins (checkmate)"


def test_help_and_quit(eng):
    lines = eng.ask("help", lambda l: "quit" in l)
    assert lines[0].startswith("cellfish commands")
    eng.send("quit")
    assert eng.proc.wait(timeout=30) == 0


def test_end_of_input_exits():
    e = EngineProcess()
    e.proc.stdin.close()
    assert e.proc.wait(timeout=30) == 0


BAD = [
    ("unknown command", "flibber 3", "unknown command (flibber)"),
    ("option out of range", "setoption name Hash value 0", "(0)"),
    ("option not a number", "setoption name MultiPV value many", "(many)"),
    ("unknown option", "setoption name Colour value red", "(Colour)"),
    ("unknown variant", "setoption name UCI_Variant value chesss", "(chesss)"),
    ("malformed fen", "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "expected 8 rows"),
    ("bad piece letter", "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "(X)"),
    ("row too long", "position fen rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "row too long"),
    ("bad side", "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "(x)"),
    ("illegal move", "position startpos moves e2e4 e7e5 e1e3", "(e1e3)"),
    ("unparsable move", "position startpos moves e2e4 zz9", "(zz9)"),
    ("missing position kind", "position", "position needs startpos, fen or sfen (position)"),
    ("bad perft depth", "go perft x", "(x)"),
    ("bad go parameter", "go depth deep", "(deep)"),
    ("go parameter without value", "go depth", "(depth)"),
    ("perft without depth", "perft", "(perft)"),
    ("setoption without name", "setoption", "(setoption)"),
    ("fen without text", "position fen", "(fen)"),
    # impossible chess positions (python-chess Board.status() refuses them too)
    ("no black king", "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1", "(black kings: 0)"),
    ("no kings at all", "position fen 8/8/8/8/8/8/8/8 w - - 0 1", "(white kings: 0)"),
    ("two white kings", "position fen 4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "(white kings: 2)"),
    ("pawn on rank 8", "position fen 4k2P/8/8/8/8/8/8/4K3 w - - 0 1", "(h8)"),
    ("pawn on rank 1", "position fen 4k3/8/8/8/8/8/8/p3K3 b - - 0 1", "(a1)"),
    ("side not to move in check", "position fen 4k3/8/8/8/8/8/8/4R1K1 w - - 0 1",
     "(black king on e8)"),
    ("white in check, black to move", "position fen 4k3/8/8/8/8/8/8/r3K3 b - - 0 1",
     "(white king on e1)"),
    ("bad castling letter", "position fen 4k3/8/8/8/8/8/8/4K3 w KQkx - 0 1", "(KQkx)"),
    ("bad en-passant cell", "position fen 4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "(e9)"),
    ("impossible position then moves", "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1 moves e1e2",
     "(black kings: 0)"),
]


@pytest.mark.parametrize("what,line,token", BAD, ids=[b[0] for b in BAD])
def test_bad_input_one_error_line_state_kept(eng, what, line, token):
    eng.ask("uci", "uciok")
    eng.send("position startpos moves e2e4 c7c5")
    assert_refused(eng, line, token)
    # the engine still plays the variant it had
    assert eng.ask("go perft 1", "Nodes searched:")[-1] == "Nodes searched: 30"
    assert not eng.err


def test_impossible_position_is_not_searched(eng):
    """The audited defect: a FEN without a black king was taken and searched (bestmove e1e2)."""
    eng.ask("uci", "uciok")
    eng.send("position startpos moves e2e4 c7c5")
    assert_refused(eng, "position fen 8/8/8/8/8/8/8/4K3 w - - 0 1", "(black kings: 0)")
    best = eng.ask("go depth 2", "bestmove")[-1].split()[1]
    assert best != "e1e2" and best[:2] in {f"{f}{r}" for f in "abcdefgh" for r in "12"}
    assert not eng.err


TOLERATED = [
    # castling rights without their king and rook are dropped (python-chess clean_castling_rights)
    ("4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("r3k3/8/8/8/8/8/8/4K2R w KQkq - 0 1", "r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"),
    ("4k3/8/8/8/8/8/8/R4K1R w KQ - 0 1", "4k3/8/8/8/8/8/8/R4K1R w - - 0 1"),
    # Shredder-FEN / X-FEN rook files
    ("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
    # an en-passant cell no double step can have made is dropped ...
    ("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ("4k3/8/8/4p3/8/8/8/4K3 b - e6 0 1", "4k3/8/8/4p3/8/8/8/4K3 b - - 0 1"),
    ("4k3/4p3/8/4p3/8/8/8/4K3 w - e6 0 1", "4k3/4p3/8/4p3/8/8/8/4K3 w - - 0 1"),
    # ... one that a double step can have made is kept, capturable or not (as `d` writes it)
    ("4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1", "4k3/8/8/4p3/8/8/8/4K3 w - e6 0 1"),
    ("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1"),
    ("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1", "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
]


@pytest.mark.parametrize("fen,shown", TOLERATED, ids=[t[0] for t in TOLERATED])
def test_impossible_rights_are_cleaned_silently(eng, fen, shown):
    eng.ask("uci", "uciok")
    eng.send(f"position fen {fen}")
    lines = eng.ask("isready", "readyok")
    assert not [l for l in lines if l.startswith("info string error")], lines
    assert fen_of(eng) == shown


def test_en_passant_capture_after_kept_cell(eng):
    eng.ask("uci", "uciok")
    eng.send("position fen 4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1 moves d5e6")
    assert fen_of(eng) == "4k3/8/4P3/8/8/8/8/4K3 b - - 0 1"
