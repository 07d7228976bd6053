"""Betza's piece notation, read the way Fairy-Stockfish reads it (2D boards).

``parse_betza("mRcpR")`` gives the atoms of a piece (engine/pieces.py) in the first player's
frame: vectors are (file, rank) steps, +rank is forward for White.  The second player's pieces
are Fairy-Stockfish's rotated by 180 degrees (its left is White's right), so a variant whose
pieces are not left-right symmetric must use :func:`rotate` as its ``orient``.

What is read (docs/betza.md lists it with the differences from Fairy-Stockfish):

* atoms W F D N A H C/L Z/J G (leapers), K = W+F, R B Q (riders = WW FF KK);
* a doubled letter or a digit after an atom makes a rider: ``NN`` nightrider, ``R4``, ``W2``
  (at most that many steps; ``0`` = unlimited).  As in Fairy-Stockfish, riders exist on the
  W, F, K and N lines only;
* modality prefixes ``m`` (move only) and ``c`` (capture only), default both; ``e`` is read
  and ignored (Fairy-Stockfish gives en passant by its enPassantTypes key);
* direction prefixes f b l r s v h, alone or as Fairy-Stockfish's pairs (``ff``, ``fs``,
  ``fr``/``rf`` for oblique leapers, ``fh``/``rh`` halves, ``hr``/``hl`` chiral sets);
* ``p`` hoppers (any distance beyond the screen) and ``g`` grasshoppers (right behind it) on
  the W, F, K lines (pR, gB, pQ ...);
* ``n`` lame leapers N, A, D, Z/J (the cells stepped through must be empty);
* ``i`` initial moves: allowed only from a region the caller gives (Fairy-Stockfish uses the
  double-step region of the side);
* ``z`` crooked riders (Betza's own modifier, which Fairy-Stockfish does not read): ``zB``
  (= ``zFF``) and ``zR`` (= ``zWW``), with a range (``zB4``) and ``m``/``c``; each step turns
  90 degrees, alternately left and right;
* ``a`` two-leg moves, XBetza's way of writing them: ``<leg 1>a<leg 2>``, each leg a leaper
  atom with its own ``m``/``c`` and directions.  Leg 1 (``c``: it must capture, the piece
  taken in passing; ``m``: it must land on an empty cell; neither: either), then leg 2 from
  there, whose directions are relative to leg 1: ``f`` on in the same direction, ``b``
  straight back, ``v`` both, none for all of its atom's steps (back included).  Back onto
  the start is a capture without moving after a capture, a pass after an empty cell:
  Chu Shogi's Lion is ``KNADcKaKmKabK``, its Horned Falcon's forward power ``fWfDcfWavWmfWabW``.
"""
from __future__ import annotations

from collections.abc import Callable

from .geometry import Coord
from .pieces import BOTH, CAPTURE, MOVE, Atom, hop, lame, leap, legs, ride, zigzag

Origin = Callable[[Coord, int], bool]


class BetzaError(ValueError):
    """A Betza string that cannot be read; the message names the offending token."""


# what a two-leg move is written as, named by the messages that refuse one (docs/betza.md)
TWO_LEG_FORM = ("two legs are a plain leap with its modifiers, 'a', then m, c, f, b or v "
                "and one plain leaper letter: cKaK takes on a step and steps on, mKabK steps "
                "to an empty cell and back; no third leg")


# (forward, sideways) of each atom, as Fairy-Stockfish lists them
LEAPERS: dict[str, tuple[tuple[int, int], ...]] = {
    "W": ((1, 0),), "F": ((1, 1),), "D": ((2, 0),), "N": ((2, 1),), "A": ((2, 2),),
    "H": ((3, 0),), "L": ((3, 1),), "C": ((3, 1),), "J": ((3, 2),), "Z": ((3, 2),),
    "G": ((3, 3),), "K": ((1, 0), (1, 1)),
}
RIDERS: dict[str, tuple[tuple[int, int], ...]] = {
    "R": ((1, 0),), "B": ((1, 1),), "Q": ((1, 0), (1, 1)),
}
RIDER_LINES = frozenset({(1, 0), (1, 1), (2, 1)})   # Fairy-Stockfish rides W, F and N lines
HOPPER_LINES = frozenset({(1, 0), (1, 1)})
CROOKED_LINES = frozenset({(1, 0), (1, 1)})     # z: the crooked rook and bishop
LAME_ATOMS = frozenset("NADZJ")
VERTICALS, HORIZONTALS = "fbvh", "rlsh"

