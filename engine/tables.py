"""Compile piece atoms into per-cell move tables, once per variant.

For every piece code (type id * 2 + colour) and every cell the tables hold plain tuples of
target cells (leaps) and of rays (tuples of cells in order).  Rays whose cells cannot all be
stopped on (odd-only riders, a double step, a destination barred by a variant filter) go to
``special`` together with a parallel tuple of stop flags; a lame leap goes there too, as
its path with flag ``lame`` (only the last cell is a stop, an occupied cell before it blocks).
Paths that are not straight and may share cells with other paths of the same piece (a
crooked piece's zigzags) go to ``paths``: walked like rays, each destination listed once.
The generator never looks at coordinates.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .pieces import BENT, BOTH, CAPTURE, HOP, LAME, LEAP, LEGS, MOVE, RIDE, ZIGZAG, lame_path

if TYPE_CHECKING:
    from .geometry import Geometry
    from .pieces import PieceType
    from .variant import Variant


Cells = tuple[int, ...]
Special = tuple[Cells, tuple[bool, ...], str, "str | None"]     # ray, stop flags, mode, flag
Bent = tuple[int, bool, tuple[Cells, ...]]                      # c1, may stop on c1, rays
Hop = tuple[Cells, tuple[bool, ...], str, "int | None"]         # line, stops, mode, beyond
Path = tuple[Cells, tuple[bool, ...], str]                      # cells, stops, mode
Legs = tuple[int, str, tuple[tuple[int, str], ...]]    # c1, its mode, (last cell, its mode)s

# the inverse attack tables of one colour (``build_attack_tables``)
LeapAttack = tuple[int, frozenset[int]]                         # source cell, codes
RayAttack = tuple[Cells, tuple[frozenset[int], ...]]            # cells outward, codes per index
HopAttack = tuple[Cells, tuple[frozenset[int], ...], "int | None"]  # ... and beyond the screen
AttackTables = tuple[list[tuple[LeapAttack, ...]], list[tuple[RayAttack, ...]],
                     list[tuple[RayAttack, ...]], "list[tuple[HopAttack, ...]] | None"]

# the promotion table (``Variant.promo``): code -> {(from, to): resulting type ids, 0 = stays};
# an empty tuple: the generators make no move from -> to at all (a file variant's piece that
# could not move on from there and may not promote: variants/inifile/movefilter.py), while the
# attack tables keep it
Promotions = dict[int, dict[tuple[int, int], tuple[int, ...]]]


class PieceTables:
    __slots__ = ("code", "leaps", "mleaps", "cleaps", "rides", "mrides", "crides",
                 "special", "bent", "hops", "paths", "simple", "overlap", "capbits", "epcells",
                 "caprides", "capfast", "capcells", "parts", "legs")

    def __init__(self, code: int, n: int) -> None:
        self.code = code
        self.leaps: list[Cells] = [()] * n
        self.mleaps: list[Cells] = [()] * n
        self.cleaps: list[Cells] = [()] * n
        self.rides: list[tuple[Cells, ...]] = [()] * n
        self.mrides: list[tuple[Cells, ...]] = [()] * n
        self.crides: list[tuple[Cells, ...]] = [()] * n
        self.special: list[tuple[Special, ...]] = [()] * n   # (ray, stops, mode, flag)
        self.bent: list[tuple[Bent, ...]] = [()] * n         # (c1, may stop on c1, rays from c1)
        self.hops: list[tuple[Hop, ...]] = [()] * n          # (line, stops, mode, cells beyond the screen)
        self.paths: list[tuple[Path, ...]] = [()] * n        # (cells, stops, mode): zigzags
        self.legs: list[tuple[Legs, ...]] = [()] * n         # two-leg moves (pieces.legs)
        self.simple = True       # only leaps / rides of mode both
        self.overlap = False     # two entries reach one cell: the generator lists it once
        # the capture index (``index_captures``): per cell, the cells a leap may capture on as
        # one bit mask, the cells of en-passant capture leaps, and whether leaps, rides and
        # those capture leaps are all the piece can capture with
        self.capbits: list[int] = [0] * n
        self.capcells: list[Cells] = [()] * n       # the same cells, ascending
        self.epcells: list[Cells] = [()] * n
        self.caprides: list[tuple[Cells, ...]] = [()] * n   # rides and capture rides
        self.capfast = False
        # which parts hold anything on some cell, one bit each (``PART_LEAPS`` ...), for the
        # walker to skip the empty ones: every part until ``index_captures`` sets it
        self.parts = PART_ALL


# the parts of a piece's tables, as bits of ``PieceTables.parts``
PART_LEAPS: Final = 1
PART_MLEAPS: Final = 2
PART_CLEAPS: Final = 4
PART_RIDES: Final = 8
PART_MRIDES: Final = 16
PART_CRIDES: Final = 32
PART_SPECIAL: Final = 64
PART_HOPS: Final = 128
PART_PATHS: Final = 256
PART_BENT: Final = 512
PART_LEGS: Final = 1024
PART_ALL: Final = 2047


def _add(lst: list, cell: int, item: object) -> None:
    lst[cell] = lst[cell] + (item,)


def compile_piece(variant: Variant, ptype: PieceType, color: int) -> PieceTables:
    geo = variant.geometry
    code = ptype.id * 2 + color
    tab = PieceTables(code, geo.size)
    orient = variant.orient if color else (lambda v: v)
    allow = variant.allow_move
    for cell in range(geo.size):
        coord = geo.coords[cell]
        for atom in ptype.atoms:
            if atom.origin is not None and not atom.origin(coord, color):
                continue
            for v0 in atom.vectors_at(variant.white_coord(coord, color)):
                v = orient(v0)
                if atom.kind == LEAP:
                    t = geo.step(cell, v)
                    if t is None or not allow(code, cell, t):
                        continue
                    target = {BOTH: tab.leaps, MOVE: tab.mleaps, CAPTURE: tab.cleaps}[atom.mode]
                    if atom.flag:
                        _add(tab.special, cell, ((t,), (True,), atom.mode, atom.flag))
                    elif t not in target[cell]:
                        _add(target, cell, t)
                elif atom.kind == RIDE:
                    ray = geo.ray(cell, v, atom.max_dist)
                    if not ray:
                        continue
                    stops = tuple((atom.stops is None or k + 1 in atom.stops) and allow(code, cell, t)
                                  for k, t in enumerate(ray))
                    # trailing cells where it can never stop are useless
                    while ray and not stops[-1]:
                        ray, stops = ray[:-1], stops[:-1]
                    if not ray:
                        continue
                    if all(stops) and not atom.flag:
                        rtarget = {BOTH: tab.rides, MOVE: tab.mrides, CAPTURE: tab.crides}[atom.mode]
                        _add(rtarget, cell, tuple(ray))
                    else:
                        _add(tab.special, cell, (tuple(ray), stops, atom.mode, atom.flag))
                elif atom.kind == BENT:
                    c1 = geo.step(cell, v)
                    if c1 is None:
                        continue
                    rays = []
                    assert atom.turns is not None, f"a bent atom needs turns ({ptype.name})"
                    for w0 in atom.turns(v0):
                        r = geo.ray(c1, orient(w0), atom.max_dist)
                        r = [t for t in r if allow(code, cell, t)]
                        if r:
                            rays.append(tuple(r))
                    _add(tab.bent, cell, (c1, allow(code, cell, c1), tuple(rays)))
                elif atom.kind == LAME:
                    steps = [geo.step(cell, w) for w in lame_path(v) + (v,)]
                    path = [c for c in steps if c is not None]
                    if len(path) < len(steps) or not allow(code, cell, path[-1]):
                        continue
                    stops = (False,) * (len(path) - 1) + (True,)
                    _add(tab.special, cell, (tuple(path), stops, atom.mode, LAME))
                elif atom.kind == ZIGZAG:
                    assert atom.turns is not None, f"a zigzag atom needs turns ({ptype.name})"
                    for w0 in atom.turns(v0):
                        zig = _zigzag(geo, cell, v, orient(w0), atom.max_dist)
                        stops = tuple(allow(code, cell, t) for t in zig)
                        while zig and not stops[-1]:
                            zig, stops = zig[:-1], stops[:-1]
                        if zig:
                            _add(tab.paths, cell, (zig, stops, atom.mode))
                elif atom.kind == HOP:
                    ray = geo.ray(cell, v, None)
                    if len(ray) < 2:           # no cell beyond a screen
                        continue
                    stops = tuple(allow(code, cell, t) for t in ray)
                    _add(tab.hops, cell, (tuple(ray), stops, atom.mode, atom.max_dist))
                elif atom.kind == LEGS:
                    assert atom.turns is not None, f"a two-leg atom needs turns ({ptype.name})"
                    c1 = geo.step(cell, v)
                    if c1 is None:
                        continue
                    seconds: list[tuple[int, str]] = []
                    for w0 in atom.turns(v0):
                        t = geo.step(c1, orient(w0))
                        if t is not None and (t == cell or allow(code, cell, t)) \
                                and all(t != u for u, _ in seconds):
                            seconds.append((t, atom.mode2))
                    if seconds:
                        _add(tab.legs, cell, (c1, atom.mode, tuple(seconds)))
                else:
                    raise ValueError(f"unknown atom kind {atom.kind!r} ({ptype.name})")
    tab.simple = not any(tab.mleaps) and not any(tab.cleaps) and not any(tab.mrides) \
        and not any(tab.crides) and not any(tab.special) and not any(tab.bent) \
        and not any(tab.hops) and not any(tab.paths) and not any(tab.legs)
    tab.overlap = any(_overlaps(tab, s) for s in range(geo.size))
    # a first leg onto an empty cell gives plain moves and passes, which other atoms (or other
    # first legs) may give too: listed once
    if any(m1 != CAPTURE for row in tab.legs for _c1, m1, _sec in row):
        tab.overlap = True
    if tab.overlap:
        tab.simple = False
    return tab


def index_captures(tab: PieceTables) -> None:
    """Fill the capture index of ``tab`` (see ``PieceTables``), for the generator of captures
    alone (``movegen.pseudo_moves(pos, True)``), which takes a leaper's captures from one
    mask against the enemy's cells instead of walking every target (half the time of that
    generator on Knavish middlegames, measured).  ``capfast`` holds
    where the captures are exactly: the leaps' and capture leaps' cells holding an enemy
    piece, the first piece on each ride or capture ride when it is an enemy, and an
    en-passant leap onto the en-passant cell; a piece with a special ray that can capture
    (other than a one-cell capture leap), a bent path, a hop, a zigzag or overlapping atoms
    keeps the general walk."""
    fast = not tab.overlap
    for s in range(len(tab.leaps)):
        bits = 0
        cells = set(tab.leaps[s] + tab.cleaps[s])
        for t in cells:
            bits |= 1 << t
        ep: list[int] = []
        for ray, stops, mode, flag in tab.special[s]:
            if mode == MOVE:
                continue                # never captures
            if len(ray) == 1 and stops[0] and mode == CAPTURE and flag in (None, "ep"):
                bits |= 1 << ray[0]
                cells.add(ray[0])
                if flag == "ep":
                    ep.append(ray[0])
            else:
                fast = False
        if tab.bent[s] or tab.hops[s] or tab.paths[s] or tab.legs[s]:
            fast = False
        tab.capbits[s] = bits
        # the cells of bits, ascending (not read off the bits: that is quadratic in the cells)
        tab.capcells[s] = tuple(sorted(cells))
        tab.epcells[s] = tuple(ep)
        tab.caprides[s] = tab.rides[s] + tab.crides[s]
    tab.capfast = fast
    parts = 0
    for bit, part in ((PART_LEAPS, tab.leaps), (PART_MLEAPS, tab.mleaps), (PART_CLEAPS, tab.cleaps),
                      (PART_RIDES, tab.rides), (PART_MRIDES, tab.mrides), (PART_CRIDES, tab.crides),
                      (PART_SPECIAL, tab.special), (PART_HOPS, tab.hops), (PART_PATHS, tab.paths),
                      (PART_BENT, tab.bent), (PART_LEGS, tab.legs)):
        if any(part):
            parts |= bit
    tab.parts = parts


def _overlaps(tab: PieceTables, s: int) -> bool:
    """Can two entries of the tables of a piece on s reach the same cell in the same way (both
    by a move to an empty cell, or both by a capture)?  Fairy-Stockfish's moves are pairs of
    cells, so ``RW`` steps one cell once, not once as a rook and once as a wazir; where atoms
    overlap like this the generator removes the repeats."""
    seen: tuple[dict[int, int], dict[int, int]] = ({}, {})   # cell -> entry, moves / captures

    def entry(cells: Cells | set[int], mode: str, k: int) -> bool:
        for i, book in ((0, seen[0]), (1, seen[1])):
            if mode == (CAPTURE if i == 0 else MOVE):
                continue
            for t in cells:
                if book.setdefault(t, k) != k:
                    return True
        return False

    groups: list[tuple[Cells | set[int], str]] = []
    groups += [((t,), BOTH) for t in tab.leaps[s]] + [((t,), MOVE) for t in tab.mleaps[s]]
    groups += [((t,), CAPTURE) for t in tab.cleaps[s]]
    groups += [(r, BOTH) for r in tab.rides[s]] + [(r, MOVE) for r in tab.mrides[s]]
    groups += [(r, CAPTURE) for r in tab.crides[s]]
    for r, st, mode, flag in tab.special[s]:
        cells = tuple(t for t, ok in zip(r, st) if ok)
        if flag == "ep":
            mode = CAPTURE
        groups.append((cells, mode))
    for c1, stop1, rays in tab.bent[s]:
        groups.append((((c1,) if stop1 else ()) + tuple(t for r in rays for t in r), BOTH))
    for r, st, mode, _beyond in tab.hops[s]:
        groups.append((tuple(t for t, ok in zip(r[1:], st[1:]) if ok), mode))
    if tab.paths[s]:                    # zigzags share cells among themselves by design
        groups.append((reachable_paths(tab, s), BOTH))
    return any(entry(cells, mode, k) for k, (cells, mode) in enumerate(groups))


def reachable_paths(tab: PieceTables, s: int) -> set[int]:
    """The cells a crooked piece on s may stop on (its zigzags list each once already)."""
    return {t for r, st, _mode in tab.paths[s] for t, ok in zip(r, st) if ok}


def _zigzag(geo: Geometry, cell: int, v: tuple[int, ...], w: tuple[int, ...],
            max_dist: int | None) -> Cells:
    """The cells of the path v, w, v, w, ... from cell, to the edge or ``max_dist`` steps."""
    out: list[int] = []
    cur = cell
    while max_dist is None or len(out) < max_dist:
        nxt = geo.step(cur, w if len(out) % 2 else v)
        if nxt is None:
            break
        out.append(nxt)
        cur = nxt
    return tuple(out)


def reachable(tab: PieceTables, s: int) -> set[int]:
    """Cells a piece on s could move or capture to on some board: every cell of its leaps and
    rays it may stop on; a hopper's cells beyond the first of its line (over a screen)."""
    out = set(tab.leaps[s]) | set(tab.mleaps[s]) | set(tab.cleaps[s])
    for group in (tab.rides[s], tab.mrides[s], tab.crides[s]):
        for r in group:
            out.update(r)
    for r, st, _mode, _flag in tab.special[s]:
        out.update(t for t, ok in zip(r, st) if ok)
    for c1, stop1, rays in tab.bent[s]:
        if stop1:
            out.add(c1)
        for r in rays:
            out.update(r)
    for r, st, _mode, _beyond in tab.hops[s]:
        out.update(t for t, ok in zip(r[1:], st[1:]) if ok)
    for r, st, _mode in tab.paths[s]:
        out.update(t for t, ok in zip(r, st) if ok)
    for c1, mode1, seconds in tab.legs[s]:
        if mode1 != MOVE:
            out.add(c1)                 # taken in passing
        out.update(t for t, _m in seconds if t != s)
    return out


