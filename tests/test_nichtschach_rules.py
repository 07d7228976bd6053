"""Flipped-return Nichtschach: one named test per ruling of docs/variants/nichtschach.md,
"Rulings" (#1-#14, #22-#25), plus notation round trips and the draw rules."""
from __future__ import annotations

import random

import pytest

import variants
from board3d_helpers import board, moves_from, shapes, targets_from
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.moves import CELL, is_drop
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, format, parse
from variants.board3d import DIR_INDEX, ring
from board3d_helpers import NAMES
from variants.plugins.coverage import NINJA, radial_mask

EMPTY_LEVEL = "6/6/6/6/6/6"


# ---- #1 and #24: front-rank pieces --------------------------------------------------------
def test_ruling_1_stockpoint_captures_exactly_as_it_moves():
    v = variants.get("elefantnichtschach")
    # enemies on the three move cells and on two forward cells it does not move to
    pos = board({"wc3": "P", "wc4": "r", "xc4": "r", "wd4": "r", "wb4": "r", "xd4": "r"}, v)
    assert targets_from(v, pos, "wc3") == ["wc4", "wd4", "xc4"]
    # and it moves to the same three cells when they are empty
    pos = board({"wc3": "P"}, v)
    assert targets_from(v, pos, "wc3") == ["wc4", "wd4", "xc4"]


def test_ruling_1_stockfwazir_captures_exactly_as_it_moves():
    v = variants.get("elefantnichtschach")
    empty = board({"wc3": "F"}, v)
    cells = targets_from(v, empty, "wc3")
    assert len(cells) == 10
    full = board({"wc3": "F", **{c: "r" for c in cells}}, v)
    assert targets_from(v, full, "wc3") == cells


def test_ruling_24_stockfwazir_same_rank_steps_change_ring():
    v = variants.get("elefantnichtschach")
    pos = board({"wc3": "F"}, v)
    rings = {ring("uvwxyz".index(t[0]), ord(t[1]) - 97) for t in targets_from(v, pos, "wc3") if t[2] == "3"}
    assert rings == {0, 1}               # xd3 stays inner, vb3 / vd3 / xb3 go to the middle ring
    # while the rank-changing moves keep the ring
    for t in targets_from(v, pos, "wc3"):
        if t[2] != "3":
            assert ring("uvwxyz".index(t[0]), ord(t[1]) - 97) == 0


def test_stockpoint_promotion_is_forced_and_written():
    v = variants.get("elefantnichtschach")
    pos = board({"wc5": "P", "vb2": "p"}, v)
    assert moves_from(v, pos, "wc5") == ["wc5wc6f", "wc5wd6f", "wc5xc6f"]
    pos.side = 1
    pos.reset_state()
    assert moves_from(v, pos, "vb2") == ["vb2vb1f", "vb2vc1f", "vb2wb1f"]


# ---- #2, #3, #4: the arrays -----------------------------------------------------------------
@pytest.mark.parametrize("name", list(NAMES))
def test_rulings_2_3_4_start_arrays(name):
    v = variants.get(name)
    pos = parse(v, v.start_fen)
    geo = v.geometry
    at = lambda l, f, r: pos.board[geo.index[(l, f, r)]]  # noqa: E731
    simple = {}
    for l in range(6):
        for f in range(6):
            w = at(l, f, 0)
            assert w and not w & 1
            assert at(5 - l, 5 - f, 0) == w                 # #2: z mirrors u (a<->f), etc.
            assert at(l, f, 5) == w | 1                      # #3: Black on the same file, rank 6
            assert at(l, f, 1) == v.p_id * 2                 # rank 2: Stockpoints
            assert at(l, f, 4) == v.p_id * 2 + 1
            for r in (2, 3):
                assert at(l, f, r) == 0
            simple[w] = simple.get(w, 0) + 1
    counts = sorted(simple.values())
    assert counts == [2] * 6 + [4] * 6                       # #4: 4 each of 6 simple, 2 each of 6 compound


# ---- #5, #6, #7, #8, #9, #25: piece definitions ----------------------------------------------
def test_ruling_5_general_direction_counts_follow_the_definition():
    v = variants.get("generalnichtschach")
    got = {}
    for tok in "SMYCOE":
        vecs = set(v.by_token[tok].atoms[0].vectors)
        assert all(max(abs(a) for a in x) == 1 for x in vecs)
        got[tok] = len(vecs)
    assert got == {"S": 14, "M": 17, "Y": 22, "C": 13, "O": 18, "E": 21}


