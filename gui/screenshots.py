"""`python -m gui.screenshots [OUTDIR]`: PNGs of the board of each family, taken from the
running app in headless Chromium (Debian's package, driven by Playwright)."""
from __future__ import annotations

import sys
from pathlib import Path

from .live import LiveServer

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BOARDS = ["chess", "knavish", "shogi", "elefantnichtschach", "nested-a", "notake-tow", "alice"]
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
            page.goto(f"{server.url}?variant={name}")
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
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
