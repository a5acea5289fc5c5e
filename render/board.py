"""The static layer of a picture (the board under everything) and Blind Hex's numbers.

The board layer depends only on the layout, the theme and the game's look (band
colours and, for Blind Hex, the numbered cells), so it is drawn once per
combination and cached; every picture starts from a copy of it. Blind Hex's
numbers are sprites drawn after the cell tints (cells a letter may go to, the
winning chain), which would otherwise wash them out.

The printed Blind Hex board tells which numbers a plain cell matches by hash
marks on the sides it shares with its numbered neighbours. At the size Discord
shows a picture on a phone those ticks are a few pixels of noise, so the
pictures write the numbers instead: a numbered cell's in bold, a plain cell's
pair (its two numbered neighbours') smaller beside each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from . import display
from .fonts import BOLD, MEDIUM, font
from .geometry import LABEL_WEIGHT, SIDES, Layout
from .raster import Pen
from .theme import PieceColours, Theme, mix

#: magnification used to antialias the board's polygons
FACTOR = 3
#: how far the digits go from the numbered cell's colour towards the ink (readable, yet not as loud as the letters)
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


def digit_size(lay: Layout) -> int:
    """Font size of Blind Hex's digits: at least :data:`render.display.DIGIT` tall on Discord, and a cell's
    number stands out from the smaller pairs of the plain cells (its capitals 60 % of the cell's height)."""
    return max(display.cap_font(display.DIGIT, lay.width), round(1.7 * lay.radius))


@lru_cache(maxsize=64)
def digit(k: int, size: int, theme: Theme) -> Image.Image:
    """The number of a numbered cell as a centred sprite (see :func:`render.pieces.place`).

    A sprite rather than part of :func:`board_layer`: a cell with a letter on it
    leaves its digit out (the letter says the cell is taken).
    """
    f = font(size, DIGIT_WEIGHT)
    colour = mix(theme.cell_numbered, theme.ink, DIGIT_INK)
    side = 2 * math.ceil(size + 2)
    image = Image.new("RGBA", (side, side), (*colour, 0))
    ImageDraw.Draw(image).text((side / 2, side / 2), str(k), font=f, fill=(*colour, 255), anchor="mm")
    return image


#: how far the digits of a plain cell go from the cell's colour towards the ink (about 4:1 against the cell)
PAIR_INK = 0.78
#: the width a plain cell's digits keep (their height is kept whole): a condensed face's proportions
CONDENSE = 0.66


def pair_size(lay: Layout) -> int:
    """Font size of the numbers a plain Blind Hex cell matches: the display floor, as small as allowed."""
    return display.cap_font(display.DIGIT, lay.width)


@lru_cache(maxsize=64)
def pair(ks: tuple[int, ...], size: int, theme: Theme) -> Image.Image:
    """The numbers a plain cell matches (``13``), as a centred sprite: every cell's numbers readable at display size.

    The printed board tells them by ticks on the neighbours' sides, which a
    phone shrinks to noise; medium weight, a lighter ink and narrowed digits
    keep them quieter than a numbered cell's bold digit.
    """
    f = font(size, MEDIUM)
    colour = mix(theme.cell, theme.ink, PAIR_INK)
    # side by side, narrowed: at the size a phone shows a cell, two digits of full width would fill it edge to
    # edge and run into the next cell's; narrowed to CONDENSE (their height kept) a cell's pair stays apart
    gap = max(1, round(0.08 * size))
    boxes = [tuple(round(v) for v in f.getbbox(str(k))) for k in ks]
    inks = [b[2] - b[0] for b in boxes]
    top = min(b[1] for b in boxes)
    bottom = max(b[3] for b in boxes)
    w = sum(inks) + gap * (len(ks) - 1) + 2
    h = bottom - top + 2
    image = Image.new("RGBA", (w, h), (*colour, 0))
    draw = ImageDraw.Draw(image)
    x = 1
    for k, b, ink in zip(ks, boxes, inks):
        draw.text((x - b[0], 1 - top), str(k), font=f, fill=(*colour, 255))
        x += ink + gap
    narrow = round(w * CONDENSE)
    # a box filter: as sharp as the others at this ratio, and fewer shades to encode
    return image.resize((narrow + narrow % 2, h + h % 2), Image.Resampling.BOX)
