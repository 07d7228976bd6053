"""The rules core and the searcher.  If ``cellfish native --build`` has compiled these very
files, their compiled modules are found first (``engine/_native.py``)."""
from ._native import use_native

use_native(__path__)
