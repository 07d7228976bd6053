"""Fairy-Stockfish's built-in board games and Chess960 games, shipped in
variants/files/fairy-games.ini, proven equal to Fairy-Stockfish (pyffish) under their own
names: the same start text, perft 1-3 from the start (depth 2 where depth 3 exceeds about a
million nodes), and random games of 60 plies, steered to captures and special moves, with the
same legal move texts, the same position text and the same result at every ply; then each
plays through the protocol under its name."""
from __future__ import annotations

import random

import chess
import pyffish
import pytest
from engine_proc import EngineProcess
from fsf_oracle import fsf_perft, fsf_result
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.moves import CASTLE, CELL, FROM_SHIFT, FROM_TO, SPECIAL, is_drop
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position

# name -> the depth of the start perft compared (3 unless depth 3 exceeds ~1M nodes)
GAMES = {"breakthrough": 3, "clobber": 3, "clobber10": 2, "fischerandom": 3, "caparandom": 3,
         "seirawan": 3, "shouse": 2, "isolation": 2, "isolation7x7": 2, "snailtrail": 3,
         "amazons": 1, "placement": 3, "flipersi": 3, "flipello": 3, "flipello10": 3}


def test_every_section_of_the_file_is_tested_here_and_is_a_fairy_stockfish_built_in():
    from variants.inifile.parse import parse_text
    path = variants.SHIPPED_DIR + "/fairy-games.ini"
    with open(path, encoding="utf-8") as f:
        names = {s.name for s in parse_text(f.read(), path)[0]}
    assert names == set(GAMES)
    assert names <= set(pyffish.variants())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_start_text_and_perft_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    # the text a position is written in: Fairy-Stockfish's full form (get_fen)
    assert format_position(pos) == pyffish.get_fen(name, fen, [])
    for depth in range(1, GAMES[name] + 1):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


def play_random_games(name: str, games: int = 4, plies: int = 60, fen: str | None = None,
                      special=lambda pos, m: False, on_play=lambda pos, m: None) -> set[str]:
    """Random games against pyffish: at every ply the same legal move texts, position text and
    result; captures and the moves ``special`` names are preferred (``on_play`` sees each move
    played).  Returns the game ends."""
    v = variants.get(name)
    fen = fen or pyffish.start_fen(name)
    rng = random.Random(name)
    ends: set[str] = set()
    for _ in range(games):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for _ply in range(plies):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs = set(pyffish.legal_moves(name, fen, moves))
            assert set(ours) == theirs, (name, moves, set(ours) ^ theirs)
            assert format_position(pos) == pyffish.get_fen(name, fen, moves), (name, moves)
            r = game_result(pos, list(ours.values()))
            expected = fsf_result(name, fen, moves, sorted(theirs))
            assert (r[0] if r else None) == expected, (name, moves, r, expected)
            if r is not None:
                ends.add(r[1])
                break
            pick = [t for t, m in ours.items() if special(pos, m)]
            if not pick and rng.random() < 0.5:
                pick = [t for t, m in ours.items() if pos.board[m & CELL]]
            t = rng.choice(sorted(pick or ours))
            on_play(pos, ours[t])
            pos.make(ours[t])
            moves.append(t)
    return ends


@pytest.mark.parametrize("name", ["breakthrough", "clobber", "clobber10"])
def test_random_games_have_fairy_stockfishs_moves_text_and_results(name):
    # every Clobber move takes a piece: a game of 100 pieces lasts fewer than 100 plies
    ends = play_random_games(name, games=6, plies=100 if name == "clobber10" else 60)
    # each game's own ending appears: reaching the far rank (Breakthrough), no move left (Clobber)
    assert ends >= ({"flag"} if name == "breakthrough" else {"stalemate"}), ends


def test_a_breakthrough_piece_on_the_far_rank_wins_and_moves_forward_only():
    v = variants.get("breakthrough")
    # White's piece on a8 has arrived: Black, to move, has lost
    pos = parse_position(v, "P7/8/8/8/8/8/8/7p b 0 1")
    assert game_result(pos, legal_moves(pos))[0] == -1
    # a piece takes diagonally forward, never straight ahead, and never moves back
    pos = parse_position(v, "8/8/8/8/8/pp6/P7/8 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["a2b3"]
    pos = parse_position(v, "8/8/8/8/8/p7/1P6/8 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["b2a3", "b2b3", "b2c3"]


def test_a_clobber_piece_only_moves_by_taking_an_orthogonal_neighbour():
    v = variants.get("clobber")
    pos = parse_position(v, "5/5/5/1p3/pP3/5 w 0 1")
    assert sorted(move_text(v, m) for m in legal_moves(pos)) == ["b2a2", "b2b3"]


@pytest.fixture(scope="module")
def engine():
    eng = EngineProcess()
    lines = eng.ask("uci", "uciok")
    combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
    assert all(f" var {n} " in combo + " " for n in GAMES), combo
    yield eng
    eng.close()


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n == "amazons" else n
                                  for n in sorted(GAMES)])
