"""`position … moves …` sent again with one more move replays only the new move, and gives the
same position as replaying the whole list; anything that changes the position in between
(another start, `ucinewgame`, a bad move, a variant switch) makes the next command replay all."""
from __future__ import annotations

import io
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import protocol.session as session_module  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.notation.move_text import move_text  # noqa: E402
from protocol.session import Session  # noqa: E402


def fresh(variant, command):
    s = Session(io.StringIO())
    s.handle(f"setoption name UCI_Variant value {variant}")
    s.handle(command)
    return s


def random_game(variant, plies, seed):
    s = fresh(variant, "position startpos")
    rng = random.Random(seed)
    texts = []
    for _ in range(plies):
        legal = legal_moves(s.pos)
        if not legal:
            break
        m = rng.choice(legal)
        texts.append(move_text(s.variant, m, "uci"))
        s.pos.make(m)
    return texts


def count_parsed_moves(monkeypatch):
    calls = [0]
    real = session_module.parse_move

    def parse_move(*args):
        calls[0] += 1
        return real(*args)
    monkeypatch.setattr(session_module, "parse_move", parse_move)
    return calls


def test_extending_list_replays_only_new_moves(monkeypatch):
    texts = random_game("chess", 60, 1)
    s = Session(io.StringIO())
    s.handle("position startpos")
    calls = count_parsed_moves(monkeypatch)
    for n in range(1, len(texts) + 1):
        s.handle("position startpos moves " + " ".join(texts[:n]))
    assert calls[0] == len(texts)          # one make per new move, not n(n+1)/2
    whole = fresh("chess", "position startpos moves " + " ".join(texts))
    assert s.pos.hash == whole.pos.hash and s.pos.board == whole.pos.board
    assert s.pos.history == whole.pos.history and s.moves == whole.moves


def test_shorter_or_other_list_replays_from_start():
    texts = random_game("chess", 20, 2)
    s = fresh("chess", "position startpos moves " + " ".join(texts))
    s.handle("position startpos moves " + " ".join(texts[:5]))
    assert s.pos.hash == fresh("chess", "position startpos moves " + " ".join(texts[:5])).pos.hash
    s.handle("ucinewgame")
    s.handle("position startpos moves " + " ".join(texts[:6]))
    assert s.pos.hash == fresh("chess", "position startpos moves " + " ".join(texts[:6])).pos.hash


def test_bad_move_in_extension_keeps_previous_position():
    texts = random_game("chess", 10, 3)
    out = io.StringIO()
    s = Session(out)
    s.handle("position startpos moves " + " ".join(texts))
    before = (s.pos.hash, list(s.moves))
    s.handle("position startpos moves " + " ".join(texts) + " a1a8")
    assert "info string error" in out.getvalue()
    assert (s.pos.hash, s.moves) == before
    s.handle("position startpos moves " + " ".join(texts[:-1]))
    assert s.pos.hash == fresh("chess", "position startpos moves " + " ".join(texts[:-1])).pos.hash


def test_variant_switch_is_not_an_extension():
    texts = random_game("knavish", 8, 4)
    s = fresh("knavish", "position startpos moves " + " ".join(texts[:4]))
    s.handle("setoption name UCI_Variant value knavish8")
    s.handle("setoption name UCI_Variant value knavish")
    s.handle("position startpos moves " + " ".join(texts))
    assert s.pos.hash == fresh("knavish", "position startpos moves " + " ".join(texts)).pos.hash