# The eight images of an atom (a forward, b sideways) as (file, rank) vectors, each with the
# direction words that select it (Fairy-Stockfish's table).
_IMAGES: tuple[tuple[Callable[[int, int], Coord], frozenset[str]], ...] = (
    (lambda a, b: (b, a), frozenset(("ff", "vv", "rf", "rv", "fh", "rh", "hr"))),
    (lambda a, b: (-b, -a), frozenset(("bb", "vv", "lb", "lv", "bh", "lh", "hr"))),
    (lambda a, b: (a, -b), frozenset(("rr", "ss", "br", "bs", "bh", "rh", "hr"))),
    (lambda a, b: (-a, b), frozenset(("ll", "ss", "fl", "fs", "fh", "lh", "hr"))),
    (lambda a, b: (a, b), frozenset(("rr", "ss", "fr", "fs", "fh", "rh", "hl"))),
    (lambda a, b: (-a, -b), frozenset(("ll", "ss", "bl", "bs", "bh", "lh", "hl"))),
    (lambda a, b: (b, -a), frozenset(("bb", "vv", "rb", "rv", "bh", "rh", "hl"))),
    (lambda a, b: (-b, a), frozenset(("ff", "vv", "lf", "lv", "fh", "lh", "hl"))),
)


def rotate(v: Coord) -> Coord:
    """The second player's frame as Fairy-Stockfish has it: a half turn."""
    return tuple(-x for x in v)


def atom_vectors(atom: tuple[int, int], words: list[str], split: bool) -> tuple[Coord, ...]:
    """The vectors of one atom selected by the direction words (all eight without words).
    ``split``: an orthogonal single atom reads a mixed pair such as ``fs`` as f + s."""
    if split:
        words = [w for x in words for w in ((x[0] * 2, x[1] * 2) if x[0] != x[1] else (x,))]
    out: list[Coord] = []
    for image, sel in _IMAGES:
        if not words or any(w in sel for w in words):
            v = image(*atom)
            if v not in out:
                out.append(v)
    return tuple(out)


def parse_betza(text: str, initial: Origin | None = None) -> tuple[Atom, ...]:
    """The atoms of a piece written in Betza notation.  ``initial`` is the origin predicate
    (coordinates, colour) for ``i`` moves; a string using ``i`` without it is refused."""
    atoms: list[Atom] = []
    modes: list[str] = []
    words: list[str] = []
    hopper: int | None = None     # None: no hop; 0: p (any distance); 1: g
    is_lame = is_initial = crooked = False
    start = 0                     # where the current token (prefixes + atom) began
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in "mc":
            modes.append(MOVE if c == "m" else CAPTURE)
        elif c == "e":
            pass
        elif c in "pg":
            hopper = 1 if c == "g" or hopper == 1 else 0
        elif c == "n":
            is_lame = True
        elif c == "i":
            is_initial = True
        elif c == "z":
            crooked = True
        elif c in VERTICALS or c in HORIZONTALS:
            c2 = text[i + 1] if i + 1 < n else ""
            if c2 and (c2 == c or (c in VERTICALS and c2 in HORIZONTALS)
                       or (c in HORIZONTALS and c2 in VERTICALS)):
                words.append(c + c2)
                i += 1
            else:
                words.append(c * 2)
        elif c in LEAPERS or c in RIDERS:
            base = RIDERS.get(c) or LEAPERS[c]
            rider = c in RIDERS
            limit: int | None = None
            if i + 1 < n and (text[i + 1] == c or text[i + 1].isdigit()):
                rider = True
                if text[i + 1].isdigit():
                    limit = int(text[i + 1]) or None
                i += 1
            token = text[start:i + 1]
            if i + 1 < n and text[i + 1] == "a" and not crooked:
                if rider or hopper is not None or is_lame or is_initial:
                    raise BetzaError(f"a two-leg move's first leg is a plain leap: {token!r} "
                                     f"({TWO_LEG_FORM})")
                atom, i = _second_leg(text, i + 2, token, base, modes, words)
                if i + 1 < n and text[i + 1] == "a":
                    raise BetzaError(f"a move of more than two legs: {text[start:i + 2]!r} "
                                     f"({TWO_LEG_FORM})")
                atoms.append(atom)
                modes, words, hopper = [], [], None
                start = i + 1
                i += 1
                continue
            if crooked:
                atoms.append(_crooked(token, base, rider, limit, modes, words, hopper, is_lame,
                                      is_initial))
            else:
                atoms.extend(_make_atoms(token, c, base, rider, limit, modes, words, hopper,
                                         is_lame, is_initial, initial))
            modes, words, hopper = [], [], None
            is_lame = is_initial = crooked = False
            start = i + 1
        elif c == "a":
            raise BetzaError(f"unknown Betza letter 'a' in {text!r} where no leap "
                             f"precedes it ({TWO_LEG_FORM})")
        else:
            raise BetzaError(f"unknown Betza letter {c!r} in {text!r}")
        i += 1
    if start < n:
        raise BetzaError(f"Betza modifiers without an atom: {text[start:]!r} in {text!r}")
    return tuple(atoms)


