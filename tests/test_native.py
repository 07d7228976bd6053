"""``cellfish bench against --native``: the engine compiled by mypyc in a copy of the tree
searches exactly as the interpreted engine does (same perft, same nodes at a fixed depth), and
the copy really runs the compiled modules."""
import json
import os
import subprocess
import sys

from bench.against_rev import MIDDLEGAMES, ROOT, measure
from bench.native import NOT_COMPILED, build, compiled_modules


def test_the_searcher_and_rules_core_are_compiled_and_variant_is_not():
    mods = compiled_modules(ROOT)
    for name in ("engine/movegen.py", "engine/position.py", "engine/search.py", "engine/quiesce.py",
                 "engine/ordering.py", "engine/evaluate.py"):
        assert name in mods
    for name in NOT_COMPILED:
        assert f"engine/{name}" not in mods


def test_compiled_copy_searches_the_same_nodes(tmp_path):
    error = build(str(tmp_path))
    assert error is None, error
    probe = ("import json, engine.movegen, engine.search, engine.variant; "
             "print(json.dumps([engine.movegen.__file__, engine.search.__file__, engine.variant.__file__]))")
    out = subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=str(tmp_path)), check=True)
    movegen, search, variant = json.loads(out.stdout)
    assert movegen.endswith(".so") and search.endswith(".so") and movegen.startswith(str(tmp_path))
    assert variant.endswith(".py")
    fens = MIDDLEGAMES["knavish"][:2]
    pure = measure(str(ROOT), "knavish", 2, 3, fens)
    native = measure(str(tmp_path), "knavish", 2, 3, fens)
    assert native["perft"] == pure["perft"] > 0
    assert native["nodes"] == pure["nodes"] > 0
