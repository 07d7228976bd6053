"""Fairy-Stockfish's predefined pieces, by the key names its variants.ini uses.

``PIECES[name] = (letter, betza)``: the Betza string is Fairy-Stockfish's own definition of
the piece (its src/piece.cpp); the letter is the one its built-in variants usually give the
piece (a variants.ini line always names the letter itself: ``knight = n``).  Read the Betza
with ``engine.betza.parse_betza``.

Some pieces do more, or less, than their Betza says; ``SPECIAL`` names them and how cellfish
represents each:

* pawn: the Betza is only the single step and the diagonal capture.  The double step
  (``doubleStep``, ``doubleStepRegion``, ``tripleStepRegion``), en passant (``enPassantTypes``,
  ``enPassantRegion``) and promotion are rules on Fairy-Stockfish's PAWN type, given by keys:
  the loader adds them (``variants.chess.pawn_atoms`` is the chess form).  Of the predefined
  pieces only ``pawn`` double-steps, whatever ``pawnTypes`` says.
* soldier: ``fsW``, but below ``soldierPromotionRank`` (relative, default 1: everywhere) it
  moves as ``fW``; :func:`soldier_atoms` builds that with an origin predicate.
* shogiPawn: ``fW``; ``shogiPawnDropMateIllegal`` applies to this type only.
* king: ``K`` and royal; ``king = k:Betza`` gives it other moves.
* janggiCannon: ``pR``, but it may neither hop over nor capture a cannon.  The core's hop has
  no screen filter, so its atoms are refused here (``UNSUPPORTED``) rather than play another
  game; a variants file's ``janggiCannon`` key is played by ``variants/inifile/janggi.py``,
  which generates the cannon's moves and checks itself.
"""
from __future__ import annotations

from engine.betza import parse_betza
from engine.geometry import Coord
from engine.pieces import BOTH, Atom, leap

PIECES: dict[str, tuple[str, str]] = {
    "pawn": ("p", "fmWfceF"),
    "knight": ("n", "N"),
    "bishop": ("b", "B"),
    "rook": ("r", "R"),
    "queen": ("q", "Q"),
    "king": ("k", "K"),
    "fers": ("f", "F"),
    "alfil": ("e", "A"),
    "fersAlfil": ("e", "FA"),
    "silver": ("s", "FfW"),
    "gold": ("g", "WfF"),
    "aiwok": ("a", "RNF"),
    "bers": ("d", "RF"),
    "archbishop": ("a", "BN"),
    "chancellor": ("c", "RN"),
    "amazon": ("a", "QN"),
    "knibis": ("n", "mNcB"),
    "biskni": ("b", "mBcN"),
    "kniroo": ("n", "mNcR"),
    "rookni": ("r", "mRcN"),
    "shogiPawn": ("p", "fW"),
    "lance": ("l", "fR"),
    "shogiKnight": ("n", "fN"),
    "dragonHorse": ("h", "BW"),
    "clobber": ("p", "cW"),
    "breakthrough": ("p", "fmWfF"),
    "immobile": ("x", ""),
    "cannon": ("c", "mRcpR"),
    "janggiCannon": ("c", "pR"),
    "soldier": ("p", "fsW"),
    "horse": ("n", "nN"),
    "elephant": ("b", "nA"),
    "janggiElephant": ("b", "nZ"),
    "banner": ("a", "RcpRnN"),
    "wazir": ("w", "W"),
    "commoner": ("m", "K"),
    "centaur": ("c", "KN"),
}

# pieces whose Fairy-Stockfish rules treat them as pawns by type (not by pawnTypes)
PAWN_LIKE = frozenset({"pawn", "shogiPawn", "soldier"})

SPECIAL: dict[str, str] = {
    "pawn": "double/triple step, en passant and promotion come from rule keys (loader)",
    "soldier": "fW below soldierPromotionRank, fsW from it on (soldier_atoms)",
    "shogiPawn": "shogiPawnDropMateIllegal applies to this piece type only",
    "king": "royal",
    "janggiCannon": "may not hop over or capture cannons: refused",
}

UNSUPPORTED: dict[str, str] = {
    "janggiCannon": "a janggi cannon may not hop over or capture a cannon, which a cellfish "
                    "hop cannot say",
}


def piece_atoms(name: str) -> tuple[Atom, ...]:
    """The atoms of a predefined piece from its Betza alone (see SPECIAL for what is not in
    it); KeyError for an unknown name, ValueError for an UNSUPPORTED one."""
    betza = PIECES[name][1]
    if name in UNSUPPORTED:
        raise ValueError(f"not supported: {name} ({UNSUPPORTED[name]})")
    return parse_betza(betza)


def soldier_atoms(promotion_rank: int, ranks: int) -> tuple[Atom, ...]:
    """Fairy-Stockfish's soldier on a board of ``ranks`` ranks: forward step everywhere,
    sideways steps from the relative rank ``promotion_rank`` (1-based, as the key) on."""
    def past_river(c: Coord, color: int) -> bool:
        rel = ranks - 1 - c[1] if color else c[1]
        return rel + 1 >= promotion_rank
    return (leap(((0, 1),), BOTH), leap(((1, 0), (-1, 0)), BOTH, origin=past_river))