def test_each_game_plays_to_its_end_through_the_protocol_under_its_name(name, engine):
    game = play_game(name, "uci", engine=engine, ply_cap=600)
    assert game.result is not None


# ---- Chess960 -----------------------------------------------------------------------------

def chess960_starts(n: int, seed: int) -> list[str]:
    """n Chess960 start positions (python-chess numbers all 960)."""
    rng = random.Random(seed)
    return [chess.Board.from_chess960_pos(rng.randrange(960)).fen() for _ in range(n)]


def caparandom_starts(n: int, seed: int) -> list[str]:
    """n Capablanca random start positions: bishops on squares of both colours, the king
    between the rooks."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        row = list("rnbqkbnrac")
        rng.shuffle(row)
        bishops = [i for i, x in enumerate(row) if x == "b"]
        rooks = [i for i, x in enumerate(row) if x == "r"]
        if bishops[0] % 2 != bishops[1] % 2 and rooks[0] < row.index("k") < rooks[1]:
            r = "".join(row)
            out.append(f"{r}/pppppppppp/10/10/10/10/PPPPPPPPPP/{r.upper()} w KQkq - 0 1")
    return out


def castles(pos, m: int) -> bool:
    return bool(m & CASTLE)


@pytest.mark.parametrize("name,starts", [("fischerandom", chess960_starts(12, 960)),
                                         ("caparandom", caparandom_starts(12, 1)),
                                         ("fischerandom", ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"])])
def test_chess960_games_from_shuffled_starts_equal_fairy_stockfish(name, starts):
    """From shuffled start positions, games steered to castle: the same legal moves (castling
    written as the king taking its rook), Shredder-FEN text and results as Fairy-Stockfish;
    perft 2 from each start."""
    v = variants.get(name)
    for fen in starts:
        assert perft(parse_position(v, fen), 2) == fsf_perft(name, fen, [], 2), fen
        play_random_games(name, games=1, plies=60, fen=fen, special=castles)


def test_chess960_games_have_python_chess_moves():
    """python-chess's Chess960 board (an independent implementation) agrees on the legal
    moves, castling included, along random games steered to castle, from shuffled starts."""
    v = variants.get("fischerandom")
    rng = random.Random(7)
    seen_castling = 0
    for fen in chess960_starts(20, 8):
        board = chess.Board(fen, chess960=True)
        pos = parse_position(v, fen)
        for _ in range(50):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs = {board.uci(m, chess960=True) for m in board.legal_moves}
            assert set(ours) == theirs, (fen, board.move_stack, set(ours) ^ theirs)
            assert format_position(pos).split()[2] == board.shredder_fen().split()[2] \
                or sorted(format_position(pos).split()[2]) == sorted(board.shredder_fen().split()[2])
            if not ours:
                break
            cs = [t for t, m in ours.items() if m & CASTLE]
            t = rng.choice(sorted(cs)) if cs and rng.random() < 0.7 else rng.choice(sorted(ours))
            seen_castling += bool(ours[t] & CASTLE)
            pos.make(ours[t])
            board.push_uci(t)
    assert seen_castling >= 10


def moves_of(v, fen: str) -> set[str]:
    return {move_text(v, m) for m in legal_moves(parse_position(v, fen))}


def test_chess960_castling_rules_in_named_positions():
    v = variants.get("fischerandom")
    # the king on b1, its rook on a1: queenside castling takes the king to c1, the rook to d1
    pos = parse_position(v, "3k3r/8/8/8/8/8/8/RK6 w A - 0 1")
    m = next(m for m in legal_moves(pos) if m & CASTLE)
    assert move_text(v, m) == "b1a1"
    pos.make(m)
    assert format_position(pos) == "3k3r/8/8/8/8/8/8/2KR4 b - - 1 1"
    pos.unmake()
    assert format_position(pos) == "3k3r/8/8/8/8/8/8/RK6 w A - 0 1"
    # the king already on g1: castling moves only the rook (f1 must be empty)
    assert "g1h1" in moves_of(v, "4k3/8/8/8/8/8/8/6KR w H - 0 1")
    assert "g1h1" not in moves_of(v, "4k3/8/8/8/8/8/8/5NKR w H - 0 1")
    # king and rook swap cells: f1 king, g1 rook
    pos = parse_position(v, "4k3/8/8/8/8/8/8/5KR1 w G - 0 1")
    m = next(m for m in legal_moves(pos) if m & CASTLE)
    pos.make(m)
    assert format_position(pos) == "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"
    pos.unmake()
    assert format_position(pos) == "4k3/8/8/8/8/8/8/5KR1 w G - 0 1"
    # the king may not pass an attacked cell (d1, from the rook on d8)...
    assert "e1a1" not in moves_of(v, "3rk3/8/8/8/8/8/8/R3K3 w A - 0 1")
    # ...nor land in check once its rook has left the b-file it shielded c1 from (a1's rook)
    assert "d1b1" not in moves_of(v, "4k3/8/8/8/8/8/8/rR1K4 w B - 0 1")
    assert "d1b1" in moves_of(v, "4k3/8/8/8/8/8/8/1R1K4 w B - 0 1")


def test_chess960_rights_text_reads_x_fen_and_shredder_fen():
    v = variants.get("fischerandom")
    start = "rqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/RQNBRKRN w {} - 0 1"
    for text, written in (("KQkq", "GAga"), ("GAga", "GAga"), ("EGeg", "GEge"), ("Gg", "Gg"),
                          ("-", "-")):
        pos = parse_position(v, start.format(text))
        assert format_position(pos).split()[2] == written, text
        assert written == pyffish.get_fen("fischerandom", start.format(text), []).split()[2]
    # a right whose rook is not there is dropped, as Fairy-Stockfish drops it
    fen = "4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"
    assert format_position(parse_position(v, fen)).split()[2] == "-"


def test_uci_chess960_option_plays_chess960_castling_in_chess_and_back(engine):
    """``UCI_Chess960`` (the standard UCI option): chess from a shuffled start castles as
    Fairy-Stockfish with the option on (the king takes its rook, Shredder-FEN rights); off
    again, chess castles as before (``e1g1``, ``KQkq``)."""
    def ask(fen: str, moves: str) -> tuple[set[str], str]:
        engine.send(f"position fen {fen}" + (f" moves {moves}" if moves else ""))
        lines = engine.ask("go perft 1", "Nodes searched")
        engine.send("d")
        text = next(ln for ln in engine.expect("Game state:") if ln.startswith("Fen: "))
        return {ln.split(":")[0] for ln in lines if ln[:1].islower() and ln.endswith(": 1")}, text[5:]
    engine.send("setoption name UCI_Variant value chess")
    engine.send("setoption name UCI_Chess960 value true")
    fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1"
    played = "g2g3 g7g6 f2f3 f7f6 e2e3 e7e6"
    moves, text = ask(fen, played)
    theirs = pyffish.legal_moves("chess", fen, played.split(), True)
    assert moves == set(theirs) and "f1g1" in moves
    assert text == pyffish.get_fen("chess", fen, played.split(), True)
    moves, text = ask("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1", "")
    assert "e1h1" in moves and "e1g1" not in moves and " HAha " in text
    engine.send("setoption name UCI_Chess960 value false")
    moves, text = ask("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQkq - 0 1", "")
    assert "e1g1" in moves and "e1h1" not in moves and " KQkq " in text


# ---- gating -------------------------------------------------------------------------------

def gates(pos, m: int) -> bool:
    return bool(m & (SPECIAL | CASTLE))


@pytest.mark.parametrize("name", ["seirawan", "shouse"])
def test_gating_games_equal_fairy_stockfish(name):
    """Random games steered to gate pieces in (and castle, with and without a gated piece on
    the king's or the rook's cell) and, in S-house, to drop: the same moves, position text
    (the gates in the castling field, the hand in brackets) and results; every kind of gating
    appeared."""
    v = variants.get(name)
    played: set[str] = set()

    def kind(pos, m: int) -> str:
        return "castle gate on the rook" if m & CASTLE and m & SPECIAL and \
            pos.board[(m >> FROM_SHIFT) & CELL] >> 1 != v.by_token["K"].id else \
            "castle gate" if m & CASTLE and m & SPECIAL else \
            "castle" if m & CASTLE else "gate" if m & SPECIAL else \
            "drop" if is_drop(m) else ""

    def steer(pos, m: int) -> bool:     # a kind not played yet, else now and then a gating
        k = kind(pos, m)
        return bool(k) and k not in played or k == "gate" and (m & FROM_TO) % 3 == 0
    play_random_games(name, games=6, plies=60, special=steer,
                      on_play=lambda pos, m: played.add(kind(pos, m)))
    # and from a position where both sides may castle at once, each kind of castling
    ready = "r3k2r/pppppppp/2n2n2/8/8/2N2N2/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1"
    for _ in range(3):
        play_random_games(name, games=1, plies=30, fen=ready, special=steer,
                          on_play=lambda pos, m: played.add(kind(pos, m)))
    kinds = {"castle gate on the rook", "castle gate", "castle", "gate"} | \
        ({"drop"} if name == "shouse" else set())
    assert kinds <= played, kinds - played


def test_seirawan_gating_in_named_positions():
    v = variants.get("seirawan")
    fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1"
    moves = moves_of(v, fen)
    # castling brings the piece onto the king's cell or the rook's
    assert {"e1g1", "e1g1h", "e1g1e", "h1e1h", "h1e1e", "e1c1h", "a1e1e"} <= moves
    assert moves == set(pyffish.legal_moves("seirawan", fen, []))
    pos = parse_position(v, fen)
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "h1e1h"))
    assert format_position(pos) == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKH[Eeh] b Akq - 1 1"
    assert format_position(pos) == pyffish.get_fen("seirawan", fen, ["h1e1h"])
    # a gate closes when its piece leaves without gating; the hand's last piece closes them all
    start = pyffish.start_fen("seirawan")
    for played, rights in ((["e2e3", "e7e6", "b1c3e", "b8c6h", "f1d3"], "KQCDGkqcdfg"),
                           (["e2e3", "e7e6", "b1c3e", "b8c6h", "f1d3h"], "KQkqcdfg")):
        pos = parse_position(v, start)
        for t in played:
            pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
        assert format_position(pos) == pyffish.get_fen("seirawan", start, played)
        assert format_position(pos).split()[2] == rights


# ---- walls ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name,games", [("isolation", 4), ("isolation7x7", 4), ("snailtrail", 6),
                                        ("amazons", 2)])
def test_wall_games_equal_fairy_stockfish(name, games):
    """Every move puts a wall (``*``): the same moves (``c1b1,b1a1``), position text and
    results as Fairy-Stockfish along random games, which end when a side cannot move."""
    ends = play_random_games(name, games=games, plies=100)
    assert "stalemate" in ends or name == "amazons", ends


@pytest.mark.slow
def test_amazons_perft_2_equals_fairy_stockfish():
    v = variants.get("amazons")
    fen = pyffish.start_fen("amazons")
    assert perft(parse_position(v, fen), 2) == fsf_perft("amazons", fen, [], 2) == 4307152


def test_walls_in_named_positions():
    # Snailtrail: the wall is where the piece came from, so it can never step back
    v = variants.get("snailtrail")
    pos = parse_position(v, "6p/7/7/7/7/7/P6 w - - 0 1")
    assert moves_of(v, "6p/7/7/7/7/7/P6 w - - 0 1") == {"a1b1,b1a1", "a1a2,a2a1", "a1b2,b2a1"}
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "a1b2,b2a1"))
    assert format_position(pos) == "6p/7/7/7/7/1P5/*6 b - - 1 1"
    # Isolation: the two start squares never take a wall; a boxed-in piece has lost
    v = variants.get("isolation")
    moves = moves_of(v, "3p2/6/6/6/6/6/6/2P3 w - - 0 1")
    assert not any(t.endswith(("c1", "d8")) for t in moves) and "c1b1,b1a1" in moves
    boxed = "3p2/6/6/6/6/6/******/1*P*2 w - - 0 1"
    pos = parse_position(v, boxed)
    assert legal_moves(pos) == [] and game_result(pos, [])[0] == -1
    assert fsf_result("isolation", boxed, [], []) == -1
    # Amazons: the arrow flies like a queen from where the queen landed, over the cell it left
    v = variants.get("amazons")
    fen = "9q/10/10/10/10/10/10/10/**********/Q********* w - - 0 1"
    assert moves_of(v, fen) == set(pyffish.legal_moves("amazons", fen, [])) == set()
    fen = "9q/10/10/10/10/10/10/**********/1*********/Q1******** w - - 0 1"
    assert moves_of(v, fen) == set(pyffish.legal_moves("amazons", fen, [])) == {
        "a1b1,b1a1", "a1a2,a2a1", "a1a2,a2b1", "a1b1,b1a2"}


# ---- placement ---------------------------------------------------------------------------

def test_placement_games_equal_fairy_stockfish():
    """The setup by drops, then chess: random games steered to drop kings and rooks on their
    castling cells (the rights appear) and then to castle, with Fairy-Stockfish's moves, text
    and results; some castling appeared."""
    castled = []

    def steer(pos, m: int) -> bool:
        v = pos.variant
        if is_drop(m):
            t = move_text(v, m)
            return t[0].upper() in "KR" and t[2:] in ("e1", "a1", "h1", "e8", "a8", "h8")
        return bool(m & CASTLE)
    play_random_games("placement", games=8, plies=60, special=steer,
                      on_play=lambda pos, m: castled.append(m) if m & CASTLE else None)
    assert castled


def test_placement_setup_rules_in_named_positions():
    v = variants.get("placement")
    start = pyffish.start_fen("placement")
    # drops only, on the first rank, while pieces are in hand
    assert all("@" in t and t.endswith("1") for t in moves_of(v, start))
    # a second bishop goes to the other colour
    pos = parse_position(v, start)
    for t in ("B@c1", "B@c8"):
        pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
    assert sorted(t for t in {move_text(v, m) for m in legal_moves(pos)} if t[0] == "B") == \
        ["B@b1", "B@d1", "B@f1", "B@h1"]
    # no other piece may take the last squares the bishops in hand need
    for fen in ("8/pppppppp/8/8/8/8/PPPPPPPP/RNKQRN2[BBkqrrbbnn] w - - 0 1",
                "8/pppppppp/8/8/8/8/PPPPPPPP/RNBQR1K1[Bkqrrbbnn] w - - 0 1"):
        assert moves_of(v, fen) == set(pyffish.legal_moves("placement", fen, []))
    assert moves_of(v, "8/pppppppp/8/8/8/8/PPPPPPPP/RNKQRN2[BBkqrrbbnn] w - - 0 1") == {"B@h1", "B@g1"}
    # the dropped rook's castling right, with the king already on e1 (not the other rook's)
    fen = "8/pppppppp/8/8/8/8/PPPPPPPP/R3K3[QRBBNNkqrrbbnn] w - - 0 1"
    pos = parse_position(v, fen)
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "R@h1"))
    assert format_position(pos) == pyffish.get_fen("placement", fen, ["R@h1"])
    assert format_position(pos).split()[2] == "K"


# ---- Reversi -----------------------------------------------------------------------------

@pytest.mark.parametrize("name,plies", [("flipersi", 70), ("flipello", 70), ("flipello10", 100)])
def test_reversi_games_equal_fairy_stockfish(name, plies):
    """Random games to their end (a full board, a side without a move, two passes): the same
    drops (each enclosing), flips, passes, text and results as Fairy-Stockfish."""
    ends = play_random_games(name, games=3, plies=plies)
    assert ends <= {"piece count", "stalemate"} and ends, ends


def test_reversi_rules_in_named_positions():
    v = variants.get("flipello")
    hand = "[" + "P" * 30 + "p" * 30 + "]"
    # a drop must enclose: its flips
    fen = "8/8/8/3pP3/3Pp3/8/8/8[Pp] w - - 0 1"
    assert moves_of(v, fen) == {"P@e3", "P@f4", "P@c5", "P@d6"}
    pos = parse_position(v, fen)
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "P@e3"))
    assert format_position(pos) == pyffish.get_fen("flipello", fen, ["P@e3"]) \
        == "8/8/8/3pP3/3PP3/4P3/8/8[p] b - - 0 1"
    # no drop encloses: a pass on the first cell of one's own (a1), then White's (d4); then over
    fen = "8/8/8/3PP3/3PP3/8/8/p7" + hand + " b - - 0 1"
    pos = parse_position(v, fen)
    assert [move_text(v, m) for m in legal_moves(pos)] == ["a1a1"]
    pos.make(legal_moves(pos)[0])
    assert [move_text(v, m) for m in legal_moves(pos)] == ["d4d4"]
    assert format_position(pos) == pyffish.get_fen("flipello", fen, ["a1a1"])
    pos.make(legal_moves(pos)[0])
    assert legal_moves(pos) == [] and game_result(pos, [])[0] == -1
    assert fsf_result("flipello", fen, ["a1a1", "d4d4"], []) == -1
    # Flipersi does not pass: a side without a drop is stalemated, judged by the count at once
    v = variants.get("flipersi")
    pos = parse_position(v, fen)
    assert legal_moves(pos) == [] and game_result(pos, []) == (-1, "stalemate")
    # its first four pieces go on the centre, enclosing nothing
    assert moves_of(v, pyffish.start_fen("flipersi")) == {"P@d4", "P@e4", "P@d5", "P@e5"}
