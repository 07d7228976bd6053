"""The coverage win rule of the Flipped-return Nichtschach games as plugins
(docs/variants/nichtschach.md, "Rules in brief", rulings 11-13):

    winRule = directionCoverage    after a capture, the player who moved wins if the opponent no
                                   longer has, for each of the 26 directions, two board pieces
                                   whose definition moves along it
    winRule = classCoverage        the Springer games' form: two pieces with a Rook-or-Ninja
                                   move, two with a Bishop-or-Sexton move, two with a
                                   Unicorn-or-Knight move

Pawns (``pawnTypes``, the Stockpoints), the pieces they promote to (``promotionPieceTypes``,
the Stockfwazirs) and pieces in hand count for nothing.  A position whose last move won has no
legal moves (``extra_moves`` empties the list, so perft does not expand it; the searcher keeps
its fast path, which a ``legal_moves`` override would cost).  The evaluation terms that score
the rule (``eval_terms``) belong here too.

Each piece kind has a bit mask of the directions (or classes) its definition moves along; the
count per direction over a side's board pieces decides the rule, and is kept per army
(``ArmyMemo``: it changes only when the side's pieces do).  Only a capture takes pieces away,
so the test runs only after a capture (or on a set-up position).
"""
from __future__ import annotations

from itertools import permutations, product

from engine.pieces import RIDE
from engine.variant import CAPTURE_WINS, Variant
from variants.board3d import direction_mask, unit_direction

from . import Plugin, PluginError
from .masks import ArmyMemo
from variants.inifile.filevariant import RuleBase

LOST_SCORE = 100_000    # eval_terms for a side that has already lost (well below mate scores)


def oblique(a: int, b: int, c: int) -> tuple[tuple[int, ...], ...]:
    """All sign and axis permutations of the leap (a, b, c)."""
    out = set()
    for p in permutations((a, b, c)):
        for s in product((1, -1), repeat=3):
            out.add(tuple(x * y for x, y in zip(p, s)))
    return tuple(sorted(out))


NINJA, SEXTON, KNIGHT = oblique(2, 2, 1), oblique(2, 1, 1), oblique(2, 1, 0)
CLASS_OF_LEAP = {(1, 2, 2): 0, (1, 1, 2): 1, (0, 1, 2): 2}    # Ninja, Sexton, Knight
CLASS_OF_DIR = {1: 0, 2: 1, 3: 2}                              # O, SD, ND by nonzero count


def _all_vectors(atoms):
    for a in atoms:
        vs = a.vectors
        if callable(vs):
            continue
        for v in vs:
            yield a, v


def radial_mask(atoms) -> int:
    """26-bit mask of the directions the piece's definition moves along (owner's frame)."""
    return direction_mask(v for a, v in _all_vectors(atoms))


def class_mask(atoms) -> int:
    """Springer rule: bit 0 Rook/Ninja, bit 1 Bishop/Sexton, bit 2 Unicorn/Knight."""
    m = 0
    for a, v in _all_vectors(atoms):
        key = tuple(sorted(abs(x) for x in v))
        if a.kind == RIDE and unit_direction(v) == v:
            m |= 1 << CLASS_OF_DIR[sum(1 for x in v if x)]
        elif key in CLASS_OF_LEAP:
            m |= 1 << CLASS_OF_LEAP[key]
    return m


