"""Ninepiece Nichtschach's pieces as the plugin ``fusion = ninepiece`` sees them
(docs/variants/ninepiece.md, "The nine linepieces", "Stockbroker (P)", "Fusion and
fission"): names, values and stages of the linepieces, the fusion rules and the 24 named
compounds, the Stockbroker's ring steps, and the turn of the 3D notation's (file, rank,
level) vectors into the cube's (level, file, rank).
"""
from __future__ import annotations

from dataclasses import replace

from engine.pieces import BENT, Atom
from variants.board3d import DIR_INDEX, LATERAL, SIZE, ring

# the simple linepieces by letter: name; the piece values in centipawns (about 30 cp per
# move of average mobility, measured with the evaluator's 35% blocker density, plus a base)
NAMES = {"R": "Rook", "B": "Bishop", "U": "Unicorn", "G": "Gryphon", "A": "Anchorite",
         "S": "Simurgh", "F": "Farrier", "C": "Celebrant", "N": "Nag", "P": "Stockbroker"}
VALUES = {"R": 390, "B": 500, "U": 300, "G": 810, "A": 650, "S": 620, "F": 550, "C": 500,
          "N": 590, "P": 100}
# a compound is worth a little less than its two parts: it keeps both moves and may split
# again, but one capture takes both, so fusing must pay for itself in mobility or safety
COMPOUND_SHARE = 0.95
LINE = {"O": "O", "S": "SD", "T": "ND"}        # the 3D atom letter: the line kind

# the canonical order of the simple linepieces (also the order of compound tokens) and their
# stages (short, long): the file writes R as O*, G as S>O* ...; plugin_check holds it to these
ORDER = "RBUGASFCN"
STAGES = {"R": ("O", "O"), "B": ("SD", "SD"), "U": ("ND", "ND"), "G": ("SD", "O"),
          "A": ("O", "SD"), "S": ("ND", "O"), "F": ("O", "ND"), "C": ("ND", "SD"),
          "N": ("SD", "ND")}

# the 24 compounds (docs/variants/ninepiece.md, "Fusion and fission") by their tokens
COMPOUND_NAMES = {
    "RB": "Queen", "RU": "Duchess", "BU": "Governor", "GA": "Gorgon", "SF": "Mechanic",
    "CN": "Laypreacher", "RG": "Reaper", "RS": "Harpy", "GS": "Rooksheath", "BA": "Harvester",
    "BC": "Epicure", "AC": "Bishosheath", "UF": "Gunsmith", "UN": "Manticore",
    "FN": "Unicosheath", "RA": "Ancress", "RF": "Farrieress", "AF": "Ostler",
    "BG": "Metropolitan", "BN": "Patriarch", "GN": "Hippogryph", "US": "Cosmopolitan",
    "UC": "Godfather", "SC": "Termagant",
}

# victory groups ("End of the game"): a side with no piece of one group (components
# included) has lost
GROUPS = ("RBU", "GCF", "ASN")
GROUP_NAMES = ("straight", "gryphon-celebrant-farrier", "anchorite-simurgh-nag")
STOCKBROKER = "mfO cfT"      # the file's ring-free part of the Stockbroker


def stages_of(text: str) -> tuple[str, str] | None:
    """(short stage, long stage) of a linepiece written ``X*`` or ``X>Y*`` (X, Y one of
    O S T), else None."""
    t = text.strip()
    if len(t) == 2 and t[0] in LINE and t[1] == "*":
        return LINE[t[0]], LINE[t[0]]
    if len(t) == 4 and t[0] in LINE and t[1] == ">" and t[2] in LINE and t[3] == "*" and t[0] != t[2]:
        return LINE[t[0]], LINE[t[2]]
    return None


def fusion_rule(a: str, b: str) -> int:
    """The first fusion rule (1-4) that allows the linepieces with tokens a and b, 0 if none:
    (1) both straight, (2) both turn by the same angle, (3) the same long stage, (4) the same
    short stage."""
    if a == b:
        return 0
    sa, sb = STAGES[a], STAGES[b]
    ka = None if sa[0] == sa[1] else frozenset(sa)
    kb = None if sb[0] == sb[1] else frozenset(sb)
    if ka is None and kb is None:
        return 1
    if ka is not None and ka == kb:
        return 2
    if sa[1] == sb[1]:
        return 3
    if sa[0] == sb[0]:
        return 4
    return 0


def _cube(v: tuple[int, ...]) -> tuple[int, ...]:
    """A (file, rank, level) vector of the 3D notation in the cube's (level, file, rank)."""
    return (v[2], v[0], v[1])


def _notation(v: tuple[int, ...]) -> tuple[int, ...]:
    return (v[1], v[2], v[0])


def in_cube(a: Atom) -> Atom:
    """The atom in the cube's coordinates, its directions (and a bent atom's second legs) in
    the order of the cube's direction sets (O6, SD12, ND8 of variants/board3d.py)."""
    vectors = a.vectors
    assert not callable(vectors)
    vs = tuple(sorted((_cube(v) for v in vectors), key=DIR_INDEX.__getitem__))
    if a.kind != BENT:
        return replace(a, vectors=vs)
    turns = a.turns

    def cube_turns(v, turns=turns):
        return sorted((_cube(w) for w in turns(_notation(v))), key=DIR_INDEX.__getitem__)
    return replace(a, vectors=vs, turns=cube_turns)


def _on(lv: int, f: int) -> bool:
    return 0 <= lv < SIZE and 0 <= f < SIZE


def stockbroker_move(coord):
    """fO and the two forward SD steps that keep the file's ring (move only)."""
    lv, f = coord[0], coord[1]
    r0 = ring(lv, f)
    out = [(0, 0, 1)]
    for dl, df in LATERAL:
        if _on(lv + dl, f + df) and ring(lv + dl, f + df) == r0:
            out.append((dl, df, 1))
    return out


def stockbroker_capture(coord):
    """The forward SD steps that change ring, and all four forward ND steps (capture only)."""
    lv, f = coord[0], coord[1]
    r0 = ring(lv, f)
    out = []
    for dl, df in LATERAL:
        if _on(lv + dl, f + df) and ring(lv + dl, f + df) != r0:
            out.append((dl, df, 1))
    for dl in (1, -1):
        for df in (1, -1):
            out.append((dl, df, 1))
    return out
