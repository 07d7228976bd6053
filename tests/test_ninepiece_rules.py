"""Ninepiece Nichtschach rules: fusion table, fusion/fission moves, compounds in text, victory
groups, draws, and one named test per numbered ruling of docs/variants/ninepiece.md,
"Rulings" (#3, #4, #13-#22)."""
import json
import random
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import CELL, FISSION, FROM_SHIFT, FUSION, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.position import Position
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, format, parse
from variants.plugins.ninepiece import ORDER, fusion_rule

FIG = json.loads((Path(__file__).parent / "data" / "ninepiece_figures.json").read_text())
NAME = "ninepiece-nichtschach"

# pieces that give each side all three victory groups, out of the way of the tests
GUARDS = {"zf6": "(US)", "zf5": "F", "zf1": "(us)", "zf2": "f"}


@pytest.fixture(scope="module")
def v():
    return variants.get(NAME)


def setup(v, pieces, side="w", guards=True, halfmove=0):
    """A position from {cell name: token}, written as 3D-FEN and parsed back."""
    pos = Position(v)
    geo = v.geometry
    allp = dict(GUARDS) if guards else {}
    allp.update(pieces)
    for name, tok in allp.items():
        pt = v.by_token[tok.upper()]
        pos.board[geo.by_name[name]] = pt.id * 2 + (0 if tok == tok.upper() else 1)
    pos.side = 0 if side == "w" else 1
    pos.halfmove = halfmove
    pos.reset_state()
    text = format(pos)
    pos2 = parse(v, text)
    assert format(pos2) == text
    return pos2


def texts(v, pos, frm=None):
    geo = v.geometry
    out = {}
    for m in legal_moves(pos):
        if frm is None or (m >> FROM_SHIFT) & CELL == geo.by_name[frm]:
            out[move_text(v, m)] = m
    return out


def play(v, pos, text):
    m = parse_move(v, legal_moves(pos), text)
    pos.make(m)
    return m


def at(v, pos, name):
    p = pos.board[v.geometry.by_name[name]]
    if not p:
        return "."
    tok = v.piece_types[p >> 1].token
    return tok.lower() if p & 1 else tok


# ---- fusion table -----------------------------------------------------------------------
def test_fusion_table_is_the_24_named_pairs(v):
    allowed = {}
    for i, a in enumerate(ORDER):
        for b in ORDER[i + 1:]:
            r = fusion_rule(a, b)
            assert r == fusion_rule(b, a)
            if r:
                allowed[a + b] = r
    assert allowed == {k: r for k, (name, r) in FIG["fusion_pairs"].items()}
    for pair, (name, _rule) in FIG["fusion_pairs"].items():
        pt = v.by_token[f"({pair})"]
        assert pt.name == name and pt.components == tuple(pair)
    for pair in FIG["refused_sample"]:
        assert fusion_rule(pair[0], pair[1]) == 0
        assert f"({pair})" not in v.by_token


PAIRS = [(a, b) for a in ORDER for b in ORDER]


@pytest.mark.parametrize("a,b", PAIRS, ids=[a + b for a, b in PAIRS])
def test_fusion_move_for_every_ordered_pair(v, a, b):
    """a on wc3 moves onto a friendly b on its first-step cell: a fusion iff the pair is
    allowed; make/unmake build and split the compound exactly."""
    geo = v.geometry
    s = geo.by_name["wc3"]
    tab = v.tables[v.by_token[a].id * 2]
    t = tab.rides[s][0][0] if tab.rides[s] else tab.bent[s][0][0]
    pos = setup(v, {"wc3": a, geo.name(t): b})
    fus = [m for m in legal_moves(pos) if m & FUSION and (m >> FROM_SHIFT) & CELL == s and m & CELL == t]
    key = "".join(sorted((a, b), key=ORDER.index))
    if a == b or key not in FIG["fusion_pairs"]:
        assert fus == []
        assert not any((m >> FROM_SHIFT) & CELL == s and m & CELL == t for m in legal_moves(pos))
        return
    assert [m & CELL for m in fus] == [t]
    before = (pos.board[:], pos.hash, pos.halfmove)
    pos.make(fus[0])
    assert pos.board[s] == 0
    assert v.piece_types[pos.board[t] >> 1].name == FIG["fusion_pairs"][key][0]
    assert pos.hash == pos.compute_hash()
    assert pos.halfmove == before[2] + 1
    pos.unmake()
    assert (pos.board, pos.hash, pos.halfmove) == before


