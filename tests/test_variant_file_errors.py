"""A variants file with problems (docs/variant-files.md): refused whole with one error line per
problem naming file, line, section, key and token, the engine still serving with its variant and
position kept; ``cellfish check`` names every problem and exits 1."""
from __future__ import annotations

from pathlib import Path

import pytest
from engine_proc import EngineProcess

DATA = Path(__file__).resolve().parent / "data" / "fsf_variants.ini"


BAD = {
    "syntax": ("[ok:chess]\nthis is not a key\n", "2: [ok] not a key = value line (this is not a key)"),
    "unknown piece letter": ("[x:chess]\npromotionPieceTypes = qz\n",
                             "2: [x] promotionPieceTypes: no piece has this letter (z)"),
    "bad Betza": ("[x:chess]\ncustomPiece1 = a:Q%\n", "2: [x] customPiece1:"),
    "startFen off the board": ("[x:chess]\nstartFen = rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1\n",
                               "2: [x] startFen: bad startFen:"),
    "startFen with an unknown piece": ("[x:chess]\nstartFen = 4k3/8/8/8/8/8/8/3ZK3 w - - 0 1\n",
                                       "2: [x] startFen: bad startFen: unknown piece (Z)"),
    "no such parent": ("[x:nothere]\n", "1: [x] no such parent (nothere)"),
    "cycle": ("[a:b]\n[b:a]\n", "1: [a] parent defined below it or in a cycle (b)"),
    "board over the cell limit": ("[x:chess]\nmaxRank = 65\n", "2: [x] maxRank: out of range 1..64 (65)"),
    "refused rule": ("[x:chess]\ndropOnTop = true\n", "2: [x] dropOnTop: not supported (dropOnTop)"),
    "a built-in name": ("[shogi:chess]\n", "1: [shogi] a built-in variant has this name (shogi)"),
    "promotedPieceType naming an unknown letter": ("[x:chess]\npromotedPieceType = n:z\n",
                                                  "2: [x] promotedPieceType: no piece has this letter (z)"),
    "promotedPieceType not letter:letter": ("[x:chess]\npromotedPieceType = nb\n",
                                           "2: [x] promotedPieceType: not letter:letter (nb)"),
    "a promoted piece promoting again": ("[x:chess]\npromotedPieceType = n:b b:r\n",
                                         "2: [x] promotedPieceType: a promoted piece would promote again (b)"),
    "a drop region off the board": ("[x:chess]\npieceDrops = true\nwhiteDropRegion = *1 *9\n",
                                    "3: [x] whiteDropRegion: square off the board (*9)"),
    "a bad promotionLimit": ("[x:chess]\npromotionLimit = q:x\n",
                             "2: [x] promotionLimit: not letter:count (q:x)"),
    "dropNoDoubled naming an unknown letter": ("[x:shogi]\ndropNoDoubled = z\n",
                                               "2: [x] dropNoDoubled: no piece has this letter (z)"),
    "captures to a hand without drops": ("[x:chess]\ncapturesToHand = true\n",
                                         "2: [x] capturesToHand: needs pieceDrops"),
    "the old shogiDoubledPawn = false": ("[x:shogi]\nshogiDoubledPawn = false\n",
                                         "2: [x] shogiDoubledPawn: not supported"),
    "flagRegion off the board": ("[x:chess]\nflagRegion = d9\n", "2: [x] flagRegion: square off the board (d9)"),
    "unknown extinction letter": ("[x:chess]\nextinctionValue = loss\nextinctionPieceTypes = qz\n",
                                  "3: [x] extinctionPieceTypes: no piece has this letter (z)"),
    "bad extinctionValue": ("[x:chess]\nextinctionValue = lose\n",
                            "2: [x] extinctionValue: not win, loss or draw (lose)"),
    "bad checkmateValue": ("[x:chess]\ncheckmateValue = maybe\n",
                           "2: [x] checkmateValue: not win, loss or draw (maybe)"),
    "checking not a bool": ("[x:chess]\nchecking = sometimes\n", "2: [x] checking: not true or false (sometimes)"),
    "unknown flag piece": ("[x:chess]\nflagPieceBlack = z\nflagRegionBlack = *1\n",
                           "2: [x] flagPieceBlack: no piece has this letter (z)"),
    "unknown castling king": ("[x:chess]\ncastlingKingPiece = z\n",
                              "2: [x] castlingKingPiece: no piece has this letter (z)"),
    "castling rook file off the board": ("[x:chess]\ncastlingRookKingsideFile = k\n",
                                         "2: [x] castlingRookKingsideFile: not a file of the board (k)"),
    "enPassantRegion off the board": ("[x:chess]\nenPassantRegion = *9\n",
                                      "2: [x] enPassantRegion: square off the board (*9)"),
    "unknown en-passant type": ("[x:chess]\nenPassantTypesWhite = pw\n",
                                "2: [x] enPassantTypesWhite: no piece has this letter (w)"),
    "extinctionPseudoRoyal not a bool": ("[x:chess]\nextinctionPseudoRoyal = maybe\n",
                                         "2: [x] extinctionPseudoRoyal: not true or false (maybe)"),
    "dupleCheck not a bool": ("[x:chess]\ndupleCheck = 2x\n", "2: [x] dupleCheck: not true or false (2x)"),
    "tripleStepRegion off the board": ("[x:chess]\ntripleStepRegionWhite = *2 *9\n",
                                       "2: [x] tripleStepRegionWhite: square off the board (*9)"),
    "unknown n-move type": ("[x:chess]\nnMoveRuleTypes = y\n", "2: [x] nMoveRuleTypes: no piece has this letter (y)"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_a_bad_file_is_refused_whole_and_the_engine_keeps_serving(case, tmp_path):
    """One error line naming file, line, section, key and token; nothing of the file is
    loaded (its good section neither); the variant and position stay as they were."""
    text, expected = BAD[case]
    path = tmp_path / "bad.ini"
    path.write_text("[goodone:chess]\n" + text)
    line = int(expected.split(":")[0]) + 1            # the good section comes first
    expected = f"{path}:{line}:" + expected.split(":", 1)[1]
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send("setoption name UCI_Variant value knavish8")
        eng.send("position startpos moves e2e4")
        eng.send("d")
        before = eng.expect(lambda ln: ln.startswith("Fen:"))[-1]
        eng.send(f"setoption name VariantPath value {path}")
        lines = eng.ask("isready", "readyok")
        errors = [ln for ln in lines if ln.startswith("info string error:")]
        assert any(ln.startswith(f"info string error: {expected}") for ln in errors), (errors, expected)
        lines = eng.ask("uci", "uciok")
        combo = next(ln for ln in lines if ln.startswith("option name UCI_Variant"))
        names = combo.split(" var ")[1:]           # whole names: xiangqi is no "x"
        assert "goodone" not in names and "x" not in names
        eng.send("d")
        assert eng.expect(lambda ln: ln.startswith("Fen:"))[-1] == before
        assert not eng.err
    finally:
        eng.close()


def test_an_unreadable_path_is_one_error_line(tmp_path):
    eng = EngineProcess()
    try:
        eng.ask("uci", "uciok")
        eng.send(f"setoption name VariantPath value {tmp_path / 'missing.ini'}")
        lines = eng.ask("isready", "readyok")
        assert [ln for ln in lines if "error" in ln] == [
            f"info string error: {tmp_path / 'missing.ini'}:0: cannot read the file (FileNotFoundError)"]
    finally:
        eng.close()


def test_check_command_names_every_problem_and_exits_1(tmp_path):
    import subprocess
    import sys
    bad = tmp_path / "bad.ini"
    bad.write_text("[x:chess]\ndropOnTop = true\nconnectN = 4\n[y:nope]\n")
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(bad)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        f"{bad}:2: [x] dropOnTop: not supported (dropOnTop)",
        f"{bad}:3: [x] connectN: not supported (connectN)",
        f"{bad}:4: [y] no such parent (nope)"]
    r = subprocess.run([sys.executable, "-m", "cellfish", "check", str(DATA)], capture_output=True,
                       text=True, timeout=60)
    sections = DATA.read_text().count("\n[") + DATA.read_text().startswith("[")
    assert r.returncode == 0 and r.stdout.startswith(f"{DATA}: ok ({sections} variants"), r.stdout
