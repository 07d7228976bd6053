"""bench/ladder.py: Elo on the levels' scale, the option order and engine command it builds,
and one short real game each in Knavish (VariantPath) and shogi (USI) against Fairy-Stockfish."""
import json
import math

import pytest

from bench import ladder
from match.runner import run_match
from match.stats import elo_and_margin


def test_one_level_is_that_level_plus_the_match_elo():
    e, m = elo_and_margin(3, 2, 5)
    r, rm = ladder.ladder_elo([(1500, 3, 2, 5)])
    assert r == pytest.approx(1500 + e) and rm == pytest.approx(m)
    assert r < 1500


def test_levels_pool_to_one_rating():
    # half the points against 1400 and 1600 together: the rating halfway, by symmetry
    r, m = ladder.ladder_elo([(1400, 3, 0, 1), (1600, 1, 0, 3)])
    assert r == pytest.approx(1500, abs=0.5)
    assert 0 < m < math.inf
    # more points against the same levels: higher
    r2, _ = ladder.ladder_elo([(1400, 4, 0, 0), (1600, 1, 0, 3)])
    assert r2 > r


def test_all_lost_or_won_or_nothing():
    assert ladder.ladder_elo([(1400, 0, 0, 4), (1600, 0, 0, 2)])[0] == -math.inf
    assert ladder.ladder_elo([(1400, 2, 0, 0)])[0] == math.inf
    assert math.isnan(ladder.ladder_elo([(1400, 0, 0, 0)])[0])


def test_options_variant_file_first_and_usi_names_for_shogi():
    assert ladder.fsf_options("knavish", 1800) == (
        ("VariantPath", ladder.KNAVISH_INI), ("UCI_LimitStrength", "true"), ("UCI_Elo", "1800"))
    assert ladder.fsf_options("chess", 1500) == (("UCI_LimitStrength", "true"), ("UCI_Elo", "1500"))
    assert ladder.fsf_options("shogi", 1500) == (("USI_LimitStrength", "true"), ("USI_Elo", "1500"))


def test_config_is_a_gauntlet_of_cellfish_against_each_level():
    cfg = ladder.ladder_config("/pkg", "knavish", [1400, 1900], 4, "5+0.1", 2)
    assert cfg.variant == "knavish" and cfg.tournament == "gauntlet" and cfg.games == 4
    assert cfg.concurrency == 2 and cfg.tc.base_ms == 5000 and cfg.tc.inc_ms == 100
    assert [e.name for e in cfg.engines] == ["cellfish", "fsf-1400", "fsf-1900"]
    assert cfg.engines[1].cmd == ("node", "--no-experimental-fetch", ladder.WRAPPER, "/pkg")
    assert dict(cfg.engines[2].options)["UCI_Elo"] == "1900"


def test_report_counts_and_scores():
    text = ladder.report("chess", "10+0.1", [1400, 1600], [(2, 1, 1), (0, 0, 4)])
    assert "     1400     4   2   1   1  0.625" in text
    assert "      all     8   2   1   5  0.312" in text
    assert "+/-" in text


@pytest.mark.parametrize("family", ["knavish", "shogi"])
def test_one_real_game_against_fairy_stockfish(family, tmp_path):
    """Installs the npm package when missing (Node.js and npm are on CI machines).  The game
    is kept where ``records`` says, one file per family."""
    pkg = ladder.ensure_fsf(log=lambda s: None)
    ladder.check_opponent(pkg)          # the check main() makes passes on a working install
    cfg = ladder.ladder_config(pkg, family, [1350], 1, "2+0.05", 1, records=str(tmp_path / "lad"))
    assert cfg.records == str(tmp_path / f"lad-{family}.jsonl")
    cfg.max_plies = 16      # a short game: the point is that both engines play this variant
    res = run_match(cfg)
    assert not res.errors, res.errors
    (rec,) = res.records
    assert rec["result"] in ("1-0", "0-1", "1/2-1/2"), rec
    bad = ("crashed", "stalled", "broke the protocol", "illegal move", "no move", "on time")
    assert not any(b in rec["reason"] for b in bad), rec
    assert len(rec["times_ms"]) >= 2     # Fairy-Stockfish moved in this variant
    assert rec["dialect"] == ("usi" if family == "shogi" else "uci")
    (line,) = (tmp_path / f"lad-{family}.jsonl").read_text().splitlines()
    assert json.loads(line)["moves"] == rec["moves"]


def test_missing_node_is_named(monkeypatch, tmp_path):
    monkeypatch.setattr(ladder.shutil, "which", lambda prog, *a, **k: None)
    with pytest.raises(ladder.SetupError, match="Node.js is missing"):
        ladder.ensure_fsf(str(tmp_path))
    assert ladder.main(["--families", "chess"]) == 2


def test_another_cellfish_is_rated_by_its_own_command(monkeypatch, capsys):
    # the configuration names the command given; main() splits --engine like a shell
    cfg = ladder.ladder_config("/pkg", "chess", [1500], 2, "5+0.1", 1, engine=("/opt/old/cellfish", "-q"))
    assert cfg.engines[0].cmd == ("/opt/old/cellfish", "-q")
    assert ladder.ladder_config("/pkg", "chess", [1500], 2, "5+0.1", 1).engines[0].cmd \
        == ladder.cellfish_command()
    seen = []

    class _Done:
        records, errors, interrupted = [], [], False

        @staticmethod
        def engine_totals():
            return [(0, 0, 0), (0, 0, 0)]

    monkeypatch.setattr(ladder, "ensure_fsf", lambda *a, **k: "/pkg")
    monkeypatch.setattr(ladder, "check_opponent", lambda pkg: None)
    monkeypatch.setattr(ladder, "run_match", lambda cfg: seen.append(cfg) or _Done())
    assert ladder.main(["--families", "chess", "--levels", "1500",
                        "--engine", "sh '/opt/old tree/run.sh'"]) == 0
    assert seen[0].engines[0].cmd == ("sh", "/opt/old tree/run.sh") and seen[0].records is None
    assert ladder.main(["--families", "chess", "--levels", "1500", "--records", "/tmp/x/run"]) == 0
    assert seen[1].records == "/tmp/x/run-chess.jsonl"
    assert "chess (10+0.1)" in capsys.readouterr().out


def test_an_opponent_that_cannot_start_stops_the_ladder(monkeypatch, tmp_path, capsys):
    # found from a plain install: the wrapper was not installed, Fairy-Stockfish crashed at
    # start in every game, and the ladder printed 80 wins out of 80 as a rating
    monkeypatch.setattr(ladder, "WRAPPER", str(tmp_path / "fsf_wrapper.js"))
    with pytest.raises(ladder.SetupError, match="fsf_wrapper.js is missing"):
        ladder.check_opponent("/pkg")
    monkeypatch.setattr(ladder, "ensure_fsf", lambda *a, **k: "/pkg")
    assert ladder.main(["--families", "chess", "--games", "2"]) == 2
    assert "error: " in capsys.readouterr().out


def test_endings_count_each_kind_once():
    recs = [{"reason": "fsf-2000 loses on time (no move within 325 ms)"},
            {"reason": "fsf-2000 loses on time (no move within 219 ms)"}, {"reason": "checkmate"}]
    assert ladder.endings(recs) == {"fsf-2000 loses on time": 2, "checkmate": 1}
