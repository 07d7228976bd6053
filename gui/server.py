"""`cellfish gui [--port N] [--host H] [--variants FILE] [--max-tabs N] [--idle-timeout S]
[--open]`: serve the board on 127.0.0.1."""
from __future__ import annotations

import argparse
import webbrowser


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="cellfish gui")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--variants", metavar="FILE", help="a variants file to load as well")
    ap.add_argument("--max-tabs", type=int, default=8,
                    help="engine processes running at once at most (one per tab)")
    ap.add_argument("--idle-timeout", type=float, default=1800, metavar="SECONDS",
                    help="end a tab's engine after this long without a message")
    ap.add_argument("--open", action="store_true", help="open the default browser")
    a = ap.parse_args(argv)
    try:
        import uvicorn
    except ImportError:
        print("cellfish gui needs the gui extra: pip install -e '.[gui]'")
        return 2
    if a.variants:
        import os

        import variants
        a.variants = os.path.abspath(a.variants)
        try:        # the rules core here knows them too; each engine gets VariantPath
            variants.load_file(a.variants)
        except variants.VariantFileError as e:
            for p in e.problems:
                print(p)
            return 2
    from .app import make_app
    url = f"http://{a.host}:{a.port}/"
    print(f"cellfish gui on {url}", flush=True)
    if a.open:
        webbrowser.open(url)
    app = make_app(a.variants, max_tabs=a.max_tabs, idle_timeout=a.idle_timeout,
                   bound_host=a.host)
    uvicorn.run(app, host=a.host, port=a.port, log_level="warning", ws="auto")
    return 0
