"""Strength ladder through python-chess: cellfish against a random mover, a one-ply greedy
mover and sunfish.  Score = (wins + draws/2) / games with a 95% error margin.

    cellfish bench match [--opponents random,greedy,sunfish,uci:<command>] [--games N]
                         [--time S] [--max-plies P] [--quick] [--pgn FILE]
"""
from __future__ import annotations

import argparse
import math
import random
import time

import chess
import chess.engine

from .common import ROOT, engine_command, engine_env, sunfish_command

OPENINGS = [
    "", "e2e4 e7e5", "d2d4 d7d5", "e2e4 c7c5", "c2c4 e7e5", "g1f3 d7d5", "e2e4 e7e6",
    "d2d4 g8f6 c2c4 e7e6", "e2e4 c7c6", "e2e4 e7e5 g1f3 b8c6",
]
VALUES = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


class RandomPlayer:
    name = "random"

    def __init__(self, seed=1):
        self.rng = random.Random(seed)

    def play(self, board, limit):
        return self.rng.choice(list(board.legal_moves))

    def close(self):
        pass


class GreedyPlayer(RandomPlayer):
    """One ply: mate if it can, else the move that wins the most material at once."""
    name = "greedy"

    def play(self, board, limit):
        best, best_key = [], None
        for m in board.legal_moves:
            gain = 0
            if board.is_capture(m):
                victim = board.piece_at(m.to_square)
                gain = VALUES[victim.piece_type] if victim else 1
            if m.promotion:
                gain += VALUES[m.promotion] - 1
            board.push(m)
            if board.is_checkmate():
                gain = 1000
            board.pop()
            if best_key is None or gain > best_key:
                best, best_key = [m], gain
            elif gain == best_key:
                best.append(m)
        return self.rng.choice(best)


class EnginePlayer:
    def __init__(self, name, cmd, env=None, cwd=None, options=None):
        self.name = name
        self.engine = chess.engine.SimpleEngine.popen_uci(cmd, env=env, cwd=cwd, timeout=30)
        if options:
            self.engine.configure(options)

    def play(self, board, limit):
        return self.engine.play(board, limit).move

    def new_game(self):
        pass

    def close(self):
        try:
            self.engine.quit()
        except Exception:
            self.engine.close()


def cellfish_player(options=None):
    return EnginePlayer("cellfish", engine_command(), env=engine_env(), cwd=str(ROOT), options=options)


def sunfish_player():
    cmd = sunfish_command()
    if cmd is None:
        raise RuntimeError("sunfish-uci not found (pip install sunfish)")
    return EnginePlayer("sunfish", cmd)


def play_game(white, black, seconds, opening="", max_plies=300):
    """Returns ("1-0" | "0-1" | "1/2-1/2", reason, board)."""
    board = chess.Board()
    for u in opening.split():
        board.push_uci(u)
    limit = chess.engine.Limit(time=seconds)
    while not board.is_game_over(claim_draw=True):
        if board.ply() >= max_plies:
            return "1/2-1/2", "ply limit", board
        player = white if board.turn == chess.WHITE else black
        move = player.play(board, limit)
        if move is None or move not in board.legal_moves:
            return ("0-1" if board.turn == chess.WHITE else "1-0"), f"illegal move {move}", board
        board.push(move)
    out = board.outcome(claim_draw=True)
    return out.result(), out.termination.name.lower(), board


def score_margin(points: list[float]) -> tuple[float, float]:
    n = len(points)
    if not n:
        return 0.0, 0.0
    mean = sum(points) / n
    var = sum((p - mean) ** 2 for p in points) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def _pgn(board, white, black, result, reason):
    import chess.pgn
    game = chess.pgn.Game.from_board(board)
    game.headers.update({"White": white, "Black": black, "Result": result, "Termination": reason})
    return str(game)


def run_match(opponent: str, games: int, seconds: float, max_plies: int, log=print, pgn=None):
    if opponent.startswith("uci:"):
        # any UCI engine command line, e.g. an older cellfish checkout
        import shlex
        cmd = shlex.split(opponent[4:])
        make_opp = lambda: EnginePlayer(opponent, cmd)  # noqa: E731
    else:
        make_opp = {"random": lambda: RandomPlayer(7), "greedy": lambda: GreedyPlayer(7),
                    "sunfish": sunfish_player}[opponent]
    me = cellfish_player()
    opp = make_opp()
    points = []
    try:
        for g in range(games):
            opening = OPENINGS[(g // 2) % len(OPENINGS)]
            white_is_me = g % 2 == 0
            w, b = (me, opp) if white_is_me else (opp, me)
            t0 = time.monotonic()
            res, why, board = play_game(w, b, seconds, opening, max_plies)
            pts = {"1-0": 1.0, "0-1": 0.0}.get(res, 0.5)
            if not white_is_me:
                pts = 1.0 - pts
            points.append(pts)
            if pgn:
                with open(pgn, "a") as f:
                    f.write(_pgn(board, w.name, b.name, res, why) + "\n\n")
            log(f"  game {g + 1:2d} vs {opponent:7s} cellfish {'white' if white_is_me else 'black'}: "
                f"{res} ({why}, {board.ply()} plies, {time.monotonic() - t0:.0f} s) -> {pts}")
    finally:
        me.close()
        opp.close()
    mean, margin = score_margin(points)
    log(f"vs {opponent}: {sum(points)}/{len(points)} = {100 * mean:.1f}% +- {100 * margin:.1f}% "
        f"(95%, {seconds} s/move)")
    return mean, margin, points


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cellfish bench match")
    ap.add_argument("--opponents", default="random,greedy,sunfish")
    ap.add_argument("--games", type=int, default=None, help="games per opponent")
    ap.add_argument("--time", type=float, default=None, help="seconds per move")
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--quick", action="store_true", help="2 games each at 0.2 s/move")
    ap.add_argument("--pgn", default=None, help="append the games to this PGN file")
    a = ap.parse_args(argv)
    defaults = {"random": (10, 0.1), "greedy": (10, 0.1), "sunfish": (20, 1.0)}
    for opp in a.opponents.split(","):
        games, secs = defaults.get(opp, (10, 0.2))
        if a.quick:
            games, secs = 2, 0.2
        games = a.games or games
        secs = a.time or secs
        print(f"match vs {opp}: {games} games at {secs} s/move", flush=True)
        run_match(opp, games, secs, a.max_plies, log=lambda s: print(s, flush=True), pgn=a.pgn)
    return 0
