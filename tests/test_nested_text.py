"""Nested Chess: cell names, position text and move text round-trip; the `d` diagram."""
import random

import pytest

import variants
from engine.movegen import legal_moves
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import PositionTextError, format, parse

A = variants.get("nested-a")
B = variants.get("nested-b")


@pytest.mark.parametrize("v", [A, B], ids=["A", "B"])
def test_cell_names_round_trip(v):
    geo = v.geometry
    for c, name in enumerate(geo.names):
        x, y = geo.coords[c]
        assert name == f"{chr(97 + x)}{y + 1}"
        assert geo.parse(name) == c
    assert len(set(geo.names)) == 141


@pytest.mark.parametrize("v", [A, B], ids=["A", "B"])
def test_position_text_round_trips_through_random_games(v):
    rnd = random.Random(7)
    pos = parse(v, v.start_fen)
    assert format(pos) == v.start_fen
    seen = 0
    for _ in range(120):
        legal = legal_moves(pos)
        if not legal:
            break
        for m in legal:                      # every move's text parses back to the move
            assert parse_move(v, legal, move_text(v, m)) == m
        pos.make(rnd.choice(legal))
        text = format(pos)
        again = parse(v, text)
        assert format(again) == text and again.hash == pos.hash
        seen += 1
    assert seen > 40


def test_promotion_move_text():
    pos = parse(A, "3kw2/4f3/2p6/8/2P3P2/P7/9/8/9/8/9/8/9/8/9/8/3KW2 w 0 1")
    t = {move_text(A, m) for m in legal_moves(pos)}
    assert {"e13d14r", "e13d14n", "e13d14a", "e13d14f"} <= t


@pytest.mark.parametrize("bad", [
    "rnakwnr/bcdifdcb/ppppppppp w 0 1",                                           # rows
    "rnakwnr1/bcdifdcb/ppppppppp/eeeeeeee/9/8/9/8/9/8/9/8/9/EEEEEEEE/PPPPPPPPP/BCDIFDCB/RNAKWNR w 0 1",
    "rnakwnr/bcdifdcb/ppppppppp/eeeeeeee/9/8/9/8/9/8/9/8/9/EEEEEEEE/PPPPPPPPP/BCDIFDCB/RNAKWNR x 0 1",
    "rnakwnr/bcdifdcb/ppppppppp/eeeeeeeq/9/8/9/8/9/8/9/8/9/EEEEEEEE/PPPPPPPPP/BCDIFDCB/RNAKWNR w 0 1",
])
def test_bad_position_text_is_refused(bad):
    with pytest.raises(PositionTextError):
        parse(A, bad)


def test_diagram_offsets_squares_and_marks_corners():
    pos = parse(A, A.start_fen)
    lines = A.notation.diagram(pos)
    assert len(lines) == 18
    top, r16, bottom, files = lines[0], lines[1], lines[16], lines[17]
    assert top.startswith("17  #") and top.endswith("#")
    assert bottom.startswith(" 1  #   R   N   A   K   W   N   R   #")
    # column of point x is 4 + 2x: vertex rows start at x=0, square rows at x=1
    assert files == "    " + " ".join("abcdefghijklmnopq")
    assert r16[6] == "b" and r16[4] == " "
    assert lines[16 - 2][4] == "P" and lines[16 - 12][4] == "o" and lines[16 - 11][6] == "."
    for line in lines[:-1]:
        for x in range(17):
            col = 4 + 2 * x
            y = int(line[:2]) - 1
            if col < len(line) and line[col] != " ":
                assert (x + y) % 2 == 0          # only real points are drawn