class DirectionCoverage(Plugin, RuleBase):
    """Two board pieces along each of the 26 directions, or the side that moved wins."""
    plugin_name = "directionCoverage"
    plugin_key = "winRule"
    _class_rule = False
    # a piece in hand holds no direction: it is worth less than on the board, so that the
    # search returns pieces rather than hoarding them while the board empties
    hand_share = 0.9

    @classmethod
    def plugin_check(cls, keys: dict[str, str]) -> None:
        if keys.get("solid", "false").lower() not in ("true", "1", "yes"):
            raise PluginError("winRule", f"{cls.plugin_name} needs solid = true (the 26 "
                              "directions of a 3D board)", cls.plugin_name)

    def __init__(self) -> None:
        super().__init__()
        pts = self.piece_types
        uncounted = set(self.pawn_letters)
        promo = self.promo_letters
        promoted = set(promo[0]) | set(promo[1]) if uncounted else set()
        ncodes = 2 * len(pts)
        cover = [0] * ncodes
        for pt in pts[1:]:
            if pt is None or pt.token.lower() in uncounted | promoted:
                continue
            m = class_mask(pt.atoms) if self._class_rule else radial_mask(pt.atoms)
            cover[pt.id * 2] = cover[pt.id * 2 + 1] = m
        # what the family's tests and other plugins read (docs/variants/nichtschach.md)
        self.cover = cover
        self._cover_bits = 3 if self._class_rule else 26
        self._cover_armies = ArmyMemo(self._army_facts)
        by = self.by_token
        if len(uncounted) == 1 and len(promoted) == 1:              # the Stockpoint, Stockfwazir
            self.p_id = by[next(iter(uncounted)).upper()].id
            self.f_id = by[next(iter(promoted)).upper()].id
        self.meets_requirement = self._meets
        self.coverage_counts = self._counts
        # the hooks below chain to the next class's; where that is Variant's own default (a
        # plain solid section), the searcher gets versions without the chain, as fast as the
        # Python module this plugin came from
        self._lost = (-1, "lost classes" if self._class_rule else "lost directions")
        alone = [h for h in ("adjudicate", "extra_moves", "eval_terms")
                 if getattr(super(DirectionCoverage, self), h).__func__ is getattr(Variant, h)]
        if "adjudicate" in alone:
            self.__dict__["adjudicate"] = self._adjudicate_alone
        if "extra_moves" in alone:
            self.__dict__["extra_moves"] = self._extra_moves_alone
        if "eval_terms" in alone:
            self.__dict__["eval_terms"] = self._eval_terms_alone

    # ---- the requirement ---------------------------------------------------------------
    def _meets(self, pos, side: int) -> bool:
        """Has ``side`` two board pieces along every direction (class)?"""
        return self._army(pos, side)[0]

    def _army(self, pos, side: int) -> tuple[bool, int, list[int] | None]:
        """(does ``side`` meet the requirement, the danger it is in, by piece code what
        capturing one of its pieces gains: ``capture_gains``), kept per army (``ArmyMemo``)."""
        return self._cover_armies.get(pos, side)

    def _army_facts(self, codes: tuple[int, ...]) -> tuple[bool, int, list[int] | None]:
        """The requirement, the danger (60 / 15 cp per direction held by only two / three
        board pieces, 150 / 40 per class) and the capture gains of an army."""
        d2, d3 = (150, 40) if self._class_rule else (60, 15)
        counts = self._tally(codes)
        danger = 0
        two = 0                         # the directions (classes) held exactly twice
        for i, n in enumerate(counts):
            if n <= 2:
                danger += d2
                if n == 2:
                    two |= 1 << i
            elif n == 3:
                danger += d3
        gains = [CAPTURE_WINS if m & two else 0 for m in self.cover] if two else None
        return min(counts) >= 2, danger, gains

    def _tally(self, codes) -> list[int]:
        """Per direction (or class): how many of these piece codes move along it."""
        cov = self.cover
        counts = [0] * self._cover_bits
        for code in codes:
            m = cov[code]
            i = 0
            while m:
                if m & 1:
                    counts[i] += 1
                m >>= 1
                i += 1
        return counts

    def _counts(self, pos, side: int) -> list[int]:
        """Per direction (or class): how many of side's board pieces move along it."""
        b = pos.board
        return self._tally(b[s] for s in pos.occ[side])

    def capture_gains(self, pos):
        """Taking a piece that moves along a direction (class) the opponent holds with exactly
        two board pieces wins at once; other captures gain their value alone."""
        return self._army(pos, pos.side ^ 1)[2]

    def _decided(self, pos) -> bool:
        """Has the last move won (the side to move fails the requirement)?  Only a capture
        can take pieces away, so other moves need no look."""
        st = pos.stack
        if st and not st[-1][1]:
            return False
        return not self._meets(pos, pos.side)

    # ---- hooks ---------------------------------------------------------------------------
    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None:
            return r
        if self._decided(pos):
            return (-1, "lost classes" if self._class_rule else "lost directions")
        return None

    def extra_moves(self, pos, out):
        # No check, so every pseudo-legal move is legal; but once the last move has won, the
        # game is over and there is no move at all.  Done here rather than in legal_moves so
        # that the searcher keeps its fast path.
        super().extra_moves(pos, out)
        if self._decided(pos):
            out.clear()

    def _adjudicate_alone(self, pos):
        st = pos.stack
        if st and not st[-1][1]:
            return None
        return None if self._meets(pos, pos.side) else self._lost

    def _extra_moves_alone(self, pos, out):
        st = pos.stack
        if (not st or st[-1][1]) and not self._meets(pos, pos.side):
            out.clear()

    def _eval_terms_alone(self, pos) -> int:
        return self._own_terms(pos)

    def eval_terms(self, pos) -> int:
        if self._decided(pos):
            return -LOST_SCORE
        return self._own_terms(pos) + super().eval_terms(pos)

    def _own_terms(self, pos) -> int:
        """Centipawns for the side to move, added to the generic evaluation (which already
        values board pieces by mobility and pieces in hand at a share of that):

        * a side that has already lost scores -LOST_SCORE;
        * a direction (or Springer class) held by only two board pieces is one capture from
          losing the game, three is a warning: each costs its side 60 / 15 cp (150 / 40 cp
          for the three classes);
        * a piece in hand gets 10 cp more: it can be returned on any empty cell, so it can
          also refill a thin direction."""
        side = pos.side
        meets, danger, _ = self._army(pos, side)
        st = pos.stack
        if not meets and (not st or st[-1][1]):       # _decided, from the same look
            return -LOST_SCORE
        them_danger = self._army(pos, side ^ 1)[1]
        h = pos.hand
        held = 0
        for c in range(2 + side, len(h), 2):
            held += h[c]
        for c in range(3 - side, len(h), 2):
            held -= h[c]
        return 10 * held - danger + them_danger


class ClassCoverage(DirectionCoverage):
    """The Springer games' rule: two board pieces in each of three move classes."""
    plugin_name = "classCoverage"
    _class_rule = True
    # the same hooks, named here too so that the registry sees them as this plugin's own
    adjudicate = DirectionCoverage.adjudicate
    extra_moves = DirectionCoverage.extra_moves
    eval_terms = DirectionCoverage.eval_terms
    capture_gains = DirectionCoverage.capture_gains
