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
so the test runs only after a capture (or on a set-up position).  The counting and the hooks'
work per node run in the compiled engine (``MaskCover``, engine/armies.py).
"""
from __future__ import annotations

from itertools import permutations, product

from engine.armies import LOST_SCORE, MaskCover
from engine.pieces import RIDE
from engine.variant import Variant
from variants.board3d import direction_mask, unit_direction

from . import Plugin, PluginError
from .masks import army_codes
from variants.inifile.filevariant import RuleBase


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
        self._lost = (-1, "lost classes" if self._class_rule else "lost directions")
        # the counts, per army, and the hooks' work run in the compiled engine (engine/armies.py)
        d2, d3 = (150, 40) if self._class_rule else (60, 15)
        core = MaskCover(cover, 3 if self._class_rule else 26, d2, d3, self._lost, army_codes)
        self._core = core
        self._cover_armies = core.armies
        self._army_facts = core.facts
        self._tally = core.tally
        by = self.by_token
        if len(uncounted) == 1 and len(promoted) == 1:              # the Stockpoint, Stockfwazir
            self.p_id = by[next(iter(uncounted)).upper()].id
            self.f_id = by[next(iter(promoted)).upper()].id
        self.meets_requirement = core.meets
        self.coverage_counts = core.counts
        self.__dict__["capture_gains"] = core.capture_gains
        # the hooks below chain to the next class's; where that is Variant's own default (a
        # plain solid section), the searcher calls the compiled core's versions without the chain
        alone = [h for h in ("adjudicate", "extra_moves", "eval_terms")
                 if getattr(super(DirectionCoverage, self), h).__func__ is getattr(Variant, h)]
        if "adjudicate" in alone:
            self.__dict__["adjudicate"] = core.adjudicate
        if "extra_moves" in alone:
            self.__dict__["extra_moves"] = core.extra_moves
        if "eval_terms" in alone:
            self.__dict__["eval_terms"] = core.terms

    # ---- the requirement ---------------------------------------------------------------
    def _meets(self, pos, side: int) -> bool:
        """Has ``side`` two board pieces along every direction (class)?"""
        return self._core.meets(pos, side)

    def _counts(self, pos, side: int) -> list[int]:
        """Per direction (or class): how many of side's board pieces move along it."""
        return self._core.counts(pos, side)

    def capture_gains(self, pos):
        """Taking a piece that moves along a direction (class) the opponent holds with exactly
        two board pieces wins at once; other captures gain their value alone."""
        return self._core.capture_gains(pos)

    def _decided(self, pos) -> bool:
        """Has the last move won (the side to move fails the requirement)?  Only a capture
        can take pieces away, so other moves need no look."""
        return self._core.decided(pos)

    # ---- hooks ---------------------------------------------------------------------------
    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None:
            return r
        if self._decided(pos):
            return self._lost
        return None

    def extra_moves(self, pos, out):
        # No check, so every pseudo-legal move is legal; but once the last move has won, the
        # game is over and there is no move at all.  Done here rather than in legal_moves so
        # that the searcher keeps its fast path.
        super().extra_moves(pos, out)
        if self._decided(pos):
            out.clear()

    def eval_terms(self, pos) -> int:
        """Centipawns for the side to move, added to the generic evaluation (which already
        values board pieces by mobility and pieces in hand at a share of that):

        * a side that has already lost scores -LOST_SCORE;
        * a direction (or Springer class) held by only two board pieces is one capture from
          losing the game, three is a warning: each costs its side 60 / 15 cp (150 / 40 cp
          for the three classes);
        * a piece in hand gets 10 cp more: it can be returned on any empty cell, so it can
          also refill a thin direction.

        (``MaskCover.terms`` in engine/armies.py.)"""
        if self._decided(pos):
            return -LOST_SCORE
        return self._core.terms(pos) + super().eval_terms(pos)


class ClassCoverage(DirectionCoverage):
    """The Springer games' rule: two board pieces in each of three move classes."""
    plugin_name = "classCoverage"
    _class_rule = True
    # the same hooks, named here too so that the registry sees them as this plugin's own
    adjudicate = DirectionCoverage.adjudicate
    extra_moves = DirectionCoverage.extra_moves
    eval_terms = DirectionCoverage.eval_terms
    capture_gains = DirectionCoverage.capture_gains
