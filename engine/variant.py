"""A variant is data plus a few named hooks.

Subclasses (in ``variants/``) set the data attributes and override hooks where data cannot
say the rule.  The core reads only these attributes and hooks; it never tests a name.
Tables are compiled lazily, on first use, so that start-up stays fast.
"""
from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any, Final, Iterable, Mapping, Sequence

from .attacks import MaskAttacks, mask_attack_tables
from .geometry import Coord, Geometry
from .movedata import MoveData
from .moves import CELL_BITS, MAX_CELLS, TYPE_MASK
from .notation.formats import TextFormat
from .pieces import PieceType
from .rules import PositionRules, Rules, TableRules, derive, derive_tables
from .tables import (AttackTables, PieceTables, Promotions, build_attack_tables, compile_piece,
                     index_captures, reachable)
from .zobrist import Zobrist

if TYPE_CHECKING:
    from .position import Position
    from .structure import Structure

WHITE, BLACK = 0, 1

# (score for the side to move: 1 win, 0 draw, -1 loss; the reason in words), or None
Result = tuple[int, str] | None

# A move packs its cells into 12-bit fields (engine/moves.py), every value of which is a cell
# (a drop goes from its cell to itself), so cells are numbered 0..4095: at most MAX_CELLS cells.


def check_cell_count(geometry: Geometry, name: str = "") -> None:
    """ValueError when the move encoding cannot carry every cell of the geometry (a larger
    board would silently corrupt moves: cell 4096 would read as cell 0)."""
    if geometry.size > MAX_CELLS:
        who = f"variant {name}: " if name else ""
        raise ValueError(f"{who}{geometry.size} cells, but the move encoding carries at most "
                         f"{MAX_CELLS} cells ({CELL_BITS}-bit cell fields)")


CAPTURE_WINS: Final = 1 << 20     # Variant.capture_gains: this capture wins the game


class CastlingRule:
    """King from/to, rook from/to, the rights bits, cells that must be empty, cells the king
    passes (must not be attacked, from cell and destination included).

    ``bit`` holds every rights bit the castling needs (all set: it may castle); a move from
    or to the king's cell clears ``king_bit``, one from or to the rook's cell ``rook_bit``
    (both ``bit`` in a plain rule).  A Chess960 rule needs two bits, its king's file and its
    rook's, and its move names the rook's cell (``move_to``: the king takes its own rook);
    a plain rule's names the king's destination."""
    __slots__ = ("king_from", "king_to", "rook_from", "rook_to", "bit", "empty", "safe", "color",
                 "char", "king_bit", "rook_bit", "move_to")

    def __init__(self, color: int, king_from: int, king_to: int, rook_from: int, rook_to: int,
                 bit: int, empty: Iterable[int], safe: Iterable[int], char: str,
                 king_bit: int = 0, rook_bit: int = 0, move_to: int = -1) -> None:
        self.color, self.king_from, self.king_to = color, king_from, king_to
        self.rook_from, self.rook_to, self.bit = rook_from, rook_to, bit
        self.empty, self.safe, self.char = tuple(empty), tuple(safe), char
        self.king_bit = king_bit or bit
        self.rook_bit = rook_bit or bit
        self.bit = bit | self.king_bit | self.rook_bit
        self.move_to = king_to if move_to < 0 else move_to