def test_ruling_6_idolator_is_bound_to_half_the_files():
    v = variants.get("rajnichtschach")
    code = v.by_token["I"].id * 2
    tabs = v.tables[code]
    seen, todo = {0}, [0]
    while todo:
        for t in tabs.leaps[todo.pop()]:
            if t not in seen:
                seen.add(t)
                todo.append(t)
    assert len(seen) == 108
    assert all((v.geometry.coords[c][0] + v.geometry.coords[c][1]) % 2 == 0 for c in seen)


def test_ruling_7_ninja_is_the_221_leaper():
    assert len(NINJA) == 24
    assert all(sorted(map(abs, x)) == [1, 2, 2] for x in NINJA)
    v = variants.get("springernichtschach")
    assert set(v.by_token["J"].atoms[0].vectors) == set(NINJA)
    assert v.by_token["J"].atoms[0].vectors != v.by_token["N"].atoms[0].vectors


@pytest.mark.parametrize("name,tok,frm,block,to", [
    ("schweinnichtschach", "S", "wc3", "wc4", "wc5"),      # Dabchick part of the Sow
    ("schweinnichtschach", "O", "wc3", "xc4", "yc5"),      # Tusk part of the Boar
    ("rajnichtschach", "M", "wc3", "wc2", "wc1"),          # Memsahib's backward Dabbaba leap
    ("paschanichtschach", "V", "wc3", "xd4", "ye5"),       # Vinnock's Eunuch leap
    ("hummernichtschach", "S", "wc3", "wc4", "wc5"),       # Snail's forward leap
    ("elefantnichtschach", "N", "wc3", "xd4", "ye5"),      # the Elefant pieces themselves
])
def test_ruling_8_two_cell_moves_are_leaps(name, tok, frm, block, to):
    v = variants.get(name)
    pos = board({frm: tok, block: "R"}, v)
    assert to in targets_from(v, pos, frm)


def test_ruling_9_baer_pieces_stop_only_at_odd_distances_and_are_blocked_anywhere():
    v = variants.get("baernichtschach")
    pos = board({"ua1": "A"}, v)
    assert [t for t in targets_from(v, pos, "ua1") if t[:2] == "ua"] == ["ua2", "ua4", "ua6"]
    pos = board({"ua1": "A", "ua3": "r"}, v)              # enemy at even distance: blocks, no capture
    assert [t for t in targets_from(v, pos, "ua1") if t[:2] == "ua"] == ["ua2"]
    pos = board({"ua1": "A", "ua4": "r"}, v)              # enemy at odd distance: captured
    assert [t for t in targets_from(v, pos, "ua1") if t[:2] == "ua"] == ["ua2", "ua4"]


def test_ruling_25_lobster_steps_sideways_and_back_leaps_forward():
    v = variants.get("hummernichtschach")
    pos = board({"wc3": "L"}, v)
    got = targets_from(v, pos, "wc3")
    assert len(got) == 12
    assert not [t for t in got if t[2] == "4"]              # no one-step forward diagonal
    assert sum(1 for t in got if t[2] == "5") == 4          # 2 x fSD leaps
    assert sum(1 for t in got if t[2] == "3") == 4          # sSD steps
    assert sum(1 for t in got if t[2] == "2") == 4          # bSD steps


# ---- #10, #22, #23: returns and hands --------------------------------------------------------
def test_ruling_10_stockpoint_returns_only_into_the_camp():
    v = variants.get("elefantnichtschach")
    for side, ranks in ((0, "123"), (1, "456")):
        fen = "|".join([EMPTY_LEVEL] * 6) + f" {'wb'[side]} [Pp] 0 1"
        pos = parse(v, fen)
        drops = [move_text(v, m) for m in shapes(pos) if is_drop(m)]
        assert len(drops) == 108
        assert {d[-1] for d in drops} == set(ranks)


def test_other_pieces_return_anywhere_empty_and_returns_never_capture():
    v = variants.get("elefantnichtschach")
    fen = "|".join([EMPTY_LEVEL] * 5 + ["6/6/6/6/6/Rr4"]) + " w [L] 0 1"
    pos = parse(v, fen)
    drops = [m for m in shapes(pos) if is_drop(m)]
    assert len(drops) == 214
    assert all(not pos.board[m & CELL] for m in drops)


