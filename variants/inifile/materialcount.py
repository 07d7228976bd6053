"""Material counting (``materialCounting``) for the values that give a side draw odds, with
Fairy-Stockfish's meaning (docs/variant-files.md): ``blackdrawodds`` makes every drawn end
(stalemate, repetition, the move rule) a win for Black, ``whitedrawodds`` for White
(armageddon); ``unweighted`` counts the pieces where a game of passes or a full board ends
(reversi.py); ``janggi`` judges every drawn end by the pieces' weights (janggi.py)."""
from __future__ import annotations

from engine.variant import BLACK, WHITE

from .registry import names
from .values import KeyError_

MATERIAL_KEYS = names("material")
# unweighted: the pieces are counted where a game of passes or a full board ends (reversi.py)
# janggi: every drawn end judged by the pieces' weights (janggi.py)
ODDS = {"none": -1, "unweighted": -1, "whitedrawodds": WHITE, "blackdrawodds": BLACK, "janggi": -1}


def material_attrs(val: dict[str, str], attrs: dict) -> None:
    """``materialCounting`` read into ``draw_odds`` (engine/game.py applies it)."""
    value = val.get("materialCounting", "none").strip().lower()
    if value not in ODDS:
        raise KeyError_("materialCounting", "only none, unweighted, janggi, whitedrawodds and "
                        "blackdrawodds are played",
                        value)
    attrs["draw_odds"] = ODDS[value]
