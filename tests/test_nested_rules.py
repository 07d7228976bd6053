"""Nested Chess: one named test per special rule ("Special rules" of docs/variants/nested.md)
and per numbered ruling ("Rulings")."""
import pytest
from nested_helpers import cells_of, from_cell, play, setup, texts

import variants
from engine.moves import CELL, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT
from engine.game import game_result
from engine.movegen import in_check, legal_moves
from engine.notation.position_text import PositionTextError, format, parse

A = variants.get("nested-a")
B = variants.get("nested-b")


# ---- board and names -----------------------------------------------------------------------
def test_board_has_141_cells_named_a1_to_q17():
    geo = A.geometry
    assert geo.size == 141
    assert sum(1 for x, y in geo.coords if x % 2 and y % 2) == 64
    for corner in ("a1", "q1", "a17", "q17"):
        assert geo.parse(corner) is None
    assert geo.coords[geo.parse("b4")] == (1, 3)
    assert geo.coords[geo.parse("j8")] == (9, 7)       # FIDE e4
    assert geo.coords[geo.parse("i1")] == (8, 0)
    assert geo.parse("a2") is None                     # mixed parity: not a cell
    assert [len(r) for r in A.notation.layout[0]] == [7] + [8, 9] * 7 + [8, 7]


# ---- special rules ----------------------------------------------------------------------------
def test_edge_ban_along_rank_1():
    pos = parse(A, "3kw2/4f3/9/8/9/8/9/8/9/8/9/8/9/8/9/4F3/3KW2 w 0 1")
    assert "i1g1" not in texts(pos) and "i1k1" not in texts(pos)   # along the edge line
    assert "k1o1" not in texts(pos)                                 # long leap along it
    assert "k1k5" in texts(pos) and "i1h2" in texts(pos)            # leaving it is fine


def test_edge_ban_stops_kings_capturing_along_an_edge():
    pos = setup(A, {"e1": "K", "g1": "k"})
    assert not in_check(pos) and "e1g1" not in texts(pos)


def test_one_foot_rule_knight_only():
    pos = parse(A, "3kw2/4f3/9/8/9/8/9/8/8W/4F3/9/8/4K4/8/9/8/N6 w 0 1")
    assert from_cell(pos, "c1") == ["c1b4", "c1d4"]          # c1f2 banned
    pos = setup(A, {"d2": "N", "i9": "K", "i5": "W", "j8": "F", "i17": "k"})
    assert "d2g1" not in texts(pos)                             # and back
    pos = setup(A, {"b2": "W", "i9": "K", "j8": "F", "i17": "k"})
    assert "b2c1" in texts(pos)                                 # a Waffle may do it


def test_paralysis_freezes_bound_without_fezbaba_and_unbound_without_waffle():
    pos = parse(A, "3k3/4f3/1r7/8/9/8/9/8/9/4E3/3P5/8/9/8/1R7/B7/3KW2 w 0 1")
    moved = {t[:2] if not t[2].isdigit() else t[:3] for t in texts(pos)}
    assert "b2" not in moved and "j8" not in moved              # frozen B and E
    assert {"c3", "g7", "i1", "k1"} <= moved                    # unbound and K/W move
    pos.side = 1
    pos.reset_state()
    assert not any(t.startswith("c15") for t in texts(pos))    # Black has no Waffle


def test_camel_takes_fezbaba_both_vanish_and_exposure_is_illegal():
    pos = parse(A, "3kw2/8/9/8/9/8/9/2f5/6r2/C7/9/4F3/4K4/8/9/8/4W2 w 0 1")
    assert "b8f10" not in texts(pos)                   # own F j6 would vanish: Rook m9 hits i5
    pos = setup(A, {"b8": "C", "f10": "f", "j6": "F", "i1": "K", "k1": "W",
                    "i17": "k", "k17": "w"})
    h = pos.hash
    play(pos, "b8f10")
    assert cells_of(A, pos, "F") == [] and cells_of(A, pos, "f") == []
    assert pos.hash == pos.compute_hash()
    pos.unmake()
    assert cells_of(A, pos, "F") == ["j6"] and pos.hash == h


