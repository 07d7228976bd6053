"""The order in which the Flipped-return Nichtschach games generate moves (issue 16: protocol
answers byte for byte the same as when these games were a Python module).

`go perft 2` divide lines come out in move-generation order, so they pin it: the data file
tests/data/nichtschach_divide_order.txt holds the lines the engine printed at revision fe3d44c
(the module variants/nichtschach.py) for two starts and two positions after random moves
(with captures and returns).  The order comes from the 3D notation's canonical vector order
(engine/pieces3d.py; docs/variant-files.md, "3D pieces"), pinned here on its own too."""
from __future__ import annotations

from pathlib import Path

import pytest

from engine.pieces3d import parse_piece3d
from engine_proc import EngineProcess

DATA = Path(__file__).parent / "data" / "nichtschach_divide_order.txt"


def _blocks() -> list[tuple[str, str, list[str]]]:
    out: list[tuple[str, str, list[str]]] = []
    for line in DATA.read_text().splitlines():
        if line.startswith("#") or not line:
            continue
        if line.startswith("position "):
            _, var, pos = line.split(" ", 2)
            out.append((var, pos, []))
        else:
            out[-1][2].append(line)
    return out


BLOCKS = _blocks()


@pytest.fixture(scope="module")
def eng():
    e = EngineProcess()
    e.ask("uci", "uciok")
    yield e
    e.close()


@pytest.mark.parametrize("var, pos, want", BLOCKS, ids=[f"{b[0]}-{i}" for i, b in enumerate(BLOCKS)])
def test_divide_lines_in_the_modules_order(eng, var, pos, want):
    assert len(want) > 150                 # the whole divide, not a prefix
    eng.send(f"setoption name UCI_Variant value {var}")
    eng.send(f"position {pos}")
    got = eng.ask("go perft 2", "Nodes searched")
    got = [l for l in got if l and not l.startswith("info")]
    assert got == want


def _vectors(text: str, axes=(0, 1, 2)) -> list:
    return [v for a in parse_piece3d(text, axes) for v in a.vectors]   # type: ignore[union-attr]


def test_canonical_vector_order():
    # O, S, [a,b,c]: ascending; T: descending (+ before -, first axis slowest)
    assert _vectors("O") == [(-1, 0, 0), (0, -1, 0), (0, 0, -1), (0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert _vectors("T")[:3] == [(1, 1, 1), (1, 1, -1), (1, -1, 1)]
    assert _vectors("T")[-1] == (-1, -1, -1)
    assert _vectors("[2,1,0]")[:2] == [(-2, -1, 0), (-2, 0, -1)]
    assert _vectors("2S") == sorted(_vectors("2S")) and len(_vectors("2S")) == 12
    # compared in the engine's coordinate order: (level, file, rank) = notation axes (2, 0, 1)
    assert _vectors("O", (2, 0, 1)) == [(0, 0, -1), (-1, 0, 0), (0, -1, 0), (0, 1, 0), (1, 0, 0),
                                        (0, 0, 1)]
    # terms in the order written; modifiers only drop vectors
    assert _vectors("fO fuS fdS frS flS") == [(0, 1, 0), (0, 1, 1), (0, 1, -1), (1, 1, 0), (-1, 1, 0)]
    assert _vectors("fS") == [(-1, 1, 0), (0, 1, -1), (0, 1, 1), (1, 1, 0)]
