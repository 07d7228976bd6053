"""Playing on the board in a real Chromium (Debian's, through Playwright) as a person would,
at 1280x800 and on a 390x844 touch screen: the engine answering by default, variations kept,
choices drawn as pieces over the board, check and acted-on highlights, a clocked game lost on
time, resign / draw offer / takeback, animation and premoves, the evaluation bar and graph
from White's view, coordinates on lattice and 3D boards, the legend and the piece drawings.
Every position the page shows is checked against the rules core."""
from __future__ import annotations

import json

import pytest
from gui_helpers import browser_and_live_server
from test_gui_browser import WAIT_MS, click_move, open_game, reach

import variants
from engine.movegen import legal_moves
from engine.moves import ACTED_SHIFT, CELL, FISSION, FROM_SHIFT, FROM_TO, acted_of
from engine.notation import format_position, parse_move, parse_position
from gui.describe import piece_moves

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser_and_server():
    with browser_and_live_server(max_tabs=16) as both:
        yield both


def new_page(browser_and_server, phone: bool = False):
    """A page in a fresh context (its own storage): desktop, or a phone with touch."""
    browser, server = browser_and_server
    ctx = browser.new_context(viewport=PHONE if phone else DESKTOP, has_touch=phone,
                              is_mobile=phone)
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    pg.base_url = server.url
    return pg


@pytest.fixture
def page(browser_and_server):
    pg = new_page(browser_and_server)
    yield pg
    pg.context.close()


@pytest.fixture
def phone(browser_and_server):
    pg = new_page(browser_and_server, phone=True)
    yield pg
    pg.context.close()


def ply(pg) -> int:
    return int(pg.evaluate("document.body.dataset.ply"))


def wait_ply(pg, n: int) -> None:
    pg.wait_for_function("([n]) => document.body.dataset.ply === String(n)", arg=[n])


def page_moves(pg) -> list[str]:
    return pg.eval_on_selector_all("#moves span", "ss => ss.map(s => s.dataset.move)")


def core_fen(name: str, moves: list[str], start: str | None = None) -> str:
    v = variants.get(name)
    pos = parse_position(v, start) if start else v.start_position()
    for t in moves:
        pos.make(parse_move(v, legal_moves(pos), t))
    return format_position(pos)


def tap(pg, cell: str) -> None:
    pg.tap(f'g[data-cell="{cell}"]')


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_the_engine_answers_by_default(browser_and_server, device):
    """A first visit: the engine plays Black, so 1.e4 gets an answer; choosing the side whose
    turn it is starts the engine at once; another variant in the list starts a new game."""
    pg = new_page(browser_and_server, phone=device == "phone")
    try:
        pg.goto(pg.base_url + "?variant=chess")
        wait_ply(pg, 0)
        assert pg.input_value("#engineside") == "1"
        pg.fill("#depth", "1")
        click = tap if device == "phone" else (lambda p, c: p.click(f'g[data-cell="{c}"]'))
        click(pg, "e2")
        click(pg, "e4")
        wait_ply(pg, 2)                      # the engine's answer, at once
        moves = page_moves(pg)
        assert moves[0] == "e2e4"
        assert pg.evaluate("document.body.dataset.fen") == core_fen("chess", moves)
        below = pg.locator('g[data-cell="e1"]').bounding_box()["y"]
        pg.select_option("#engineside", "0")  # White, whose turn it is: the engine moves
        wait_ply(pg, 3)
        # and the person, now Black, has Black's side at the bottom
        assert pg.locator('g[data-cell="e1"]').bounding_box()["y"] < below
        moves = page_moves(pg)
        assert pg.evaluate("document.body.dataset.fen") == core_fen("chess", moves)
        pg.select_option("#variant", "shogi")  # no "New" pressed: a new game of shogi
        pg.wait_for_function("document.body.dataset.variant === 'shogi'")
        # the engine plays Sente (side 0), whose turn it is: it starts on the new game too
        wait_ply(pg, 1)
        assert pg.evaluate("document.body.dataset.fen") == core_fen("shogi", page_moves(pg))
    finally:
        pg.context.close()


