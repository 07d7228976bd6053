"""How a file variant's class is put together from its rule parts: the order written once.

A section's class is its rule parts followed by its board's base class (``bases``; the
builders, build.py and lattice.py, make the class, which keeps their module's name).  A hook that several
parts override runs as a chain: the first part in ``PARTS`` that overrides it runs first and
reaches the next through ``super()``, down to the base class.  So, for every chained hook,
the order of contributions is the order of ``PARTS``:

==============  =============================================================================
part            what it contributes
==============  =============================================================================
template        ``variantTemplate = shogi``: ``make_geometry`` adds USI cell names around
                every other board part (template.py)
pseudoroyal     ``legal_moves`` and ``in_check``: the pseudo-royal filter, run after every
                other one (its ``super()`` call makes the other filters' moves first)
triple          the pawn's triple step: ``extra_moves``, ``_valid_ep`` (triplestep.py)
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
drops           ``DropRules`` (drops.py): hands, drops and piece promotion (``hand_type``,
                ``drop_allowed``, ``promotion_options``, ``_valid_ep``)
results         ``ResultRules`` (results.py): ``adjudicate``, ``check_ok_repetition``,
                ``resets_move_clock``
board           the base class: ``FileRules`` (moverules.py) on square, levelled and solid
                boards, ``LatticeVariant`` (lattice.py) on a lattice
==============  =============================================================================

``validate_position`` therefore runs plugins, then rulings, then returns, then the base;
``adjudicate`` plugins, then the pawn-drop mate, then results, then the base;
``extra_moves`` the triple step, then plugins, then promoted drops, then the base;
``eval_terms`` plugins, then the base; ``legal_moves`` the pseudo-royal filter outermost,
then plugins, then the drop filters, then the base.
``chain`` lists, for a built class, the parts that override a hook, in the order they run.
"""
from __future__ import annotations

PARTS = ("template", "pseudoroyal", "triple", "plugins", "holes", "solid", "levels", "drop_filters",
         "rulings", "returns", "drops", "results", "board")


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
