"""Variants from a file in Fairy-Stockfish's variants.ini format (variants/inifile,
docs/variant-files.md), proven against Fairy-Stockfish itself (pyffish): every section of
the shipped variants/files/fairy.ini writes one of its built-in variants (and the two of
tests/data/fsf_variants.ini inherit from them), and must have the same start
position, the same perft to depth 3 from it, and the same legal moves and perft 2 along
random games; then each plays a complete game through the protocol."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pyffish
import pytest
from engine_proc import EngineProcess
from fsf_oracle import fsf_perft, fsf_result
from selfplay import play_game

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation import move_text, parse_position
from engine.notation.position_text import format as format_position

DATA = Path(__file__).resolve().parent / "data" / "fsf_variants.ini"
SHIPPED = Path(variants.SHIPPED_DIR) / "fairy.ini"
ALL = variants.shipped_names_of(str(SHIPPED)) + variants.load_file(str(DATA))

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
    # results, pawns and castling (variants/inifile/results.py, moverules.py)
    "kingofthehill": {"flagPiece", "flagRegion", "flagMove"},
    "racingkings": {"flagPieceWhite", "flagPieceBlack", "flagRegionWhite", "flagRegionBlack",
                    "flagMove", "checking", "castling"},
    "giveaway": {"castlingKingPiece", "stalemateValue", "extinctionValue", "extinctionPieceTypes",
                 "mustCapture"},
    "antichess": {"castling", "startFen"},
    "codrus": {"extinctionPieceTypes"},
    "losers": {"checkmateValue", "stalemateValue", "extinctionValue", "extinctionPieceTypes",
               "extinctionPieceCount", "mustCapture"},
    "extinction": {"castlingKingPiece", "castlingRookPieces", "extinctionValue", "extinctionPieceTypes"},
    "kinglet": {"extinctionPieceTypes"},
    "threekings": {"extinctionValue", "extinctionPieceTypes", "extinctionPieceCount"},
    "horde": {"doubleStepRegionWhite", "enPassantRegion", "extinctionValue", "extinctionPieceTypes"},
    "berolina": {"customPiece1", "pawnTypes", "enPassantTypes", "nMoveRuleTypes"},
    "pawnsideways": {"customPiece1", "pawnTypes", "enPassantTypesWhite", "enPassantTypesBlack",
                     "nMoveRuleTypesWhite", "nMoveRuleTypesBlack"},
    "newzealand": {"castlingRookPieces"},
    "shatranj": {"extinctionValue", "extinctionClaim", "extinctionPieceTypes", "extinctionPieceCount",
                 "extinctionOpponentPieceCount", "stalemateValue", "nMoveRule"},
    "chaturanga": {"extinctionValue"},
    "courier": {"maxFile", "extinctionClaim", "extinctionOpponentPieceCount", "stalemateValue"},
    "shako": {"castlingKingsideFile", "castlingQueensideFile", "castlingRookKingsideFile",
              "castlingRookQueensideFile", "castlingRank", "doubleStepRegionWhite"},
    "jesonmor": {"flagPiece", "flagRegion", "flagMove", "stalemateValue"},
    "fox-and-hounds": {"flagPieceWhite", "flagRegionWhite", "stalemateValue"},
    # pseudo-royal extinction pieces (variants/inifile/pseudoroyal.py)
    "coregal": {"extinctionPieceTypes", "extinctionPseudoRoyal", "extinctionPieceCount"},
    "spartan": {"customPiece1", "startFen", "promotionPawnTypesBlack", "promotionPieceTypesBlack",
                "promotionLimit", "enPassantRegion", "extinctionPseudoRoyal", "dupleCheck"},
}

# the sections this file tests (the shipped file holds more: tests/test_fsf_builtins.py)
NAMES = [n for n in ALL if n in KEYS]

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
    "piecePromotionOnCapture"}


def test_the_file_holds_the_sections_named_here_with_the_keys_they_exercise():
    assert sorted(NAMES) == sorted(KEYS)
    text = SHIPPED.read_text() + "\n" + DATA.read_text()
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
        == DROP_KEYS


@pytest.mark.parametrize("name", sorted(KEYS))
def test_start_and_perft_3_equal_fairy_stockfish(name):
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert v.start_fen == fen
    pos = parse_position(v, fen)
    for depth in (1, 2, 3):
        assert perft(pos, depth) == fsf_perft(name, fen, [], depth), (name, depth)


def _demotion(v, tid: int) -> bool:
    pt = v.piece_types[tid]
    return v.piece_demotion and not pt.promoted and pt.token.lower() in v.promoted_of


def kinds_allowed(v, pos) -> set[str]:
    """The special moves a variant's start position allows: castling (a right in it),
    promotion (a piece on the board that can promote pawn-style), en passant (pieces on the
    board that double-step and that take en passant), a drop (hands), a shogi-style piece
    promotion and a demotion (the keys that allow them)."""
    out = set()
    if pos.castle:
        out.add("castling")
    codes = {p for p in pos.board if p}
    if any(o and not v.piece_types[o].token.startswith("+") and not _demotion(v, o)
           for c in codes & set(v.promo) for opts in v.promo[c].values() for o in opts):
        out.add("promotion")
    flags = {sp[3] for c in codes for cell in v.table_list[c].special for sp in cell}
    if {"ep", "double"} <= flags:
        out.add("en passant")
    if v.hands:
        out.add("drop")
    if v.promoted_of:
        out.add("piece promotion")
    if v.piece_demotion:
        out.add("demotion")
    return out


def kind_of(pos, m: int) -> str | None:
    v = pos.variant
    if m & CASTLE:
        return "castling"
    if m & EP:
        return "en passant"
    tid = (m >> TYPE_SHIFT) & TYPE_MASK
    if is_drop(m):
        return "drop"
    if tid:
        if v.piece_types[tid].token.startswith("+"):
            return "piece promotion"
        return "demotion" if _demotion(v, tid) else "promotion"
    return None


def advance(pos, m: int) -> int:
    """How far toward the far side the move's destination is, for the side to move."""
    rank = pos.variant.geometry.coords[m & CELL][1]
    return rank if pos.side == 0 else -rank


