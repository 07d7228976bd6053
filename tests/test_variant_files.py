"""Variants from a file in Fairy-Stockfish's variants.ini format (variants/inifile,
docs/variant-files.md), proven against Fairy-Stockfish itself (pyffish): every section of
tests/data/fsf_variants.ini writes one of its built-in variants, and must have the same start
position, the same perft to depth 3 from it, and the same legal moves and perft 2 along
random games; then each plays a complete game through the protocol."""
from __future__ import annotations

import random
from pathlib import Path

import pyffish
import pytest
from engine_proc import EngineProcess
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position

DATA = Path(__file__).resolve().parent / "data" / "fsf_variants.ini"
NAMES = variants.load_file(str(DATA))

# the keys each section exercises (besides its pieces): the test below checks the file says so
KEYS = {
    "amazon": {"startFen", "promotionPieceTypes"},
    "almost": {"startFen", "promotionPieceTypes"},
    "nightrider": {"customPiece1", "promotionPieceTypes"},
    "chigorin": {"startFen", "promotionPieceTypesWhite", "promotionPieceTypesBlack"},
    "knightmate": {"king", "startFen", "promotionPieceTypes"},
    "losalamos": {"maxRank", "maxFile", "promotionRegionWhite", "doubleStep", "castling"},
    "gardner": {"maxRank", "maxFile", "promotionRegionWhite", "doubleStep", "castling"},
    "chancellor": {"maxRank", "maxFile", "promotionRegionWhite", "promotionRegionBlack",
                   "doubleStepRegionWhite", "doubleStepRegionBlack", "promotionPieceTypes"},
    "modern": {"startFen", "promotionPieceTypes"},
    "capablanca": {"maxFile", "castlingKingsideFile", "castlingQueensideFile", "promotionPieceTypes"},
    "gothic": {"startFen"},
    "embassy": {"castlingKingsideFile", "castlingQueensideFile", "startFen"},
    "janus": {"maxFile", "castlingKingsideFile", "castlingQueensideFile", "promotionPieceTypes"},
    "centaur": {"customPiece1", "maxFile", "castlingKingsideFile", "promotionPieceTypes"},
    "grasshopper": {"customPiece1", "doubleStep", "promotionPieceTypes"},
    # drops, hands and piece promotion
    "crazyhouse": {"startFen", "pieceDrops", "capturesToHand"},
    "loop": {"dropLoop"},
    "chessgi": {"firstRankPawnDrops"},
    "capahouse": {"startFen", "pieceDrops", "capturesToHand"},
    "pocketknight": {"startFen", "pieceDrops", "capturesToHand"},
    "dragon": {"startFen", "pieceDrops", "whiteDropRegion", "blackDropRegion"},
    "minishogi": {"shogiPawn", "dragonHorse", "bers", "startFen", "pieceDrops", "capturesToHand",
                  "promotedPieceType", "dropNoDoubled", "immobilityIllegal",
                  "shogiPawnDropMateIllegal", "perpetualCheckIllegal", "nFoldValue",
                  "nFoldValueAbsolute"},
    "kyotoshogi": {"promotedPieceType", "mandatoryPiecePromotion", "pieceDemotion", "dropPromoted"},
    "micro": {"piecePromotionOnCapture", "promotedPieceType"},
    "gorogoro": {"startFen", "promotionRegionWhite", "promotionRegionBlack"},
    "judkins": {"shogiKnight", "promotedPieceType"},
    "euroshogi": {"customPiece1", "promotedPieceType", "mandatoryPiecePromotion"},
    "torishogi": {"customPiece7", "promotedPieceType", "dropNoDoubled", "dropNoDoubledCount",
                  "mandatoryPiecePromotion", "shogiPawnDropMateIllegal", "nFoldValue"},
    "yarishogi": {"customPiece5", "promotedPieceType", "dropNoDoubled", "immobilityIllegal"},
    "okisakishogi": {"lance", "shogiKnight", "customPiece1", "promotedPieceType"},
    "nocheckhouse": {"dropChecks"},
    "shogun": {"promotionLimit", "promotedPieceType", "promotionPieceTypes",
               "mandatoryPawnPromotion", "firstRankPawnDrops", "promotionZonePawnDrops",
               "whiteDropRegion", "blackDropRegion", "immobilityIllegal"},
    "legan": {"customPiece1", "pawnTypes", "promotionPawnTypes", "promotionRegionWhite",
              "promotionRegionBlack"},
}

