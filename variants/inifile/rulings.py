"""cellfish's own rulings (a cellfish extension of the variants-file format): keys for the
points where a game's rules, as cellfish plays them, differ from what Fairy-Stockfish does
with the same section.  Fairy-Stockfish ignores keys it does not know, so a file using only
these besides its own keys still loads there (playing Fairy-Stockfish's rule).

    piecePromotionWhereMoveEnds = true   shogi-style promotion (promotedPieceType) only on a
                                         move that ends in the promotion region (not on one
                                         that only starts there)
    nMoveRuleTypesOnly = true            the move count restarts only on a capture and on a
                                         move or drop of an nMoveRuleTypes piece: not on other
                                         drops, not on a piece promotion
    deadPositionTypes = bnd              dead positions are draws: bare kings (and, with
                                         hands, empty hands); a king and one of these pieces
                                         against a bare king; only bishop pieces, all on one
                                         colour of cells
    chessPositionChecks = true           position text is refused unless each side has
                                         exactly one king and no pawn stands on the first or
                                         last rank
    nMoveRulePlies = 100                 the move-count rule counted in plies: a draw after
                                         this many plies, named "100-ply rule" in the result

See docs/variant-files.md ("cellfish's own rulings").
"""
from __future__ import annotations

from typing import Any

from engine.variant import BLACK, WHITE

from .registry import names
from .section import Section
from .filevariant import RuleBase

RULING_KEYS = names("ruling")


def ruling_attrs(val: Section, pieces: list[tuple[str, str, str]], attrs: dict[str, Any],
                 error: type) -> None:
    """Read the ruling keys into the class attributes (after the drop keys, whose clock
    attributes ``nMoveRuleTypesOnly`` replaces)."""
    letters = {letter for _, letter, _ in pieces}
    if "piecePromotionWhereMoveEnds" in val:
        on = val.flag("piecePromotionWhereMoveEnds")
        if on and not attrs.get("promoted_of"):
            raise error("piecePromotionWhereMoveEnds", "needs promotedPieceType", val["piecePromotionWhereMoveEnds"])
        attrs["promo_where_move_ends"] = on
    if "nMoveRuleTypesOnly" in val and val.flag("nMoveRuleTypesOnly"):
        attrs["drop_resets_clock"] = False
        attrs["pawn_drop_resets_clock"] = True      # a drop of an nMoveRuleTypes piece
        attrs["promotion_resets_clock"] = False
    if "deadPositionTypes" in val:
        lone = set()
        for ch in val["deadPositionTypes"].lower():
            if ch == "-" or ch.isspace():
                continue
            if ch not in letters:
                raise error("deadPositionTypes", "no piece has this letter", ch)
            lone.add(ch)
        attrs["dead_position"] = True
        attrs["dead_lone"] = frozenset(lone)
        attrs["dead_bishop"] = next((letter for n, letter, _ in pieces if n == "bishop"), "")
    if "chessPositionChecks" in val:
        attrs["chess_position_checks"] = val.flag("chessPositionChecks")
    if "nMoveRulePlies" in val:
        n = val.number("nMoveRulePlies")
        if "nMoveRule" in val and 2 * int(val["nMoveRule"]) != n:
            raise error("nMoveRulePlies", f"disagrees with nMoveRule = {val['nMoveRule']} "
                                          f"({2 * int(val['nMoveRule'])} plies)", val["nMoveRulePlies"])
        attrs["move_rule_plies"] = n
        if "nMoveRuleName" not in val:          # a name given by nMoveRuleName wins
            attrs["move_rule_name"] = f"{n}-ply rule"


def ruling_bases(attrs: dict[str, Any]) -> tuple[type, ...]:
    """The rule classes the ruling keys need (placed before the loader's own rules)."""
    out: list[type] = []
    if attrs.get("dead_position"):
        out.append(DeadPositions)
    if attrs.get("chess_position_checks"):
        out.append(ChessPositionChecks)
    return tuple(out)


class DeadPositions(RuleBase):
    """deadPositionTypes: the positions no sequence of moves can mate in are draws."""
    dead_lone: frozenset[str] = frozenset()
    dead_bishop = ""

    def is_draw_by_material(self, pos) -> bool:
        pts = self.piece_types
        board = pos.board
        others = [c for side in pos.occ for c in side if not pts[board[c] >> 1].royal]
        if self.hands:                      # any piece in a hand can come back
            return not others and not any(pos.hand)
        if len(others) <= 1:
            return all(pts[board[c] >> 1].token.lower() in self.dead_lone for c in others)
        if not self.dead_bishop:
            return False
        coords = self.geometry.coords
        colours = set()
        for c in others:
            if pts[board[c] >> 1].token.lower() != self.dead_bishop:
                return False
            colours.add((coords[c][0] + coords[c][1]) & 1)
        return len(colours) == 1


class ChessPositionChecks(RuleBase):
    """chessPositionChecks: a side without exactly one king, or a pawn on the first or last
    rank, is refused (then the loader's own checks)."""

    def validate_position(self, pos) -> None:
        from engine.notation.position_text import PositionTextError
        kings = [0, 0]
        last = self.ranks - 1
        coords = self.geometry.coords
        for c, p in enumerate(pos.board):
            if not p:
                continue
            pt = self.piece_types[p >> 1]
            if pt.royal:
                kings[p & 1] += 1
            elif pt.pawn and coords[c][1] in (0, last):
                raise PositionTextError(f"pawn on rank 1 or {last + 1} ({self.geometry.name(c)})")
        for color, who in ((WHITE, "white"), (BLACK, "black")):
            if kings[color] != 1:
                raise PositionTextError(f"each side needs exactly one king ({who} kings: {kings[color]})")
        super().validate_position(pos)
