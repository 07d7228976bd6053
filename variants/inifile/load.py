"""Loading a variants file: inheritance, building every section, checking each start
position, and registering the variants only when the whole file is sound (all or nothing)."""
from __future__ import annotations

from engine.notation import NotationError, parse_position
from engine.variant import Variant

from .build import build_class
from .values import KeyError_, KeyErrors
from .parse import Problem, Section, VariantFileError, parse_text

# built-in variants a section may name as its parent: their keys (the template plus pieces)
BUILTIN_PARENTS: dict[str, dict[str, str]] = {
    "chess": {"pawn": "p", "knight": "n", "bishop": "b", "rook": "r", "queen": "q", "king": "k"},
    # Fairy-Stockfish's shogi (its minishogi base on 9x9 with lances and knights)
    "shogi": {
        "variantTemplate": "shogi", "maxRank": "9", "maxFile": "9", "shogiPawn": "p",
        "silver": "s", "gold": "g", "bishop": "b", "dragonHorse": "h", "rook": "r", "bers": "d",
        "king": "k", "lance": "l", "shogiKnight": "n",
        "startFen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[-] w 0 1",
        "pieceDrops": "true", "capturesToHand": "true", "promotionRegionWhite": "*7 *8 *9",
        "promotionRegionBlack": "*1 *2 *3", "doubleStep": "false", "castling": "false",
        "promotedPieceType": "p:g s:g b:h r:d l:g n:g", "dropNoDoubled": "p",
        "immobilityIllegal": "true", "shogiPawnDropMateIllegal": "true", "stalemateValue": "loss",
        "nFoldRule": "4", "nMoveRule": "0", "perpetualCheckIllegal": "true"},
}

# keys whose entries a child adds to its parent's (Fairy-Stockfish parses the child's value on
# top of the parent's rules), rather than replacing the whole value
MERGED = ("promotedPieceType", "promotionLimit")


def _resolve(sections: list[Section], file: str, known: set[str],
             problems: list[Problem]) -> dict[str, dict[str, tuple[str, int]]]:
    """Each section's keys with its parents' keys under them (a child's key wins)."""
    by_name = {s.name: s for s in sections}
    out: dict[str, dict[str, tuple[str, int]]] = {}
    for s in sections:
        chain, cur = [], s
        while True:
            chain.append(cur)
            p = cur.parent
            if p is None or p in BUILTIN_PARENTS:
                break
            nxt = by_name.get(p)
            if nxt is None or [x.name for x in sections].index(p) >= [x.name for x in sections].index(cur.name):
                what = "parent defined below it or in a cycle" if nxt is not None else \
                    ("inheriting from this built-in variant is not supported" if p in known
                     else "no such parent")
                problems.append(Problem(file, cur.line, what, p, cur.name))
                chain = []
                break
            cur = nxt
        if not chain:
            continue
        keys: dict[str, tuple[str, int]] = {}
        root = chain[-1].parent
        if root in BUILTIN_PARENTS:
            keys.update({k: (v, chain[-1].line) for k, v in BUILTIN_PARENTS[root].items()})
        for c in reversed(chain):
            for k, (v, ln) in c.keys.items():
                if k in MERGED and k in keys:
                    v = f"{keys[k][0]} {v}"
                keys[k] = (v, ln)
        out[s.name] = keys
    return out


def load_text(text: str, file: str, known: set[str]) -> dict[str, type[Variant]]:
    """The variant classes of a file's sections; raises VariantFileError naming every problem.
    ``known``: the names already taken (a section may not redefine them)."""
    sections, problems = parse_text(text, file)
    resolved = _resolve(sections, file, known, problems)
    classes: dict[str, type[Variant]] = {}
    for s in sections:
        if s.name in known:
            problems.append(Problem(file, s.line, "a built-in variant has this name", s.name, s.name))
            continue
        keys = resolved.get(s.name)
        if keys is None:
            continue
        try:
            cls, lines = build_class(s.name, keys)
        except (KeyError_, KeyErrors) as e:
            for err in e.errors if isinstance(e, KeyErrors) else [e]:
                problems.append(Problem(file, keys.get(err.key, ("", s.line))[1], err.what,
                                        err.token, s.name, err.key))
            continue
        except (ValueError, IndexError) as e:
            problems.append(Problem(file, s.line, str(e), s.name, s.name))
            continue
        try:
            v = cls()
            parse_position(v, v.start_fen)
        except NotationError as e:
            problems.append(Problem(file, lines.get("startFen", s.line), f"bad startFen: {e}",
                                    "", s.name, "startFen"))
            continue
        except (ValueError, KeyError, IndexError) as e:
            problems.append(Problem(file, s.line, f"cannot build: {e}", "", s.name))
            continue
        cls.section_keys = keys         # type: ignore[attr-defined]  # a Chess960 form is built from them
        classes[s.name] = cls
    if problems:
        raise VariantFileError(sorted(problems, key=lambda p: p.line))
    return classes


def load_file(path: str, known: set[str]) -> dict[str, type[Variant]]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise VariantFileError([Problem(path, 0, "cannot read the file", type(e).__name__)]) from None
    return load_text(text, path, known)
