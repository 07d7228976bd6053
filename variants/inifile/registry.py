"""Every key a variants file may hold, declared once: its group (the module that reads it),
whose key it is (Fairy-Stockfish's, ``fsf``, or cellfish's own), its default, what it needs,
the boards it is read on, and whether this loader implements it at all.

Each key also names its value's reader (``Reader``: true/false, a whole number in bounds, a
file, win/loss/draw, a rank, or text that the module reading it parses with the board's
context: regions, piece letters, Betza); ``section.py`` reads a section's values through
these declarations, so a key's type is written here and nowhere else.

The key sets the loader works from (``keys.py``'s defaults, implemented, GUI-only and refused
keys, and each module's own key set) are derived from these declarations, so a key's fate
is written in one place.  Plugin keys are the exception: the plugin registry
(``variants/plugins``) names them, since a plugin brings its own key.

Groups and the modules that read them: ``core`` (build.py and grid.py: the board, pieces, pawns,
castling and the move-count and repetition rules), ``result`` (results.py), ``move``
(moverules.py; the triple step: triplestep.py), ``drop`` (drops.py), ``gui`` (accepted and
not read), ``level`` (levels.py), ``solid`` (solid.py), ``hole`` (holes.py), ``ruling``
(rulings.py), ``return`` (returns.py), ``pieceset`` (pieceset.py), ``hint`` (hints.py),
``lattice`` (lattice.py), ``hex`` (hexboard.py), ``asia`` (asia.py, counting.py), ``chasing``
(chasing.py), ``chess960`` (chess960.py),
``gating`` (gating.py), ``walls`` (walls.py), ``placement`` (placement.py), ``reversi``
(reversi.py), ``ataxx`` (ataxx.py), ``checks`` (checks.py), ``blast`` (blast.py), ``stalemate`` (stalemate.py),
``castle`` (castlerules.py), ``petrify`` (petrify.py), ``material`` (materialcount.py),
``passes`` (passes.py), ``flag`` (results.py, beside the flag keys), ``seasia``
(seasia.py), ``twoboards`` (twoboards.py), ``refused``
(Fairy-Stockfish keys this loader does not play, refused by name: a silently ignored rule would
play another game).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from variants.fsf_pieces import PIECES

from .values import MAX_RANKS

GRID = "grid"           # square, levelled and solid boards (grid.py)
LATTICE = "lattice"     # boards of squares and vertices (lattice.py)
HEX = "hex"             # hexagons of hexagons (hexboard.py)


@dataclass(frozen=True)
class Reader:
    """How a key's value is read: ``bool`` (true/false), ``int`` (a whole number in
    ``lo..hi``), ``value`` (win, loss or draw), ``file`` (a file of the board), ``rank`` (a
    rank of the board, 1 up) or ``text`` (read by its module with the board's context)."""
    kind: str
    lo: int = 0
    hi: int = 0

    @property
    def context_free(self) -> bool:
        """Readable without the board (checked for every key given, before any is used)."""
        return self.kind in ("bool", "int", "value")


BOOL, VALUE, FILE, RANK, TEXT = Reader("bool"), Reader("value"), Reader("file"), Reader("rank"), \
    Reader("text")


def INT(lo: int, hi: int) -> Reader:  # noqa: N802 (reads as a type in the declarations)
    return Reader("int", lo, hi)


def _read(bools: str = "", values: str = "", files: str = "", ranks: str = "",
          ints: dict[str, tuple[int, int]] | None = None) -> dict[str, Reader]:
    """The readers of a group's keys (a key not named here is ``TEXT``)."""
    out = {n: BOOL for n in bools.split()} | {n: VALUE for n in values.split()}
    out |= {n: FILE for n in files.split()} | {n: RANK for n in ranks.split()}
    out |= {n: INT(lo, hi) for n, (lo, hi) in (ints or {}).items()}
    return out


@dataclass(frozen=True)
class Key:
    """One key of a variants file."""
    name: str
    group: str
    origin: str                     # "fsf" (Fairy-Stockfish's key) or "cellfish"
    default: str | None = None      # the value an absent key has (None: its reader decides)
    needs: str = ""                 # what the key needs to mean anything (documentation)
    boards: frozenset[str] = frozenset({GRID})
    reader: Reader = TEXT

    @property
    def implemented(self) -> bool:
        return self.group != "refused"


def _keys(group: str, origin: str, names: str, *, defaults: dict[str, str] | None = None,
          needs: dict[str, str] | None = None, boards: frozenset[str] = frozenset({GRID}),
          both: str = "", read: dict[str, Reader] | None = None) -> list[Key]:
    """Keys of one group: ``names`` split on white space, plus the keys of ``defaults``;
    the keys in ``both`` are read on lattice boards too, those in ``_ON_HEX_TOO`` on hex
    boards too; ``read`` gives their readers."""
    defaults, needs, read = defaults or {}, needs or {}, read or {}
    shared = set(both.split())
    every = list(defaults) + [n for n in names.split() if n not in defaults]
    stray = set(read) - set(every)
    if stray:
        raise AssertionError(f"readers for undeclared keys {sorted(stray)}")
    return [Key(n, group, origin, defaults.get(n), needs.get(n, ""),
                (boards | {LATTICE} if n in shared else boards)
                | ({HEX} if n in _ON_HEX_TOO.split() else set()), read.get(n, TEXT))
            for n in every]


_EVERY = frozenset({GRID, LATTICE, HEX})
# the keys a hex section reads besides its own (hexboard.py)
_ON_HEX_TOO = """startFen pawnTypes promotionRegionWhite promotionRegionBlack promotionPieceTypes
promotionPieceTypesWhite promotionPieceTypesBlack mandatoryPawnPromotion stalemateValue
checkmateValue nMoveRule nFoldRule castling doubleStep doubleStepRegionWhite doubleStepRegionBlack
pieceValues pieceNames"""
_ON_LATTICE_TOO = """maxFile maxRank startFen pawnTypes promotionRegionWhite promotionRegionBlack
promotionPieceTypes promotionPieceTypesWhite promotionPieceTypesBlack mandatoryPawnPromotion
stalemateValue checkmateValue nMoveRule nFoldRule castling doubleStep holes blackFrame"""

KEYS: tuple[Key, ...] = tuple(
    # Fairy-Stockfish's defaults: its default template is chess rules without pieces
    _keys("core", "fsf", "promotionPieceTypesWhite promotionPieceTypesBlack", both=_ON_LATTICE_TOO,
          defaults={
              "maxRank": "8", "maxFile": "8",
              "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
              "pawnTypes": "p", "promotionPieceTypes": "nbrq", "mandatoryPawnPromotion": "true",
              "doubleStep": "true", "castling": "true", "castlingKingFile": "e",
              "castlingKingsideFile": "g", "castlingQueensideFile": "c", "castlingRank": "1",
              "stalemateValue": "draw", "checkmateValue": "loss", "nMoveRule": "50",
              "nFoldRule": "3", "nFoldValue": "draw", "promotionRegionWhite": "*8",
              "promotionRegionBlack": "*1", "doubleStepRegionWhite": "*2",
              "doubleStepRegionBlack": "*7"},
          read=_read(bools="mandatoryPawnPromotion doubleStep castling",
                     values="stalemateValue checkmateValue nFoldValue",
                     files="maxFile castlingKingFile castlingKingsideFile castlingQueensideFile",
                     ranks="castlingRank",
                     ints={"maxRank": (1, MAX_RANKS), "nMoveRule": (0, 1000), "nFoldRule": (2, 100)}))
    + _keys("result", "fsf", """nMoveRuleTypes nMoveRuleTypesWhite nMoveRuleTypesBlack
            flagPieceWhite flagPieceBlack flagRegionWhite flagRegionBlack""", defaults={
                "checking": "true", "mustCapture": "false", "nFoldValueAbsolute": "false",
                "perpetualCheckIllegal": "false", "extinctionValue": "none",
                "extinctionClaim": "false", "extinctionPieceTypes": "",
                "extinctionPieceCount": "0", "extinctionOpponentPieceCount": "0",
                "flagPiece": "*", "flagRegion": "", "flagMove": "false",
                "extinctionPseudoRoyal": "false", "dupleCheck": "false"},
            read=_read(bools="""checking mustCapture nFoldValueAbsolute perpetualCheckIllegal
                       extinctionClaim extinctionPseudoRoyal dupleCheck flagMove""",
                       ints={"extinctionPieceCount": (0, 1000),
                             "extinctionOpponentPieceCount": (0, 1000)}))
    + _keys("move", "fsf", """enPassantRegion enPassantTypes enPassantTypesWhite
            enPassantTypesBlack castlingKingPiece castlingRookPieces castlingRookKingsideFile
            castlingRookQueensideFile""",
            read=_read(files="castlingRookKingsideFile castlingRookQueensideFile"))
    + _keys("triple", "fsf", "tripleStepRegionWhite tripleStepRegionBlack")
    + _keys("drop", "fsf", """whiteDropRegion blackDropRegion shogiDoubledPawn promotionPawnTypes
            promotionPawnTypesWhite promotionPawnTypesBlack""", defaults={
                "pieceDrops": "false", "capturesToHand": "false", "dropLoop": "false",
                "firstRankPawnDrops": "false", "promotionZonePawnDrops": "false",
                "dropChecks": "true", "dropPromoted": "false", "dropNoDoubled": "-",
                "dropNoDoubledCount": "1", "immobilityIllegal": "false",
                "shogiPawnDropMateIllegal": "false", "promotedPieceType": "",
                "promotionLimit": "", "mandatoryPiecePromotion": "false",
                "pieceDemotion": "false", "piecePromotionOnCapture": "false"},
            needs={"capturesToHand": "pieceDrops"},
            read=_read(bools="""pieceDrops capturesToHand dropLoop firstRankPawnDrops
                       promotionZonePawnDrops shogiDoubledPawn dropChecks dropPromoted
                       immobilityIllegal shogiPawnDropMateIllegal mandatoryPiecePromotion
                       pieceDemotion piecePromotionOnCapture""",
                       ints={"dropNoDoubledCount": (1, 12)}))
    + _keys("chess960", "fsf", "chess960", needs={"chess960": "castling"}, read=_read(bools="chess960"))
    + _keys("gating", "fsf", "gating seirawanGating", needs={"seirawanGating": "gating"},
            read=_read(bools="gating seirawanGating"))
    + _keys("placement", "fsf", "mustDrop dropOppositeColoredBishop castlingDroppedPiece",
            needs={"mustDrop": "pieceDrops", "dropOppositeColoredBishop": "pieceDrops",
                   "castlingDroppedPiece": "pieceDrops"},
            read=_read(bools="mustDrop dropOppositeColoredBishop castlingDroppedPiece"))
    + _keys("reversi", "fsf", """enclosingDrop enclosingDropStart flipEnclosedPieces
            adjudicateFullBoard""",
            needs={"enclosingDrop": "pieceDrops", "enclosingDropStart": "enclosingDrop",
                   "adjudicateFullBoard": "materialCounting"},
            read=_read(bools="adjudicateFullBoard"))
    + _keys("walls", "fsf", "staticGating staticGatingRegion pastGating arrowGating",
            needs={"staticGatingRegion": "staticGating"},
            read=_read(bools="staticGating pastGating arrowGating"))
    + _keys("gui", "fsf", "pieceToCharTable pocketSize variantTemplate", boards=_EVERY)
    + _keys("refused", "fsf", """connectDiagonal connectHorizontal
            connectN connectVertical dropOnTop duckGating
            petrifyOnCapture pieceValueEg pieceValueMg""",
            boards=frozenset())
    # the xiangqi family (asia.py); mobilityRegionWhite<Piece>/…Black<Piece> are named by
    # piece, as piece keys are (asia.is_mobility_key)
    + _keys("asia", "fsf", "", defaults={"flyingGeneral": "false", "soldierPromotionRank": "1",
                                         "countingRule": "none", "makpongRule": "false",
                                         "shatarMateRule": "false"},
            read=_read(bools="flyingGeneral makpongRule shatarMateRule", ranks="soldierPromotionRank"))
    # ... and xiangqi's chasing rule (chasing.py)
    + _keys("chasing", "fsf", "", defaults={"chasingRule": "none"})
    # the chess family's rule keys (fsf2): check counting (checks.py)
    + _keys("checks", "fsf", "", defaults={"checkCounting": "false"}, read=_read("checkCounting"))
    # ... and blasts on capture (blast.py)
    + _keys("blast", "fsf", "blastImmuneTypes mutuallyImmuneTypes",
            defaults={"blastOnCapture": "false"}, read=_read("blastOnCapture"))
    # ... how many flag pieces, and safe ones (read by results.py with the flag keys)
    + _keys("flag", "fsf", "", defaults={"flagPieceCount": "1", "flagPieceSafe": "false"},
            read=_read("flagPieceSafe", ints={"flagPieceCount": (1, 1000)}))
    # ... castling as a rule of the game (castlerules.py)
    + _keys("castle", "fsf", "", defaults={"oppositeCastling": "false", "castlingWins": "-"},
            read=_read("oppositeCastling"))
    # ... walls and petrification (petrify.py)
    + _keys("petrify", "fsf", "petrifyOnCaptureTypes", defaults={"wallingRule": "none"})
    # ... draw odds (materialcount.py; reversi.py reads its unweighted count)
    + _keys("material", "fsf", "", defaults={"materialCounting": "none"})
    # ... passing (passes.py; reversi.py ends a game of two passes by its count)
    + _keys("passes", "fsf", "passWhite passBlack passOnStalemateWhite passOnStalemateBlack",
            defaults={"pass": "false", "passOnStalemate": "false"},
            read=_read("pass passOnStalemate passWhite passBlack passOnStalemateWhite "
                       "passOnStalemateBlack"))
    # ... and stalemates decided by the pieces (stalemate.py, and reversi.py after two passes)
    + _keys("stalemate", "fsf", "", defaults={"stalematePieceCount": "false"},
            read=_read("stalematePieceCount"))
    # the south-east Asian games and the two-board games (fsf7): sittuyin's setup and
    # promotion, Cambodian chess's first moves (seasia.py), one board of a two-board game and
    # the piece a side must drop (twoboards.py)
    + _keys("seasia", "fsf", "", defaults={"sittuyinRookDrop": "false",
                                           "sittuyinPromotion": "false", "cambodianMoves": "false"},
            needs={"sittuyinRookDrop": "pieceDrops", "cambodianMoves": "gating"},
            read=_read("sittuyinRookDrop sittuyinPromotion cambodianMoves"))
    + _keys("twoboards", "fsf", "mustDropType", defaults={"twoBoards": "false"},
            needs={"twoBoards": "pieceDrops", "mustDropType": "mustDrop"}, read=_read("twoBoards"))
    # ... Ataxx's drops that take nothing from a hand (ataxx.py; its enclosingDrop and
    # flipEnclosedPieces values are the reversi group's keys)
    + _keys("ataxx", "fsf", "", defaults={"freeDrops": "false"}, needs={"freeDrops": "pieceDrops"},
            read=_read("freeDrops"))
    # the janggi family (fsf6): palace diagonals and bikjang (janggi.py; its material count
    # is materialCounting = janggi, read by janggi.py beside materialcount.py)
    + _keys("janggi", "fsf", "diagonalLines",
            defaults={"bikjangRule": "false", "moveRepetitionIllegal": "false"},
            read=_read(bools="bikjangRule moveRepetitionIllegal"))
    # cellfish's own keys (docs/variant-files.md)
    + _keys("level", "cellfish", "levels levelNames", needs={"levelNames": "levels"},
            read=_read(ints={"levels": (2, 8)}))      # 8: levels.py's MAX_LEVELS
    + _keys("solid", "cellfish", "solid blackFrame axisOrder ringKeepingTypes",
            needs={"solid": "levels", "blackFrame": "solid", "axisOrder": "solid",
                   "ringKeepingTypes": "solid"}, both=_ON_LATTICE_TOO, read=_read(bools="solid"))
    + _keys("hole", "cellfish", "holes", both=_ON_LATTICE_TOO)
    + _keys("ruling", "cellfish", """piecePromotionWhereMoveEnds nMoveRuleTypesOnly
            deadPositionTypes chessPositionChecks nMoveRulePlies""",
            needs={"piecePromotionWhereMoveEnds": "promotedPieceType"},
            read=_read(bools="piecePromotionWhereMoveEnds nMoveRuleTypesOnly chessPositionChecks",
                       ints={"nMoveRulePlies": (1, 2000)}))
    + _keys("return", "cellfish", """capturesToHandAs pieceDropRegionWhite pieceDropRegionBlack
            handLimit lastRankPawnsIllegal nMoveRuleName positionFields handOrder pieceNames""",
            needs={"capturesToHandAs": "pieceDrops"},
            read=_read(bools="lastRankPawnsIllegal",
                       ints={"handLimit": (64, 10000)}))     # 64: returns.py's CORE_HAND
    + _keys("pieceset", "cellfish", "promotedOnlyTypes", needs={"promotedOnlyTypes": "promotedPieceType"})
    + _keys("hint", "cellfish", "clockMoves clockGame quiescencePlies", boards=_EVERY,
            read=_read(ints={"clockMoves": (5, 500), "clockGame": (0, 1000),
                             "quiescencePlies": (0, 10)}))
    + _keys("lattice", "cellfish", """lattice pawnPromotionTypes promotionNotOnEdge edgeBan
            oneFootTypes squarePieces vertexPieces pieceValues""",
            needs=dict.fromkeys("""pawnPromotionTypes promotionNotOnEdge edgeBan oneFootTypes
                                squarePieces vertexPieces pieceValues""".split(), "lattice"),
            boards=frozenset({LATTICE}), read=_read(bools="edgeBan"))
    + _keys("hex", "cellfish", "hex stalematePoints", needs={"stalematePoints": "hex"},
            boards=frozenset({HEX}), read=_read(ints={"hex": (2, 13)}))
)

BY_NAME: dict[str, Key] = {k.name: k for k in KEYS}
if len(BY_NAME) != len(KEYS):
    raise AssertionError("a key declared twice")

_CUSTOM_PIECE = re.compile(r"customPiece([1-9]|1\d|2[0-5])")


def is_piece_key(name: str) -> bool:
    """A piece key: a predefined piece's name (``knight``, ``king``…) or customPiece1..25."""
    return name in PIECES or _CUSTOM_PIECE.fullmatch(name) is not None


def names(*groups: str) -> frozenset[str]:
    """The keys of these groups."""
    return frozenset(k.name for k in KEYS if k.group in groups)


def defaults(*groups: str) -> dict[str, str]:
    """The defaults of the keys of these groups that have one."""
    return {k.name: k.default for k in KEYS if k.group in groups and k.default is not None}


def on_board(board: str) -> frozenset[str]:
    """The (non-piece, non-plugin) keys read on this kind of board."""
    return frozenset(k.name for k in KEYS if board in k.boards)
