"""The compiled engine (``setup.py`` at install, ``cellfish native --build``,
``engine/_native.py``): a build is found only by the very files it was made of, whether in the
cache or installed beside the files; it really loads the compiled modules, it searches exactly
as the interpreted engine does (same perft, same nodes), and it serves the protocol
(``isready`` and ``stop`` during a search, by event: nothing here is timed; stop's latency is
measured by ``cellfish bench latency``).  The suite's fixed subset marked ``native``
(``tests/conftest.py``) runs again against the build with ``CELLFISH_TEST_NATIVE=1``."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.against_rev import MIDDLEGAMES, ROOT, measure
from bench.driver import EngineProcess
from cellfish import native, native_build
from engine import _native
from engine.zobrist import KEY_BITS
from protocol.session import VERSION
import variants

DEADLINE = 60.0


def test_the_searcher_and_rules_core_are_compiled_and_variant_is_not():
    names = {p.name for p in _native.compiled_sources()}
    for name in ("movegen.py", "position.py", "search.py", "quiesce.py", "ordering.py", "evaluate.py"):
        assert name in names
    for name in _native.NOT_COMPILED:
        assert name not in names


def _copy_engine(tmp_path: Path) -> Path:
    root = tmp_path / "engine"
    shutil.copytree(_native.HERE, root, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return root


def test_any_edited_file_of_the_package_changes_the_build_key(tmp_path):
    root = _copy_engine(tmp_path)
    key = _native.build_key(root)
    assert key == _native.build_key(_native.HERE)
    for rel in ("search.py", "variant.py", "notation/move_text.py"):
        p = root / rel
        text = p.read_text()
        p.write_text(text + "\n# edited\n")
        assert _native.build_key(root) != key, rel
        p.write_text(text)
        assert _native.build_key(root) == key


def test_an_incomplete_build_or_the_switch_keeps_the_engine_interpreted(tmp_path, monkeypatch):
    monkeypatch.setenv("CELLFISH_NATIVE_DIR", str(tmp_path))
    monkeypatch.setenv("CELLFISH_NATIVE", "1")
    d = _native.build_dir()
    (d / "engine").mkdir(parents=True)
    path: list[str] = []
    assert _native.use_native(path) is None and path == []         # no BUILT marker
    (d / "BUILT").write_text("x\n")
    assert _native.use_native(path) is None and path == []         # no extension modules
    suffix = _native.ext_suffix()
    for p in _native.compiled_sources():
        (d / "engine" / (p.stem + suffix)).write_bytes(b"")
    monkeypatch.setenv("CELLFISH_NATIVE", "0")
    assert _native.use_native(path) is None and path == []         # switched off
    monkeypatch.setenv("CELLFISH_NATIVE", "1")
    monkeypatch.setattr(sys, "path", list(sys.path))
    assert _native.use_native(path) == str(d) and path == [str(d / "engine")]


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """A build of this tree's engine: the one ``pip install -e .`` made in the cache, when it
    is there and complete (CI's), else one made here in a cache folder of its own."""
    d = _native.cache_root()
    if not _native.complete(_native.build_dir()):
        d = tmp_path_factory.mktemp("native-cache")
    old = os.environ.get("CELLFISH_NATIVE_DIR")
    os.environ["CELLFISH_NATIVE_DIR"] = str(d)
    try:
        error = native.build(log=lambda *_: None)
        assert error is None, error
        assert _native.complete(_native.build_dir())
        yield d
    finally:
        if old is None:
            del os.environ["CELLFISH_NATIVE_DIR"]
        else:
            os.environ["CELLFISH_NATIVE_DIR"] = old


PROBE = ("import json, engine, engine.movegen, engine.search, engine.variant, engine._native; "
         "print(json.dumps([engine.movegen.__file__, engine.search.__file__, engine.variant.__file__, "
         "engine._native.active]))")


def _probe(tree: Path, cache_dir: Path, switch: str = "1") -> list:
    env = dict(os.environ, PYTHONPATH=str(tree), CELLFISH_NATIVE=switch, CELLFISH_NATIVE_DIR=str(cache_dir))
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=tree, capture_output=True, text=True,
                         env=env, check=True)
    return json.loads(out.stdout)


