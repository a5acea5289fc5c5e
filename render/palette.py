"""A fixed 256-colour palette per board look, so encoding a picture costs ~1 ms, not ~6.

An adaptive palette computed from each picture would be slower and would make
two pictures of one game flicker between slightly different colours in a GIF.
Instead the palette is computed once from a sample picture that holds every
kind of thing a picture of this look can show (both pieces on every kind of
cell, every mark, both arrows, the winning line, every badge, cards, text);
each picture is then mapped to it colour by colour, with no dithering.
Deterministic: the palette depends only on its key, never on what was drawn before.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from .board import BoardStyle
from .scene import Arrow, Cards, Panel, Piece, Scene
from .theme import Theme

#: colours in a palette; the one index left over is the GIF's transparent index
COLOURS = 255


def sample_scenes(style: BoardStyle, size: int, cards: bool) -> list[Scene]:
    """Two scenes that between them show everything a picture of this look can."""
    n = size
    kinds = style.pieces.split("+")
    looks = {"v": style.vertical, "h": style.horizontal}
    numbered = [i for i, k in enumerate(style.numbers) if k] if style.numbers else []
    plain = [i for i in range(n * n) if i not in set(numbered)]
    pieces: list[Piece] = []
    tints: list[tuple[int, str]] = []
    marks: list[tuple[int, str]] = []
    cells = iter(plain[: len(plain) // 2 * 2])
    for kind in kinds:
        for key, under_key in (("v", "h"), ("h", "v")):
            colours = looks[key]
            for tint, mark in ((None, None), ("win", None), ("hint", "ring"), (None, "pending"), (None, "dot"), ("last", "ring")):
                c = next(cells, None)
                if c is None:
                    break
                if tint:
                    tints.append((c, tint))
                symbol = ("o" if key == "v" else "x") if kind == "letter" else key
                pieces.append(Piece(c, kind, symbol, colours, looks[under_key]))
                if mark:
                    marks.append((c, mark))
    for c in numbered[:4]:
        tints.append((c, "erase"))
        pieces.append(Piece(c, kinds[0], "o", looks["v"], looks["h"]))
    for c in numbered[4:6]:
        tints.append((c, "hint"))
    empty = [c for c in plain if c not in {p.cell for p in pieces}]
    if empty:
        marks.append((empty[0], "ghost"))
        tints += [(c, "hint") for c in empty[1:3]]
        tints += [(c, "win") for c in empty[3:4]]
    arrows = [Arrow(0, 1), Arrow(n * n - 1, n * (n - 2), dashed=True)]
    chain = [n * r for r in range(n)]

    def panels(tones: tuple[str, str]) -> tuple[Panel, Panel]:
        out = []
        for (key, colours), tone in zip(looks.items(), tones):
            kind = "letter" if "letter" in kinds else "disc"
            out.append(
                Panel(
                    colour=key,
                    piece=Piece(-1, kind, "x" if key == "h" else "o", colours, looks["h"]),
                    name="Sample Name Wjgy 0123",
                    sides="top-bottom",
                    vertical=key == "v",
                    colours=colours,
                    detail="12 in hand",
                    badge="to move" if tone else "",
                    tone=tone,
                    cards=Cards(3, (1, 2), (3, 4)) if cards else None,
                )
            )
        return out[0], out[1]

    a = Scene(n, style, panels(("turn", "alert")), pieces, tints, marks, arrows, chain, "Last: x 1+2", "caption")
    if "stack" in kinds:
        a.legend.append((Piece(-1, "stack", "neutral", looks["v"], looks["h"]), "neutral disc"))
    b = Scene(n, style, panels(("win", "idle")), pieces, tints, marks, [], [], "Sample wins by connection", "")
    return [a, b]


@lru_cache(maxsize=48)
def palette_for(style: BoardStyle, size: int, cards: bool, theme: Theme, width: int, flip: bool) -> Image.Image:
    """The palette (on a 1×1 mode P image) for pictures of this look."""
    from .paint import paint

    shots = [paint(s, theme, width, flip) for s in sample_scenes(style, size, cards)]
    sheet = Image.new("RGB", (shots[0].width, sum(s.height for s in shots)))
    y = 0
    for s in shots:
        sheet.paste(s, (0, y))
        y += s.height
    # 255 colours: index 255 stays free for the GIF's "unchanged since last frame"
    quantized = sheet.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    # keep only the palette, on a 1×1 image: the cache then holds bytes, not pictures
    palette = Image.new("P", (1, 1))
    palette.putpalette(quantized.getpalette() or [])
    return palette
