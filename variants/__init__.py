"""Variant registry: name -> module that defines it.  Modules are imported on first use,
so the engine starts fast and a variant's tables are compiled only when it is played."""
from __future__ import annotations

import importlib

# name -> module under variants/ (each module has VARIANTS: name -> class)
REGISTRY: dict[str, str] = {
    "chess": "chess",
    "shogi": "shogi",
    **{n: "knavish" for n in ("knavish", "knavish8", "knavish-kneader", "knavish-promotion",
                              "knavish-returns", "knavish8-promotion", "knavish8-returns")},
    "nested-a": "nested",
    "nested-b": "nested",
    **{f"notake-{f}": "notake" for f in ("approach", "withdraw", "shunt", "tow", "overtake", "rifle")},
    **{n: "nichtschach" for n in (
        "elefantnichtschach", "generalnichtschach", "schweinnichtschach", "rajnichtschach",
        "paschanichtschach", "springernichtschach", "baernichtschach", "hummernichtschach",
        "spaniennichtschach", "springernichtschach-x", "baernichtschach-x")},
    "ninepiece-nichtschach": "ninepiece",
}

_cache: dict[str, object] = {}
_from_files: dict[str, type] = {}      # name -> class, variants loaded from variants files


def names() -> list[str]:
    """Every variant: the built-in ones, then those loaded from variants files."""
    return list(REGISTRY) + [n for n in _from_files if n not in REGISTRY]


def builtin_names() -> list[str]:
    """The variants cellfish ships (what a fresh engine lists)."""
    return list(REGISTRY)


def get(name: str):
    """The variant object for `name` (KeyError for an unknown name)."""
    v = _cache.get(name)
    if v is None:
        cls = _from_files.get(name)
        if cls is None:
            cls = importlib.import_module(f"variants.{REGISTRY[name]}").VARIANTS[name]
        v = cls()
        _cache[name] = v
    return v


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
    classes = load(path, set(REGISTRY))
    for name, cls in classes.items():
        _from_files[name] = cls
        _cache.pop(name, None)
    return list(classes)
