"""Loading a variants file: inheritance, building every section, checking each start
position, and registering the variants only when the whole file is sound (all or nothing)."""
from __future__ import annotations

import re

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

# Fairy-Stockfish's order of its piece types (the custom pieces, then the king come last): a
# section's piece keys are read in this order, and a piece given a letter another piece has
# replaces that piece (its add_piece), so of two keys with one letter the later one stays
_FSF_ORDER = ("pawn knight bishop rook queen fers alfil fersAlfil silver aiwok bers archbishop "
              "chancellor amazon knibis biskni kniroo rookni shogiPawn lance shogiKnight gold "
              "dragonHorse clobber breakthrough immobile cannon janggiCannon soldier horse "
              "elephant janggiElephant banner wazir commoner centaur").split()
_CUSTOM = re.compile(r"customPiece(\d+)$")

# keys naming piece types by letter (a set of letters, ``*`` for all, ``-`` for none), and keys
# of ``letter:value`` pairs: an inherited value names the parent's piece types, so a letter
# whose piece a child replaced no longer names anything there (Fairy-Stockfish stores types)
LETTER_SETS = frozenset("""pawnTypes promotionPieceTypes promotionPieceTypesWhite
    promotionPieceTypesBlack extinctionPieceTypes flagPiece flagPieceWhite flagPieceBlack
    nMoveRuleTypes nMoveRuleTypesWhite nMoveRuleTypesBlack enPassantTypes enPassantTypesWhite
    enPassantTypesBlack castlingKingPiece castlingRookPieces promotionPawnTypes
    promotionPawnTypesWhite promotionPawnTypesBlack dropNoDoubled blastImmuneTypes
    mutuallyImmuneTypes castlingDroppedPiece mustDropType nMoveRuleTypesOnly deadPositionTypes
    promotedOnlyTypes ringKeepingTypes""".split())
LETTER_PAIRS = frozenset(("promotedPieceType", "promotionLimit"))


def _is_piece(key: str) -> bool:
    return key in _FSF_ORDER or key == "king" or _CUSTOM.match(key) is not None


def _piece_order(key: str) -> tuple[int, int]:
    """Where Fairy-Stockfish reads a piece key among a section's pieces."""
    if key in _FSF_ORDER:
        return (0, _FSF_ORDER.index(key))
    m = _CUSTOM.match(key)
    if m:
        return (1, int(m.group(1)))
    return (2, 0)                   # the king


def _letter(value: str) -> str | None:
    return value[0].lower() if value and value[0].isalpha() else None


def _rename(value: str, key: str, renamed: dict[str, str | None]) -> str:
    """An inherited letter-naming value with each letter of ``renamed`` replaced by its new
    letter, or left out (None: the piece type is gone)."""
    def new(ch: str) -> str | None:
        low = ch.lower()
        if low not in renamed:
            return ch
        to = renamed[low]
        return None if to is None else (to.upper() if ch.isupper() else to)
    if key in LETTER_PAIRS:
        out = []
        for pair in value.split():
            a, sep, b = pair.partition(":")
            na = new(a) if len(a) == 1 else a
            nb = new(b) if len(b) == 1 and b.isalpha() else b
            if na is not None and nb is not None:
                out.append(f"{na}{sep}{nb}")
        return " ".join(out)
    if value in ("*", "-"):
        return value
    kept = [c for c in (new(ch) if ch.isalpha() else ch for ch in value) if c is not None]
    return "".join(kept) or "-"


