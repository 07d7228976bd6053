"""Variant registry: name -> where it is defined.  Modules and files are read on first use,
so the engine starts fast and a variant's tables are compiled only when it is played."""
from __future__ import annotations

import importlib
import os

# name -> module under variants/ (each module has VARIANTS: name -> class), or SHIPPED for a
# variant defined by a shipped variants file (variants/files/*.ini): the order here is the order
# the engine lists its variants in; shipped sections not named here follow, file by file
SHIPPED = "<file>"
REGISTRY: dict[str, str] = {
    "chess": "chess",
    "shogi": "shogi",
    "nested-a": SHIPPED,              # variants/files/nested.ini
    "nested-b": SHIPPED,
    **{f"notake-{f}": SHIPPED for f in ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")},
    **{n: SHIPPED for n in (          # variants/files/nichtschach.ini
        "elefantnichtschach", "generalnichtschach", "schweinnichtschach", "rajnichtschach",
        "paschanichtschach", "springernichtschach", "baernichtschach", "hummernichtschach",
        "spaniennichtschach", "springernichtschach-x", "baernichtschach-x")},
    "ninepiece-nichtschach": SHIPPED,
    "chushogi": "chushogi",           # a module: more kinds of piece than a file has letters
}

# variants cellfish ships as variants files (Alice Chess, Knavish Chess ...), read through the same loader
# as a user's file when the variant list is first needed
SHIPPED_DIR = os.path.join(os.path.dirname(__file__), "files")

_cache: dict[str, object] = {}
_from_files: dict[str, type] = {}      # name -> class, variants loaded from variants files
_shipped: dict[str, type] = {}          # name -> class, of the shipped files loaded so far
_shipped_loaded: set[str] = set()        # the shipped files loaded so far
_shipped_names: list[str] | None = None
_shipped_by_file: dict[str, list[str]] = {}


def _shipped_files() -> list[str]:
    return [os.path.join(SHIPPED_DIR, fn) for fn in sorted(os.listdir(SHIPPED_DIR))
            if fn.endswith(".ini")]


def shipped_names() -> list[str]:
    """The sections of the shipped variants files, read from their headers only (listing the
    variants at start-up builds nothing; a file is loaded when one of its games is first used)."""
    global _shipped_names
    if _shipped_names is None:
        for path in _shipped_files():
            _shipped_by_file[path] = shipped_names_of(path)
        _shipped_names = [n for path in _shipped_files() for n in _shipped_by_file[path]]
    return _shipped_names


def shipped_names_of(path: str) -> list[str]:
    """The section names of one variants file, read from its headers only."""
    from .inifile.parse import parse_text
    with open(path, encoding="utf-8") as f:
        return [sec.name for sec in parse_text(f.read(), path)[0]]


_shipped_keys: dict[str, dict[str, dict[str, str]]] = {}   # file -> section -> resolved keys
_resolving: set[str] = set()


def shipped_keys(name: str) -> dict[str, str] | None:
    """The keys of a shipped section (its parents' under its own), for a section of another
    file that names it as its parent (``[mine:crazyhouse]``); None when no shipped file
    defines it (or its file is being resolved: a cycle between files)."""
    shipped_names()
    path = next((p for p, own in _shipped_by_file.items() if name in own), None)
    if path is None:
        return None
    if path not in _shipped_keys:
        if path in _resolving:
            return None
        from .inifile.load import resolve
        from .inifile.parse import parse_text
        _resolving.add(path)
        try:
            with open(path, encoding="utf-8") as f:
                sections, _ = parse_text(f.read(), path)
            found = resolve(sections, path, set(), [])
        finally:
            _resolving.discard(path)
        _shipped_keys[path] = {n: {k: v for k, (v, _) in keys.items()} for n, keys in found.items()}
    return _shipped_keys[path].get(name)


def _load_shipped(path: str) -> None:
    """Load one shipped file (once): its names may not be any other built-in variant's."""
    if path in _shipped_loaded:
        return
    from .inifile import load_file as load
    own = set(_shipped_by_file[path])
    # the tests read every shipped start position (tests/test_shipped_starts.py): choosing a
    # game builds its own tables only
    _shipped.update(load(path, set(builtin_names()) - own, read_starts=False))
    _shipped_loaded.add(path)


def shipped(name: str | None = None) -> dict[str, type]:
    """name -> class of the shipped variants files (``variants/files/*.ini``): with `name`,
    only the file that defines it is loaded (choosing Knavish does not build Nichtschach);
    without, every file.  A problem in one of them is a bug of cellfish and raises
    VariantFileError."""
    shipped_names()
    for path, own in _shipped_by_file.items():
        if name is None or name in own:
            _load_shipped(path)
    return _shipped


def _module_names() -> set[str]:
    """The built-in variants defined by Python modules (not by shipped files)."""
    return {n for n, m in REGISTRY.items() if m != SHIPPED}


def names() -> list[str]:
    """Every variant: the built-in ones, the shipped files', then those loaded from files."""
    builtin = builtin_names()
    return builtin + [n for n in _from_files if n not in builtin]


def builtin_names() -> list[str]:
    """The variants cellfish ships (what a fresh engine lists): those named in REGISTRY in its
    order, then the other sections of the shipped files."""
    return list(REGISTRY) + [n for n in shipped_names() if n not in REGISTRY]


def get(name: str, chess960: bool = False):
    """The variant object for `name` (KeyError for an unknown name); with ``chess960``, its
    Chess960 form (``chess960_form``)."""
    if chess960:
        return chess960_form(name)
    v = _cache.get(name)
    if v is None:
        cls = _from_files.get(name)
        if cls is None and name in shipped_names():
            cls = shipped(name)[name]
        if cls is None:
            cls = importlib.import_module(f"variants.{REGISTRY[name]}").VARIANTS[name]
        v = cls()
        _cache[name] = v
    return v


_chess960: dict[str, object] = {}


def chess960_form(name: str):
    """The game `name` with Chess960 castling, as ``UCI_Chess960`` asks (Fairy-Stockfish
    plays any variant with castling so): a section of a variants file (or chess, from its
    keys) built again with ``chess960 = true``.  A variant without castling, one that has
    Chess960 castling already, and one whose castling is not the keys' own (a plugin's,
    another board's) are themselves."""
    v = get(name)
    if getattr(v, "chess960", False) or not getattr(v, "castling", ()):
        return v
    twin = _chess960.get(name)
    if twin is None:
        from .inifile.build import build_class
        from .inifile.load import BUILTIN_PARENTS
        keys = getattr(type(v), "section_keys", None)
        if keys is None and REGISTRY.get(name) == "chess":
            keys = {k: (val, 0) for k, val in BUILTIN_PARENTS["chess"].items()}
        if keys is None or "plugins" in keys or "lattice" in keys:
            return v
        cls, _ = build_class(name, {**keys, "chess960": ("true", 0)})
        twin = _chess960[name] = cls()
    return twin


def __getattr__(name: str):
    if name == "VariantFileError":        # imported lazily, with the loader
        from .inifile import VariantFileError
        return VariantFileError
    raise AttributeError(name)


def load_file(path: str) -> list[str]:
    """Load every section of a variants file (Fairy-Stockfish's format) and register them;
    all or nothing: raises ``variants.inifile.VariantFileError`` naming every problem, and
    then nothing of the file is registered.  A section may redefine a variant an earlier
    file defined, never a built-in one.  Returns the names loaded."""
    from .inifile import load_file as load
    real = os.path.realpath(path)
    if real in {os.path.realpath(f) for f in _shipped_files()}:
        # a shipped file itself (``cellfish check variants/files/…``): checked against the
        # other variants, its own names are not taken; its variants are shipped already
        own = shipped_names_of(real)
        return list(load(path, set(builtin_names()) - set(own)))
    classes = load(path, set(builtin_names()))
    for name, cls in classes.items():
        _from_files[name] = cls
        _cache.pop(name, None)
        _chess960.pop(name, None)
    return list(classes)