def supports_attack_tables(tab: PieceTables) -> bool:
    """The inverse attack tables describe leaps, rays, lame paths and hops from the target; a
    bent path does not fit them."""
    return not any(tab.bent)


def build_attack_tables(variant: Variant, tables: dict[int, PieceTables]) -> list[AttackTables]:
    """Inverse tables: for a target cell, which pieces of one colour attack it from where.

    Returns per colour: (leaps, rays, slider_rays, hops) indexed by target cell.
      leaps[t]  = tuple of (source cell, frozenset of codes capturing t by a leap from there)
      rays[t]   = tuple of (cells outward from t, tuple of frozensets: codes that capture t
                   when they are the first piece met at that index); a lame leaper's or a
                   zigzag's entry is its path walked back from t (cells that must be empty,
                   then the piece), and a path that begins a longer one shares its entry
      slider_rays[t] = the rays whose sets go beyond the first cell (for pin detection)
      hops[t]   = tuple of (cells outward from t, sets as in rays, beyond): empty cells, a
                   screen (either colour) fewer than ``beyond`` cells away (any distance when
                   None), empty cells, then a hopper whose code is in the set at its index
    """
    geo = variant.geometry
    n = geo.size
    out: list[AttackTables] = []
    for color in (0, 1):
        leaps: list[dict[int, set[int]]] = [{} for _ in range(n)]
        rays: list[dict[tuple, dict[int, set[int]]]] = [{} for _ in range(n)]
        paths: list[dict[Cells, set[int]]] = [{} for _ in range(n)]
        hops: list[dict[tuple, dict[int, set[int]]]] = [{} for _ in range(n)]
        for code, tab in tables.items():
            if code & 1 != color:
                continue
            if not supports_attack_tables(tab):
                raise ValueError("attack tables do not support bent pieces")
            for s in range(n):
                for t in tab.leaps[s] + tab.cleaps[s]:
                    leaps[t].setdefault(s, set()).add(code)
                entries: list[tuple[Cells, tuple[bool, ...] | None]] = \
                    [(r, None) for r in tab.rides[s] + tab.crides[s]]
                for r, st, mode, flag in tab.special[s]:
                    if mode == MOVE:
                        continue
                    if flag == LAME and len(r) > 1:
                        back = tuple(reversed(r[:-1])) + (s,)
                        paths[r[-1]].setdefault(back, set()).add(code)
                    else:
                        entries.append((r, st))
                for r, sts in entries:
                    if len(r) == 1 and (sts is None or sts[0]):
                        leaps[r[0]].setdefault(s, set()).add(code)
                        continue
                    w = _back(geo, s, r[0])
                    for k, t in enumerate(r):
                        if sts is not None and not sts[k]:
                            continue
                        d = rays[t].setdefault(w, {})
                        d.setdefault(k, set()).add(code)   # piece at distance k+1 from t
                for r, st, mode in tab.paths[s]:
                    if mode == MOVE:
                        continue
                    for k, t in enumerate(r):
                        if not st[k]:
                            continue
                        if k == 0:
                            leaps[t].setdefault(s, set()).add(code)
                        else:
                            back = tuple(reversed(r[:k])) + (s,)
                            paths[t].setdefault(back, set()).add(code)
                for c1, mode1, seconds in tab.legs[s]:
                    _leg_attacks(tab, s, c1, mode1, seconds, code, leaps, paths)
                for r, st, mode, beyond in tab.hops[s]:
                    if mode == MOVE:
                        continue
                    w = _back(geo, s, r[0])
                    for j in range(1, len(r)):
                        if st[j]:    # the hopper stands at index j outward from r[j]
                            hops[r[j]].setdefault((w, beyond), {}).setdefault(j, set()).add(code)
        leap_t: list[tuple[LeapAttack, ...]] = []
        ray_t: list[tuple[RayAttack, ...]] = []
        slide_t: list[tuple[RayAttack, ...]] = []
        hop_t: list[tuple[HopAttack, ...]] = []
        for t in range(n):
            leap_t.append(tuple((s, frozenset(c)) for s, c in leaps[t].items()))
            rs: list[RayAttack] = []
            sl: list[RayAttack] = []
            for w, d in rays[t].items():
                entry = _outward(geo, t, w, d)
                rs.append(entry)
                if len(entry[0]) > 1:
                    sl.append(entry)
            for entry in _merge_paths(paths[t]):
                rs.append(entry)
                sl.append(entry)
            ray_t.append(tuple(rs))
            slide_t.append(tuple(sl))
            hop_t.append(tuple(_outward(geo, t, w, d) + (beyond,)
                               for (w, beyond), d in hops[t].items()))
        # no hopper of this colour: None, so the attack test skips the hop walk at no cost
        out.append((leap_t, ray_t, slide_t, hop_t if any(hop_t) else None))
    return out


