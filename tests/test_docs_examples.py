"""Every variants-file example of the docs is loaded, so a page cannot show a file the loader
refuses; and the file syntax the page describes (comments, the promotion region's default, a
drop game's hand in its position text) is read as Fairy-Stockfish reads it.

An example is a fenced block whose info string starts with ``ini``:

* ```` ```ini ```` — a whole file: it loads (a plugin the same ``###`` part of the page defines
  in a ```` ```python ```` block is registered first);
* ```` ```ini excerpt of PATH ```` — lines of a file the project ships: every line of the block
  but ``...`` stands in that file (comments and spacing aside), and the file loads.
"""
from __future__ import annotations

import re
from pathlib import Path

import pyffish
import pytest

import variants
from engine.movegen import legal_moves
from engine.notation import move_text, parse_position
from engine.notation.errors import PositionTextError
from variants import plugins as registry
from variants.inifile.parse import parse_text
from file_helpers import load, problems

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "docs" / "variant-files.md", *sorted((ROOT / "docs" / "variants").glob("*.md")),
         ROOT / "README.md", ROOT / "docs" / "betza.md", ROOT / "docs" / "protocol.md"]
BLOCK = re.compile(r"^```ini([^\n]*)\n(.*?)^```", re.S | re.M)


def _examples() -> list[tuple[str, str, str, str]]:
    """(page:line, info string, block, the page's ### part holding it) of every ini block."""
    out = []
    for page in PAGES:
        text = page.read_text()
        for m in BLOCK.finditer(text):
            line = text[:m.start()].count("\n") + 1
            part_start = text.rfind("\n#", 0, m.start())
            part_end = text.find("\n#", m.end())
            part = text[part_start:part_end if part_end > 0 else len(text)]
            out.append((f"{page.relative_to(ROOT)}:{line}", m.group(1).strip(), m.group(2), part))
    return out


EXAMPLES = _examples()


def _lines(text: str) -> list[str]:
    """A file's lines without comments and spacing (as the loader reads them)."""
    out = []
    for raw in text.splitlines():
        line = re.split(r"\s[#;]", raw.strip(), maxsplit=1)[0].strip()
        if line and line[0] not in "#;":
            out.append(re.sub(r"\s*=\s*", " = ", line))
    return out


def test_the_pages_have_examples():
    assert len(EXAMPLES) >= 8
    assert all(info == "" or info.startswith("excerpt of ") for _, info, _, _ in EXAMPLES), \
        [(where, info) for where, info, _, _ in EXAMPLES]


@pytest.mark.parametrize("where, info, block, part", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_every_ini_example_of_the_docs_loads(where, info, block, part, monkeypatch):
    if info.startswith("excerpt of "):
        path = ROOT / info.removeprefix("excerpt of ").strip()
        shipped = _lines(path.read_text())
        missing = [ln for ln in _lines(block) if ln != "..." and ln not in shipped]
        assert not missing, (where, path.name, missing)
        assert variants.load_file(str(path))
        return
    monkeypatch.setattr(registry, "_registered", dict(registry._registered))
    for code in re.findall(r"```python\n(.*?)```", part, re.S):
        ns: dict = {}
        exec(compile(code, where, "exec"), ns)
        for obj in ns.values():
            if isinstance(obj, type) and issubclass(obj, registry.Plugin) and obj.plugin_name:
                registry.register(obj)
    loaded = load(block)
    assert loaded, where
    for cls in loaded.values():
        cls().start_position()


# ---- comments, as Fairy-Stockfish reads them -----------------------------------------------------
SIX = "maxRank = 6\nmaxFile = 6\ncastling = false\npromotionRegionWhite = *6\nstartFen = 4k1/6/6/6/6/R3K1 w - - 0 1\n"


@pytest.mark.parametrize("text", [
    "[c6:chess]  # after a header\n" + SIX,
    "[c6:chess] ; after a header\n" + SIX,
    "; a whole line\n[c6:chess]\n" + SIX,
    "[c6:chess]\n" + SIX.replace("maxFile = 6", "maxFile = 6 ; six files"),
    "[c6:chess]\n" + SIX.replace("maxFile = 6", "maxFile = 6  # six files"),
], ids=["header #", "header ;", "line ;", "value ;", "value #"])
def test_comments_read_as_fairy_stockfish_reads_them(text):
    v = load(text)["c6"]()
    assert (v.geometry.size, v.start_fen) == (36, "4k1/6/6/6/6/R3K1 w - - 0 1")
    pyffish.load_variant_config(text)
    assert pyffish.start_fen("c6") == v.start_fen


def test_a_header_with_text_but_no_closing_bracket_is_still_refused():
    assert problems("[c6:chess # no bracket\n" + SIX)[0].startswith("f.ini:1: bad section header")


# ---- the promotion region's default --------------------------------------------------------------
@pytest.mark.parametrize("ranks, fen, expect", [
    (6, "4k1/P5/6/6/6/4K1 w - - 0 1", ["a5a6"]),          # no promotion rank on 6 ranks
    (9, "4k4/9/P8/9/9/9/9/9/4K4 w - - 0 1", ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]),   # rank 8
    (9, "4k4/P8/9/9/9/9/9/9/4K4 w - - 0 1", ["a8a9"]),    # a pawn set on rank 8 steps on
    (10, "4k5/10/10/P9/10/10/10/10/10/4K5 w - - 0 1", ["a7a8b", "a7a8n", "a7a8q", "a7a8r"]),
], ids=["6 ranks", "9 ranks", "9 ranks, past rank 8", "10 ranks"])
def test_the_default_promotion_region_is_rank_8_as_in_fairy_stockfish(ranks, fen, expect):
    name = f"promo{ranks}x{fen.count('P')}{fen.index('P')}"
    ini = f"[{name}:chess]\nmaxRank = {ranks}\nmaxFile = {ranks}\ncastling = false\nstartFen = {fen}\n"
    v = load(ini)[name]()
    ours = sorted(t for t in (move_text(v, m) for m in legal_moves(parse_position(v, fen))) if t[0] == "a")
    pyffish.load_variant_config(ini)
    assert ours == expect == sorted(m for m in pyffish.legal_moves(name, fen, []) if m[0] == "a")


# ---- a drop game's hand ---------------------------------------------------------------------------
def test_a_hand_written_without_brackets_is_named_in_the_error():
    v = variants.load_file(str(ROOT / "examples" / "alamoshouse.ini")) and variants.get("alamoshouse")
    with pytest.raises(PositionTextError, match=r"row too long \(RNQKNRPp\): this game has hands, "
                                                r"written in brackets after the last row"):
        parse_position(v, "rnqknr/pp2pp/2p3/6/P1PPPP/RNQKNRPp w - - 0 3")
    text = (ROOT / "examples" / "alamoshouse.ini").read_text().replace("RNQKNR[] w", "RNQKNRPp w")
    (p,) = problems(text)
    assert "startFen: bad startFen: row too long (RNQKNRPp): this game has hands" in p


def test_a_board_row_too_long_in_a_game_without_hands_says_only_that():
    chess = variants.get("chess")
    with pytest.raises(PositionTextError) as e:
        parse_position(chess, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRP w KQkq - 0 1")
    assert str(e.value) == "row too long (RNBQKBNRP)"


def test_the_syntax_example_parses_without_problems():
    (block,) = [b for w, _, b, _ in EXAMPLES if w == "docs/variant-files.md:32"]
    sections, probs = parse_text(block, "f.ini")
    assert not probs and [s.name for s in sections] == ["rooks", "rooks6"]
    assert sections[1].keys["maxRank"][0] == "6"
