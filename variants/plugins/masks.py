"""Counting a side's pieces per bit of a mask (a direction, a class, a victory group), as the
plugins whose win rule is "keep enough pieces of each kind" need it."""
from __future__ import annotations


def held_once_twice_more(mask: list[int], board: list[int], cells) -> tuple[int, int, int]:
    """Over the pieces on ``cells``, with ``mask[code]`` the bits each piece carries: the bits
    carried by at least one, at least two and at least three of them."""
    once = twice = more = 0
    for s in cells:
        m = mask[board[s]]
        more |= twice & m
        twice |= once & m
        once |= m
    return once, twice, more
