"""`go perft N` (and `perft N`): the count runs in the search thread and prints, per root move,
the leaves below it, the total and the time, or what it finished when `stop` ends it early.
The command loop (``Session.loop``) keeps every command other than `stop`, `isready` and
`quit` until the count has printed its total (docs/protocol.md, "Counting")."""
from __future__ import annotations

import threading
import time

from engine.game import PerftStopped, divide
from engine.notation.move_text import move_text

from .errors import InputError


class PerftCommands:
    """The perft part of a ``Session`` (its fields are the session's)."""
    # answered at once during a `go perft`; every other command waits for the count to end
    DURING_PERFT = frozenset({"stop", "quit", "isready"})

    def cmd_perft(self, args):
        self.go_perft(args)

    def go_perft(self, args):
        self.stop_search()
        self.ensure_variant()
        if not args:
            raise InputError("perft needs a depth (perft)")
        try:
            depth = int(args[0])
        except ValueError:
            raise InputError(f"perft needs a whole-number depth ({args[0]})") from None
        if depth < 1:
            raise InputError(f"perft depth must be at least 1 ({args[0]})")
        self.stop_event = threading.Event()
        self.counting = True
        self.printing = False
        self.thread = threading.Thread(target=self.run_perft, args=(self.pos.copy(), depth),
                                       daemon=True)
        self.thread.start()

    def run_perft(self, pos, depth):
        """The count, in the search thread.  A complete count prints the divide lines, the
        total and the time; a stopped one prints the root moves finished so far, their total
        and `info string perft incomplete: stopped after K of M root moves`."""
        try:
            t0 = time.monotonic()
            stopped = None
            try:
                rows = divide(pos, depth, self.stop_event)
            except PerftStopped as e:
                rows, stopped = e.rows, e
            except Exception as e:  # never die silently in the search thread
                self.error(f"perft failed ({type(e).__name__}: {e})")
                return
            dt = time.monotonic() - t0
            self.printing = True        # counted: a command that comes now waits only for the lines below
            d = self.dialect_or_default()
            total = 0
            with self.lock:
                for m, n in rows:
                    self.out_stream.write(f"{move_text(self.variant, m, d)}: {n}\n")
                    total += n
                self.out_stream.write(f"\nNodes searched: {total}\n")
                self.out_stream.flush()
            if stopped is not None:
                self.send(f"info string perft incomplete: stopped after {len(stopped.rows)} "
                          f"of {stopped.root_moves} root moves")
            else:
                self.send(f"info string perft {depth} time {int(dt * 1000)} ms "
                          f"nps {int(total / max(dt, 1e-9))}")
        finally:
            self.counting = False

    def _counting(self) -> bool:
        """Is a `go perft` still counting?  (One that has counted and is printing its lines is
        waited for here: they come before anything a later command prints.)"""
        t = self.thread
        if not self.counting or t is None or not t.is_alive():
            return False
        if self.printing:
            t.join()
            return False
        return True

    def _wait_count(self) -> None:
        t = self.thread
        if t is not None:
            t.join()
