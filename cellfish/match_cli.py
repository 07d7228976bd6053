"""`cellfish match`: the command line of the tournament runner (the work is in `match/`)."""
from __future__ import annotations

import argparse
import os
import signal
import sys
import time

EPILOG = """\
engine settings (cutechess-like key=value, after --engine; --each applies to every engine):
  cmd="PROGRAM ARGS"   the command (found on PATH or next to the running Python)
  name=NAME            shown in the table and records (default: the program's name)
  proto=uci|usi|xboard|auto  protocol (auto: USI for shogi, UCI otherwise; xboard: CECP v2)
  option.NAME=VALUE    setoption sent after the handshake (e.g. option.Hash=32)
  tc=60+0.6 st=0.1 depth=N nodes=N   this engine's own limits (override the match's)
  dir=PATH env.VAR=VALUE             working directory, environment

example:
  cellfish match --variant elefantnichtschach --engine cmd=cellfish name=d1 depth=1 \\
      --engine cmd=cellfish name=d2 depth=2 --games 10 --concurrency 2 --max-plies 200
"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="cellfish match", description=(
        "Play engines against each other in a variant; the rules core referees every move."),
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", default="chess", help="variant name (default chess)")
    p.add_argument("--variants", action="append", default=[], metavar="FILE",
                   help="a variants file (Fairy-Stockfish's format) to load, for a variant it "
                        "defines; each engine gets it as option VariantPath (may be repeated)")
    p.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                   help="an engine: cmd=... [name=...] [option.X=Y] ... (two or more)")
    p.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                   help="settings added to every engine")
    g = p.add_argument_group("time control (one of --tc/--movetime; --depth/--nodes may be added)")
    g.add_argument("--tc", help="clock in seconds: BASE[+INC] or BASE+bBYOYOMI (e.g. 10+0.1, 30+b1)")
    g.add_argument("--movetime", type=int, metavar="MS", help="fixed time per move")
    g.add_argument("--depth", type=int, help="search depth per move")
    g.add_argument("--nodes", type=int, help="nodes per move")
    g.add_argument("--time-margin", type=int, default=200, metavar="MS",
                   help="grace before a time loss (default 200)")
    g.add_argument("--stall", type=float, default=60.0, metavar="S",
                   help="an untimed move or isready unanswered this long is a stall (default 60)")
    g.add_argument("--handshake", type=float, default=15.0, metavar="S",
                   help="uciok/usiok within this many seconds (default 15)")
    p.add_argument("--games", type=int, default=2, help="games per pairing, colours alternate (default 2)")
    p.add_argument("--tournament", choices=("round-robin", "gauntlet"), default="round-robin",
                   help="with more than two engines (gauntlet: the first against each other)")
    o = p.add_argument_group("openings")
    o.add_argument("--openings", metavar="FILE", help="one position per line (optionally '... moves m1 m2')")
    o.add_argument("--random-plies", type=int, default=0, metavar="N", help="N random plies from the start")
    o.add_argument("--seed", type=int, default=1, help="seed of the random openings (default 1)")
    p.add_argument("--max-plies", type=int, default=400,
                   help="draw after this many engine plies (0 = no limit; default 400)")
    p.add_argument("--concurrency", type=int, default=1, help="games at once in local processes")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the games on a Dask cluster (tcp://host:8786); pip install 'cellfish[dask]'")
    p.add_argument("--records", metavar="FILE", help="JSON lines, one game per line (default match-<time>.jsonl)")
    p.add_argument("--pgn", metavar="FILE", help="PGN file (2D variants)")
    p.add_argument("--sprt", nargs=4, type=float, metavar=("ELO0", "ELO1", "ALPHA", "BETA"),
                   help="stop when the SPRT decides (two engines)")
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr (default: when stderr is a terminal)")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    p.add_argument("--event", default="cellfish match", help="PGN Event tag")
    return p


class ProgressBar:
    def __init__(self, stream=None, width: int = 30):
        self.stream = stream or sys.stderr
        self.width = width
        self.t0 = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int, result) -> None:
        frac = done / total if total else 1.0
        fill = int(self.width * frac)
        el = time.monotonic() - self.t0
        eta = (el / done * (total - done)) if done else 0.0
        w = d = l = 0
        for ps in result.pairs.values():
            w, d, l = w + ps.w, d + ps.d, l + ps.l
        extra = f" +{w} ={d} -{l}" if len(result.engines) == 2 else ""
        line = (f"\r[{'#' * fill}{'.' * (self.width - fill)}] {done}/{total} games{extra}"
                f"  {_clock(el)} elapsed, {_clock(eta)} left ")
        self.stream.write(line)
        self.stream.flush()
        self.shown = True

    def end(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _clock(s: float) -> str:
    s = int(s)
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def _terminated(signum, frame):
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    from match import ConfigError, MatchConfig, TimeControl, parse_engine, parse_tc, run_match
    from match.runner import dask_executor, games_per_minute

    args = build_parser().parse_args(argv)
    try:
        if len(args.engine) < 2:
            raise ConfigError("give at least two --engine")
        engines = [parse_engine(toks + args.each, i) for i, toks in enumerate(args.engine)]
        if not args.scheduler:    # on a cluster the programs live on the workers
            import shutil
            for e in engines:
                if not (os.path.exists(e.cmd[0]) or shutil.which(e.cmd[0])):
                    raise ConfigError(f"engine program not found ({e.cmd[0]})")
        if args.tc and args.movetime is not None:
            raise ConfigError("give either --tc or --movetime")
        tc = parse_tc(args.tc) if args.tc else TimeControl()
        tc = TimeControl(tc.base_ms, tc.inc_ms, tc.byoyomi_ms, args.movetime, args.depth, args.nodes)
        records = args.records or time.strftime("match-%Y%m%d-%H%M%S.jsonl")
        cfg = MatchConfig(
            variant=args.variant, engines=engines, tc=tc, games=args.games,
            tournament=args.tournament, openings=args.openings, random_plies=args.random_plies,
            seed=args.seed, max_plies=args.max_plies or None, concurrency=args.concurrency,
            time_margin_ms=args.time_margin, stall_s=args.stall, handshake_s=args.handshake,
            sprt=tuple(args.sprt) if args.sprt else None, records=records, pgn=args.pgn,
            event=args.event, variant_files=tuple(args.variants))
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        bar = ProgressBar() if show else None
        client = None
        executor = None
        if args.scheduler:
            executor, client = dask_executor(args.scheduler)
        # SIGTERM (a tournament manager or a service stopping the run) ends it as Ctrl-C
        # does: the games so far are kept, and the workers and their engines are stopped
        old_term = signal.signal(signal.SIGTERM, _terminated)
        try:
            result = run_match(cfg, executor=executor, progress=bar)
        finally:
            signal.signal(signal.SIGTERM, old_term)
            if bar:
                bar.end()
            if client is not None:
                client.close()
    except ConfigError as e:
        print(f"cellfish match: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"cellfish match: {e}", file=sys.stderr)
        return 2
    print(f"{cfg.variant}: {len(result.records)} games in {result.elapsed_s:.1f} s "
          f"({games_per_minute(result):.1f} games/min)")
    print(result.table())
    from match.records import pgn_fits
    pgn_note = ""
    if args.pgn:
        pgn_note = (f", PGN: {os.path.abspath(args.pgn)}" if pgn_fits(cfg.variant)
                    else " (no PGN: the variant is not 2D)")
    print(f"records: {os.path.abspath(records)}{pgn_note}")
    return 130 if result.interrupted else 0
