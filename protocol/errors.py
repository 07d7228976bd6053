"""The error a command's bad input raises in the protocol sessions."""
from __future__ import annotations


class InputError(Exception):
    """Bad input: reported as one `info string error:` line, state unchanged."""