def test_playing_from_an_earlier_move_keeps_a_variation(page):
    open_game(page, "chess")
    v = variants.get("chess")
    pos = v.start_position()
    for t in ["e2e4", "e7e5", "g1f3"]:
        click_move(page, v, pos, parse_move(v, legal_moves(pos), t))
    page.click('#moves span[data-ply="1"]')
    wait_ply(page, 1)
    page.click('g[data-cell="c7"]')
    page.click('g[data-cell="c5"]')
    wait_ply(page, 2)
    assert page_moves(page) == ["e2e4", "c7c5"]
    assert page.evaluate("document.body.dataset.fen") == core_fen("chess", ["e2e4", "c7c5"])
    kept = page.locator("#moves div.var a.vm")
    assert kept.all_text_contents() == ["e5", "Nf3"]      # the old line, in SAN, kept
    assert "1... e5 2. Nf3" in page.text_content("#moves div.var")
    page.click('#moves a.vm[data-move="g1f3"]')            # back into it
    wait_ply(page, 3)
    assert page_moves(page) == ["e2e4", "e7e5", "g1f3"]
    assert page.locator("#moves div.var a.vm").all_text_contents() == ["c5"]
    page.goto(page.base_url)                                # kept across a reload
    wait_ply(page, 3)
    assert page.locator("#moves div.var a.vm").all_text_contents() == ["c5"]
    assert page.evaluate("document.body.dataset.fen") == core_fen("chess", ["e2e4", "e7e5", "g1f3"])
    page.click('#moves span[data-ply="2"]')
    wait_ply(page, 2)
    page.click('g[data-cell="f1"]')
    page.click('g[data-cell="c4"]')
    wait_ply(page, 3)
    assert page.locator("#moves div.var a.vm").all_text_contents() == ["c5", "Nf3"]
    page.click("#takeback")                 # gone, not kept; the line past the end shown once
    wait_ply(page, 2)
    assert page_moves(page) == ["e2e4", "e7e5"]
    assert page.locator("#moves div.var").count() == 2
    assert page.locator("#moves div.var a.vm").all_text_contents() == ["c5", "Nf3"]


def test_copy_buttons(browser_and_server):
    browser, server = browser_and_server
    ctx = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    pg = ctx.new_page()
    pg.set_default_timeout(WAIT_MS)
    pg.base_url = server.url
    try:
        open_game(pg, "chess")
        pg.click('g[data-cell="e2"]')
        pg.click('g[data-cell="e4"]')
        wait_ply(pg, 1)
        got = {}
        for what, button in [("position", "#copyfen"), ("PGN", "#copypgn"),
                             ("JSON record", "#copyjson"), ("link", "#copylink")]:
            pg.evaluate("delete document.body.dataset.copied")
            pg.click(button)
            pg.wait_for_function("([w]) => document.body.dataset.copied === w", arg=[what])
            got[what] = pg.evaluate("navigator.clipboard.readText()")
        assert got["position"] == core_fen("chess", ["e2e4"])
        assert "1. e4" in got["PGN"] and '[Result "*"]' in got["PGN"]
        assert json.loads(got["JSON record"])["moves"] == ["e2e4"]
        assert got["link"].endswith("?variant=chess&moves=e2e4")
    finally:
        ctx.close()


def overlaps(a, b) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_promotion_chosen_from_pieces_over_the_board(browser_and_server, device):
    pg = new_page(browser_and_server, phone=device == "phone")
    try:
        fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"
        open_game(pg, "chess", fen)
        click = tap if device == "phone" else (lambda p, c: p.click(f'g[data-cell="{c}"]'))
        click(pg, "a7")
        click(pg, "a8")
        chooser = pg.locator("#choices")
        chooser.wait_for(state="visible")
        buttons = pg.locator("#choices button[data-move]")
        assert buttons.evaluate_all("bs => bs.map(b => b.dataset.move)") == [
            "a7a8q", "a7a8r", "a7a8b", "a7a8n"]
        # each choice drawn as the piece it makes, over the board at the promotion cell
        assert pg.locator("#choices button [data-piece]").evaluate_all(
            "ps => ps.map(p => p.dataset.piece)") == ["Q", "R", "B", "N"]
        assert overlaps(chooser.bounding_box(), pg.locator('g[data-cell="a8"]').bounding_box())
        if device == "phone":
            pg.tap('#choices button[data-move="a7a8n"]')
        else:
            pg.click('#choices button[data-move="a7a8n"]')
        wait_ply(pg, 1)
        assert pg.evaluate("document.body.dataset.fen") == core_fen("chess", ["a7a8n"], fen)
        assert pg.locator('g[data-cell="a8"] [data-piece="N"]').count() == 1
        assert not chooser.is_visible()
    finally:
        pg.context.close()