# sections that are not Fairy-Stockfish built-ins: their own text is loaded into pyffish
LOADED_INTO_PYFFISH = ("nocheckhouse", "shogun")


def _section_text(name: str) -> str:
    text = DATA.read_text()
    start = next(i for i, block in enumerate(text.split("\n[")) if block.startswith(name + ":"))
    return "[" + text.split("\n[")[start].split("\n\n")[0] + "\n"


for _name in LOADED_INTO_PYFFISH:
    pyffish.load_variant_config(_section_text(_name))

# the keys of drops, hands and piece promotion, each exercised by a section above
# (shogiDoubledPawn, which Fairy-Stockfish no longer reads, only as its old default "true")
DROP_GROUP = {
    "pieceDrops", "capturesToHand", "dropLoop", "firstRankPawnDrops", "promotionZonePawnDrops",
    "whiteDropRegion", "blackDropRegion", "dropNoDoubled", "dropNoDoubledCount", "dropPromoted",
    "dropChecks", "immobilityIllegal", "shogiPawnDropMateIllegal", "promotionPawnTypes",
    "promotedPieceType", "mandatoryPiecePromotion", "pieceDemotion", "promotionLimit",
    "piecePromotionOnCapture", "perpetualCheckIllegal", "nFoldValue", "nFoldValueAbsolute"}


def fsf_perft(name: str, fen: str, moves: list[str], depth: int) -> int:
    ms = pyffish.legal_moves(name, fen, moves)
    if depth == 1:
        return len(ms)
    return sum(fsf_perft(name, fen, moves + [m], depth - 1) for m in ms)


def test_the_file_holds_the_sections_named_here_with_the_keys_they_exercise():
    assert sorted(NAMES) == sorted(KEYS)
    text = DATA.read_text()
    sections = {}
    for block in text.split("\n[")[1:]:
        head, _, body = block.partition("]")
        keys = {ln.split("=")[0].strip() for ln in body.splitlines() if "=" in ln}
        sections[head.split(":")[0]] = keys
    for name, keys in KEYS.items():
        assert keys <= sections[name], (name, keys - sections[name])


def test_every_drop_and_promotion_key_is_exercised_by_a_section():
    used = set().union(*KEYS.values())
    assert DROP_GROUP - used == set()
    from variants.inifile.keys import DROP_KEYS
    assert DROP_GROUP | {"shogiDoubledPawn", "promotionPawnTypesWhite", "promotionPawnTypesBlack"} \
        == DROP_KEYS | {"nFoldValue"}


@pytest.mark.parametrize("name", sorted(KEYS))
def test_start_and_perft_3_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    for depth in (1, 2, 3):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


def _kinds(t: str) -> set[str]:
    """The kinds of a move text: a drop (@), a piece promotion (+), a demotion (-)."""
    return {k for k in "@+-" if k in t[1:]}


@pytest.mark.parametrize("name", sorted(KEYS))
def test_random_games_have_fairy_stockfishs_legal_moves(name):
    """20 random games of up to 60 plies; at every ply the same legal move texts and the same
    position text (pyffish.get_fen), and perft 2 at the 20th ply of each game (or its last
    position).  Captures, promotions, drops and castling are preferred now and then, and every
    kind of move the section allows (a drop, a piece promotion, a demotion) is played."""
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    rng = random.Random(name)
    allowed = ({"@"} if v.hands else set()) | ({"+"} if v.promoted_of else set()) \
        | ({"-"} if v.piece_demotion else set())
    played: set[str] = set()
    for _ in range(20):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for ply in range(60):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs = set(pyffish.legal_moves(name, fen, moves))
            assert set(ours) == theirs, (name, moves, set(ours) ^ theirs)
            theirs_fen = pyffish.get_fen(name, fen, moves)
            assert format_position(pos) == theirs_fen, (name, moves)
            if ply % 10 == 9:           # and Fairy-Stockfish's text reads back to the same
                assert format_position(parse_position(v, theirs_fen)) == theirs_fen, (name, moves)
            if ply == 20 or not ours:
                assert perft(pos, 2) == fsf_perft(name, fen, moves, 2), (name, " ".join(moves))
            if not ours:
                break
            # prefer captures, promotions, drops and castling now and then so they appear
            special = [t for t, m in ours.items()
                       if pos.board[m & 255] or len(t) == 5 or _kinds(t) - played]
            t = rng.choice(sorted(special) if special and rng.random() < 0.4 else sorted(ours))
            played |= _kinds(t)
            pos.make(ours[t])
            moves.append(t)
    assert allowed <= played, (name, allowed - played)


