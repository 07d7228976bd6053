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


def names() -> list[str]:
    return list(REGISTRY)


def get(name: str):
    """The variant object for `name` (KeyError for an unknown name)."""
    v = _cache.get(name)
    if v is None:
        mod = importlib.import_module(f"variants.{REGISTRY[name]}")
        v = mod.VARIANTS[name]()
        _cache[name] = v
    return v
