"""A variant's rules worked out once (engine/rules.py, ``Variant.rules``) and the plugin contract
(docs/variant-files.md, "The plugin contract"): the two worked plugins of the docs (kamikaze and
a blast), taken from the page itself, are loaded and played; a capture hook turns the legality
shortcuts off by itself, so neither can make an illegal move legal; a hook's changes are put
back by the position at unmake; and in random games of every shipped variant and of both
plugin games the legal moves equal those found without any shortcut (every pseudo-legal move
made and tested) and, where check is an attack on the royal piece, those of a brute-force test
that asks whether any reply could take it."""
from __future__ import annotations

import random
import re
from dataclasses import replace
from io import StringIO
from pathlib import Path

import pytest

import variants
from engine.movegen import legal_moves, pseudo_moves
from engine.moves import CELL, FROM_SHIFT, is_drop
from engine.notation import move_text, parse_position
from protocol.session import Session
from variants import plugins as registry
from file_helpers import load

DOC = (Path(__file__).resolve().parent.parent / "docs" / "variant-files.md").read_text()


def _section(title: str) -> str:
    start = DOC.index(f"### {title}")
    end = DOC.find("\n#", start + 4)
    return DOC[start:end if end > 0 else len(DOC)]


def _blocks(section: str, lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", section, re.S)


def _worked(title: str) -> tuple[type, str]:
    """The plugin class and the ini section of a worked example of the docs."""
    sec = _section(title)
    (code,), (ini,) = _blocks(sec, "python"), _blocks(sec, "ini")
    ns: dict = {}
    exec(compile(code, f"docs/variant-files.md ({title})", "exec"), ns)
    (cls,) = [c for c in ns.values() if isinstance(c, type) and issubclass(c, registry.Plugin)
              and c is not registry.Plugin]
    return cls, ini


@pytest.fixture
def plugin_games(monkeypatch):
    """name -> variant of the docs' worked plugin games (their plugins registered for the test)."""
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    out = {}
    for title in ("Worked plugin: kamikaze", "Worked plugin: a blast"):
        cls, ini = _worked(title)
        registry.register(cls)
        (name, vcls), = load(ini).items()
        out[name] = vcls()
    return out


def _moves(v, fen: str) -> list[str]:
    return sorted(move_text(v, m) for m in legal_moves(parse_position(v, fen)))


# ---- the worked plugins -------------------------------------------------------------------------
KAMIKAZE_FEN = "r4k/6/n5/6/1N4/K5 w - - 0 1"


def test_kamikaze_capture_that_exposes_the_king_is_illegal(plugin_games):
    v = plugin_games["kamikaze"]
    assert _moves(v, KAMIKAZE_FEN) == ["a1a2", "a1b1", "b2c4", "b2d1", "b2d3"]
    # the same capture where no line opens is legal, and the capturer is gone after it
    pos = parse_position(v, "r4k/6/n5/6/1N4/1K4 w - - 0 1")
    m = [m for m in legal_moves(pos) if move_text(v, m) == "b2a4"]
    assert m
    pos.make(m[0])
    assert not any(pos.board[c] for c in (v.geometry.index[(0, 3)], v.geometry.index[(1, 1)]))


def test_the_engine_refuses_the_kamikaze_move_and_keeps_its_position(plugin_games, tmp_path):
    _, ini = _worked("Worked plugin: kamikaze")
    path = tmp_path / "kamikaze.ini"
    path.write_text(ini)
    out = StringIO()
    s = Session(out)
    for line in (f"setoption name VariantPath value {path}", "setoption name UCI_Variant value kamikaze",
                 f"position fen {KAMIKAZE_FEN}", f"position fen {KAMIKAZE_FEN} moves b2a4", "d"):
        s.handle(line)
    text = out.getvalue()
    assert "info string error: illegal or unknown move (b2a4)" in text
    assert f"Fen: {KAMIKAZE_FEN}" in text


def test_blast_capture_that_removes_the_kings_shield_is_illegal(plugin_games):
    v = plugin_games["blast"]
    moves = _moves(v, "4r2k/8/8/8/8/8/3nB3/3RK3 w - - 0 1")
    assert "e1d2" in moves and "d1d2" not in moves
    assert moves == ["d1a1", "d1b1", "d1c1", "e1d2", "e1f2"]     # f1: the Knight on d2


def test_a_capture_hook_turns_the_shortcuts_off_by_itself(plugin_games):
    chess = variants.get("chess")
    assert chess.rules.pin_shortcut and chess.rules.evasion_shortcut and not chess.rules.capture_effects
    for v in plugin_games.values():
        r = v.rules
        assert r.capture_effects and not r.pin_shortcut and not r.evasion_shortcut
        assert not v.fast_legality and r.lazy_legality


def test_nothing_turns_a_declared_fast_legality_back_on():
    chess = variants.get("chess")
    declared = type("NoPins", (type(chess),), {"fast_legality": False})()
    assert not declared.rules.pin_shortcut and not declared.fast_legality


def test_own_moves_turn_the_pin_shortcut_off():
    """A variant that makes moves of its own (make_special) may change any cell."""
    for name in ("alice", "ninepiece-nichtschach", "notake-tow"):
        assert not variants.get(name).rules.pin_shortcut, name


def test_the_position_puts_back_what_a_hook_changed(plugin_games):
    """After every capture of random blast and kamikaze games, unmake restores the board,
    the occupancy, the kings and the hash exactly (the hook returned nothing)."""
    rnd = random.Random(5)
    for v in plugin_games.values():
        for _ in range(4):
            pos = v.start_position()
            for _ply in range(60):
                legal = legal_moves(pos)
                if not legal:
                    break
                for m in legal:
                    if pos.board[m & CELL]:
                        before = (pos.board[:], [set(o) for o in pos.occ], pos.king[:], pos.hash)
                        pos.make(m)
                        assert pos.hash == pos.compute_hash()
                        pos.unmake()
                        assert (pos.board, pos.occ, pos.king, pos.hash) == before
                caps = [m for m in legal if pos.board[m & CELL]]
                pos.make(rnd.choice(caps) if caps and rnd.random() < 0.6 else rnd.choice(legal))


# ---- legal moves against make-and-test, in every game -------------------------------------------
def _no_shortcuts(v):
    """A second variant of the same class whose rules allow no legality shortcut."""
    w = type(v)()
    w.rules = replace(w.rules, pin_shortcut=False, evasion_shortcut=False, fast_evasions=False)
    return w


def _brute(pos) -> list[int]:
    """Make every pseudo-legal move; keep it when no reply of the opponent takes a royal
    piece of the mover (and the drop rule allows it)."""
    v = pos.variant
    side = pos.side
    out = []
    for m in pseudo_moves(pos):
        if is_drop(m) and v.rules.drop_rule and not v.drop_legal(pos, m):
            continue
        pos.make(m)
        royals = {c for c in pos.occ[side] if v.piece_types[pos.board[c] >> 1].royal}
        if not any((r & CELL) in royals and not is_drop(r) for r in pseudo_moves(pos)):
            out.append(m)
        pos.unmake()
    return sorted(out)


def _compare(v, games: int, plies: int, seed: int) -> int:
    ref_v = _no_shortcuts(v)
    r = v.rules
    brute = r.royal_attacks and not r.own_legality and not r.rule_filter
    rnd = random.Random(seed)
    checked = 0
    for _ in range(games):
        pos = v.start_position()
        ref = ref_v.start_position()
        for _ply in range(plies):
            legal = sorted(legal_moves(pos))
            assert legal == sorted(legal_moves(ref)), (v.name, ref_v.notation.format(ref))
            if brute:
                assert legal == _brute(pos), (v.name, ref_v.notation.format(ref))
            checked += 1
            if not legal:
                break
            # a pass (a move to its own cell, janggi's e2e2) is no capture: chosen as one, two
            # in a row would end most games within a few plies
            caps = [m for m in legal if pos.board[m & CELL] and (m >> FROM_SHIFT) & CELL != m & CELL]
            m = rnd.choice(caps) if caps and rnd.random() < 0.5 else rnd.choice(legal)
            pos.make(m)
            ref.make(m)
    return checked


SHIPPED = sorted(set(variants.builtin_names()) | set(variants.shipped_names()))
SOLID = {n for n in SHIPPED if "nichtschach" in n}      # 6x6x6: fewer plies, same comparison
SHORT = {"dobutsu"}         # 3x4: a lion is soon taken, so more games give as many positions


@pytest.mark.parametrize("name", SHIPPED)
def test_legal_moves_equal_make_and_test_in_random_games(name):
    v = variants.get(name)
    plies = 12 if name in SOLID else 40
    assert _compare(v, 6 if name in SHORT else 2, plies, seed=len(name)) >= plies // 2


def test_legal_moves_equal_make_and_test_in_the_plugin_games(plugin_games):
    for v in plugin_games.values():
        assert _compare(v, 6, 60, seed=3) > 150


def test_a_castling_right_lapses_when_a_hook_empties_its_rooks_cell(plugin_games):
    from engine.notation.position_text import format as format_position
    v = plugin_games["blast"]
    pos = parse_position(v, "r3k3/1n6/8/8/8/8/8/1R2K3 w q - 0 1")
    (m,) = [m for m in legal_moves(pos) if move_text(v, m) == "b1b7"]
    pos.make(m)
    assert format_position(pos) == "4k3/8/8/8/8/8/8/4K3 b - - 0 1"
    assert "e8c8" not in {move_text(v, x) for x in legal_moves(pos)}
    pos.unmake()
    assert format_position(pos) == "r3k3/1n6/8/8/8/8/8/1R2K3 w q - 0 1"
