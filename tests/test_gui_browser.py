"""The board in a real headless Chromium (Debian's package, driven by Playwright through
``executable_path``): moves made by clicking as a person would, each resulting position text
checked against the rules core."""
from __future__ import annotations

import json

import psutil
import pytest
from gui_helpers import LiveServer, served_page

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine.moves import ACTED_SHIFT, CELL, FISSION, FROM_SHIFT, FROM_TO, is_drop
from engine.notation import format_position, move_text, parse_move, parse_position
from gui.describe import geometry_description, move_description
from match.records import san

WAIT_MS = 30000


@pytest.fixture(scope="module")
def page():
    with served_page({"width": 1600, "height": 1000}, WAIT_MS) as pg:
        yield pg


def open_game(pg, name: str, position: str | None = None) -> None:
    pg.goto(pg.base_url + "?variant=" + name + "&engine=none")      # two players, no engine
    pg.wait_for_function("document.body.dataset.ply === '0'")
    if position:
        pg.fill("#fen", position)
        pg.click("#loadfen")
        pg.wait_for_function("([f]) => document.body.dataset.fen === f", arg=[position])


def click_move(pg, v, pos, m: int) -> None:
    """Make move `m` with the mouse, then check the page's position text against the core."""
    d = move_description(v, m)
    ply = int(pg.evaluate("document.body.dataset.ply"))

    def cell(c: int) -> str:
        return f'g[data-cell="{v.geometry.names[c]}"]'

    if d["drop"] is not None:
        tok = v.piece_types[d["drop"]].token
        tok = tok if pos.side == 0 else tok.lower()
        pg.click(f'#hand{pos.side} button[data-piece="{tok}"]')
    else:
        pg.click(cell(d["from"]))
    pg.click(cell(d["to"]))
    if pg.locator(f'#choices button[data-move="{d["text"]}"]').count():
        pg.click(f'#choices button[data-move="{d["text"]}"]')
    elif d["acted"] is not None and int(pg.evaluate("document.body.dataset.ply")) == ply:
        pg.click(cell(d["acted"]))
    pos.make(m)
    pg.wait_for_function("([n]) => document.body.dataset.ply === n", arg=[str(ply + 1)])
    assert pg.evaluate("document.body.dataset.fen") == format_position(pos)


def reach(name: str, pred, max_plies: int = 60):
    """A position (reached by the core, preferring captures) where a move satisfies `pred`."""
    v = variants.get(name)
    pos = v.start_position()
    for k in range(max_plies):
        legal = legal_moves(pos)
        good = [m for m in legal if pred(v, pos, m, legal)]
        if good:
            return v, pos, good[0]
        caps = [m for m in legal if pos.board[m & CELL] and not is_drop(m)]
        pick = caps or legal
        pos.make(pick[k * 7 % len(pick)])
    raise AssertionError(f"no such move in {name}")


def play_found(pg, name: str, pred) -> str:
    v, pos, m = reach(name, pred)
    pos = pos.copy()
    open_game(pg, name, format_position(pos) if pos.history else None)
    click_move(pg, v, pos, m)
    return move_text(v, m)


def test_chess_game_to_mate_and_records(page):
    v = variants.get("chess")
    pos = v.start_position()
    open_game(page, "chess")
    for t in ["f2f3", "e7e5", "g2g4", "d8h4"]:
        click_move(page, v, pos, parse_move(v, legal_moves(pos), t))
    page.wait_for_function("document.getElementById('result').textContent.includes('checkmate')")
    page.click("#export")
    page.wait_for_function("document.getElementById('record').value.length > 0")
    rec = json.loads(page.input_value("#record"))
    assert rec["moves"] == ["f2f3", "e7e5", "g2g4", "d8h4"] and rec["result"] == "0-1"
    assert "2. g4 Qh4#" in page.text_content("#pgn")
    final = format_position(pos)
    page.click("#first")
    page.wait_for_function("document.body.dataset.ply === '0'")
    page.click("#import")          # load the exported record back: the mate again
    page.wait_for_function("document.body.dataset.ply === '4'")
    assert page.evaluate("document.body.dataset.fen") == final


