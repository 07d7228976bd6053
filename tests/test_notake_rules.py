"""Notake Shogi rules: one named test per numbered ruling of docs/variants/notake.md, "Rulings",
plus move text in both dialects, position text, make/unmake and hash integrity, and the check test compared
with the move generator itself (a King is in check iff an enemy acting move acts on it)."""
import random

import pytest

import variants
from engine.game import game_result
from engine.movegen import in_check, legal_moves, pseudo_moves
from engine.moves import SPECIAL, acted_of, from_of, ptype_of, to_of
from engine.position import Position
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, code_token, format, parse

FORMS = ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def setup(form, sfen=START):
    v = variants.get(f"notake-{form}")
    return v, parse(v, sfen, "sfen")


def texts(v, pos, dialect="usi"):
    return {move_text(v, m, dialect) for m in legal_moves(pos)}


def play(v, pos, *moves):
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t, "usi"))


def at(v, pos, name):
    """Token on a USI cell ('' when empty)."""
    c = pos.board[v.geometry.parse(name, "usi")]
    return code_token(v, c) if c else ""


def acting(v, pos):
    return sorted(move_text(v, m, "usi") for m in legal_moves(pos) if m & SPECIAL)


# ---- rulings (docs/variants/notake.md, "Rulings") -------------------------------------------

def test_ruling_01_acting_is_optional():
    v, pos = setup("approach", "4k4/4s4/9/3+p5/4R4/3G5/9/9/4K4 b - 1")      # N1
    t = texts(v, pos)
    assert {"5e5c", "5e5c,5b", "6f6e", "6f6e,6d"} <= t
    v, pos = setup("tow", "4k4/9/9/9/8L/8p/3N5/9/2s1K4 b - 1")             # N5
    assert {"1e1d", "1e1d,1f", "6g5e", "6g5e,7i"} <= texts(v, pos)


def test_ruling_02_exactly_one_acted_piece_no_chains():
    # approach: R 5h meets the chain p 5c / s 5b; only the first piece is acted on
    v, pos = setup("approach", "4k4/4s4/4p4/9/9/9/9/4R4/K8 b - 1")
    assert [t for t in acting(v, pos) if t.startswith("5h")] == ["5h5d,5c"]
    play(v, pos, "5h5d,5c")
    assert (at(v, pos, "5c"), at(v, pos, "5b")) == ("P", "s")
    # every acting move of every form changes exactly the cells of mover + one piece
    for form in FORMS:
        v, pos = setup(form)
        rng = random.Random(form)
        for _ in range(12):
            for m in legal_moves(pos):
                if not m & SPECIAL:
                    continue
                before = pos.board[:]
                pos.make(m)
                changed = [c for c in range(81) if pos.board[c] != before[c]]
                assert sum(1 for p in pos.board if p) == sum(1 for p in before if p)
                assert len(changed) == (1 if form == "rifle" else 3), move_text(v, m, "usi")
                pos.unmake()
            pos.make(rng.choice(legal_moves(pos)))


def test_ruling_03_unit_step_for_rides_one_more_leap_for_knights():
    v, pos = setup("approach", "4k4/9/9/5s3/9/9/9/3N5/4K4 b - 1")          # N2
    assert "6h5f,4d" in texts(v, pos)
    # withdraw: the acted cell is one unit behind the rider's start, never further away
    v, pos = setup("withdraw", "4k4/9/9/9/4R4/4p4/9/9/K8 b - 1")
    acts = [m for m in legal_moves(pos) if m & SPECIAL]
    assert acts and {acted_of(m) for m in acts} == {v.geometry.parse("5f", "usi")}
    assert {move_text(v, m, "usi") for m in acts} == {"5e5d,5f", "5e5c,5f", "5e5c+,5f",
                                                         "5e5b,5f", "5e5b+,5f"}
    v, pos = setup("withdraw", "4k4/9/9/9/4R4/9/4p4/9/K8 b - 1")
    assert acting(v, pos) == []


def test_ruling_04_withdraw_and_tow_need_a_plain_move_first():
    for form in ("withdraw", "tow"):
        v, pos = setup(form)
        assert acting(v, pos) == ["2g2f,2h", "8g8f,8h"]
        # P 5e is blocked by p 5d: no plain move, so no action on b 5f behind it
        v, pos = setup(form, "4k4/9/9/4p4/4P4/4b4/9/9/K8 b - 1")
        assert not [m for m in legal_moves(pos) if from_of(m) == v.geometry.parse("5e", "usi")]


