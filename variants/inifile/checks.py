"""Check counting (``checkCounting``), with Fairy-Stockfish's meaning (docs/variant-files.md):
each side has a number of checks left to give; a move that gives check takes one off the
mover's count, and a side whose count reaches 0 has won (3check, 5check, checkshogi).

The counts are part of the position: its text writes them after the en-passant field as
``W+B`` (the checks White and Black still have to give; ``3+3`` at the start of 3check), and a
text without them reads as ``1+1`` (the next check wins), as Fairy-Stockfish reads it.  They
live in hand codes 0 and 1 of the position (type id 0 is no piece: ``Variant.after_move``),
so that they are hashed, copied and taken back with the move that changed them.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.movegen import in_check
from engine.notation.errors import PositionTextError
from engine.notation.formats import TextFormat
from engine.variant import Result

from .filevariant import RuleBase

# the text class the check counts are mixed before (TextFormat for the type checker only)
if TYPE_CHECKING:
    TextBase = TextFormat
else:
    TextBase = object
from .registry import names
from .values import as_bool

CHECK_KEYS = names("checks")
FIELD = "checks"
MAX_COUNT = 64          # the hand counts the core's Zobrist keys cover (engine/zobrist.py)
_COUNTS = re.compile(r"(\d+)\+(\d+)")


def checks_attrs(val: dict[str, str], attrs: dict) -> None:
    """``checkCounting`` read into the class attributes."""
    attrs["check_counting"] = as_bool("checkCounting", val.get("checkCounting", "false"))
    if attrs["check_counting"]:
        attrs["decided_no_moves"] = True    # no move once a side has given its last check


def checks_bases(attrs: dict) -> tuple[type, ...]:
    """The rule part of a section that counts checks (none otherwise)."""
    return (CheckCounting,) if attrs.get("check_counting") else ()


def checks_text(attrs: dict, text_cls: type[TextFormat]) -> type[TextFormat]:
    """The position text of a section that counts checks: the counts after the en-passant
    field (before the move counts)."""
    if not attrs.get("check_counting"):
        return text_cls
    fields = list(text_cls.fields)
    at = fields.index("ep") + 1 if "ep" in fields else fields.index("side") + 1
    fields.insert(at, FIELD)
    return type(f"{text_cls.__name__}Checks", (CheckText, text_cls), {"fields": tuple(fields)})


class CheckText(TextBase):
    """The text of the check counts (mixed before a file variant's text class)."""
    fields: tuple[str, ...]

    def field_names(self, rest: list[str]) -> tuple[str, ...]:
        names_ = super().field_names(rest)
        at = names_.index(FIELD) if FIELD in names_ else -1
        if at >= 0 and (at >= len(rest) or not _COUNTS.fullmatch(rest[at])):
            return tuple(n for n in names_ if n != FIELD)    # left out: 1+1
        return names_

    def init_fields(self, pos) -> None:
        pos.hand[0] = pos.hand[1] = 1

    def parse_field(self, pos, name: str, text: str) -> None:
        if name != FIELD:
            super().parse_field(pos, name, text)
            return
        m = _COUNTS.fullmatch(text)
        if m is None:
            raise PositionTextError(f"bad check counts ({text}): checks White+Black still give, as 3+3")
        white, black = int(m.group(1)), int(m.group(2))
        if white > MAX_COUNT or black > MAX_COUNT:
            raise PositionTextError(f"bad check counts ({text}): at most {MAX_COUNT}")
        pos.hand[0], pos.hand[1] = white, black

    def format_field(self, pos, name: str) -> str:
        if name != FIELD:
            return super().format_field(pos, name)
        return f"{pos.hand[0]}+{pos.hand[1]}"


class CheckCounting(RuleBase):
    """The count of checks still to give (hand codes 0 and 1) and the win at 0."""
    check_counting = True
    after_move_cells = False        # after_move changes the counts only: the pin shortcut holds

    def after_move(self, pos, move: int) -> None:
        super().after_move(pos, move)
        mover = pos.side ^ 1
        if pos.hand[mover] > 0 and in_check(pos):
            pos.add_hand(mover, -1)

    def adjudicate(self, pos) -> Result:
        r = super().adjudicate(pos)
        if r is not None:
            return r
        if pos.hand[pos.side ^ 1] == 0:
            return (-1, "checks given")
        return None