def test_ruling_22_hand_holds_the_return_form_in_canonical_order():
    v = variants.get("elefantnichtschach")
    fen = "|".join([EMPTY_LEVEL] * 6) + " w [PFYLARpfq] 0 1"
    assert format(parse(v, fen)).split()[2] == "[RALYFPqfp]"
    # capturing a Queen puts an Alibaba (its counterpart) into the capturer's hand
    pos = board({"wc3": "R", "wc5": "q"}, v)
    m = parse_move(v, shapes(pos), "wc3wc5")
    pos.make(m)
    assert format(pos).split()[2] == "[L]"
    pos.unmake()
    assert format(pos).split()[2] == "[-]"


@pytest.mark.parametrize("name,pairs", [
    ("elefantnichtschach", "RA BE QL UN DY GK PF"),
    ("spaniennichtschach", "RA BE UN IT CO MH PF"),
    ("springernichtschach-x", "RJ BX UN VI ML CS PF"),
    ("baernichtschach-x", "RA BE UC OW IN YK PF"),
])
def test_ruling_23_counterparts_swap_both_ways(name, pairs):
    v = variants.get(name)
    for a, b in pairs.split():
        ia, ib = v.by_token[a].id, v.by_token[b].id
        assert v.hand_type(ia * 2 + 1) == ib and v.hand_type(ib * 2) == ia


def test_ruling_23_crossover_compounds_are_ride_plus_leap():
    v = variants.get("spaniennichtschach")
    pos = board({"ua1": "I"}, v)                # Infanta: rook ride + elephant leap
    got = targets_from(v, pos, "ua1")
    assert "ua6" in got and "wc1" in got and "vb1" not in got


# ---- #11, #12, #13: the coverage requirement ------------------------------------------------------
def test_ruling_11_stockpoints_fwazirs_and_hand_pieces_do_not_count():
    v = variants.get("elefantnichtschach")
    # T1 with a Black Stockfwazir and Stockpoints on the board: capturing the Duchess still wins
    fen = ("6/6/6/6/6/6|6/pppppp/6/6/6/6|5q/2d3/f5/6/2D3/Q5|g5/6/6/6/6/G5|6/6/6/6/6/6|"
           "6/6/6/6/6/6 w [LPafp] 0 1")
    pos = parse(v, fen)
    pos.make(parse_move(v, legal_moves(pos), "wc2wc5"))
    assert game_result(pos) == (-1, "lost directions")
    assert legal_moves(pos) == []


def test_ruling_11_count_needs_two_per_direction():
    v = variants.get("elefantnichtschach")
    two = board({"wa1": "Q", "wf1": "Q", "xa1": "U", "xf1": "U"}, v)
    assert v.meets_requirement(two, 0)
    one = board({"wa1": "Q", "xa1": "U", "xf1": "U", "za1": "B", "zf1": "B"}, v)
    assert not v.meets_requirement(one, 0)                   # orthogonal count 1


def test_ruling_11_springer_class_rule():
    v = variants.get("springernichtschach")
    ok = board({"wa1": "J", "wb1": "R", "wc1": "X", "wd1": "B", "we1": "N", "wf1": "U"}, v)
    assert v.meets_requirement(ok, 0)
    # the Oberon (Ninja + Sexton) counts in two classes; Knight class has one piece: lost
    bad = board({"wa1": "O", "wb1": "R", "wc1": "X", "wf1": "U"}, v)
    assert not v.meets_requirement(bad, 0)


def test_ruling_12_forward_only_moves_count_in_the_owners_forward_directions():
    v = variants.get("generalnichtschach")
    m = radial_mask(v.by_token["S"].atoms)                  # Sungeneral: O6 + fSD + fND
    assert m >> DIR_INDEX[(1, 1, 1)] & 1 and not m >> DIR_INDEX[(1, 1, -1)] & 1
    # a Black general's forward is toward rank 1; read in its own frame, the mask is the same
    assert v.cover[v.by_token["S"].id * 2 + 1] == m


@pytest.mark.parametrize("name", list(NAMES))
def test_ruling_13_only_the_mover_s_opponent_can_lose(name):
    """Random games: the mover always still meets the requirement; hashes, position text and
    move text stay exact on the way."""
    v = variants.get(name)
    rnd = random.Random(name)
    pos = parse(v, v.start_fen)
    for _ply in range(60):
        moves = legal_moves(pos)
        if not moves:
            break
        caps = [m for m in moves if not is_drop(m) and pos.board[m & CELL]]
        drops = [m for m in moves if is_drop(m)]
        pool = caps if caps and rnd.random() < 0.6 else (drops if drops and rnd.random() < 0.3 else moves)
        m = rnd.choice(pool)
        text = move_text(v, m)
        assert parse_move(v, moves, text) == m
        mover = pos.side
        pos.make(m)
        assert v.meets_requirement(pos, mover)
        assert pos.hash == pos.compute_hash()
        again = parse(v, format(pos))
        assert format(again) == format(pos) and again.hash == pos.hash
        if game_result(pos) is not None:
            break


