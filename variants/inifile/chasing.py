"""``chasingRule`` (Fairy-Stockfish's key; ``axf`` in its xiangqi): the Asian Xiangqi
Federation's chasing rule, played as Fairy-Stockfish plays it.

At a repetition that is not decided by perpetual check (results.py), a side that chased
the same piece of the other side with every one of its moves of the cycle loses; when both
sides chased, the repetition is a draw.  A move chases a piece when, after it, the piece is
attacked (by the moved piece, or by a piece the move uncovered) and

* the piece is not the king and not a soldier still on its own side of the river;
* the attacker is a horse or a cannon and the piece a rook, or the attacker an elephant or
  an advisor and the piece a rook, cannon or horse (a stronger piece: chased even when
  protected); otherwise the piece has no protector (a protector that is pinned to its king,
  or a king that could only retake onto the open file of the other king, does not count);
* the attack is not mutual: a piece of the attacker's own kind that attacks back is not
  chased, unless it is pinned (a horse whose legs differ is judged one by one);
* a rook or cannon moving along a line chases nothing new on that line.

A move that pins one of the other side's pieces to its king also chases every piece the
pinned one protected that an unpinned piece of the mover attacks; a move that uncovers a
discovered attack on the king chases what the uncovering piece attacks (next to the king,
only what the king cannot take back).  The chased pieces are followed through the cycle
(a chased piece that moved is followed to its new cell); a side chases when at least one
piece was chased by every one of its moves since the first of the repeated positions.

The piece roles are the piece keys: ``king``, ``soldier``, ``rook``, ``cannon``, ``horse``,
``elephant`` and ``fers`` (the advisor).  Pieces of other keys take part through their own
moves as the engine's tables give them (as attackers of a direct chase and as protectors).
"""
from __future__ import annotations

from typing import Any

from engine.movegen import in_check
from engine.moves import CELL, FROM_SHIFT, NULL_MOVE, is_drop
from engine.position import Position
from engine.variant import BLACK, WHITE, Result

from .filevariant import RuleBase
from .registry import names
from .values import KeyError_, in_region

KEYS = names("chasing")
RULES = ("none", "axf")
# the roles, by piece key
KINDS = {"king": "K", "soldier": "S", "rook": "R", "cannon": "C", "horse": "H",
         "elephant": "E", "fers": "F"}
Cells = frozenset[int]


def chasing_attrs(val: dict[str, str], pieces: tuple[tuple[str, str, str], ...],
                  attrs: dict[str, Any]) -> tuple[type, ...]:
    """Set the class attributes of ``chasingRule``; the rule part it needs (none without)."""
    rule = val.get("chasingRule", "none").strip().lower()
    if rule not in RULES:
        raise KeyError_("chasingRule", "not none or axf", rule)
    attrs["chasing_rule"] = rule
    if rule == "none":
        return ()
    attrs["chase_kinds"] = {letter: KINDS[name] for name, letter, _ in pieces if name in KINDS}
    attrs["chase_king_steps"] = any(name == "king" and betza != "W" for name, _, betza in pieces)
    return (ChaseRules,)


def undo_cells(cells: Cells, m: int) -> Cells:
    """The cells before the move ``m`` of the pieces on ``cells`` after it."""
    to, frm = m & CELL, (m >> FROM_SHIFT) & CELL
    if is_drop(m) or to not in cells:
        return cells
    return (cells - {to}) | {frm}


