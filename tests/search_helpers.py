"""A searcher ready to be called below its root (``negamax``, ``quiesce``) by the tests that
check one node's behaviour: no limits, never stopped."""
from __future__ import annotations

import threading

from engine.limits import Limits
from engine.search import TT, Searcher

# the Italian after 3.Bc4, Black to move: the search tests' chess middlegame position
ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3"


def node_searcher(v, **hooks) -> Searcher:
    """A fresh searcher for variant ``v`` (1 MB of hash); ``hooks`` replace its attributes,
    e.g. ``gains_hook=None`` to search as if the variant declared no capture gains."""
    s = Searcher(v, TT(1))
    s.stop_event, s.limits, s.hard_deadline = threading.Event(), Limits(), None
    for name, value in hooks.items():
        setattr(s, name, value)
    return s
