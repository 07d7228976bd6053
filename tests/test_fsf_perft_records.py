"""The recorded Fairy-Stockfish perft counts (tests/fsf_perft.py) are used only while pyffish's
live perft 2 of the position equals the one recorded beside them."""
from __future__ import annotations

import fsf_perft

FEN = "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"     # a rook and two kings: small counts


def test_a_record_is_read_only_beside_the_live_perft_2(monkeypatch):
    live3 = fsf_perft.live_perft("chess", FEN, [], 3)
    live2 = fsf_perft.live_perft("chess", FEN, [], 2)
    key = fsf_perft._key("chess", FEN, [], 3)
    monkeypatch.setenv("CELLFISH_RECORD_FSF", "0")
    monkeypatch.setattr(fsf_perft, "_records", {key: [live2, live3 + 1]})
    assert fsf_perft.fsf_perft("chess", FEN, [], 3) == live3 + 1       # the record, as kept
    monkeypatch.setattr(fsf_perft, "_records", {key: [live2 + 1, live3 + 1]})
    assert fsf_perft.fsf_perft("chess", FEN, [], 3) == live3           # stale: counted live
    assert [fsf_perft.fsf_perft("chess", FEN, [], d) for d in (0, 1, 2)] == [1, 16, live2]


def test_every_record_names_a_pyffish_version_a_variant_a_position_and_a_depth():
    import json
    records = json.loads(fsf_perft.RECORDED.read_text())
    assert records
    for key, (check, count) in records.items():
        version, name, fen, moves, depth = key.split(" | ")
        assert version.startswith("pyffish ") and name and fen and int(depth) >= 3, key
        assert check > 0 and count > 0, key