# the games every section plays; more follow, 120 plies long, until each special move the
# section allows has appeared (20 until 28 Nov 2026, then 10, then 6: each pyffish call costs
# about 1 ms whatever the position, four a ply, and these games were an eighth of the suite's
# time on two cores); perft 2 is compared in the first PERFT_GAMES of them
FIRST = 6
PERFT_GAMES = 3


@pytest.mark.parametrize("name", sorted(KEYS))
def test_random_games_have_fairy_stockfishs_legal_moves_and_results(name):
    """6 random games of up to 40 plies (more where a special move is rare); at every ply the
    same legal move texts (none once a rule has decided the game) and the same position text
    (pyffish.get_fen; every tenth ply Fairy-Stockfish's text also reads back to itself),
    perft 2 at the 20th ply of the first three games (or their last position), and the same
    result as Fairy-Stockfish (none until a rule ends the game; in the steered games, where
    ours ends it and at their last ply).  The games are steered to castle, take en passant, promote,
    drop, promote and demote pieces, and each of those the variant allows must have appeared
    in a move both engines agreed on."""
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    rng = random.Random(name)
    allowed = kinds_allowed(v, parse_position(v, fen))
    seen: set[str] = set()
    results: set = set()
    for game in range(60):
        if game >= FIRST and allowed <= seen:
            break
        pos = parse_position(v, fen)
        moves: list[str] = []
        # pyffish is given the game stepped along, not replayed from the start at every ply: the
        # position after the last move that restarted Fairy-Stockfish's move-rule count (its
        # text's halfmove field 0: its repetition and perpetual-check scans stop there) and the
        # moves since (each pyffish call replays the moves it is given)
        base, tail = fen, []
        plies = 40 if game < FIRST else 120
        for ply in range(plies):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            theirs_fen = pyffish.get_fen(name, base, tail)
            if tail and theirs_fen.split()[-2] == "0":
                base, tail = theirs_fen, []
            theirs = set(pyffish.legal_moves(name, base, tail))
            assert set(ours) == theirs, (name, moves, set(ours) ^ theirs)
            assert format_position(pos) == theirs_fen, (name, moves)
            if ply % 10 == 9:           # and Fairy-Stockfish's text reads back to the same
                assert format_position(parse_position(v, theirs_fen)) == theirs_fen, (name, moves)
            if (ply == 20 or not ours) and game < PERFT_GAMES:
                assert perft(pos, 2) == fsf_perft(name, base, tail, 2), (name, moves)
            r = game_result(pos, [ours[t] for t in ours])
            # the steered games, there to reach the special moves, ask Fairy-Stockfish for the
            # result only where ours ends the game and at their last ply
            if game < FIRST or r is not None or ply == plies - 1:
                expected = fsf_result(name, base, tail, sorted(theirs))
                assert (r[0] if r else None) == expected, (name, moves, r, expected)
            if r is not None:
                results.add(r[1])
                break
            special = [t for t, m in ours.items() if kind_of(pos, m) and kind_of(pos, m) not in seen]
            tactical = [t for t, m in ours.items() if pos.board[m & CELL] or len(t) == 5 or kind_of(pos, m)]
            pawns = [t for t, m in ours.items() if not is_drop(m)
                     and v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1].pawn]
            if special:
                t = rng.choice(sorted(special))
            elif tactical and rng.random() < 0.3:
                t = rng.choice(sorted(tactical))
            elif pawns and {"promotion", "en passant"} & (allowed - seen) and \
                    rng.random() < (0.5 if game < FIRST else 0.9):
                if game >= FIRST and "promotion" not in seen:
                    # a steered game pushes its most advanced pawn on: random pawn moves took
                    # a 9 x 9 board up to 20 games of 120 plies to see a promotion
                    t = max(sorted(pawns), key=lambda t: advance(pos, ours[t]))
                else:
                    t = rng.choice(sorted(pawns))
            else:
                t = rng.choice(sorted(ours))
            kind = kind_of(pos, ours[t])
            if kind:
                seen.add(kind)
            pos.make(ours[t])
            moves.append(t)
            tail.append(t)
    assert allowed <= seen, (name, allowed - seen)


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