def test_fusion_needs_a_clear_path_and_may_ride(v):
    pos = setup(v, {"wa1": "R", "wa5": "B"})
    assert "wa1wa5" in texts(v, pos, "wa1")
    assert texts(v, pos, "wa1")["wa1wa5"] & FUSION
    pos = setup(v, {"wa1": "R", "wa3": "P", "wa5": "B"})
    assert "wa1wa5" not in texts(v, pos, "wa1")


def test_compound_moves_once_per_cell(v):
    """A Gorgon (G+A) reaches some cells by both components: each is one move."""
    s = v.geometry.by_name["wc3"]
    pos = setup(v, {"wc3": "(GA)"})
    own = [m for m in legal_moves(pos) if (m >> FROM_SHIFT) & CELL == s and not m & FISSION]
    assert len(own) == len(set(own))
    g = {m & CELL for m in legal_moves(setup(v, {"wc3": "G"})) if (m >> FROM_SHIFT) & CELL == s}
    a = {m & CELL for m in legal_moves(setup(v, {"wc3": "A"})) if (m >> FROM_SHIFT) & CELL == s}
    assert len(g & a) > 0
    assert {m & CELL for m in own} == g | a
    assert len(own) == len(g | a)


# ---- text -------------------------------------------------------------------------------
def test_compound_tokens_round_trip(v):
    fen = ("6/6/6/6/6/6|6/6/6/6/6/(cn)5|6/6/6/6/6/6|6/6/6/6/6/6|6/6/6/6/6/6|"
           "(GA)4(us)/6/6/6/6/(RB)1(FN)2U w [-] 7 12")
    pos = parse(v, fen)
    assert format(pos) == fen
    assert at(v, pos, "za6") == "(GA)" and at(v, pos, "va1") == "(cn)"
    for bad in ("(Rb)", "(RC)", "(BR)", "(RBU)", "(R"):
        with pytest.raises(PositionTextError):
            parse(v, fen.replace("(GA)", bad))


def test_diagram_shows_compounds(v):
    pos = parse(v, FIG["T5"]["fen"])
    lines = v.notation.diagram(pos)
    assert any(" RB " in line for line in lines)
    assert any(line.startswith("Compounds:") and "xa1 RB Queen" in line for line in lines)


def test_fission_and_fusion_text(v):
    pos = setup(v, {"xa1": "(RB)"})
    t = texts(v, pos, "xa1")
    assert "xa1xb2/b" in t and "xa1xb2" in t and "xa1xa2/r" in t
    assert t["xa1xb2/b"] & FISSION and not t["xa1xb2"] & FISSION
    for text, m in t.items():
        assert parse_move(v, legal_moves(pos), text) == m


# ---- rulings (docs/variants/ninepiece.md, "Rulings") --------------------------------
def test_ruling_03_black_mirrors_white(v):
    pos = parse(v, v.start_fen)
    geo = v.geometry
    for c, p in enumerate(pos.board):
        l, f, r = geo.coords[c]
        q = pos.board[geo.index[(l, f, 5 - r)]]
        assert (p == 0) == (q == 0)
        if p:
            assert p ^ 1 == q


def test_ruling_04_start_array(v):
    """4 of each linepiece on rank 1, Stockbrokers on rank 2, symmetric under the 90-degree
    turn about the rank axis; Rooks on the outer corners, Unicorns on the inner ring."""
    pos = parse(v, v.start_fen)
    geo = v.geometry
    tok = lambda c: v.piece_types[pos.board[c] >> 1].token  # noqa: E731
    rank1 = [c for c in range(geo.size) if geo.coords[c][2] == 0]
    assert sorted(tok(c) for c in rank1) == sorted("RBUGASFCN" * 4)
    assert all(tok(geo.index[(l, f, 1)]) == "P" for l in range(6) for f in range(6))
    for c in rank1:
        l, f, _ = geo.coords[c]
        assert tok(geo.index[(f, 5 - l, 0)]) == tok(c)
        if v.ring_of[c] == 0:
            assert tok(c) == "U"
        if (l, f) in ((0, 0), (0, 5), (5, 0), (5, 5)):
            assert tok(c) == "R"