def test_ruling_05_shunt_never_pushes_off_the_board_or_into_a_piece():
    v, pos = setup("shunt", "4k4/4s4/4p4/9/9/9/9/9/K3R3r b - 1")
    assert acting(v, pos) == []            # r 1i backed by the edge, p 5c backed by s 5b
    v, pos = setup("shunt", "4k4/9/4p4/9/9/9/9/9/K3R3r b - 1")
    assert "5i5c,5c" in acting(v, pos)
    play(v, pos, "5i5c,5c")
    assert (at(v, pos, "5c"), at(v, pos, "5b")) == ("R", "P")


def test_ruling_06_overtake_continues_with_the_same_movement():
    v, pos = setup("overtake", "4k4/9/3S5/2+r6/4n4/9/9/4R4/K8 b - 1")        # N6
    acts = acting(v, pos)
    assert {"5h5d,5e", "5h5c,5e", "5h5b,5e"} <= set(acts)        # ride: any distance
    assert [t for t in acts if t.startswith("6c")] == ["6c8e,7d"]   # step: one more step
    # own pieces can be jumped only if actable, and are then promoted
    v, pos = setup("overtake", "4k4/9/9/9/4G4/9/4R4/9/K8 b - 1")
    assert acting(v, pos) == []
    v, pos = setup("overtake", "4k4/9/9/9/4P4/9/4R4/9/K8 b - 1")
    assert {"5g5d,5e", "5g5c,5e", "5g5c+,5e", "5g5b+,5e"} <= set(acting(v, pos))
    play(v, pos, "5g5d,5e")
    assert (at(v, pos, "5e"), at(v, pos, "5d")) == ("+P", "R")


def test_ruling_07_rifle_targets_are_shogi_captures_plus_own_promotables():
    v, pos = setup("rifle", "4k4/9/7b1/4+s4/4P4/9/9/7R1/4K4 b - 1")          # N7
    assert {"2h2h,2c", "5e5e,5d"} <= set(acting(v, pos))
    v, pos = setup("rifle")
    acts = acting(v, pos)
    assert [t for t in acts if t.startswith("2h")] == ["2h2h,2g", "2h2h,2i", "2h2h,8h"]
    assert [t for t in acts if t.startswith("6i")] == ["6i6i,7i"]   # not the own King 5i
    assert not [t for t in acts if t.startswith("5i")]              # own Golds not actable


def test_ruling_08_recruit_and_demote_keep_type_cell_and_status():
    v, pos = setup("approach", "4k4/4s4/9/3+p5/4R4/3G5/9/9/4K4 b - 1")      # N1
    play(v, pos, "5e5c,5b")
    assert at(v, pos, "5b") == "S"                  # recruited, still unpromoted, same cell
    v, pos = setup("approach", "4k4/4s4/9/3+p5/4R4/3G5/9/9/4K4 b - 1")
    play(v, pos, "6f6e,6d")
    assert at(v, pos, "6d") == "p"                  # demoted, still Gote's
    v, pos = setup("shunt", "4k4/9/9/4g4/9/4R4/2P6/1B7/4K4 b - 1")          # N4
    play(v, pos, "5f5d,5d")
    assert (at(v, pos, "5d"), at(v, pos, "5c")) == ("R", "G")
    v, pos = setup("shunt", "4k4/9/9/4g4/9/4R4/2P6/1B7/4K4 b - 1")
    play(v, pos, "8h7g,7g")
    assert (at(v, pos, "7g"), at(v, pos, "6f")) == ("B", "+P")
    v, pos = setup("tow", "4k4/9/9/9/8L/8p/3N5/9/2s1K4 b - 1")             # N5
    play(v, pos, "6g5e,7i")
    assert (at(v, pos, "5e"), at(v, pos, "6g"), at(v, pos, "7i")) == ("N", "S", "")


def test_ruling_09_king_and_gold_recruited_never_promoted():
    v, pos = setup("approach", "4k4/9/9/9/9/9/4G4/9/K3R4 b - 1")
    acts = acting(v, pos)
    assert not [t for t in acts if t.startswith("5i")]   # own G 5g and own K 9i: not actable
    v, pos = setup("shunt", "4k4/9/9/4g4/9/4R4/2P6/1B7/4K4 b - 1")
    play(v, pos, "5f5d,5d")
    assert at(v, pos, "5c") == "G"                       # enemy Gold recruited
    # an enemy King would be recruited the same way: that is exactly what check means
    v, pos = setup("shunt", "k8/9/9/4r4/4K4/9/9/9/9 b - 1")                 # N9
    assert in_check(pos, 0) and brute_in_check(pos, 0)   # Gote's r 5d5e,5e acts on K 5e


