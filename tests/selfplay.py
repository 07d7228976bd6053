"""A complete self-play game through the protocol loop, refereed by the rules core.

`play_game(name, dialect)` drives the installed `cellfish` command (tests/engine_proc.py) from
the start position: before every move it sends `position startpos moves ...` and the go
command (`go depth 1` by default), checks that the bestmove is the canonical text of one of
the core's legal moves (engine.movegen.legal_moves, engine.notation.move_text), plays it, and stops
when engine.game.game_result says the game is over.  A ply cap is only a safety net: reaching
it fails the test.

At the end the engine must agree that the game is over, as protocol/session.py implements it
(docs/protocol.md, "No legal move"):
  * no legal move left (checkmate, stalemate, a decided Nichtschach game whose move list the
    core empties): `go` answers `info depth 0 score mate 0|cp 0` (cp 0 exactly when the core
    scores the end a draw) then `bestmove (none)` under UCI, `bestmove resign` under USI;
  * a rule that ends the game while moves remain (repetition, the move rule, insufficient
    material, a variant's adjudication): the session does not referee that -- `go` still
    answers a bestmove, which must then be one of the legal moves;
and `d` must show the core's position text and the same game state (winner and reason).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import variants
from engine.game import game_result
from engine.movegen import legal_moves
from engine_proc import EngineProcess
from engine.notation.move_text import move_text, parse_move
from engine.notation.position_text import format as format_position, parse as parse_position

PLY_CAP = 1500


@dataclass
class Game:
    name: str
    dialect: str
    moves: list[str] = field(default_factory=list)     # canonical texts, as the engine sent them
    codes: list[int] = field(default_factory=list)     # the core's move codes
    result: tuple | None = None                         # (score for side to move, reason)
    pos: object = None                                  # the final position (core)
    final_answer: str = ""                              # bestmove word after the game ended
    seconds: float = 0.0

    @property
    def plies(self) -> int:
        return len(self.moves)

    @property
    def winner(self) -> str:
        """'white' / 'black' / 'draw'; 'sente' / 'gote' in the shogi-template games."""
        score = self.result[0]
        if score == 0:
            return "draw"
        names = ("sente", "gote") if self.pos.variant.template == "shogi" else ("white", "black")
        return names[self.pos.side if score > 0 else self.pos.side ^ 1]

    def summary(self) -> str:
        return f"{self.name}: {self.plies} plies, {self.winner} ({self.result[1]})"


def _state_text(pos, result) -> str:
    """The `Game state:` line session.cmd_d prints for a finished game."""
    score, reason = result
    who = ["white", "black"]
    text = {1: f"{who[pos.side]} wins", -1: f"{who[pos.side ^ 1]} wins", 0: "draw"}[score]
    return f"Game state: {text} ({reason})"


def play_game(name: str, dialect: str = "uci", go: str = "go depth 1", *,
              ply_cap: int = PLY_CAP, timeout: float = 60.0,
              engine: EngineProcess | None = None, fen: str | None = None) -> Game:
    """Play `name` from its start position to the end; see the module docstring.

    `engine`: an EngineProcess that already did the `uci`/`usi` handshake in `dialect`
    (reused, e.g. a module fixture); otherwise a fresh one is started and closed here.
    `fen`: play from this position (sent as `position fen ...`) instead of the start."""
    assert dialect in ("uci", "usi"), dialect
    t0 = time.monotonic()
    own = engine is None
    eng = EngineProcess() if own else engine
    try:
        if own:
            eng.ask(dialect, dialect + "ok", timeout)
        opt = "USI_Variant" if dialect == "usi" else "UCI_Variant"
        eng.send(f"setoption name {opt} value {name}")
        eng.send("usinewgame" if dialect == "usi" else "ucinewgame")
        eng.ask("isready", "readyok", timeout)
        v = variants.get(name)
        pos = parse_position(v, fen or v.start_fen)
        game = Game(name, dialect, pos=pos)
        start = f"position fen {fen}" if fen else "position startpos"

        def ask_best() -> tuple[list[str], str]:
            eng.send(start + (" moves " + " ".join(game.moves) if game.moves else ""))
            lines = eng.ask(go, "bestmove", timeout)
            errors = [l for l in lines if l.startswith("info string error")]
            assert not errors, f"{name}: {errors} after {start} moves {' '.join(game.moves)}"
            return lines, lines[-1].split()[1]

        while True:
            legal = legal_moves(pos)
            result = game_result(pos, legal)
            if result is not None:
                break
            assert game.plies < ply_cap, (
                f"{name}: no result after {ply_cap} plies (ply cap reached): {' '.join(game.moves)}")
            _, best = ask_best()
            try:
                m = parse_move(v, legal, best, dialect)
            except ValueError:
                raise AssertionError(f"{name}: illegal bestmove {best!r} at ply {game.plies} "
                                     f"after: {start} moves {' '.join(game.moves)}") from None
            assert move_text(v, m, dialect) == best, (
                f"{name}: bestmove {best!r} is not canonical ({move_text(v, m, dialect)!r})")
            pos.make(m)
            game.moves.append(best)
            game.codes.append(m)
        game.result = result

        # the engine agrees that the game is over
        lines, best = ask_best()
        game.final_answer = best
        where = f"{name}: after {start} moves {' '.join(game.moves)}"
        if not legal:
            if dialect == "usi":
                assert best == "resign", f"{where}: no legal move, engine answered {best!r}"
            else:
                assert best == "(none)", f"{where}: no legal move, engine answered {best!r}"
                score = "cp 0" if result[0] == 0 else "mate 0"
                assert lines[-2] == f"info depth 0 score {score}", (where, lines[-2:], result)
        else:
            # ended by a rule that leaves moves: the session still answers one (a legal one)
            assert best in {move_text(v, m, dialect) for m in legal}, (
                f"{where}: game over by {result} with legal moves left; engine answered {best!r}")
        eng.send("d")
        lines = eng.expect("Game state:", timeout)
        fmt = "sfen" if (dialect == "usi" and v.template == "shogi") else None
        assert f"Fen: {format_position(pos, fmt)}" in lines, (where, lines)
        assert lines[-1] == _state_text(pos, result), (where, lines[-1], result)
        assert not eng.err, f"{name}: the engine wrote to stderr: {eng.err}"
        game.seconds = time.monotonic() - t0
        return game
    finally:
        if own:
            eng.close()
