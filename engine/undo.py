"""What ``make`` keeps for ``unmake``: one record per move (``Undo``) on ``Position.stack``.

A class of the compiled core, not a tuple: compiled (``cellfish native``), its int fields are
stored unboxed in the one object, where a tuple held an int object for every field above 256
(the move and the hash at every make).  It still reads as the tuple it was, for code written
against that: indexed by the ``U_*`` names, unpacked, with a length.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final, final

# the index of each field, for code that reads a record as the tuple it once was
# (``pos.stack[-1][U_CAP]``)
U_MOVE: Final = 0
U_EP: Final = 1
U_EP_VICTIM: Final = 2
U_CASTLE: Final = 3
U_HALFMOVE: Final = 4
U_HASH: Final = 5
U_ACC: Final = 6
U_ACCH: Final = 7
U_CAP: Final = 8
U_EXTRA: Final = 9
U_CODE: Final = 10

# Position.acc_sum (and Undo.acc) while the evaluator's sum is not kept: no sum of square values
# comes near it, and it stays a small int for the compiled code (below 2**62 in size)
NO_SUM: Final = -(1 << 60)


@final
class Undo:
    """What ``make`` keeps for ``unmake``: the move, the en-passant cell and victim, the
    castling rights, the move clock, the hash before the move, the evaluator's sums (squares,
    ``NO_SUM`` where not kept; phase and pawns), the captured code, the variant hook's or en
    passant's extra, the moving code.  A variant's hooks read the last move's from
    ``pos.stack[-1]`` (``.cap``); code written against the tuple indexes it by the ``U_*``
    names or unpacks it (``m, *_, cap, extra, code = pos.stack[-1]``).  Never subclassed (a
    compiled class cannot be by interpreted code).

    A record holds its move's facts while the move is on the stack: once ``unmake`` has taken
    the move back, ``make`` fills the same object with the next move's (one object less to
    make and free at every move), so a reader copies the fields it keeps, never the record;
    ``Position.copy`` gives the copy records of its own."""
    __slots__ = ("move", "ep", "ep_victim", "castle", "halfmove", "hash", "acc", "acch", "cap",
                 "extra", "code")

    def __init__(self, move: int, ep: int, ep_victim: int, castle: int, halfmove: int, hash: int,
                 acc: int, acch: int, cap: int, extra: Any, code: int) -> None:
        self.move = move
        self.ep = ep
        self.ep_victim = ep_victim
        self.castle = castle
        self.halfmove = halfmove
        self.hash = hash
        self.acc = acc
        self.acch = acch
        self.cap = cap
        self.extra = extra
        self.code = code

    def copy(self) -> Undo:
        return Undo(self.move, self.ep, self.ep_victim, self.castle, self.halfmove, self.hash,
                    self.acc, self.acch, self.cap, self.extra, self.code)

    def astuple(self) -> tuple[int, int, int, int, int, int, int | None, int, int, Any, int]:
        """The fields in the order of the ``U_*`` indexes (the sum None where not kept)."""
        acc = self.acc
        return (self.move, self.ep, self.ep_victim, self.castle, self.halfmove, self.hash,
                acc if acc != NO_SUM else None, self.acch, self.cap, self.extra, self.code)

    def __getitem__(self, i: int) -> Any:
        return self.astuple()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self.astuple())

    def __len__(self) -> int:
        return 11

    def __repr__(self) -> str:
        return f"Undo{self.astuple()!r}"
