"""Drops, hands and the promotion of pieces in a variants file: the keys, with Fairy-Stockfish's
meaning and defaults (its variants.ini header; the code is its move generator and
``Position::legal``), and ``DropRules``, the rules they give a ``FileVariant``.

What the keys mean, as Fairy-Stockfish plays them:

* ``pieceDrops``: a side may drop a piece of its hand on an empty square instead of moving
  (``whiteDropRegion``/``blackDropRegion`` restrict where); ``capturesToHand``: a captured
  piece goes to the capturer's hand, unpromoted (``dropLoop``: a promoted piece keeps its
  promoted type).  Only the ``pawn`` piece obeys ``firstRankPawnDrops`` and
  ``promotionZonePawnDrops``; ``dropNoDoubled`` names a piece that may not be dropped on a
  file holding ``dropNoDoubledCount`` of its own; ``dropChecks = false`` forbids a drop that
  gives check; ``dropPromoted`` lets a piece with a promoted form be dropped in that form.
* ``immobilityIllegal``: a plain move or drop may not leave a piece where it could never move.
* ``promotedPieceType = p:g s:g``: shogi-style promotion: a piece moving into, within or out of
  its promotion region may become the named type (``+P`` in position text, ``+`` after the
  move).  ``mandatoryPiecePromotion`` makes it compulsory there, ``pieceDemotion`` lets a
  promoted piece turn back the same way (``-`` after the move), ``piecePromotionOnCapture``
  allows both on captures only, ``promotionLimit = q:1`` caps how many of a type a
  promotion may make.  ``promotionPawnTypes`` names the pieces promoting pawn-style.
* ``shogiPawnDropMateIllegal``: a mate given by dropping a ``shogiPawn`` loses for the dropper.
"""
from __future__ import annotations

import re

from engine.movegen import in_check, moves_before_result, royal_filter
from engine.moves import CASTLE, CELL, EP, FROM_SHIFT, PROMO, SPECIAL, TYPE_MASK, TYPE_SHIFT, is_drop, DROP_CELLS
from engine.pieces import CAPTURE, PieceType
from engine.tables import compile_piece
from engine.variant import BLACK, WHITE, Variant

from .section import Section
from .values import KeyError_, as_region, in_region
from .keys import DROP_KEYS
from .registry import defaults
from .moverules import CastlingText
from engine.notation.formats import TextFormat
from variants.chess import ChessText
from .filevariant import RuleBase

DEFAULTS: dict[str, str] = defaults("drop")
assert set(DEFAULTS) <= DROP_KEYS

# Fairy-Stockfish's piece types in its own order: it writes a hand from the last to the first
FSF_ORDER = ("pawn knight bishop rook queen fers alfil fersAlfil silver aiwok bers archbishop "
             "chancellor amazon knibis biskni kniroo rookni shogiPawn lance shogiKnight gold "
             "dragonHorse clobber breakthrough immobile cannon janggiCannon soldier horse "
             "elephant janggiElephant banner wazir commoner centaur").split() + \
    [f"customPiece{i}" for i in range(1, 26)] + ["king"]


def _letters(key: str, v: str, letters: set[str]) -> frozenset[str]:
    """A PieceSet: letters of the variant's pieces; '-' is none."""
    out = set()
    for ch in v.lower():
        if ch == "-" or ch.isspace():
            continue
        if ch not in letters:
            raise KeyError_(key, "no piece has this letter", ch)
        out.add(ch)
    return frozenset(out)


def _pairs(key: str, v: str, letters: set[str], number: bool) -> dict[str, str]:
    """``x:y x:y`` (y a letter or '-', or a count when ``number``)."""
    out: dict[str, str] = {}
    for tok in v.split():
        m = re.fullmatch(r"([a-zA-Z]):(\d+)" if number else r"([a-zA-Z]):([a-zA-Z-])", tok)
        if m is None:
            raise KeyError_(key, "not letter:count" if number else "not letter:letter", tok)
        a, b = m.group(1).lower(), m.group(2).lower()
        for ch in (a, b):
            if ch.isalpha() and ch not in letters:
                raise KeyError_(key, "no piece has this letter", ch)
        out[a] = b
    return out


