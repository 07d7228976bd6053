"""Console entry point: `cellfish` runs the UCI/USI loop; `cellfish match`, `cellfish bench`,
`cellfish native` and `cellfish check FILE` are subcommands; `cellfish --variants FILE` loads a variants file
before the loop starts."""
from __future__ import annotations

import sys

USAGE = ("usage: cellfish [--variants FILE] | bench [...] | match [...] | gui [...] | native [...] | check FILE...\n"
         "       cellfish --version   (the version, and whether the engine runs compiled)\n"
         "  (no subcommand: UCI/USI on stdin/stdout)")


def check(paths: list[str]) -> int:
    """Validate variants files without playing: one line per problem, naming file, line,
    section and key; exit status 1 when any file has a problem."""
    import variants
    if not paths:
        print(USAGE, file=sys.stderr)
        return 2
    bad = 0
    for path in paths:
        try:
            names = variants.load_file(path)
        except variants.VariantFileError as e:
            for p in e.problems:
                print(p)
            bad += 1
            continue
        print(f"{path}: ok ({len(names)} variants: {', '.join(names)})")
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "bench":
        from bench.run import main as bench_main
        return bench_main(argv[1:])
    if argv and argv[0] == "match":
        from cellfish.match_cli import main as match_main
        return match_main(argv[1:])
    if argv and argv[0] == "native":
        from cellfish.native import main as native_main
        return native_main(argv[1:])
    if argv and argv[0] == "check":
        return check(argv[1:])
    if argv and argv[0] == "gui":
        from gui.server import main as gui_main
        return gui_main(argv[1:])
    if argv and argv[0] in ("-V", "--version"):
        from cellfish.native import status
        from protocol.session import VERSION
        print(f"cellfish {VERSION}, engine {status()}")
        return 0
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    files = []
    while argv[:1] == ["--variants"] and len(argv) >= 2:
        files.append(argv[1])
        argv = argv[2:]
    if argv:
        print(USAGE, file=sys.stderr)
        return 2
    from protocol.xboard import CecpSession as Session
    if sys.stdin.isatty():
        print("cellfish - type 'uci', 'usi' or 'xboard', then 'help'")
    s = Session()
    for path in files:
        s.load_variants(path)          # a bad file: its error lines, and the engine serves on
    s.loop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
