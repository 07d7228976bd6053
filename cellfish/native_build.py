"""How the engine is compiled: mypyc writes C, the C compiler builds it, profile-guided.

``cellfish native --build`` and ``pip install .`` both run this module as a setup script in a
scratch folder holding a copy of ``engine/`` (``cellfish/native.py``, ``compile_into``):

    python -m cellfish.native_build --project DIR [--group NAME] engine/a.py engine/b.py ...

mypyc type-checks the modules and writes one C file per module (``multi_file``: the compiler
then optimises 47 small files instead of one of 10 MB, a third of the time); link-time
optimisation (``-flto``) puts back the inlining across modules that one file gave.  With gcc the
build is **profile-guided**: a first build counts its branches (``-fprofile-generate``), a short
training run searches a few games with it (from their starts and two chess middlegames, never the
positions the benchmarks time), and a second build lays the code out by those counts (``-fprofile-use``).
The flags and the training's games are in ``engine/_native.py``, so that the build's digest
changes with them.  The compiled search is then about 6-7% faster, the same moves and nodes
(``bench/results/compiled-engine.md``).  The C files are compiled in parallel, one per core.

Every step falls back: a compiler that refuses a flag set, a training run that fails or does not
load the instrumented build, and the next, plainer set is tried (``PLANS``); only when the plainest
build fails does the command fail.  The last line of the output names the plan that was built.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

TRAIN = r"""
import sys, threading
import variants
from engine import _native
from engine.game import perft
from engine.notation.position_text import parse
from engine.search import TT, Limits, Searcher
if _native.active is None:
    sys.exit("the instrumented build was not loaded: " + _native.why)
for name, depth, fen in _native.TRAINING:
    v = variants.get(name)
    p = parse(v, fen or v.start_fen)
    perft(p, 2)
    Searcher(v, TT(16)).search(p, Limits(depth=depth), threading.Event())