def test_ruling_10_silver_rule_for_acting_moves_only():
    v, pos = setup("overtake", "4k4/9/3S5/2+r6/4n4/9/9/4R4/K8 b - 1")        # N6
    t = texts(v, pos)
    assert "6c8e,7d" in t and "6c8e+,7d" not in t        # starts in the zone, still no +
    v, pos = setup("withdraw", "8k/2P3p2/3S5/9/9/9/9/9/K8 b - 1")           # N11
    t = texts(v, pos)
    assert {"6c5d+,7b", "6c5d,7b", "6c7d+"} <= t         # acted cell in zone; plain as shogi
    # the acted cell never enables promotion
    v, pos = setup("approach", "4k4/9/4s4/9/9/4R4/9/9/K8 b - 1")
    t = texts(v, pos)
    assert "5f5d,5c" in t and "5f5d+,5c" not in t


def test_ruling_11_rifle_never_promotes():
    v, pos = setup("rifle", "4k4/4p4/4R4/9/9/9/9/9/K8 b - 1")
    t = texts(v, pos)
    assert "5c5c,5b" in t and "5c5c+,5b" not in t
    assert all(ptype_of(m) == 0 and from_of(m) == to_of(m)
               for m in legal_moves(pos) if m & SPECIAL)


def test_ruling_12_forced_promotion_of_the_mover_dead_pieces_allowed():
    v, pos = setup("tow", "4k4/9/9/9/8L/8p/3N5/9/2s1K4 b - 1")              # N5
    t = texts(v, pos)
    assert "1e1a+,1f" in t and "1e1a,1f" not in t and "1e1a" not in t
    v, pos = setup("approach", "4k3p/9/9/8L/9/9/9/9/K8 b - 1")
    assert {"1d1b,1a", "1d1b+,1a"} <= texts(v, pos)
    play(v, pos, "1d1b,1a")
    assert at(v, pos, "1a") == "P"                       # a recruited Pawn that cannot move
    assert legal_moves(pos)
    v, pos = setup("approach", "P3k4/9/9/9/9/9/9/9/K8 b - 1")   # such a position is legal text
    assert not [m for m in legal_moves(pos) if from_of(m) == v.geometry.parse("9a", "usi")]


def test_ruling_13_check_ignores_pins_of_the_attacker():
    # Gote's r 5c is pinned by R 5g (approach: it would uncover k 5a) yet checks K 8c
    v, pos = setup("approach", "4k4/9/1K2r4/9/9/9/4R4/9/9 b - 1")
    assert in_check(pos)
    for m in legal_moves(pos):
        pos.make(m)
        assert not in_check(pos, 0)
        pos.unmake()


def test_ruling_14_any_legal_move_may_escape_check():
    v, pos = setup("shunt", "k8/9/9/4r4/4K4/9/9/9/9 b - 1")                 # N9
    assert in_check(pos) and "5e5d,5d" in texts(v, pos)
    v, pos = setup("approach", "k3r4/9/3G5/9/4K4/9/9/9/9 b - 1")
    assert in_check(pos)
    t = texts(v, pos)
    assert {"6c5c", "6c5b"} <= t                         # a block also escapes
    assert "5e5d" not in t and "5e5f" not in t


def test_ruling_15_stalemate_is_a_draw():
    sfen = "K8/8r/9/9/4k4/9/9/9/1r7 b - 1"
    v, pos = setup("rifle", sfen)
    assert not legal_moves(pos) and not in_check(pos)
    assert game_result(pos) == (0, "stalemate")
    shogi = variants.get("shogi")
    assert game_result(parse(shogi, sfen, "sfen"))[0] == -1    # unlike shogi


def test_ruling_16_fourfold_repetition_and_perpetual_check():
    v, pos = setup("rifle", "4k4/9/9/9/9/9/9/9/K8 b - 1")
    cycle = ["9i9h", "5a5b", "9h9i", "5b5a"]
    for i in range(12):
        assert game_result(pos) is None
        play(v, pos, cycle[i % 4])
    assert game_result(pos) == (0, "repetition")
    # Gote checks with every move of the cycle: at the fourth occurrence Gote loses
    v, pos = setup("rifle", "4k4/9/9/9/9/9/9/7r1/K8 w - 1")
    cycle = ["2h2i", "9i9h", "2i2h", "9h9i"]
    for i in range(12):
        assert game_result(pos) is None
        play(v, pos, cycle[i % 4])
    assert pos.side == 1 and game_result(pos) == (-1, "perpetual check")