@pytest.fixture(scope="module")
def engine():
    eng = EngineProcess()
    eng.ask("uci", "uciok")
    eng.send(f"setoption name VariantPath value {DATA}")
    lines = eng.ask("uci", "uciok")
    combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
    assert all(f" var {n}" in combo for n in NAMES), combo
    yield eng
    eng.close()


@pytest.mark.parametrize("name", ["losalamos", "gardner", "knightmate", "capablanca", "crazyhouse",
                                  "minishogi", "kyotoshogi", "shogun"])
def test_a_loaded_variant_plays_a_complete_game_through_the_protocol(name, engine):
    game = play_game(name, "uci", engine=engine, ply_cap=1500)
    assert game.result is not None


BAD = {
    "syntax": ("[ok:chess]\nthis is not a key\n", "2: [ok] not a key = value line (this is not a key)"),
    "unknown piece letter": ("[x:chess]\npromotionPieceTypes = qz\n",
                             "2: [x] promotionPieceTypes: no piece has this letter (z)"),
    "bad Betza": ("[x:chess]\ncustomPiece1 = a:Q%\n", "2: [x] customPiece1:"),
    "startFen off the board": ("[x:chess]\nstartFen = rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
                               "2: [x] startFen: bad startFen:"),
    "startFen with an unknown piece": ("[x:chess]\nstartFen = 4k3/8/8/8/8/8/8/3ZK3 w - - 0 1\n",
                                       "2: [x] startFen: bad startFen: unknown piece (Z)"),
    "no such parent": ("[x:nothere]\n", "1: [x] no such parent (nothere)"),
    "cycle": ("[a:b]\n[b:a]\n", "1: [a] parent defined below it or in a cycle (b)"),
    "board over the cell limit": ("[x:chess]\nmaxRank = 11\n", "2: [x] maxRank: out of range 1..10 (11)"),
    "refused rule": ("[x:chess]\nblastOnCapture = true\n", "2: [x] blastOnCapture: not supported (blastOnCapture)"),
    "a built-in name": ("[shogi:chess]\n", "1: [shogi] a built-in variant has this name (shogi)"),
    "promotedPieceType naming an unknown letter": ("[x:chess]\npromotedPieceType = n:z\n",
                                                  "2: [x] promotedPieceType: no piece has this letter (z)"),
    "promotedPieceType not letter:letter": ("[x:chess]\npromotedPieceType = nb\n",
                                           "2: [x] promotedPieceType: not letter:letter (nb)"),
    "a promoted piece promoting again": ("[x:chess]\npromotedPieceType = n:b b:r\n",
                                         "2: [x] promotedPieceType: a promoted piece would promote again (b)"),
    "a drop region off the board": ("[x:chess]\npieceDrops = true\nwhiteDropRegion = *1 *9\n",
                                    "3: [x] whiteDropRegion: square off the board (*9)"),
    "a bad promotionLimit": ("[x:chess]\npromotionLimit = q:x\n",
                             "2: [x] promotionLimit: not letter:count (q:x)"),
    "dropNoDoubled naming an unknown letter": ("[x:shogi]\ndropNoDoubled = z\n",
                                               "2: [x] dropNoDoubled: no piece has this letter (z)"),
    "captures to a hand without drops": ("[x:chess]\ncapturesToHand = true\n",
                                         "2: [x] capturesToHand: needs pieceDrops"),
    "the old shogiDoubledPawn = false": ("[x:shogi]\nshogiDoubledPawn = false\n",
                                         "2: [x] shogiDoubledPawn: not supported"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_refused_whole_and_the_engine_keeps_serving(case, tmp_path):
    """One error line naming file, line, section, key and token; nothing of the file is
    loaded (its good section neither); the variant and position stay as they were."""
    text, expected = BAD[case]
    path = tmp_path / "bad.ini"
    path.write_text("[goodone:chess]\n" + text)
    line = int(expected.split(":")[0]) + 1            # the good section comes first
    expected = f"{path}:{line}:" + expected.split(":", 1)[1]
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send("setoption name UCI_Variant value knavish8")
        eng.send("position startpos moves e2e4")
        eng.send("d")
        before = eng.expect(lambda ln: ln.startswith("Fen:"))[-1]
        eng.send(f"setoption name VariantPath value {path}")
        lines = eng.ask("isready", "readyok")
        errors = [ln for ln in lines if ln.startswith("info string error:")]
        assert any(ln.startswith(f"info string error: {expected}") for ln in errors), (errors, expected)
        lines = eng.ask("uci", "uciok")
        combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
        assert " var goodone" not in combo and " var x" not in combo
        eng.send("d")
        assert eng.expect(lambda ln: ln.startswith("Fen:"))[-1] == before
        assert not eng.err
    finally:
        eng.close()


def test_an_unreadable_path_is_one_error_line(tmp_path):
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send(f"setoption name VariantPath value {tmp_path / 'missing.ini'}")
        lines = eng.ask("isready", "readyok")
        assert [ln for ln in lines if "error" in ln] == [
            f"info string error: {tmp_path / 'missing.ini'}:0: cannot read the file (FileNotFoundError)"]
    finally:
        eng.close()


def test_check_command_names_every_problem_and_exits_1(tmp_path):
    import subprocess
    import sys
    bad = tmp_path / "bad.ini"
    bad.write_text("[x:chess]\nblastOnCapture = true\nmustCapture = true\n[y:nope]\n")
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(bad)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        f"{bad}:2: [x] blastOnCapture: not supported (blastOnCapture)",
        f"{bad}:3: [x] mustCapture: not supported (mustCapture)",
        f"{bad}:4: [y] no such parent (nope)"]
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(DATA)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.startswith(f"{DATA}: ok ({len(KEYS)} variants")


def test_the_worked_example_loads_into_both_engines_and_agrees():
    """docs/variant-files.md's 10x10 example with camels and zebras: the same file loaded
    into Fairy-Stockfish (pyffish) and into cellfish gives the same perft."""
    path = Path(__file__).resolve().parent.parent / "examples" / "leapers10.ini"
    pyffish.load_variant_config(path.read_text())
    assert variants.load_file(str(path)) == ["leapers10"]
    v = variants.get("leapers10")
    fen = pyffish.start_fen("leapers10")
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    assert [perft(pos, d) for d in (1, 2, 3)] == [fsf_perft("leapers10", fen, [], d) for d in (1, 2, 3)]


def _play(name: str, fen: str, moves: list[str]):
    v = variants.get(name)
    pos = parse_position(v, fen)
    for t in moves:
        pos.make({move_text(v, m): m for m in legal_moves(pos)}[t])
    return pos


def test_a_mate_by_dropping_a_shogi_pawn_loses_for_the_dropper():
    """minishogi (shogiPawnDropMateIllegal): P@a4 mates the king on a5 (the rook on b5 blocks
    it, the golds guard a4 and b4); Fairy-Stockfish lists the drop and scores the mate as a
    win for the side mated, and so does cellfish."""
    fen = "kr3/5/1GG2/5/4K[P] w - - 0 1"
    assert "P@a4" in pyffish.legal_moves("minishogi", fen, [])
    assert pyffish.legal_moves("minishogi", fen, ["P@a4"]) == []
    assert pyffish.game_result("minishogi", fen, ["P@a4"]) > 0
    pos = _play("minishogi", fen, ["P@a4"])
    assert legal_moves(pos) == [] and game_result(pos) == (1, "pawn-drop mate")
    # a rook dropped there mates as usual
    pos = _play("minishogi", "kr3/5/1GG2/5/4K[R] w - - 0 1", ["R@a4"])
    assert game_result(pos) == (-1, "checkmate")


@pytest.mark.parametrize("first", [[], ["b1b2"]])
def test_minishogi_repetition_loses_for_white_whoever_is_to_move(first):
    """nFoldValue = loss with nFoldValueAbsolute: the fourth occurrence loses for White (sente),
    so Black to move wins; as Fairy-Stockfish's is_optional_game_end says."""
    fen = pyffish.start_fen("minishogi")
    moves = first + (["b1b2", "d5d4", "b2b1", "d4d5"] if not first else
                     ["d5d4", "b2b1", "d4d5", "b1b2"]) * 3
    end, value = pyffish.is_optional_game_end("minishogi", fen, moves)
    score = game_result(_play("minishogi", fen, moves))
    assert end and score is not None and score[0] == (1 if value > 0 else -1) == (1 if first else -1)
    assert not pyffish.is_optional_game_end("minishogi", fen, moves[:-2])[0]
    assert game_result(_play("minishogi", fen, moves[:-2])) is None


def test_perpetual_check_loses_at_the_repetition():
    """perpetualCheckIllegal: White's rook checks on every move while the king shuffles between
    a5 and b5; when the position recurs the fourth time (White to move), White, the side that
    checked throughout, loses, as in Fairy-Stockfish."""
    fen = "k4/5/5/1R3/4K[] w - - 0 1"
    moves = ["b2a2", "a5b5", "a2b2", "b5a5"] * 3
    end, value = pyffish.is_optional_game_end("minishogi", fen, moves)
    assert end and value < 0
    assert game_result(_play("minishogi", fen, moves)) == (-1, "perpetual check")


def test_the_drop_example_loads_into_both_engines_and_agrees():
    """docs/variant-files.md's second example, Los Alamos chess with drops: the same file in
    pyffish and in cellfish gives the same start, perft to depth 3, and along random games
    (drops preferred) the same legal moves and position text at every ply, with drops,
    drop restrictions and perft 2 at the end of each game."""
    path = Path(__file__).resolve().parent.parent / "examples" / "alamoshouse.ini"
    pyffish.load_variant_config(path.read_text())
    assert variants.load_file(str(path)) == ["alamoshouse"]
    name = "alamoshouse"
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen == "rnqknr/pppppp/6/6/PPPPPP/RNQKNR[] w - - 0 1"
    pos = parse_position(v, fen)
    assert [perft(pos, d) for d in (1, 2, 3)] == [fsf_perft(name, fen, [], d) for d in (1, 2, 3)] \
        == [10, 100, 1212]
    rng = random.Random(7)
    drops = 0
    for _ in range(6):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for _ply in range(50):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            assert set(ours) == set(pyffish.legal_moves(name, fen, moves)), moves
            assert format_position(pos) == pyffish.get_fen(name, fen, moves), moves
            if not ours:
                break
            special = [t for t, m in ours.items() if "@" in t or pos.board[m & 255]]
            t = rng.choice(sorted(special) if special and rng.random() < 0.5 else sorted(ours))
            drops += "@" in t
            pos.make(ours[t])
            moves.append(t)
        assert perft(pos, 2) == fsf_perft(name, fen, moves, 2), moves
    assert drops > 10


def test_black_pieces_are_white_pieces_turned_half_round(tmp_path):
    """A piece that is not left-right symmetric (frF: forward-right diagonal; lbW) moves for
    Black as Fairy-Stockfish moves it, turned half round rather than mirrored: the same file
    loaded into both engines gives the same legal moves along random games."""
    ini = tmp_path / "lopsided.ini"
    ini.write_text("[lopsided:chess]\ncustomPiece1 = x:frFlbWifmW2\n"
                   "startFen = rnbqkbnr/pppppppp/2x2x2/8/8/2X2X2/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n"
                   "promotionPieceTypes = qx\n")
    pyffish.load_variant_config(ini.read_text())
    assert variants.load_file(str(ini)) == ["lopsided"]
    v = variants.get("lopsided")
    fen = pyffish.start_fen("lopsided")
    rng = random.Random(5)
    for _ in range(6):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for _ply in range(40):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            assert set(ours) == set(pyffish.legal_moves("lopsided", fen, moves)), moves
            if not ours:
                break
            t = rng.choice(sorted(ours))
            pos.make(ours[t])
            moves.append(t)
