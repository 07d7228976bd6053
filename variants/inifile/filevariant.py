"""The base class of a 2D variant built from a variants file (``FileVariant``): the class
attributes the builder sets per section, and the pieces and pawn moves made from them."""
from __future__ import annotations

from typing import TYPE_CHECKING

from engine.betza import parse_betza, rotate
from engine.pieces import CAPTURE, MOVE, Atom, PieceType, leap, ride
from variants.chess import ChessLike

from .values import in_region


class FileVariant(ChessLike):
    """A 2D variant built from a variants file; the class attributes are set per section."""
    pieces: tuple[tuple[str, str, str], ...] = ()     # (name, letter, betza) in file order
    royal_letter = "k"
    pawn_letters: frozenset[str] = frozenset("p")
    promo_letters: tuple[frozenset[str], frozenset[str]] = (frozenset("nbrq"),) * 2
    promo_region: tuple[frozenset, frozenset] = (frozenset(), frozenset())
    promo_mandatory = True
    double_region: tuple[frozenset, frozenset] = (frozenset(), frozenset())
    castle_on = True
    castle_files = (4, 6, 2)              # king's file, kingside and queenside destinations
    castle_rank = 0
    home_level: tuple[int, ...] = ()      # (0,) on a levelled board: castling on its first level
    promoted_only: frozenset[str] = frozenset()   # promotedOnlyTypes (pieceset.py)

    piece_names: dict[str, str] = {}      # pieceNames (returns.py): letter -> name

    # Set per section by the builder's readers, and read by the rule parts (declared for the
    # type checker only: no class attribute is made here)
    castle_king: str                      # castlingKingPiece (moverules.py)
    castle_rooks: frozenset[str]          # castlingRookPieces (moverules.py)
    ep_region: frozenset | None           # enPassantRegion (moverules.py)
    extinction_types: frozenset[str]      # extinctionPieceTypes (results.py)
    extinction_count: int                 # extinctionPieceCount (results.py)
    pseudo_royal: bool                    # extinctionPseudoRoyal (results.py)
    extinction_value: str                 # extinctionValue (results.py)
    fsf_pawn: str                         # the ``pawn`` piece's letter (drops.py)
    main_pawn: tuple[str, str]            # each side's main promotion pawn (drops.py)
    promo_pawns: tuple[frozenset[str], frozenset[str]]   # promotionPawnTypes… (drops.py)
    piece_mandatory: bool                 # mandatoryPiecePromotion (drops.py)
    piece_demotion: bool                  # pieceDemotion (drops.py)
    on_capture: bool                      # piecePromotionOnCapture (drops.py)
    immobility_illegal: bool              # immobilityIllegal (drops.py)
    level_names: str                      # the level letters of a levelled board (levels.py)

    def __init__(self) -> None:
        base = [self._piece(n, letter, b) for n, letter, b in self.pieces]
        for pt in base:
            pt.name = self.piece_names.get(pt.token.lower(), pt.name)
        own = [pt for pt in base if pt.token.lower() not in self.promoted_only]
        self.piece_types = [None, *own, *self._forms(base)]
        super().__init__()

    def _forms(self, base: list[PieceType]) -> list[PieceType]:
        """Promoted forms (``+P``, ``Q~``) after the pieces of the file (drops.DropRules)."""
        return []

    def orient(self, v):
        """Black's pieces are White's turned half round, as Fairy-Stockfish turns them (a
        mirror would swap left and right for pieces like ``frF``)."""
        return rotate(v)

    def _initial(self, c, col) -> bool:
        """Where ``i`` (initial) moves may start: the side's double-step region."""
        return in_region(c, self.double_region[col])

    def _piece(self, name: str, letter: str, betza: str) -> PieceType:
        tok = letter.upper()
        if name == "pawn":
            atoms = self._pawn_atoms()
        else:
            atoms = parse_betza(betza, initial=self._initial)
        return PieceType(name, tok, atoms, royal=(letter == self.royal_letter),
                         pawn=letter in self.pawn_letters)

    def _pawn_atoms(self) -> tuple[Atom, ...]:
        """Fairy-Stockfish's pawn: a step forward, a diagonal capture (en passant), and the
        double step from its region (``doubleStep``, ``doubleStepRegion…``)."""
        region = self.double_region
        atoms: list[Atom] = [leap(((0, 1),), MOVE), leap(((1, 1), (-1, 1)), CAPTURE, flag="ep")]
        if region[0] or region[1]:
            atoms.append(ride(((0, 1),), MOVE, max_dist=2, stops=frozenset({2}), flag="double",
                              origin=lambda c, col: in_region(c, region[col])))
        return tuple(atoms)


    def is_draw_by_material(self, pos) -> bool:
        return False        # Fairy-Stockfish adjudicates no dead positions in these games


# The base a rule part (a mixin of drops.py, rulings.py, returns.py…, or a plugin) is typed
# against: the file variant it is joined to, whose attributes and hooks it reads and extends.
# At run time it is ``object``, so the parts add nothing to the class they are joined into
# (build.py's ``compose`` orders them).
if TYPE_CHECKING:
    RuleBase = FileVariant
else:
    RuleBase = object
