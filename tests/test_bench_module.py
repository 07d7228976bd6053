"""``cellfish bench module`` (bench/file_vs_module.py) times the shipped Knavish file against the
game written by hand (bench/knavish_module.py): the two must be the same game with the same move
order, or the timing compares two different searches.  Checked here, on the plain game and the
one with promotions and returns (the others differ from them only in their start arrays, and
the bench checks their perft and node counts in every run): the legal moves, in order, from the
start and the bench's middlegames.  (Each builds the tables of two 10x10 games: a few seconds.)"""
import pytest

import variants
from bench.against_rev import MIDDLEGAMES
from bench.file_vs_module import DEFAULTS, main
from bench.knavish_module import VARIANTS
from engine.movegen import legal_moves
from engine.notation.position_text import parse


@pytest.mark.parametrize("name", ["knavish", "knavish-returns"])
def test_the_hand_written_knavish_is_the_file_game_move_for_move(name):
    hand, file = VARIANTS[name](), variants.get(name)
    for fen in [file.start_fen] + MIDDLEGAMES["knavish"]:
        a, b = parse(hand, fen), parse(file, fen)
        assert legal_moves(a) == legal_moves(b), fen


def test_every_pair_is_known_and_an_unknown_name_is_refused(capsys):
    assert set(VARIANTS) | {"chess", "shogi"} == set(DEFAULTS)
    assert main(["--variants", "xiangqi"]) == 2
    assert "no hand-written form of xiangqi" in capsys.readouterr().out
