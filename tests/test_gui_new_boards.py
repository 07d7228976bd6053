"""The web board serving today's boards in headless Chromium at 1280x800: each opens, its
cells are drawn large enough to read, a move made by clicks is the core's, and the engine
answers; Chu Shogi's two-leg moves by clicks (first leg, then where the move ends)."""
from __future__ import annotations

import pytest
from gui_helpers import served_page

import variants
from engine.movegen import legal_moves
from engine.moves import CELL, FROM_SHIFT
from engine.notation import format_position, move_text, parse_move, parse_position
from gui.describe import geometry_description

WAIT_MS = 60000


@pytest.fixture(scope="module")
def page():
    with served_page({"width": 1280, "height": 800}, WAIT_MS) as pg:
        yield pg


def open_game(pg, name: str, position: str | None = None) -> None:
    pg.goto(pg.base_url + "?variant=" + name + "&engine=none")
    pg.wait_for_function("document.body.dataset.ply === '0'")
    if position:
        pg.fill("#fen", position)
        pg.click("#loadfen")
        pg.wait_for_function("([f]) => document.body.dataset.fen === f", arg=[position])


def cell(v, c: int) -> str:
    return f'g[data-cell="{v.geometry.names[c]}"]'


def ply_is(pg, n: int) -> None:
    pg.wait_for_function("([n]) => document.body.dataset.ply === n", arg=[str(n)])


# (variant, a first move by clicks (from, to), smallest cell side in CSS pixels at 1280x800)
GAMES = [("xxl", "g1f3", 45), ("omega", "d2e4", 50), ("raumschach8", "ab1ca1", 24),
         ("glinski", "e1e2", 30), ("mccooey", "f4f5", 30), ("chushogi", "e4e5", 50)]


@pytest.mark.parametrize("name,first,side", GAMES)
def test_new_board_opens_plays_and_engine_answers(page, name, first, side):
    v = variants.get(name)
    pos = v.start_position()
    open_game(page, name)
    n = len(v.geometry.names)
    assert page.locator("#board g[data-cell]").count() == n
    # legible: every cell at least `side` pixels across, the board inside the window
    box = page.locator("#board svg").bounding_box()
    assert box["x"] + box["width"] <= 1280 and box["y"] + box["height"] <= 800
    small = page.evaluate("""Math.min(...[...document.querySelectorAll('#board g[data-cell] .cell')]
        .map((e) => { const r = e.getBoundingClientRect(); return Math.min(r.width, r.height); }))""")
    assert small >= side, small
    m = parse_move(v, legal_moves(pos), first)
    page.click(cell(v, (m >> FROM_SHIFT) & CELL))
    page.click(cell(v, m & CELL))
    pos.make(m)
    ply_is(page, 1)
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    page.fill("#depth", "1")
    page.click("#go")
    ply_is(page, 2)
    played = page.locator("#moves span").nth(1).get_attribute("data-move")
    pos.make(parse_move(v, legal_moves(pos), played))
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)


# a Sente Lion on g6 with a Gote pawn beside it on f7 (a Lion can take it and go on)
LION = "k11/12/12/12/12/5p6/6N5/12/12/12/12/11K w 0 1"


def lion_moves(v, pos) -> dict[str, int]:
    return {move_text(v, m): m for m in legal_moves(pos)}


def test_chu_lion_two_leg_moves_by_clicks(page):
    v = variants.get("chushogi")
    pos = parse_position(v, LION)
    texts = lion_moves(v, pos)
    assert {"g6f7f8", "g6f7g6", "g6g6", "g6f7"} <= set(texts)
    for clicks, text in [(["g6", "f7", "f8"], "g6f7f8"),    # take in passing, go on
                         (["g6", "f7", "g6"], "g6f7g6"),    # igui: take and come back
                         (["g6", "f7", "f7"], "g6f7")]:     # take and stop there
        open_game(page, "chushogi", LION)
        page.click('g[data-cell="g6"]')
        dests = page.evaluate("[...document.querySelectorAll('.cell.dest')].map((e) => e.parentNode.dataset.cell)")
        assert "f7" in dests and "f8" in dests         # f8 one-leg as well
        page.click('g[data-cell="f7"]')
        assert page.evaluate("document.body.dataset.via") == "f7"
        ends = set(page.evaluate("[...document.querySelectorAll('.cell.dest')].map((e) => e.parentNode.dataset.cell)"))
        # the moves through f7: each cell the second leg reaches, the Lion's own and f7 itself
        assert ends == {t[4:] for t in texts if t.startswith("g6f7") and len(t) > 4} | {"f7"}
        page.click(f'g[data-cell="{clicks[2]}"]')
        ply_is(page, 1)
        after = pos.copy()
        after.make(texts[text])
        assert page.evaluate("document.body.dataset.fen") == format_position(after)
        assert page.get_attribute("#moves span", "data-move") == text
    # a pass: the Lion's own cell offers it in the chooser, not played by the click alone
    open_game(page, "chushogi", LION)
    page.click('g[data-cell="g6"]')
    page.click('g[data-cell="g6"]')
    assert page.evaluate("document.body.dataset.ply") == "0"
    page.click('#choices button[data-move="g6g6"]')
    ply_is(page, 1)
    after = pos.copy()
    after.make(texts["g6g6"])
    assert page.evaluate("document.body.dataset.fen") == format_position(after)


def test_chu_pieces_drawn_with_their_kanji(page):
    open_game(page, "chushogi")

    def kanji(tok: str) -> str:
        return page.locator(f'#legend [data-piece="{tok}"] text').first.text_content()
    # Chu's own names; its Promoted Silver moves as a Vertical Mover (shogi's would be 全)
    assert [kanji(t) for t in ["N", "Q", "V", "+S", "+H", "+P", "K"]] == \
        ["獅", "奔", "竪", "竪", "鷹", "と", "玉"]
    assert page.locator('#board [data-piece="N"] text').text_content() == "獅"
    assert "promoted" in page.get_attribute('#legend [data-piece="+S"]', "class")


def test_board_with_holes_labels_every_file_and_rank():
    """Omega's first rank is only its two wizard corners: files b..k are labelled on rank 2,
    ranks 2..11 on file b (each file's lowest cell, each rank's leftmost)."""
    v = variants.get("omega")
    cells = geometry_description(v)["cells"]
    files = {c["name"]: c["file_label"] for c in cells if "file_label" in c}
    ranks = {c["name"]: c["rank_label"] for c in cells if "rank_label" in c}
    assert files == {"a1": "a", "l1": "l", **{f + "2": f for f in "bcdefghijk"}}
    assert ranks == {"a1": "1", "a12": "12", **{f"b{r}": str(r) for r in range(2, 12)}}
    chess = {c["name"] for c in geometry_description(variants.get("chess"))["cells"]
             if "file_label" in c}
    assert chess == {f + "1" for f in "abcdefgh"}