def _second_leg(text: str, j: int, token: str, base: tuple[tuple[int, int], ...],
                modes: list[str], words: list[str]) -> tuple[Atom, int]:
    """The two-leg atom whose first leg (``base``, ``modes``, ``words``) ends at ``a`` and
    whose second leg begins at text[j]; returns it with the index of its last letter."""
    modes2: list[str] = []
    rel: set[str] = set()
    k = j
    while k < len(text) and text[k] in "mcfbv":
        if text[k] in "mc":
            modes2.append(MOVE if text[k] == "m" else CAPTURE)
        else:
            rel.update("fb" if text[k] == "v" else text[k])
        k += 1
    if k >= len(text) or text[k] not in LEAPERS:
        raise BetzaError(f"a two-leg move needs a leaper atom after 'a': "
                         f"{token + text[j - 1:k + 1]!r} ({TWO_LEG_FORM})")
    letter = text[k]
    if k + 1 < len(text) and (text[k + 1] == letter or text[k + 1].isdigit()):
        raise BetzaError(f"a two-leg move's second leg is a plain leap: "
                         f"{token + text[j - 1:k + 2]!r} ({TWO_LEG_FORM})")
    first: list[Coord] = []
    for a in base:
        for v in atom_vectors(a, list(words), len(base) == 1 and a[1] == 0):
            if v not in first:
                first.append(v)
    if not first:
        raise BetzaError(f"direction modifiers select no move: {token!r}")
    steps: list[Coord] = []
    for a in LEAPERS[letter]:
        for v in atom_vectors(a, [], False):
            if v not in steps:
                steps.append(v)

    def turns(v: Coord) -> tuple[Coord, ...]:
        if not rel:
            return tuple(steps)
        out = [v] if "f" in rel else []
        if "b" in rel:
            out.append(tuple(-x for x in v))
        return tuple(w for w in out if w in steps)

    return legs(first, _mode(modes), turns, _mode(modes2)), k


def _mode(modes: list[str]) -> str:
    return BOTH if not modes or (MOVE in modes and CAPTURE in modes) else modes[0]


def _crooked(token: str, base: tuple[tuple[int, int], ...], rider: bool, limit: int | None,
             modes: list[str], words: list[str], hopper: int | None, is_lame: bool,
             is_initial: bool) -> Atom:
    """``z``: the crooked rider of a rook or bishop line.  Its first step is any of the line's
    four steps; then it turns 90 degrees at every step, alternately left and right, so the
    path zigzags away from its start (two paths per first step, ``max_dist`` steps at most)."""
    if len(base) != 1 or base[0] not in CROOKED_LINES:
        raise BetzaError(f"crooked (z) only on the rook and bishop lines (zR, zB): {token!r}")
    if not rider:
        raise BetzaError(f"crooked (z) needs a rider, as zR, zB, zWW, zFF or zB4: {token!r}")
    if hopper is not None or is_lame or is_initial:
        raise BetzaError(f"crooked (z) does not combine with p, g, n or i: {token!r}")
    if words:
        raise BetzaError(f"crooked (z) takes no direction modifiers: {token!r}")
    return zigzag(atom_vectors(base[0], [], False), _mode(modes), max_dist=limit)


def _make_atoms(token: str, letter: str, base: tuple[tuple[int, int], ...], rider: bool, limit: int | None,
                modes: list[str], words: list[str], hopper: int | None, is_lame: bool, is_initial: bool,
                initial: Origin | None) -> list[Atom]:
    if hopper is not None:
        if any(a not in HOPPER_LINES for a in base):
            raise BetzaError(f"hoppers only on rook and bishop lines: {token!r}")
        if token[-1].isdigit():
            raise BetzaError(f"a hopper takes no range: {token!r}")
    elif rider and any(a not in RIDER_LINES for a in base):
        raise BetzaError(f"riders only on the W, F and N lines: {token!r}")
    if is_lame and (hopper is not None or rider or letter not in LAME_ATOMS):
        raise BetzaError(f"lame (n) only on the N, A, D and Z leapers: {token!r}")
    origin = None
    if is_initial:
        if initial is None:
            raise BetzaError(f"initial move needs the double-step region: {token!r}")
        origin = initial
    mode = _mode(modes)
    vectors: list[Coord] = []
    for a in base:
        for v in atom_vectors(a, list(words), len(base) == 1 and a[1] == 0):
            if v not in vectors:
                vectors.append(v)
    if not vectors:
        raise BetzaError(f"direction modifiers select no move: {token!r}")
    kw = {"origin": origin} if origin is not None else {}
    if hopper is not None:
        return [hop(vectors, mode, max_dist=hopper or None, **kw)]
    if is_lame:
        return [lame(vectors, mode, **kw)]
    if rider:
        return [ride(vectors, mode, max_dist=limit, **kw)]
    return [leap(vectors, mode, **kw)]


def rank_region(white_rank: int, black_rank: int) -> Origin:
    """An origin predicate: White's moves start on rank index ``white_rank``, Black's on
    ``black_rank`` (0-based board ranks) -- Fairy-Stockfish's default double-step region is
    ``rank_region(1, ranks - 2)``."""
    return lambda c, color: c[1] == (black_rank if color else white_rank)
