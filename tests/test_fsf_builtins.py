"""Fairy-Stockfish's built-in variants that cellfish ships under their own names
(variants/files/fairy*.ini, every section whose name pyffish.variants() lists), proven
against Fairy-Stockfish itself (pyffish, tests/fsf_oracle.py): the same start position; perft
1-3 from it (2 where depth 3 is large); random games of 60 plies steered to the special moves,
with the same legal moves, position text and result at every ply.  Then the file semantics a
file written for Fairy-Stockfish relies on: any built-in as parent, and a letter given again
replacing the earlier piece."""
from __future__ import annotations

import re

import pyffish
import pytest
from engine_proc import EngineProcess
from fsf_oracle import (FSF_NAMES, builtin_sections, fsf_perft, kinds_allowed, perft_depth,
                        play_random_games)

import variants
from engine.game import perft
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position

SECTIONS = builtin_sections()

# The families with a proof file of their own (start, perft, steered random games and named
# positions against pyffish): the sections tests/test_variant_files.py names, and the files
# fairy-asia.ini, fairy-games.ini, fairy-chessrules.ini, fairy-more.ini and fairy-shogi.ini
# (tests/test_fsf_asia.py, test_fsf_games.py, test_fsf_chessrules.py, test_fsf_more.py,
# test_fsf_shogi.py).  The generic proof here runs on the rest, so
# that the suite proves every built-in once and stays within its time.
PROVEN_ELSEWHERE = {"fairy-asia.ini": "test_fsf_asia.py", "fairy-games.ini": "test_fsf_games.py",
                    "fairy-chessrules.ini": "test_fsf_chessrules.py",
                    "fairy-seasia.ini": "test_fsf_seasia.py",
                    "fairy-twoboards.ini": "test_fsf_twoboards.py",
                    "fairy-more.ini": "test_fsf_more.py", "fairy-shogi.ini": "test_fsf_shogi.py",
                    "fairy-janggi.ini": "test_fsf_janggi.py"}


def _proven_elsewhere() -> set[str]:
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from test_variant_files import KEYS
    out = set(KEYS)
    for f in Path(variants.SHIPPED_DIR).glob("fairy-*.ini"):
        assert f.name in PROVEN_ELSEWHERE, f"{f.name} has no proof file"
        out |= set(variants.shipped_names_of(str(f)))
    return out


ELSEWHERE = _proven_elsewhere()
OWN = [n for n in SECTIONS if n not in ELSEWHERE]


def test_every_builtin_is_proven_here_or_by_its_family_s_file():
    from pathlib import Path
    here = Path(__file__).resolve().parent
    assert all((here / t).exists() for t in PROVEN_ELSEWHERE.values())
    assert set(SECTIONS) <= set(OWN) | ELSEWHERE and len(OWN) >= 17


def test_the_shipped_builtins_are_offered_under_their_names():
    """Every section of the fairy*.ini files is a Fairy-Stockfish built-in name (no other
    game under such a name), the engine lists it, and the count is what this branch ships."""
    assert len(SECTIONS) >= 52 and len(set(SECTIONS)) == len(SECTIONS)
    assert set(SECTIONS) <= set(variants.builtin_names()) and set(SECTIONS) <= FSF_NAMES


def test_the_engine_selects_a_builtin_by_name():
    eng = EngineProcess()
    try:
        lines = eng.ask("uci", "uciok")
        combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
        assert all(f" var {n}" in combo for n in SECTIONS), combo
        eng.send("setoption name UCI_Variant value crazyhouse")
        eng.send("position startpos moves e2e4 d7d5 e4d5 d8d5")
        eng.send("d")
        fen = eng.expect(lambda ln: ln.startswith("Fen:"))[-1]
        assert fen.split(None, 1)[1] == pyffish.get_fen(
            "crazyhouse", pyffish.start_fen("crazyhouse"), "e2e4 d7d5 e4d5 d8d5".split())
    finally:
        eng.close()


@pytest.mark.parametrize("name", OWN)
def test_start_and_perft_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    counts = [perft(pos, d) for d in (1, 2)]
    assert counts == [fsf_perft(name, fen, [], d) for d in (1, 2)], name
    if perft_depth(counts) == 3:
        assert perft(pos, 3) == fsf_perft(name, fen, [], 3), name


@pytest.mark.parametrize("name", OWN)
def test_random_games_equal_fairy_stockfish(name):
    """Two random games of 60 plies, and more (up to ten) until every special kind of move
    the start position allows has been played and agreed on."""
    log = play_random_games(name, games=2, plies=60)
    allowed = kinds_allowed(name)
    extra = 0
    while not allowed <= log.kinds and extra < 8:
        more = play_random_games(name, games=1, plies=120, seed=f"{name}-{extra}")
        log.kinds |= more.kinds
        extra += 1
    assert allowed <= log.kinds, (name, allowed - log.kinds)


