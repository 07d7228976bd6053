"""Chess's own square tables (``Variant.square_tables``, ``variants/chess_tables.py``): a value
per piece and square for the middlegame and one for the ending, blended by the game phase.

Each test names positions whose evaluations the generic tables rank the other way or equally:
they fail when the tables are not read, read for the wrong side, or not blended."""
from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import variants  # noqa: E402
from engine.evaluate import Evaluator  # noqa: E402
from engine.notation.position_text import format as format_position, parse  # noqa: E402
from tests.file_helpers import load  # noqa: E402
from tests.walk_helpers import random_position  # noqa: E402

CHESS = variants.get("chess")
EV = Evaluator(CHESS)


def _white(fen: str) -> int:
    """The evaluation from White's point of view, less the tempo."""
    pos = parse(CHESS, fen)
    score = EV.evaluate(pos) - EV.TEMPO
    return -score if pos.side else score


def _mirrored(fen: str) -> str:
    """The same position with the colours swapped and the board mirrored along the ranks."""
    board, side, castle, ep, *rest = fen.split()
    rows = [r.swapcase() for r in reversed(board.split("/"))]
    castle = "".join(sorted(castle.swapcase())) if castle != "-" else "-"
    if ep != "-":
        ep = ep[0] + str(9 - int(ep[1]))
    return " ".join(["/".join(rows), "b" if side == "w" else "w", castle, ep, *rest])


def test_the_knight_is_worth_more_in_the_centre_than_beside_it():
    # the generic table gives every square of the inner 4x4 the same knight value
    centre = _white("4k3/8/8/8/4N3/8/8/4K3 w - - 0 1")
    beside = _white("4k3/8/8/8/8/2N5/8/4K3 w - - 0 1")
    assert centre > beside


def test_the_castled_king_is_safe_in_the_middlegame_and_central_in_the_ending():
    middle_castled = _white("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w - - 0 1")
    middle_walked = _white("r1bq1rk1/pppp1ppp/2n2n2/2b1p3/2B1P3/2N1KN2/PPPP1PPP/R1BQ1R2 w - - 0 1")
    assert middle_castled - middle_walked >= 50
    # with the queens and minor pieces gone the same two king squares rank the other way
    end_corner = _white("6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1")
    end_centre = _white("6k1/5ppp/8/8/8/4K3/5PPP/8 w - - 0 1")
    assert end_centre > end_corner


def test_the_centre_pawns_advance_first():
    e4 = _white("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    g4 = _white("rnbqkbnr/pppppppp/8/8/6P1/8/PPPPPP1P/RNBQKBNR b KQkq - 0 1")
    assert e4 - g4 >= 20


def test_both_sides_read_the_tables_alike():
    rng = random.Random(11)
    for _ in range(30):
        pos = random_position(CHESS, rng, 4, 80)
        fen = format_position(pos)
        if fen.split()[3] != "-":
            continue
        mirror = parse(CHESS, _mirrored(fen))
        assert EV.evaluate(pos) == EV.evaluate(mirror), fen


def test_a_copy_of_chess_reads_them_and_a_changed_knight_does_not():
    copy = load("[fchess2:chess]\n")["fchess2"]()
    changed = load("[wideknight:chess]\nknight = -\ncustomPiece1 = n:NC\n")["wideknight"]()
    assert set(copy.square_tables) == {"P", "N", "B", "R", "Q", "K"}
    assert set(changed.square_tables) == {"P", "B", "R", "Q", "K"}
    house = load("[myhouse:chess]\npieceDrops = true\ncapturesToHand = true\n")["myhouse"]()
    assert house.hands and house.square_tables is None
