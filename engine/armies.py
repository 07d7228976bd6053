"""What a side's pieces mean to a win rule of the kind "keep enough pieces of each kind" (a
direction, a class, a victory group), kept per army, compiled with the engine.

Such facts (which directions or groups a side still holds, how thin they are, which captures
would end the game) depend only on the multiset of piece codes the side has on the board:
captures, returns and promotions change it, other moves do not.  ``ArmyMemo`` keeps them per
army (an ``Army``: the side's sorted codes and the facts the rule computed from them) and per
side by the position's hash (adjudication, evaluation and capture gains each ask of the same
node).  A position the memo has not seen follows from the nearest position before it that was
seen (a search asks at some nodes only), through the moves since, when each was an ordinary
one (no flag but a double step, no hook's changes): a plain move keeps both armies, a capture
takes the captured code from the opponent's, a promotion changes one code of the mover's, a
drop adds one, a null move changes nothing.  Each army keeps those steps (``minus``,
``plus``), so a search walks from army to army without sorting a side's codes; only a
position with no seen position close before it counts them afresh (the caller's
``codes_of``), and then gives the positions before it their armies too.

``MaskCover`` is the counting core of the coverage rule (variants/plugins/coverage.py, the
Flipped-return Nichtschach games): each piece code has a bit mask (the directions or move
classes its definition moves along); a side must keep two board pieces on every bit, and the
evaluation terms, the capture gains, the adjudication and the end of the move list read the
per-army counts here.  The plugin gives the masks and the weights; the numbers are those the
plugin computed in Python before, bit for bit.
"""
from __future__ import annotations

from typing import Any, Callable, Final

from .moves import CELL, DOUBLE, FLAGS, FROM_SHIFT, IN_PLACE, NULL_MOVE, TYPE_MASK, TYPE_SHIFT
from .position import Position
from .undo import Undo
from .variant import CAPTURE_WINS

ORDINARY: Final = FLAGS & ~DOUBLE       # a move with any other flag changes armies its own way
LOST_SCORE: Final = 100_000     # MaskCover.terms for a side that has already lost (well below mate scores)

Facts = Any
CodesOf = Callable[[Position, int], tuple[int, ...]]


class Army:
    """One side's board pieces as their sorted codes, and what the win rule makes of them."""

    def __init__(self, key: tuple[int, ...], facts: Facts) -> None:
        self.key = key
        self.facts = facts
        self.minus: dict[int, Army] = {}      # code taken away -> the army left
        self.plus: dict[int, Army] = {}       # code added -> the army then


class ArmyMemo:
    """The facts of each army (``compute``: sorted codes -> facts), and of each position's two
    armies by its hash; ``codes_of(pos, side)`` gives a side's sorted codes afresh."""

    SIZE = 50_000           # armies (and positions) kept; each memo starts over when full
    BACK = 16               # moves looked back for a seen position

    def __init__(self, compute: Callable[[tuple[int, ...]], Facts], codes_of: CodesOf) -> None:
        self._compute = compute
        self._codes_of = codes_of
        self._memo: dict[tuple[int, ...], Army] = {}
        self._seen: list[dict[int, Army]] = [{}, {}]    # per side: position hash -> army

    def get(self, pos: Position, side: int) -> Facts:
        """The facts of ``side``'s army in ``pos``."""
        return self.army(pos, side).facts

    def army(self, pos: Position, side: int) -> Army:
        seen = self._seen[side]
        h = pos.hash
        a = seen.get(h)
        if a is not None:
            return a
        a = self._follow(pos, side, seen)
        if len(seen) >= self.SIZE:
            seen.clear()
        if a is None:
            a = self._army(self._codes_of(pos, side))
            self._seed(pos, side, a, seen)
        seen[h] = a
        return a

    def _follow(self, pos: Position, side: int, seen: dict[int, Army]) -> Army | None:
        """The army from the nearest position before this one that was seen (at most
        ``BACK`` moves back), through the moves since, where each says how it changed the
        army; None where one does not (a flag, a hook's changes) or none was seen."""
        st = pos.stack
        hist = pos.history
        if pos._movefx:
            return None
        n = len(st)
        back = n if n < self.BACK else self.BACK
        if len(hist) <= back:
            back = len(hist) - 1
        j = 1
        parent: Army | None = None
        while j <= back:
            u = st[n - j]
            if u.extra is not None or u.move & ORDINARY:
                return None
            parent = seen.get(hist[-1 - j])
            if parent is not None:
                break
            j += 1
        if parent is None:
            return None
        a: Army | None = parent
        side_now = pos.side
        while j >= 1 and a is not None:
            a = self._step(a, st[n - j], side, side_now ^ (j & 1), True)
            j -= 1
        return a

    def _seed(self, pos: Position, side: int, a: Army, seen: dict[int, Army]) -> None:
        """After a count afresh: the armies of the positions before this one, back through
        its ordinary moves (up to ``BACK`` or a position seen), so that the next position
        asked near here follows from one of them (a search asks at some nodes only, and
        starts the memo over when it is full)."""
        st = pos.stack
        hist = pos.history
        if pos._movefx:
            return
        n = len(st)
        back = n if n < self.BACK else self.BACK
        if len(hist) <= back:
            back = len(hist) - 1
        side_now = pos.side
        for j in range(1, back + 1):
            u = st[n - j]
            if u.extra is not None or u.move & ORDINARY or len(seen) >= self.SIZE - 1:
                return
            b = self._step(a, u, side, side_now ^ (j & 1), False)
            h = hist[-1 - j]
            if b is None or h in seen:
                return
            seen[h] = a = b

    def _step(self, a: Army, u: Undo, side: int, mover: int, forward: bool) -> Army | None:
        """``side``'s army after the ordinary move of ``u`` (made by ``mover``), from its
        army before (``forward``), or the other way round; None if the army has not the code
        the move takes away (which only a clash of two positions' hashes could cause)."""
        m = u.move
        if m == NULL_MOVE:
            return a
        drop = (m >> FROM_SHIFT) & CELL == m & CELL and not m & IN_PLACE     # moves.is_drop
        if side != mover:
            cap = u.cap
            if not cap or drop:
                return a
            return self._minus(a, cap) if forward else self._plus(a, cap)
        code = u.code
        if drop:
            return self._plus(a, code) if forward else self._minus(a, code)
        pt = (m >> TYPE_SHIFT) & TYPE_MASK
        if not pt:
            return a
        b = self._minus(a, code if forward else pt * 2 + mover)
        if b is None:
            return None
        return self._plus(b, pt * 2 + mover if forward else code)

    def _army(self, key: tuple[int, ...]) -> Army:
        memo = self._memo
        a = memo.get(key)
        if a is None:
            if len(memo) >= self.SIZE:
                memo.clear()
            a = memo[key] = Army(key, self._compute(key))
        return a

    def _minus(self, parent: Army, code: int) -> Army | None:
        a = parent.minus.get(code)
        if a is None:
            key = parent.key
            if code not in key:
                return None
            i = key.index(code)
            a = parent.minus[code] = self._army(key[:i] + key[i + 1:])
        return a

    def _plus(self, parent: Army, code: int) -> Army:
        a = parent.plus.get(code)
        if a is None:
            key = parent.key
            i = 0
            n = len(key)
            while i < n and key[i] < code:
                i += 1
            a = parent.plus[code] = self._army(key[:i] + (code,) + key[i:])
        return a


