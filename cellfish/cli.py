"""Console entry point: `cellfish` runs the UCI/USI loop; `cellfish bench` runs benchmarks."""
from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "bench":
        from bench.run import main as bench_main
        return bench_main(argv[1:])
    if argv and argv[0] == "match":
        from cellfish.match_cli import main as match_main
        return match_main(argv[1:])
    if argv and argv[0] == "gui":
        from gui.server import main as gui_main
        return gui_main(argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print("usage: cellfish [bench [...] | match [...] | gui [...]]   (no argument: UCI/USI on stdin/stdout)")
        return 0
    from protocol.session import Session
    if sys.stdin.isatty():
        print("cellfish - type 'uci' or 'usi', then 'help'")
    s = Session()
    s.loop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
