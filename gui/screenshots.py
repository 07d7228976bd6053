"""`python -m gui.screenshots [OUTDIR]`: PNGs of the board of each family, and of the whole
page in a game and on a phone, taken from the running app in headless Chromium (Debian's
package, driven by Playwright)."""
from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

from .live import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOARDS = ["chess", "knavish", "shogi", "elefantnichtschach", "nested-a", "notake-tow", "alice",
          "glinski", "xxl", "omega", "raumschach8", "chushogi"]
STACKED = ["elefantnichtschach"]        # also drawn in the stacked perspective view


def main(argv: list[str]) -> int:
    from playwright.sync_api import sync_playwright
    out = Path(argv[0] if argv else "docs/images")
    out.mkdir(parents=True, exist_ok=True)
    with LiveServer() as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.set_default_timeout(30000)
        for name in BOARDS:
            page.goto(f"{server.url}?variant={name}&engine=none")
            page.wait_for_function("document.body.dataset.ply === '0'")
            path = out / f"board-{name}.png"
            page.locator("#board svg").screenshot(path=str(path))
            print(path)
            if name in STACKED:
                page.click("#view3d")
                page.wait_for_selector('#board svg[data-view="perspective"]')
                path = out / f"board-{name}-stacked.png"
                page.locator("#board svg").screenshot(path=str(path))
                print(path)
        game_pictures(browser, server.url, out)
        browser.close()
    return 0


def game_pictures(browser, url: str, out: Path) -> None:
    """The whole page during a clocked game against the engine (1280x800), and on a phone
    (390x844, touch) at a promotion choice."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.set_default_timeout(60000)
    page.goto(f"{url}?variant=chess&engine=1")
    page.wait_for_function("document.body.dataset.ply === '0'")
    page.fill("#tc", "5+3")
    page.click("#newgame")
    page.wait_for_function("document.body.dataset.ply === '0'")
    for frm, to, ply in [("e2", "e4", 2), ("g1", "f3", 4), ("f1", "c4", 6)]:
        page.click(f'g[data-cell="{frm}"]')
        page.click(f'g[data-cell="{to}"]')
        page.wait_for_function(f"document.body.dataset.ply === '{ply}' || "
                               "document.getElementById('result').textContent")
    page.wait_for_timeout(500)
    path = out / "page-chess-game.png"
    page.screenshot(path=str(path))
    print(path)
    # shogi against the engine: the move list in shogi notation, a capture and a drop
    page.goto(f"{url}?variant=shogi&engine=none&moves="
              + quote("c3c4,g7g6,b2h8+,g9h8,B@e5,d9d8,e5h8+,B@e5"))
    page.wait_for_function("document.body.dataset.ply === '8'")
    page.select_option("#engineside", "1")
    page.click('g[data-cell="h8"]')
    page.click('g[data-cell="g9"]')
    page.wait_for_function("document.body.dataset.ply === '10' || "
                           "document.getElementById('result').textContent")
    page.wait_for_function("!document.body.dataset.thinking")
    path = out / "page-shogi-game.png"
    page.screenshot(path=str(path))
    print(path)
    page.close()
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                              is_mobile=True)
    phone = ctx.new_page()
    phone.set_default_timeout(60000)
    phone.goto(f"{url}?variant=chess&engine=none&fen=4k3/1P6/8/8/8/8/8/4K3%20w%20-%20-%200%201")
    phone.wait_for_function("document.body.dataset.ply === '0'")
    phone.tap('g[data-cell="b7"]')
    phone.tap('g[data-cell="b8"]')
    phone.wait_for_selector("#choices button")
    path = out / "page-phone-promotion.png"
    phone.screenshot(path=str(path))
    print(path)
    ctx.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