def test_ruling_17_no_hands():
    v = variants.get("notake-approach")
    with pytest.raises(PositionTextError, match="no hands"):
        parse(v, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1", "sfen")
    with pytest.raises(PositionTextError, match="no hands"):
        parse(v, "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[p] w 0 1")
    pos = parse(v, START, "sfen")
    assert format(pos, "sfen") == START
    assert format(parse(v, v.start_fen)) == v.start_fen          # UCI text keeps `[-]`
    assert not [m for m in pseudo_moves(pos) if from_of(m) < 0]


# ---- notation, position text, searcher support ------------------------------------------------

def test_move_text_usi_and_uci_dialects():
    cases = [("approach", "7i6h,5g", "c1d2,e3"), ("overtake", "2h2e,2g", "h2h5,h3"),
             ("rifle", "2h2h,2g", "h2h2,h3"), ("shunt", "2h2g,2g", "h2h3,h3")]
    for form, usi, uci in cases:
        v, pos = setup(form)
        legal = legal_moves(pos)
        m = parse_move(v, legal, usi, "usi")
        assert move_text(v, m, "uci") == uci
        assert parse_move(v, legal, uci, "uci") == m
    for form in FORMS:                      # every text round-trips in both dialects
        v, pos = setup(form, "4k4/4s4/9/3+p5/4R4/3G5/2P6/1B7/4K4 b - 1")
        legal = legal_moves(pos)
        for m in legal:
            for d in ("usi", "uci"):
                assert parse_move(v, legal, move_text(v, m, d), d) == m


def test_side_not_to_move_in_check_is_refused():
    setup("shunt", "k8/9/9/4r4/4K4/9/9/9/9 b - 1")          # N9: the side to move is in check
    with pytest.raises(PositionTextError, match="not to move is in check"):
        setup("shunt", "K8/9/9/4R4/4k4/9/9/9/9 b - 1")      # Gote in check, Sente to move


def test_is_tactical_marks_exactly_the_acting_moves():
    for form in FORMS:
        v, pos = setup(form)
        for m in legal_moves(pos):
            assert v.is_tactical(pos, m) == bool(m & SPECIAL)


def brute_in_check(pos, side):
    """Does the other side have a pseudo-legal acting move on `side`'s King?"""
    k = pos.king[side]
    saved = pos.side
    pos.side = side ^ 1
    try:
        return any(m & SPECIAL and acted_of(m) == k for m in pseudo_moves(pos))
    finally:
        pos.side = saved


def full_filter(pos):
    side = pos.side
    out = []
    for m in pseudo_moves(pos):
        pos.make(m)
        if not in_check(pos, side):
            out.append(m)
        pos.unmake()
    return out


@pytest.mark.parametrize("form", FORMS)
def test_make_unmake_hash_and_check_agree_with_the_generator(form):
    v, pos = setup(form)
    rng = random.Random(1000 + FORMS.index(form))
    for _ply in range(100):
        for side in (0, 1):
            assert in_check(pos, side) == brute_in_check(pos, side)
        board, occ, king, h = pos.board[:], [set(o) for o in pos.occ], pos.king[:], pos.hash
        legal = legal_moves(pos)
        assert sorted(legal) == sorted(full_filter(pos))   # the shortcut of legal_moves is exact
        for m in legal:
            pos.make(m)
            assert pos.hash == pos.compute_hash()
            assert pos.occ == [{c for c, p in enumerate(pos.board) if p and p & 1 == s}
                               for s in (0, 1)]
            pos.unmake()
            assert (pos.board, pos.occ, pos.king, pos.hash) == (board, occ, king, h)
        if game_result(pos, legal) is not None:
            break
        acts = [m for m in legal if m & SPECIAL]
        pos.make(rng.choice(acts if acts and rng.random() < 0.5 else legal))


@pytest.mark.parametrize("form", FORMS)
def test_check_and_legality_on_random_sparse_positions(form):
    """Kings among a few random pieces: many checks, demotions and pins to get wrong."""
    v = variants.get(f"notake-{form}")
    rng = random.Random(7 + FORMS.index(form))
    tokens = [t for t in v.by_token if t != "K"]
    done = checks = 0
    while done < 150:
        pos = Position(v)
        cells = rng.sample(range(81), 12)
        pos.board[cells[0]] = v.by_token["K"].id * 2
        pos.board[cells[1]] = v.by_token["K"].id * 2 + 1
        for c in cells[2:2 + rng.randrange(4, 11)]:
            pos.board[c] = v.by_token[rng.choice(tokens)].id * 2 + rng.randrange(2)
        pos.side = rng.randrange(2)
        pos.reset_state()
        if in_check(pos, pos.side ^ 1):
            continue                           # not a position of the game
        done += 1
        for _ in range(3):
            for side in (0, 1):
                assert in_check(pos, side) == brute_in_check(pos, side)
            checks += in_check(pos)
            legal = legal_moves(pos)
            assert sorted(legal) == sorted(full_filter(pos))
            if not legal:
                break
            pos.make(rng.choice(legal))
    assert checks > 20


# ---- two more positions each for tow, overtake and rifle (moves worked out by hand) ----------
def test_tow_rook_pulls_an_enemy_pawn_and_recruits_it():
    # R 5e moves up the file; the piece behind it (p 5f, s - u) is pulled into 5e and changes
    # sides.  Every upward plain move tows, with the promotion choice inside the zone.
    v, pos = setup("tow", "8k/9/9/9/4R4/4p4/9/9/K8 b - 1")
    assert [t for t in acting(v, pos) if t.startswith("5e")] == [
        "5e5a+,5f", "5e5a,5f", "5e5b+,5f", "5e5b,5f", "5e5c+,5f", "5e5c,5f", "5e5d,5f"]
    play(v, pos, "5e5d,5f")
    assert (at(v, pos, "5d"), at(v, pos, "5e"), at(v, pos, "5f")) == ("R", "P", "")


def test_tow_silver_demotes_an_enemy_horse_which_stays_the_enemys():
    # S 5e: only its straight step 5d has a piece behind it (+b 5f); the Horse is pulled into
    # 5e, loses its promotion and stays Gote's
    v, pos = setup("tow", "8k/9/9/9/4S4/4+b4/9/9/K8 b - 1")
    assert [t for t in acting(v, pos) if t.startswith("5e")] == ["5e5d,5f"]
    play(v, pos, "5e5d,5f")
    assert (at(v, pos, "5d"), at(v, pos, "5e"), at(v, pos, "5f")) == ("S", "b", "")


def test_overtake_knight_jumps_one_more_leap_and_must_promote():
    # N 5e leaps to 4c where p stands, so it lands one Knight leap further, on 3a, where a
    # Knight must promote: the one acting move is 5e3a+,4c; the Pawn becomes Sente's
    v, pos = setup("overtake", "8k/9/5p3/9/4N4/9/9/9/K8 b - 1")
    assert [t for t in acting(v, pos) if t.startswith("5e")] == ["5e3a+,4c"]
    play(v, pos, "5e3a+,4c")
    assert (at(v, pos, "3a"), at(v, pos, "4c"), at(v, pos, "5e")) == ("+N", "P", "")


def test_overtake_gote_lance_rides_on_past_the_piece_it_jumps():
    # Gote to move: l 5b jumps P 5e and may land on any empty cell beyond (5f-5i); Gote's zone
    # is ranks g-i, and a Lance on 5i must promote
    v, pos = setup("overtake", "k8/4l4/9/9/4P4/9/9/9/8K w - 1")
    assert [t for t in acting(v, pos) if t.startswith("5b")] == [
        "5b5f,5e", "5b5g+,5e", "5b5g,5e", "5b5h+,5e", "5b5h,5e", "5b5i+,5e"]
    play(v, pos, "5b5h,5e")
    assert (at(v, pos, "5h"), at(v, pos, "5e"), at(v, pos, "5b")) == ("l", "p", "")


def test_rifle_gote_rook_recruits_and_promotes_without_moving():
    # Gote to move: r 5b would capture P 3b and G 5e in shogi (both recruited) and sees its
    # own p 7b along the rank (promoted); 5a above is empty
    v, pos = setup("rifle", "k8/2p1r1P2/9/9/4G4/9/9/9/8K w - 1")
    assert [t for t in acting(v, pos) if t.startswith("5b")] == ["5b5b,3b", "5b5b,5e", "5b5b,7b"]
    play(v, pos, "5b5b,5e")
    assert (at(v, pos, "5b"), at(v, pos, "5e")) == ("r", "g")


def test_rifle_bishop_demotes_a_dragon_and_promotes_its_own_silver():
    # B 7g sees +r 3c up one diagonal (demoted, stays Gote's) and its own S 8h down the
    # other (promoted where it stands)
    v, pos = setup("rifle", "k8/9/6+r2/9/9/9/2B6/1S7/4K4 b - 1")
    assert [t for t in acting(v, pos) if t.startswith("7g")] == ["7g7g,3c", "7g7g,8h"]
    play(v, pos, "7g7g,3c")
    assert (at(v, pos, "7g"), at(v, pos, "3c")) == ("B", "r")
    v, pos = setup("rifle", "k8/9/6+r2/9/9/9/2B6/1S7/4K4 b - 1")
    play(v, pos, "7g7g,8h")
    assert at(v, pos, "8h") == "+S"