def test_ruling_13_win_is_checked_after_every_move(v):
    """Capturing a compound removes both components: here the last straight and the last
    G/C/F piece of Black go at once, and Black, to move, has lost."""
    pos = setup(v, {"wa1": "R", "wa5": "(ru)", "xa5": "g", "ya5": "a", "ua1": "C", "ub1": "A"},
                guards=False)
    pos2 = setup(v, {"wa1": "R", "wa5": "(bc)", "ya5": "a", "ua1": "G", "ub1": "A"},
                 guards=False)
    assert game_result(pos) is None and game_result(pos2) is None
    play(v, pos2, "wa1wa5")
    assert game_result(pos2)[0] == -1
    assert legal_moves(pos2) == []
    # a quiet move ends nothing
    play(v, pos, "wa1wa2")
    assert game_result(pos) is None


def test_ruling_14_no_move_loses_and_draw_rules(v):
    assert v.stalemate_result == "loss"
    # White fills ranks 2-6 (compounds cannot fuse, Stockbrokers are blocked and never
    # fuse), Black sits on rank 1 behind White's Stockbrokers: White has no legal move
    full = "(RB)(GA)(RB)(GA)(RB)(GA)"
    level = "/".join([full] * 4 + ["PPPPPP", "rgarga"])
    pos = parse(v, "|".join([level] * 6) + " w [-] 0 1")
    assert v.adjudicate(pos) is None                   # both sides keep all three groups
    assert legal_moves(pos) == []
    assert game_result(pos)[0] == -1
    # one empty cell on zf6 and White can move again: the game goes on
    hole = "/".join(["(RB)(GA)(RB)(GA)(RB)1"] + [full] * 3 + ["PPPPPP", "rgarga"])
    pos = parse(v, "|".join([level] * 5 + [hole]) + " w [-] 0 1")
    assert legal_moves(pos) != [] and game_result(pos) is None
    # threefold repetition, reached through fission and fusion
    pos = setup(v, {"wa1": "(RB)", "wa6": "(rb)"})
    cycle = ["wa1wa2/r", "wa6wa5/r", "wa2wa1", "wa5wa6"]
    for text in cycle * 2:
        assert game_result(pos) is None
        play(v, pos, text)
    assert game_result(pos) == (0, "repetition")
    # 100 plies: fusion and fission count, they never reset
    pos = setup(v, {"wa1": "(RB)", "wa6": "(rb)", "wc2": "P"}, halfmove=98)
    play(v, pos, "wa1wa2/r")
    assert pos.halfmove == 99 and game_result(pos) is None
    play(v, pos, "wa6wa5/r")
    assert pos.halfmove == 100 and game_result(pos) == (0, "100-ply rule")
    pos = setup(v, {"wa1": "(RB)", "wa6": "(rb)", "wc2": "P"}, halfmove=98)
    play(v, pos, "wc2wc3")
    assert pos.halfmove == 0


def test_ruling_15_stockbroker_outer_file_captures(v):
    """(d): from an outer non-corner file, 1 SD capture (inward) + 2 ND captures."""
    pos = setup(v, {"ub3": "P", "vb4": "r", "uc4": "r", "ua4": "r", "va4": "r", "vc4": "r"})
    caps = sorted(t for t, m in texts(v, pos, "ub3").items() if pos.board[m & CELL])
    assert caps == ["ub3va4", "ub3vb4", "ub3vc4"]
    quiet = sorted(t for t, m in texts(v, setup(v, {"ub3": "P"}), "ub3").items())
    assert quiet == ["ub3ua4", "ub3ub4", "ub3uc4"]


