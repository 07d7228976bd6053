"""The attack tables with code masks, and the attack and pin tests the core's hot paths run
on them.

``tables.build_attack_tables`` gives, per colour and target cell, the pieces that attack it as
frozensets of codes (the form variants' plugins read and build).  The attack test asks of
every cell it looks at whether the code there is in such a set: compiled, that is a boxed
int hashed into a set.  Here the same tables hold each set as one int, bit ``code`` set for
each code of the set, and each entry flattened into one tuple of ints, so that a test is a
list read and a shift (a code mask wider than 62 bits, a variant with more than 31 piece
types, is an object in the compiled engine: slower there, the same answers).

``MaskAttacks`` per colour (``mask_attack_tables``), indexed by target cell t:

* ``leaps[t]``: source cell, mask, source cell, mask, ... (``AttackTables`` leaps);
* ``rays[t]``: per ray, its cells outward from t each followed by the mask of codes that
  attack t when first met there (0 for a cell that must be empty: a lame leaper's path);
* ``slides[t]``: the rays whose masks go beyond the first cell (pin detection);
* ``hops[t]`` (None without hoppers): per entry, ``beyond`` (-1: any distance) then cells
  and masks as in a ray;
* ``selfref``: some entry of target t reads cell t itself (a ray that wraps round to its
  start): the legality filter's shortcut for royal moves, which reads the board with the
  royal lifted but not yet landed, is then not taken.

The answers are those of ``movegen.attacked_with`` and ``pinned_with`` on the frozenset
tables (``tests/test_attacks.py`` compares them).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import i64     # a machine int in the compiled engine (its loop indices)

    from .tables import AttackTables

Flat = tuple[int, ...]


class MaskAttacks:
    __slots__ = ("leaps", "rays", "slides", "hops", "selfref")

    def __init__(self, leaps: list[Flat], rays: list[tuple[Flat, ...]],
                 slides: list[tuple[Flat, ...]], hops: list[tuple[Flat, ...]] | None,
                 selfref: list[bool]) -> None:
        self.leaps = leaps
        self.rays = rays
        self.slides = slides
        self.hops = hops
        self.selfref = selfref


def _mask(codes: frozenset[int]) -> int:
    m = 0
    for c in codes:
        m |= 1 << c
    return m


def _flat_ray(cells: tuple[int, ...], sets: tuple[frozenset[int], ...]) -> Flat:
    out: list[int] = []
    for c, s in zip(cells, sets):
        out.append(c)
        out.append(_mask(s))
    return tuple(out)


def mask_attack_tables(atk: list[AttackTables]) -> list[MaskAttacks]:
    """``atk`` (one ``AttackTables`` per colour) with code masks (see the module's text)."""
    out: list[MaskAttacks] = []
    for leaps, rays, slides, hops in atk:
        n = len(leaps)
        ml: list[Flat] = []
        mr: list[tuple[Flat, ...]] = []
        ms: list[tuple[Flat, ...]] = []
        mh: list[tuple[Flat, ...]] | None = [] if hops is not None else None
        selfref: list[bool] = []
        for t in range(n):
            flat: list[int] = []
            read: set[int] = set()
            for s, codes in leaps[t]:
                flat.append(s)
                flat.append(_mask(codes))
                read.add(s)
            ml.append(tuple(flat))
            mr.append(tuple(_flat_ray(cells, sets) for cells, sets in rays[t]))
            ms.append(tuple(_flat_ray(cells, sets) for cells, sets in slides[t]))
            for cells, _sets in rays[t]:
                read.update(cells)
            if hops is not None and mh is not None:
                mh.append(tuple((-1 if beyond is None else beyond,) + _flat_ray(cells, sets)
                                for cells, sets, beyond in hops[t]))
                for cells, _sets, _beyond in hops[t]:
                    read.update(cells)
            selfref.append(t in read)
        out.append(MaskAttacks(ml, mr, ms, mh, selfref))
    return out


def attacked_mask(fa: MaskAttacks, b: list[int], t: int) -> bool:
    """Is cell t attacked on board b by a piece of the tables ``fa`` (one colour's)?  The
    answer of ``movegen.attacked_with`` on the frozenset tables.  The indices are machine
    ints when compiled (``i64``); cells, codes and masks stay ints, as a mask may be wider."""
    lp = fa.leaps[t]
    i: i64 = 0
    n: i64 = len(lp)
    while i < n:
        p = b[lp[i]]
        if p and (lp[i + 1] >> p) & 1:
            return True
        i += 2
    for ray in fa.rays[t]:
        i = 0
        n = len(ray)
        while i < n:
            p = b[ray[i]]
            if p:
                if (ray[i + 1] >> p) & 1:
                    return True
                break
            i += 2
    hops = fa.hops
    if hops is not None:
        for h in hops[t]:
            beyond: i64 = h[0]
            n = len(h)
            i = 1
            while i < n and not b[h[i]]:        # empty cells up to the screen
                i += 2
            if beyond >= 0 and (i - 1) // 2 >= beyond:
                continue
            i += 2
            while i < n:
                p = b[h[i]]
                if p:
                    if (h[i + 1] >> p) & 1:
                        return True
                    break
                i += 2
    return False


def pinned_mask(fa: MaskAttacks, b: list[int], k: int, us: int) -> set[int]:
    """Cells of colour ``us`` whose piece, if it left, would open a slider line (or a lame
    leaper's path) of the tables ``fa`` (the enemy's) onto cell k: ``movegen.pinned_with``."""
    pinned: set[int] = set()
    for ray in fa.slides[k]:
        first = -1
        i: i64 = 0
        n: i64 = len(ray)
        while i < n:
            c = ray[i]
            p = b[c]
            if p:
                if first < 0:
                    if (p & 1) != us:
                        break
                    first = c
                else:
                    if (ray[i + 1] >> p) & 1:
                        pinned.add(first)
                    break
            i += 2
    return pinned
