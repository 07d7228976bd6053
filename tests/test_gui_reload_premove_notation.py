"""In a real Chromium (Debian's, through Playwright): the clocks and the evaluation graph kept
across a reload mid-game, a premove that is a drop (played when legal on the person's turn,
dropped silently otherwise), and shogi's move list in the western shogi notation.  Every
position the page shows is checked against the rules core."""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from test_gui_play import (  # noqa: F401
    browser_and_server,
    core_fen,
    new_page,
    page,
    page_moves,
    wait_ply,
)

import variants
from engine.movegen import legal_moves
from engine.notation import format_position, move_text, parse_move, parse_position
from gui.shogi_notation import shogi_move


@pytest.fixture(scope="module")
def one(browser_and_server):  # noqa: F811
    """One tab for the tests below: each opens its game from the page's own controls, so the
    tab keeps its engine (no process started per test)."""
    pg = new_page(browser_and_server)
    pg.goto(pg.base_url + "?variant=chess&engine=none")
    wait_ply(pg, 0)
    yield pg
    pg.context.close()


def open_from_controls(pg, name: str, start: str | None = None) -> None:
    pg.click("#stop")                             # no search left going; the engine plays nobody
    pg.wait_for_function("!document.body.dataset.thinking")
    if pg.input_value("#variant") != name:
        pg.select_option("#variant", name)        # a new game of it
        pg.wait_for_function("([n]) => document.body.dataset.variant === n && "
                             "document.body.dataset.ply === '0'", arg=[name])
    pg.fill("#fen", start or "")
    if start:
        pg.click("#loadfen")
        pg.wait_for_function("([f]) => document.body.dataset.fen === f", arg=[start])
    else:
        pg.click("#newgame")
        wait_ply(pg, 0)


def test_clocks_and_evaluation_graph_kept_across_a_reload(page):  # noqa: F811
    page.goto(page.base_url + "?variant=chess&engine=1")
    wait_ply(page, 0)
    page.fill("#depth", "1")
    page.fill("#tc", "0.2+1")                      # 12 s each, 1 s a move: quick answers
    page.click("#newgame")
    wait_ply(page, 0)
    page.click('g[data-cell="e2"]')
    page.click('g[data-cell="e4"]')
    wait_ply(page, 2)                              # the engine answered on its clock
    page.wait_for_function("!document.body.dataset.thinking")
    page.wait_for_timeout(300)                     # White's clock has run a little
    before = {k: int(page.get_attribute(f"#clock{k}", "data-ms")) for k in (0, 1)}
    points = int(page.get_attribute("#graph", "data-points"))
    shown = page.evaluate("document.body.dataset.eval")
    assert points >= 1 and shown
    assert before[0] < 13000 and before[1] < 13000   # each moved: 12 s + 1 s, less time used
    page.reload()
    wait_ply(page, 2)
    page.wait_for_function("document.getElementById('clock0').dataset.ms")
    after = {k: int(page.get_attribute(f"#clock{k}", "data-ms")) for k in (0, 1)}
    assert after[1] == before[1]                   # Black's clock stood still
    assert after[0] < before[0] and before[0] - after[0] < 5000     # White's ran on
    assert "run" in page.get_attribute("#clock0", "class")
    assert int(page.get_attribute("#graph", "data-points")) == points
    assert page.evaluate("document.body.dataset.eval") == shown
    assert page.input_value("#tc") == "0.2+1"
    # the game goes on with those clocks: a move gives White the increment on its time
    page.click('g[data-cell="g1"]')
    page.click('g[data-cell="f3"]')
    wait_ply(page, 3)
    assert int(page.get_attribute("#clock0", "data-ms")) > after[0]
    wait_ply(page, 4)
    assert page.evaluate("document.body.dataset.fen") == core_fen("chess", page_moves(page))
    page.evaluate("localStorage.clear()")


def predrop(pg, name: str, start: str, tok: str, cell: str) -> None:
    """Load `start` (the engine's side to move), start the engine on it (for a minute), pick
    hand piece `tok` and click `cell` while it thinks, then have it move now (the protocol's
    stop, as a slow engine's move would come)."""
    open_from_controls(pg, name, start)
    pg.fill("#depth", "")
    pg.fill("#movetime", "60000")
    pg.select_option("#engineside", "1")          # its turn: it starts at once
    pg.wait_for_function("document.body.dataset.thinking")
    pg.click(f'#hand0 button[data-piece="{tok}"]')
    assert pg.locator("#hand0 button.pre").count() == 1
    pg.click(f'g[data-cell="{cell}"]')
    assert pg.evaluate("document.body.dataset.premove") == f"{tok}@{cell}"
    assert pg.locator("#board .cell.pre").count() == 1
    assert pg.evaluate("document.body.dataset.ply") == "0"    # still the engine's turn
    pg.evaluate("send({type: 'stop'})")