def apply(val: Section, pieces: list[tuple[str, str, str]], attrs: dict,
          files: int, ranks: int) -> None:
    """Read the drop, hand and promotion keys of a section into the class attributes."""
    def get(k: str) -> str:
        return val.get(k, DEFAULTS.get(k, ""))
    letters = {letter for _, letter, _ in pieces}
    by_name = {n: letter for n, letter, _ in pieces}
    pawn = by_name.get("pawn", "")
    attrs["fsf_pawn"] = pawn
    attrs["shogi_pawn"] = by_name.get("shogiPawn", "")
    attrs["hand_rank"] = {letter: FSF_ORDER.index(n) for n, letter, _ in pieces}
    pawn_types = attrs["pawn_letters"]       # pawnTypes, by default the pawn piece
    both = _letters("promotionPawnTypes", val["promotionPawnTypes"], letters) \
        if "promotionPawnTypes" in val else pawn_types
    attrs["promo_pawns"] = tuple(
        _letters(k, val[k], letters) if k in val else both
        for k in ("promotionPawnTypesWhite", "promotionPawnTypesBlack"))
    main = []
    for k in ("promotionPawnTypesWhite", "promotionPawnTypesBlack"):
        text = val.get(k, val.get("promotionPawnTypes", "")).replace("-", "")
        main.append(text[0].lower() if text else pawn)
    attrs["main_pawn"] = tuple(main)
    # hands and drops
    drops = val.flag("pieceDrops")
    to_hand = val.flag("capturesToHand")
    if to_hand and not drops:
        raise KeyError_("capturesToHand", "needs pieceDrops (a hand nobody can drop from)", "true")
    attrs["hands"] = drops
    attrs["captures_to_hand"] = to_hand
    attrs["drop_loop"] = val.flag("dropLoop")
    attrs["first_rank_pawn_drops"] = val.flag("firstRankPawnDrops")
    attrs["zone_pawn_drops"] = val.flag("promotionZonePawnDrops")
    attrs["drop_region"] = tuple(
        as_region(k, val[k], files, ranks) if k in val else None
        for k in ("whiteDropRegion", "blackDropRegion"))
    nd = get("dropNoDoubled").lower()
    if nd not in ("-", "") and (len(nd) != 1 or nd not in letters):
        raise KeyError_("dropNoDoubled", "no piece has this letter", nd)
    attrs["no_doubled"] = "" if nd in ("-", "") else nd
    attrs["no_doubled_count"] = val.number("dropNoDoubledCount")
    if "shogiDoubledPawn" in val and val.flag("shogiDoubledPawn") is not True:
        raise KeyError_("shogiDoubledPawn", "not supported (Fairy-Stockfish reads dropNoDoubled now; "
                        "true, the old default, is accepted)", val["shogiDoubledPawn"])
    attrs["drop_checks"] = val.flag("dropChecks")
    attrs["drop_promoted"] = val.flag("dropPromoted")
    attrs["immobility_illegal"] = val.flag("immobilityIllegal")
    attrs["pawn_drop_mate_illegal"] = val.flag("shogiPawnDropMateIllegal")
    # piece promotion
    promoted = {a: b for a, b in _pairs("promotedPieceType", get("promotedPieceType"), letters,
                                        False).items() if b != "-"}
    royal = attrs.get("royal_letter", "k")
    for a, b in promoted.items():
        if a == royal:
            raise KeyError_("promotedPieceType", "the king does not promote", a)
        if b in promoted:
            raise KeyError_("promotedPieceType", "a promoted piece would promote again", b)
    attrs["promoted_of"] = promoted
    attrs["limits"] = {a: int(n) for a, n in _pairs("promotionLimit", get("promotionLimit"),
                                                   letters, True).items() if int(n)}
    attrs["piece_mandatory"] = val.flag("mandatoryPiecePromotion")
    attrs["piece_demotion"] = val.flag("pieceDemotion")
    attrs["on_capture"] = val.flag("piecePromotionOnCapture")
    # forms: (token, the letter it moves as, its unpromoted letter)
    forms = [("+" + a.upper(), b, a) for a, b in promoted.items()]
    pawnish = bool(pawn or attrs["promo_pawns"][0] or attrs["promo_pawns"][1])
    if not pawnish:                 # nothing promotes pawn-style
        attrs["promo_letters"] = (frozenset(), frozenset())
    # a promoted pawn is marked (``Q~``) where a capture sends it to a hand as a pawn: this
    # side's, or, on one board of two (twoboards.py), the partner's
    if (to_hand or attrs.get("two_boards")) and not attrs["drop_loop"]:
        targets = attrs["promo_letters"][0] | attrs["promo_letters"][1]
        forms += [(t.upper() + "~", t, "") for t in sorted(targets)]
    attrs["forms"] = tuple(forms)
    if attrs["piece_demotion"]:
        clash = set(promoted) & (attrs["promo_letters"][0] | attrs["promo_letters"][1])
        if clash:
            raise KeyError_("pieceDemotion", "a demotion would read as a pawn promotion", min(clash))
    attrs["drop_resets_clock"] = True
    attrs["promotion_resets_clock"] = not attrs["piece_demotion"]
    attrs["has_drop_rule"] = bool(attrs["no_doubled"]) or not attrs["drop_checks"]