def test_the_engine_loads_the_build_of_its_own_files(cache):
    movegen, search, variant, active = _probe(ROOT, cache)
    assert active == str(_native.build_dir())
    assert movegen.startswith(active) and movegen.endswith(".so")
    assert search.startswith(active) and search.endswith(".so")
    assert variant == str(ROOT / "engine" / "variant.py")
    # switched off, the same tree reads its files
    movegen, search, _, active = _probe(ROOT, cache, "0")
    assert active is None and movegen.endswith("movegen.py") and search.endswith("search.py")
    out = subprocess.run([sys.executable, "-m", "cellfish", "native"], cwd=ROOT, capture_output=True,
                         text=True, env=dict(os.environ, CELLFISH_NATIVE="1", CELLFISH_NATIVE_DIR=str(cache)))
    assert out.stdout.startswith("compiled"), out.stdout


def test_the_build_says_how_it_was_made_and_with_gcc_it_is_profile_guided(cache):
    """The build's marker names the plan that was built, and ``cellfish native`` says it: where
    the compiler is gcc (CI's), the profile-guided one, so a training run that stopped working
    cannot quietly cost the engine its 6-8%."""
    from cellfish.native_build import is_gcc
    how = (_native.build_dir() / "BUILT").read_text().split("\n")[1]
    assert how in [name for name, _, _ in native_build.plans(_native, True)]
    if is_gcc():
        assert how == "profile-guided, link-time optimised"
    out = subprocess.run([sys.executable, "-m", "cellfish", "native"], cwd=ROOT, capture_output=True,
                         text=True, env=dict(os.environ, CELLFISH_NATIVE="1", CELLFISH_NATIVE_DIR=str(cache)))
    assert out.stdout.startswith(f"compiled ({how}): the engine loads "), out.stdout


def test_a_training_run_without_the_instrumented_build_fails_with_its_reason(tmp_path):
    """The profile's training must run the compiled modules it is to count: a tree holding no
    build (here, the files alone) is refused with a reason, and the build goes on to the next
    plan (``native_build.main``) instead of laying the code out by an empty profile."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    err = native_build.train(tmp_path, ROOT)
    assert err is not None and "the instrumented build was not loaded" in err, err
    assert not (tmp_path / "engine" / _native.RECORD).exists()      # the record made for it is gone


def test_an_edited_tree_is_not_served_by_the_old_build(cache, tmp_path):
    for pkg in ("engine", "variants", "cellfish", "protocol"):
        shutil.copytree(ROOT / pkg, tmp_path / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    movegen, _, _, active = _probe(tmp_path, cache)
    assert active == str(_native.build_dir()), "an unedited copy finds the build"
    p = tmp_path / "engine" / "evaluate.py"
    p.write_text(p.read_text() + "\n# edited\n")
    movegen, search, _, active = _probe(tmp_path, cache)
    assert active is None
    assert movegen == str(tmp_path / "engine" / "movegen.py")
    assert search == str(tmp_path / "engine" / "search.py")


def _installed_copy(tmp_path: Path, cache: Path) -> Path:
    """This tree as ``pip install .`` lays it out: the compiled modules beside the files,
    mypyc's shared library at the top, and the record of the files they were made of."""
    tree = tmp_path / "site"
    for pkg in ("engine", "variants", "cellfish", "protocol"):
        shutil.copytree(ROOT / pkg, tree / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    built = _native.build_dir()
    for so in (built / "engine").iterdir():
        shutil.copy2(so, tree / "engine" / so.name)
    for so in built.glob("*" + _native.ext_suffix()):
        shutil.copy2(so, tree / so.name)
    (tree / "engine" / _native.RECORD).write_text(f"compiled {_native.build_key(tree / 'engine')}\n")
    return tree


def _run_version(tree: Path, empty_cache: Path, switch: str = "1") -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), CELLFISH_NATIVE=switch, CELLFISH_NATIVE_DIR=str(empty_cache))
    out = subprocess.run([sys.executable, "-m", "cellfish", "--version"], cwd=tree, capture_output=True,
                         text=True, env=env, check=True)
    return out.stdout.strip()


def test_an_installed_build_beside_the_files_loads_only_while_they_match_its_record(cache, tmp_path):
    tree = _installed_copy(tmp_path, cache)
    empty = tmp_path / "no-cache"
    movegen, search, variant, active = _probe(tree, empty)
    assert active == str(tree / "engine")
    assert movegen == str(tree / "engine" / ("movegen" + _native.ext_suffix()))
    assert search.endswith(_native.ext_suffix()) and variant.endswith("variant.py")
    assert _run_version(tree, empty).startswith(f"cellfish {VERSION}, engine compiled: built when the package was installed")
    # switched off, the files beside the compiled modules are read
    movegen, search, _, active = _probe(tree, empty, "0")
    assert active is None and movegen.endswith("movegen.py") and search.endswith("search.py")
    assert _run_version(tree, empty, "0").endswith("engine interpreted: CELLFISH_NATIVE=0 is set")
    # an edited file no longer matches the record: the modules stay beside it, unused
    p = tree / "engine" / "evaluate.py"
    p.write_text(p.read_text() + "\n# edited\n")
    movegen, search, _, active = _probe(tree, empty)
    assert active is None and movegen.endswith("movegen.py") and search.endswith("search.py")
    assert "built from other files" in _run_version(tree, empty)


