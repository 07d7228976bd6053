"""Variant registry: name -> module that defines it.  Modules are imported on first use,
so the engine starts fast and a variant's tables are compiled only when it is played."""
from __future__ import annotations

import importlib

# name -> module under variants/ (each module has VARIANTS: name -> class)
REGISTRY: dict[str, str] = {
    "chess": "chess",
    "shogi": "shogi",
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
