"""Tournament runner: engines (any UCI or USI program) play each other in any variant of the
rules core, which referees every move.  CLI: ``cellfish match``; Python API below.

    from match import EngineSpec, MatchConfig, TimeControl, run_match
    cfg = MatchConfig("chess", [EngineSpec("a", cmd_a), EngineSpec("b", cmd_b)],
                      tc=TimeControl(movetime_ms=100), games=10)
    print(run_match(cfg).table())
"""
from .config import (ConfigError, EngineSpec, GameSpec, MatchConfig, TimeControl,
                     cellfish_command, parse_engine, parse_tc)
from .referee import play_game
from .runner import MatchResult, dask_executor, local_executor, run_match

__all__ = ["ConfigError", "EngineSpec", "GameSpec", "MatchConfig", "TimeControl",
           "cellfish_command", "parse_engine", "parse_tc", "play_game", "MatchResult",
           "dask_executor", "local_executor", "run_match"]
