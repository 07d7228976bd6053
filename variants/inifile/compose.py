"""How a file variant's class is put together from its rule parts: the order written once.

A section's class is its rule parts followed by its board's base class (``bases``; the
builder, build.py, makes the class from the parts its board's reader, grid.py or lattice.py,
returns and the plugins it names).  A hook that several
parts override runs as a chain: the first part in ``PARTS`` that overrides it runs first and
reaches the next through ``super()``, down to the base class.  So, for every chained hook,
the order of contributions is the order of ``PARTS``:

==============  =============================================================================
part            what it contributes
==============  =============================================================================
template        ``variantTemplate = shogi``: ``make_geometry`` adds USI cell names around
                every other board part (template.py)
passes          ``PassRules`` (passes.py): the pass (``extra_moves``, ``make_special``),
                ``legal_moves`` (a pass on stalemate only)
pseudoroyal     ``legal_moves`` and ``in_check``: the pseudo-royal filter, run after every
                other one (its ``super()`` call makes the other filters' moves first)
triple          the pawn's triple step: ``extra_moves``, ``_valid_ep`` (triplestep.py)
janggi          ``JanggiRules`` (janggi.py): the janggi cannon (``extra_moves``,
                ``in_check``), the palace diagonals (``_piece``), bikjang and the cannon's
                checks (``legal_moves``, ``adjudicate``), the move repetition
                (``result``), the material count (``judge_draw``)
asia            counting.py: ``Makpong`` (``legal_moves``), ``Counting`` (``result``, the
                position text's counting fields); asia.py: ``FlyingGeneral``
                (``legal_moves``: the royal pieces may not face each other),
                ``MobilityRules`` (``allow_move``: mobility regions; ``_piece``: the
                soldier's rank)
chasing         ``ChaseRules`` (chasing.py): ``check_ok_repetition`` (a repetition that
                perpetual check does not decide, judged by the chasing rule)
blast           ``BlastRules`` (blast.py): ``after_move`` (the blast), ``legal_moves``
                (mutual immunity, atomic's pseudo-royal pieces), ``in_check``, ``adjudicate``
stalemate       ``StalemateCount`` (stalemate.py): ``stalemate_outcome``
petrify         ``PetrifyRules`` (petrify.py): the wall piece (``_forms``), petrification
                and the duck (``after_move``), ``legal_moves`` (no move onto a wall)
castle          ``CastleRules`` (castlerules.py): ``after_move`` (opposite castling),
                ``adjudicate`` (castling wins)
checks          ``CheckCounting`` (checks.py): ``after_move`` (the checks given) and
                ``adjudicate`` (the last check to give)
plugins         the named plugins, in key then name order (variants/plugins); each may
                extend ``validate_position``, ``adjudicate``, ``extra_moves``,
                ``eval_terms`` and the piece set
holes           ``make_geometry``: the board without its holes (holes.py)
solid           ``make_geometry`` and the pieces of a 3D board (solid.py)
levels          ``make_geometry`` of a levelled board (levels.py)
drop_filters    drops.py: ``MoveFilter`` (``legal_moves``: promotions and immobile pieces),
                ``PromotedDrops`` (``extra_moves``: promoted drops), ``PawnDropMate``
                (``adjudicate``: a mate by a dropped pawn)
rulings         rulings.py: ``DeadPositions`` (``is_draw_by_material``),
                ``ChessPositionChecks`` (``validate_position``)
returns         ``ReturnRules`` (returns.py): ``hand_type``, ``drop_allowed``,
                ``build_zobrist``, ``validate_position``
gating          ``GatingRules`` (gating.py): the gates kept with the castling rights
                (``extra_rights``), Seirawan gating moves (``extra_moves``,
                ``make_special``), no drops without ``pieceDrops`` (``drop_allowed``)
walls           ``WallRules`` (walls.py): ``legal_moves`` (every move once per wall
                cell), ``make_special``, the wall piece (``_forms``)
placement       ``PlacementRules`` (placement.py): ``legal_moves`` (must drop, bishops on
                both colours), ``after_drop``
reversi         ``ReversiRules`` (reversi.py): ``legal_moves`` (enclosing drops, Ataxx's
                drops beside the mover's pieces, the pass), ``make_special`` (the pass),
                ``after_drop`` (flips), ``adjudicate`` (two passes, a full board, no
                move: the piece count), ``check_ok_repetition`` (the count); then
                ``AtaxxRules`` (ataxx.py): ``after_move`` (Ataxx's flips, free drops)
drops           ``DropRules`` (drops.py): hands, drops and piece promotion (``hand_type``,
                ``drop_allowed``, ``promotion_options``, ``_valid_ep``)
results         ``ResultRules`` (results.py): ``adjudicate``, ``check_ok_repetition``,
                ``resets_move_clock``
chess960        ``Chess960Rules`` (chess960.py): ``make_castling`` (a rule per king file and
                rook file) and its position text's castling field
board           the base class: ``FileRules`` (moverules.py) on square, levelled and solid
                boards, ``LatticeVariant`` (lattice.py) on a lattice
==============  =============================================================================

``validate_position`` therefore runs plugins, then rulings, then returns, then the base;
``adjudicate`` blasts, then castling wins, then check counting, then plugins, then the
pawn-drop mate, then results, then the base;
``extra_moves`` the triple step, then plugins, then promoted drops, then the base;
``eval_terms`` plugins, then the base; ``legal_moves`` the pass on stalemate outermost (it
needs every other filter's answer), then the pseudo-royal filter, then the blast part's, then
the petrified walls', then the flying general, then plugins, then the drop filters, then the
walls of the gating games, then the base.
``chain`` lists, for a built class, the parts that override a hook, in the order they run.

A part whose hook does not call ``super()`` ends that hook's chain: the parts after it do
not run.  Among the rule parts here only the board's base ends a chain; a plugin that
replaces a hook rather than extends it names the hook in its ``plugin_replaces``
(``variants/plugins``), and ``cut_chains`` finds every other cut (a test runs it over
every shipped class).
"""
from __future__ import annotations