def test_shogi_drop(page):
    assert "@" in play_found(page, "shogi", lambda v, p, m, L: is_drop(m))


def test_elefant_3d_move_and_return_from_hand(page):
    v = variants.get("elefantnichtschach")
    start = v.start_position()
    open_game(page, "elefantnichtschach")
    first = legal_moves(start)[0]
    click_move(page, v, start, first)
    assert "@" in play_found(page, "elefantnichtschach",
                             lambda v, p, m, L: is_drop(m))


def test_ninepiece_fission(page):
    assert "/" in play_found(page, "ninepiece-nichtschach", lambda v, p, m, L: bool(m & FISSION))


def test_notake_acting_move(page):
    assert "," in play_found(page, "notake-tow", lambda v, p, m, L: (m >> ACTED_SHIFT) & CELL > 0)


def test_nested_vertex_move(page):
    cells = geometry_description(variants.get("nested-a"))["cells"]
    play_found(page, "nested-a", lambda v, p, m, L: cells[m & CELL]["shape"] == "vertex")


def test_knavish_promotion(page):
    v = variants.get("knavish-promotion")
    pos = v.start_position()
    geo = v.geometry
    top = max(c[1] for c in geo.coords)
    a9, a10 = geo.index[(0, top - 1)], geo.index[(0, top)]
    pawn = pos.board[geo.index[(0, 1)]]
    pos.clear(a10)
    pos.clear(a9)
    pos.put(a9, pawn)
    text = format_position(parse_position(v, format_position(pos)))   # castling rights tidied
    pos = parse_position(v, text)
    legal = legal_moves(pos)
    promos = [m for m in legal if (m >> FROM_SHIFT) & CELL == a9 and m & CELL == a10]
    assert len(promos) > 1
    open_game(page, "knavish-promotion", text)
    assert move_text(v, promos[-1]).endswith("+")
    click_move(page, v, pos, promos[-1])
    assert page.locator("g[data-cell=\"a10\"] .pc.promoted").count() == 1


def test_engine_move_button_and_flip(page):
    open_game(page, "shogi")
    # shogi is drawn unchecked, its sides named Sente and Gote
    assert page.locator("rect.s1").count() == 0
    assert "Sente hand" in page.text_content("#hand0")
    assert page.locator('g[data-cell="a1"] text.coord').all_text_contents() == ["9", "i"]
    assert page.locator("#engineside option[value='1']").text_content() == "gote"
    page.fill("#depth", "1")
    page.click("#go")
    page.wait_for_function("document.body.dataset.ply === '1'")
    v = variants.get("shogi")
    pos = v.start_position()
    played = page.get_attribute("#moves span", "data-move")
    pos.make(parse_move(v, legal_moves(pos), played))
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    before = page.locator('g[data-cell="a1"] rect').get_attribute("y")
    page.click("#flip")
    assert page.locator('g[data-cell="a1"] rect').get_attribute("y") != before


def choose_variant(pg, name: str) -> None:
    """Select `name` in the page's variant list and press New, as a person would."""
    pg.select_option("#variant", name)
    pg.click("#newgame")
    pg.wait_for_function("([n]) => document.body.dataset.variant === n && "
                         "document.body.dataset.ply === '0'", arg=[name])


