"""What every test reference move generator shares, whatever its board: legal moves are the
pseudo-legal ones that leave the mover's king unattacked, and perft counts them.  A reference
class gives ``pseudo()``, ``copy()``, ``make(text)``, ``king(white)``, ``attacked(cell,
by_white)`` and ``white``; the rules themselves stay in each reference, written from its game's
rules page."""
from __future__ import annotations


class LegalAndPerft:
    """legal(): the pseudo-legal moves that leave the king unattacked (a reference with its own
    legality overrides it); perft(depth): counted over legal()."""

    def legal(self) -> list[str]:
        out = []
        for m in self.pseudo():
            c = self.copy()
            c.make(m)
            k = c.king(self.white)
            if k is None or not c.attacked(k, c.white):
                out.append(m)
        return out

    def perft(self, depth: int) -> int:
        ms = self.legal()
        if depth == 1:
            return len(ms)
        total = 0
        for m in ms:
            c = self.copy()
            c.make(m)
            total += c.perft(depth - 1)
        return total