class Variant:
    # ---- identity and board ---------------------------------------------------------
    name: str = ""
    template: str = "fairy"           # announcement: fairy or shogi
    geometry: Geometry
    piece_types: list[PieceType | None]      # index 0 is unused (empty); ids are assigned here
    start_fen: str = ""
    notation_class: type[TextFormat] = TextFormat   # how positions are written

    # ---- rules as data --------------------------------------------------------------
    royal_check: bool = True          # a royal piece may not be left attacked
    hands: bool = False               # captured pieces go to the capturer's hand
    castling: Sequence[CastlingRule] = ()
    # rights beyond castling kept with it (``Position.castle``, bits above the eighth): per
    # (cell, bit), a right that lapses when a move starts or ends on the cell (Seirawan's gates)
    extra_rights: Sequence[tuple[int, int]] = ()
    # (king from, king to) of a castling move written with another destination: the cell
    # written (Fairy-Stockfish's rook cell, where a plain king move has the same text)
    castle_written: Mapping[tuple[int, int], int] = {}
    move_rule_plies: int | None = 100  # draw after this many plies without capture/pawn move
    move_rule_name: str | None = None  # how the result names it (default: "50-move rule")
    drop_resets_clock: bool = False   # a drop/return also resets that count
    promotion_resets_clock: bool = False  # any promotion resets it (a pawn's move always does)
    # (code, from, to) of the moves of resetting pieces that do not reset the count because
    # the piece could step back (a sideways pawn step); None: every such move resets it
    reversible: frozenset[tuple[int, int, int]] | None = None
    pawn_drop_resets_clock: bool = False  # a pawn drop resets it like a pawn move
    repetition_count: int = 3         # draw at this many occurrences
    stalemate_result: str = "draw"    # "draw", "loss" (side to move loses) or "win"
    # the stalemating side's share of the point where a stalemate scores a fraction (Glinski's
    # 3/4: ``game.result_points``); None: the whole or half point of ``stalemate_result``
    stalemate_points: Fraction | None = None
    checkmate_result: str = "loss"    # the same for checkmate (no moves while in check)
    draw_odds: int = -1               # the side (WHITE, BLACK) whose draws are wins, or -1
    draws_judged: bool = False        # a drawn end is judged by judge_draw (janggi's material count)
    must_capture: bool = False        # when a legal capture exists, only captures are legal
    checks_allowed: bool = True       # False: a move that gives check is illegal
    decided_no_moves: bool = False    # once adjudicate decides the game, no move is legal
    fast_legality: bool = True        # declared: pins + check test are enough; after __init__ the
                                      # derived answer (False too with hoppers, lame leapers,
                                      # capture hooks or own moves: engine/rules.py)
    capture_hook: bool = False        # call after_capture on every capture (defining it is enough)
    has_drop_rule: bool = False       # call drop_legal on every drop
    after_move_cells: bool = True     # after_move (where defined) may change cells, not only counts
    check_hook: bool = False          # in_check is the variant's own (Notake)
    acts_elsewhere: bool = False      # a move may change a piece on a cell it neither leaves nor
                                      # enters (Notake's acting moves, written from-to,cell)
    null_move_ok: bool | None = None  # searcher: allow/forbid null moves (None: by the rules)
    hand_share: float = 1.05          # evaluation: a piece in hand, as a share of its board value
    clock_moves: int = 30             # time use: the moves to plan the clock for (no movestogo)
    clock_game: int = 0               # time use: the moves a game usually runs (0: clock_moves throughout)
    quiescence_plies: int = 10        # searcher: the captures quiescence follows at most (a game whose
                                      # every move is a capture, Clobber, needs few)
    # evaluation: per piece letter (value in the middlegame, in the ending, then a bonus per cell for
    # each, seen from the first player, from the far rank down), blended by the game phase
    square_tables: Mapping[str, tuple[int, int, Sequence[int], Sequence[int]]] | None = None
    # evaluation: doubled and isolated pawns, piece pairs, pieces on open files (structure.py)
    structure: Structure | None = None

    def validate_position(self, pos: Position) -> None:
        """Raise PositionTextError for positions the rules cannot play (called when a position
        is read; changes nothing; a plugin chains it with ``super()``)."""

    def start_position(self) -> Position:
        """A fresh Position of the start array (parsed from ``start_fen`` each call)."""
        from .notation.position_text import parse
        return parse(self, self.start_fen)

    def __init__(self) -> None:
        geo = getattr(self, "geometry", None)
        if geo is not None:
            check_cell_count(geo, self.name)
        if len(self.piece_types) > TYPE_MASK + 1:     # ids 1..127: the move's 7-bit type field
            raise ValueError(f"variant {self.name}: {len(self.piece_types) - 1} piece types, but a "
                             f"move's type field carries at most {TYPE_MASK}")
        for i, pt in enumerate(self.piece_types):
            if pt is not None:
                pt.id = i
        self.by_token = {pt.token: pt for pt in self.piece_types if pt is not None}
        self.notation = self.notation_class(self)
        self._tables: dict[int, PieceTables] | None = None
        self._table_list: list[PieceTables] | None = None
        self._attacks: list[AttackTables] | None = None
        self._attack_masks: list[MaskAttacks] | None = None
        self._promo: Promotions | None = None
        self._promo_from: dict[int, frozenset[int]] = {}
        self._drops: list[tuple[int, ...]] | None = None
        self._zobrist: Zobrist | None = None
        self._move_data: MoveData | None = None
        self._table_rules: TableRules | None = None
        self._position_rules: PositionRules | None = None
        # the rule set, worked out once (engine/rules.py); the declared fast_legality then
        # says whether the pin shortcut holds (a hopper, a lame leaper, a capture hook or a
        # move the variant makes itself turn it off)
        self.rules: Rules = derive(self)
        self.fast_legality = self.rules.pin_shortcut

    @property
    def caps(self) -> Rules:
        """The rule set (``rules``), under its former name."""
        return self.rules

    @property
    def position_rules(self) -> PositionRules:
        """What every position of this variant reads in make and unmake (engine/rules.py,
        built on first need, after the variant's own construction has set its castling)."""
        if self._position_rules is None:
            self._position_rules = PositionRules(self)
        return self._position_rules

    @property
    def table_rules(self) -> TableRules:
        """The rule answers that read the compiled tables (``engine/rules.py``, on first need)."""
        if self._table_rules is None:
            self._table_rules = derive_tables(self)
        return self._table_rules

    # ---- frames -----------------------------------------------------------------------
    def orient(self, v: Coord) -> Coord:
        """A vector of the first player's frame as the second player sees it."""
        return (v[0], -v[1]) + tuple(v[2:])

    def white_coord(self, coord: Coord, color: int) -> Coord:
        """Coordinates of a cell in the frame of the given colour (for cell-dependent moves)."""
        return coord

    def allow_move(self, code: int, frm: int, to: int) -> bool:
        """Compile-time filter of table moves (edge bans and the like)."""
        return True

    # ---- compiled data (lazy) ---------------------------------------------------------
    @property
    def tables(self) -> dict[int, PieceTables]:
        """Compiled move tables by piece code (built once, by ``build_tables``)."""
        if self._tables is None:
            check_cell_count(self.geometry, self.name)   # also a geometry set after __init__
            self._tables = self.build_tables()
        return self._tables

    @property
    def table_list(self) -> list[PieceTables]:
        """The tables the generic generator walks, indexed by piece code (list, for the hot
        loop; built once, by ``build_generator_tables``; a code no piece has gets empty
        tables)."""
        if self._table_list is None:
            n = self.geometry.size
            tl = [tab if tab is not None else PieceTables(code, n)
                  for code, tab in enumerate(self.build_generator_tables())]
            for tab in tl:
                index_captures(tab)
            self._table_list = tl
        return self._table_list

    @property
    def attacks(self) -> list[AttackTables]:
        if self._attacks is None:
            self._attacks = build_attack_tables(self, self.tables)
        return self._attacks

    @property
    def attack_masks(self) -> list[MaskAttacks]:
        """The attack tables with code masks (``engine/attacks.py``), built once."""
        if self._attack_masks is None:
            self._attack_masks = mask_attack_tables(self.attacks)
        return self._attack_masks

    @property
    def promo(self) -> Promotions:
        """dict: code -> {(from, to): tuple of resulting type ids (0 = stays as it is)}."""
        if self._promo is None:
            self._promo = self.build_promotions()
            self._promo_from = {code: frozenset(s for s, _ in d) for code, d in self._promo.items()}
        return self._promo

    @property
    def promo_from(self) -> dict[int, frozenset[int]]:
        """dict: code -> the cells from which some move of that code promotes (the generator
        walks a piece elsewhere as if it never promoted)."""
        _ = self.promo
        return self._promo_from

    @property
    def drops(self) -> list[tuple[int, ...]]:
        """list per code: the cells a piece of that code may be dropped on."""
        if self._drops is None:
            geo = self.geometry
            self._drops = [tuple(c for c in range(geo.size) if self.drop_allowed(code, c))
                           if self.piece_types[code >> 1] is not None else ()
                           for code in range(2 * len(self.piece_types))]
        return self._drops

    @property
    def move_data(self) -> MoveData:
        """What the generators read of this variant, in typed fields (``engine/movedata.py``)."""
        if self._move_data is None:
            self._move_data = MoveData(self)
        return self._move_data

    @property
    def zobrist(self) -> Zobrist:
        if self._zobrist is None:
            self._zobrist = self.build_zobrist()
        return self._zobrist

    # ---- build hooks (called once, lazily) --------------------------------------------------
    def build_tables(self) -> dict[int, PieceTables]:
        """Hook: compile every piece code's move tables (default: each piece's atoms)."""
        t = {}
        for pt in self.piece_types:
            if pt is None:
                continue
            for color in (WHITE, BLACK):
                t[pt.id * 2 + color] = compile_piece(self, pt, color)
        return t

    def build_generator_tables(self) -> list[PieceTables | None]:
        """Hook: the tables the generic generator walks, by code (default: ``tables``; None
        for a code without tables)."""
        tabs = self.tables
        return [tabs.get(c) for c in range(2 * len(self.piece_types))]

    def build_zobrist(self) -> Zobrist:
        """Hook: the Zobrist keys (default: ``max_hand`` counts per hand entry)."""
        return Zobrist(self)

    # ---- promotions ---------------------------------------------------------------------
    def promotion_options(self, code: int, frm: int, to: int) -> tuple[int, ...]:
        """Type ids a piece may become on this move; 0 means it stays.  () = no promotion."""
        return ()

    def build_promotions(self) -> Promotions:
        """Hook: the promotion table ``promo`` (default: from ``promotion_options``)."""
        out = {}
        for code, tab in self.tables.items():
            d = {}
            for s in range(self.geometry.size):
                for t in reachable(tab, s):
                    opts = self.promotion_options(code, s, t)
                    if opts and opts != (0,):
                        d[(s, t)] = tuple(opts)
            if d:
                out[code] = d
        return out

    # ---- hands and drops ------------------------------------------------------------
    def resets_move_clock(self, code: int) -> bool:
        """Does a move of this piece code reset the move-rule count (besides captures)?
        Read once per position set-up (default: the piece is a pawn)."""
        pt = self.piece_types[code >> 1]
        return bool(pt is not None and pt.pawn)

    def piece_type(self, tid: int) -> PieceType:
        """The piece type of id ``tid`` (a ValueError for the unused id 0 or a gap)."""
        pt = self.piece_types[tid]
        if pt is None:
            raise ValueError(f"no piece type with id {tid}")
        return pt

    def hand_type(self, captured_code: int) -> int:
        """Type id that goes to the capturer's hand for a captured piece (0 = none)."""
        pt = self.piece_type(captured_code >> 1)
        if pt.demotes_to:
            return self.by_token[pt.demotes_to].id
        return pt.id

    def hand_source(self, code: int) -> int:
        """The hand entry (code) that a drop of this code takes: itself, or for a piece that
        may be dropped in promoted form (Kyoto shogi) its unpromoted form."""
        return code

    def drop_allowed(self, code: int, cell: int) -> bool:
        return True

    def in_check(self, pos: Position, side: int) -> bool:
        """The variant's own check test (used when check_hook is set; changes nothing).  Defining
        it turns off the evasion shortcut (engine/rules.py)."""
        return False

    def drop_legal(self, pos: Position, move: int) -> bool:
        """Dynamic drop restrictions (two-pawn rule, pawn-drop mate); called for drops only, when
        has_drop_rule is set.  It may make and unmake moves; it leaves the position as it was."""
        return True

    # ---- hooks for what data cannot say ---------------------------------------------------
    def extra_moves(self, pos: Position, out: list) -> None:
        """Append pseudo-legal moves the tables cannot describe to ``out`` (changes nothing else).
        A move it makes of its own carries SPECIAL and is made by ``make_special``."""

    def after_drop(self, pos: Position, move: int) -> None:
        """What a drop does beyond placing its piece (Placement: castling rights for a king
        or rook dropped where it castles from; Reversi: the enclosed pieces flip), called
        with the piece on its cell when the class defines it.  It changes the board and hands
        through ``pos.put``, ``pos.clear``, ``pos.set_cell`` and ``pos.add_hand``, which the
        position records and takes back at unmake, and the rights through ``pos.set_castle``
        (the move's record restores them)."""

    def make_special(self, pos: Position, move: int) -> Any:
        """Make a move that carries the SPECIAL flag (one of the variant's own moves, from
        ``extra_moves``).  The side to move, the move counters, the en-passant cell and the hash
        of those are already done; the hook changes the board and hands through ``pos.put``,
        ``pos.clear``, ``pos.set_cell`` and ``pos.add_hand`` only (they keep the hash exact).
        Without an own ``unmake_special`` the position records those changes and takes them
        back itself, and what this returns is ignored; with one, what it returns is handed to
        ``unmake_special``."""
        raise NotImplementedError

    def unmake_special(self, pos: Position, move: int, undo: Any) -> None:
        """Optional: take back a SPECIAL move from what ``make_special`` returned (by default
        the position puts back what ``make_special`` changed through put/clear/add_hand)."""
        raise NotImplementedError

    def after_capture(self, pos: Position, move: int, mover: int, captured: int) -> None:
        """Side effects of a capture on other cells (a double disappearance, a blast, a
        capturer that dies), called after every capture once the move is made on the board:
        ``mover`` is the moving piece's code before the move, ``captured`` the taken code.  The
        hook changes cells and hands only through ``pos.put``, ``pos.clear``, ``pos.set_cell``
        and ``pos.add_hand``; the position records them and puts them back at unmake, so the
        hook returns nothing.  Defining it turns off the legality shortcuts that assume a move
        changes only its own cells (``engine/rules.py``): every move is made and tested."""
        return None

    def after_move(self, pos: Position, move: int) -> None:
        """Side effects of every move (not the searcher's null move) once it is made, the
        other side is to move and the move's record is on ``pos.stack`` (its captured code,
        or for en passant its ``EP`` flag): a count of the checks each side has given, a
        blast around a capture (en passant included, unlike ``after_capture``).  The hook changes
        only cells and hands, through ``pos.put``, ``pos.clear``, ``pos.set_cell`` and
        ``pos.add_hand``; the position records them and puts them back at unmake.  Hand
        codes 0 and 1 (type id 0 is no piece) are free for such per-side counts: they are
        hashed and taken back like a hand, and never written as held pieces nor dropped.
        Defining it makes every make call it (engine/rules.py)."""
        return None

    def legal_moves(self, pos: Position, pseudo: list[int]) -> list[int] | None:
        """Optional full legality filter over the pseudo-legal moves: the legal ones, or None for
        the generic royal-check filter.  It may make and unmake moves; it leaves the position as
        it was.  Defining it makes the searcher take the legal moves at every node."""
        return None

    def result(self, pos: Position, legal: list[int]) -> Result:
        """(score for side to move: 1 win, 0 draw, -1 loss, reason) or None if the game goes on.
        Called by the core after its own checks (no moves, repetition, move clock); changes
        nothing."""
        return None

    def stalemate_outcome(self, pos: Position) -> Result:
        """The result of a stalemate (no legal move, not in check) where the position decides
        it (a count of the pieces), or None for ``stalemate_result``; changes nothing."""
        return None

    def adjudicate(self, pos: Position) -> Result:
        """A win/loss decided by the last move itself (e.g. lost directions); same format as
        ``result``; changes nothing."""
        return None

    def is_draw_by_material(self, pos: Position) -> bool:
        return False

    # ---- searcher hooks (all optional) ---------------------------------------------------
    def eval_terms(self, pos: Position) -> int:
        """Centipawns for the side to move added to the generic evaluation (win conditions,
        paralysis, anything the tables cannot see)."""
        return 0

    def stalemate_risk(self, pos: Position) -> bool:
        """May the side to move, out of check, have no legal move at all here?  Quiescence in a
        variant with its own legality filter takes every legal move to see such a stalemate;
        where this says False it takes only the legal captures and promotions, as in chess.
        Only called when overridden (the default: always True)."""
        return True

    def is_tactical(self, pos: Position, m: int) -> bool:
        """Is m searched in quiescence and never reduced?  Only called when overridden (the
        searcher's own test covers captures, en passant and promotions)."""
        return False

    def acted_result(self, pos: Position, m: int) -> int:
        """For a tactical move acting on its acted-on cell: the code that piece will have
        after the move (0 = gone), so the searcher orders it by its material swing."""
        return 0

    def capture_gains(self, pos: Position) -> list[int] | None:
        """By piece code: what taking that piece of the opponent's gains beyond its value, in
        centipawns, or ``CAPTURE_WINS`` when the capture wins the game at once (a direction
        or a victory group lost).  None when no capture gains more than the piece's value.
        Quiescence orders and prunes captures by it, and never prunes a winning one."""
        return None

    def judge_draw(self, pos: Position, result: tuple[int, str]) -> tuple[int, str]:
        """The result of a game that ``result`` (a draw) would end, when ``draws_judged`` is
        set: a variant that decides drawn ends otherwise (janggi's material count) returns
        its own.  The default keeps the draw."""
        return result

    def check_ok_repetition(self, pos: Position, count: int) -> Result:
        """Result of the repetition rule for the side to move when the position occurred
        `count` times, or None (the default draws at repetition_count)."""
        if count >= self.repetition_count:
            return (0, "repetition")
        return None

    def move_rule_extension(self, pos: Position) -> int:
        """Plies the move rule waits beyond ``move_rule_plies`` in ``pos`` (asked only once
        the count has reached it, and only where a class overrides it:
        ``Rules.extends_move_rule``; xiangqi's long series of checks).  The default: none."""
        return 0

    def judge_cycle(self, pos: Position, plies: int) -> Result:
        """The searcher's repetition: ``pos`` stood on the board ``plies`` plies before (an
        even number, inside the tree or the game); the result for the side to move of that
        cycle by the variant's repetition rules, or None for a draw (the default: the
        searcher scores every repetition as a draw).  Called only where a class overrides
        it (``Rules.judges_cycles``)."""
        return None