@pytest.mark.parametrize("name", sorted(KEYS))
def test_every_section_plays_a_complete_game_through_the_protocol(name, engine):
    """Each section plays to its end at depth 1 in one shared engine process; the referee
    (the core's game_result) and the engine agree on the end (tests/selfplay.py)."""
    game = play_game(name, "uci", engine=engine, ply_cap=1500)
    assert game.result is not None


CUSTOM = Path(__file__).resolve().parent / "data" / "fsf_custom_rules.ini"

# scripted games of the custom sections: (section, start FEN, moves, ends at the last ply)
SCRIPTS = [
    # the start position a third time, White to move: White loses
    ("repwhiteloses", "startpos", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", True),
    # a position a third time with Black to move: Black wins
    ("repwhiteloses", "startpos", "b2b3 g8f6 g1f3 f6g8 f3g1 g8f6 g1f3 f6g8 f3g1", True),
    # twofold repetition wins for the side to move
    ("repwins", "startpos", "b1c3 b8c6 c3b1 c6b8", True),
    # White checks at every move: the third occurrence, White to move, loses for White
    ("noperpetual", "7k/8/8/8/8/8/8/K5R1 w - - 0 1", "g1h1 h8g8 h1g1 g8h8 g1h1 h8g8 h1g1 g8h8", True),
    # the same shuffle without checks is a plain repetition draw
    ("noperpetual", "7k/8/8/8/8/8/8/K5R1 w - - 0 1", "g1g2 h8h7 g2g1 h7h8 g1g2 h8h7 g2g1 h7h8", True),
    # a checkmate is a draw here
    ("noperpetual", "startpos", "f2f3 e7e5 g2g4 d8h4", True),
    # pawn, rook and king moves do not reset the count: the 3-move rule ends the game
    ("shortrule", "4k3/p7/8/8/8/8/P7/R3K2R w - - 0 1", "a2a3 e8d8 a1a2 a7a6 a2a1 d8e8", True),
]


@pytest.fixture(scope="module")
def custom():
    pyffish.load_variant_config(CUSTOM.read_text())
    return variants.load_file(str(CUSTOM))


@pytest.mark.parametrize("i", range(len(SCRIPTS)))
def test_custom_result_keys_give_fairy_stockfishs_results(i, custom):
    """Along each scripted game, after every ply: the same legal moves and the same result
    (nFoldValue, nFoldValueAbsolute, perpetualCheckIllegal, checkmateValue, nMoveRuleTypes)."""
    name, fen, moves, ends = SCRIPTS[i]
    v = variants.get(name)
    fen = pyffish.start_fen(name) if fen == "startpos" else fen
    pos = parse_position(v, fen)
    played: list[str] = []
    results = []
    for t in [""] + moves.split():
        if t:
            pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == t))
            played.append(t)
        legal = sorted(move_text(v, m) for m in legal_moves(pos))
        assert legal == sorted(pyffish.legal_moves(name, fen, played)), (name, played)
        r = game_result(pos)
        expected = fsf_result(name, fen, played, legal)
        assert (r[0] if r else None) == expected, (name, played, r, expected)
        results.append(r)
    assert all(r is None for r in results[:-1]), (name, results)
    assert (results[-1] is not None) == ends, (name, results)