# a file written for Fairy-Stockfish: built-ins as parents, letters given again
USER_FILE = """
[nightriderhouse:crazyhouse]
customPiece1 = n:NN

[allwayspawns:chess]
customPiece1 = p:mfWcfF
pawnTypes = p

[sidewayscourier:courier]
customPiece1 = w:mWcF

[minihouse:minishogi]
bers = -
customPiece1 = r:RmF
"""


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("fsf") / "user.ini"
    path.write_text(USER_FILE)
    pyffish.load_variant_config(USER_FILE)
    return variants.load_file(str(path))


def test_a_user_file_inherits_any_builtin(user_file):
    assert sorted(user_file) == ["allwayspawns", "minihouse", "nightriderhouse", "sidewayscourier"]


@pytest.mark.parametrize("name", ["nightriderhouse", "allwayspawns", "sidewayscourier", "minihouse"])
def test_a_letter_given_again_replaces_the_piece_as_fairy_stockfish_does(name, user_file):
    """The same start, perft 2 and random games as Fairy-Stockfish playing the same text."""
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    assert [perft(pos, d) for d in (1, 2)] == [fsf_perft(name, fen, [], d) for d in (1, 2)]
    play_random_games(name, games=3, plies=60)


def test_an_inherited_promotion_list_loses_the_replaced_piece(user_file):
    """In nightriderhouse the knight is gone: a pawn promotes to queen, rook or bishop only,
    as Fairy-Stockfish's promotion types name the knight type, not the letter."""
    v = variants.get("nightriderhouse")
    fen = "4k3/1P6/8/8/8/8/8/4K3[] w - - 0 1"
    ours = sorted(move_text(v, m) for m in legal_moves(parse_position(v, fen)))
    assert [t for t in ours if t.startswith("b7")] == ["b7b8b", "b7b8q", "b7b8r"]
    assert ours == sorted(pyffish.legal_moves("nightriderhouse", fen, []))


# castling on boards narrower than 8 with the king on the d-file
NARROW = """
[castle6:chess]
maxFile = 6
maxRank = 6
bishop = -
startFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w KQkq - 0 1
promotionRegionWhite = *6
promotionRegionBlack = *1
doubleStep = false

[castle7:chess]
maxFile = 7
maxRank = 7
startFen = rnbkbnr/ppppppp/7/7/7/PPPPPPP/RNBKBNR w KQkq - 0 1
promotionRegionWhite = *7
promotionRegionBlack = *1
doubleStepRegionWhite = *2
doubleStepRegionBlack = *6
"""


@pytest.fixture(scope="module")
def narrow(tmp_path_factory):
    path = tmp_path_factory.mktemp("fsf") / "narrow.ini"
    path.write_text(NARROW)
    pyffish.load_variant_config(NARROW)
    return variants.load_file(str(path))


@pytest.mark.parametrize("name,width", [("castle6", 6), ("castle7", 7)])
def test_castling_beside_the_king_is_written_as_the_king_taking_its_rook(name, width, narrow):
    """King d1, rooks a1 and on the last file: castling queenside puts the king on c1, where a
    plain king step also goes, so Fairy-Stockfish writes it d1a1; the rook lands on d1, the
    cell the king left.  On six files the kingside destination g is off the board: no
    kingside castling, but the right stays in the position text (until the king moves)."""
    from engine.notation.position_text import format as format_position
    v = variants.get(name)
    last = "abcdefg"[width - 1]
    fen = f"r2k{'1' * (width - 5)}r/{width}/{width}/{width}/{width}/{'' if width == 6 else f'{width}/'}" \
          f"R2K{'1' * (width - 5)}R w KQkq - 0 1".replace("11", "2")
    pos = parse_position(v, fen)
    ours = {move_text(v, m): m for m in legal_moves(pos)}
    assert set(ours) == set(pyffish.legal_moves(name, fen, []))
    assert "d1a1" in ours and "d1c1" in ours        # castling, and the plain king step
    assert not any(t.startswith("d1") and t[2] in "fg" and t[3] == "1" for t in ours), last
    pos.make(ours["d1a1"])
    assert format_position(pos) == pyffish.get_fen(name, fen, ["d1a1"])
    assert format_position(pos).split()[0].endswith(f"2KR{'1' * (width - 5)}R".replace("11", "2"))
    pos.unmake()
    assert format_position(pos) == fen


def test_castling_on_seven_files_agrees_along_random_games(narrow):
    log = play_random_games("castle7", games=6, plies=60)
    assert "castling" in log.kinds


ANTI = """
[antiminishogi:minishogi]
king = -
commoner = k
extinctionValue = win
extinctionPieceTypes = *
mustCapture = true
stalemateValue = win
perpetualCheckIllegal = false
"""


@pytest.fixture(scope="module")
def anti(tmp_path_factory):
    path = tmp_path_factory.mktemp("fsf") / "anti.ini"
    path.write_text(ANTI)
    pyffish.load_variant_config(ANTI)
    return variants.load_file(str(path))


