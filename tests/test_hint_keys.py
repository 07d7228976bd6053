"""cellfish's search hints in variants files (docs/variant-files.md, "Search hints";
variants/inifile/hints.py): ``clockMoves`` sets the moves the clock is planned over, on plain, 3D
and lattice sections alike, ``clockGame`` the moves a game usually runs (test_clock_game.py has
what it plans); bad values are refused; Fairy-Stockfish ignores the keys."""
from __future__ import annotations

from pathlib import Path

import pytest

import variants
from engine.limits import allocate
from file_helpers import load, one, problems


def test_clock_moves_is_read_and_defaults_to_30():
    assert one("[plain:chess]\n").clock_moves == 30
    assert one("[long:chess]\nclockMoves = 45\n").clock_moves == 45
    # inherited like any key
    (_, child) = load("[a:chess]\nclockMoves = 45\n[b:a]\n").values()
    assert child().clock_moves == 45


def test_the_shipped_files_plan_their_long_games_over_more_moves():
    assert variants.get("nested-a").clock_moves == variants.get("nested-b").clock_moves == 60
    assert variants.get("chess").clock_moves == 30
    clock = {"wtime": 6000, "winc": 60}
    assert allocate(0, clock, 50, variants.get("nested-a").clock_moves) < allocate(0, clock, 50)


def test_a_lattice_section_takes_it_too():
    text = (Path(variants.__file__).parent / "files" / "nested.ini").read_text()
    text = text.replace("[nested-a]", "[mynested]").replace("[nested-b:nested-a]", "[mynestedb:mynested]")
    assert "clockMoves = 60" in text
    loaded = load(text.replace("clockMoves = 60", "clockMoves = 77"))
    assert loaded["mynested"]().clock_moves == loaded["mynestedb"]().clock_moves == 77
    assert problems(text.replace("clockMoves = 60", "clockMoves = x"))[0].endswith("clockMoves: not a whole number (x)")


def test_a_3d_section_takes_it_too():
    text = (Path(variants.__file__).parent / "files" / "nichtschach.ini").read_text()
    text = text.replace("[elefantnichtschach]", "[myelefant]\nclockMoves = 44", 1)
    loaded = load(_section(text, "myelefant"))
    assert loaded["myelefant"]().clock_moves == 44


def _section(text: str, name: str) -> str:
    """The one section ``name`` of a file text (with the comments before the first section)."""
    head, _, rest = text.partition(f"[{name}]")
    body = rest.split("\n[", 1)[0]
    return f"[{name}]{body}\n"


def test_clock_game_is_read_and_defaults_to_0():
    assert one("[plain:chess]\n").clock_game == 0
    (_, child) = load("[a:chess]\nclockGame = 120\n[b:a]\n").values()
    assert child().clock_game == 120


@pytest.mark.parametrize("line, message", [
    ("clockMoves = soon", "clockMoves: not a whole number (soon)"),
    ("clockMoves = 1", "clockMoves: out of range 5..500 (1)"),
    ("clockGame = long", "clockGame: not a whole number (long)"),
    ("clockGame = 1001", "clockGame: out of range 0..1000 (1001)"),
])
def test_bad_values_are_refused(line, message):
    assert problems(f"[x:chess]\n{line}\n") == [f"f.ini:2: [x] {message}"]


@pytest.mark.parametrize("key, value", [("clockMoves", 45), ("clockGame", 90)])
def test_fairy_stockfish_loads_a_file_with_the_hint(key, value):
    import pyffish as sf
    name = f"hint{key.lower()}"
    sf.load_variant_config(f"[{name}:chess]\n{key} = {value}\n")
    assert len(sf.legal_moves(name, sf.start_fen(name), [])) == 20
