"""Every game of the shipped variants files builds and reads its own start position, fully
checked (the side not to move not in check, a king for each side where the rules want one):
the engine loads its shipped files without reading their start positions, so that choosing one
game does not compile the tables of every game of its file (variants/__init__.py)."""
import pytest

import variants
from engine.notation import format_position, parse_position

NAMES = variants.shipped_names()


@pytest.mark.parametrize("name", NAMES)
def test_a_shipped_start_position_reads_and_writes_back(name):
    v = variants.get(name)
    pos = parse_position(v, v.start_fen)
    assert format_position(pos) == format_position(v.start_position())


def test_choosing_one_game_of_a_file_builds_that_game_only():
    """In a fresh engine, choosing crazyhouse (a file of some seventy games) makes one
    variant object, not one per game of the file."""
    import subprocess
    import sys
    code = ("import engine.variant as ev, variants\n"
            "made = []\n"
            "init = ev.Variant.__init__\n"
            "def counted(self, *a, **k):\n"
            "    made.append(type(self).__name__)\n"
            "    init(self, *a, **k)\n"
            "ev.Variant.__init__ = counted\n"
            "variants.get('crazyhouse')\n"
            "print(len(made))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1"]