# a triple step leaves the cells it passed that a pawn of the side to move attacks:
# (position before Black's d9d6, the en-passant text after it)
TRIPLE = [
    ("rnbqkbnr/pppppppp/8/2P5/4P3/8/8/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1", "d7d8"),   # both
    ("rnbqkbnr/pppppppp/8/2P5/8/8/8/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1", "d8"),       # the far one
    ("rnbqkbnr/pppppppp/8/8/4P3/8/8/8/PP1P1PPP/RNBQKBNR b KQkq - 0 1", "d7"),       # the near one
    ("rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1", "-"),          # none
]


@pytest.mark.parametrize("i", range(len(TRIPLE)))
def test_a_triple_step_leaves_both_cells_it_passed_for_en_passant(i, custom):
    """After d9d6: Fairy-Stockfish's position text (which reads back to the same text and
    moves), and the same legal moves, taking en passant on each cell written."""
    fen, ep = TRIPLE[i]
    v = variants.get("triplestep")
    pos = parse_position(v, fen)
    pos.make(next(m for m in legal_moves(pos) if move_text(v, m) == "d9d6"))
    text = format_position(pos)
    assert text.split()[3] == ep and text == pyffish.get_fen("triplestep", fen, ["d9d6"])
    legal = {move_text(v, m): m for m in legal_moves(pos)}
    assert set(legal) == set(pyffish.legal_moves("triplestep", fen, ["d9d6"]))
    takes = sorted(t for t, m in legal.items() if m & EP)
    assert sorted(t[2:] for t in takes) == sorted(re.findall(r"[a-z]\d+", ep.replace("-", ""))), takes
    for t in takes:                             # the pawn on d6 is gone
        pos.make(legal[t])
        assert format_position(pos) == pyffish.get_fen("triplestep", fen, ["d9d6", t])
        assert "p" not in format_position(pos).split("/")[4]
        pos.unmake()
    again = parse_position(v, text)
    assert format_position(again) == text
    assert {move_text(v, m) for m in legal_moves(again)} == set(legal)


