"""The targets of one piece from its compiled tables (``tables.py``): every part a piece's
tables can hold, leaps, rides, move-only and capture-only parts, special rays, hops, zigzag
paths and bent paths.  The generators (``movegen.py``) walk plain leaps and rides inline and
call this for everything else; variants' own generators (fusion, a pawn's triple step) call
it too.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final

from .moves import ACTED_SHIFT, DOUBLE, EP, LEGS
from .pieces import CAPTURE, MOVE
from .tables import (PART_BENT, PART_CLEAPS, PART_CRIDES, PART_HOPS, PART_LEAPS, PART_LEGS, PART_MLEAPS,
                     PART_MRIDES, PART_PATHS, PART_RIDES, PART_SPECIAL)

if TYPE_CHECKING:
    from .tables import PieceTables


def piece_targets(T: PieceTables, s: int, b: list[int], side: int, ep: int,
                  app: Callable[[int], None]) -> None:
    """Every target of the piece whose tables are T, standing on s (leaps, rides, move-only
    and capture-only parts, special rays, hops, zigzag paths, bent paths).  Appends
    target | flags, through ``app`` (for variants' own generators)."""
    tg: list[int] = []
    targets_into(T, s, b, side, ep, tg, 0)
    for t in tg:
        app(t)


def targets_into(T: PieceTables, s: int, b: list[int], side: int, ep: int,
                 out: list[int], base: int) -> None:
    """``piece_targets`` appending ``base | target | flags`` to the list ``out`` (the
    generators pass the move's from-cell field as ``base``): compiled, a list's append is a
    direct call where a callable is a generic one."""
    parts = T.parts
    if parts & PART_LEAPS:
        for t in T.leaps[s]:
            p = b[t]
            if not p or (p & 1) != side:
                out.append(base | t)
    if parts & PART_MLEAPS:
        for t in T.mleaps[s]:
            if not b[t]:
                out.append(base | t)
    if parts & PART_CLEAPS:
        for t in T.cleaps[s]:
            p = b[t]
            if p and (p & 1) != side:
                out.append(base | t)
    if parts & PART_RIDES:
        for ray in T.rides[s]:
            for t in ray:
                p = b[t]
                if not p:
                    out.append(base | t)
                else:
                    if (p & 1) != side:
                        out.append(base | t)
                    break
    if parts & PART_MRIDES:
        for ray in T.mrides[s]:
            for t in ray:
                if b[t]:
                    break
                out.append(base | t)
    if parts & PART_CRIDES:
        for ray in T.crides[s]:
            for t in ray:
                p = b[t]
                if p:
                    if (p & 1) != side:
                        out.append(base | t)
                    break
    if parts & PART_SPECIAL:
        for ray, stops, mode, flag in T.special[s]:
            k = 0
            for t in ray:
                p = b[t]
                if p:
                    if stops[k] and mode != MOVE and (p & 1) != side:
                        out.append(base | t)
                    break
                if stops[k]:
                    if mode != CAPTURE:
                        if flag == "double":
                            out.append(base | t | DOUBLE | ((ray[k - 1] ^ s) << ACTED_SHIFT))
                        else:
                            out.append(base | t)
                    elif flag == "ep" and t == ep:
                        out.append(base | t | EP)
                k += 1
    if parts & PART_HOPS:
        for ray, stops, mode, beyond in T.hops[s]:
            i, n = 0, len(ray)
            while i < n and not b[ray[i]]:      # up to the screen
                i += 1
            end = n if beyond is None else min(n, i + 1 + beyond)
            for k in range(i + 1, end):
                t = ray[k]
                p = b[t]
                if p:
                    if stops[k] and mode != MOVE and (p & 1) != side:
                        out.append(base | t)
                    break
                if stops[k] and mode != CAPTURE:
                    out.append(base | t)
    if parts & PART_PATHS:
        zig = T.paths[s]
        if zig:
            seen: set[int] = set()      # zigzags cross: a cell on two paths is one destination
            for path, stops, mode in zig:
                k = 0
                for t in path:
                    p = b[t]
                    if p:
                        if stops[k] and mode != MOVE and (p & 1) != side and t not in seen:
                            seen.add(t)
                            out.append(base | t)
                        break
                    if stops[k] and mode != CAPTURE and t not in seen:
                        seen.add(t)
                        out.append(base | t)
                    k += 1
    if parts & PART_BENT:
        for c1, stop1, rays in T.bent[s]:
            p = b[c1]
            if p:
                if stop1 and (p & 1) != side:
                    out.append(base | c1)
                continue
            if stop1:
                out.append(base | c1)
            for ray in rays:
                for t in ray:
                    p = b[t]
                    if not p:
                        out.append(base | t)
                    else:
                        if (p & 1) != side:
                            out.append(base | t)
                        break

    if parts & PART_LEGS:
        for c1, mode1, seconds in T.legs[s]:
            p = b[c1]
            if p:
                if mode1 == MOVE or (p & 1) == side:
                    continue
                took = base | LEGS | ((c1 ^ s) << ACTED_SHIFT)   # taken in passing (XOR from)
                for t, mode2 in seconds:
                    if t == s:
                        out.append(took | t)        # igui: captures without moving
                        continue
                    p = b[t]
                    if p:
                        if mode2 != MOVE and (p & 1) != side:
                            out.append(took | t)
                    elif mode2 != CAPTURE:
                        out.append(took | t)
            elif mode1 != CAPTURE:
                for t, mode2 in seconds:
                    if t == s:
                        out.append(base | LEGS | t)     # a pass
                        continue
                    p = b[t]
                    if p:
                        if mode2 != MOVE and (p & 1) != side:
                            out.append(base | t)
                    elif mode2 != CAPTURE:
                        out.append(base | t)


# the parts ``quiet_targets_into`` walks (the others: ``walk_targets`` and a filter)
QUIET_PARTS: Final = PART_LEAPS | PART_MLEAPS | PART_CLEAPS | PART_RIDES | PART_MRIDES | PART_CRIDES | PART_SPECIAL


def quiet_targets_into(T: PieceTables, s: int, b: list[int], out: list[int], base: int) -> None:
    """The targets of ``targets_into`` that land on an empty cell and take nothing, in its
    order, appended as ``base | target | flags``: what ``movegen.quiet_moves`` keeps of them,
    for a piece that does not promote from s, whose parts are all in ``QUIET_PARTS`` and do not
    overlap (a pawn: its steps, without walking its captures).  The capture-only parts and
    rays give no quiet target and are not walked."""
    parts = T.parts
    if parts & PART_LEAPS:
        for t in T.leaps[s]:
            if not b[t]:
                out.append(base | t)
    if parts & PART_MLEAPS:
        for t in T.mleaps[s]:
            if not b[t]:
                out.append(base | t)
    if parts & PART_RIDES:
        for ray in T.rides[s]:
            for t in ray:
                if b[t]:
                    break
                out.append(base | t)
    if parts & PART_MRIDES:
        for ray in T.mrides[s]:
            for t in ray:
                if b[t]:
                    break
                out.append(base | t)
    if parts & PART_SPECIAL:
        for ray, stops, mode, flag in T.special[s]:
            if mode == CAPTURE:
                continue            # captures, and en passant onto an empty cell
            k = 0
            for t in ray:
                if b[t]:
                    break
                if stops[k]:
                    if flag == "double":
                        out.append(base | t | DOUBLE | ((ray[k - 1] ^ s) << ACTED_SHIFT))
                    else:
                        out.append(base | t)
                k += 1


def walk_targets(T: PieceTables, s: int, b: list[int], side: int, ep: int) -> list[int]:
    """``piece_targets`` as a list, each target once where the piece's atoms overlap: the
    generators' path for a piece the plain loops do not cover."""
    tg: list[int] = []
    targets_into(T, s, b, side, ep, tg, 0)
    if T.overlap:
        tg = list(dict.fromkeys(tg))      # atoms that share cells: each move once
    return tg
