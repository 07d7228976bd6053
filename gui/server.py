"""`cellfish gui [--port N] [--host H] [--variants FILE] [--open] [--max-tabs N] [--idle-minutes M]
[--allow-host NAME]`: serve the board on 127.0.0.1."""
from __future__ import annotations

import argparse
import webbrowser


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="cellfish gui")
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--variants", metavar="FILE", help="a variants file to load as well")
    ap.add_argument("--open", action="store_true", help="open the default browser")
    ap.add_argument("--max-tabs", type=int, default=8, metavar="N",
                    help="engine processes at a time, one per tab (default 8)")
    ap.add_argument("--idle-minutes", type=float, default=30.0, metavar="M",
                    help="end the engine of a tab idle this long (default 30)")
    ap.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="another host name the page may be opened under (the loopback names "
                         "and --host are always allowed)")
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
    if a.max_tabs < 1 or a.idle_minutes <= 0:
        print("cellfish gui: --max-tabs and --idle-minutes must be positive")
        return 2
    app = make_app(a.variants, host=a.host, port=a.port, allow_hosts=tuple(a.allow_host),
                   max_tabs=a.max_tabs, idle_seconds=a.idle_minutes * 60)
    uvicorn.run(app, host=a.host, port=a.port, log_level="warning", ws="auto")
    return 0
