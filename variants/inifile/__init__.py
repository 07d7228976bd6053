"""Variants from a file in Fairy-Stockfish's variants.ini format (docs/variant-files.md)."""
from __future__ import annotations

from .load import load_file, load_text
from .parse import Problem, VariantFileError

__all__ = ["Problem", "VariantFileError", "load_file", "load_text"]