def test_ruling_16_bent_first_step(v):
    """The Gryphon may stop on its first-step cell, and continues only if that cell is
    empty; capture and fusion happen on the first step as well."""
    g = {"wc3": "G"}
    free = texts(v, setup(v, g), "wc3")
    assert "wc3xd3" in free and "wc3yd3" in free and "wc3xf3" in free
    enemy = texts(v, setup(v, {**g, "xd3": "b"}), "wc3")
    assert "wc3xd3" in enemy and "wc3yd3" not in enemy and "wc3xf3" not in enemy
    friend = texts(v, setup(v, {**g, "xd3": "A"}), "wc3")
    assert friend["wc3xd3"] & FUSION and "wc3yd3" not in friend
    assert len(free) == FIG["empty_board"]["G"][0]


def test_ruling_17_fusion_limits(v):
    # same type: no move at all onto the friend
    assert "wa1wa3" not in texts(v, setup(v, {"wa1": "R", "wa3": "R"}), "wa1")
    # a compound cannot fuse, and nothing fuses into a compound
    assert "wa1wa3" not in texts(v, setup(v, {"wa1": "(RB)", "wa3": "U"}), "wa1")
    assert "wa1wa3" not in texts(v, setup(v, {"wa1": "U", "wa3": "(RB)"}), "wa1")
    # an unpromoted Stockbroker never fuses, not even on its promoting move
    pos = setup(v, {"wc5": "P", "wc6": "R", "xc6": "B", "wd6": "U"})
    assert texts(v, pos, "wc5") == {}
    pos = setup(v, {"wc3": "R", "wc4": "P"})
    assert not any(m & FUSION for m in texts(v, pos, "wc3").values())
    # fusion is not a capture: the clock runs on
    pos = setup(v, {"wa1": "R", "wa3": "B"}, halfmove=5)
    play(v, pos, "wa1wa3")
    assert pos.halfmove == 6 and at(v, pos, "wa3") == "(RB)"


def test_ruling_18_fission(v):
    pos = setup(v, {"xa1": "(RB)", "xa3": "n", "xc3": "U", "xb2": "A"})
    t = texts(v, pos, "xa1")
    # the whole compound captures; a component alone never does
    assert "xa1xa3" in t and "xa1xa3/r" not in t
    # no fission onto a friend (no fission into fusion), and the whole compound cannot fuse
    assert not any(x.startswith("xa1xb2") for x in t)
    assert not any(x.startswith("xa1xc3") for x in t)
    m = play(v, pos, "xa1xa2/r")
    assert at(v, pos, "xa1") == "B" and at(v, pos, "xa2") == "R"
    assert pos.hash == pos.compute_hash()
    pos.unmake()
    assert at(v, pos, "xa1") == "(RB)" and at(v, pos, "xa2") == "."
    assert m & FISSION and (m >> TYPE_SHIFT) & TYPE_MASK == v.by_token["R"].id


def test_ruling_19_stockbroker_promotion(v):
    pos = setup(v, {"wc5": "P", "xc6": "b", "wd6": "n"})
    t = texts(v, pos, "wc5")
    dests = {}
    for text, _m in t.items():
        dests.setdefault(text[:6], []).append(text[6:])
    assert all(sorted(s) == sorted(x.lower() for x in ORDER) for s in dests.values())
    assert list(dests) == ["wc5wc6"]     # xc6 and wd6 are quiet steps, occupied: blocked
    pos = setup(v, {"wc5": "P", "vb6": "r", "vc6": "r"})
    caps = {x[:6] for x, m in texts(v, pos, "wc5").items() if pos.board[m & CELL]}
    assert caps == {"wc5vb6", "wc5vc6"}
    for _x, m in texts(v, pos, "wc5").items():
        assert (m >> TYPE_SHIFT) & TYPE_MASK in v.simple_ids
    # Black promotes on rank 1
    pos = setup(v, {"xd2": "p"}, side="b")
    assert sorted(texts(v, pos, "xd2")) == sorted(
        f"xd2{to}{p}" for to in ("xd1", "xc1", "wd1") for p in "rbugasfcn")


