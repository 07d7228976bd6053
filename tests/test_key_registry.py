"""The key registry (variants/inifile/registry.py): each key declared once, and the key sets
the loader works from derived from it."""
from variants.inifile import keys, registry
from variants.inifile.build import ON_GRID, ON_LATTICE
from variants.plugins import keys as plugin_keys


def test_every_key_is_declared_once_with_a_known_origin():
    assert len(registry.BY_NAME) == len(registry.KEYS)
    assert {k.origin for k in registry.KEYS} == {"fsf", "cellfish"}
    assert all(k.needs in ("", *registry.BY_NAME) for k in registry.KEYS)


def test_refused_keys_are_fairy_stockfishs_and_read_on_no_board():
    refused = [k for k in registry.KEYS if not k.implemented]
    assert {k.name for k in refused} == keys.UNSUPPORTED
    assert all(k.origin == "fsf" and not k.boards for k in refused)
    assert not (ON_GRID | ON_LATTICE) & keys.UNSUPPORTED


def test_implemented_keys_are_read_on_some_board_and_name_no_piece_or_plugin():
    implemented = {k.name for k in registry.KEYS if k.implemented}
    assert implemented == ON_GRID | ON_LATTICE
    assert keys.RULE_KEYS | keys.GUI_ONLY <= ON_GRID
    assert not any(registry.is_piece_key(k) for k in implemented)
    assert not implemented & plugin_keys()


def test_defaults_are_those_of_the_keys_declared_with_one():
    assert keys.DEFAULTS["startFen"].startswith("rnbqkbnr/")
    assert set(keys.DEFAULTS) <= keys.RULE_KEYS
    assert all(registry.BY_NAME[k].default == v for k, v in registry.defaults("drop", "result").items())


def test_the_docs_name_every_key_and_list_exactly_the_refused_ones():
    """docs/variant-files.md names each declared key (a White/Black pair may be written as its
    base key with ``(`…White`, `…Black`)``) and its list of keys refused by name is the
    registry's."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "variant-files.md").read_text()

    def named(k: str) -> bool:
        base = re.sub(r"(White|Black)$", "", k)
        return f"`{k}`" in doc or (base != k and f"`{base}` (`…White`, `…Black`)" in doc)
    assert [k.name for k in registry.KEYS if not named(k.name)] == []
    part = doc[doc.index("The keys refused by name"):]
    assert set(re.findall(r"`(\w+)`", part[:part.index("\n\n")])) - {"registry"} == keys.UNSUPPORTED
