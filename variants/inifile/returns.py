"""Hand and text keys of cellfish's own (extensions of the variants-file format) for games whose
captured pieces change sides as another piece, as the Flipped-return Nichtschach games do
(docs/variants/nichtschach.md; every key in docs/variant-files.md, "Returns and counterparts"):

    capturesToHandAs = r:a a:r p:f f:p     a captured piece goes to the capturer's hand as the
                                           mapped piece (unlisted: as itself); needs pieceDrops
    pieceDropRegionWhite = p:*1 *2 *3      where that piece may be dropped ("returned"), per
    pieceDropRegionBlack = p:*4 *5 *6      piece, besides white/blackDropRegion (; between)
    handLimit = 144                        a hand may hold this many pieces of one kind (64)
    lastRankPawnsIllegal = true            no pawnTypes piece on its last rank in position text
    nMoveRuleName = 100-ply rule           how a result names the n-move rule
    positionFields = side hand halfmove fullmove   the fields after the board; with ``hand``
                                           the hand is its own field, ``[-]`` when empty
    handOrder = rbqudg*fp                  the order held pieces are written (* the others,
                                           alphabetically)
    pieceNames = r:Rook a:Dabbaba          the pieces' names (``d``, the GUI, messages)
"""
from __future__ import annotations

import random
import re

from engine.zobrist import KEY_BITS

from .registry import names
from .section import Section
from .values import KeyError_, as_region, in_region
from .filevariant import RuleBase

RETURN_KEYS = names("return")
FIELDS = ("side", "hand", "castling", "ep", "halfmove", "fullmove")
CORE_HAND = 64          # the hand counts the core's Zobrist keys cover (engine/zobrist.py)


def _letter(key: str, ch: str, letters: set[str]) -> str:
    if ch.lower() not in letters:
        raise KeyError_(key, "no piece has this letter", ch)
    return ch.lower()


def return_attrs(val: Section, letters: set[str], files: int, ranks: int,
                 levels: str) -> dict:
    """The class attributes of these keys (a section without them gets none)."""
    a: dict = {}
    if "capturesToHandAs" in val:
        text = val["capturesToHandAs"]
        if val.get("capturesToHand", "false").lower() in ("true", "1", "yes"):
            raise KeyError_("capturesToHand", "capturesToHandAs says where captures go "
                            "(leave capturesToHand out)", val["capturesToHand"])
        if not val.flag("pieceDrops"):
            raise KeyError_("capturesToHandAs", "needs pieceDrops (a hand nobody can drop from)",
                            text)
        hand_as: dict[str, str] = {}
        for tok in text.split():
            m = re.fullmatch(r"([a-zA-Z]):([a-zA-Z])", tok)
            if m is None:
                raise KeyError_("capturesToHandAs", "not letter:letter", tok)
            a_, b_ = (_letter("capturesToHandAs", ch, letters) for ch in m.groups())
            if a_ in hand_as:
                raise KeyError_("capturesToHandAs", "a piece mapped twice", tok)
            hand_as[a_] = b_
        a["hand_as"] = hand_as
    regions = []
    for key in ("pieceDropRegionWhite", "pieceDropRegionBlack"):
        per: dict[str, frozenset] = {}
        for group in val.get(key, "").split(";"):
            if not group.strip():
                continue
            m = re.fullmatch(r"\s*([a-zA-Z]):(.*)", group)
            if m is None or not m.group(2).strip():
                raise KeyError_(key, "not letter:squares", group.strip())
            per[_letter(key, m.group(1), letters)] = as_region(key, m.group(2), files, ranks,
                                                            levels=levels)
        regions.append(per)
    if any(regions):
        a["piece_drop_region"] = tuple(regions)
    if "handLimit" in val:
        a["hand_limit"] = val.number("handLimit")
    if "lastRankPawnsIllegal" in val:
        a["last_rank_pawns_illegal"] = val.flag("lastRankPawnsIllegal")
    if "nMoveRuleName" in val:
        name = val["nMoveRuleName"].strip()
        if not name:
            raise KeyError_("nMoveRuleName", "an empty name", val["nMoveRuleName"])
        a["move_rule_name"] = name
    if "positionFields" in val:
        words = val["positionFields"].split()
        for w in words:
            if w not in FIELDS:
                raise KeyError_("positionFields", f"not one of {', '.join(FIELDS)}", w)
        if len(set(words)) != len(words):
            raise KeyError_("positionFields", "a field named twice", val["positionFields"])
        if "side" not in words:
            raise KeyError_("positionFields", "needs side", val["positionFields"])
        a["text_fields"] = tuple(words)
    if "handOrder" in val:
        text = val["handOrder"].replace(" ", "")
        order = [ch if ch == "*" else _letter("handOrder", ch, letters) for ch in text]
        if len(set(order)) != len(order):
            raise KeyError_("handOrder", "a letter given twice", text)
        a["hand_text_order"] = "".join(order)
    if "pieceNames" in val:
        a["piece_names"] = piece_names(val["pieceNames"], letters)
    return a


