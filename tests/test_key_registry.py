"""The key registry (variants/inifile/registry.py): each key declared once, and the key sets
the loader works from derived from it."""
from variants.inifile import keys, registry
from variants.inifile.build import ON_GRID, ON_HEX, ON_LATTICE
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
    assert implemented == ON_GRID | ON_LATTICE | ON_HEX     # the hex board: its own keys
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


DOC_TYPES = {"bool": "bool", "number": "int", "win, loss, draw": "value", "file": "file", "rank": "rank"}


def _doc_rows() -> list[tuple[list[str], str]]:
    """(keys named, type column) of every key table row of docs/variant-files.md; a
    ``(`…White`, `…Black`)`` pair stands for both keys."""
    import re
    from pathlib import Path
    doc = (Path(__file__).resolve().parent.parent / "docs" / "variant-files.md").read_text()
    rows = []
    for line in doc.splitlines():
        cols = [c.strip() for c in line.split("|")]
        if len(cols) < 4 or not cols[1].startswith("`"):
            continue
        named = re.findall(r"`(\w+)`", cols[1])
        if "(`…White`, `…Black`)" in cols[1]:
            named = [n + side for n in named for side in ("White", "Black")]
        kinds = cols[2].split(", ") if len(named) > 1 and cols[2].count(", ") == len(named) - 1 \
            else [cols[2]] * len(named)
        rows.extend(([n], k) for n, k in zip(named, kinds))
    return rows


def _doc_kind(text: str) -> tuple[str, int, int]:
    """The reader a type column describes: ``1–10`` is a whole number in bounds, ``1–12 or
    a–l`` a file."""
    import re
    if text.endswith("or a–l"):
        return ("file", 0, 0)
    m = re.fullmatch(r"(\d+)–(\d+)", text)
    if m:
        return ("int", int(m.group(1)), int(m.group(2)))
    return (DOC_TYPES.get(text, "text"), 0, 0)


def test_the_docs_give_each_key_the_type_its_reader_reads():
    """A key documented as bool, number, file, rank or win/loss/draw is declared with that
    reader, and every key declared with one of these readers is documented as such."""
    documented = {n[0]: _doc_kind(kind) for n, kind in _doc_rows() if n[0] in registry.BY_NAME}
    declared = {n: (r.kind, r.lo if r.kind == "int" else 0, r.hi if r.kind == "int" else 0)
                for n, r in ((k.name, k.reader) for k in registry.KEYS)}
    wrong = {n: (documented[n], declared[n]) for n in documented
             if declared[n] != documented[n] and documented[n][1:] != (0, 0) or
             declared[n][0] != documented[n][0]}
    assert wrong == {}
    typed = {n for n, d in declared.items() if d[0] != "text" and registry.BY_NAME[n].implemented}
    assert typed - set(documented) == set()


def test_a_section_s_bad_values_are_reported_together_with_their_lines():
    import pytest
    from variants.inifile.load import load_text
    from variants.inifile.parse import VariantFileError
    text = "[two:chess]\ncastling = maybe\nnMoveRule = lots\ncheckmateValue = tie\n"
    with pytest.raises(VariantFileError) as e:
        load_text(text, "two.ini", set())
    got = sorted((p.line, p.key, p.what) for p in e.value.problems)
    assert got == [(2, "castling", "not true or false"), (3, "nMoveRule", "not a whole number"),
                   (4, "checkmateValue", "not win, loss or draw")]


def test_the_bounds_the_registry_declares_are_the_modules_constants():
    from variants.inifile.levels import MAX_LEVELS
    from variants.inifile.returns import CORE_HAND
    assert registry.BY_NAME["levels"].reader == registry.INT(2, MAX_LEVELS)
    assert registry.BY_NAME["handLimit"].reader == registry.INT(CORE_HAND, 10000)
