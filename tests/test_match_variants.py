"""cellfish against cellfish at two depths in the Gilman variants: a 3D game (Elefant-
nichtschach, 3D-FEN and cell names like wb1wd3), Notake (moves that act on a second cell,
USI text) and Knavish (10x10 with hands).  Every move is refereed by the rules core and the
records replay; games are a few plies long to keep the file fast."""
from __future__ import annotations

import json

import pytest

import variants
from engine.movegen import legal_moves
from match import EngineSpec, MatchConfig, TimeControl, cellfish_command, run_match
from match.records import to_pgn
from engine.notation.move_text import parse_move
from engine.notation.position_text import parse as parse_position

CASES = [
    # variant, plies, node cap (the engine's quiescence makes even depth 1 long in Notake's
    # opening: a cap keeps the test fast on a loaded machine), what a move text looks like
    ("elefantnichtschach", 4, None, lambda t: t[0] in "uvwxyz" and t[3] in "uvwxyz"),
    ("notake-approach", 6, 3000, lambda t: t[0].isdigit() and "," in t),
    ("knavish", 10, None, lambda t: t[0].isalpha()),
]


@pytest.mark.parametrize("name,plies,nodes,looks_right", CASES, ids=[c[0] for c in CASES])
def test_cellfish_depth1_vs_depth2(name, plies, nodes, looks_right, tmp_path, stray_engines):
    cmd = cellfish_command()
    engines = [EngineSpec("d1", cmd, tc=TimeControl(depth=1, nodes=nodes)),
               EngineSpec("d2", cmd, tc=TimeControl(depth=2, nodes=nodes and 2 * nodes))]
    out = tmp_path / "games.jsonl"
    cfg = MatchConfig(name, engines, games=2, max_plies=plies, concurrency=2, stall_s=60,
                      records=str(out), pgn=str(tmp_path / "games.pgn"))
    r = run_match(cfg)
    assert not r.errors
    recs = [json.loads(line) for line in open(out)]
    assert {(x["white"], x["black"]) for x in recs} == {("d1", "d2"), ("d2", "d1")}
    v = variants.get(name)
    for rec in recs:
        assert rec["result"] in ("1-0", "0-1", "1/2-1/2"), rec["reason"]
        assert "faulty" not in rec, rec["reason"]
        assert rec["start"] == v.start_fen
        d1 = 0 if rec["white"] == "d1" else 1
        assert set(rec["depths"][d1::2]) <= {1, None}       # None: stopped by the node cap
        assert set(rec["depths"][1 - d1::2]) <= {1, 2, None}
        assert all(looks_right(t) for t in rec["moves"]), rec["moves"]
        pos = parse_position(v, rec["start"])
        for t in rec["moves"]:
            pos.make(parse_move(v, legal_moves(pos), t, rec["dialect"]))
        if v.geometry.dims == 2:      # PGN for the 2D games: Variant and FEN tags, SAN moves
            pgn = to_pgn(rec)
            assert f'[Variant "{name}"]' in pgn and f'[FEN "{v.start_fen}"]' in pgn
            assert pgn.rstrip().endswith(rec["result"])
    assert (tmp_path / "games.pgn").exists() == (v.geometry.dims == 2)
    n = sum(ps.n for ps in r.pairs.values())
    assert n == 2
    assert not stray_engines()          # no engine left, running or zombie (see conftest)
