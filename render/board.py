"""The static layer of a picture: background, side bands, empty cells, coordinates.

It depends only on the layout, the theme and the game's look (band colours and,
for Blind Hex, the numbered cells), so it is drawn once per combination and
cached; every picture starts from a copy of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from .fonts import font
from .geometry import Layout, hexagon
from .raster import Pen
from .theme import RGB, PieceColours, Theme, mix

#: magnification used to antialias the board's polygons
FACTOR = 3


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """What a game changes in the static layer.

    ``vertical`` colours the top and bottom bands (the first player's sides),
    ``horizontal`` the left and right ones. ``numbers`` gives Blind Hex's number
    for each cell (0 for a plain cell), or is empty for the other games.
    ``pieces`` names the game's piece kinds (``disc``, ``letter``, ``disc+stack``),
    which fixes the colours its pictures can hold.
    """

    vertical: PieceColours
    horizontal: PieceColours
    numbers: tuple[int, ...] = ()
    pieces: str = "disc"


# about 2 MB each at 900 px: enough for every size, theme and flip a busy bot draws
@lru_cache(maxsize=24)
def board_layer(style: BoardStyle, lay: Layout, theme: Theme) -> Image.Image:
    """The board without pieces, as an RGB image the size of the whole picture (do not mutate)."""
    big = Image.new("RGB", (lay.width * FACTOR, lay.height * FACTOR), theme.background)
    pen = Pen(big, FACTOR)
    line = max(1.0, 0.05 * lay.radius)
    # bands first: cells drawn over them hide the bands' zigzag inner edge
    owners = {"top": style.vertical, "bottom": style.vertical, "left": style.horizontal, "right": style.horizontal}
    for side, colours in owners.items():
        pen.polygon(lay.band_polygon(side), fill=colours.band, outline=colours.band_edge, width=max(1.0, 0.04 * lay.radius))
    for i in range(lay.n * lay.n):
        numbered = bool(style.numbers) and style.numbers[i] > 0
        fill = theme.cell_numbered if numbered else theme.cell
        pen.polygon(lay.cell_polygon(i), fill=fill, outline=theme.cell_line, width=line)
    if style.numbers:
        for i, k in enumerate(style.numbers):
            if k:
                _hash_marks(pen, lay, i, k, theme.ink)
    image = big.reduce(FACTOR)
    draw = ImageDraw.Draw(image)
    if style.numbers:
        _digits(draw, lay, style.numbers, theme)
    f = font(lay.label_size)
    for lab in lay.labels():
        draw.text((lab.x, lab.y), lab.text, font=f, fill=theme.label, anchor=lab.anchor)
    return image


def _hash_marks(pen: Pen, lay: Layout, cell: int, k: int, ink: RGB) -> None:
    """``k`` ticks across each side of a numbered cell, as on the printed board.

    Five is four ticks crossed by a slash (a tally). A plain cell next to the
    numbered cell shares that side, so it shows the same ticks: that is how the
    printed board tells which numbers a plain cell matches.
    """
    R = lay.radius
    x, y = lay.centre(cell)
    corners = hexagon(x, y, R)
    length = 0.30 * R
    spacing = 0.115 * R
    width = max(1.0, 0.05 * R)
    ticks = 4 if k == 5 else k
    for a, b in zip(corners, corners[1:] + corners[:1]):
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        ux, uy = (b[0] - a[0]) / R, (b[1] - a[1]) / R
        nx, ny = mx - x, my - y
        d = math.hypot(nx, ny)
        nx, ny = nx / d, ny / d
        for j in range(ticks):
            off = (j - (ticks - 1) / 2) * spacing
            cx, cy = mx + ux * off, my + uy * off
            pen.line((cx - nx * length / 2, cy - ny * length / 2), (cx + nx * length / 2, cy + ny * length / 2), ink, width)
        if k == 5:
            s = 2.3 * spacing
            pen.line(
                (mx - ux * s - nx * length * 0.35, my - uy * s - ny * length * 0.35),
                (mx + ux * s + nx * length * 0.35, my + uy * s + ny * length * 0.35),
                ink,
                width,
            )


def _digits(draw: ImageDraw.ImageDraw, lay: Layout, numbers: tuple[int, ...], theme: Theme) -> None:
    """The number of each numbered cell, faint, so nobody has to count ticks."""
    f = font(max(10, round(0.62 * lay.radius)))
    colour = mix(theme.cell_numbered, theme.ink, 0.55)
    for i, k in enumerate(numbers):
        if k:
            x, y = lay.centre(i)
            draw.text((x, y), str(k), font=f, fill=colour, anchor="mm")