def test_a_drop_premove_played_when_legal(one):
    # crazyhouse, Black to move, White holds a knight: N@e5 is legal whatever Black plays
    start = "4k3/8/8/8/8/8/8/R3K3[N] b - - 0 1"
    predrop(one, "crazyhouse", start, "N", "e5")
    wait_ply(one, 2)                               # the engine's move, then the drop
    moves = page_moves(one)
    assert moves[1] == "N@e5"
    assert one.evaluate("document.body.dataset.fen") == core_fen("crazyhouse", moves, start)
    assert one.evaluate("document.body.dataset.premove") == ""


def test_an_illegal_drop_premove_dropped_silently(one):
    # shogi, Gote to move, Sente holds a pawn: a pawn on file 5, where Sente has one, is
    # never legal (two pawns on a file); the premove is dropped, no move, no error
    start = "4k4/9/9/9/9/9/4P4/9/4K4[P] b 0 1"
    v = variants.get("shogi")
    pos = parse_position(v, start)
    assert "P@e5" not in {move_text(v, m) for m in legal_moves(parse_position(
        v, "4k4/9/9/9/9/9/4P4/9/4K4[P] w 0 1"))}
    predrop(one, "shogi", start, "P", "e5")
    wait_ply(one, 1)
    one.wait_for_function("!document.body.dataset.thinking")
    one.wait_for_timeout(300)
    assert len(page_moves(one)) == 1 and one.text_content("#error") == ""
    assert one.evaluate("document.body.dataset.premove") == ""
    pos.make(parse_move(v, legal_moves(pos), page_moves(one)[0]))
    assert one.evaluate("document.body.dataset.fen") == format_position(pos)


def test_shogi_move_list_in_shogi_notation(page):  # noqa: F811
    """The move list of a shogi game reads P-7f ..., Bx2b+ ..., B*5e; each item keeps the
    protocol text; the exported record keeps the protocol moves."""
    moves = ["c3c4", "g7g6", "b2h8+", "g9h8", "B@e5"]
    page.goto(page.base_url + "?variant=shogi&engine=none&moves=" + quote(",".join(moves)))
    wait_ply(page, 5)
    items = page.locator("#moves span")
    assert items.all_text_contents() == ["P-7f", "P-3d", "Bx2b+", "Sx2b", "B*5e"]
    assert page_moves(page) == moves
    v = variants.get("shogi")
    pos = v.start_position()
    for t, shown in zip(moves, items.all_text_contents()):
        legal = legal_moves(pos)
        m = parse_move(v, legal, t)
        assert shown == shogi_move(v, pos, m, legal)
        pos.make(m)
    assert page.evaluate("document.body.dataset.fen") == format_position(pos)
    # a move played on the board is written the same way
    page.click('g[data-cell="a7"]')
    page.click('g[data-cell="a6"]')
    wait_ply(page, 6)
    assert items.nth(5).text_content() == "P-9d"
    page.click("#export")
    page.wait_for_function("document.getElementById('record').value.length > 0")
    assert json.loads(page.input_value("#record"))["moves"] == moves + ["a7a6"]


def test_a_games_pieces_drawn_alike(one):
    """The cube mixes chess pieces (rook, bishop, queen) with fairy pieces: every piece is a
    disc, the chess ones with their figure; chess alone keeps its glyphs, no discs."""
    open_from_controls(one, "elefantnichtschach")
    v = variants.get("elefantnichtschach")
    pos = v.start_position()
    chess = {"rook", "bishop", "queen", "king", "knight", "pawn"}
    on_board = [c for c in pos.board if c]
    figures = sum(v.piece_types[c >> 1].name.lower() in chess for c in on_board)
    assert figures > 0 and figures < len(on_board)
    assert one.locator("#board [data-piece]").count() == len(on_board)
    assert one.locator("#board [data-piece] circle").count() == len(on_board)
    assert one.locator("#board text.figure").count() == figures
    assert one.locator("#board text.glyph").count() == 0
    open_from_controls(one, "chess")
    assert one.locator("#board text.glyph").count() == 32
    assert one.locator("#board [data-piece] circle").count() == 0