CoverFacts = tuple[bool, int, "list[int] | None"]


class MaskCover:
    """The coverage rule's counts: ``cover[code]`` is the bit mask a piece code holds
    (0 for pawns, promoted pawns and the empty code), ``bits`` the number of bits; a side
    holds a bit with two board pieces.  ``thin`` / ``warn``: the evaluation's cost of a bit
    held by only two / three pieces; ``lost``: the adjudication's result once lost."""

    def __init__(self, cover: list[int], bits: int, thin: int, warn: int,
                 lost: tuple[int, str], codes_of: CodesOf) -> None:
        self.cover = cover
        self.bits = bits
        self.thin = thin
        self.warn = warn
        self.lost = lost
        self.armies = ArmyMemo(self.facts, codes_of)

    def tally(self, codes: tuple[int, ...] | list[int]) -> list[int]:
        """Per bit (direction or class): how many of these piece codes hold it."""
        cov = self.cover
        counts = [0] * self.bits
        for code in codes:
            m = cov[code]
            i = 0
            while m:
                if m & 1:
                    counts[i] += 1
                m >>= 1
                i += 1
        return counts

    def facts(self, codes: tuple[int, ...]) -> CoverFacts:
        """(does the army meet the requirement, the danger it is in, by piece code what
        capturing one of its pieces gains: ``CAPTURE_WINS`` for a piece on a bit it holds
        exactly twice, None when there is no such bit)."""
        d2 = self.thin
        d3 = self.warn
        counts = self.tally(codes)
        danger = 0
        two = 0                         # the bits held exactly twice
        low = counts[0] if counts else 0
        for i, n in enumerate(counts):
            if n < low:
                low = n
            if n <= 2:
                danger += d2
                if n == 2:
                    two |= 1 << i
            elif n == 3:
                danger += d3
        gains: list[int] | None = None
        if two:
            gains = [CAPTURE_WINS if m & two else 0 for m in self.cover]
        return low >= 2, danger, gains

    def side_facts(self, pos: Position, side: int) -> CoverFacts:
        f: CoverFacts = self.armies.army(pos, side).facts
        return f

    def meets(self, pos: Position, side: int) -> bool:
        """Has ``side`` two board pieces on every bit?"""
        return self.side_facts(pos, side)[0]

    def counts(self, pos: Position, side: int) -> list[int]:
        """Per bit: how many of side's board pieces hold it."""
        b = pos.board
        return self.tally([b[s] for s in pos.occ[side]])

    def capture_gains(self, pos: Position) -> list[int] | None:
        """What taking each code of the opponent's gains: ``CAPTURE_WINS`` on a bit it holds
        exactly twice."""
        return self.side_facts(pos, pos.side ^ 1)[2]

    def decided(self, pos: Position) -> bool:
        """Has the last move won (the side to move fails the requirement)?  Only a capture
        can take pieces away, so other moves need no look."""
        st = pos.stack
        if st and not st[-1].cap:
            return False
        return not self.side_facts(pos, pos.side)[0]

    def adjudicate(self, pos: Position) -> tuple[int, str] | None:
        return self.lost if self.decided(pos) else None

    def extra_moves(self, pos: Position, out: list[int]) -> None:
        """No moves once the last move has won."""
        if self.decided(pos):
            out.clear()

    def terms(self, pos: Position) -> int:
        """Centipawns for the side to move: -LOST_SCORE once lost; ``thin`` / ``warn`` per
        bit held by only two / three board pieces (the opponent's count for it); 10 more per
        piece in hand (it can refill a thin bit)."""
        side = pos.side
        meets, danger, _ = self.side_facts(pos, side)
        st = pos.stack
        if not meets and (not st or st[-1].cap):       # decided, from the same look
            return -LOST_SCORE
        them_danger = self.side_facts(pos, side ^ 1)[1]
        h = pos.hand
        held = 0
        n = len(h)
        for c in range(2 + side, n, 2):
            held += h[c]
        for c in range(3 - side, n, 2):
            held -= h[c]
        return 10 * held - danger + them_danger
