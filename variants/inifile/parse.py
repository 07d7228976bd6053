"""The syntax of a variants file (Fairy-Stockfish's variants.ini format): sections and keys,
each remembered with its line, and the error type that names file, line, section and key.

    [name]            a variant from the default template (chess rules, no pieces)
    [name:parent]     a variant inheriting a section above it or a built-in variant
    key = value       one rule; a key given twice in a section keeps the last value
    # or ;            a comment line

As Fairy-Stockfish reads it, text after a section header's closing bracket is a comment
(``[name]  # a new variant``).  A comment after a value, starting with `` #`` or `` ;`` (a space
first), is left out of the value here; Fairy-Stockfish keeps it, and its number and switch
values stop at the first space anyway, so such a file means the same in both.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

_SECTION = re.compile(r"^\[([A-Za-z0-9_\-]+)(?::([A-Za-z0-9_\-]+))?\](.*)$")
_COMMENT = re.compile(r"\s[#;]")      # a comment after a value
_KEY = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\s*=\s*(.*)$")


@dataclass(frozen=True)
class Problem:
    """One problem of a variants file, as `<file>:<line>: [section] key: what (token)`."""
    file: str
    line: int
    what: str
    token: str = ""
    section: str = ""
    key: str = ""

    def __str__(self) -> str:
        where = f"[{self.section}] " if self.section else ""
        if self.key:
            where += f"{self.key}: "
        tok = f" ({self.token})" if self.token else ""
        return f"{self.file}:{self.line}: {where}{self.what}{tok}"


class VariantFileError(ValueError):
    """A variants file with problems; nothing of it was loaded."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


@dataclass
class Section:
    name: str
    parent: str | None
    line: int
    keys: dict[str, tuple[str, int]] = field(default_factory=dict)   # key -> (value, line)


def parse_text(text: str, file: str) -> tuple[list[Section], list[Problem]]:
    """Sections in file order, and the syntax problems found."""
    sections: list[Section] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            m = _SECTION.match(line)
            if m is None:
                problems.append(Problem(file, n, "bad section header", line))
                continue
            name, parent = m.group(1), m.group(2)
            if name in seen:
                problems.append(Problem(file, n, "section defined twice", name, name))
            seen.add(name)
            sections.append(Section(name, parent, n))
            continue
        m = _KEY.match(line)
        if m is None:
            problems.append(Problem(file, n, "not a key = value line", line,
                                    sections[-1].name if sections else ""))
            continue
        if not sections:
            problems.append(Problem(file, n, "key outside a section", m.group(1), "", m.group(1)))
            continue
        value = _COMMENT.split(m.group(2), 1)[0].strip()
        sections[-1].keys[m.group(1)] = (value, n)
    return sections, problems
