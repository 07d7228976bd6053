"""Helpers shared by the tests of variants files: load a file's text against the built-in
variant names, the variant of a one-section text, and the problems a bad text is refused
with (as ``file:line: [section] key: what (token)`` strings)."""
from __future__ import annotations

import pytest

import variants
from variants.inifile import VariantFileError, load_text


def load(text: str) -> dict:
    """name -> class of every section of `text` (read as ``f.ini``)."""
    return load_text(text, "f.ini", set(variants.builtin_names()))


def one(text: str):
    """The variant of a text with a single section."""
    (cls,) = load(text).values()
    return cls()


def problems(text: str) -> list[str]:
    """The problems loading `text` raises (the test fails if it loads)."""
    with pytest.raises(VariantFileError) as e:
        load(text)
    return [str(p) for p in e.value.problems]
