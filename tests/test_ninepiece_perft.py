"""Ninepiece Nichtschach: the figures of docs/variants/ninepiece.md, "Figures reproduced", and
the Stockbroker classes of its "Stockbroker (P)" (data files data/ninepiece_perft.txt and
data/ninepiece_figures.json)."""
import json
from pathlib import Path

import pytest

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves, pseudo_moves
from engine.moves import CELL, FISSION, FROM_SHIFT, FUSION, TYPE_MASK, TYPE_SHIFT
from engine.position import Position
from perft_data import load
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse

FIG = json.loads((Path(__file__).parent / "data" / "ninepiece_figures.json").read_text())
NAME = "ninepiece-nichtschach"


@pytest.fixture(scope="module")
def v():
    return variants.get(NAME)


@pytest.mark.parametrize("fen,depth,count", load("ninepiece_perft.txt"))
def test_ninepiece_perft(fen, depth, count):
    v = variants.get(NAME)
    pos = parse(v, fen)
    assert perft(pos, depth) == count
    assert format(pos) == fen
    assert pos.hash == pos.compute_hash()


def test_start_fen_is_the_rules_array(v):
    assert v.start_fen == FIG["start"]["fen"]
    assert format(parse(v, v.start_fen)) == v.start_fen


def test_start_composition(v):
    pos = parse(v, v.start_fen)
    ms = legal_moves(pos)
    pid = v.by_token["P"].id
    comp = {"stockbroker": sum(1 for m in ms if pos.board[(m >> FROM_SHIFT) & CELL] >> 1 == pid),
            "fusion": sum(1 for m in ms if m & FUSION)}
    assert comp == FIG["start"]["composition"]
    assert len(ms) == sum(comp.values())


def classify(pos, m):
    b = pos.board
    if m & FISSION:
        return "fission"
    if m & FUSION:
        return "fusion"
    cap = bool(b[m & CELL])
    promo = bool((m >> TYPE_SHIFT) & TYPE_MASK)
    return ("capture" if cap else "move") + ("+promo" if promo else "")


def test_t5_composition_fusions_and_wins(v):
    t5 = FIG["T5"]
    pos = parse(v, t5["fen"])
    ms = legal_moves(pos)
    comp = {}
    for m in ms:
        k = classify(pos, m)
        comp[k] = comp.get(k, 0) + 1
    assert comp == t5["composition"]
    fus = {move_text(v, m): m for m in ms if m & FUSION}
    assert sorted(fus) == sorted(t5["fusions"])
    for text, name in t5["fusion_names"].items():
        pos.make(fus[text])
        to = fus[text] & CELL
        assert v.piece_types[pos.board[to] >> 1].name == name
        pos.unmake()
    wins = []
    for m in ms:
        pos.make(m)
        r = game_result(pos)
        if r is not None:
            assert r[0] == -1          # the side to move (Black) has lost
            assert legal_moves(pos) == []
            wins.append(move_text(v, m))
        pos.unmake()
    assert sorted(wins) == sorted(t5["winning"])


def lone(v, tok, cell, color=0):
    pos = Position(v)
    pos.board[cell] = v.by_token[tok].id * 2 + color
    pos.side = color
    pos.reset_state()
    return pos


def reachable(v, tok, cell):
    seen, todo = {cell}, [cell]
    while todo:
        c = todo.pop()
        for m in pseudo_moves(lone(v, tok, c)):
            t = m & CELL
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return len(seen)


@pytest.mark.parametrize("tok", list("RBUGASFCN"))
def test_empty_board_counts(v, tok):
    """One piece on the empty board: moves from wc3 and ua1, the sum over all cells, reachable
    cells."""
    centre, corner, total, reach = FIG["empty_board"][tok]
    geo = v.geometry
    n = lambda c: len(pseudo_moves(lone(v, tok, c)))  # noqa: E731
    assert n(geo.by_name["wc3"]) == centre
    assert n(geo.by_name["ua1"]) == corner
    assert sum(n(c) for c in range(geo.size)) == total
    assert reachable(v, tok, geo.by_name["ua1"]) == reach
    assert reachable(v, tok, geo.by_name["wc3"]) == reach