def test_knight_takes_waffle_both_vanish():
    pos = parse(A, "3k3/4f3/1r7/8/9/8/9/8/9/8/9/8/5w3/3N4/9/4F3/3KW2 w 0 1")
    play(pos, "h4k5")
    assert cells_of(A, pos, "W") == [] and cells_of(A, pos, "w") == []
    assert pos.hash == pos.compute_hash()
    # White's Knight is now frozen, Black's Rook too (both sides lost the Waffle)
    assert not any(t.startswith("c15") for t in texts(pos))


def test_knight_takes_waffle_exposing_own_king_is_illegal():
    # White's Waffle j8 shields King j4 from Black's Bishop j12; Knight c9 x Waffle f10
    # removes it (both Waffles vanish, Black's bound Bishop stays active)
    pos = setup(A, {"j4": "K", "j8": "W", "j12": "b", "c9": "N", "f10": "w",
                    "i17": "k", "j16": "f"})
    assert not in_check(pos) and "c9f10" not in texts(pos)
    # the same capture with an unbound Rook behind the Waffle is legal: it freezes too
    pos = setup(A, {"j4": "K", "l6": "W", "n8": "r", "c9": "N", "f10": "w",
                    "i17": "k", "j16": "f"})
    assert not in_check(pos) and "c9f10" in texts(pos)


def test_one_foot_rule_applies_to_attacks():
    black = {"k1": "W", "j2": "F", "i17": "k", "k17": "w"}
    assert not in_check(setup(A, {"c1": "n", "f2": "K", **black}))     # c1->f2 banned
    assert in_check(setup(A, {"c1": "n", "d4": "K", **black}))         # c1->d4 fine


def test_edge_ban_applies_to_attacks():
    # nested Rooks ride (+-1,+-1) and cannot run along an edge line; the pieces that can
    # are the (0,+-4) leapers and the Variant A Pawn capture
    black = {"k1": "W", "j2": "F", "i17": "k", "k17": "w"}
    assert not in_check(setup(A, {"a5": "a", "a9": "K", **black}))     # Infanta a5->a9
    assert in_check(setup(A, {"c5": "a", "c9": "K", **black}))
    assert not in_check(setup(A, {"a5": "w", "a9": "K", "k1": "W", "j2": "F", "i17": "k"}))
    assert in_check(setup(A, {"c5": "w", "c9": "K", "k1": "W", "j2": "F", "i17": "k"}))
    assert not in_check(setup(A, {"a11": "p", "a9": "K", **black}))    # Pawn a11xa9
    assert in_check(setup(A, {"c11": "p", "c9": "K", **black}))


def test_own_removal_can_give_discovered_check():
    # White's F stands between White's Bishop d8 and Black's King h8; Camel takes f
    pos = setup(A, {"d8": "B", "f8": "F", "h8": "k", "b6": "C", "d10": "f",
                    "i1": "K", "k1": "W", "k17": "w"})
    play(pos, "b6d10")
    # White lost its F, so its Bishop is frozen: no check; Black lost F too
    assert not in_check(pos)
    # with a Rook (unbound, still active) behind the F instead, the removal checks
    pos = setup(A, {"e7": "R", "f8": "F", "h10": "k", "b6": "C", "d10": "f",
                    "i1": "K", "k1": "W", "k17": "w"})
    play(pos, "b6d10")
    assert in_check(pos)


def test_paralysed_piece_gives_no_check():
    pos = parse(A, "3kw2/8/9/8/9/3b4/9/8/9/8/9/3K4/9/8/9/4F3/4W2 w 0 1")
    assert not in_check(pos)
    pos = parse(A, "3kw2/7f/9/8/9/3b4/9/8/9/8/9/3K4/9/8/9/4F3/4W2 w 0 1")
    assert in_check(pos)


