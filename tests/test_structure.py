"""Pawn structure and files (``Variant.structure``, ``engine/structure.py``; chess declares
them): doubled and isolated pawns, the bishop pair, rooks on open and half-open files.

Each test names a position and states what the terms add to it: the evaluation of chess less
the evaluation of the same chess without the terms.  The pawn cache (``pawn_cache``) is shown
to change no evaluation."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402
from tests.file_helpers import load  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402
from variants.chess import Chess  # noqa: E402

CHESS = variants.get("chess")
EV = Evaluator(CHESS)


class _NoStructure(Chess):
    structure = None


PLAIN = Evaluator(_NoStructure())


def _terms(fen: str) -> int:
    """What the structure terms add, from White's point of view."""
    pos = parse(CHESS, fen)
    d = EV.evaluate(pos) - PLAIN.evaluate(parse(PLAIN.variant, fen))
    return -d if pos.side else d


def test_a_rook_gains_on_an_open_file_and_less_on_a_half_open_one():
    # every pawn has a neighbour on its own side, so only the rook's file counts
    assert _terms("4k3/pp4pp/8/8/8/8/PP4PP/3RK3 w - - 0 1") == 20           # d-file: no pawn
    assert _terms("4k3/pp1pp1pp/8/8/8/8/PP4PP/3RK3 w - - 0 1") == 10        # d7 only: half-open
    assert _terms("4k3/pp1pp1pp/8/8/8/8/PP1PP1PP/3RK3 w - - 0 1") == 0      # own pawn on d2
    # the same for Black, from White's point of view
    assert _terms("3rk3/pp4pp/8/8/8/8/PP4PP/4K3 b - - 0 1") == -20


def test_two_bishops_are_a_pair_a_bishop_and_a_knight_are_not():
    assert _terms("4k3/pp4pp/8/8/8/8/PP4PP/2B1KB2 w - - 0 1") == 35
    assert _terms("4k3/pp4pp/8/8/8/8/PP4PP/2B1KN2 w - - 0 1") == 0
    assert _terms("2b1kb2/pp4pp/8/8/8/8/PP4PP/2B1KB2 w - - 0 1") == 0


def test_doubled_and_isolated_pawns_cost():
    # e2 and e3: one pawn beyond the first on the e-file, and both without a neighbour
    assert _terms("4k3/pp4pp/8/8/8/4P3/PP2P1PP/4K3 w - - 0 1") == -12 - 2 * 10
    # d2 beside them: no longer isolated, still doubled
    assert _terms("4k3/pp4pp/8/8/8/4P3/PP1PP1PP/4K3 w - - 0 1") == -12
    # a lone h-pawn for Black is isolated
    assert _terms("4k3/pp5p/8/8/8/8/PP4PP/4K3 w - - 0 1") == 10


def test_the_pawn_cache_changes_no_evaluation():
    rng = random.Random(5)
    cached = Evaluator(CHESS)
    fresh = Evaluator(CHESS)
    assert cached.pawn_cache is not None
    fresh.pawn_cache = None
    for _ in range(60):
        pos = random_position(CHESS, rng, 4, 80)
        # twice through the cache: the second evaluation reads what the first stored
        assert cached.evaluate(pos) == fresh.evaluate(pos) == cached.evaluate(pos)


def test_a_copy_of_chess_has_the_terms_of_the_pieces_it_keeps():
    copy = load("[fchess3:chess]\n")["fchess3"]()
    assert copy.structure == CHESS.structure
    rookless = load("[widerook:chess]\nrook = -\ncustomPiece1 = r:RN\n")["widerook"]()
    assert rookless.structure is not None and not rookless.structure.open_file
    assert rookless.structure.pair == {"B": 35}
    house = load("[myhouse2:chess]\npieceDrops = true\ncapturesToHand = true\n")["myhouse2"]()
    assert house.structure is None