def test_ruling_20_groups_count_components_on_the_board(v):
    # Black's only straight piece sits in a compound: not lost; capturing it wins
    pos = setup(v, {"wa1": "R", "ua1": "C", "ub1": "A", "wa5": "(rg)", "xa6": "a"},
                guards=False)
    assert game_result(pos) is None
    play(v, pos, "wa1wa5")
    assert game_result(pos)[0] == -1
    # an unpromoted Stockbroker counts for nothing
    pos = setup(v, {"wa1": "R", "ua1": "C", "ub1": "A", "xa5": "u", "xb6": "a", "ya5": "p"},
                guards=False)
    assert game_result(pos) == (1, "gryphon-celebrant-farrier group eliminated")
    # a promoted Stockbroker counts as its new type: after wc5wc6g White survives the loss
    # of its Celebrant, without the promotion it does not
    pieces = {"wa1": "R", "ub1": "A", "ua1": "C", "wc5": "P",
              "ua6": "r", "ze6": "g", "zc6": "a"}
    for first, alive in (("wc5wc6g", True), ("wa1wa2", False)):
        pos = setup(v, pieces, guards=False)
        play(v, pos, first)
        play(v, pos, "ua6ua1")
        assert (game_result(pos) is None) == alive


def test_ruling_21_no_returns(v):
    pos = setup(v, {"wa1": "R", "wa5": "b"})
    play(v, pos, "wa1wa5")
    assert not any(pos.hand) and format(pos).split()[2] == "[-]"
    assert not any(is_drop(m) for m in legal_moves(pos))


def test_ruling_22_hand_field(v):
    fen = v.start_fen
    assert fen.split()[2] == "[-]"
    with pytest.raises(PositionTextError):
        parse(v, fen.replace("[-]", "[R]"))


def test_stockbroker_on_far_rank_is_rejected(v):
    fen = v.start_fen.replace("rgsfar/pppppp", "rgsfaP/pppppp", 1)
    with pytest.raises(PositionTextError):
        parse(v, fen)


# ---- consistency ---------------------------------------------------------------------------
def test_random_games_make_unmake_and_text(v):
    rnd = random.Random(9)
    for _game in range(4):
        pos = parse(v, v.start_fen)
        start = (pos.board[:], pos.hash)
        made = 0
        for _ply in range(60):
            ms = legal_moves(pos)
            if not ms or game_result(pos, ms) is not None:
                break
            assert len(ms) == len(set(ms))
            # prefer the interesting kinds now and then
            special = [m for m in ms if m & (FUSION | FISSION)]
            m = rnd.choice(special if special and rnd.random() < 0.4 else ms)
            assert parse_move(v, ms, move_text(v, m)) == m
            pos.make(m)
            made += 1
            assert pos.hash == pos.compute_hash()
            assert format(parse(v, format(pos))) == format(pos)
        for _ in range(made):
            pos.unmake()
        assert (pos.board, pos.hash) == start


# ---- searcher support -----------------------------------------------------------------------
def test_eval_terms_values_group_risk(v):
    base = {"wa1": "R", "wb1": "B", "ua1": "C", "ub1": "G", "uc1": "A", "ud1": "S",
            "wa6": "r", "wb6": "b", "ua6": "c", "ub6": "g", "uc6": "a", "ud6": "s"}
    even = setup(v, base, guards=False)
    assert v.eval_terms(even) == 0
    thin = dict(base)
    del thin["ud6"]                                   # Black's A/S/N group down to one piece
    pos = setup(v, thin, guards=False)
    assert v.eval_terms(pos) > 100
    pos = setup(v, thin, side="b", guards=False)
    assert v.eval_terms(pos) < -100
    # the lone carrier hidden in a compound with another thin group is worse still
    comp = dict(thin)
    del comp["uc6"], comp["ua6"]
    comp["uc6"] = "(ac)"
    assert v.eval_terms(setup(v, comp, guards=False)) > v.eval_terms(setup(v, thin, guards=False))


def test_is_tactical(v):
    pos = setup(v, {"wa1": "R", "wa3": "B", "wb1": "n", "wc5": "P"})
    t = texts(v, pos)
    assert not v.is_tactical(pos, t["wa1wa3"])          # fusion
    assert v.is_tactical(pos, t["wa1wb1"])              # capture
    assert v.is_tactical(pos, t["wc5wc6r"])             # promotion
    assert not v.is_tactical(pos, t["wa1wa2"])
