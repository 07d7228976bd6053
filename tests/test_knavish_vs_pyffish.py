"""Knavish Chess against Fairy-Stockfish (pyffish, loading tests/data/knavish.ini, a copy of
shared/rules/knavish.ini).

Random playouts with a fixed seed.  At every CHECK-th ply the legal move texts must be the same
set, and Fairy-Stockfish, given our start position text and our move texts of the whole game,
must reach our position text; at every SAMPLE-th ply the perft 2 counts must agree too
(NEEDED = 30 positions per variant).

Known rule differences, where the test checks OUR rule (knavish.md):
* optional promotion (R/B -> Q, Knave/Debtor -> C): Fairy-Stockfish also offers it on moves
  that only START on the far rank; knavish.md 7.7 allows it only on moves that END there.  Such
  Fairy-Stockfish moves (text ending in '+', destination not on the far rank) are removed from
  its lists before comparing, at the root and inside perft 2.
* half-move clock: Fairy-Stockfish restarts it on every drop and on a piece promotion;
  knavish.md 7.9 restarts it only on captures, Pawn moves and (returns) Pawn drops.  In the
  variants with optional promotion the position texts are compared without that field.
"""
import random
import re
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from protocol.move_text import move_text
from protocol.position_text import format, parse

sf = pytest.importorskip("pyffish")
sf.load_variant_config((Path(__file__).parent / "data" / "knavish.ini").read_text())

SF_NAME = {"knavish": "knavish", "knavish8": "knavish8", "knavish-kneader": "kneader",
           "knavish-promotion": "knavishpromo", "knavish-returns": "knavishreturn",
           "knavish8-promotion": "knavish8promo", "knavish8-returns": "knavish8return"}
MAX_GAMES, PLIES, CHECK, SAMPLE, NEEDED = 12, 120, 4, 12, 30
MAX_ROOT = 150     # a perft-2 sample waits for a position with at most this many moves
                   # (each Fairy-Stockfish call costs ~1.5 ms; full hands give 400+ drops)
CELL = re.compile(r"[a-j]\d+")


def sf_moves(v, sfname, fen, moves=(), side=None):
    """Fairy-Stockfish's legal moves less its promotions on moves that do not end on the far
    rank (see the module note)."""
    out = sf.legal_moves(sfname, fen, list(moves))
    if side is None:
        side = fen.split()[1]
    far = str(v.ranks) if side == "w" else "1"
    return [m for m in out if not (m.endswith("+") and CELL.findall(m)[1][1:] != far)]


def sf_perft2(v, sfname, fen):
    other = "b" if fen.split()[1] == "w" else "w"
    return sum(len(sf_moves(v, sfname, fen, [m], other)) for m in sf_moves(v, sfname, fen))


def our_perft2(pos):
    n = 0
    for m in legal_moves(pos):
        pos.make(m)
        n += len(legal_moves(pos))
        pos.unmake()
    return n


def pick(rnd, v, pos, legal):
    """Random move, biased toward promotions and captures so that the special rules occur."""
    texts = [move_text(v, m) for m in legal]
    promos = [m for m, t in zip(legal, texts) if t.endswith("+") or t[-1] in "qc"]
    if promos and rnd.random() < 0.6:
        return rnd.choice(promos)
    caps = [m for m in legal if pos.board[m & 255]]
    if caps and rnd.random() < 0.5:
        return rnd.choice(caps)
    return rnd.choice(legal)


@pytest.mark.parametrize("name", list(SF_NAME))
def test_random_playouts_agree_with_fairy_stockfish(name):
    v = variants.get(name)
    sfname = SF_NAME[name]
    rnd = random.Random(20260404 + len(name))
    sampled = games = 0
    seen = {"+": 0, "@": 0, "~": 0, "promotion": 0}
    while sampled < NEEDED and games < MAX_GAMES:
        games += 1
        pos = parse(v, v.start_fen)
        start, played, due = format(pos), [], False
        for ply in range(PLIES):
            legal = legal_moves(pos)
            if ply % CHECK == 0:
                fen = format(pos)
                mine, theirs = fen.split(), sf.get_fen(sfname, start, played).split()
                if v.optional_promotion:
                    del mine[4], theirs[4]
                assert mine == theirs, (start, played)
                ours = sorted(move_text(v, m) for m in legal)
                assert ours == sorted(sf_moves(v, sfname, fen)), fen
                due = due or ply % SAMPLE == SAMPLE - CHECK
                if due and sampled < NEEDED and len(legal) <= MAX_ROOT:
                    assert our_perft2(pos) == sf_perft2(v, sfname, fen), fen
                    sampled += 1
                    due = False
            if not legal or game_result(pos, legal) is not None:
                break
            m = pick(rnd, v, pos, legal)
            text = move_text(v, m)
            pos.make(m)
            played.append(text)
            seen["+"] += text.endswith("+")
            seen["@"] += "@" in text
            seen["promotion"] += text[-1] in "qc"
            seen["~"] += "~" in format(pos).split()[0]
    assert sampled >= NEEDED
    # the playouts did reach the rules that make the variants differ
    if v.optional_promotion:
        assert seen["+"] > 0
    if v.hands:
        assert seen["@"] > 0 and seen["~"] > 0
