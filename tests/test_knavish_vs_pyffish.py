"""Knavish Chess against Fairy-Stockfish: pyffish loads the very file cellfish ships
(variants/files/knavish.ini), under the same section names.  Fairy-Stockfish ignores the
keys it does not know, so cellfish's own ruling keys there (docs/variant-files.md, "cellfish's
own rulings") are simply not applied by pyffish: it plays its own rule at those points, the
known differences below.

Seeded random playouts, two kinds of game: plain ones (random moves, somewhat biased toward
promotions and captures) and steered ones, which prefer the special rules whenever they are
legal (castling, the Pawn's double step, en passant, Pawn promotion to Q and to C, Pawns close
to the far rank, moves onto the far rank and the optional '+' promotion, drops in the return
forms), so that the comparison covers them.

At every CHECK-th ply, and at every ply where castling, en passant or a promotion is legal, the
legal move texts must be the same set, and Fairy-Stockfish, given our start position text and
our move texts of the whole game, must reach our position text (the half-move clock: see
below).  Every SAMPLE plies a sample position gets perft 2, compared root move by root move as
the two engines' sets of replies; a position with more than MAX_ROOT moves (the return forms
with full hands have 400+ drops) is compared at perft 1 (its move set) and at perft 2 only
for DIVIDE_SUBSET seeded root moves, so those positions are sampled too.  Games go on until
NEEDED sample positions were compared and every special move kind the variant has
(``required``) has appeared in a compared, agreeing move list and has been played.

Known rule differences, where the test checks OUR rule (docs/variants/knavish.md, "Where
Fairy-Stockfish rules differently"):
* optional promotion (R/B -> Q, Knave/Debtor -> C): Fairy-Stockfish also offers it on moves
  that only START on the far rank; our ruling 7 allows it only on moves that END there.
  Such Fairy-Stockfish moves (text ending in '+', destination not on the far rank) are
  removed from its lists before comparing, at the root and in perft 2.
* half-move clock: our ruling 9 (FIDE's fifty-move rule) restarts it only on a capture, a
  Pawn move and (return forms) a Pawn drop; Fairy-Stockfish also restarts it on every drop
  and on a piece ('+') promotion.  So in the optional-promotion and return forms the two
  clocks can differ.  The test recomputes both along the game (``clock_after``): our
  position text must carry our clock; Fairy-Stockfish's is
  compared with ours where the two rules give the same value, and must equal its own rule's
  value where they differ (so that difference is the only one).
"""
import random
import re
from collections import Counter
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import CASTLE, CELL, DOUBLE, EP, FROM_SHIFT, TYPE_MASK, TYPE_SHIFT, is_drop
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse

import pyffish as sf  # a real peer: a missing pyffish fails the suite, never skips it
KNAVISH_INI = Path(__file__).parent.parent / "variants" / "files" / "knavish.ini"
sf.load_variant_config(KNAVISH_INI.read_text())

NAMES = ["knavish", "knavish8", "knavish-kneader", "knavish-promotion", "knavish-returns",
         "knavish8-promotion", "knavish8-returns"]
SF_NAME = {n: n for n in NAMES}       # the same sections in both engines
MAX_GAMES, PLIES, CHECK, SAMPLE, NEEDED = 16, 120, 4, 12, 30
PLAIN = 3          # every PLAIN-th game (the first included) is a plain random game
MAX_ROOT = 150     # full perft 2 up to this many root moves (each Fairy-Stockfish call costs
DIVIDE_SUBSET = 40  # ~1.5 ms); above it perft 2 for this many seeded root moves only
CELL_NAME = re.compile(r"[a-j]\d+")
# the kinds that trigger a check of the position when one of them is legal
CHECKED_KINDS = {"O-O", "O-O-O", "en passant", "pawn promotion q", "pawn promotion c",
                 "+ promotion"}


def optional_promotion(v):
    """Has variant v the optional '+' promotion (promotedPieceType)?"""
    return bool(v.promoted_of)


def required(v):
    """The special move kinds variant v has, each of which must be covered."""
    kinds = {"O-O", "O-O-O", "double step", "en passant", "pawn promotion q", "pawn promotion c"}
    if optional_promotion(v):
        kinds.add("+ promotion")
    if v.hands:
        kinds |= {"P drop", "piece drop"}
    return kinds


def kind(v, m, text):
    """The special rule that legal move m (text `text`) exercises, else None."""
    frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
    if is_drop(m):
        return "P drop" if text[0] == "P" else "piece drop"
    if m & CASTLE:
        coords = v.geometry.coords
        return "O-O" if coords[to][0] > coords[frm][0] else "O-O-O"
    if m & EP:
        return "en passant"
    if m & DOUBLE:                        # the Pawn's double step (it may leave an e.p. cell)
        return "double step"
    if text[-1] in "qc":                  # cells end in a digit: a letter is a promotion
        return "pawn promotion " + text[-1]
    if text.endswith("+"):
        return "+ promotion"
    return None


