"""The game of a tab: its start, its main line with the position after each ply (a message
never replays the game from the start), the shown ply, the variations kept from earlier plies,
and an ending the page decided (resignation, time, agreement)."""
from __future__ import annotations

import variants
from engine.game import points_text, result_points
from engine.movegen import legal_moves
from engine.notation import format_position, move_text, parse_position
from match.records import pgn_fits, san

from .describe import move_description, readable
from .shogi_notation import shogi_move

MAX_LINES = 64          # variations kept besides the main line


class Game:
    """The game of a tab: its start, its main line (`moves`, the position after each ply),
    the shown ply, and the other lines played from earlier plies (kept, each as its whole move
    list from the start, so it stays valid whatever the main line becomes)."""

    def __init__(self, variant_name: str, start_text: str | None = None):
        self.name = variant_name
        self.v = variants.get(variant_name)
        self.start = (parse_position(self.v, start_text) if start_text
                      else self.v.start_position())
        self.start_text = format_position(self.start)
        self.moves: list[str] = []
        self.ply = 0
        # the position after each ply, kept: a message never replays the game from the start
        self.positions = [self.start]
        self._legal: dict[int, dict] = {}      # ply -> {move text: move}, filled when asked
        self.fits = pgn_fits(variant_name)      # SAN and PGN (2D boards)
        self._san: list[str] = []               # the moves as shown (SAN on 2D), kept as played
        # games written in USI (shogi, Notake): the move list in the western shogi notation
        self.usi = self.v.notation.dialect == "usi"
        self._usi: list[str] = []
        self.lines: list[list[str]] = []        # the variations, whole move lists
        self._line_san: dict[tuple, list[tuple[str, str | None]]] = {}
        # how the main line ended when no rule ended it: (winner 0/1 or None, reason)
        self.ending: tuple[int | None, str] | None = None

    def position(self, ply: int | None = None):
        return self.positions[self.ply if ply is None else ply]

    def legal(self, ply: int | None = None) -> dict:
        ply = self.ply if ply is None else ply
        if ply not in self._legal:
            self._legal[ply] = {move_text(self.v, m): m
                                for m in legal_moves(self.positions[ply])}
        return self._legal[ply]

    def _shown(self, pos, m: int, legal: list[int]) -> tuple[str, str | None]:
        """A move as SAN on 2D boards (else the readable notation), and in the western shogi
        notation in games written in USI (else None)."""
        first = san(self.v, pos, m, legal) if self.fits else readable(self.v, pos, m)
        return first, shogi_move(self.v, pos, m, legal) if self.usi else None

    def shown_moves(self) -> list[str]:
        while len(self._san) < len(self.moves):
            k = len(self._san)
            legal = self.legal(k)
            first, second = self._shown(self.positions[k], legal[self.moves[k]],
                                        list(legal.values()))
            self._san.append(first)
            if second is not None:
                self._usi.append(second)
        return self._san

    def pv_shown(self, ply: int, pv: list[str], most: int = 24) -> list[str] | None:
        """An engine line searched at `ply` as the move list writes moves: SAN on 2D boards,
        the western shogi notation in games written in USI (its first `most` moves; None on
        other boards, or when a move is not legal where it stands: the protocol text stays)."""
        if not (self.fits or self.usi):
            return None
        pos = self.positions[ply].copy()
        out = []
        for text in pv[:most]:
            legal = self.legal(ply) if not out else {move_text(self.v, m): m
                                                    for m in legal_moves(pos)}
            if text not in legal:
                return None
            first, second = self._shown(pos, legal[text], list(legal.values()))
            out.append(second if second is not None else first)
            pos.make(legal[text])
        return out

    def san_moves(self) -> list[str] | None:
        """The moves in SAN as the match runner's PGN writes it (None where PGN does not fit,
        3D boards)."""
        return self.shown_moves() if self.fits else None

    def notation_moves(self) -> list[str] | None:
        """The moves as the move list shows them where it is not SAN: the readable notation
        of boards without SAN (3D), the western shogi notation in games written in USI;
        None elsewhere."""
        shown = self.shown_moves()
        return self._usi if self.usi else None if self.fits else shown

    def last_move(self) -> dict | None:
        if self.ply == 0:
            return None
        return move_description(self.v, self.legal(self.ply - 1)[self.moves[self.ply - 1]])

    def record(self, res) -> dict:
        """The match runner's JSON record (match/records.py) of the moves up to the shown ply."""
        score, reason = res if res else (None, "unterminated")
        moves = self.moves[: self.ply]
        if score is None and self.ending and self.ply == len(self.moves):
            winner, reason = self.ending
            result = "1/2-1/2" if winner is None else ("1-0" if winner == 0 else "0-1")
        elif score is None or score == 0:
            result = "*" if score is None else "1/2-1/2"
        else:
            pos = self.position()
            share = result_points(pos, res)
            if share not in (0, 1):             # a fractional result (Glinski's stalemate)
                result = points_text(share if pos.side == 0 else 1 - share)
            else:
                result = "1-0" if (share == 1) == (pos.side == 0) else "0-1"
        n = len(moves)
        return {"game": 0, "variant": self.name, "dialect": "uci", "start": self.start_text,
                "white": "human",
                "black": "human", "result": result, "reason": reason, "opening": [],
                "moves": moves, "scores": [None] * n, "depths": [None] * n,
                "times_ms": [None] * n}

    def play(self, text: str) -> None:
        """Play `text` at the shown ply.  The main line's own next move just steps on; another
        move starts a new main line from here, the old one kept as a variation (and a kept
        variation that goes on with this move becomes the main line again)."""
        legal = self.legal()
        if text not in legal:
            raise ValueError(f"illegal move {text!r}")
        if self.ply < len(self.moves) and self.moves[self.ply] == text:
            self.ply += 1
            return
        line = self.moves[: self.ply] + [text]
        for k, other in enumerate(self.lines):
            if other[: len(line)] == line:
                return self.switch(k, len(line))
        if self.ply < len(self.moves):
            self._keep(self.moves)
        pos = self.position().copy()
        pos.make(legal[text])
        self._truncate(self.ply)
        self.moves.append(text)
        self.positions.append(pos)
        self.ply += 1

    def _truncate(self, ply: int) -> None:
        del self.moves[ply:]
        del self.positions[ply + 1:]
        del self._san[ply:]
        del self._usi[ply:]
        for k in [k for k in self._legal if k > ply]:
            del self._legal[k]
        self.ending = None

    def _keep(self, line: list[str]) -> None:
        """Keep `line` as a variation, unless a kept line or the main line already holds it."""
        if any(other[: len(line)] == line for other in self.lines):
            return
        self.lines = [other for other in self.lines if line[: len(other)] != other]
        self.lines.append(list(line))
        del self.lines[:-MAX_LINES]

    def switch(self, index: int, ply: int) -> None:
        """Make kept line `index` the main line (the main line kept as a variation) and show its
        position after `ply` moves.  Its moves are replayed from where it leaves the main line."""
        line = self.lines[index]
        if not 0 <= ply <= len(line):
            raise ValueError("bad ply")
        common = 0
        while (common < min(len(line), len(self.moves))
               and line[common] == self.moves[common]):
            common += 1
        old = list(self.moves)
        del self.lines[index]
        self._truncate(common)
        for text in line[common:]:
            self.ply = len(self.moves)
            m = self.legal()[text]          # a kept line was legal when it was played
            pos = self.position().copy()
            pos.make(m)
            self.moves.append(text)
            self.positions.append(pos)
        if old[: len(line)] != line:
            self._keep(old)
        self.ply = ply

    def takeback(self, plies: int) -> None:
        """Take back the last `plies` moves of the main line: gone, not kept."""
        if not 1 <= plies <= len(self.moves):
            raise ValueError("nothing to take back")
        self._truncate(len(self.moves) - plies)
        self.ply = len(self.moves)

    def variations(self) -> list[dict]:
        """The kept lines as the move list shows them: each where it leaves the main line
        (`at`: the number of main-line moves before it), its moves from there and how they
        are shown (`san` on 2D boards, `notation` on 3D ones)."""
        out = []
        for k, line in enumerate(self.lines):
            at = 0
            while at < min(len(line), len(self.moves)) and line[at] == self.moves[at]:
                at += 1
            shown = self.line_shown(line, at)
            first = [a for a, _ in shown]
            out.append({"index": k, "at": at, "moves": line[at:],
                        "san": first if self.fits else None,
                        "notation": [b for _, b in shown] if self.usi
                        else None if self.fits else first})
        return sorted(out, key=lambda d: d["at"])

    def line_shown(self, line: list[str], at: int) -> list[tuple[str, str | None]]:
        """How a kept line's moves after the main line's first `at` are shown; worked out
        once per line from the main line's position where it leaves it (not from the start)."""
        key = tuple(line)
        if key not in self._line_san or len(self._line_san[key]) != len(line) - at:
            pos, out = self.positions[at].copy(), []
            for text in line[at:]:
                legal = {move_text(self.v, m): m for m in legal_moves(pos)}
                out.append(self._shown(pos, legal[text], list(legal.values())))
                pos.make(legal[text])
            self._line_san[key] = out
        return self._line_san[key]