@pytest.mark.parametrize("name", variants.builtin_names())
def test_every_seed_game_with_the_mouse_alone(page, name):
    """Select the variant, play one legal move (picked from the core's legal moves) by clicking,
    then let the engine answer at depth 1; both positions checked against the core."""
    if page.url == "about:blank":
        open_game(page, "chess")
    page.select_option("#engineside", "none")
    choose_variant(page, name)
    v = variants.get(name)
    pos = v.start_position()
    legal = legal_moves(pos)
    # a move that needs a further click (a choice or an acting cell), else a middle one
    shared = [m for m in legal if sum(o & FROM_TO == m & FROM_TO for o in legal) > 1]
    m = shared[0] if shared else legal[len(legal) // 2]
    click_move(page, v, pos, m)
    page.fill("#movetime", "")
    page.fill("#depth", "1")
    page.click("#go")
    page.wait_for_function("document.body.dataset.ply === '2'")
    answer = page.locator("#moves span").nth(1).get_attribute("data-move")
    pos.make(parse_move(v, legal_moves(pos), answer))
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)


def analyse_and_check_pv_cells(pg, name: str, position: str | None, depth: int = 2) -> str:
    """Analyse (the engine plays nothing); the cells highlighted as the PV's first move are
    the ones the rules core gives for that move text, in the searched position."""
    open_game(pg, name, position)
    v = variants.get(name)
    pos = parse_position(v, position) if position else v.start_position()
    pg.fill("#movetime", "")
    pg.fill("#depth", str(depth))
    pg.click("#analyse")
    pg.wait_for_function("document.body.dataset.pv")
    text, cells = pg.evaluate("""() => [document.body.dataset.pv,
        [...document.querySelectorAll('#board .cell.pv')].map(
            (e) => e.closest('g').dataset.cell).sort()]""")
    d = move_description(v, parse_move(v, legal_moves(pos), text))
    want = {d["to"]} if d["from"] is None else {d["from"], d["to"]}
    assert cells == sorted(v.geometry.names[c] for c in want)
    pg.wait_for_function("!document.body.dataset.thinking")
    assert pg.evaluate("document.body.dataset.pv")       # kept: the analysis changed nothing
    return text


def test_pv_highlight_chess_and_last_move(page):
    text = analyse_and_check_pv_cells(page, "chess", None)
    assert page.locator("#board .pvarrow").count() == 1
    v = variants.get("chess")
    pos = v.start_position()
    click_move(page, v, pos, parse_move(v, legal_moves(pos), text))
    assert not page.evaluate("document.body.dataset.pv")      # gone with the move
    last = sorted(page.evaluate("""() => [...document.querySelectorAll('#board .cell.last')]
        .map((e) => e.closest('g').dataset.cell)"""))
    assert last == sorted([text[:2], text[2:4]])


def test_pv_highlight_shogi_drop_targets_its_cell(page):
    assert analyse_and_check_pv_cells(page, "shogi", "4k4/9/4P4/9/9/9/9/9/4K4[G] w 0 1") == "G@e8"


def test_pv_highlight_3d_slices(page):
    analyse_and_check_pv_cells(page, "elefantnichtschach", None, depth=1)


def test_pv_highlight_nested_squares_and_vertices(page):
    analyse_and_check_pv_cells(page, "nested-a", None)


def test_load_pgn_with_setup_and_a_bad_pgn_changes_nothing(page):
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    pgn = f'[Event "?"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n3. Bb5 {{a comment}} a6 (3... Nf6) 4. Bxc6 *'
    open_game(page, "chess")
    page.fill("#record", pgn)
    page.click("#importpgn")
    page.wait_for_function("document.body.dataset.ply === '3'")
    v = variants.get("chess")
    pos = parse_position(v, fen)
    for t in ["f1b5", "a7a6", "b5c6"]:
        pos.make(parse_move(v, legal_moves(pos), t))
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    page.fill("#record", pgn.replace("Bxc6", "Bxc6 Ka1"))     # illegal: one message
    page.click("#importpgn")
    page.wait_for_function("document.getElementById('error').textContent.includes('Ka1')")
    assert page.text_content("#error").count("PGN refused") == 1
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    assert page.locator("#moves span").count() == 3


def cellfish_children() -> set[int]:
    """Running engine processes started by this test process (the server runs in it)."""
    out = set()
    for p in psutil.Process().children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and "cellfish" in " ".join(p.cmdline()):
                out.add(p.pid)
        except psutil.NoSuchProcess:
            pass
    return out