def text_class(bases: tuple[type, ...]) -> type:
    """The position text of a section built on ``bases``: ``FileText``, joined to the text
    class a base brings of its own (levelled boards)."""
    probe = type("probe", bases, {})
    own = next(c.__dict__["notation_class"] for c in probe.__mro__ if "notation_class" in c.__dict__)
    if issubclass(own, FileText) or own in (TextFormat, ChessText, CastlingText):
        return FileText
    return type(f"{own.__name__}File", (own, FileText), {})


def mixins(attrs: dict) -> tuple[type, ...]:
    """The rule classes a section needs besides ``DropRules`` (each overrides a hook)."""
    out: list[type] = []
    # a pawn that must promote but may become nothing may not enter its promotion region
    stuck = attrs.get("promo_mandatory", True) and bool(attrs["fsf_pawn"] or any(attrs["promo_pawns"])) \
        and not all(attrs["promo_letters"]) and attrs["fsf_pawn"] not in attrs["promoted_of"]
    # an en-passant capture never promotes: needed where it lands in a promotion region
    dbl = attrs.get("double_region", (frozenset(), frozenset()))
    ep_zone = any(in_region((co[0], co[1] + (1 if c == WHITE else -1)) + tuple(co[2:]),
                            attrs["promo_region"][1 - c])
                  for c in (WHITE, BLACK) for co in dbl[c])
    if attrs["immobility_illegal"] or attrs["limits"] or attrs["on_capture"] or stuck or ep_zone:
        out.append(MoveFilter)
    if attrs["drop_promoted"] and attrs["promoted_of"]:
        out.append(PromotedDrops)
    if attrs["pawn_drop_mate_illegal"] and attrs["shogi_pawn"] and attrs["hands"]:
        out.append(PawnDropMate)
    return tuple(out)