"""


def _rules(tree: Path):
    """The scratch copy's ``engine/_native.py``, loaded by its path (its flags, its digest)."""
    spec = importlib.util.spec_from_file_location("cellfish_build_rules", tree / "engine" / "_native.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def c_compiler() -> list[str]:
    """The command of the C compiler the build will call (``CC``, else Python's own)."""
    return (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()


def is_gcc() -> bool:
    """Is the C compiler the build will call gcc (whose profile files the plan expects)?"""
    cc = c_compiler()
    try:
        out = subprocess.run([cc[0], "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired, IndexError):
        return False
    return "Free Software Foundation" in out


def probe(folder: Path) -> str | None:
    """Compile a file that includes Python's header with the C compiler the build will call:
    None, or why it cannot (said before mypyc spends its seconds writing C for a compiler that
    is not there).  Windows' compiler is left to the build itself."""
    if sys.platform == "win32":
        return None
    cc = c_compiler()
    src = folder / "cellfish_probe.c"
    src.write_text("#include <Python.h>\nint cellfish_probe(void) { return 0; }\n")
    try:
        out = subprocess.run([*cc, "-I", sysconfig.get_paths()["include"], "-c", str(src), "-o",
                              str(folder / "cellfish_probe.o")], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired, IndexError) as e:
        return f"command '{cc[0] if cc else 'cc'}' failed: {e}"
    finally:
        src.unlink(missing_ok=True)
        (folder / "cellfish_probe.o").unlink(missing_ok=True)
    if out.returncode:
        said = " | ".join((out.stdout + out.stderr).strip().splitlines()[-2:])
        return f"command '{cc[0]}' failed (exit {out.returncode})" + (f": {said}" if said else "")
    return None


def plans(rules, gcc: bool) -> list[tuple[str, list[str], bool]]:
    """(name, flags, profile-guided) from the fastest to the plainest (``rules``: the tree's
    ``engine/_native.py``, which holds the flags)."""
    fast = list(rules.FAST_CFLAGS)
    lto = fast + list(rules.LTO_CFLAGS)
    out: list[tuple[str, list[str], bool]] = []
    if gcc:
        out.append(("profile-guided, link-time optimised", lto, True))
        out.append(("link-time optimised", lto, False))
    if fast:
        out.append(("plain", list(fast), False))
    out.append(("plain, no extra flags", [], False))
    return out


def train(tree: Path, project: Path, timeout: float = 600) -> str | None:
    """Run ``TRAIN`` on the instrumented modules built in place in ``tree``; None or the error."""
    rules = _rules(tree)
    record = tree / "engine" / rules.RECORD
    record.write_text(f"compiled {rules.build_key(tree / 'engine')}\n")   # so the engine loads them
    # the modules beside the files, never a build of the same files from the cache
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(project)]), CELLFISH_NATIVE="1",
               CELLFISH_NATIVE_DIR=str(tree / "no-cache"))
    try:
        out = subprocess.run([sys.executable, "-c", TRAIN], cwd=tree, env=env,
                             capture_output=True, text=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"the training run did not finish: {e}"
    finally:
        record.unlink(missing_ok=True)
    if out.returncode:
        return "the training run failed: " + " | ".join((out.stdout + out.stderr).strip().splitlines()[-3:])
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m cellfish.native_build")
    ap.add_argument("--project", required=True, help="the folder holding the variants package (training)")
    ap.add_argument("--group", default="", help="the name of mypyc's shared library")
    ap.add_argument("files", nargs="+")
    a = ap.parse_args(argv)
    tree = Path.cwd()
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    rules = _rules(tree)
    args = ["--python-version", f"{sys.version_info.major}.{sys.version_info.minor}",
            "--ignore-missing-imports", "--no-warn-unused-ignores", *a.files]
    exts = mypycify(args, multi_file=True, group_name=a.group or None)

    class ProfiledBuild(build_ext):
        def build_extensions(self) -> None:
            # the C files of mypyc's library compiled in parallel (the first alone: it makes the
            # folders), and the modules' small extensions side by side
            compiler = self.compiler
            serial = compiler.compile

            def parallel(sources, *pargs, **kw):
                if len(sources) < 2:
                    return serial(sources, *pargs, **kw)
                first = serial(sources[:1], *pargs, **kw)
                with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                    rest = list(pool.map(lambda s: serial([s], *pargs, **kw), sources[1:]))
                return first + [o for r in rest for o in r]

            compiler.compile = parallel
            self.parallel = os.cpu_count() or 1
            try:
                super().build_extensions()
            finally:
                del compiler.compile

        def run(self) -> None:
            base = [(list(e.extra_compile_args), list(e.extra_link_args)) for e in self.extensions]
            chosen = self.compiler      # run() replaces it with the compiler object it makes

            def attempt(flags: list[str]) -> bool:
                for e, (c, ln) in zip(self.extensions, base):
                    e.extra_compile_args = c + flags
                    e.extra_link_args = ln + flags
                self.force = True
                self.compiler = chosen
                try:
                    super(ProfiledBuild, self).run()
                    return True
                except (Exception, SystemExit) as err:
                    print(f"cellfish build: {' '.join(flags) or 'no extra flags'} failed: {err}", flush=True)
                    return False

            for name, flags, guided in plans(rules, sys.platform != "win32" and is_gcc()):
                if guided:
                    if not attempt(flags + list(rules.PROFILE_GENERATE)):
                        continue
                    err = train(tree, Path(a.project))
                    if err:
                        print(f"cellfish build: {err}", flush=True)
                        continue
                    if attempt(flags + list(rules.PROFILE_USE)):
                        print(f"cellfish build: {name}", flush=True)
                        return
                elif attempt(flags):
                    print(f"cellfish build: {name}", flush=True)
                    return
            raise SystemExit("cellfish build: every flag set failed")

    setup(name="cellfish-engine", script_args=["build_ext", "--inplace"], ext_modules=exts,
          cmdclass={"build_ext": ProfiledBuild})
    return 0


if __name__ == "__main__":
    sys.exit(main())