def merge(keys: dict[str, tuple[str, int]], child: dict[str, tuple[str, int]]) -> None:
    """A child section's keys on top of its parent's resolved ``keys``, as Fairy-Stockfish
    reads them: a piece key whose letter another piece has replaces that piece (an inherited
    one, or one before it in Fairy-Stockfish's order of piece keys), and the inherited keys
    that name piece types by letter follow: a replaced piece's letter leaves them, a piece
    given a new letter is named by it."""
    inherited = dict(keys)
    renamed: dict[str, str | None] = {}
    # a lattice board is cellfish's own (no Fairy-Stockfish file has one): a letter given
    # twice there stays a problem the lattice builder names
    replace = "lattice" not in keys and "lattice" not in child
    # the child's piece keys are read in Fairy-Stockfish's order (which piece replaces which),
    # then written in the file's order (the order of the variant's piece types)
    placed: dict[str, tuple[str, int]] = {}
    for k in sorted((k for k in child if _is_piece(k)), key=_piece_order):
        if not replace:
            placed[k] = child[k]
            continue
        letter = _letter(child[k][0])
        if k in keys and keys[k][0] and keys[k][0] != child[k][0]:
            old = _letter(keys[k][0])
            if old and old != letter:           # the same piece type under a new letter or none
                renamed.setdefault(old, letter)
        if letter:
            for where in (keys, placed):
                for other in [o for o in where if o != k and _is_piece(o)]:
                    if _letter(where[other][0]) == letter:
                        if other == "king":           # no royal piece unless one is given
                            where[other] = ("-", child[k][1])
                        else:
                            del where[other]          # that piece is gone
                        if other in inherited:
                            renamed.setdefault(letter, None)
        placed[k] = child[k]
    for k in child:
        if k in placed:
            keys[k] = placed[k]
    for k, (v, ln) in child.items():
        if _is_piece(k):
            continue                        # placed above
        if k in MERGED and k in keys and k in inherited:
            v = f"{_rename(inherited[k][0], k, renamed)} {v}".strip()
        keys[k] = (v, ln)
    if renamed:
        for k in LETTER_SETS | LETTER_PAIRS:
            if k in inherited and k not in child:
                keys[k] = (_rename(inherited[k][0], k, renamed), inherited[k][1])


def _external_parent(name: str) -> dict[str, str] | None:
    """The resolved keys of a variant a section of another file may inherit: chess and shogi
    (written above), or any section of a shipped variants file (variants/files)."""
    if name in BUILTIN_PARENTS:
        return BUILTIN_PARENTS[name]
    import variants                         # the registry of shipped files (imports the loader)
    return variants.shipped_keys(name)


def resolve(sections: list[Section], file: str, known: set[str],
            problems: list[Problem]) -> dict[str, dict[str, tuple[str, int]]]:
    """Each section's keys with its parents' keys under them (a child's key wins)."""
    by_name = {s.name: s for s in sections}
    order = [x.name for x in sections]
    out: dict[str, dict[str, tuple[str, int]]] = {}
    for s in sections:
        chain, cur = [], s
        root: dict[str, str] | None = None
        while True:
            chain.append(cur)
            p = cur.parent
            if p is None:
                break
            nxt = by_name.get(p)
            if nxt is None:
                root = _external_parent(p)
                if root is not None:
                    break
            if nxt is None or order.index(p) >= order.index(cur.name):
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
        if root is not None:
            keys.update({k: (v, chain[-1].line) for k, v in root.items()})
        for c in reversed(chain):
            merge(keys, c.keys)
        out[s.name] = keys
    return out


def load_text(text: str, file: str, known: set[str], *,
              read_starts: bool = True) -> dict[str, type[Variant]]:
    """The variant classes of a file's sections; raises VariantFileError naming every problem.
    ``known``: the names already taken (a section may not redefine them).  ``read_starts``:
    build each variant and read its start position (which compiles its attack tables to see
    that the side not to move is not in check); the engine's own shipped files skip it when
    one of their games is chosen, since the tests read every shipped start position, and a
    file of seventy games would otherwise compile seventy games' tables to play one."""
    sections, problems = parse_text(text, file)
    resolved = resolve(sections, file, known, problems)
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
            if read_starts:
                v = cls()
                parse_position(v, v.start_fen)
        except NotationError as e:
            problems.append(Problem(file, lines.get("startFen", s.line), f"bad startFen: {e}",
                                    "", s.name, "startFen"))
            continue
        except (ValueError, KeyError, IndexError) as e:
            problems.append(Problem(file, s.line, f"cannot build: {e}", "", s.name))
            continue
        classes[s.name] = cls
    if problems:
        raise VariantFileError(sorted(problems, key=lambda p: p.line))
    return classes


def load_file(path: str, known: set[str], *, read_starts: bool = True) -> dict[str, type[Variant]]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise VariantFileError([Problem(path, 0, "cannot read the file", type(e).__name__)]) from None
    return load_text(text, path, known, read_starts=read_starts)