class FileText(CastlingText):
    """Fairy-Stockfish's FEN: the hand in brackets after the board (``[]`` when empty, ``[-]``
    read too) in its order of piece types, and the short ``w 0 1`` of its shogi start
    positions read as side, halfmove clock and move number."""
    empty_hand_text = ""

    def hand_order(self):
        v = self.variant
        base = [pt for pt in v.piece_types[1:] if pt is not None and not pt.promoted]
        return [pt.id for pt in sorted(base, key=lambda pt: -v.hand_rank[pt.token.lower()])]

    def field_names(self, rest):
        if len(rest) == 3 and rest[1].isdigit() and rest[2].isdigit():
            return ("side", "halfmove", "fullmove")
        return self.fields

    def ep_text(self, pos):
        """The cells as Fairy-Stockfish keeps them.  After the ``pawn``'s double step: the
        cell passed, when a pawn of the side to move attacks it or that side's en-passant
        types name another piece.  After another piece's initial two-step (a custom pawn):
        the cell passed and the cell reached (those in ``enPassantRegion``), lowest rank first."""
        v = self.variant
        if pos.ep < 0:
            return "-"
        geo = v.geometry
        mover = pos.board[pos.ep_victim] if pos.ep_victim >= 0 else 0
        if mover and v.piece_types[mover >> 1].token.lower() != v.fsf_pawn:
            region = v.ep_region
            cells = [c for c in (pos.ep, pos.ep_victim) if region is None or in_region(geo.coords[c], region)]
            cells.sort(key=lambda c: (geo.coords[c][1], geo.coords[c][0]))
            return "".join(geo.name(c) for c in cells) or "-"
        types = v.ep_types[pos.side]
        cells = [c for c in (pos.ep, v.second_ep_cell(pos)) if c >= 0]     # two after a triple step
        if not types - {v.fsf_pawn}:
            pawn = v.by_token.get(v.fsf_pawn.upper()) if v.fsf_pawn in types else None
            dy = -1 if pos.side == WHITE else 1          # the mover's forward direction

            def taken(c: int) -> bool:                   # a pawn of the side to move attacks c
                x, y, *rest = geo.coords[c]
                near = (geo.index.get((x + dx, y + dy, *rest)) for dx in (-1, 1))
                return pawn is not None and any(n is not None and pos.board[n] == pawn.id * 2 + pos.side
                                                for n in near)
            cells = [c for c in cells if taken(c)]
        cells.sort(key=lambda c: (geo.coords[c][1], geo.coords[c][0]))
        return "".join(geo.name(c) for c in cells) or "-"

    def parse_ep(self, pos, field):
        """Also Fairy-Stockfish's two cells after a custom pawn's two-step: the empty one is
        the en-passant cell, the other holds the piece that moved."""
        names = re.findall(r"\D+\d+", field)
        cells = [self.variant.geometry.parse(n) for n in names]
        triple = self.variant.read_triple_ep(pos, cells) if None not in cells and len(cells) in (1, 2) else None
        if triple is not None:                  # the cells a triple step passed
            return triple
        if len(names) != 2:
            return super().parse_ep(pos, field)
        from engine.notation.position_text import PositionTextError
        if None in cells or sum(1 for c in cells if pos.board[c]) != 1:
            raise PositionTextError(f"bad en-passant cells ({field})")
        ep = next(c for c in cells if not pos.board[c])
        return ep, next(c for c in cells if c != ep)

    def promotion_text(self, tid):
        v = self.variant
        pt = v.piece_types[tid]
        if v.piece_demotion and not pt.promoted and pt.token.lower() in v.promoted_of:
            return "-"
        return super().promotion_text(tid)