def test_checkmate_wins():
    # Waffle b8 checks the King a9 on the edge; c9, b10 and b8 are covered
    pos = parse(A, "7/8/9/8/9/8/9/4B3/k8/W7/9/K7/9/8/4F4/8/7 b 0 1")
    assert in_check(pos) and legal_moves(pos) == []
    assert game_result(pos) == (-1, "checkmate")


def test_stalemate_is_a_draw():
    pos = parse(A, "7/8/9/8/9/8/2R6/2W3K1/k8/4F3/9/8/9/8/9/8/7 b 0 1")
    assert not in_check(pos) and legal_moves(pos) == []
    assert game_result(pos) == (0, "stalemate")


def test_promotion_is_mandatory_in_the_enemy_camp():
    pos = parse(A, "3kw2/4f3/2p6/8/2P3P2/P7/9/8/9/8/9/8/9/8/9/8/3KW2 w 0 1")
    t = texts(pos)
    assert "e13f14" not in t and {"e13f14r", "e13f14n", "e13f14a"} <= set(t)


# ---- numbered rulings -------------------------------------------------------------------------
def test_ruling_01_pawn_row_a_is_y2_nine_pawns():
    pos = parse(A, A.start_fen)
    assert cells_of(A, pos, "P") == sorted(f"{chr(97 + x)}3" for x in range(0, 17, 2))
    assert len(cells_of(A, pos, "p")) == 9


def test_ruling_02_infanta_g1_waffle_k1():
    pos = parse(A, A.start_fen)
    assert cells_of(A, pos, "A") == ["g1"] and cells_of(A, pos, "W") == ["k1"]
    assert cells_of(A, pos, "a") == ["g17"] and cells_of(A, pos, "w") == ["k17"]


def test_ruling_03_variant_b_array():
    pos = parse(B, B.start_fen)
    white = {"W": ["c1"], "A": ["a3"], "N": ["a5", "e1"], "R": ["a7", "g1"], "K": ["c3"],
             "P": ["c5", "c7", "c9", "e3", "e5", "e7", "g3", "g5", "i3"],
             "F": ["b2"], "I": ["d4"], "D": ["b4", "d2"], "C": ["b6", "f2"], "B": ["b8", "h2"],
             "E": ["d10", "d6", "d8", "f4", "f8", "h4", "h6", "j4"]}
    for tok, cells in white.items():
        assert cells_of(B, pos, tok) == sorted(cells), tok


@pytest.mark.parametrize("v", [A, B], ids=["A", "B"])
def test_ruling_04_black_is_the_mirror(v):
    pos = parse(v, v.start_fen)
    geo = v.geometry
    for c, p in enumerate(pos.board):
        if p and p & 1 == 0:
            m = geo.index[v.white_coord(geo.coords[c], 1)]
            assert pos.board[m] == p + 1
    assert sum(1 for p in pos.board if p) == 64


def test_ruling_04_forward_directions():
    # Variant A Black: Pawn moves (+-1,-1), takes (0,-2); Esquire moves (0,-2), takes (+-2,-2)
    pos = setup(A, {"i9": "p", "b12": "e", "i7": "N", "d10": "N", "i1": "K", "k1": "W",
                    "j2": "F", "i17": "k", "k17": "w", "j16": "f"}, "b")
    assert from_cell(pos, "i9") == ["i9h8", "i9i7", "i9j8"]
    assert from_cell(pos, "b12") == ["b12b10", "b12d10"]
    # Variant B Black (frame (x,y) -> (16-y,16-x)): Pawn moves (-1,-1), takes (-2,0),(0,-2);
    # Esquire moves (-2,0),(0,-2), takes (-2,-2)
    pos = setup(B, {"i9": "p", "l12": "e", "g9": "N", "j10": "N", "c3": "K", "c1": "W",
                    "b2": "F", "o15": "k", "q15": "w", "p16": "f"}, "b")
    assert from_cell(pos, "i9") == ["i9g9", "i9h8"]
    assert from_cell(pos, "l12") == ["l12j10", "l12j12", "l12l10"]


