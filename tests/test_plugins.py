"""Level keys and named plugins in variants files (docs/variant-files.md, "Levels" and
"Plugins"): a levelled board without plugins plays chess on each level (perft equal to the
built-in chess on either level, castling on the first, en passant on its own level); a plugin
from an installed package's entry point (a fake distribution on sys.path, no network) changes
the rules; every bad file is refused whole with one line naming file, line, section and key."""
from __future__ import annotations

import pytest

import variants
from engine.game import game_result, perft
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.move_text import parse_move
from variants import plugins as registry
from file_helpers import load, problems

EMPTY = "8/8/8/8/8/8/8/8"
CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"
TWO = f"[two:chess]\nlevels = 2\nstartFen = {CHESS}|{EMPTY} w KQkq - 0 1\n"




@pytest.fixture
def fresh_registry(monkeypatch):
    """The plugin registry as it was after the test (plugins it registers are dropped)."""
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    monkeypatch.setattr(registry, "_broken", dict(registry._broken))
    monkeypatch.setattr(registry, "_scanned", False)
    return registry


# ---- levels without a plugin ------------------------------------------------------------------
def test_two_levels_play_chess_on_the_first_level():
    v = load(TWO)["two"]()
    assert v.geometry.size == 128 and v.geometry.name(64) == "ba1"
    pos = v.start_position()
    assert [perft(pos, d) for d in (1, 2, 3)] == [20, 400, 8902]
    assert {"ae1ag1", "ae1ac1"} <= {move_text(v, m) for m in legal_moves(
        parse_position(v, f"r3k2r/8/8/8/8/8/8/R3K2R|{EMPTY} w KQkq - 0 1"))}


@pytest.mark.parametrize("fen", [
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w - - 0 1",
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w - f6 0 3",
    "8/2P5/8/8/8/8/5p2/4K2k w - - 0 1"])
def test_a_chess_position_on_the_second_level_has_chess_perft(fen):
    """Moves stay on their level, promotion and en passant work there (the en-passant cell
    is named with its level, bf6)."""
    v = load(TWO)["two"]()
    board, rest = fen.split(" ", 1)
    side, castle, ep, clocks = rest.split(" ", 3)
    text = f"{EMPTY}|{board} {side} {castle} {'b' + ep if ep != '-' else ep} {clocks}"
    chess = variants.get("chess")
    for d in (1, 2, 3):
        assert perft(parse_position(v, text), d) == perft(parse_position(chess, fen), d)


def test_level_names_name_cells_and_groups():
    v = load(TWO.replace("levels = 2", "levels = 3\nlevelNames = xyz")
             .replace(f"|{EMPTY} w", f"|{EMPTY}|{EMPTY} w"))["two"]()
    pos = v.start_position()
    assert move_text(v, legal_moves(pos)[0])[0] == "x"
    lines = v.notation.diagram(pos)
    assert lines[0].split() == ["x", "y", "z"]
    assert v.geometry.name(v.geometry.index[(7, 7, 2)]) == "zh8"


@pytest.mark.parametrize("extra, expect", [
    ("levels = 9", "f.ini:2: [two] levels: out of range 2..8 (9)"),
    ("levels = x", "f.ini:2: [two] levels: not a whole number (x)"),
    ("levels = 2\nlevelNames = aa", "f.ini:3: [two] levelNames: a letter used twice (aa)"),
    ("levels = 2\nlevelNames = abc",
     "f.ini:3: [two] levelNames: needs one letter for each of the 2 levels (abc)"),
    ("levels = 2\nlevelNames = A1", "f.ini:3: [two] levelNames: not a lowercase letter (A)"),
    ("levelNames = ab", "f.ini:2: [two] levelNames: needs levels (ab)"),
])
def test_bad_level_keys(extra, expect):
    assert problems(f"[two:chess]\n{extra}\n") == [expect]


def test_a_start_position_without_its_levels_is_refused():
    [p] = problems("[two:chess]\nlevels = 2\n")
    assert p.startswith("f.ini:1: [two] startFen: bad startFen: expected 2 board groups")


# ---- the plugin mechanism ----------------------------------------------------------------------
@pytest.mark.parametrize("text, expect", [
    ("[x:chess]\nlevels = 2\nplugins = nosuch\n", "f.ini:3: [x] plugins: unknown plugin (nosuch)"),
    ("[x:chess]\nlevels = 2\nplugins = alice, nosuch\n",
     "f.ini:3: [x] plugins: unknown plugin (nosuch)"),
    ("[x:chess]\nplugins = alice\n", "f.ini:2: [x] plugins: alice needs levels = 2 (alice)"),
    ("[x:chess]\nlevels = 3\nplugins = alice\n", "f.ini:2: [x] levels: alice needs levels = 2 (3)"),
    ("[x:chess]\nlevels = 2\nplugins = alice alice\n",
     "f.ini:3: [x] plugins: plugin named twice (alice)"),
])
def test_bad_plugin_keys(text, expect):
    assert problems(text) == [expect]