class DropRules(RuleBase):
    """Hands, drops and promotions of a file variant (placed before ``FileVariant``)."""
    hands = False
    captures_to_hand = False
    two_boards = False              # twoBoards (twoboards.py): a capture goes to the partner
    drop_loop = False
    forms: tuple[tuple[str, str, str], ...] = ()
    promoted_of: dict[str, str] = {}
    limits: dict[str, int] = {}
    promo_where_move_ends = False   # piecePromotionWhereMoveEnds (rulings.py)
    no_doubled: str                 # dropNoDoubled: the letter ('' for none), set by apply
    _nd_tables: tuple[list[bool], list[bool], list[tuple[int, ...]]] | None = None

    def _forms(self, base: list[PieceType]) -> list[PieceType]:
        by_letter = {pt.token.lower(): pt for pt in base}
        # a promoted pawn (``Q~``) returns as the main pawn (``hand_type``), when both sides' is one
        main = self.main_pawn[0].upper() if len(set(self.main_pawn)) == 1 else ""
        out = []
        for tok, move, unpromoted in self.forms:
            m = by_letter[move]
            out.append(PieceType(f"promoted {m.name}", tok, m.atoms, pawn=m.pawn, promoted=True,
                                 demotes_to=unpromoted.upper() if unpromoted else (main or None),
                                 extra={"move": move, "unpromoted": unpromoted}))
        return out

    def _move_letter(self, pt: PieceType) -> str:
        return pt.extra.get("move") or pt.token.lower()

    def _id(self, letter: str) -> int:
        return self.by_token[letter.upper()].id

    # ---- hands -------------------------------------------------------------------------
    def hand_type(self, code):
        if not self.captures_to_hand:
            return 0
        pt = self.piece_types[code >> 1]
        if not pt.promoted:
            return pt.id
        if self.drop_loop:
            return self._id(pt.extra["move"])
        if pt.extra["unpromoted"]:
            return self._id(pt.extra["unpromoted"])
        main = self.main_pawn[code & 1]
        return self._id(main) if main else 0

    def drop_allowed(self, code, cell):
        pt = self.piece_types[code >> 1]
        color = code & 1
        c = self.geometry.coords[cell]
        region = self.drop_region[color]
        if region is not None and not in_region(c, region):
            return False
        letter = pt.token.lower()
        if letter == self.fsf_pawn and not pt.promoted:
            if not self.zone_pawn_drops and in_region(c, self.promo_region[color]):
                return False
            if not self.first_rank_pawn_drops and c[1] == (0 if color == WHITE else self.ranks - 1):
                return False
        return not (self.immobility_illegal and self._immobile(code, cell))

    def _immobile(self, code: int, cell: int) -> bool:
        """No move (not a capture) of the piece from cell on an empty board."""
        t = self.tables[code]
        if t.leaps[cell] or t.mleaps[cell] or any(t.rides[cell]) or any(t.mrides[cell]) or t.bent[cell]:
            return False
        if any(mode != CAPTURE and any(st) for _r, st, mode, _f in t.special[cell]):
            return False
        return not any(any(st[1:]) for _r, st, mode, _b in t.hops[cell] if mode != CAPTURE)

    def drop_legal(self, pos, m):
        code = ((m >> TYPE_SHIFT) & TYPE_MASK) * 2 + pos.side
        if self.no_doubled:
            t = self._nd_tables
            dropped, counted, column = t if t is not None else self._no_doubled_tables
            if dropped[code]:
                # own pieces moving as the dropNoDoubled piece on the destination's file
                b = pos.board
                n = 0
                for cell in column[m & CELL]:
                    p = b[cell]
                    if p and counted[p] and (p & 1) == pos.side:
                        n += 1
                if n >= self.no_doubled_count:
                    return False
        if not self.drop_checks:
            pos.make(m)
            check = in_check(pos)
            pos.unmake()
            if check:
                return False
        return True

    @property
    def _no_doubled_tables(self) -> tuple[list[bool], list[bool], list[tuple[int, ...]]]:
        """For ``dropNoDoubled``, worked out once (kept in ``_nd_tables``, which ``drop_legal``
        reads without the property's call): by code, whether a drop of it takes the piece from
        the hand (``hand_source``) and whether a piece of it on the board counts (it moves as
        that piece); by cell, the cells of its file (first coordinate)."""
        t = self._nd_tables
        if t is None:
            pts = self.piece_types
            nd = self.no_doubled
            src = self.position_rules.handsrc
            dropped, counted = [], []
            for c in range(2 * len(pts)):
                s, p = pts[src[c] >> 1], pts[c >> 1]
                dropped.append(c >= 2 and s is not None and s.token.lower() == nd)
                counted.append(c >= 2 and p is not None and self._move_letter(p) == nd)
            coords = self.geometry.coords
            files: dict[int, list[int]] = {}
            for cell, co in enumerate(coords):
                files.setdefault(co[0], []).append(cell)
            column = [tuple(files[co[0]]) for co in coords]
            t = self._nd_tables = (dropped, counted, column)
        return t

    def _valid_ep(self, pos) -> bool:
        """After another piece's two-step than the ``pawn``'s: the passed cell empty, the
        piece that moved an enemy's."""
        v = pos.ep_victim
        p = pos.board[v] if v >= 0 else 0
        if p and (pt := self.piece_types[p >> 1]) is not None and pt.token.lower() != self.fsf_pawn:
            return not pos.board[pos.ep] and (p & 1) != pos.side
        return super()._valid_ep(pos)

    @property
    def reversible(self):
        """Moves of the pieces that reset the move count which the piece could take back with
        a plain move (Fairy-Stockfish resets the count on irreversible moves only)."""
        r = self.__dict__.get("_reversible")
        if r is None:
            out = set()
            n = self.geometry.size
            # only the pieces asked about are compiled when the tables are not built yet
            # (loading a file checks each section's start position: that must not build
            # every table of every section), unless the variant builds its tables its own way
            own = self.__dict__.get("_tables") is None and type(self).build_tables is Variant.build_tables
            for code in range(2, 2 * len(self.piece_types)):
                pt = self.piece_types[code >> 1]
                if pt is None or not self.resets_move_clock(code):
                    continue
                tab = compile_piece(self, pt, code & 1) if own else self.tables[code]
                quiet = [self._quiet_targets(tab, c) for c in range(n)]
                out |= {(code, s, t) for s in range(n) for t in quiet[s] if s in quiet[t]}
            r = self.__dict__["_reversible"] = frozenset(out)
        return r

    @staticmethod
    def _quiet_targets(t, cell: int) -> set[int]:
        out = set(t.leaps[cell]) | set(t.mleaps[cell])
        for group in (t.rides[cell], t.mrides[cell]):
            for ray in group:
                out.update(ray)
        for ray, stops, mode, flag in t.special[cell]:
            if mode != CAPTURE and flag not in ("double", "ep"):
                out.update(c for c, ok in zip(ray, stops) if ok)
        return out

    # ---- promotions ----------------------------------------------------------------------
    def results(self, code: int, frm: int, to: int, capture: bool,
                counts: dict[str, int] | None) -> tuple[int, ...]:
        """What the piece may be after moving frm -> to (0: unchanged), as Fairy-Stockfish
        generates it; ``counts`` (own pieces by the type they move as) for promotionLimit,
        None to ignore the limits."""
        pt = self.piece_types[code >> 1]
        assert pt is not None
        if pt.royal:
            return (0,)
        color = code & 1
        zone = self.promo_region[color]
        in_from, in_to = in_region(self.geometry.coords[frm], zone), in_region(self.geometry.coords[to], zone)
        in_from = in_from and not self.promo_where_move_ends    # rulings.py
        move = self._move_letter(pt)
        limits = self.limits

        def room(letter: str) -> bool:
            return counts is None or letter not in limits or limits[letter] > counts.get(letter, 0)

        out: list[int] = []
        normal = True
        fsf_pawn = move == self.fsf_pawn and not pt.promoted
        if in_to and (fsf_pawn or move in self.promo_pawns[color]):
            tilde = (self.captures_to_hand or self.two_boards) and not self.drop_loop
            out += [self._id_form(t, tilde) for t in sorted(self.promo_letters[color]) if room(t)]
            if self.promo_mandatory:
                normal = False
        # a piece a pawn became (``N~``) still promotes shogi-style, to the '+' form of the
        # piece it moves as, and loses its pawn mark, as in Fairy-Stockfish
        prom = self.promoted_of.get(move) if not pt.promoted or pt.token.endswith("~") else None
        if fsf_pawn:
            if in_to and prom and not (self.on_capture and not capture):   # no limit here
                out.append(self._id_form(move, plus=True))
        else:
            b2 = room(prom) if prom else False
            b3 = self.piece_demotion and pt.promoted and bool(pt.extra.get("unpromoted"))
            if b2 or b3:
                if self.piece_mandatory and not ((not in_from and not in_to) or (self.on_capture and not capture)):
                    normal = False
                if (in_from or in_to) and (capture or not self.on_capture):
                    if b2:
                        out.append(self._id_form(move, plus=True))
                    if b3:
                        out.append(self._id(pt.extra["unpromoted"]))
        if normal and not (self.immobility_illegal and self._immobile(code, to)):
            out.insert(0, 0)
        return tuple(out)

    def _id_form(self, letter: str, tilde: bool = False, plus: bool = False) -> int:
        tok = "+" + letter.upper() if plus else letter.upper() + ("~" if tilde else "")
        return self.by_token[tok].id

    def promotion_options(self, code, frm, to):
        opts = set(self.results(code, frm, to, False, None)) | set(self.results(code, frm, to, True, None))
        if self.limits:
            opts.add(0)
        if not opts or opts == {0}:
            return ()
        return tuple(sorted(opts))


