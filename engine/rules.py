"""A variant's rules worked out once: the one place where the core derives, from a variant's
data flags, its pieces and the hooks its class overrides, what the move generator, the
legality test, the position and the searcher may assume.

``derive(v)`` runs when the variant is built (``Variant.__init__``, as Fairy-Stockfish's
variant "conclude" step); ``derive_tables(v)`` on first need of the two answers that read the
compiled tables (``Variant.table_rules``), so that reading a position builds no table.  Nothing
else in the engine derives a rule flag of its own: it reads these.

A shortcut is allowed only when every declared effect permits it.  The pin shortcut (a move
out of check that is neither the royal piece's, nor a pinned piece's, nor en passant cannot
expose the royal piece) holds only where a move changes nothing but its from cell, its
destination and the piece it takes there; so a capture hook (``after_capture``: blasts, a
capturer that dies, a double disappearance), a variant's own moves (``make_special``:
fusions, acting moves, board changes), a hopper or a lame leaper turn it off by themselves.
The evasion shortcut (in check, only the moves that capture the checker, block its line or
move the royal piece) needs the same, and the core's own check test.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .pieces import HOP, LAME
from .tables import supports_attack_tables
from .moves import FROM_SHIFT

if TYPE_CHECKING:
    from .variant import CastlingRule, Variant


@dataclass(frozen=True)
class Rules:
    """What a variant does beyond the generic rules, and which of the core's shortcuts hold."""
    # hooks the class overrides (a default hook is never called where its flag is False)
    extra_moves: bool       # extra_moves: moves the tables cannot describe
    special_moves: bool     # make_special: moves the variant makes itself (SPECIAL flag)
    own_special_undo: bool  # unmake_special: the variant takes its own moves back (else the position does)
    capture_effects: bool   # after_capture runs on every capture (capture_hook, or the hook overridden)
    move_effects: bool      # after_move runs after every move (the hook overridden)
    own_legality: bool      # legal_moves: the generic royal-check filter is not used
    own_check: bool         # in_check is the variant's own (check_hook)
    drop_rule: bool         # drop_legal is asked for every drop (has_drop_rule)
    adjudicates: bool       # adjudicate: the last move can decide the game
    eval_terms: bool        # eval_terms
    own_tactical: bool      # is_tactical
    acted_result: bool      # acted_result
    capture_gains: bool     # capture_gains
    judges_cycles: bool     # judge_cycle: a repetition in the searcher is judged, not a draw
    extends_move_rule: bool  # move_rule_extension: the move rule may wait longer
    # derived
    royal_attacks: bool     # check is "the royal piece is attacked" (royal_check, no own check test)
    gives_check: bool       # the game knows check at all (royal pieces or an own check test)
    rule_filter: bool       # legal_moves applies must_capture / checks_allowed / decided_no_moves
    lazy_legality: bool     # legality = own royal not attacked after make (no own filter)
    null_move: bool         # null-move pruning is sound enough to use
    pin_shortcut: bool      # out of check: only royal, pinned and en-passant moves need make-and-test
    evasion_shortcut: bool  # in check: only moves that can end it are made and tested
    fast_evasions: bool     # the searcher leaves out, in check, moves that cannot end it
    checkless: bool         # no move can give check and every generated move is searched
    checkless_captures: bool  # ... and the tactical moves are those pseudo_moves(pos, True) makes
    staged_drops: bool      # out of check, drops come after the moves that cut most
    staged_quiets: bool     # out of check, quiet moves are generated after the captures
    quiet_stalemates: bool  # quiescence may skip the quiet moves where stalemate_risk says so


@dataclass(frozen=True)
class TableRules:
    """The two answers that read the compiled tables (``Variant.table_rules``)."""
    quiet_checks: bool      # a quiet move's check can be read from the attack tables (no hoppers)
    defence_test: bool      # attack tables exist for quiescence's defended-capture test


