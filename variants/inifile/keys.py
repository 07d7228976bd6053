"""The key sets the 2D builder works from, derived from the declarations of ``registry.py``:
what this loader implements, with Fairy-Stockfish's defaults (its default template is chess
rules without pieces), what it accepts for GUIs only, and the Fairy-Stockfish keys it refuses
by name."""
from __future__ import annotations

from .registry import defaults, names

DEFAULTS: dict[str, str] = defaults("core")

# the result keys (variants/inifile/results.py) and the pawn and castling keys (moverules.py,
# triplestep.py)
RESULT_MOVE_KEYS = names("result", "move", "triple")

# drops, hands and the promotion of pieces (variants/inifile/drops.py)
DROP_KEYS = names("drop")

# implemented rule keys (pieces are the predefined names, customPiece1..25 and king)
RULE_KEYS = names("core") | RESULT_MOVE_KEYS | DROP_KEYS

GUI_ONLY = names("gui")

# Fairy-Stockfish keys that this loader does not implement: refused by name
UNSUPPORTED = names("refused")