def test_closing_a_tab_ends_its_engine(page):
    open_game(page, "chess")                  # the module's own tab keeps its engine
    before = cellfish_children()
    tab = page.context.browser.new_page()
    tab.set_default_timeout(WAIT_MS)
    tab.goto(page.base_url + "?variant=shogi")
    tab.wait_for_function("document.body.dataset.ply === '0'")
    mine = cellfish_children() - before
    assert len(mine) == 1                     # one engine for the new tab
    procs = [psutil.Process(pid) for pid in mine]
    tab.fill("#movetime", "600000")           # closed while its engine is thinking
    tab.click("#analyse")
    tab.wait_for_function("document.body.dataset.thinking")
    tab.close()
    _gone, alive = psutil.wait_procs(procs, timeout=30)
    assert not alive
    assert cellfish_children() == before      # no cellfish process left but the first tab's


def test_engine_plays_both_sides_to_the_end(page):
    """From K+Q+R against K the engine plays both sides at depth 2 until the game ends; the
    page shows the end and its reason, as the rules core finds them."""
    fen = "6k1/8/8/8/8/8/8/KQ5R w - - 0 1"
    open_game(page, "chess", fen)
    page.fill("#movetime", "")
    page.fill("#depth", "2")
    page.select_option("#engineside", "both")
    page.click("#go")
    ply = 0
    while not page.text_content("#result"):
        assert ply < 100, "no end within 100 plies"
        page.wait_for_function("([n]) => document.body.dataset.ply > n || "
                               "document.getElementById('result').textContent", arg=[ply])
        ply = int(page.evaluate("document.body.dataset.ply"))
    page.select_option("#engineside", "none")
    v = variants.get("chess")
    pos = parse_position(v, fen)
    played = page.eval_on_selector_all("#moves span", "ss => ss.map(s => s.dataset.move)")
    sans = page.locator("#moves span").all_text_contents()
    assert len(played) >= 3                   # both sides moved
    for text, shown in zip(played, sans):
        legal = legal_moves(pos)
        m = parse_move(v, legal, text)
        assert shown == san(v, pos, m, legal)     # the list is in the core's SAN
        pos.make(m)
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    score, reason = game_result(pos)
    assert reason == "checkmate" and score == -1
    loser = pos.side
    assert page.text_content("#result") == ["Black", "White"][loser] + " wins: checkmate"
    assert sans[-1].endswith("#")
    # the arrow keys step back and forth through the moves
    page.evaluate("document.activeElement.blur()")     # the keys go to the page, not a field
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("([n]) => document.body.dataset.ply === String(n)",
                           arg=[len(played) - 1])
    page.keyboard.press("ArrowRight")
    page.wait_for_function("([n]) => document.body.dataset.ply === String(n)",
                           arg=[len(played)])


