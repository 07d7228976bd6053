"""Helpers shared by the tests of variants files: load a file's text against the built-in
variant names, and the problems a bad text is refused with (as ``file:line: [section] key:
what (token)`` strings)."""
from __future__ import annotations

import pytest

import variants
from variants.inifile import VariantFileError, load_text


def load(text: str) -> dict:
    """name -> class of every section of `text` (read as ``f.ini``)."""
    return load_text(text, "f.ini", set(variants.builtin_names()))


def problems(text: str) -> list[str]:
    """The problems loading `text` raises (the test fails if it loads)."""
    with pytest.raises(VariantFileError) as e:
        load(text)
    return [str(p) for p in e.value.problems]