class MoveFilter(RuleBase):
    """The move rules that depend on the position: promotion limits, promotion on captures,
    and plain moves to a square the piece could never leave."""

    def legal_moves(self, pos, pseudo):
        counts = None
        if self.limits:
            counts = {}
            for cell in pos.occ[pos.side]:
                letter = self._move_letter(self.piece_types[pos.board[cell] >> 1])
                counts[letter] = counts.get(letter, 0) + 1
        cache = self._cache if counts is None else {}
        b = pos.board
        out = []
        for m in pseudo:
            frm = (m >> FROM_SHIFT) & CELL
            if is_drop(m) or m & (CASTLE | SPECIAL):   # a variant's own move: its part's
                out.append(m)
                continue
            if m & EP:              # never a promotion, whatever the promotion table says
                m &= ~PROMO
                if m not in out:
                    out.append(m)
                continue
            to = m & CELL
            key = (b[frm], frm, to, bool(b[to]))
            res = cache.get(key)
            if res is None:
                res = cache[key] = self.results(b[frm], frm, to, bool(b[to]), counts)
            if (m >> TYPE_SHIFT) & TYPE_MASK in res:
                out.append(m)
        r = super().legal_moves(pos, out)       # the parts after it (a setup's must-drop)
        return r if r is not None else royal_filter(pos, out)

    @property
    def _cache(self) -> dict:
        c = self.__dict__.get("_results_cache")
        if c is None:
            c = self.__dict__["_results_cache"] = {}
        return c


