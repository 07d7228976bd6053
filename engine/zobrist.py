"""Zobrist keys: one random 64-bit number per (piece code, cell), hand entry, side, rights."""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .variant import Variant


class Zobrist:
    def __init__(self, variant: Variant, seed: int = 0x5EED) -> None:
        rnd = random.Random(seed)
        n = variant.geometry.size
        ncodes = 2 * len(variant.piece_types)
        self.piece = [[rnd.getrandbits(64) for _ in range(n)] for _ in range(ncodes)]
        # hand[code][count]: count up to 64 of one type in one hand
        self.hand = [[rnd.getrandbits(64) for _ in range(65)] for _ in range(ncodes)]
        self.side = rnd.getrandbits(64)
        self.ep = [rnd.getrandbits(64) for _ in range(n + 1)]
        self.castle = [rnd.getrandbits(64) for _ in range(1 << 8)]