def test_fission_choices_drawn_and_their_cells_shown(page):
    """Ninepiece: a fused piece moved whole or split; each choice is drawn as what it leaves
    on the target, the cell where the other part stays written under it and highlighted."""
    v, pos, m = reach("ninepiece-nichtschach", lambda v, p, m, L: bool(m & FISSION) and sum(
        o & FROM_TO == m & FROM_TO for o in L) > 1)
    open_game(page, "ninepiece-nichtschach", format_position(pos) if pos.history else None)
    shared = [o for o in legal_moves(pos) if o & FROM_TO == m & FROM_TO]
    frm, to = v.geometry.names[shared[0] >> FROM_SHIFT & CELL], v.geometry.names[shared[0] & CELL]
    page.click(f'g[data-cell="{frm}"]')
    page.click(f'g[data-cell="{to}"]')
    page.locator("#choices").wait_for(state="visible")
    assert page.locator("#choices button[data-move]").count() == len(shared)
    split = page.locator("#choices button[data-move*='/']").first
    text = split.get_attribute("data-move")
    split.hover()
    assert page.locator(f'g[data-cell="{frm}"] .cell.choicecell').count() == 1
    assert frm in split.text_content()
    split.click()
    wait_ply(page, 1)
    assert page.evaluate("document.body.dataset.fen") == core_fen(
        "ninepiece-nichtschach", [text], format_position(pos))


def test_notake_acted_on_cell_highlighted_and_check(page):
    v = variants.get("notake-withdraw")
    pos = v.start_position()
    open_game(page, "notake-withdraw")
    for t in ["b3b4", "b7b6"]:
        click_move(page, v, pos, parse_move(v, legal_moves(pos), t))
    acting = next(m for m in legal_moves(pos) if (m >> ACTED_SHIFT) & CELL)
    click_move(page, v, pos, acting)
    acted = v.geometry.names[acted_of(acting)]
    assert page.locator("#board .cell.acted").evaluate_all(
        "cs => cs.map(c => c.closest('g').dataset.cell)") == [acted]
    # check: the king's cell marked while its side is in check
    open_game(page, "chess", "4k3/8/8/8/8/8/8/4K2R w - - 0 1")
    page.click('g[data-cell="h1"]')
    page.click('g[data-cell="h8"]')
    wait_ply(page, 1)
    assert page.evaluate("document.body.dataset.check") == "e8"
    assert page.locator('g[data-cell="e8"] .cell.check').count() == 1
    page.click('g[data-cell="e8"]')
    page.click('g[data-cell="e7"]')
    wait_ply(page, 2)
    assert page.locator("#board .cell.check").count() == 0


def test_a_clocked_game_lost_on_time(page):
    """A time control chosen at New game: the engine is given the clocks (wtime/btime ...),
    the person's clock runs out and the banner says who won; the record says so too."""
    page.goto(page.base_url + "?variant=chess&engine=1")
    wait_ply(page, 0)
    page.fill("#tc", "0.1+1")                      # six seconds each, one second a move
    page.click("#newgame")
    wait_ply(page, 0)
    assert page.get_attribute("#clock0", "data-ms") == "6000"
    page.click('g[data-cell="e2"]')
    page.click('g[data-cell="e4"]')
    page.wait_for_function("document.getElementById('thinking').textContent.includes('wtime')")
    assert "binc 1000" in page.text_content("#thinking")
    wait_ply(page, 2)
    white = int(page.get_attribute("#clock0", "data-ms"))
    assert 6000 < white <= 7000                    # the increment after White's move
    page.wait_for_function("document.getElementById('result').textContent", timeout=20000)
    assert page.text_content("#result") == "Black wins: White's time is up"
    assert page.get_attribute("#clock0", "data-ms") == "0"
    page.click("#export")
    page.wait_for_function("document.getElementById('record').value.length > 0")
    assert json.loads(page.input_value("#record"))["result"] == "0-1"


def test_takeback_draw_offer_and_resign(page):
    page.goto(page.base_url + "?variant=chess&engine=1")
    wait_ply(page, 0)
    page.fill("#depth", "2")
    page.click('g[data-cell="e2"]')
    page.click('g[data-cell="e4"]')
    wait_ply(page, 2)
    page.wait_for_function("!document.body.dataset.thinking")
    page.click("#takeback")                        # the person's move and the answer
    wait_ply(page, 0)
    assert page_moves(page) == []
    page.click('g[data-cell="d2"]')
    page.click('g[data-cell="d4"]')
    wait_ply(page, 2)
    page.wait_for_function("!document.body.dataset.thinking")
    white_view = page.evaluate("document.body.dataset.eval")
    page.click("#offer")
    page.wait_for_function("document.body.dataset.offer")
    # the engine (Black) takes a draw when its own last score is within 0.30 pawns
    level = white_view.startswith(("+", "-")) and abs(float(white_view)) <= 0.30
    assert page.evaluate("document.body.dataset.offer") == ("accepted" if level else "declined")
    if level:
        assert page.text_content("#result") == "Draw: agreed"
        return
    page.click("#resign")
    page.wait_for_function("document.getElementById('result').textContent")
    assert page.text_content("#result") == "Black wins: White resigns"


