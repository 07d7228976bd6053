"""The result keys of a variants file: how a game ends beyond checkmate and stalemate.

Each key has Fairy-Stockfish's meaning and default (docs/variant-files.md lists them):
``checking``, ``mustCapture``, ``checkmateValue``, ``nFoldValue``, ``nFoldValueAbsolute``,
``perpetualCheckIllegal``, ``nMoveRuleTypes…``, the extinction keys and the flag keys
(``flagPieceCount``, ``flagPieceSafe`` too).  They
become data flags of the variant (``must_capture``, ``checks_allowed``, ``checkmate_result``,
``decided_no_moves``) and the hooks of :class:`ResultRules` (``adjudicate``,
``check_ok_repetition``, ``resets_move_clock``), so that the referee, the protocol and the
searcher all see the same results through ``engine.game.game_result``.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.movegen import attacked_with, in_check, moves_before_result
from engine.variant import BLACK, WHITE, Result, Variant

from .registry import defaults, names
from .section import Section
from .values import KeyError_, as_bool, as_int, as_region, as_value

ALL = "*"           # Fairy-Stockfish's ALL_PIECES in a piece set
SCORE = {"win": 1, "draw": 0, "loss": -1}

DEFAULTS: dict[str, str] = defaults("result")
KEYS = names("result")


def piece_set(key: str, value: str, letters: set[str], *, one: bool = False) -> frozenset[str]:
    """A Fairy-Stockfish PieceSet (or PieceType with ``one``): piece letters, ``*`` for every
    piece, ``-`` or nothing for none.  A letter no piece of the variant has is refused."""
    out: set[str] = set()
    for ch in value.replace(" ", ""):
        if ch == "-":
            break
        low = ch.lower()
        if ch != ALL and low not in letters:
            raise KeyError_(key, "no piece has this letter", ch)
        if one:
            out = set()
        out.add(ch if ch == ALL else low)
    return frozenset(out)


def result_attrs(val: Section, letters: set[str], pawn_letters: frozenset[str],
                 royal: str, files: int, ranks: int) -> tuple[dict[str, Any], bool]:
    """The class attributes the result keys give, and whether the variant needs the
    :class:`ResultRules` hooks."""
    get: Callable[[str], str] = lambda k: val.get(k, DEFAULTS.get(k, ""))  # noqa: E731
    a: dict[str, Any] = {}
    a["checks_allowed"] = val.flag("checking")
    a["must_capture"] = val.flag("mustCapture")
    a["checkmate_result"] = val.outcome("checkmateValue")
    # n-fold repetition
    a["nfold_value"] = val.outcome("nFoldValue")
    a["nfold_absolute"] = val.flag("nFoldValueAbsolute")
    a["perpetual_check_illegal"] = val.flag("perpetualCheckIllegal")
    # pieces that reset the n-move count (pawnTypes by default)
    both = piece_set("nMoveRuleTypes", val["nMoveRuleTypes"], letters) \
        if "nMoveRuleTypes" in val else pawn_letters
    a["nmove_types"] = tuple(
        piece_set(k, val[k], letters) if k in val else both
        for k in ("nMoveRuleTypesWhite", "nMoveRuleTypesBlack"))
    # extinction
    ev = val.get("extinctionValue", "none")
    if ev != "none":
        as_value("extinctionValue", ev)
    a["extinction_value"] = ev
    a["extinction_types"] = piece_set("extinctionPieceTypes", get("extinctionPieceTypes"), letters)
    a["extinction_count"] = val.number("extinctionPieceCount")
    a["extinction_opponent_count"] = val.number("extinctionOpponentPieceCount")
    a["extinction_claim"] = val.flag("extinctionClaim")
    # pseudo-royal extinction pieces (pseudoroyal.py): then no extinction result
    a["pseudo_royal"] = val.flag("extinctionPseudoRoyal")
    a["duple_check"] = val.flag("dupleCheck")
    extinct = ev != "none" and bool(a["extinction_types"]) and not a["pseudo_royal"]
    # capture the flag
    fp = piece_set("flagPiece", get("flagPiece"), letters, one=True)
    a["flag_pieces"] = tuple(piece_set(k, val[k], letters, one=True) if k in val else fp
                             for k in ("flagPieceWhite", "flagPieceBlack"))
    region = as_region("flagRegion", get("flagRegion"), files, ranks)
    a["flag_regions"] = tuple(as_region(k, val[k], files, ranks) if k in val else region
                              for k in ("flagRegionWhite", "flagRegionBlack"))
    a["flag_move"] = val.flag("flagMove")
    a["flag_count"] = as_int("flagPieceCount", val.get("flagPieceCount", "1"), 1, 1000)
    a["flag_safe"] = as_bool("flagPieceSafe", val.get("flagPieceSafe", "false"))
    a["flag_king"] = tuple(p == frozenset(royal) for p in a["flag_pieces"]) if royal else (False, False)
    decides = extinct or any(
        a["flag_regions"][c] and a["flag_pieces"][c] for c in (WHITE, BLACK))
    a["decided_no_moves"] = decides
    hooks = decides or a["nfold_value"] != "draw" or a["nfold_absolute"] \
        or a["perpetual_check_illegal"] or a["nmove_types"] != (pawn_letters, pawn_letters)
    return a, hooks


class ResultRules(Variant):
    """Hooks for the result keys, mixed into a file variant that uses them."""
    nfold_value = "draw"
    nfold_absolute = False
    perpetual_check_illegal = False
    nmove_types: tuple[frozenset[str], frozenset[str]] = (frozenset("p"), frozenset("p"))
    extinction_value = "none"
    extinction_types: frozenset[str] = frozenset()
    extinction_count = 0
    extinction_opponent_count = 0
    extinction_claim = False
    pseudo_royal = False
    flag_pieces: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())
    flag_regions: tuple[frozenset, frozenset] = (frozenset(), frozenset())
    flag_move = False
    flag_count = 1
    flag_safe = False
    flag_king = (False, False)

    def __init__(self) -> None:
        super().__init__()
        coords = self.geometry.index
        self._flag_cells = tuple(frozenset(coords[c] for c in self.flag_regions[col])
                                 for col in (WHITE, BLACK))
        self._flag_codes = tuple(frozenset(
            pt.id * 2 + col for pt in self.piece_types[1:]
            if pt is not None and (ALL in self.flag_pieces[col] or pt.token.lower() in self.flag_pieces[col]))
            for col in (WHITE, BLACK))
        self._flag_on = any(self._flag_cells[c] and self._flag_codes[c] for c in (WHITE, BLACK))
        self._ext_ids = [pt.id for pt in self.piece_types[1:]
                         if pt is not None and pt.token.lower() in self.extinction_types]
        self._ext_on = self.extinction_value != "none" and bool(self.extinction_types) \
            and not self.pseudo_royal

    # ---- the n-move rule ------------------------------------------------------------------
    def resets_move_clock(self, code: int) -> bool:
        pt = self.piece_types[code >> 1]
        return pt is not None and pt.token.lower() in self.nmove_types[code & 1]

    # ---- extinction and the flag ------------------------------------------------------------
    def adjudicate(self, pos) -> Result:
        if self._ext_on:
            r = self._extinction(pos)
            if r is not None:
                return r
        if self._flag_on:
            return self._flag(pos)
        return None

    def _extinction(self, pos) -> Result:
        """Fairy-Stockfish's rule: a side with at most extinctionPieceCount pieces of one of
        the types (``*``: all its pieces together), while the other side has at least
        extinctionOpponentPieceCount of them (one more when the side to move would claim)."""
        board, hand = pos.board, pos.hand
        counts = ([0] * len(self.piece_types), [0] * len(self.piece_types))
        for col in (WHITE, BLACK):
            cnt = counts[col]
            for c in pos.occ[col]:
                cnt[board[c] >> 1] += 1
            for i in range(1, len(cnt)):
                cnt[i] += hand[i * 2 + col]
        us = pos.side
        value = SCORE[self.extinction_value]
        totals = [sum(counts[WHITE]), sum(counts[BLACK])]
        for col in (us ^ 1, us):
            claim = 1 if self.extinction_claim and col == us else 0
            groups = ([(totals[col], totals[col ^ 1])] if ALL in self.extinction_types else []) + \
                [(counts[col][i], counts[col ^ 1][i]) for i in self._ext_ids]
            for mine, theirs in groups:
                if mine <= self.extinction_count and theirs >= self.extinction_opponent_count + claim:
                    return (value if col == us else -value, "extinction")
        return None

    def _reached(self, pos, col: int) -> bool:
        """At least ``flagPieceCount`` flag pieces of ``col`` in its region (with
        ``flagPieceSafe`` only those the other side does not attack count)."""
        codes = self._flag_codes[col]
        board = pos.board
        cells = [c for c in self._flag_cells[col] if board[c] in codes]
        if self.flag_safe and cells:
            atk = self.attacks[col ^ 1]
            cells = [c for c in cells if not attacked_with(atk, board, c)]
        return len(cells) >= self.flag_count

    def _flag(self, pos) -> Result:
        """Fairy-Stockfish's capture-the-flag rule: a flag piece in the side's flag region
        wins.  With flagMove the other side gets one more move: a side to move whose flag
        piece stands in its region wins then (a draw when both reached and White is to
        move); a king that reached ends the game at once unless Black, to move, can still
        bring its own king into its region."""
        us, them = pos.side, pos.side ^ 1
        if self.flag_safe and not self.flag_move:
            # a safe flag piece wins for either side, the side to move included (Dobutsu's
            # "try": a lion on the far rank that survived the reply); both at once: a draw
            mine, theirs = self._reached(pos, us), self._reached(pos, them)
            if mine or theirs:
                return (0 if mine and theirs else 1 if mine else -1, "flag")
            return None
        if self.flag_move and self._reached(pos, us):
            return (0 if self._reached(pos, them) and us == WHITE else 1, "flag")
        if (not self.flag_move or self.flag_king[them]) and self._reached(pos, them):
            if self.flag_move and us == BLACK and pos.king[us] >= 0 and not in_check(pos):
                cells = self._flag_cells[us]
                k = pos.king[us]
                for m in moves_before_result(pos):
                    if (m >> 8) & 255 == k and m & 255 in cells:
                        return None
            return (-1, "flag")
        return None

    # ---- repetition ------------------------------------------------------------------------
    def check_ok_repetition(self, pos, count: int) -> Result:
        """At nFoldRule occurrences: with perpetualCheckIllegal the side that checked at every
        move since the first of them loses (a draw when both did); otherwise nFoldValue for
        the side to move (for White with nFoldValueAbsolute)."""
        if count < self.repetition_count:
            return None
        if self.perpetual_check_illegal:
            them, us = self._perpetual(pos)
            if them or us:
                return ((1 if not us else -1 if not them else 0), "perpetual check")
        value = SCORE[self.nfold_value]
        if self.nfold_absolute and pos.side == BLACK:
            value = -value
        return (value, "repetition")

    def _perpetual(self, pos) -> tuple[bool, bool]:
        """(the side to move was in check at each of its turns, the other side was at each of
        its turns) from now back to the earliest of the repetitions that complete the count."""
        p = pos.copy()
        h = pos.hash
        checks = [in_check(p)]
        seen = 0
        last = 0
        k = 0
        while p.stack:
            p.unmake()
            k += 1
            checks.append(in_check(p))
            if k % 2 == 0 and p.hash == h:
                seen += 1
                last = k
                if seen == self.repetition_count - 1:
                    break
        if not last:
            return False, False
        return all(checks[0:last + 1:2]), all(checks[1:last:2])
