"""The order of a file variant's rule parts (variants/inifile/compose.py): chained hooks run
through the parts in the order written there."""
from functools import cache
from pathlib import Path

import variants
from file_helpers import load
from variants.inifile import drops, load_text, results, returns, rulings
from variants.inifile.compose import PARTS, chain
from variants.inifile.moverules import FileRules
from variants.inifile.pseudoroyal import PseudoRoyalRules


def test_hooks_run_through_the_parts_in_the_written_order():
    (cls,) = load("[x:shogi]\nchessPositionChecks = true\nhandLimit = 100\nextinctionValue = loss\n"
                  "extinctionPieceTypes = k\nextinctionPseudoRoyal = true\n").values()
    assert chain(cls, "validate_position")[:2] == [rulings.ChessPositionChecks, returns.ReturnRules]
    assert chain(cls, "adjudicate")[:2] == [drops.PawnDropMate, results.ResultRules]
    assert chain(cls, "legal_moves")[0] is PseudoRoyalRules


@cache
def _classes(path: Path) -> tuple[type, ...]:
    """A file's classes, built once for both tests (its start positions are read elsewhere:
    tests/test_shipped_starts.py, tests/test_variant_files.py)."""
    return tuple(load_text(path.read_text(), path.name, set(), read_starts=False).values())


def test_every_file_section_is_built_in_the_order_of_the_parts():
    """Each class of the shipped variants files has its rule parts in PARTS order: a part's
    classes never come after a later part's."""
    rank = {cls: i for i, cls in enumerate((PseudoRoyalRules, rulings.ChessPositionChecks,
                                            returns.ReturnRules, drops.DropRules,
                                            results.ResultRules, FileRules))}
    assert PARTS.index("pseudoroyal") < PARTS.index("rulings") < PARTS.index("returns") \
        < PARTS.index("drops") < PARTS.index("results") < PARTS.index("board")
    for path in sorted(Path(variants.__file__).parent.glob("files/*.ini")):
        for cls in _classes(path):
            seen = [rank[c] for c in cls.__mro__ if c in rank]
            assert seen == sorted(seen), (path.name, cls.__name__)


def test_no_part_cuts_a_chain_it_does_not_say_it_replaces():
    """A part's hook that does not call super() stops the later parts' versions of it: every
    shipped class (and every test-data section) has such a cut only where a plugin names the
    hook in ``plugin_replaces`` (Notake's legality, Ninepiece's frame and promotion)."""
    from variants.inifile.compose import cut_chains
    from variants.inifile.lattice import LatticeVariant
    data = Path(__file__).resolve().parent / "data"
    paths = sorted(Path(variants.__file__).parent.glob("files/*.ini")) + sorted(data.glob("*.ini"))
    cuts = set()
    for path in paths:
        for cls in _classes(path):
            board = LatticeVariant if issubclass(cls, LatticeVariant) else FileRules
            cuts |= {(part, hook, tuple(later)) for part, hook, later in cut_chains(cls, board)}
    assert cuts == set()


def test_a_plugin_that_forgets_super_is_found():
    from variants.inifile.compose import cut_chains

    class Forgetful:
        def validate_position(self, pos):
            return None
    (cls,) = load("[x:shogi]\nchessPositionChecks = true\n").values()
    made = type("Made", (Forgetful, *cls.__bases__), {})
    assert ("Forgetful", "validate_position", ["ChessPositionChecks"]) in cut_chains(made, FileRules)
