"""Engine options: one definition, two spellings (UCI and USI), parsed case-insensitively."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Option:
    key: str            # internal key
    uci: str            # UCI name
    usi: str            # USI name
    kind: str           # spin, check, combo, button, string
    default: object = None
    lo: int = 0
    hi: int = 0
    choices: tuple[str, ...] = ()

    def line(self, dialect: str, variant_default: str | None = None) -> str:
        name = self.usi if dialect == "usi" else self.uci
        default = variant_default if variant_default is not None else self.default
        s = f"option name {name} type {self.kind}"
        if self.kind == "spin":
            s += f" default {default} min {self.lo} max {self.hi}"
        elif self.kind == "check":
            s += f" default {'true' if default else 'false'}"
        elif self.kind == "combo":
            s += f" default {default}" + "".join(f" var {c}" for c in self.choices)
        elif self.kind == "string":
            s += f" default {default if default else '<empty>'}"
        return s


def norm(name: str) -> str:
    return name.lower().replace(" ", "").replace("_", "")


def make_options(variant_names: list[str]) -> list[Option]:
    return [
        Option("variant", "UCI_Variant", "USI_Variant", "combo", "chess", choices=tuple(variant_names)),
        Option("hash", "Hash", "USI_Hash", "spin", 16, 1, 4096),
        Option("multipv", "MultiPV", "USI_MultiPV", "spin", 1, 1, 500),
        Option("overhead", "Move Overhead", "Move_Overhead", "spin", 50, 0, 5000),
        Option("ponder", "Ponder", "USI_Ponder", "check", False),
        Option("clearhash", "Clear Hash", "Clear_Hash", "button"),
        Option("variantpath", "VariantPath", "VariantPath", "string", ""),
        Option("chess960", "UCI_Chess960", "USI_Chess960", "check", False),
    ]


def find(options: list[Option], name: str) -> Option | None:
    n = norm(name)
    for o in options:
        for alias in (o.uci, o.usi):
            a = norm(alias)
            if n == a or n == "usi" + a or "usi" + n == a or n == "uci" + a or "uci" + n == a:
                return o
    return None


def parse_value(opt: Option, text: str):
    """Typed value or raises ValueError with a message."""
    if opt.kind == "spin":
        try:
            v = int(text)
        except ValueError:
            raise ValueError(f"option {opt.uci} needs a whole number") from None
        if not opt.lo <= v <= opt.hi:
            raise ValueError(f"option {opt.uci} must be between {opt.lo} and {opt.hi}")
        return v
    if opt.kind == "check":
        t = text.lower()
        if t not in ("true", "false"):
            raise ValueError(f"option {opt.uci} needs true or false")
        return t == "true"
    if opt.kind == "combo":
        for c in opt.choices:
            if c.lower() == text.lower():
                return c
        raise ValueError(f"unknown value for {opt.uci}")
    if opt.kind == "string":
        return "" if text == "<empty>" else text
    return None