# ---- #14: no legal move, repetition, move rule -------------------------------------------------
def test_ruling_14_no_legal_move_loses():
    v = variants.get("elefantnichtschach")
    level = "DDDDDD/DDDDDD/DDDDDD/DDDDDD/DDDDDD/DDDDDD"
    fen = "|".join([level] * 5 + ["GGDDDD/DDDDDD/DDDDDD/DDDDDD/DDDDDD/DDDDDD"]) + " w [-] 0 1"
    pos = parse(v, fen)
    assert v.meets_requirement(pos, 0)
    assert legal_moves(pos) == []
    assert game_result(pos)[0] == -1


def test_ruling_14_threefold_repetition_draws():
    v = variants.get("elefantnichtschach")
    pos = parse(v, v.start_fen)
    cycle = ["vb1vb3", "vb6vb4", "vb3vb1", "vb4vb6"]
    for _rep in range(2):
        for _i, t in enumerate(cycle):
            assert game_result(pos) is None
            pos.make(parse_move(v, legal_moves(pos), t))
    assert game_result(pos) == (0, "repetition")


def test_ruling_14_same_board_with_other_hands_is_not_a_repetition():
    """Repetition is of (board, side to move, both hands): the same board and side with
    different hands is a different position."""
    v = variants.get("elefantnichtschach")
    fen = ("6/6/p5/6/6/R5|6/6/6/6/6/6|5q/2d3/6/6/2D3/Q5|g5/6/6/6/6/G5|6/6/6/6/6/6|6/6/6/6/6/6"
           " w [p] 0 1")
    pos = parse(v, fen)

    def play(*texts):
        for t in texts:
            assert game_result(pos) is None
            pos.make(parse_move(v, legal_moves(pos), t))

    # the Rook takes the Stockpoint (White's hand gets F) and goes home; Black's Queen walks
    # a triangle and Black returns its Stockpoint to ua4: board and side as at the start
    play("ua1ua4", "wf6xe6", "ua4ua1", "xe6xf5", "wa1wa2", "xf5wf6", "wa2wa1", "P@ua4")
    board_side = fen.split(" [")[0]
    assert format(pos).split(" [")[0] == board_side
    assert " [F] " in format(pos) and " [p] " in fen
    cycle = ["wa1wa2", "wf6xe6", "wa2wa1", "xe6wf6"]
    play(*cycle)
    # the board and side have now stood 3 times, but only twice with these hands
    assert sum(1 for h in pos.history if h == pos.hash) == 2
    assert game_result(pos) is None
    play(*cycle)
    assert game_result(pos) == (0, "repetition")


def test_ruling_14_hundred_plies_and_what_resets_them():
    v = variants.get("elefantnichtschach")
    fen = v.start_fen.replace(" [-] 0 1", " [Ff] 99 60")
    pos = parse(v, fen)
    assert game_result(pos) is None
    pos.make(parse_move(v, legal_moves(pos), "vb1vb3"))        # a leap: count goes on
    # the rule is named as docs/variants/nichtschach.md, "Rules in brief", gives it: 100 plies
    assert pos.halfmove == 100 and game_result(pos) == (0, "100-ply rule")
    pos.unmake()
    pos.make(parse_move(v, legal_moves(pos), "F@wc3"))         # a return resets
    assert pos.halfmove == 0
    pos.unmake()
    pos.make(parse_move(v, legal_moves(pos), "wc2wc3"))        # a Stockpoint move resets
    assert pos.halfmove == 0
    pos.make(parse_move(v, legal_moves(pos), "F@wc4"))
    pos.make(parse_move(v, legal_moves(pos), "wb2wb3"))
    pos.make(parse_move(v, legal_moves(pos), "wc4xd4"))        # a Stockfwazir move does not
    assert pos.halfmove == 1


# ---- notation ------------------------------------------------------------------------------------
def test_move_text_forms():
    v = variants.get("elefantnichtschach")
    pos = parse(v, "6/6/6/6/6/6|6/6/6/6/6/6|q1d3/2P3/2f3/6/6/Q1D3|g5/6/6/6/6/G5|6/6/6/6/6/6|"
                   "6/6/6/6/6/6 w [L] 0 1")
    texts = {move_text(v, m) for m in legal_moves(pos)}
    assert {"wc5wc6f", "wc5xc6f", "wc5wd6f", "L@wc3", "wa1wa6"} <= texts
    for m in legal_moves(pos):
        assert parse_move(v, legal_moves(pos), move_text(v, m)) == m


