"""Nested Chess B's special rules (docs/variants/nested.md, "Special rules"), each on a
position of its own with the moves or the result stated: the edge ban and the one-foot rule
(for both colours, Black to move in half of them), paralysis and the double disappearance.
Variant B's Black moves in the frame reflected in the anti-diagonal, so its forward-only
pieces and its promotion edges differ from A's; the rules below hold for every piece."""
from __future__ import annotations

from nested_helpers import cells_of, from_cell, play, setup, texts

import variants
from engine.movegen import in_check

B = variants.get("nested-b")


def test_edge_ban_white_king_on_the_x0_edge():
    # King a5 on the edge line x = 0: a3 and a7 are on the same line, so only b4 b6 c5
    pos = setup(B, {"a5": "K", "q13": "k"})
    assert from_cell(pos, "a5") == ["a5b4", "a5b6", "a5c5"]


def test_edge_ban_black_king_on_the_y16_edge():
    # Black to move, King e17 on y = 16: c17 and g17 are banned, d16 e15 f16 remain
    pos = setup(B, {"e17": "k", "a5": "K"}, "b")
    assert from_cell(pos, "e17") == ["e17d16", "e17e15", "e17f16"]


def test_edge_ban_binds_attacks_too():
    # a Black Infanta on a9 (edge x = 0) would reach a5 with its (0,-4) leap, but both ends
    # lie on the edge line: the White King on a5 is not in check; one cell in, on c5 it is
    black = {"a9": "a", "o15": "w", "q13": "k"}
    assert not in_check(setup(B, {"a5": "K", **black}))
    assert in_check(setup(B, {"c5": "K", "c9": "a", "o15": "w", "q13": "k"}))


def test_one_foot_rule_white_knight_on_the_y0_edge():
    # Knight c1 with its Waffle on board: f2 would go from y = 0 to y = 1, banned
    pos = setup(B, {"c1": "N", "i9": "K", "i5": "W", "q13": "k"})
    assert from_cell(pos, "c1") == ["c1b4", "c1d4"]


def test_one_foot_rule_black_knight_on_the_x16_edge():
    # Black to move: Knight q9 (x = 16) may not go to p6 or p12 (x = 15); n8 and n10 remain
    pos = setup(B, {"q9": "n", "o15": "w", "i9": "K", "c3": "k"}, "b")
    assert from_cell(pos, "q9") == ["q9n10", "q9n8"]


def test_paralysis_without_fezbaba_and_without_waffle():
    # White has its Waffle but no Fezbaba: Bishop e5 and Camel h8 are frozen, Rook d8 moves.
    # Black has its Fezbaba but no Waffle: Black's Rook n10 is frozen, its Bishop m13 moves.
    army = {"c3": "K", "k3": "W", "e5": "B", "h8": "C", "d8": "R",
            "o15": "k", "o11": "f", "n10": "r", "m13": "b"}
    pos = setup(B, army)
    assert from_cell(pos, "e5") == [] and from_cell(pos, "h8") == []
    assert from_cell(pos, "d8") != []
    pos = setup(B, army, "b")
    assert from_cell(pos, "n10") == [] and from_cell(pos, "m13") != []
    # give White its Fezbaba back and the Bishop and Camel move again
    assert from_cell(setup(B, {**army, "o3": "F"}), "e5") != []


def test_camel_takes_fezbaba_and_both_fezbabas_vanish():
    pos = setup(B, {"e5": "C", "i7": "f", "o3": "F", "c3": "K", "k3": "W",
                    "o15": "k", "q11": "w"})
    assert "e5i7" in texts(pos)
    h = pos.hash
    play(pos, "e5i7")
    assert cells_of(B, pos, "F") == [] and cells_of(B, pos, "f") == []
    assert cells_of(B, pos, "C") == ["i7"]
    assert pos.hash == pos.compute_hash()
    # the White Camel is now frozen (no Fezbaba): after a Black King move it has no move
    play(pos, next(t for t in texts(pos) if t.startswith("o15")))
    assert from_cell(pos, "i7") == []
    pos.unmake()
    pos.unmake()
    assert cells_of(B, pos, "F") == ["o3"] and pos.hash == h


def test_black_knight_takes_waffle_and_both_waffles_vanish():
    # Black to move: Knight h10 takes the White Waffle on k9 ((+3,-1)); Black's Waffle on
    # o15 vanishes with it, so afterwards Black's Rook n12 is frozen and cannot move
    pos = setup(B, {"h10": "n", "k9": "W", "o15": "w", "n12": "r", "q13": "k",
                    "c3": "K", "e3": "F"}, "b")
    assert "h10k9" in texts(pos)
    play(pos, "h10k9")
    assert cells_of(B, pos, "W") == [] and cells_of(B, pos, "w") == []
    play(pos, "c3d4")                            # White's reply
    assert from_cell(pos, "n12") == [] and from_cell(pos, "k9") == []
