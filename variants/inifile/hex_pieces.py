"""The piece notation of a hexagonal board (docs/variant-files.md, "Hexagonal boards").

Betza's letters, read on hexagons: a cell has six orthogonal neighbours (through an edge) and
six diagonal ones (through a corner).  A piece is one or more terms separated by spaces; a
term is modifiers, then an atom, then an optional range:

  atom      W   one orthogonal step (6 cells)      F   one diagonal step (6 cells)
            R   W ridden (the hex rook)            B   F ridden (the hex bishop)
            K   W and F (the king, 12 cells)       Q   R and B (the queen)
            N   the 12 cells three steps away that lie on no line (Glinski's knight): one
                orthogonal step, then one diagonal step outward, leaping
            <x,y>  one axial vector (file, up the file); several in a row are one atom
  range     R, B, Q, <x,y>* take a number: R2 is a rook of at most 2 cells; W, F, K and N
            are leaps and take none (<x,y> is a leap, <x,y>* a ride, <x,y>*3 a ride of 3)
  modifier  m, c    move only, capture only (neither: both)
            f, b, h the directions that climb, fall, or stay level (in White's frame, where
                    up the file is forward)
            v, s    the directions along the file, or to another file
            Letters of one family join (fb: climbing or falling); the two families cut each
            other (fv: straight up the file; fs: the two forward steps at 60 degrees).

Vectors are White's; Black's are White's mirrored front to back.  The order of the vectors
is the order moves are generated in (it shows in perft divide lists only).
"""
from __future__ import annotations

import re

from engine.geometry import HEX_DIAG, HEX_KNIGHT, HEX_ORTH, Coord, hex_height
from engine.pieces import BOTH, CAPTURE, MOVE, Atom, leap, ride

_VEC = r"-?\d+,-?\d+"
_TERM = re.compile(rf"(?P<mods>[mcfbhvs]*)(?P<atom>[WFRBKQN]|(?:<{_VEC}>)+)(?P<range>\*?\d*)")
_RIDERS = {"R": (HEX_ORTH,), "B": (HEX_DIAG,), "Q": (HEX_ORTH, HEX_DIAG)}
_LEAPERS = {"W": (HEX_ORTH,), "F": (HEX_DIAG,), "K": (HEX_ORTH, HEX_DIAG), "N": (HEX_KNIGHT,)}


class HexPieceError(ValueError):
    """A hex piece that cannot be read: ``token`` is the bad term."""

    def __init__(self, what: str, token: str) -> None:
        super().__init__(f"{what} ({token})")
        self.what, self.token = what, token


def _keep(v: Coord, mods: str) -> bool:
    """Is vector v among the directions the modifiers name?"""
    height = set(mods) & set("fbh")
    line = set(mods) & set("vs")
    h = hex_height(v)
    if height and not (("f" in height and h > 0) or ("b" in height and h < 0)
                       or ("h" in height and h == 0)):
        return False
    return not line or ("v" in line and v[0] == 0) or ("s" in line and v[0] != 0)


# what a hex piece is written as, named by the messages that refuse one
HEX_FORM = ("a hex piece is terms separated by spaces, each modifiers (m c f b h v s), one "
            "atom (W F R B K Q N or <x,y> vectors) and a range, as p:fvmW fscW")
_LEG = re.compile(r"[mcfbhvs]*[WFRBKQN]a")


def _not_a_term(tok: str) -> str:
    """Why ``tok`` is no hex term, where a usual mistake explains it ("" else)."""
    if _LEG.match(tok):
        return "two-leg moves with 'a' are read on square boards only"
    if re.fullmatch(r"[mcfbhvs]*[WFRBKQN]{2,}\d*", tok):
        return "one atom per term, terms separated by spaces: K N, not KN"
    if re.search(r"[A-Z]", tok) and not re.search(r"[WFRBKQN]", tok):
        return "no hex atom: D, A, Z and the other square-board letters are none"
    return ""


def _term(tok: str) -> list[Atom]:
    m = _TERM.fullmatch(tok)
    if m is None:
        why = _not_a_term(tok)
        raise HexPieceError(f"not a hex term{f' ({why})' if why else ''}: {HEX_FORM}", tok)
    mods, atom, rng = m.group("mods"), m.group("atom"), m.group("range")
    if "m" in mods and "c" in mods:
        raise HexPieceError("m and c together: a term that neither moves nor captures", tok)
    mode = MOVE if "m" in mods else CAPTURE if "c" in mods else BOTH
    if atom[0] == "<":
        vectors = tuple((int(x), int(y)) for x, y in re.findall(r"<(-?\d+),(-?\d+)>", atom))
        if len(set(vectors)) != len(vectors):
            raise HexPieceError("a vector given twice", tok)
        if any(v == (0, 0) for v in vectors):
            raise HexPieceError("a vector needs a nonzero component", tok)
        groups: tuple[tuple[Coord, ...], ...] = (vectors,)
        riding = rng.startswith("*")
        if rng and not riding:
            raise HexPieceError("a vector's range is * or *N", tok)
        limit_text = rng[1:]
    elif atom in _RIDERS:
        groups, riding = _RIDERS[atom], True
        if rng.startswith("*"):
            raise HexPieceError("a rider's range is a number (R2), not *", tok)
        limit_text = rng
    else:
        groups, riding = _LEAPERS[atom], False
        if rng:
            raise HexPieceError("a leaper takes no range (ride it with R, B, Q or <x,y>*)", tok)
        limit_text = ""
    limit = int(limit_text) if limit_text else None
    if limit is not None and limit < 1:
        raise HexPieceError("a ride of at most 0 steps", tok)
    out: list[Atom] = []
    for group in groups:
        vecs = [v for v in group if _keep(v, mods)]
        if not vecs:
            continue
        out.append(ride(vecs, mode, max_dist=limit) if riding else leap(vecs, mode))
    if not out:
        raise HexPieceError("the modifiers leave no direction", tok)
    return out


def parse_hex_piece(text: str) -> tuple[Atom, ...]:
    """The atoms of a hex piece; raises HexPieceError."""
    toks = text.split()
    if not toks:
        raise HexPieceError("a piece needs at least one term", text)
    return tuple(a for t in toks for a in _term(t))
