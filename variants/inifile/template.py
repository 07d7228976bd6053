"""``variantTemplate = shogi`` (a Fairy-Stockfish key a GUI reads): the section is a game of
the shogi family, so under USI it speaks as Fairy-Stockfish does for one: shogi cell names
(file numbers from the right, rank letters from the top: ``5e``; drops ``P*5e``) and SFEN
position text, and the engine announces its template as ``shogi``.  Under UCI nothing
changes.  Other templates (``crazyhouse``, ``bughouse``, ``xiangqi`` ...) change nothing
here."""
from __future__ import annotations

from engine.geometry import Geometry

from .filevariant import FileVariant


class ShogiTemplate(FileVariant):
    """Mixin: USI cell names beside the UCI ones, and the ``shogi`` template."""
    template = "shogi"

    def make_geometry(self) -> Geometry:
        geo = super().make_geometry()
        if geo.dims != 2:                   # levelled and solid boards keep their names
            return geo
        files = 1 + max(c[0] for c in geo.coords)
        ranks = 1 + max(c[1] for c in geo.coords)
        usi = [f"{files - x}{chr(97 + ranks - 1 - y)}" for x, y in geo.coords]
        out = Geometry(geo.coords, geo.names, {**geo.alt_names, "usi": usi})
        out.level_axis, out.lift_vectors = geo.level_axis, geo.lift_vectors
        return out


def template_bases(val: dict[str, str]) -> tuple[type, ...]:
    return (ShogiTemplate,) if val.get("variantTemplate") == "shogi" else ()