def test_an_install_that_could_not_compile_says_why(tmp_path):
    tree = tmp_path / "site"
    shutil.copytree(ROOT / "engine", tree / "engine", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copytree(ROOT / "cellfish", tree / "cellfish", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "protocol", tree / "protocol", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "variants", tree / "variants", ignore=shutil.ignore_patterns("__pycache__"))
    (tree / "engine" / _native.RECORD).write_text("interpreted no working C compiler and Python headers: gcc failed\n")
    assert _run_version(tree, tmp_path / "no-cache") == (f"cellfish {VERSION}, engine interpreted: the install did not "
                                                        "compile the engine (no working C compiler and Python "
                                                        "headers: gcc failed)")


def test_pip_wheel_without_a_c_compiler_builds_the_interpreted_engine_and_says_why(tmp_path):
    """``setup.py`` as pip runs it (an isolated build, mypy fetched): the compiler (here
    ``/bin/false``) fails the probe the build runs before mypyc writes any C, and the wheel holds
    the interpreted engine with the reason in its record.  (A build that compiles is the
    cache's, above: the same mypyc; ``pip install .`` with a compiler is measured, not run here.)"""
    import zipfile
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(ROOT / name, src / name)
    for pkg in ("cellfish", "engine", "protocol", "variants", "match", "bench", "gui"):
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    env = dict(os.environ, CC="/bin/false", CELLFISH_NATIVE="1")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(tmp_path / "out"), str(src)],
                         capture_output=True, text=True, env=env, timeout=900)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    lines = [l.strip() for l in (out.stdout + out.stderr).splitlines() if l.strip().startswith("cellfish:")]
    assert lines == ["cellfish: the engine is not compiled (/bin/false failed: compiling needs a C compiler and "
                     "the Python headers); installing the interpreted engine, which plays the same, slower"], lines
    [wheel] = (tmp_path / "out").glob("cellfish-*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        assert z.read("engine/" + _native.RECORD).decode().startswith("interpreted /bin/false failed")
    assert "engine/search.py" in names and "engine/variant.py" in names
    assert not [n for n in names if n.endswith(_native.ext_suffix())]


def test_the_compiled_engine_searches_the_same_nodes(cache):
    fens = MIDDLEGAMES["knavish"][:2]
    pure = measure(str(ROOT), "knavish", 2, 3, fens)
    compiled = measure(str(ROOT), "knavish", 2, 3, fens, native=True)
    assert compiled["perft"] == pure["perft"] > 0
    assert compiled["nodes"] == pure["nodes"] > 0


def test_the_compiled_engine_answers_isready_and_stop_during_a_search(cache, monkeypatch):
    monkeypatch.setenv("CELLFISH_NATIVE", "1")
    with EngineProcess() as eng:
        eng.handshake()
        eng.send("setoption name UCI_Variant value knavish")
        eng.ready()
        eng.send(f"position fen {MIDDLEGAMES['knavish'][0]}")
        eng.send("go infinite")
        first = eng.until_prefix("info depth 2", DEADLINE)
        eng.send("isready")
        got = eng.until(lambda l: l == "readyok", DEADLINE)
        assert not [l for _, l in first + got if l.startswith("bestmove")]
        eng.send("stop")
        out = eng.until_prefix("bestmove", DEADLINE)
        eng.ready()
        assert len([1 for _, d, l in eng.transcript if d == "<" and l.startswith("bestmove")]) == 1
        assert out[-1][1].split()[1] != "(none)"
        assert eng.stderr == []


@pytest.mark.parametrize("name", ["chess", "knavish", "shogi", "elefantnichtschach", "nested-b"])
def test_hash_keys_fit_the_compiled_engines_unboxed_ints(name):
    """Zobrist keys of 62 bits (``engine/zobrist.py``): every xor of them stays below 2**62,
    an int the compiled engine keeps unboxed, so updating the hash allocates nothing."""
    z = variants.get(name).zobrist
    keys = [k for row in z.piece + z.hand for k in row] + z.ep + z.castle + [z.side]
    assert KEY_BITS == 62 and 0 <= min(keys) and max(keys) < 1 << 62
    assert max(keys) >= 1 << 60 and len(set(keys)) == len(keys)
