"""The move list of games written in USI (shogi, Notake) in the western shogi notation:
named moves, and agreement with cshogi (an independent shogi implementation) on every part of
the notation over random games: the piece letter, capture, drop, promotion or its refusal,
and the origin cell written exactly when another piece of the kind could go to the cell."""
from __future__ import annotations

import random

import cshogi
import pytest

from engine.notation import move_text
from gui.game import Game


def shown(name: str, moves: list[str]) -> list[str]:
    g = Game(name)
    for t in moves:
        g.play(t)
    return g.notation_moves()


def test_named_shogi_moves():
    # 1.P-7f P-3d 2.Bx2b+ Sx2b 3.B*5e, then the golds of 6i and 4i can both reach 5h
    assert shown("shogi", ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5", "a7a6", "d1e2"]) == [
        "P-7f", "P-3d", "Bx2b+", "Sx2b", "B*5e", "P-9d", "G6i-5h"]
    # declining the promotion; then the promoted Bishop (horse) moves as +B
    assert shown("shogi", ["c3c4", "g7g6", "b2h8", "a7a6", "h8g9+"]) == [
        "P-7f", "P-3d", "Bx2b=", "P-9d", "Bx3a+"]
    assert shown("shogi", ["c3c4", "g7g6", "b2h8+", "a7a6", "h8h7"]) == [
        "P-7f", "P-3d", "Bx2b+", "P-9d", "+Bx2c"]
    g = Game("shogi")
    assert g.notation_moves() == [] and g.san_moves() == []      # SAN kept for PGN


def test_named_notake_moves():
    # tow: the pawn steps to 8f and pulls the piece of 8h (the acted-on cell) behind it
    assert shown("notake-tow", ["h2i2", "c9d8", "b3b4,b2"])[-1] == "P-8f,8h"
    # rifle: Gote's lance stays on 1a and acts on 1c
    assert shown("notake-rifle", ["f1g2", "i9i9,i7"]) == ["G-3h", "L1a,1c"]


def cshogi_square(cell: str) -> int:
    """A USI cell name (7f) as cshogi's square number."""
    return (int(cell[0]) - 1) * 9 + ord(cell[1]) - ord("a")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_agrees_with_cshogi_in_random_games(seed):
    rnd = random.Random(seed)
    g = Game("shogi")
    board = cshogi.Board()
    kinds: set[str] = set()
    for _ in range(90):
        legal = list(g.legal().items())
        if not legal or board.is_game_over():
            break
        # prefer captures and promotions, so hands, drops and horses come up
        rich = [t for t, _ in legal if "+" in t or "@" in t]
        text = rnd.choice(rich if rich and rnd.random() < 0.4 else [t for t, _ in legal])
        g.play(text)
        note = g.notation_moves()[-1]
        usi = move_text(g.v, g.legal(g.ply - 1)[text], "usi")
        m = board.move_from_usi(usi)
        assert board.is_legal(m), usi
        to = cshogi.move_to(m)
        if cshogi.move_is_drop(m):
            assert note == usi.upper()[0] + usi[1:]               # P*5e
        else:
            frm = cshogi.move_from(m)
            piece = board.piece(frm)
            letter = cshogi.PIECE_SYMBOLS[piece % 16].upper()
            assert note.startswith(letter), (note, usi)
            same = [o for o in board.legal_moves if not cshogi.move_is_drop(o)
                    and cshogi.move_to(o) == to and cshogi.move_from(o) != frm
                    and board.piece(cshogi.move_from(o)) == piece]
            origin = usi[:2]
            assert (note[len(letter):len(letter) + 2] == origin) == bool(same), (note, usi)
            body = note[len(letter) + (2 if same else 0):]
            assert body[0] == ("x" if board.piece(to) else "-"), (note, usi)
            assert body[1:3] == usi[2:4]
            promotes = cshogi.move_is_promotion(m)
            could = any(cshogi.move_is_promotion(o) for o in board.legal_moves
                        if not cshogi.move_is_drop(o) and cshogi.move_from(o) == frm
                        and cshogi.move_to(o) == to)
            assert body[3:] == ("+" if promotes else "=" if could else ""), (note, usi)
        board.push(m)
        kinds.update(k for k in "x+=*" if k in note[1:])
    assert len(g.moves) >= 60 and {"x", "+", "*"} <= kinds
