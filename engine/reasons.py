"""The reason of a result that scores a fraction of the point.  A module of its own, left
interpreted (``engine/_native.py``'s NOT_COMPILED): a class derived from ``str`` cannot be a
compiled (mypyc) class."""
from __future__ import annotations

from fractions import Fraction


class SharedReason(str):
    """The reason of a result that scores a fraction of the point (Glinski's stalemate): the
    reason's text, with ``share``, the side to move's share.  The searcher scores it between
    a mate and the material (``tt.result_score``); the referee and records write the shares."""
    share: Fraction

    def __new__(cls, text: str, share: Fraction) -> SharedReason:
        out = super().__new__(cls, text)
        out.share = share
        return out

    def __reduce__(self) -> tuple[type, tuple[str, Fraction]]:    # pickled whole (match workers)
        return (SharedReason, (str(self), self.share))
