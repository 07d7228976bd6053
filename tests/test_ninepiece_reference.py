"""Ninepiece Nichtschach: the fast generator against a plain, slow one written straight from
docs/variants/ninepiece.md, "The game in brief" (coordinates, no tables), compared move set by move set along
random games that fuse, split, capture and promote."""
import json
import random
from itertools import product
from pathlib import Path

import pytest

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import CELL, FISSION, FUSION
from engine.notation.move_text import move_text
from engine.notation.position_text import format, parse

FIG = json.loads((Path(__file__).parent / "data" / "ninepiece_figures.json").read_text())
NAME = "ninepiece-nichtschach"

O6 = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 1]
SD12 = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 2]
ND8 = [v for v in product((-1, 0, 1), repeat=3) if sum(map(abs, v)) == 3]
LINE = {"O": O6, "SD": SD12, "ND": ND8}
STAGES = {"R": ("O", "O"), "B": ("SD", "SD"), "U": ("ND", "ND"), "G": ("SD", "O"),
          "A": ("O", "SD"), "S": ("ND", "O"), "F": ("O", "ND"), "C": ("ND", "SD"),
          "N": ("SD", "ND")}
GROUPS = ("RBU", "GCF", "ASN")
PAIRS = {frozenset(k) for k in FIG["fusion_pairs"]}


def name(c):
    return "uvwxyz"[c[0]] + "abcdef"[c[1]] + str(c[2] + 1)


def add(c, d, k=1):
    t = tuple(a + k * b for a, b in zip(c, d))
    return t if all(0 <= a < 6 for a in t) else None


def ring(l, f):
    return (max(abs(2 * l - 5), abs(2 * f - 5)) - 1) // 2


def board_of(fen):
    """{(l, f, r): (token upper, colour)} from the 3D-FEN text, read independently."""
    out = {}
    for l, level in enumerate(fen.split()[0].split("|")):
        for i, row in enumerate(level.split("/")):
            r, f, j = 5 - i, 0, 0
            while j < len(row):
                ch = row[j]
                if ch.isdigit():
                    f += int(ch)
                    j += 1
                    continue
                tok = row[j:row.index(")", j) + 1] if ch == "(" else ch
                j += len(tok)
                out[(l, f, r)] = (tok.strip("()").upper(), 0 if tok.upper() == tok else 1)
                f += 1
    return out


def reach(board, c, tok):
    """Cells a simple linepiece on c reaches: each empty cell, and each first occupied one."""
    short, long_ = STAGES[tok]
    out = []
    if short == long_:
        for d in LINE[short]:
            k = 1
            while (t := add(c, d, k)) is not None:
                out.append(t)
                if t in board:
                    break
                k += 1
        return out
    for d1 in LINE[short]:
        c1 = add(c, d1)
        if c1 is None:
            continue
        out.append(c1)
        if c1 in board:
            continue
        for d2 in LINE[long_]:
            if sum(a * b for a, b in zip(d1, d2)) <= 0:
                continue
            k = 1
            while (t := add(c1, d2, k)) is not None:
                out.append(t)
                if t in board:
                    break
                k += 1
    return out


def reference_moves(fen):
    board = board_of(fen)
    side = 0 if fen.split()[1] == "w" else 1
    have = set()
    for tok, col in board.values():
        if col == side:
            have.update(tok)
    if any(not (set(g) & have) for g in GROUPS):
        return set()
    fwd = 1 if side == 0 else -1
    far = 5 if side == 0 else 0
    out = set()
    for c, (tok, col) in board.items():
        if col != side:
            continue
        if tok == "P":
            l, f, r = c
            steps = [((0, 0, fwd), "move")]
            for dl, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                if 0 <= l + dl < 6 and 0 <= f + df < 6:
                    same = ring(l + dl, f + df) == ring(l, f)
                    steps.append(((dl, df, fwd), "move" if same else "capture"))
            for dl, df in product((1, -1), repeat=2):
                steps.append(((dl, df, fwd), "capture"))
            for d, mode in steps:
                t = add(c, d)
                if t is None:
                    continue
                occ = board.get(t)
                if (mode == "move" and occ is None) or (mode == "capture" and occ and occ[1] != side):
                    base = name(c) + name(t)
                    if t[2] == far:
                        out.update(base + p for p in "rbugasfcn")
                    else:
                        out.add(base)
            continue
        if len(tok) == 1:
            for t in reach(board, c, tok):
                occ = board.get(t)
                if occ is None or occ[1] != side:
                    out.add(name(c) + name(t))
                elif len(occ[0]) == 1 and occ[0] != "P" and frozenset((tok, occ[0])) in PAIRS:
                    out.add(name(c) + name(t))          # fusion
            continue
        for comp in tok:
            for t in reach(board, c, comp):
                occ = board.get(t)
                if occ is None:
                    out.add(name(c) + name(t))
                    out.add(name(c) + name(t) + "/" + comp.lower())
                elif occ[1] != side:
                    out.add(name(c) + name(t))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_fast_generator_agrees_with_reference(seed):
    v = variants.get(NAME)
    rnd = random.Random(seed)
    pos = parse(v, v.start_fen if seed % 2 == 0 else FIG["T5"]["fen"])
    kinds = set()
    for _ply in range(70):
        fen = format(pos)
        ms = legal_moves(pos)
        got = [move_text(v, m) for m in ms]
        assert len(got) == len(set(got)), fen
        assert set(got) == reference_moves(fen), fen
        if not ms or game_result(pos, ms) is not None:
            break
        caps = [m for m in ms if pos.board[m & CELL] and not m & FUSION]
        spec = [m for m in ms if m & (FUSION | FISSION)]
        roll = rnd.random()
        pool = caps if caps and roll < 0.35 else spec if spec and roll < 0.6 else ms
        rnd.shuffle(pool)
        m = pool[0]
        for cand in pool:                 # keep the game going while it can
            pos.make(cand)
            over = game_result(pos) is not None
            pos.unmake()
            if not over:
                m = cand
                break
        kinds.add("fusion" if m & FUSION else "fission" if m & FISSION else
                  "capture" if pos.board[m & CELL] else "move")
        pos.make(m)
    assert {"fusion", "fission", "capture", "move"} <= kinds