def sf_moves(v, sfname, fen, moves=(), side=None):
    """Fairy-Stockfish's legal moves less its promotions on moves that do not end on the far
    rank (see the module note)."""
    out = sf.legal_moves(sfname, fen, list(moves))
    if side is None:
        side = fen.split()[1]
    far = str(v.ranks) if side == "w" else "1"
    return [m for m in out if not (m.endswith("+") and CELL_NAME.findall(m)[1][1:] != far)]


def compare_perft2(v, sfname, pos, fen, legal, texts, rnd):
    """Perft 2 as the two engines' reply sets after each root move: all root moves, or
    DIVIDE_SUBSET seeded ones when there are more than MAX_ROOT.  Returns the leaf count."""
    other = "b" if fen.split()[1] == "w" else "w"
    idx = range(len(legal))
    if len(legal) > MAX_ROOT:       # half board moves (if there are as many), the rest drops
        board = [i for i, m in enumerate(legal) if not is_drop(m)]
        drops = [i for i, m in enumerate(legal) if is_drop(m)]
        idx = rnd.sample(board, min(len(board), DIVIDE_SUBSET // 2))
        idx = sorted(idx + rnd.sample(drops, min(len(drops), DIVIDE_SUBSET - len(idx))))
    leaves = 0
    for i in idx:
        pos.make(legal[i])
        ours = sorted(move_text(v, r) for r in legal_moves(pos))
        pos.unmake()
        assert ours == sorted(sf_moves(v, sfname, fen, [texts[i]], other)), (fen, texts[i])
        leaves += len(ours)
    return leaves


def clock_after(v, pos, m, text, ours, theirs):
    """The half-move clocks after m: ours (ruling 9 of docs/variants/knavish.md: restarts
    on a capture, a Pawn move, a Pawn drop) and Fairy-Stockfish's (also restarts on
    any drop and on a '+' promotion); see the module note."""
    frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
    pts = v.piece_types
    if is_drop(m):
        reset = pts[(m >> TYPE_SHIFT) & TYPE_MASK].pawn
        return (0 if reset else ours + 1), 0
    reset = bool(pos.board[to]) or bool(m & EP) or pts[pos.board[frm] >> 1].pawn
    return (0 if reset else ours + 1), (0 if reset or text.endswith("+") else theirs + 1)


def pick_plain(rnd, legal, texts, pos):
    """Random move, biased toward promotions and captures."""
    promos = [m for m, t in zip(legal, texts) if t.endswith("+") or t[-1] in "qc"]
    if promos and rnd.random() < 0.6:
        return rnd.choice(promos)
    caps = [m for m in legal if pos.board[m & CELL]]
    if caps and rnd.random() < 0.5:
        return rnd.choice(caps)
    return rnd.choice(legal)


def castling_path(v, side, rights):
    """The cells that a castling the side still has the right to needs empty (steering only;
    the engine's own castling table is good enough to aim at)."""
    return {c for r in v.castling if r.color == side and rights & r.bit for c in r.empty}


def pick_steered(rnd, v, pos, legal, texts, kinds):
    """Random move that prefers the special rules when they are legal."""
    by = {}
    for m, k in zip(legal, kinds):
        by.setdefault(k, []).append(m)
    pawn_promos = by.get("pawn promotion q", []) + by.get("pawn promotion c", [])
    for group, p in ((by.get("en passant"), 0.9), (by.get("O-O", []) + by.get("O-O-O", []), 0.6),
                     (pawn_promos, 0.8), (by.get("+ promotion"), 0.5)):
        if group and rnd.random() < p:
            return rnd.choice(group)
    coords, pts, board = v.geometry.coords, v.piece_types, pos.board
    side = pos.side
    far = v.ranks - 1 if side == 0 else 0
    board_moves = [m for m in legal if not is_drop(m)]
    path = castling_path(v, side, pos.castle)
    clearing = [m for m in board_moves if (m >> FROM_SHIFT) & CELL in path and m & CELL not in path]
    if clearing and rnd.random() < 0.5:       # empty the cells between King and Rook
        return rnd.choice(clearing)
    onto_far = [m for m in board_moves if coords[m & CELL][1] == far
                and not pts[board[(m >> FROM_SHIFT) & CELL] >> 1].pawn]
    if onto_far and rnd.random() < 0.25:
        return rnd.choice(onto_far)
    if by.get("double step") and rnd.random() < 0.4:
        return rnd.choice(by["double step"])
    pushes = [m for m in board_moves if pts[board[(m >> FROM_SHIFT) & CELL] >> 1].pawn]
    if pushes and rnd.random() < 0.3:         # the most advanced Pawn's moves
        gone = max(abs(coords[(m >> FROM_SHIFT) & CELL][1] - (v.ranks - 1 - far)) for m in pushes)
        return rnd.choice([m for m in pushes
                           if abs(coords[(m >> FROM_SHIFT) & CELL][1] - (v.ranks - 1 - far)) == gone])
    caps = [m for m in board_moves if board[m & CELL]]
    if caps and rnd.random() < 0.4:
        return rnd.choice(caps)
    if len(board_moves) < len(legal) and board_moves and rnd.random() < 0.7:
        return rnd.choice(board_moves)        # drops would crowd everything else out
    return rnd.choice(legal)


def play(name):
    """Play and compare; returns the statistics the test asserts on."""
    v = variants.get(name)
    sfname = SF_NAME[name]
    rnd = random.Random(20260404 + len(name))
    sub = random.Random(404 + len(name))       # root-move subsets, apart from the playouts
    need = required(v)
    covered, played = Counter(), Counter()
    stats = Counter()
    games = 0
    while games < MAX_GAMES and not done(v, need, covered, played, stats):
        steered = games % PLAIN != 0
        games += 1
        pos = parse(v, v.start_fen)
        start, played_texts, due = format(pos), [], False
        clock = sf_clock = 0
        pending = Counter()                    # played kinds not yet followed by a check
        for ply in range(PLIES + 1):
            legal = legal_moves(pos)
            texts = [move_text(v, m) for m in legal]
            kinds = [kind(v, m, t) for m, t in zip(legal, texts)]
            due = due or ply % SAMPLE == SAMPLE - CHECK
            over = ply == PLIES or not legal or game_result(pos, legal) is not None
            if ply % CHECK == 0 or over or CHECKED_KINDS.intersection(kinds):
                fen = format(pos)
                mine, theirs = fen.split(), sf.get_fen(sfname, start, played_texts).split()
                assert mine[4] == str(clock), ("our half-move clock", start, played_texts)
                if clock == sf_clock:
                    assert mine == theirs, (start, played_texts)
                else:
                    stats["clock differs"] += 1
                    assert theirs[4] == str(sf_clock), ("FSF half-move clock", start, played_texts)
                    assert mine[:4] + mine[5:] == theirs[:4] + theirs[5:], (start, played_texts)
                assert sorted(texts) == sorted(sf_moves(v, sfname, fen)), fen
                stats["checked"] += 1
                stats["~"] += "~" in mine[0]
                covered.update(k for k in set(kinds) if k)
                played.update(pending)
                pending.clear()
                if due and stats["sampled"] < NEEDED:
                    stats["leaves"] += compare_perft2(v, sfname, pos, fen, legal, texts, sub)
                    stats["sampled"] += 1
                    stats["sampled > MAX_ROOT"] += len(legal) > MAX_ROOT
                    due = False
            if over:
                break
            if steered:
                m = pick_steered(rnd, v, pos, legal, texts, kinds)
            else:
                m = pick_plain(rnd, legal, texts, pos)
            i = legal.index(m)
            if kinds[i]:
                pending[kinds[i]] += 1
            clock, sf_clock = clock_after(v, pos, m, texts[i], clock, sf_clock)
            pos.make(m)
            played_texts.append(texts[i])
        stats["plies"] += len(played_texts)
    stats["games"] = games
    return need, covered, played, stats


def done(v, need, covered, played, stats):
    """The goals of the playouts of variant v (asserted by the test): NEEDED sample positions;
    every special move kind in a compared, agreeing move list, and played with a position
    compared after it (``played`` counts only those); with hands, a Pawn-promoted piece on
    the board ('~', it returns as a Pawn) and a sample with more than MAX_ROOT moves; with
    optional promotion, a compared position where the two half-move clock rules differ."""
    return (stats["sampled"] >= NEEDED and need <= set(covered) and need <= set(played)
            and (not v.hands or (stats["~"] > 0 and stats["sampled > MAX_ROOT"] > 0))
            and (not optional_promotion(v) or stats["clock differs"] > 0))


@pytest.mark.parametrize("name", list(SF_NAME))
def test_random_playouts_agree_with_fairy_stockfish(name):
    v = variants.get(name)
    need, covered, played, stats = play(name)
    assert stats["sampled"] >= NEEDED
    assert need <= set(covered), ("never in a compared move list", need - set(covered))
    assert need <= set(played), ("never played", need - set(played))
    if v.hands:
        assert stats["~"] > 0 and stats["sampled > MAX_ROOT"] > 0, stats
    if optional_promotion(v):
        assert stats["clock differs"] > 0, stats
    assert done(v, need, covered, played, stats)
