"""A small misbehaving engine for the match runner's fault-injection tests.

    python fake_engine.py MODE [AFTER]

It speaks UCI or USI (whichever it is greeted with), appends every line it receives to the
file named by the FAKE_LOG environment variable (if set; a `{pid}` in it is replaced by this
process's id, so each engine process of a run writes its own file), plays the first legal move (by our rules
core) for AFTER moves (default 0), then misbehaves according to MODE:
  ok          never misbehaves
  illegal     answers a move that is not legal
  garbage     answers a bestmove that is not move text at all
  silent      never answers `go` (a stall)
  crash       exits with status 3 when asked to move
  slow        sleeps 3 s before answering (a time loss under a short clock)
  late        sleeps AFTER milliseconds before every move (to test the clock's arithmetic)
  flood       prints info lines without end instead of a move
  nohandshake never answers uci/usi
  noready     answers the first AFTER isready, then never again (a stall)
  deaf        stops reading its input when asked to move (the pipe to it fills up)
  variantpath knows only chess until its VariantPath option names a file; then also every
              section of that file ([name] or [name:parent]), as Fairy-Stockfish does; a
              UCI_Variant it does not know is refused and it stays on its variant
"""
from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

import variants  # noqa: E402
from engine.movegen import legal_moves  # noqa: E402
from engine.notation.move_text import move_text, parse_move  # noqa: E402
from engine.notation.position_text import parse  # noqa: E402


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else "ok"
    after = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    dialect = "uci"
    variant = None
    pos = None
    played = 0
    readies = 0
    known = {"chess"} if mode == "variantpath" else set(variants.names())
    out = sys.stdout

    def say(s):
        out.write(s + "\n")
        out.flush()

    log_name = os.environ.get("FAKE_LOG", "").replace("{pid}", str(os.getpid()))
    log = open(log_name, "a") if log_name else None
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        tok = line.split()
        if not tok:
            continue
        cmd = tok[0]
        if cmd in ("uci", "usi"):
            if mode == "nohandshake":
                continue
            dialect = cmd
            variant = "shogi" if cmd == "usi" else "chess"
            say("id name fake-" + mode)
            say(f"option name {'USI_Variant' if cmd == 'usi' else 'UCI_Variant'} type combo "
                f"default {variant} " + " ".join("var " + n for n in sorted(known)))
            if mode == "variantpath":
                say("option name VariantPath type string default <empty>")
            say(cmd + "ok")
        elif cmd == "setoption" and "value" in tok and tok[2].lower().endswith("_variant"):
            name = tok[tok.index("value") + 1]
            if name in known:
                variant = name
            else:
                say(f"info string error: unknown variant {name}")
        elif cmd == "setoption" and "value" in tok and tok[2] == "VariantPath":
            with open(" ".join(tok[tok.index("value") + 1:])) as f:
                known |= {ln.strip()[1:-1].split(":")[0] for ln in f if ln.strip().startswith("[")}
        elif cmd == "isready":
            if mode == "noready" and readies >= after:
                continue
            readies += 1
            say("readyok")
        elif cmd == "position":
            v = variants.get(variant)
            if tok[1] == "startpos":
                pos = parse(v, v.start_fen)
            else:
                end = tok.index("moves") if "moves" in tok else len(tok)
                pos = parse(v, " ".join(tok[2:end]), "sfen" if tok[1] == "sfen" else None)
            if "moves" in tok:
                for t in tok[tok.index("moves") + 1:]:
                    pos.make(parse_move(v, legal_moves(pos), t, dialect))
        elif cmd == "go":
            v = variants.get(variant)
            if mode == "late":
                time.sleep(after / 1000)
            elif played >= after and mode != "ok":
                if mode == "illegal":
                    say("bestmove a1a1" if v.geometry.dims == 2 else "bestmove ua1ua1")
                    continue
                if mode == "garbage":
                    say("bestmove ???")
                    continue
                if mode == "silent":
                    continue
                if mode == "deaf":
                    time.sleep(3600)
                if mode == "flood":
                    try:
                        while True:
                            say("info string flooding the pipe")
                    except (BrokenPipeError, OSError):
                        return 0
                if mode == "crash":
                    return 3
                if mode == "slow":
                    time.sleep(3)
            legal = legal_moves(pos)
            played += 1
            say("info depth 1 score cp 0")
            say("bestmove " + move_text(v, legal[0], dialect))
        elif cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
