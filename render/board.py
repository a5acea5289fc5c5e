"""The static layers of a picture: the board under everything, and Blind Hex's marks over the tints.

They depend only on the layout, the theme and the game's look (band colours and,
for Blind Hex, the numbered cells), so each is drawn once per combination and
cached; every picture starts from a copy of the board layer. Blind Hex's hash
marks and digits are kept apart from it: they are drawn after the cell tints
(cells a letter may go to, the winning chain), which would otherwise wash out
the very marks that tell a player which number a cell matches.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import display
from .fonts import BOLD, MEDIUM, font
from .geometry import LABEL_WEIGHT, SIDES, Layout, hexagon
from .raster import Pen
from .theme import RGB, PieceColours, Theme, mix

#: magnification used to antialias the board's polygons
FACTOR = 3
#: how far the digits go from the numbered cell's colour towards the ink (readable, yet quieter than the ticks)
DIGIT_INK = 0.75
#: digits are bold: at display size they must read at a glance
DIGIT_WEIGHT = BOLD


@dataclass(frozen=True, slots=True)
class BoardStyle:
    """What a game changes in the static layer.

    ``vertical`` colours the top and bottom bands (the first player's sides),
    ``horizontal`` the left and right ones. ``numbers`` gives Blind Hex's number
    for each cell (0 for a plain cell), or is empty for the other games;
    ``matches`` the numbers a plain cell matches, written small in it.
    ``pieces`` names the game's piece kinds (``disc``, ``letter``, ``disc+stack``),
    which fixes the colours its pictures can hold.
    """

    vertical: PieceColours
    horizontal: PieceColours
    numbers: tuple[int, ...] = ()
    pieces: str = "disc"
    #: Blind Hex: the numbers each plain cell matches (its numbered neighbours'), () for a numbered cell
    matches: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Patch:
    """A piece of a transparent layer: paste ``image`` at ``(x, y)`` by its own alpha."""

    image: Image.Image
    x: int
    y: int


def rim_width(lay: Layout) -> float:
    """Width of the outline round each side band: thick enough to frame a band as dark (or light) as the background.

    It grows with the cells but stops at 4.5 px at 900 px wide, where it would start to look heavy.
    """
    return min(max(2.0, 0.14 * lay.radius), 4.5 * lay.scale)


# about 2 MB each at 900 px: enough for every size, theme and flip a busy bot draws
@lru_cache(maxsize=24)
def board_layer(style: BoardStyle, lay: Layout, theme: Theme) -> Image.Image:
    """The board without pieces or marks, as an RGB image the size of the whole picture (do not mutate)."""
    big = Image.new("RGB", (lay.width * FACTOR, lay.height * FACTOR), theme.background)
    pen = Pen(big, FACTOR)
    line = max(1.0, 0.05 * lay.radius)
    # bands first: cells drawn over them hide the bands' zigzag inner edge
    owners = {"top": style.vertical, "bottom": style.vertical, "left": style.horizontal, "right": style.horizontal}
    for side, colours in owners.items():
        pen.polygon(lay.band_polygon(side), fill=colours.band)
    # A black band on the dark background (or a white one on the light) is barely
    # darker (lighter) than what surrounds it: a broad rim in a contrasting shade
    # frames every band, half inside, half outside, so each player's sides show.
    # It leaves out the zigzag along the cells, which would read as a border of the board.
    rim = rim_width(lay)
    for side in SIDES:
        pts = [pen.p(*q) for q in lay.band_rim(side)]
        pen.draw.line(pts, fill=owners[side].band_edge, width=max(1, round(rim * FACTOR)), joint="curve")
    for i in range(lay.n * lay.n):
        numbered = bool(style.numbers) and style.numbers[i] > 0
        fill = theme.cell_numbered if numbered else theme.cell
        pen.polygon(lay.cell_polygon(i), fill=fill, outline=theme.cell_line, width=line)
    image = big.reduce(FACTOR)
    draw = ImageDraw.Draw(image)
    f = font(lay.label_size, LABEL_WEIGHT)
    for lab in lay.labels():
        draw.text((lab.x, lab.y), lab.text, font=f, fill=theme.label, anchor=lab.anchor)
    return image


@lru_cache(maxsize=24)
def marks_layer(style: BoardStyle, lay: Layout, theme: Theme) -> tuple[Patch, ...]:
    """Blind Hex's hash marks as transparent patches over the numbered cells (none for the other games).

    Pasted after the tints, so the ticks keep the ink's full colour on tinted
    cells. The layer is cut into one patch round each numbered cell (merged
    where two would overlap, so no pixel is pasted twice): pasting only those
    takes about half the time of pasting the whole board's box.
    """
    if not style.numbers:
        return ()
    R = lay.radius
    # every tick of a cell lies within about 1.05 R of its centre (they cross its sides); 1.1 R leaves a margin
    boxes = []
    for i, k in enumerate(style.numbers):
        if k:
            x, y = lay.centre(i)
            boxes.append((math.floor(x - 1.1 * R), math.floor(y - 1.1 * R), math.ceil(x + 1.1 * R), math.ceil(y + 1.1 * R)))
    boxes = _disjoint(boxes)
    x0, y0 = min(b[0] for b in boxes), min(b[1] for b in boxes)
    x1, y1 = max(b[2] for b in boxes), max(b[3] for b in boxes)
    big = Image.new("RGBA", ((x1 - x0) * FACTOR, (y1 - y0) * FACTOR), (*theme.ink, 0))
    pen = Pen(big, FACTOR, (x0, y0))
    for i, k in enumerate(style.numbers):
        if k:
            _hash_marks(pen, lay, i, k, theme.ink)
    layer = big.reduce(FACTOR)
    patches = []
    for left, top, right, bottom in boxes:
        patch = layer.crop((left - x0, top - y0, right - x0, bottom - y0))
        inked = patch.getchannel("A").getbbox()
        if inked:
            patches.append(Patch(patch.crop(inked), left + inked[0], top + inked[1]))
    return tuple(patches)


def _disjoint(boxes: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """The boxes with every overlapping pair replaced by the box round both, until none overlap."""
    out = list(boxes)
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                a, b = out[i], out[j]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    out[i] = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


def digit_size(lay: Layout) -> int:
    """Font size of Blind Hex's digits: at least :data:`render.display.DIGIT` tall on Discord."""
    return max(display.cap_font(display.DIGIT, lay.width), round(0.62 * lay.radius))


@lru_cache(maxsize=64)
def digit(k: int, size: int, theme: Theme) -> Image.Image:
    """The number of a numbered cell as a centred sprite (see :func:`render.pieces.place`).

    A sprite rather than part of :func:`marks_layer`: a cell with a letter on it
    leaves its digit out (the letter says the cell is taken) but keeps its ticks.
    """
    f = font(size, DIGIT_WEIGHT)
    colour = mix(theme.cell_numbered, theme.ink, DIGIT_INK)
    side = 2 * math.ceil(size + 2)
    image = Image.new("RGBA", (side, side), (*colour, 0))
    ImageDraw.Draw(image).text((side / 2, side / 2), str(k), font=f, fill=(*colour, 255), anchor="mm")
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


#: how far the digits of a plain cell go from the cell's colour towards the ink (about 4:1 against the cell)
PAIR_INK = 0.78


def pair_size(lay: Layout) -> int:
    """Font size of the numbers a plain Blind Hex cell matches: the display floor, as small as allowed."""
    return display.cap_font(display.DIGIT, lay.width)


@lru_cache(maxsize=64)
def pair(ks: tuple[int, ...], size: int, theme: Theme) -> Image.Image:
    """The numbers a plain cell matches (``1 3``), as a centred sprite: every cell's numbers readable at display size.

    The printed board tells them by the ticks on the neighbours' sides, which a
    phone shrinks to noise; regular weight and a lighter ink keep them quieter
    than a numbered cell's bold digit.
    """
    f = font(size, MEDIUM)
    colour = mix(theme.cell, theme.ink, PAIR_INK)
    # one above the other: a column of two small digits reads as one cell's pair, not as a number
    w = math.ceil(max(f.getlength(str(k)) for k in ks)) + 4
    step = round(size * 0.78)
    h = step * len(ks) + 4
    image = Image.new("RGBA", (w + w % 2, h + h % 2), (*colour, 0))
    draw = ImageDraw.Draw(image)
    for j, k in enumerate(ks):
        draw.text((image.width / 2, image.height / 2 + (j - (len(ks) - 1) / 2) * step), str(k), font=f,
                  fill=(*colour, 255), anchor="mm")
    return image