class ChaseRules(RuleBase):
    """The chasing rule at a repetition (``check_ok_repetition``)."""
    chasing_rule = "axf"
    chase_kinds: dict[str, str] = {}
    chase_king_steps = False          # the king steps as a commoner (else as a wazir)
    flying_general = False
    soldier_rank = 1

    def __init__(self) -> None:
        super().__init__()
        geo = self.geometry
        coords, index = geo.coords, geo.index

        def at(f: int, r: int) -> int:
            return index.get((f, r), -1)
        n = len(coords)
        self._kind = [""] * (2 * len(self.piece_types))
        for pt in self.piece_types[1:]:
            if pt is not None:
                k = self.chase_kinds.get(pt.token.lower(), "")
                self._kind[pt.id * 2] = self._kind[pt.id * 2 + 1] = k
        mobility: dict = getattr(self, "mobility", {})
        self._region: list[Cells | None] = [None] * len(self._kind)
        for pt in self.piece_types[1:]:
            if pt is None:
                continue
            for col in (WHITE, BLACK):
                reg = mobility.get((col, pt.token.lower()))
                if reg is not None:
                    self._region[pt.id * 2 + col] = frozenset(
                        c for c in range(n) if in_region(coords[c], reg))
        self._rays: list[list[list[int]]] = []
        self._wazir: list[list[int]] = []
        self._fers: list[list[int]] = []
        self._knight: list[list[tuple[int, int]]] = []
        self._alfil: list[list[tuple[int, int]]] = []
        self._line: list[tuple[Cells, Cells]] = []       # the cell's file, its rank
        files = {c[0] for c in coords}
        ranks = {c[1] for c in coords}
        for c in range(n):
            f, r = coords[c][:2]
            rays = []
            for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                ray, step = [], 1
                while at(f + step * df, r + step * dr) >= 0:
                    ray.append(at(f + step * df, r + step * dr))
                    step += 1
                rays.append(ray)
            self._rays.append(rays)
            self._wazir.append([t for t in (at(f + 1, r), at(f - 1, r), at(f, r + 1), at(f, r - 1))
                                if t >= 0])
            self._fers.append([t for t in (at(f + 1, r + 1), at(f - 1, r + 1), at(f + 1, r - 1),
                                           at(f - 1, r - 1)) if t >= 0])
            kn = []
            for df, dr in ((1, 2), (-1, 2), (1, -2), (-1, -2), (2, 1), (2, -1), (-2, 1), (-2, -1)):
                t = at(f + df, r + dr)
                # the horse's leg: the first orthogonal step, toward the long side
                leg = at(f + (df // 2 if abs(df) == 2 else 0), r + (dr // 2 if abs(dr) == 2 else 0))
                if t >= 0 and leg >= 0:
                    kn.append((t, leg))
            self._knight.append(kn)
            self._alfil.append([(at(f + df, r + dr), at(f + df // 2, r + dr // 2))
                                for df, dr in ((2, 2), (-2, 2), (2, -2), (-2, -2))
                                if at(f + df, r + dr) >= 0])
            self._line.append((frozenset(at(f, y) for y in ranks if at(f, y) >= 0),
                               frozenset(at(x, r) for x in files if at(x, r) >= 0)))
        self._rank_of = [c[1] for c in coords]
        # the pieces a move chased, by (the hash before it, the move)
        self._chase_cache: dict[tuple[int, int], Cells] = {}
        self._top = max(ranks)

    # ---- attacks ------------------------------------------------------------------------
    def _promoted_soldier(self, col: int, cell: int) -> bool:
        """A soldier of ``col`` on ``cell`` has crossed (it steps sideways there)."""
        r = self._rank_of[cell]
        rel = r if col == WHITE else self._top - r
        return rel >= self.soldier_rank - 1

    def _raw(self, code: int, s: int, occ: list[int]) -> list[int]:
        """The cells a piece of ``code`` on ``s`` attacks over the occupancy ``occ``, by its
        kind's own geometry and without its mobility region (as Fairy-Stockfish's attack
        tables); a piece of no kind: its moves as the engine's tables give them."""
        k = self._kind[code]
        if k == "R":
            return self._raw_rook(s, occ)
        if k == "C":
            out = []
            for ray in self._rays[s]:
                screen = False
                for t in ray:
                    if occ[t]:
                        if screen:
                            out.append(t)
                            break
                        screen = True
            return out
        if k == "H":
            return [t for t, leg in self._knight[s] if not occ[leg]]
        if k == "E":
            return [t for t, eye in self._alfil[s] if not occ[eye]]
        if k == "F":
            return self._fers[s]
        if k == "K":
            return self._wazir[s] + (self._fers[s] if self.chase_king_steps else [])
        if k == "S":
            f, r = self.geometry.coords[s][:2]
            fwd = 1 if code & 1 == WHITE else -1
            index = self.geometry.index
            return [t for t in (index.get((f, r + fwd), -1), index.get((f + 1, r), -1),
                                index.get((f - 1, r), -1)) if t >= 0]
        return self._table_attacks(code, s, occ)

    def _table_attacks(self, code: int, s: int, occ: list[int]) -> list[int]:
        """The cells a piece of no chasing role attacks: the engine's attack tables read
        backward from every cell (its region already applied)."""
        atk = self.attacks[code & 1]
        out = []
        for t in range(len(occ)):
            if t == s:
                continue
            if any(c == s and code in codes for c, codes in atk[0][t]):
                out.append(t)
                continue
            if any(self._ray_hit(cells, sets, s, code, occ) for cells, sets in atk[1][t]) or \
                    (atk[3] is not None and any(self._hop_hit(h, s, code, occ) for h in atk[3][t])):
                out.append(t)
        return out

    @staticmethod
    def _ray_hit(cells, sets, s: int, code: int, occ: list[int]) -> bool:
        """Is ``s`` (holding ``code``) the first occupied cell of the ray, and may it take along it?"""
        for i, c in enumerate(cells):
            if c == s:
                return code in sets[i]
            if occ[c]:
                return False
        return False

    @staticmethod
    def _hop_hit(hop, s: int, code: int, occ: list[int]) -> bool:
        """Is ``s`` (holding ``code``) the first occupied cell beyond the screen of the hop?"""
        cells, sets, beyond = hop
        i, n = 0, len(cells)
        while i < n and not occ[cells[i]]:
            i += 1
        if beyond is not None and i >= beyond:
            return False
        for j in range(i + 1, n):
            if occ[cells[j]]:
                return cells[j] == s and code in sets[j]
        return False

    def _attacks_from(self, code: int, s: int, occ: list[int]) -> list[int]:
        """What the piece can take: its attacks, inside its mobility region, a soldier on
        its own side of the river forward only."""
        out = self._raw(code, s, occ)
        if self._kind[code] == "S" and not self._promoted_soldier(code & 1, s):
            f = self.geometry.coords[s][0]
            out = [t for t in out if self.geometry.coords[t][0] == f]
        reg = self._region[code]
        return out if reg is None else [t for t in out if t in reg]

    def _attackers(self, board: list[int], t: int, occ: list[int], col: int) -> set[int]:
        """The cells of ``col``'s pieces on ``board`` that attack ``t`` over ``occ``."""
        return {s for s in range(len(board)) if board[s] and board[s] & 1 == col and s != t
                and t in self._attacks_from(board[s], s, occ)}

    def _king(self, board: list[int], col: int) -> int:
        for s, code in enumerate(board):
            if code and code & 1 == col and self._kind[code] == "K":
                return s
        return -1

    def _blockers(self, board: list[int], col: int) -> set[int]:
        """The pieces (of either side) that alone stand between ``col``'s king and a rook,
        horse, elephant or cannon of the other side (two of them for a cannon)."""
        k = self._king(board, col)
        if k < 0:
            return set()
        line = self._line[k][0] | self._line[k][1]
        snipers: list[tuple[int, str]] = []
        sliding: set[int] = set()
        for s, code in enumerate(board):
            if not code or code & 1 == col:
                continue
            kind = self._kind[code]
            if kind == "H":
                if any(t == s for t, _ in self._knight[k]) and k not in self._raw(code, s, board):
                    snipers.append((s, kind))
                    sliding.add(s)
            elif kind == "E":
                if any(t == s for t, _ in self._alfil[k]) and s not in self._raw(code, k, board):
                    snipers.append((s, kind))
                    sliding.add(s)
            elif kind in ("R", "C") and s in line and s != k \
                    and s not in self._raw(code, k, board):
                snipers.append((s, kind))
                if kind == "R":
                    sliding.add(s)
        occ = [0 if c in sliding else board[c] for c in range(len(board))]
        out: set[int] = set()
        for s, kind in snipers:
            if kind == "H":
                between = [c for c in self._wazir[s] if c in self._fers[k]]
            elif kind == "E":
                between = [eye for t, eye in self._alfil[k] if t == s]
            else:
                between = self._between(k, s)
            filled = [c for c in between if (board[c] if kind == "C" else occ[c])]
            if len(filled) == 1 or (kind == "C" and len(filled) == 2):
                out.update(filled)
        return out

    def _between(self, a: int, b: int) -> list[int]:
        for ray in self._rays[a]:
            if b in ray:
                return ray[:ray.index(b)]
        return []

    # ---- the chase of one move ------------------------------------------------------------
    def chased(self, board: list[int], before: list[int], m: int, captured: int,
               us: int) -> Cells:
        """The pieces of ``us`` (to move on ``board``) that the move ``m`` (from ``before``;
        ``captured``: the code it took, 0 for none) chases."""
        them = us ^ 1
        kind = self._kind
        frm, to = (m >> FROM_SHIFT) & CELL, m & CELL
        dropped = is_drop(m)
        mine = {s for s in range(len(board)) if board[s] and board[s] & 1 == us}
        blockers = self._blockers(board, us)
        pins = set(blockers)
        their_king = self._king(board, them)
        if self.flying_general and their_king >= 0:
            on_file = [s for s in mine if s in self._line[their_king][0]]
            others = [s for s in on_file if kind[board[s]] != "K"]
            if len(others) < len(on_file) and len(others) <= 1:
                pins.update(others)
        out: set[int] = set()

        def chaseable(s: int) -> bool:
            k = kind[board[s]]
            return k != "K" and not (k == "S" and not self._promoted_soldier(us, s))

        def add(att: int, attacks: set[int]) -> None:
            if not attacks - out:
                return
            acode = board[att]
            ak = kind[acode]
            attacks = {s for s in attacks if chaseable(s)}
            if ak in ("H", "C"):
                out.update(s for s in attacks if kind[board[s]] == "R")
            if ak in ("E", "F"):
                out.update(s for s in attacks if kind[board[s]] in ("R", "C", "H"))
            if ak == "H" and any(board[c] for c in self._fers[att]):
                attacks = {s for s in attacks if board[s] >> 1 != acode >> 1
                           or att not in self._raw(board[s], s, board)}
            else:
                attacks = {s for s in attacks if board[s] >> 1 != acode >> 1 or s in pins}
            occ = board[:]
            occ[att] = 0
            for s in attacks:
                roots = self._attackers(board, s, occ, us) - pins
                if not roots or (self.flying_general and their_king >= 0
                                 and all(kind[board[r]] == "K" for r in roots)
                                 and s in self._raw_rook(their_king, occ)):
                    out.add(s)

        # direct attacks of the moved piece
        code = board[to]
        if code and kind[code] not in ("K", "S"):
            direct = {t for t in self._attacks_from(code, to, board) if t in mine}
            if kind[code] in ("R", "C") and not dropped:
                line = next((ln for ln in self._line[frm] if to in ln), frozenset())
                direct -= line
            add(to, direct)
        # attacks the move uncovered
        if not dropped:
            cands: set[int] = set()
            cands.update(s for s in self._wazir[frm] if board[s] and board[s] & 1 == them
                         and kind[board[s]] == "H")
            cands.update(s for s in self._fers[frm] if board[s] and board[s] & 1 == them
                         and kind[board[s]] == "E")
            for c, kinds in ((frm, ("R", "C")), (to, ("C",))):
                for ln in self._line[c]:
                    cands.update(s for s in ln if s != c and board[s] and board[s] & 1 == them
                                 and kind[board[s]] in kinds)
            occ_before = board[:]
            occ_before[frm] = 1
            if not captured:
                occ_before[to] = 0
            for s in sorted(cands):
                now = {t for t in self._raw(board[s], s, board) if t in mine}
                add(s, now - set(self._raw(board[s], s, occ_before)))
        # new pins and new discovered checks
        new = blockers - self._blockers(before, us)
        their_blockers = self._blockers(board, them)
        for s in new:
            if board[s] & 1 == us:
                for t in self._raw(board[s], s, board):
                    if t in mine and chaseable(t) and \
                            self._attackers(board, t, board, them) - their_blockers:
                        out.add(t)
            else:
                k = self._king(board, us)
                hits = {t for t in self._attacks_from(board[s], s, board) if t in mine}
                near = set(self._attacks_from(board[k], k, board)) if k >= 0 else set()
                out.update(hits - near)
                occ = board[:]
                occ[s] = 0
                if k >= 0:
                    occ[k] = 0
                for t in hits & near:
                    if self._attackers(board, t, occ, them) - {s}:
                        out.add(t)
        return frozenset(out)

    def _raw_rook(self, s: int, occ: list[int]) -> list[int]:
        out = []
        for ray in self._rays[s]:
            for t in ray:
                out.append(t)
                if occ[t]:
                    break
        return out

    # ---- the move rule ---------------------------------------------------------------------
    def move_rule_extension(self, pos: Position) -> int:
        """Fairy-Stockfish's xiangqi lets a long series of checks delay the move rule: after
        at least 20 moves (since the position was set up), the side that gave more checks
        over the moves the count covers gives, for each check beyond ten, two plies more."""
        r = super().move_rule_extension(pos)
        since = 0
        for rec in reversed(pos.stack):
            if rec.move == NULL_MOVE:
                break
            since += 1
        if since < 20:
            return r
        end = min(pos.halfmove, since)
        counts = [0, 0]             # checks on the side to move now, on the other side
        undone: list[int] = []
        try:
            for k in range(end + 1):
                if k % 2 == 0 and k >= end:
                    break           # the other side's position past the count's start
                if in_check(pos):
                    counts[k & 1] += 1
                if k == end:
                    break
                undone.append(pos.stack[-1].move)
                pos.unmake()
        finally:
            for m in reversed(undone):
                pos.make(m)
        return r + 2 * max(max(counts) - 10, 0)

    # ---- the repetition -------------------------------------------------------------------
    def check_ok_repetition(self, pos: Position, count: int) -> Result:
        r = super().check_ok_repetition(pos, count)
        if r is None or r[1] != "repetition":
            return r            # not a repetition yet, or decided by perpetual check
        them, us = self.chases(pos)
        if not (them or us):
            return r
        return self._chase_result(them, us)

    @staticmethod
    def _chase_result(them: Cells, us: Cells) -> tuple[int, str]:
        return (1 if not us else -1 if not them else 0,
                "perpetual chase" if not (them and us) else "mutual chase")

    def chases(self, pos: Position) -> tuple[Cells, Cells]:
        """(the pieces of the side to move that the other side chased with every move of
        the cycle, those of the other side the side to move chased so), the cycle running
        back to the earliest of the repetitions that complete the count (as the perpetual
        check's walk in results.py)."""
        walk = self._walk(pos, None)
        if walk is None:
            return frozenset(), frozenset()
        return self._chased_through(pos.side, *walk[:5])

    def judge_cycle(self, pos: Position, plies: int) -> Result:
        """A repetition the searcher met ``plies`` plies back: perpetual check (with
        ``perpetualCheckIllegal``), then the chasing rule, judged over that one cycle; None
        for a draw."""
        walk = self._walk(pos, plies)
        if walk is None:
            return None
        checks = walk[5]
        if getattr(self, "perpetual_check_illegal", False):
            them, us = all(checks[0:plies + 1:2]), all(checks[1:plies:2])
            if them or us:
                return (1 if not us else -1 if not them else 0, "perpetual check")
        them_c, us_c = self._chased_through(pos.side, *walk[:5])
        return self._chase_result(them_c, us_c) if them_c or us_c else None

    def _walk(self, pos: Position, plies: int | None):
        """The positions of the cycle, walked back from ``pos`` (then put back): to the
        earliest of the repetitions that complete the count (``plies`` None), or ``plies``
        back; and the move that led to the cycle's first position when there is one.
        (boards, moves, captured codes, hashes, the cycle's length, in check at each) or
        None when the positions do not repeat."""
        h = pos.hash
        boards = [pos.board[:]]
        hashes = [h]
        moves: list[int] = []
        caps: list[int] = []
        checks = [in_check(pos)]
        seen = last = k = 0
        undone: list[int] = []
        try:
            while pos.stack and pos.stack[-1].move != NULL_MOVE:   # (a null move: the searcher's pass)
                done = last > 0 if plies is not None else seen == self.repetition_count - 1
                moves.append(pos.stack[-1].move)
                caps.append(pos.stack[-1].cap)
                undone.append(moves[-1])
                pos.unmake()
                boards.append(pos.board[:])
                hashes.append(pos.hash)
                if done:
                    break           # one move more: the one that led to the cycle's first position
                k += 1
                checks.append(in_check(pos))
                if plies is not None:
                    if k == plies:
                        last = k
                elif k % 2 == 0 and pos.hash == h:
                    seen += 1
                    last = k
        finally:
            for m in reversed(undone):
                pos.make(m)
        if not last:
            return None
        return boards, moves, caps, hashes, last, checks

    def _chased_through(self, side: int, boards: list[list[int]], moves: list[int],
                        caps: list[int], hashes: list[int], last: int) -> tuple[Cells, Cells]:
        """The pieces chased at every move of each side over the cycle of ``last`` plies
        (positions ``boards``, 0 the newest; ``moves[i]`` led to ``boards[i]``; ``side``: to
        move in ``boards[0]``): a chased piece is followed back through the other side's
        moves to where it stood."""
        cache = self._chase_cache
        if len(cache) > 50_000:
            cache.clear()

        def chased_at(i: int) -> Cells | None:
            if i >= len(moves):
                return None                          # the first position: no move led to it
            key = (hashes[i + 1], moves[i])
            c = cache.get(key)
            if c is None:
                c = cache[key] = self.chased(boards[i], boards[i + 1], moves[i], caps[i],
                                             side ^ (i & 1))
            return c
        them = chased_at(0) or frozenset()
        for i in range(2, last + 1, 2):
            c = chased_at(i)
            if c is not None:
                them = undo_cells(them, moves[i - 1]) & c
        us = chased_at(1) or frozenset()
        for i in range(3, last, 2):
            us = undo_cells(us, moves[i - 1]) & (chased_at(i) or frozenset())
        return them, us