@pytest.mark.parametrize("tok", list("RBUGASFCN"))
def test_empty_board_counts_black_mirror(v, tok):
    """Black's lone piece on the rank-mirrored cell has the same count (all linepieces are
    symmetric, so the frames must agree)."""
    geo = v.geometry
    for name in ("wc3", "ua1", "xe5"):
        c = geo.by_name[name]
        l, f, r = geo.coords[c]
        m = geo.index[(l, f, 5 - r)]
        assert len(pseudo_moves(lone(v, tok, c))) == len(pseudo_moves(lone(v, tok, m, 1)))


def stockbroker_counts(v, filename, color=0):
    """(non-capturing, capturing SD, capturing ND) of a Stockbroker on rank 3 (White) or rank 4
    (Black, the same rank in its own frame), with an enemy Rook on every capture cell."""
    geo = v.geometry
    rank = 3 if color == 0 else 4
    cell = geo.by_name[f"{filename}{rank}"]
    pos = lone(v, "P", cell, color)
    quiet = [m & CELL for m in pseudo_moves(pos)]
    tab = v.tables[v.by_token["P"].id * 2 + color]
    for t in tab.cleaps[cell]:
        pos.board[t] = v.by_token["R"].id * 2 + (color ^ 1)
    pos.reset_state()
    caps = [m & CELL for m in pseudo_moves(pos) if pos.board[m & CELL]]
    l, f, _ = geo.coords[cell]
    sd = sum(1 for t in caps if sum(1 for a, b in zip(geo.coords[t][:2], (l, f)) if a != b) == 1)
    return len(quiet), sd, len(caps) - sd


@pytest.mark.parametrize("filename", ["wc", "vb", "vc", "ua", "ub", "uc"])
def test_stockbroker_by_file(v, filename):
    """Stockbroker by file (White on rank 3; Black on rank 4 gives the same)."""
    ring_, quiet, caps, sd, nd = FIG["stockbroker_rank3"][filename]
    geo = v.geometry
    assert v.ring_of[geo.by_name[f"{filename}3"]] == ring_
    for color in (0, 1):
        assert stockbroker_counts(v, filename, color) == (quiet, sd, nd)
        assert sd + nd == caps


def test_stockbroker_file_classes(v):
    """Stockbroker classes (a)-(d): every one of the 36 files, non-capturing and capturing
    counts."""
    cls = FIG["stockbroker_classes"]
    named = set()
    for key in "abc":
        files, quiet, caps = cls[key]
        for fn in files:
            q, sd, nd = stockbroker_counts(v, fn)
            assert (q, sd + nd) == (quiet, caps), fn
            named.add(fn)
    _, quiet, caps = cls["d"]
    others = [f"{lv}{fs}" for lv in "uvwxyz" for fs in "abcdef" if f"{lv}{fs}" not in named]
    assert len(others) == cls["d_count"]
    for fn in others:
        q, sd, nd = stockbroker_counts(v, fn)
        assert (q, sd, nd) == (quiet, 1, 2), fn


@pytest.mark.parametrize("tok", list("GASFCN"))
def test_bent_paths(v, tok):
    """24 paths (d1, d2) from an interior cell, and no cell is reached by two paths,
    from any cell of the board."""
    geo = v.geometry
    tab = v.tables[v.by_token[tok].id * 2]
    s = geo.by_name["wc3"]
    assert sum(len(rays) for c1, stop1, rays in tab.bent[s]) == FIG["bent_paths"][tok]
    for s in range(geo.size):
        dest = []
        for c1, _stop1, rays in tab.bent[s]:
            dest.append(c1)
            for ray in rays:
                dest.extend(ray)
        assert len(dest) == len(set(dest)), geo.name(s)


@pytest.mark.parametrize("tok", ["(RB)", "(GA)", "(SC)", "(FN)"])
def test_compound_tables_equal_compiled_union(v, tok):
    """The joined component tables are exactly what compiling the union of atoms gives."""
    from engine.tables import compile_piece
    pt = v.by_token[tok]
    for color in (0, 1):
        ref = compile_piece(v, pt, color)
        got = v.tables[pt.id * 2 + color]
        for attr in ("leaps", "mleaps", "cleaps", "rides", "mrides", "crides", "special", "bent"):
            assert getattr(got, attr) == getattr(ref, attr), attr
        assert got.simple == ref.simple