def test_stacked_perspective_view_of_the_cube(page):
    """The 3D board's stacked view (from the cells' coordinates): every cell a clickable
    parallelogram, moves made by clicking in it (also flipped), the PV highlighted in it; a 2D
    board has no such view."""
    name = "elefantnichtschach"
    open_game(page, name)
    page.click("#view3d")
    assert page.get_attribute("#board svg", "data-view") == "perspective"
    assert page.locator("#board polygon.cell").count() == variants.get(name).geometry.size
    v = variants.get(name)
    pos = v.start_position()
    legal = legal_moves(pos)
    click_move(page, v, pos, legal[len(legal) // 3])
    page.click("#flip")
    legal = legal_moves(pos)
    click_move(page, v, pos, legal[len(legal) // 2])
    page.fill("#movetime", "")
    page.fill("#depth", "1")
    page.click("#analyse")
    page.wait_for_function("document.body.dataset.pv")
    text, cells = page.evaluate("""() => [document.body.dataset.pv,
        [...document.querySelectorAll('#board polygon.cell.pv')].map(
            (e) => e.closest('g').dataset.cell).sort()]""")
    d = move_description(v, parse_move(v, legal_moves(pos), text))
    assert cells == sorted(v.geometry.names[c] for c in (d["from"], d["to"]) if c is not None)
    page.wait_for_function("!document.body.dataset.thinking")
    page.click("#view3d")
    assert page.get_attribute("#board svg", "data-view") == "flat"
    choose_variant(page, "chess")
    assert not page.locator("#view3d").is_visible()


def test_a_tab_beyond_max_tabs_is_told_so(page, tmp_path):
    """A second tab on a server with one engine slot says so, on a phone-sized touch screen
    as on the desktop; the first tab plays on."""
    browser = page.context.browser
    with LiveServer(max_tabs=1) as server:
        first = browser.new_page(viewport={"width": 1280, "height": 800})
        first.set_default_timeout(WAIT_MS)
        first.goto(server.url + "?variant=chess&engine=none")
        first.wait_for_function("document.body.dataset.ply === '0'")
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
        second = ctx.new_page()
        second.set_default_timeout(WAIT_MS)
        second.goto(server.url + "?variant=chess")
        second.wait_for_function("document.body.dataset.closed === 'full'")
        assert "1 tabs already have an engine" in second.inner_text("#error")
        assert second.locator("#error").is_visible()
        second.screenshot(path=str(tmp_path / "full-390.png"))
        assert first.locator('g[data-cell="e2"] [data-piece="P"]').count() == 1
        first.click('g[data-cell="e2"]')
        first.click('g[data-cell="e4"]')
        first.wait_for_function("document.body.dataset.ply === '1'")
        item = first.locator('#moves span[data-ply="1"]')
        assert item.get_attribute("data-move") == "e2e4" and item.text_content() == "e4"
        assert first.locator('g[data-cell="e4"] [data-piece="P"]').count() == 1
        ctx.close()
        first.close()


def test_game_kept_across_reloads_and_permalink(page):
    """A bare address brings back the last game (kept by the page); a permalink's moves are
    checked by the server, and a bad one refused whole with one message."""
    open_game(page, "chess")
    page.click('g[data-cell="e2"]')
    page.click('g[data-cell="e4"]')
    page.wait_for_function("document.body.dataset.ply === '1'")
    fen = page.evaluate("document.body.dataset.fen")
    link = page.get_attribute("#permalink", "href")
    assert "moves=e2e4" in link and "variant=chess" in link
    page.goto(page.base_url)
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.evaluate("document.body.dataset.fen") == fen
    page.goto(page.base_url + link)
    page.wait_for_function("document.body.dataset.ply === '1'")
    assert page.evaluate("document.body.dataset.fen") == fen
    page.goto(page.base_url + "?variant=shogi&moves=c3c4,c7c6")
    page.wait_for_function("document.body.dataset.variant === 'shogi' && "
                           "document.body.dataset.ply === '2'")
    assert page.input_value("#variant") == "shogi"
    page.goto(page.base_url + "?variant=chess&moves=e2e4,e2e4")
    page.wait_for_function("document.body.dataset.variant === 'chess' && "
                           "document.body.dataset.ply === '0'")
    assert "record refused" in page.text_content("#error")
    page.evaluate("localStorage.clear()")


def centre(pg, name: str) -> tuple[float, float]:
    box = pg.locator(f'g[data-cell="{name}"]').bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_drag_and_drop_with_mouse_and_touch(page):
    """A piece dragged with the mouse (1280x800) and with a finger (390x844, touch) onto a
    legal cell is played; dropped on an illegal cell, nothing is played."""
    page.set_viewport_size({"width": 1280, "height": 800})
    try:
        open_game(page, "chess")
        page.mouse.move(*centre(page, "e2"))
        page.mouse.down()
        page.mouse.move(*centre(page, "e3"), steps=4)
        page.mouse.move(*centre(page, "e4"), steps=4)
        page.mouse.up()
        page.wait_for_function("document.body.dataset.ply === '1'")
        assert page.get_attribute('#moves span[data-ply="1"]', "data-move") == "e2e4"
    finally:
        page.set_viewport_size({"width": 1600, "height": 1000})
    ctx = page.context.browser.new_context(viewport={"width": 390, "height": 844},
                                           has_touch=True, is_mobile=True)
    try:
        pg = ctx.new_page()
        pg.set_default_timeout(WAIT_MS)
        pg.goto(page.base_url + "?variant=chess&engine=none")
        pg.wait_for_function("document.body.dataset.ply === '0'")
        cdp = ctx.new_cdp_session(pg)

        def finger(a: str, b: str) -> None:
            (x1, y1), (x2, y2) = centre(pg, a), centre(pg, b)
            cdp.send("Input.dispatchTouchEvent",
                     {"type": "touchStart", "touchPoints": [{"x": x1, "y": y1}]})
            for k in range(1, 6):
                cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [
                    {"x": x1 + (x2 - x1) * k / 5, "y": y1 + (y2 - y1) * k / 5}]})
            cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

        finger("g1", "g4")                     # not a knight's move: nothing played
        finger("g1", "f3")
        pg.wait_for_function("document.body.dataset.ply === '1'")
        assert pg.get_attribute('#moves span[data-ply="1"]', "data-move") == "g1f3"
        assert pg.locator('g[data-cell="g1"] [data-piece]').count() == 0
    finally:
        ctx.close()


def test_stop_ends_engine_against_engine_and_errors_clear(page):
    open_game(page, "chess")
    page.fill("#movetime", "")
    page.fill("#depth", "1")
    page.select_option("#engineside", "both")
    page.click("#go")
    page.wait_for_function("document.body.dataset.ply >= 2")
    page.click("#stop")
    assert page.input_value("#engineside") == "none"
    page.wait_for_function("!document.body.dataset.thinking")
    page.fill("#fen", "not a position")
    page.click("#loadfen")
    page.wait_for_function("document.getElementById('error').textContent.includes('bad position')")
    page.click("#first")
    page.wait_for_function("document.body.dataset.ply === '0'")
    assert page.text_content("#error") == ""


def test_glinski_hexagons_in_three_colours_promotion_and_a_three_quarter_stalemate(page):
    """The hex board is drawn as 91 hexagons in three colours, no two neighbours alike; a
    promotion is chosen by clicks; a stalemate ends the game with 3/4 to White, recorded."""
    v = variants.get("glinski")
    open_game(page, "glinski")
    shades = page.evaluate("""() => [...document.querySelectorAll('#board polygon.cell')].map(
        (e) => [e.closest('g').dataset.cell, [...e.classList].find((c) => /^s[0-2]$/.test(c))])""")
    assert len(shades) == 91 and {s for _, s in shades} == {"s0", "s1", "s2"}
    colour = dict(shades)
    geo = v.geometry
    for c in range(geo.size):
        for w in ((0, 1), (1, 0), (1, -1)):
            n = geo.step(c, w)
            if n is not None:
                assert colour[geo.names[c]] != colour[geo.names[n]]
    pos = parse_position(v, "1/1P1/5/7/9/3k7/11/11/11/11/5K5 w - - 0 1")
    open_game(page, "glinski", format_position(pos))
    click_move(page, v, pos, parse_move(v, legal_moves(pos), "f10f11n"))
    stale = parse_position(v, "1/3/5/7/9/11/11/6K4/Q10/11/10k w - - 0 1")
    open_game(page, "glinski", format_position(stale))
    click_move(page, v, stale, parse_move(v, legal_moves(stale), "g4i3"))
    page.wait_for_function("document.getElementById('result').textContent.includes('3/4')")
    assert page.text_content("#result") == "White scores 3/4: stalemate"
    page.click("#export")
    page.wait_for_function("document.getElementById('record').value.length > 0")
    assert json.loads(page.input_value("#record"))["result"] == "3/4-1/4"