def piece_names(text: str, letters) -> dict[str, str]:
    """``pieceNames``: letter -> the piece's name (square and hex boards)."""
    names: dict[str, str] = {}
    for tok in text.split():
        m = re.fullmatch(r"([a-zA-Z]):([A-Za-z][A-Za-z0-9_\-]*)", tok)
        if m is None:
            raise KeyError_("pieceNames", "not letter:Name", tok)
        names[_letter("pieceNames", m.group(1), letters)] = m.group(2)
    return names


def return_bases(attrs: dict) -> tuple[type, ...]:
    """The rules mixin these keys need (before ``DropRules``), if any."""
    if any(k in attrs for k in ("hand_as", "piece_drop_region", "hand_limit",
                                "last_rank_pawns_illegal")):
        return (ReturnRules,)
    return ()


def text_bases(attrs: dict, text_cls: type) -> type:
    """The text class with ``positionFields`` and ``handOrder`` applied."""
    extra: dict = {}
    if "text_fields" in attrs:
        fields = attrs["text_fields"]
        extra.update(fields=fields, hand_in_board="hand" not in fields,
                     field_names=lambda self, rest: self.fields)
        if "hand" in fields:
            extra["empty_hand_text"] = "-"
    if "hand_text_order" in attrs:
        extra["hand_order"] = _hand_order
    if not extra:
        return text_cls
    return type(f"{text_cls.__name__}Fields", (text_cls,), extra)


def _hand_order(self) -> list[int]:
    """Held pieces in ``handOrder``: the listed letters, ``*`` the others alphabetically."""
    v = self.variant
    order = v.hand_text_order
    toks = [pt.token for pt in v.piece_types[1:] if pt is not None]
    rest = sorted(t for t in toks if t.lower() not in order)
    out: list[str] = []
    for ch in order:
        out.extend(rest if ch == "*" else [ch.upper()])
    if "*" not in order:
        out.extend(rest)
    return [v.by_token[t].id for t in out]


class ReturnRules(RuleBase):
    """Counterparts to the hand, per-piece drop regions, larger hands, pawns off their last
    rank (placed before ``DropRules``)."""
    hand_as: dict[str, str] = {}
    piece_drop_region: tuple[dict, dict] = ({}, {})
    hand_limit = CORE_HAND
    last_rank_pawns_illegal = False

    def hand_type(self, code):
        if not self.hand_as:
            return super().hand_type(code)
        letter = self.piece_types[code >> 1].token.lower()
        return self.by_token[self.hand_as.get(letter, letter).upper()].id

    def drop_allowed(self, code, cell):
        region = self.piece_drop_region[code & 1].get(
            self.piece_types[code >> 1].token.lower())
        if region is not None and not in_region(self.geometry.coords[cell], region):
            return False
        return super().drop_allowed(code, cell)

    def build_zobrist(self):
        """Hand keys up to ``handLimit`` pieces of a kind (the core's keys go to 64)."""
        z = super().build_zobrist()
        if self.hand_limit > CORE_HAND:
            rnd = random.Random(0x3D)
            for keys in z.hand:
                keys.extend(rnd.getrandbits(KEY_BITS) for _ in range(self.hand_limit + 1 - len(keys)))
        return z

    def validate_position(self, pos):
        from engine.notation.position_text import PositionTextError, code_token
        geo = self.geometry
        if self.hand_limit > CORE_HAND:
            for code, n in enumerate(pos.hand):
                if n > self.hand_limit:
                    raise PositionTextError(f"too many pieces in hand ({code_token(self, code)} x{n})")
        if self.last_rank_pawns_illegal:
            pawns = self.pawn_letters
            for c, p in enumerate(pos.board):
                if p:
                    pt = self.piece_types[p >> 1]
                    if pt.token.lower() in pawns and self._on_last_rank(c, p & 1):
                        raise PositionTextError(f"{pt.name} on its last rank ({geo.name(c)})")
        super().validate_position(pos)

    def _on_last_rank(self, cell: int, color: int) -> bool:
        rank_of = getattr(self, "rank_of", None)
        if rank_of is not None:                                     # a solid board
            return rank_of(cell, color) == self.ranks - 1
        y = self.geometry.coords[cell][1]
        return y == (self.ranks - 1 if color == 0 else 0)