def test_triple_steps_agree_with_fairy_stockfish_in_random_games(custom):
    """The triplestep section: perft 3 from the start, and along 12 random games steered to
    triple steps and en passant the same legal moves and position text at every ply (each
    text reading back to itself), with en passant taken on both cells a triple step passed."""
    name = "triplestep"
    v = variants.get(name)
    fen = pyffish.start_fen(name)
    assert perft(parse_position(v, fen), 3) == fsf_perft(name, fen, [], 3)
    rng = random.Random(name)
    seen: set[str] = set()
    for _game in range(12):
        pos = parse_position(v, fen)
        moves: list[str] = []
        for _ply in range(50):
            ours = {move_text(v, m): m for m in legal_moves(pos)}
            assert set(ours) == set(pyffish.legal_moves(name, fen, moves)), (moves,)
            text = format_position(pos)
            assert text == pyffish.get_fen(name, fen, moves), moves
            assert format_position(parse_position(v, text)) == text, moves
            if not ours or game_result(pos, list(ours.values())) is not None:
                break
            coords = v.geometry.coords
            triples = [t for t, m in ours.items() if v.piece_types[pos.board[(m >> FROM_SHIFT) & CELL] >> 1].pawn
                       and abs(coords[(m >> FROM_SHIFT) & CELL][1] - coords[m & CELL][1]) == 3]
            eps = [t for t, m in ours.items() if m & EP]
            if eps:
                t = rng.choice(sorted(eps))
                far = v.second_ep_cell(pos) >= 0
                seen.add("en passant after a triple step" if far else "en passant")
            elif triples and rng.random() < 0.6:
                t = rng.choice(sorted(triples))
            else:
                t = rng.choice(sorted(ours))
            pos.make(ours[t])
            moves.append(t)
    assert "en passant after a triple step" in seen, seen


def test_every_result_pawn_and_castling_key_is_exercised_by_a_section():
    """Each key of the result, pawn and castling group appears in a section the tests compare
    with Fairy-Stockfish (this file's KEYS, or the custom sections' scripted games)."""
    from variants.inifile.keys import RESULT_MOVE_KEYS, UNSUPPORTED
    group = (RESULT_MOVE_KEYS | {"checkmateValue", "nFoldValue"}) - UNSUPPORTED
    used = set().union(*KEYS.values())
    for block in CUSTOM.read_text().split("\n[")[1:]:
        used |= {ln.split("=")[0].strip() for ln in block.splitlines()[1:] if "=" in ln}
    assert group - used == set()


# (section, position, its legal moves, its result): pseudo-royal pieces, with pyffish's moves
PSEUDO_ROYAL = [
    # White's queen is attacked: only queen moves off the d-file (d1d8 lands beside the king)
    ("coregal", "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
     "d1a1 d1a4 d1b1 d1b3 d1c1 d1c2 d1e2 d1f3 d1g4 d1h5", None),
    # the attacked queen can neither move nor be shielded: checkmate, White loses
    ("coregal", "rk6/8/8/8/8/8/1P6/QR5K w - - 0 1", "", -1),
    # no queen left is no extinction: the game goes on
    ("coregal", "4k3/8/8/8/8/8/8/3QK3 b - - 0 1", "e8e7 e8f7 e8f8", None),
    # two kings: either may stay attacked, but not both (f8g8, f8g7 are illegal)
    ("spartan", "2k2k2/8/8/8/8/8/8/2R1K1R1 b - - 0 1", "c8b7 c8b8 c8c7 c8d7 c8d8 f8e7 f8e8 f8f7", None),
    # the last king is pseudo-royal: it must leave the attacked file
    ("spartan", "2k5/8/8/8/8/8/8/2R1K3 b - - 0 1", "c8b7 c8b8 c8d7 c8d8", None),
]


@pytest.mark.parametrize("i", range(len(PSEUDO_ROYAL)))
def test_pseudo_royal_pieces_may_not_be_left_attacked(i):
    name, fen, moves, result = PSEUDO_ROYAL[i]
    v = variants.get(name)
    pos = parse_position(v, fen)
    legal = sorted(move_text(v, m) for m in legal_moves(pos))
    assert legal == sorted(moves.split()) == sorted(pyffish.legal_moves(name, fen, []))
    r = game_result(pos)
    assert (r[0] if r else None) == result == fsf_result(name, fen, [], legal)


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
            special = [t for t, m in ours.items() if "@" in t or pos.board[m & CELL]]
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