def test_ruling_05_zone_is_the_whole_enemy_camp():
    assert len(A.zone[0]) == 32 and len(B.zone[0]) == 40
    # j14 is an enemy Esquire's start cell, not a Pawn's: arriving there promotes
    pos = setup(A, {"i13": "P", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "i13j14r" in texts(pos) and "i13j14" not in texts(pos)
    pos = setup(A, {"i11": "P", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "i11j12" in texts(pos)                      # rank 12 is outside the camp


def test_ruling_06_only_the_far_edge_promotes():
    pos = setup(A, {"b6": "P", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "b6a7" in texts(pos) and not any(t.startswith("b6a7") and len(t) > 4
                                            for t in texts(pos))
    # Variant B: both far edges, including q3..q9 outside the enemy camp
    pos = setup(B, {"p4": "P", "c3": "K", "c1": "W", "b2": "F", "o15": "k"})
    assert {"p4q5r", "p4q5n", "p4q5a"} <= set(texts(pos)) and "p4q5" not in texts(pos)


def test_ruling_07_frozen_bound_pieces_cannot_exploit_a_vanished_fezbaba():
    # Camel takes the Fezbaba: Black's bound Bishop aiming at White's King is frozen now
    pos = setup(A, {"b8": "C", "f10": "f", "j6": "F", "j10": "b", "j4": "K",
                    "k1": "W", "i17": "k", "k17": "w"})
    assert "b8f10" in texts(pos)


def test_ruling_08_edge_ban_is_same_line_only():
    pos = setup(A, {"a9": "R", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    t = from_cell(pos, "a9")
    assert "a9b10" in t and not any(x[2:] in ("a11", "a7", "a13") for x in t)
    pos = setup(A, {"c1": "A", "i9": "K", "k9": "W", "j8": "F", "i17": "k"})
    assert "c1g1" not in texts(pos) and "c1c5" in texts(pos)


def test_ruling_09_one_foot_both_directions_all_edges():
    pos = setup(A, {"b8": "N", "p8": "N", "h16": "N", "i9": "K", "k9": "W", "j8": "F",
                 "i15": "k"})
    t = set(texts(pos))
    assert "b8a5" not in t and "b8a11" not in t           # x1 -> x0
    assert "p8q5" not in t and "p8q11" not in t           # x15 -> x16
    assert "h16g17" not in t and "h16e17" not in t        # y15 -> y16
    assert "b8e9" in t and "p8m7" in t                    # other Knight moves stay


def test_ruling_10_blocking_at_multiples_of_the_step():
    # Dabbarider j8 leaps the vertex k9 but is blocked by the square l10
    pos = setup(A, {"j8": "D", "k9": "p", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "j8l10" in texts(pos)
    pos = setup(A, {"j8": "D", "l10": "p", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "j8l10" in texts(pos) and "j8n12" not in texts(pos)
    # Waffle and Infanta long leaps and the Fezbaba's long diagonal are never blocked
    pos = setup(A, {"i9": "W", "i11": "P", "i1": "K", "j2": "F", "i17": "k"})
    assert "i9i13" in texts(pos)
    pos = setup(A, {"j8": "F", "k9": "P", "i1": "K", "k1": "W", "i17": "k"})
    assert "j8l10" in texts(pos)
    # Rook is blocked by any cell: vertex k9 stops it
    pos = setup(A, {"j8": "R", "k9": "P", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert "j8l10" not in texts(pos)


_KINGS = {"i1": "K", "k1": "W", "j2": "F", "i17": "k"}


def test_ruling_10_bishop_is_blocked_by_the_squares_it_passes():
    t = from_cell(setup(A, {"j8": "B", **_KINGS}), "j8")
    assert "j8n8" in t and "j8p8" in t
    t = from_cell(setup(A, {"j8": "B", "l8": "p", "k9": "p", **_KINGS}), "j8")
    assert "j8l8" in t and "j8n8" not in t and "j8p8" not in t


def test_ruling_10_inquisitor_ride_blocks_its_leap_does_not():
    t = from_cell(setup(A, {"j8": "I", "l8": "p", "k9": "P", **_KINGS}), "j8")
    assert "j8l8" in t and "j8n8" not in t          # Bishop part stops at l8
    assert "j8l10" in t                              # (2,2) leap over the vertex k9
    assert "j8n12" not in t                          # the leap does not repeat


def test_ruling_10_infanta_ride_blocks_its_long_leap_does_not():
    t = from_cell(setup(A, {"i9": "A", "i11": "P", "j10": "p", **_KINGS}), "i9")
    assert "i9i13" in t                              # (0,4) leap over i11
    assert "i9j10" in t and "i9k11" not in t         # Rook part stops at j10
    assert "i9e9" in t and "i9a9" not in t           # the leap does not repeat


def test_ruling_10_camel_and_knight_leaps_are_never_blocked():
    crowd = {c: "P" for c in ("k9", "l8", "l10", "m9", "i9", "j10", "h8", "h10", "i7")}
    t = from_cell(setup(A, {"j8": "C", **crowd, **_KINGS}), "j8")
    assert {"j8n10", "j8n6", "j8f10", "j8f6", "j8l12", "j8h12", "j8l4", "j8h4"} <= set(t)
    crowd = {c: "P" for c in ("h8", "j8", "h10", "j10", "g9", "k9", "i7", "i11")}
    t = from_cell(setup(A, {"i9": "N", **crowd, **_KINGS}), "i9")
    assert t == ["i9f10", "i9f8", "i9h12", "i9h6", "i9j12", "i9j6", "i9l10", "i9l8"]


def test_ruling_11_fezbaba_on_a_vertex_reactivates_bound_pieces():
    pos = setup(A, {"h14": "P", "d2": "B", "i1": "K", "k1": "W", "e17": "k"})
    assert not any(t.startswith("d2") for t in texts(pos))      # frozen without F
    play(pos, "h14i15f")
    assert "e17d16" not in texts(pos)          # the reactivated Bishop d2 covers d16
    play(pos, "e17f16")
    assert any(t.startswith("d2") for t in texts(pos))          # F on a vertex counts
    assert any(t.startswith("i15") for t in texts(pos))         # and moves from there


def test_ruling_12_promotion_choices():
    pos = parse(A, "3kw2/4f3/2p6/8/2P3P2/P7/9/8/9/8/9/8/9/8/9/8/3KW2 w 0 1")
    t = texts(pos)
    assert {x[-1] for x in t if x.startswith("e13f14")} == {"r", "n", "a", "f"}
    # on an edge line the extra F is not offered (White has no Fezbaba here):
    # b14a15 ends on the edge line x=0, b14c15 does not
    pos = setup(A, {"b14": "P", "i1": "K", "k1": "W", "i17": "k"})
    t = texts(pos)
    assert {x[6:] for x in t if x.startswith("b14a15")} == {"r", "n", "a"}
    assert {x[6:] for x in t if x.startswith("b14c15")} == {"r", "n", "a", "f"}
    # Variant B: p4q5 lands on the far edge x=16 (a real promotion cell there)
    pos = setup(B, {"p4": "P", "c3": "K", "c1": "W", "o15": "k"})
    assert {x[4:] for x in texts(pos) if x.startswith("p4q5")} == {"r", "n", "a"}
    pos = parse(A, "3kw2/4f3/9/3e4/9/2E5/9/8/9/8/9/8/9/8/9/4F3/3K3 w 0 1")
    t = texts(pos)
    assert {x[-1] for x in t if x.startswith("f12f14")} == {"b", "c", "d", "i", "w"}
    pos = setup(A, {"f12": "E", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert {x[-1] for x in texts(pos) if x.startswith("f12f14")} == {"b", "c", "d", "i"}
    pos = setup(A, {"f14": "P", "i1": "K", "k1": "W", "j2": "F", "i17": "k"})
    assert {x[-1] for x in texts(pos) if x.startswith("f14g15")} == {"r", "n", "a"}


def test_ruling_13_threefold_repetition_and_fifty_moves():
    pos = setup(A, {"i1": "K", "k1": "W", "j2": "F", "i17": "k", "k17": "w", "j16": "f"})
    for _ in range(2):
        play(pos, "i1h2", "i17h16", "h2i1", "h16i17")
    assert game_result(pos) == (0, "repetition")
    fen = "3kw2/4f3/9/8/9/8/9/8/9/8/9/8/9/8/9/4F3/3KW2 w 99 80"
    pos = parse(A, fen)
    assert game_result(pos) is None
    play(pos, "i1h2")
    assert game_result(pos) == (0, "50-move rule")
    pos = parse(A, "3kw2/4f3/9/8/9/8/9/8/9/8/9/8/9/8/9/1E2F3/3KW2 w 99 80")
    play(pos, "d2d4")                                  # an Esquire move resets the clock
    assert pos.halfmove == 0


def test_ruling_14_promoting_capture_is_judged_by_the_piece_before():
    pos = parse(A, "3k3/4f3/5w3/8/5P3/8/9/8/9/8/9/4F3/5W3/8/9/8/3K3 w 0 1")
    play(pos, "k13k15n")
    assert cells_of(A, pos, "W") == ["k5"] and cells_of(A, pos, "N") == ["k15"]
    pos = setup(A, {"f12": "E", "h14": "f", "j2": "F", "i1": "K", "k1": "W", "i17": "k"})
    play(pos, "f12h14c")
    assert cells_of(A, pos, "F") == ["j2"] and cells_of(A, pos, "C") == ["h14"]


def test_position_validation():
    with pytest.raises(PositionTextError):
        parse(A, "3kw2/4f3/9/8/9/8/9/8/9/8/9/8/9/8/9/4F3/4W2 w 0 1")       # no White King
    with pytest.raises(PositionTextError):
        parse(A, "3kw2/4f3/9/8/9/8/9/8/9/8/9/8/9/8/9/3FF3/3KW2 w 0 1")     # two Fezbabas


def test_eval_terms_see_frozen_material():
    full = parse(A, A.start_fen)
    assert A.eval_terms(full) == 0
    no_f = parse(A, A.start_fen.replace("BCDIFDCB", "BCDI1DCB"))
    assert A.eval_terms(no_f) < -1000                  # the whole bound army is frozen
    no_f.side = 1
    no_f.reset_state()
    assert A.eval_terms(no_f) > 1000


def _brute_legal(pos):
    """Reference legality without attack tables or pins: make every move, then ask whether
    any enemy move that is not paralysed lands on the King."""
    v = pos.variant
    from engine.movegen import pseudo_moves

    def active(p, b):
        need = v.need[p]
        return not ((need == 1 and v.fcode[p & 1] not in b) or
                    (need == 2 and v.wcode[p & 1] not in b))

    b = pos.board
    side = pos.side
    out = []
    for m in pseudo_moves(pos):
        if not active(b[(m >> FROM_SHIFT) & CELL], b):
            continue
        pt = (m >> TYPE_SHIFT) & TYPE_MASK
        if (pt == v.tid["F"] and v.fcode[side] in b) or (pt == v.tid["W"] and v.wcode[side] in b):
            continue
        pos.make(m)
        k = pos.king[side]
        if not any((r & CELL) == k and active(b[(r >> FROM_SHIFT) & CELL], b) for r in pseudo_moves(pos)):
            out.append(m)
        pos.unmake()
    return sorted(out)


@pytest.mark.parametrize("v", [A, B], ids=["A", "B"])
def test_fast_legality_matches_brute_force_in_random_games(v):
    import random
    rnd = random.Random(11)
    checked = 0
    for _game in range(6):
        pos = parse(v, v.start_fen)
        for _ply in range(90):
            legal = legal_moves(pos)
            assert sorted(legal) == _brute_legal(pos), format(pos)
            checked += 1
            if not legal:
                break
            caps = [m for m in legal if pos.board[m & CELL]]
            pos.make(rnd.choice(caps) if caps and rnd.random() < 0.7 else rnd.choice(legal))
    assert checked > 300