def test_the_engine_keeps_serving_after_a_file_with_an_unknown_plugin(tmp_path):
    from io import StringIO

    from protocol.session import Session
    bad = tmp_path / "bad.ini"
    bad.write_text("[x:chess]\nlevels = 2\nplugins = nosuch\n")
    out = StringIO()
    s = Session(out)
    s.handle(f"setoption name VariantPath value {bad}")
    s.handle("setoption name UCI_Variant value alice")
    s.handle("isready")
    text = out.getvalue()
    assert f"info string error: {bad}:3: [x] plugins: unknown plugin (nosuch)" in text
    assert "readyok" in text and s.variant_name == "alice"


class _A(registry.Plugin):
    plugin_name = "test-a"

    def legal_moves(self, pos, pseudo):
        return None


class _B(registry.Plugin):
    plugin_name = "test-b"

    def legal_moves(self, pos, pseudo):
        return None


class _Own(registry.Plugin):
    plugin_name = "test-own"
    plugin_key = "winRule"


def test_two_plugins_may_not_define_one_hook(fresh_registry):
    registry.register(_A)
    registry.register(_B)
    assert problems("[x:chess]\nplugins = test-a test-b\n") == [
        "f.ini:2: [x] plugins: plugins test-a and test-b both define legal_moves (test-b)"]


def test_a_plugin_is_named_by_its_own_key(fresh_registry):
    registry.register(_Own)
    assert "winRule" in registry.keys()
    assert problems("[x:chess]\nplugins = test-own\n") == [
        "f.ini:2: [x] plugins: this plugin is named by the key winRule (test-own)"]
    assert load("[x:chess]\nwinRule = test-own\n")["x"].__mro__[1] is _Own
    assert problems("[x:chess]\nwinRule = alice\n") == [
        "f.ini:2: [x] winRule: this plugin is named by the key plugins (alice)"]


def test_a_plugin_defines_only_variant_hooks(fresh_registry):
    class Stray(registry.Plugin):
        plugin_name = "stray"

        def legal_move(self, pos, pseudo):        # a typo of legal_moves
            return None
    with pytest.raises(ValueError, match="not Variant hooks .legal_move."):
        registry.register(Stray)


HILL = '''
from variants.plugins import Plugin


class Hill(Plugin):
    """King of the hill: a king that reaches d4, e4, d5 or e5 wins."""
    plugin_name = "hill"

    def result(self, pos, legal):
        k = pos.king[pos.side ^ 1]
        if k >= 0 and self.geometry.coords[k][:2] in ((3, 3), (4, 3), (3, 4), (4, 4)):
            return (-1, "king on the hill")
        return None
'''


def fake_distribution(root, entries: str) -> None:
    """An installed package as importlib.metadata sees one: the module and a dist-info folder
    whose entry_points.txt names it in the group cellfish.plugins."""
    (root / "hillplugin.py").write_text(HILL)
    info = root / "hillplugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: hillplugin\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[cellfish.plugins]\n{entries}\n")


def test_a_plugin_from_an_installed_package(tmp_path, monkeypatch, fresh_registry):
    fake_distribution(tmp_path, "hill = hillplugin:Hill\nbroken = hillplugin:Missing")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.rescan()
    assert "hill" in registry.names()
    v = load("[hillchess:chess]\nplugins = hill\n")["hillchess"]()
    pos = parse_position(v, "4k3/8/8/8/8/8/3K4/8 w - - 0 1")
    assert game_result(pos, legal_moves(pos)) is None
    pos.make(parse_move(v, legal_moves(pos), "d2d3"))
    pos.make(parse_move(v, legal_moves(pos), "e8e7"))
    pos.make(parse_move(v, legal_moves(pos), "d3e4"))
    assert game_result(pos, legal_moves(pos)) == (-1, "king on the hill")
    [p] = problems("[x:chess]\nplugins = broken\n")
    assert p.startswith("f.ini:2: [x] plugins: plugin cannot be loaded: AttributeError")
    assert p.endswith("(broken)")


def test_cellfish_check_passes_on_every_shipped_file():
    """`cellfish check` on the files cellfish ships: each is sound, and its own variant names
    do not count as taken (they are the same variants)."""
    import subprocess
    import sys
    from pathlib import Path
    files = sorted(str(p) for p in (Path(variants.__file__).parent / "files").glob("*.ini"))
    assert files
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", *files], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert [ln.split(":")[0] for ln in r.stdout.splitlines()] == files
    assert all(": ok (" in ln for ln in r.stdout.splitlines())


def test_levels_past_the_move_encoding_are_refused():
    """The cell-count check of ``levels``: 8 levels of 26 x 20 (4,160 cells) is more than the
    4,096 a 12-bit cell field names; 4 levels of 8 x 8 (256, refused by 8-bit fields) fit."""
    from variants.inifile.levels import level_bases

    def error(key, what, token):
        return ValueError(f"{key}: {what} ({token})")
    with pytest.raises(ValueError, match=r"levels: 4160 cells, more than the 4096 a move can name \(8\)"):
        level_bases({"levels": "8"}, 26, 20, error)
    assert level_bases({"levels": "4"}, 8, 8, error)
