"""Zobrist keys: one random 62-bit number per (piece code, cell), hand entry, side, rights.

62 bits, not 64: the compiled engine (``cellfish native``) keeps an int below 2**62 unboxed,
so the hash updates of make and unmake allocate nothing there; a 64-bit key is a Python int
object at every xor.  Two positions collide with odds of one in 4.6e18 instead of 1.8e19."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from .variant import Variant

KEY_BITS: Final = 62


class Zobrist:
    def __init__(self, variant: Variant, seed: int = 0x5EED) -> None:
        rnd = random.Random(seed)
        n = variant.geometry.size
        ncodes = 2 * len(variant.piece_types)
        bits = KEY_BITS
        self.piece: list[list[int]] = [[rnd.getrandbits(bits) for _ in range(n)] for _ in range(ncodes)]
        # hand[code][count]: count up to 64 of one type in one hand
        self.hand: list[list[int]] = [[rnd.getrandbits(bits) for _ in range(65)] for _ in range(ncodes)]
        self.side: int = rnd.getrandbits(bits)
        self.ep: list[int] = [rnd.getrandbits(bits) for _ in range(n + 1)]
        self.castle: list[int] = [rnd.getrandbits(bits) for _ in range(1 << 8)]
