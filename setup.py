"""The build's one hook (the rest of the configuration is pyproject.toml): compile the engine.

``pip install .`` and ``pip wheel .`` compile the rules core and the searcher (the modules of
``engine/`` that ``engine/_native.py`` names, the same set as ``cellfish native --build``)
with mypyc while they build, and install each extension module beside the ``.py`` it was made
of, with a record of the digest of those files (``engine/native-build.txt``): the engine
loads them only while its files match it.  When mypyc or the C compiler (or the Python
headers) fails, the build goes on without them and says so in one line starting with
"cellfish:" (``pip install -v`` shows it); the record keeps the reason, which
``cellfish native`` and ``cellfish --version`` print.

``pip install -e .`` (a contributor's checkout) never puts compiled modules in the source
tree, where an edited ``.py`` would lose to them: it compiles these very files into the build
cache instead (``cellfish native --build``), which an edit leaves behind.

``CELLFISH_NATIVE=0`` in the environment of the install skips the compiling.
"""
from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.dist import Distribution

ROOT = Path(__file__).resolve().parent


def say(line: str) -> None:
    print(f"cellfish: {line}", file=sys.stderr, flush=True)


def rules():
    """``engine/_native.py``, loaded by its path: which files to compile, and their digest."""
    spec = importlib.util.spec_from_file_location("cellfish_build_rules", ROOT / "engine" / "_native.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def short(e: BaseException) -> str:
    """The compiler's failure in a few words: which command failed (not its 30 arguments)."""
    text = str(e).strip()
    m = re.search(r"[Cc]ommand '\[?'?([^' ,\]]+)", text)
    if m:
        return f"{m.group(1)} failed: compiling needs a C compiler and the Python headers"
    return (text.splitlines() or [type(e).__name__])[0][:160]


class PlatformDistribution(Distribution):
    """The wheel holds extension modules, so it is built for this platform and Python."""

    def has_ext_modules(self) -> bool:
        return True


class BuildEngine(build_ext):
    """build_ext whose extensions are the engine's modules, compiled by mypyc, or none."""

    def run(self) -> None:
        native = rules()
        if getattr(self, "editable_mode", False) or self.inplace:
            self.into_cache(native)
            return
        pkg = Path(self.build_lib) / "engine"
        self.clear_old_modules(pkg, native)
        if not native.wanted():
            outcome = "interpreted CELLFISH_NATIVE=0 was set at install"
        else:
            outcome = self.compile_engine(pkg, native)
        if pkg.is_dir():
            (pkg / native.RECORD).write_text(outcome + "\n")
        if outcome.startswith("interpreted"):
            say(f"the engine is not compiled ({outcome[len('interpreted '):]}); installing the "
                "interpreted engine, which plays the same, slower")
        else:
            say(f"the engine is compiled (mypyc{', ' + self.plan if getattr(self, 'plan', '') else ''})")

    def clear_old_modules(self, pkg: Path, native) -> None:
        """A build folder reused from an earlier build may hold its modules: never ship them."""
        suffix = native.ext_suffix()
        for p in native.compiled_sources(ROOT / "engine"):
            (pkg / (p.stem + suffix)).unlink(missing_ok=True)
        for p in Path(self.build_lib).glob("cellfish_engine_*__mypyc*"):
            p.unlink(missing_ok=True)

    def compile_engine(self, pkg: Path, native) -> str:
        """Compile into ``pkg``; the record's line: "compiled <digest>" or "interpreted <why>".
        The same build as ``cellfish native --build`` (``cellfish/native_build.py``: mypyc, then
        the C compiler twice, profile-guided, where it can), made in a scratch folder; its
        modules are copied beside the installed files."""
        # the digest of the files installed beside the modules (build_py has copied them)
        key = native.build_key(pkg if pkg.is_dir() else ROOT / "engine")
        try:
            import mypy  # noqa: F401
        except ImportError:
            return "interpreted mypy is not installed"
        sys.path.insert(0, str(ROOT))
        try:
            from cellfish.native import compile_into, copy_modules
            with tempfile.TemporaryDirectory(prefix="cellfish-build-") as tmp:
                tree = Path(tmp)
                # a unique name for mypyc's shared library, so no other build's library of the
                # same modules can stand in
                notes: list[str] = []       # the build's lines; the last names what was built
                err = compile_into(tree, ROOT / "engine", group=f"cellfish_engine_{key}", log=notes.append)
                if err:
                    return f"interpreted {short(RuntimeError(err))}"
                copy_modules(tree, Path(self.build_lib), pkg)
        except Exception as e:          # the install goes on: the engine runs interpreted
            return f"interpreted {short(e)}"
        finally:
            sys.path.remove(str(ROOT))
        missing = [p.name for p in native.compiled_sources(ROOT / "engine")
                   if not (pkg / (p.stem + native.ext_suffix())).is_file()]
        if missing:
            return f"interpreted mypyc built no module for {', '.join(missing)}"
        self.plan = notes[-1] if notes else ""
        return f"compiled {key}"

    def into_cache(self, native) -> None:
        """An editable install: compile the checkout's files into the build cache."""
        if not native.wanted():
            say("CELLFISH_NATIVE=0: the engine is not compiled (cellfish native --build does it later)")
            return
        sys.path.insert(0, str(ROOT))
        try:
            from cellfish.native import build
            err = build(log=lambda line: say(line))
        except Exception as e:          # the install goes on: the engine runs interpreted
            err = str(e)
        finally:
            sys.path.remove(str(ROOT))
        if err:
            say(f"the engine is not compiled ({short(RuntimeError(err))}); it runs interpreted, "
                "the same moves, slower")

    def get_outputs(self) -> list[str]:
        return [str(p) for p in Path(self.build_lib).glob("cellfish_engine_*__mypyc*")] + [
            str(p) for p in (Path(self.build_lib) / "engine").glob("*" + rules().ext_suffix())]


# setuptools runs build_ext only for a distribution with extension modules: the list is
# filled when the build runs (mypyc type-checks and writes C then, not at every hook call)
setup(ext_modules=[], distclass=PlatformDistribution, cmdclass={"build_ext": BuildEngine})
