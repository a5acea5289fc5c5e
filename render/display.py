"""How big Discord shows a board picture, and how big its text must be there.

The bot sends each board as the image of an embed. Discord's desktop client
shows an embed image scaled down to fit a 400×300 box (see the README's
"Pictures at the size Discord shows them" for the sources), so the pictures
are 4:3: at that size they fill the box exactly. A phone shows the same
embed at the width of the chat column, smaller still, which is why every
size below is a floor, not a target.

Sizes here are in display pixels (what a reader sees); :func:`px` turns them
into picture pixels.
"""

from __future__ import annotations

import math
from functools import lru_cache

#: the box an embed image is scaled into on the desktop client
BOX = (400, 300)
#: picture height per unit of width: the box's shape
ASPECT = BOX[1] / BOX[0]
#: Noto Sans' capital and digit height as a fraction of the font size
CAP = 0.714

#: floors in display pixels (glyph heights)
NAME = 10.0
BADGE = 10.0
DIGIT = 8.0


def height_for(width: int) -> int:
    """The height of a picture ``width`` wide: the box's shape."""
    return round(width * ASPECT)


def scale(width: int, height: int) -> float:
    """Display pixels per picture pixel once the picture is fitted into :data:`BOX`."""
    return min(BOX[0] / width, BOX[1] / height)


def label_floor(n: int) -> float:
    """Smallest coordinate height in display pixels: 9 up to 11×11, falling evenly to 7 at 19×19."""
    if n <= 11:
        return 9.0
    return 9.0 - 2.0 * (min(n, 19) - 11) / 8


def px(display: float, width: int) -> float:
    """Picture pixels that show as ``display`` pixels in a picture ``width`` wide (4:3)."""
    return display / scale(width, height_for(width))


@lru_cache(maxsize=256)
def cap_font(display: float, width: int) -> int:
    """The smallest font size whose capitals and digits show ``display`` pixels tall in a picture ``width`` wide."""
    need = px(display, width)
    size = max(1, math.floor(need / CAP) - 1)
    # measured, not estimated: a glyph's box is whole pixels
    while min(_height(size, ch, w) for ch in "A1" for w in (450, 550, 700)) < need:
        size += 1
    return size


def _height(size: int, ch: str, weight: int) -> int:
    """Height in pixels of ``ch``'s glyph box (any of the weights the pictures use)."""
    from .fonts import font  # here, not at the top: fonts need no display sizes, geometry needs both

    left, top, right, bottom = font(size, weight).getbbox(ch)
    return int(bottom - top)
