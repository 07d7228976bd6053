"""Internal iterative reduction (``Searcher.IIR_DEPTH``): a node at least that deep with no
hash move is searched a ply shallower, and stores its result at that depth; with a hash move
it keeps its full depth."""
from __future__ import annotations

import variants
from engine.movegen import legal_moves
from engine.notation import parse_position
from engine.notation.move_text import parse_move
from engine.search import INF
from tests.search_helpers import ITALIAN, node_searcher


def _stored_depth(ttmove_text, depth):
    v = variants.get("chess")
    pos = parse_position(v, ITALIAN)
    s = node_searcher(v)
    s.root_depth = depth
    if ttmove_text:
        # a shallow entry: it gives the node a hash move but cannot answer for it
        s.tt.put(pos.hash, (0, 0, 0, parse_move(v, legal_moves(pos), ttmove_text)))
    s.negamax(pos, depth, -INF, INF, 1, True)
    return s.tt.get(pos.hash)[0]


def test_a_node_without_a_hash_move_is_searched_a_ply_shallower():
    d = node_searcher(variants.get("chess")).IIR_DEPTH
    assert _stored_depth(None, d) == d - 1
    assert _stored_depth(None, d + 1) == d


def test_a_node_with_a_hash_move_keeps_its_depth():
    d = node_searcher(variants.get("chess")).IIR_DEPTH
    assert _stored_depth("g8f6", d) == d


def test_shallow_nodes_are_not_reduced():
    d = node_searcher(variants.get("chess")).IIR_DEPTH
    assert _stored_depth(None, d - 1) == d - 1