def test_the_drop_rule_holds_without_a_royal_piece(anti):
    """A game with no royal piece still forbids a doubled pawn drop (dropNoDoubled): after
    1. Rxe4 Kxe4 White's pawn in hand may not go to a3 or a4 beside its pawn on a2; perft 3
    from the start is Fairy-Stockfish's 50 (it was 54), and random games agree."""
    v = variants.get("antiminishogi")
    fen = pyffish.start_fen("antiminishogi")
    after = pyffish.get_fen("antiminishogi", fen, ["e1e4", "e5e4"])
    ours = sorted(move_text(v, m) for m in legal_moves(parse_position(v, after)))
    assert "P@b3" in ours and "P@a3" not in ours and "P@a4" not in ours
    assert ours == sorted(pyffish.legal_moves("antiminishogi", after, []))
    assert [perft(parse_position(v, fen), d) for d in (1, 2, 3)] == [1, 3, 50]
    assert fsf_perft("antiminishogi", fen, [], 3) == 50
    play_random_games("antiminishogi", games=4, plies=60)


SHOGI_FAMILY = [n for n in SECTIONS if variants.get(n).template == "shogi"]


def test_the_shogi_family_is_played_through_usi():
    """Every shogi-template built-in (variantTemplate = shogi) through one engine in the USI
    dialect: along a random game sent as USI move text (5e5d, P*3c), the engine's SFEN is
    Fairy-Stockfish's (pyffish.get_fen with sfen) and its perft 1 moves are Fairy-Stockfish's
    legal moves, each written in USI cells."""
    import random
    assert {"minishogi", "kyotoshogi", "torishogi", "yarishogi", "okisakishogi"} <= set(SHOGI_FAMILY)
    eng = EngineProcess()
    try:
        eng.ask("usi", "usiok")
        for name in SHOGI_FAMILY:
            v = variants.get(name)
            fen = pyffish.start_fen(name)
            pos = parse_position(v, fen)
            rng = random.Random(name)
            uci: list[str] = []
            usi: list[str] = []
            eng.send(f"setoption name USI_Variant value {name}")
            for ply in range(24):
                legal = {move_text(v, m): m for m in legal_moves(pos)}
                if ply % 6 == 0 or not legal:
                    eng.send("position startpos" + (" moves " + " ".join(usi) if usi else ""))
                    eng.send("d")
                    sfen = eng.expect(lambda ln: ln.startswith("Fen:"))[-1].split(None, 1)[1]
                    assert sfen == pyffish.get_fen(name, fen, uci, False, True), (name, uci)
                    eng.send("go perft 1")
                    lines = eng.expect(lambda ln: ln.startswith("Nodes searched"))
                    theirs = {move_text(v, legal[t], "usi") for t in pyffish.legal_moves(name, fen, uci)}
                    counted = {m.group(1) for ln in lines if (m := re.fullmatch(r"(\S+): \d+", ln))}
                    assert counted == theirs, (name, uci)
                if not legal:
                    break
                t = rng.choice(sorted(legal))
                uci.append(t)
                usi.append(move_text(v, legal[t], "usi"))
                pos.make(legal[t])
    finally:
        eng.close()


PROMOTED_PAWN = """
[knighthouse:crazyhouse]
commoner = c
promotedPieceType = n:c b:c
promotionRegionWhite = *7 *8
promotionRegionBlack = *1 *2
"""


@pytest.fixture(scope="module")
def knighthouse(tmp_path_factory):
    path = tmp_path_factory.mktemp("fsf") / "knighthouse.ini"
    path.write_text(PROMOTED_PAWN)
    pyffish.load_variant_config(PROMOTED_PAWN)
    return variants.load_file(str(path))


def test_a_piece_a_pawn_became_still_promotes_shogi_style(knighthouse):
    """Black's knight on b2 was a pawn (n~): moving in or out of its zone it may promote to
    the commoner (+n) as any knight, and so loses its pawn mark: taken, it goes to the hand
    as a knight (Fairy-Stockfish's texts); random games agree."""
    from engine.notation.position_text import format as format_position
    name = "knighthouse"
    v = variants.get(name)
    fen = "2kr1b1r/2p1q2p/b1P4P/8/p5P1/P4P2/1n~PPQK2/R1B2B1R[NNNPPPnpp] b - - 1 18"
    pos = parse_position(v, fen)
    ours = {move_text(v, m): m for m in legal_moves(pos)}
    assert {"b2d1+", "b2d3+", "b2c4+"} <= set(ours)
    assert set(ours) == set(pyffish.legal_moves(name, fen, []))
    pos.make(ours["b2d3+"])
    assert format_position(pos) == pyffish.get_fen(name, fen, ["b2d3+"])
    after = {move_text(v, m): m for m in legal_moves(pos)}
    pos.make(after["e2d3"])
    assert format_position(pos) == pyffish.get_fen(name, fen, ["b2d3+", "e2d3"])
    assert "[NNNNPPPnpp]" in format_position(pos)
    play_random_games(name, games=4, plies=80)