PARTS = ("template", "passes", "pseudoroyal", "triple", "blast", "petrify", "stalemate", "castle",
         "checks", "janggi", "asia", "chasing", "plugins", "holes", "solid", "levels", "drop_filters", "rulings",
         "returns", "gating", "walls", "placement", "reversi", "drops", "results", "chess960",
         "board")


def bases(parts: dict[str, tuple[type, ...]]) -> tuple[type, ...]:
    """The bases of a file variant's class from its rule parts (``PARTS`` names each; a
    missing one is none), in the order of ``PARTS``."""
    unknown = set(parts) - set(PARTS)
    if unknown:
        raise ValueError(f"unknown rule parts {sorted(unknown)}")
    if not parts.get("board"):
        raise ValueError("a file variant needs its board's base class")
    return tuple(cls for part in PARTS for cls in parts.get(part, ()))


def chain(cls: type, hook: str) -> list[type]:
    """The classes of ``cls`` that define ``hook``, in the order a call runs through them."""
    return [c for c in cls.__mro__ if hook in c.__dict__]


def cut_chains(cls: type, board: type) -> list[tuple[str, str, list[str]]]:
    """(part, hook, the parts it cuts off) for every method hook that a part of ``cls``
    defines without calling ``super()`` while a later part defines it too, unless the part
    names the hook in ``plugin_replaces``.  ``board``: the board's base class (its own
    classes are the end of every chain)."""
    import inspect
    end = set(board.__mro__)
    out = []
    for hook in {n for c in cls.__mro__ if c not in end for n, f in vars(c).items()
                 if inspect.isfunction(f) and not n.startswith("__")}:
        parts = [c for c in chain(cls, hook) if c not in end]
        for i, c in enumerate(parts[:-1]):
            f = c.__dict__[hook]
            later = [p for p in parts[i + 1:] if p.__dict__[hook] is not f]
            if not later or hook in getattr(c, "plugin_replaces", ()):
                continue
            try:
                src = inspect.getsource(f)
            except (OSError, TypeError):
                src = ""
            if f"super().{hook}(" not in src:
                out.append((c.__name__, hook, [p.__name__ for p in later]))
    return sorted(out)
