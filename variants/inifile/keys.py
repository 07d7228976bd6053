"""The keys of a variants file: what this loader implements, with Fairy-Stockfish's defaults
(its default template is chess rules without pieces), what it accepts for GUIs only, and the
Fairy-Stockfish keys it refuses by name."""
from __future__ import annotations

DEFAULTS: dict[str, str] = {
    "maxRank": "8", "maxFile": "8",
    "startFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "pawnTypes": "p", "promotionPieceTypes": "nbrq", "mandatoryPawnPromotion": "true",
    "doubleStep": "true", "castling": "true", "castlingKingFile": "e",
    "castlingKingsideFile": "g", "castlingQueensideFile": "c", "castlingRank": "1",
    "stalemateValue": "draw", "checkmateValue": "loss", "nMoveRule": "50", "nFoldRule": "3",
    "nFoldValue": "draw", "promotionRegionWhite": "*8", "promotionRegionBlack": "*1",
    "doubleStepRegionWhite": "*2", "doubleStepRegionBlack": "*7",
}

# the result keys (variants/inifile/results.py) and the pawn and castling keys (moverules.py)
RESULT_MOVE_KEYS = frozenset("""
checking mustCapture nFoldValueAbsolute perpetualCheckIllegal nMoveRuleTypes nMoveRuleTypesWhite
nMoveRuleTypesBlack extinctionValue extinctionClaim extinctionPieceTypes extinctionPieceCount
extinctionOpponentPieceCount flagPiece flagPieceWhite flagPieceBlack flagRegion flagRegionWhite
flagRegionBlack flagMove enPassantRegion enPassantTypes enPassantTypesWhite enPassantTypesBlack
castlingKingPiece castlingRookPieces castlingRookKingsideFile castlingRookQueensideFile
extinctionPseudoRoyal dupleCheck tripleStepRegionWhite tripleStepRegionBlack
""".split())

# drops, hands and the promotion of pieces (variants/inifile/drops.py)
DROP_KEYS = frozenset("""
pieceDrops capturesToHand dropLoop firstRankPawnDrops promotionZonePawnDrops whiteDropRegion
blackDropRegion dropNoDoubled dropNoDoubledCount shogiDoubledPawn dropPromoted dropChecks
immobilityIllegal shogiPawnDropMateIllegal promotionPawnTypes promotionPawnTypesWhite
promotionPawnTypesBlack promotedPieceType mandatoryPiecePromotion pieceDemotion promotionLimit
piecePromotionOnCapture
""".split())

# implemented rule keys (pieces are the predefined names, customPiece1..25 and king)
RULE_KEYS = frozenset(DEFAULTS) | {"promotionPieceTypesWhite", "promotionPieceTypesBlack"} \
    | RESULT_MOVE_KEYS | DROP_KEYS

GUI_ONLY = frozenset({"pieceToCharTable", "pocketSize", "variantTemplate"})

# Fairy-Stockfish keys that this loader does not implement: refused by name
UNSUPPORTED = frozenset("""
chess960 twoBoards promotionPawnTypes promotionPawnTypesWhite promotionPawnTypesBlack
sittuyinPromotion promotionLimit promotedPieceType piecePromotionOnCapture
mandatoryPiecePromotion pieceDemotion blastOnCapture blastImmuneTypes mutuallyImmuneTypes
petrifyOnCapture tripleStepRegionWhite tripleStepRegionBlack enPassantRegion enPassantTypes
enPassantTypesWhite enPassantTypesBlack castlingDroppedPiece castlingRookKingsideFile
castlingRookQueensideFile castlingKingPiece castlingRookPieces checking dropChecks mustCapture
mustDrop mustDropType pieceDrops dropLoop capturesToHand firstRankPawnDrops
promotionZonePawnDrops dropOnTop enclosingDrop enclosingDropStart whiteDropRegion
blackDropRegion sittuyinRookDrop dropOppositeColoredBishop dropPromoted dropNoDoubled
dropNoDoubledCount immobilityIllegal gating arrowGating duckGating staticGating
staticGatingRegion pastGating seirawanGating cambodianMoves diagonalLines pass passOnStalemate
makpongRule flyingGeneral soldierPromotionRank flipEnclosedPieces nMoveRuleTypes
nMoveRuleTypesWhite nMoveRuleTypesBlack nFoldValueAbsolute perpetualCheckIllegal
moveRepetitionIllegal chasingRule stalematePieceCount shogiPawnDropMateIllegal shatarMateRule
bikjangRule extinctionValue extinctionClaim extinctionPseudoRoyal dupleCheck
extinctionPieceTypes extinctionPieceCount extinctionOpponentPieceCount flagPiece
flagPieceWhite flagPieceBlack flagRegion flagRegionWhite flagRegionBlack flagMove
checkCounting connectN connectHorizontal connectVertical connectDiagonal materialCounting
countingRule adjudicateFullBoard pieceValueMg pieceValueEg
""".split()) - RESULT_MOVE_KEYS - DROP_KEYS