def test_animation_and_a_premove(page):
    page.goto(page.base_url + "?variant=chess&engine=1")
    wait_ply(page, 0)
    page.fill("#depth", "")
    page.fill("#movetime", "1500")
    page.click('g[data-cell="e2"]')
    page.click('g[data-cell="e4"]')
    page.wait_for_function("document.body.dataset.animated === 'e2e4'")
    page.wait_for_function("document.body.dataset.thinking")
    page.click('g[data-cell="g1"]')                # the engine's turn: a premove
    page.click('g[data-cell="f3"]')
    assert page.evaluate("document.body.dataset.premove") == "g1f3"
    assert page.locator("#board .cell.pre").count() == 2
    wait_ply(page, 3)                              # the engine moved, the premove was played
    moves = page_moves(page)
    assert moves[0] == "e2e4" and moves[2] == "g1f3"
    page.wait_for_function("!document.body.dataset.thinking || document.body.dataset.ply > 3")
    assert page.evaluate("document.body.dataset.premove") == ""


def test_evaluation_bar_and_graph_from_whites_view(page):
    """Black to move a queen down: the engine's score is for Black (negative), the page shows
    it from White's view (positive), the bar mostly white, a point on the graph."""
    open_game(page, "chess", "6k1/8/8/8/8/8/8/KQ6 b - - 0 1")
    page.fill("#movetime", "")
    page.fill("#depth", "3")
    page.click("#analyse")
    page.wait_for_function("document.body.dataset.eval")
    page.wait_for_function("!document.body.dataset.thinking")
    shown = page.evaluate("document.body.dataset.eval")
    assert shown.startswith("+") or shown.startswith("#") and not shown.startswith("#-")
    assert "score +" in page.text_content("#analysis") or "score #" in page.text_content("#analysis")
    fill = page.evaluate("parseFloat(document.getElementById('evalfill').style.height)")
    assert fill > 80
    assert int(page.get_attribute("#graph", "data-points")) >= 1


def test_coordinates_on_lattice_and_3d_boards(page):
    open_game(page, "nested-a")
    edge = page.locator("#board text.coord.edge").all_text_contents()
    assert edge == list("abcdefghijklmnopq") + [str(r) for r in range(1, 18)]
    svg = page.locator("#board svg").bounding_box()
    page.click("#flip")                        # flipped: still inside the drawing
    for box in [page.locator("#board text.coord.edge").nth(k).bounding_box() for k in (0, 33)]:
        assert svg["x"] <= box["x"] and box["x"] + box["width"] <= svg["x"] + svg["width"]
        assert svg["y"] <= box["y"] and box["y"] + box["height"] <= svg["y"] + svg["height"]
    page.click("#flip")
    open_game(page, "elefantnichtschach")
    edge = page.locator("#board text.coord.edge").all_text_contents()
    assert edge == (list("abcdef") + list("123456")) * 6
    # the slices as a grid filling the space: cells larger than the old one-row 22 px
    assert page.locator('g[data-cell="ua1"]').bounding_box()["width"] > 35


def test_legend_and_piece_drawings(page):
    open_game(page, "chess")
    assert page.locator("#board text.glyph").count() == 32      # chess glyphs, not letters
    page.click('#legend button[data-legend="N"]')
    page.wait_for_function("document.body.dataset.legend === 'N'")
    want = piece_moves(variants.get("chess"), "N")
    dots = page.locator("#board .lmove").evaluate_all(
        "ds => ds.map(d => d.closest('g').dataset.cell).sort()")
    names = variants.get("chess").geometry.names
    assert dots == sorted(names[c] for c in want["moves"])
    assert page.locator("#board [data-piece]").count() == 1      # on an empty board
    page.click('#legend button[data-legend="P"]')
    page.wait_for_function("document.body.dataset.legend === 'P'")
    assert page.locator("#board .lcap").count() == 2            # the pawn's captures only
    page.click('g[data-cell="a1"]')                             # back to the game
    page.wait_for_function("!document.body.dataset.legend")
    assert page.locator("#board [data-piece]").count() == 32
    open_game(page, "shogi")
    assert page.locator("#board path.koma").count() == 40       # shogi pieces as pentagons


def test_phone_layout_fills_the_width(phone):
    phone.goto(phone.base_url + "?variant=chess&engine=none")
    wait_ply(phone, 0)
    box = phone.locator("#board svg").bounding_box()
    assert box["width"] >= 330 and box["x"] + box["width"] <= 390
    tap(phone, "g1")
    tap(phone, "f3")
    wait_ply(phone, 1)
    assert page_moves(phone) == ["g1f3"]


def test_3d_move_list_in_readable_notation(page):
    open_game(page, "elefantnichtschach")
    page.click('g[data-cell="ub2"]')
    page.click('g[data-cell="ub3"]')
    wait_ply(page, 1)
    item = page.locator('#moves span[data-ply="1"]')
    assert item.get_attribute("data-move") == "ub2ub3" and item.text_content() == "P ub2-ub3"