class PromotedDrops(RuleBase):
    """dropPromoted: a piece with a promoted form may also be dropped in that form."""

    def hand_source(self, code):
        pt = self.piece_types[code >> 1]
        if pt.promoted and pt.extra.get("unpromoted") and pt.token.startswith("+"):
            return self._id(pt.extra["unpromoted"]) * 2 + (code & 1)
        return code

    def extra_moves(self, pos, out):
        side = pos.side
        hand = pos.hand
        b = pos.board
        for letter in self.promoted_of:
            code = self._id(letter) * 2 + side
            if not hand[code]:
                continue
            form = self._id_form(letter, plus=True) * 2 + side
            mb = (form >> 1) << TYPE_SHIFT
            for t in self.drops[code]:
                if not b[t] and not (self.immobility_illegal and self._immobile(form, t)):
                    out.append(mb | t * DROP_CELLS)


class PawnDropMate(RuleBase):
    """shogiPawnDropMateIllegal: a mate by a shogiPawn drop wins for the side mated."""

    def adjudicate(self, pos):
        r = super().adjudicate(pos)
        if r is not None or not pos.stack:
            return r
        m = pos.stack[-1].move
        if not is_drop(m) or (m >> TYPE_SHIFT) & TYPE_MASK != self._id(self.shogi_pawn) \
                or not in_check(pos) or moves_before_result(pos):
            return None
        return (1, "pawn-drop mate")