class PositionRules:
    """What a position's make and unmake read of its variant, per piece code and cell, worked
    out once per variant (``Variant.position_rules``) and shared by every position of it (never
    changed)."""
    __slots__ = ("capture_effects", "move_effects", "journal_special", "royal", "pawn",
                 "handtype", "handsrc", "cmask", "cbymove", "castle_cells",
                 "drop_effects")

    def __init__(self, v: Variant) -> None:
        r = v.rules
        ncodes = 2 * len(v.piece_types)
        self.capture_effects: bool = r.capture_effects      # after_capture runs on every capture
        # after_drop runs on every drop (Placement's castling rights, Reversi's flips)
        self.drop_effects: bool = overrides(type(v), "after_drop")
        self.move_effects: bool = r.move_effects            # after_move runs after every move
        # the position records a special move's changes and takes them back itself
        self.journal_special: bool = r.special_moves and not r.own_special_undo
        self.royal: list[bool] = [bool((pt := v.piece_types[c >> 1]) and pt.royal) for c in range(ncodes)]
        # per code: None if its moves never reset the move-rule count, else the moves
        # (from << FROM_SHIFT | to, the move's FROM_TO bits) that do not reset it because the piece could take them back
        # (Variant.reversible; empty for a pawn)
        rev = v.reversible or frozenset()
        self.pawn: list[frozenset[int] | None] = [
            frozenset((f << FROM_SHIFT) | t for c2, f, t in rev if c2 == c) if v.resets_move_clock(c) else None
            for c in range(ncodes)]
        # per code: the type id a captured piece of that code gives its capturer's hand (0: none)
        self.handtype: list[int] = [0] * ncodes
        # the hand entry a drop of each code takes (a piece dropped in promoted form takes its
        # unpromoted form: Variant.hand_source)
        self.handsrc: list[int] = [v.hand_source(c) if v.hands and v.piece_types[c >> 1] is not None
                                   else c for c in range(ncodes)]
        if v.hands:
            for c in range(2, ncodes):
                if v.piece_types[c >> 1] is not None:
                    self.handtype[c] = v.hand_type(c)
        # per cell: the castling rights that survive a move from or to it; the rule of each
        # castling move by (king from, king to); what make and unmake read of it (the rook's
        # cells and the king's destination) by the move's from and to fields (m & FROM_TO),
        # as ints: a rule's attributes are slow reads from compiled code (variant.py is not)
        cm = [-1] * v.geometry.size
        self.cbymove: dict[tuple[int, int], CastlingRule] = {}
        self.castle_cells: dict[int, tuple[int, int, int]] = {}
        for rule in v.castling:
            cm[rule.king_from] &= ~rule.king_bit
            cm[rule.rook_from] &= ~rule.rook_bit
            self.cbymove[(rule.king_from, rule.move_to)] = rule
            self.castle_cells[(rule.king_from << FROM_SHIFT) | rule.move_to] = (
                rule.rook_from, rule.rook_to, rule.king_to)
        for cell, bit in v.extra_rights:
            cm[cell] &= ~bit
        self.cmask: list[int] = cm


def overrides(cls: type, name: str) -> bool:
    """Does the class define its own ``name`` instead of ``Variant``'s default?"""
    from .variant import Variant
    return getattr(cls, name) is not getattr(Variant, name)


def bent_moves(v: Variant) -> bool:
    """A piece hops or leaps lamely: a piece moving onto a hopper's line becomes a screen and
    can expose its own royal piece, and a lame leaper's path is no slider line."""
    return any(a.kind in (HOP, LAME) for pt in v.piece_types if pt is not None for a in pt.atoms)


def derive(v: Variant) -> Rules:
    """The variant's rule set, from its data flags, its pieces and its overridden hooks."""
    cls = type(v)
    own_legality = overrides(cls, "legal_moves")
    adjudicates = overrides(cls, "adjudicate")
    own_tactical = overrides(cls, "is_tactical")
    special = overrides(cls, "make_special")
    capture_effects = bool(v.capture_hook) or overrides(cls, "after_capture")
    move_effects = overrides(cls, "after_move")
    own_check = bool(v.check_hook)
    drop_rule = bool(v.has_drop_rule)
    royal = bool(v.royal_check) and not own_check
    # rules that filter the legal moves beyond the royal-check test: the searcher then takes
    # legal_moves at every node instead of testing legality lazily
    rule_filter = bool(v.must_capture or not v.checks_allowed or v.decided_no_moves)
    lazy = not own_legality and not rule_filter
    null = v.null_move_ok
    if null is None:
        null = not own_legality and not adjudicates and royal and not rule_filter
    # a drop that changes other cells (after_drop) may open a line, as a capture hook may
    drop_effects = overrides(cls, "after_drop")
    pins = bool(v.fast_legality) and not bent_moves(v) and not capture_effects and not special \
        and not drop_effects and not (move_effects and v.after_move_cells)
    evasion = pins and not own_check
    checkless = not own_check and not v.royal_check and not drop_rule
    return Rules(
        extra_moves=overrides(cls, "extra_moves"), special_moves=special,
        own_special_undo=overrides(cls, "unmake_special"),
        capture_effects=capture_effects, move_effects=move_effects,
        own_legality=own_legality, own_check=own_check,
        drop_rule=drop_rule, adjudicates=adjudicates, eval_terms=overrides(cls, "eval_terms"),
        own_tactical=own_tactical, acted_result=overrides(cls, "acted_result"),
        capture_gains=overrides(cls, "capture_gains"),
        judges_cycles=overrides(cls, "judge_cycle"),
        extends_move_rule=overrides(cls, "move_rule_extension"),
        royal_attacks=royal, gives_check=bool(v.royal_check) or own_check,
        rule_filter=rule_filter, lazy_legality=lazy, null_move=bool(null),
        pin_shortcut=pins, evasion_shortcut=evasion,
        fast_evasions=lazy and royal and evasion,
        checkless=checkless, checkless_captures=checkless and not own_tactical,
        staged_drops=bool(v.hands) and lazy,
        staged_quiets=lazy and not v.hands and not own_tactical,
        quiet_stalemates=overrides(cls, "stalemate_risk") and not rule_filter and not own_tactical)


def derive_tables(v: Variant) -> TableRules:
    """The answers that need the compiled tables (built here if they are not yet)."""
    r = v.rules
    return TableRules(
        quiet_checks=r.fast_evasions and all(a[3] is None for a in v.attacks),
        defence_test=all(supports_attack_tables(t) for t in v.table_list))