@pytest.mark.parametrize("bad", [
    "6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6 w [-] 0 1",          # 5 levels
    "6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6 w [-] 0 1",  # 5 ranks
    "7/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6 w [-] 0 1",  # long rank
    "P5/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6 w [-] 0 1",  # P on rank 6
    "6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6 w [Z] 0 1",  # unknown
])
def test_bad_position_text_is_rejected(bad):
    v = variants.get("elefantnichtschach")
    with pytest.raises(PositionTextError):
        parse(v, bad)


def test_diagram_shows_six_levels():
    v = variants.get("elefantnichtschach")
    pos = parse(v, v.start_fen.replace("[-]", "[Lp]"))
    lines = v.notation.diagram(pos)
    assert lines[0].split() == list("uvwxyz")
    assert lines[1].split()[:7] == ["6", "r", "u", "b", "e", "n", "r"]
    assert lines[6].split()[:7] == ["1", "R", "U", "B", "E", "N", "R"]
    assert len(lines) == 8


def test_perft_does_not_expand_a_won_position():
    """T1 after the winning capture wc2wc5: no moves, so perft 1 there is 0."""
    v = variants.get("elefantnichtschach")
    pos = parse(v, "6/6/6/6/6/6|6/6/6/6/6/6|5q/2d3/6/6/2D3/Q5|g5/6/6/6/6/G5|6/6/6/6/6/6|"
                   "6/6/6/6/6/6 w [LPafp] 0 1")
    pos.make(parse_move(v, legal_moves(pos), "wc2wc5"))
    assert perft(pos, 1) == 0


# ---- evaluation terms for the searcher ---------------------------------------------------------
def test_eval_terms_coverage_hand_and_lost_side():
    from variants.plugins.coverage import LOST_SCORE
    v = variants.get("elefantnichtschach")
    start = parse(v, v.start_fen)
    assert v.eval_terms(start) == 0                          # symmetric start
    # White thin in the orthogonal directions (two Queens), Black comfortable (three)
    thin = board({"wa1": "Q", "wf1": "Q", "xa1": "U", "xf1": "U", "ya1": "U",
                  "wa6": "q", "wf6": "q", "wc6": "q", "xa6": "u", "xf6": "u", "ya6": "u"}, v)
    assert v.eval_terms(thin) < 0
    thin.side = 1
    thin.reset_state()
    assert v.eval_terms(thin) > 0                            # same position, Black to move
    # a piece in hand is worth something extra
    held = parse(v, v.start_fen.replace("[-]", "[A]"))
    assert v.eval_terms(held) > 0
    # a side that has lost
    t1 = parse(v, "6/6/6/6/6/6|6/6/6/6/6/6|5q/2d3/6/6/2D3/Q5|g5/6/6/6/6/G5|6/6/6/6/6/6|"
                  "6/6/6/6/6/6 w [LPafp] 0 1")
    t1.make(parse_move(v, legal_moves(t1), "wc2wc5"))
    assert v.eval_terms(t1) == -LOST_SCORE


def test_searcher_takes_a_winning_capture():
    import threading
    from engine.search import Limits, Searcher
    v = variants.get("elefantnichtschach")
    pos = parse(v, "6/6/6/6/6/6|6/6/6/6/6/6|5q/2d3/6/6/2D3/Q5|g5/6/6/6/6/G5|6/6/6/6/6/6|"
                   "6/6/6/6/6/6 w [LPafp] 0 1")
    s = Searcher(v)
    s.search(pos, Limits(depth=1), threading.Event())
    assert move_text(v, s.last_pv[0]) in ("wa1wf6", "wc2wc5")


def test_hands_may_hold_every_stockpoint():
    """72 Stockfwazirs in one hand (every Stockpoint captured) still hash and round-trip."""
    v = variants.get("elefantnichtschach")
    fen = v.start_fen.replace("[-]", "[" + "F" * 72 + "]")
    pos = parse(v, fen)
    assert format(pos) == fen and pos.hash == pos.compute_hash()
    pos.make(parse_move(v, legal_moves(pos), "F@wc3"))
    assert pos.hash == pos.compute_hash()
    with pytest.raises(PositionTextError):
        parse(v, v.start_fen.replace("[-]", "[" + "F" * 145 + "]"))
