"""The rules core and the searcher.  Where these very files have been compiled (by
``pip install .`` beside them, or by ``cellfish native --build`` / ``pip install -e .`` into
the build cache), their compiled modules are found first (``engine/_native.py``)."""
from ._native import use_native

use_native(__path__)
