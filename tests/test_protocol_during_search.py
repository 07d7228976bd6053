"""Commands that arrive while a search runs, by event (each wait has a 30 s deadline; nothing
is timed): `isready` and `stop` during a 3D and a Nested search, `ponderhit` under USI,
`position` / `setoption` / `ucinewgame` ending a running search and taking effect, and the
`VariantPath` option keeping the engine serving."""
from __future__ import annotations

import pytest

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import parse_move
from engine.notation.position_text import parse

DEADLINE = 30.0


def ready(eng):
    return eng.ask("isready", lambda l: l == "readyok", DEADLINE)


def start(eng, dialect, variant):
    eng.ask(dialect, lambda l: l in ("uciok", "usiok"), DEADLINE)
    eng.send(f"setoption name {dialect.upper()}_Variant value {variant}")
    ready(eng)


def bestmoves(lines):
    return [l for l in lines if l.startswith("bestmove")]


def legal(variant, dialect, fen, text):
    v = variants.get(variant)
    pos = parse(v, fen)
    return parse_move(v, legal_moves(pos), text, dialect) in legal_moves(pos)


@pytest.mark.parametrize("dialect,variant", [("uci", "elefantnichtschach"), ("uci", "nested-b"),
                                             ("usi", "notake-rifle"), ("uci", "ninepiece-nichtschach")])
def test_isready_and_stop_during_a_search(eng, dialect, variant):
    """readyok comes while the search goes on (no bestmove before it); stop then ends the
    search with exactly one legal bestmove."""
    start(eng, dialect, variant)
    eng.send("position startpos")
    eng.send("go infinite")
    first = eng.expect("info depth 1", DEADLINE)
    got = ready(eng)
    assert not bestmoves(first + got)
    got = eng.ask("stop", "bestmove", DEADLINE)
    move = got[-1].split()[1]
    assert legal(variant, dialect, variants.get(variant).start_fen, move), move
    assert len(bestmoves(ready(eng) + got)) == 1


def test_ponderhit_under_usi(eng):
    """Shogi under USI: `go ponder` with a clock waits; after `ponderhit` the search runs on
    that clock and ends by itself with a legal move for Gote after 7g7f."""
    start(eng, "usi", "shogi")
    eng.send("position startpos moves 7g7f")
    eng.send("go ponder btime 2000 wtime 2000 byoyomi 0")
    assert not bestmoves(eng.expect("info depth 1", DEADLINE))
    assert not bestmoves(ready(eng))
    got = eng.ask("ponderhit", "bestmove", DEADLINE)
    v = variants.get("shogi")
    pos = parse(v, v.start_fen)
    pos.make(parse_move(v, legal_moves(pos), "7g7f", "usi"))
    assert parse_move(v, legal_moves(pos), got[-1].split()[1], "usi") in legal_moves(pos)


@pytest.mark.parametrize("dialect,variant,move", [("uci", "chess", "e2e4"),
                                                  ("usi", "shogi", "7g7f"),
                                                  ("uci", "nested-a", "g1g5")])
def test_position_during_a_search_ends_it_and_takes_effect(eng, dialect, variant, move):
    start(eng, dialect, variant)
    eng.send("position startpos")
    before = next(l for l in eng.ask("d", "Fen:", DEADLINE) if l.startswith("Fen:"))
    eng.send("go infinite")
    eng.expect("info depth 1", DEADLINE)
    eng.send(f"position startpos moves {move}")
    got = eng.expect("bestmove", DEADLINE)           # the running search ended
    assert len(bestmoves(got)) == 1
    after = next(l for l in eng.ask("d", "Fen:", DEADLINE) if l.startswith("Fen:"))
    assert after != before                           # the new position is the engine's
    reply = eng.ask("go depth 1", "bestmove", DEADLINE)[-1].split()[1]
    v = variants.get(variant)
    pos = parse(v, v.start_fen)
    pos.make(parse_move(v, legal_moves(pos), move, dialect))
    assert parse_move(v, legal_moves(pos), reply, dialect) in legal_moves(pos)


def interrupt(eng, variant, line):
    """Start an infinite search in `variant` (UCI), send `line` while it runs, and return
    once the search has ended with exactly one bestmove."""
    start(eng, "uci", variant)
    eng.send("position startpos")
    eng.send("go infinite")
    eng.expect("info depth 1", DEADLINE)
    eng.send(line)
    assert len(bestmoves(eng.expect("bestmove", DEADLINE))) == 1


def plays_legally(eng, variant):
    eng.send("position startpos")
    move = eng.ask("go depth 1", "bestmove", DEADLINE)[-1].split()[1]
    return legal(variant, "uci", variants.get(variant).start_fen, move)


def test_setoption_during_a_search_ends_it_and_takes_effect(eng):
    interrupt(eng, "chess", "setoption name MultiPV value 2")
    got = eng.ask("go depth 2", "bestmove", DEADLINE)
    assert any(" multipv 2 " in l for l in got)      # the new value is used


def test_variant_switch_during_a_search_ends_it(eng):
    interrupt(eng, "chess", "setoption name UCI_Variant value elefantnichtschach")
    assert plays_legally(eng, "elefantnichtschach")


def test_ucinewgame_during_a_search_ends_it(eng):
    interrupt(eng, "knavish", "ucinewgame")
    assert ready(eng)[-1] == "readyok"
    assert plays_legally(eng, "knavish")


def test_variant_path_keeps_the_engine_serving(eng, tmp_path):
    """Loading a variants file (tests/test_variant_files.py covers what it loads) does not
    change the variant being played: the engine answers isready and plays on in chess."""
    path = tmp_path / "variants.ini"
    path.write_text("[myvariant:chess]\n")
    start(eng, "uci", "chess")
    eng.send(f"setoption name VariantPath value {path}")
    assert ready(eng)[-1] == "readyok"
    assert plays_legally(eng, "chess")