def _leg_attacks(tab: PieceTables, s: int, c1: int, mode1: str,
                 seconds: tuple[tuple[int, str], ...], code: int,
                 leaps: list[dict[int, set[int]]], paths: list[dict[Cells, set[int]]]) -> None:
    """The attacks of one two-leg entry: its first cell when the first leg may capture (a
    capture without moving takes it), and each last cell that may be captured on: through an
    empty first cell as a lame path; after a capture in passing only where the piece's leaps
    reach that cell anyway (the tables cannot ask whose piece stands on the first cell), a
    piece whose capture would attack more is refused."""
    if mode1 != MOVE and any(t == s for t, _m in seconds):
        leaps[c1].setdefault(s, set()).add(code)
    for t, mode2 in seconds:
        if t == s or mode2 == MOVE:
            continue
        if mode1 != CAPTURE:
            paths[t].setdefault((c1, s), set()).add(code)
        if mode1 != MOVE and t not in tab.leaps[s] and t not in tab.cleaps[s]:
            raise ValueError(f"a two-leg move capturing in passing reaches cell {t} from {s}, "
                             "which the piece's leaps do not attack: not supported (a piece "
                             "that takes in passing needs a leap of its own to every cell its "
                             "second leg ends on, as the Lion's KNAD covers its cKaK)")


def _merge_paths(paths: dict[Cells, set[int]]) -> list[RayAttack]:
    """Ray entries for paths walked back from a target (cells that must be empty, then the
    attacker): a path that begins another one joins it, as one code set at its length."""
    kept: list[tuple[Cells, dict[int, set[int]]]] = []
    for cells in sorted(paths, key=len, reverse=True):
        n = len(cells)
        home = next((d for c, d in kept if c[:n] == cells), None)
        if home is None:
            home = {}
            kept.append((cells, home))
        home.setdefault(n - 1, set()).update(paths[cells])
    return [(cells, tuple(frozenset(d.get(k, ())) for k in range(len(cells))))
            for cells, d in kept]


def _back(geo: Geometry, s: int, first: int) -> tuple[int, ...]:
    """The step from a ray's first cell back toward its source s."""
    return tuple(a - b for a, b in zip(geo.coords[s], geo.coords[first]))


def _outward(geo: Geometry, t: int, w: tuple[int, ...], d: dict[int, set[int]]) -> RayAttack:
    """(cells outward from t along w, codes per index) for index -> codes d."""
    cells = geo.ray(t, w)
    top = max(d) + 1
    return tuple(cells[:top]), tuple(frozenset(d.get(k, ())) for k in range(top))
