"""How big Discord shows a board picture, and how big its text must be there.

The bot sends each board as the image of an embed. Two clients matter:

- **Desktop** fits an embed image into a 400×300 box (see docs/pictures.md,
  "At the size Discord shows them", for the sources).
- **A phone** shows it as wide as the embed's inside on a 360 px-wide screen:
  360 less the chat's side padding (16 + 16), the avatar column (40 + 12) and
  the embed's accent bar and padding (4 + 12 + 12) — about 248 px. Discord
  documents no figure: this is our estimate from the app's layout, and it is
  the smaller of the two, so it is what the text floors are held at.

On a phone the width is the limit, so a picture may be taller than the
desktop box's 4:3 at no cost there: it is as tall as the board needs to fill
the width under the players' boxes (4:3 up to square; see
:func:`render.geometry.layout`). On desktop such a picture shows a little
narrower than 400 (at most 300 px tall).

Sizes here are in display pixels (what a reader sees); :func:`px` turns them
into picture pixels.
"""

from __future__ import annotations

import math
from functools import lru_cache

#: the box an embed image is scaled into on the desktop client
BOX = (400, 300)
#: a 360 px phone: screen less chat padding, avatar column and the embed's bar and padding (an estimate)
PHONE_SCREEN = 360
PHONE = PHONE_SCREEN - (16 + 16) - (40 + 12) - (4 + 12 + 12)
#: picture height per unit of width: at least the desktop box's 4:3 ...
ASPECT = BOX[1] / BOX[0]
#: ... and at most square: as tall as the board needs to fill the width (see :func:`render.geometry.layout`)
TALLEST = 1.0
#: Noto Sans' capital and digit height as a fraction of the font size
CAP = 0.714

#: floors in display pixels (glyph heights)
NAME = 10.0
BADGE = 10.0
DIGIT = 8.0
#: not a floor the issue sets: the quieter text (a box's second line, the last turn in words)
SMALL = 7.0


def height_for(width: int) -> int:
    """The least height of a picture ``width`` wide (4:3, :data:`ASPECT`)."""
    return round(width * ASPECT)


def tallest(width: int) -> int:
    """The greatest height of a picture ``width`` wide (square, :data:`TALLEST`)."""
    return round(width * TALLEST)


def desktop_scale(width: int, height: int) -> float:
    """Display pixels per picture pixel on the desktop client (fitted into :data:`BOX`, never enlarged)."""
    return min(1.0, BOX[0] / width, BOX[1] / height)


def phone_scale(width: int, height: int) -> float:
    """Display pixels per picture pixel on a 360 px phone (:data:`PHONE` wide, never enlarged)."""
    return min(1.0, PHONE / width)


def scale(width: int, height: int) -> float:
    """Display pixels per picture pixel where the picture is shown smallest (the phone): floors hold there."""
    return min(desktop_scale(width, height), phone_scale(width, height))


def label_floor(n: int) -> float:
    """Smallest coordinate height in display pixels: 9 up to 11×11, falling evenly to 7 at 19×19."""
    if n <= 11:
        return 9.0
    return 9.0 - 2.0 * (min(n, 19) - 11) / 8


def px(display: float, width: int) -> float:
    """Picture pixels that show as ``display`` pixels, wherever the picture is shown, in a picture ``width`` wide."""
    # the smallest scale over the heights a picture may have
    return display / scale(width, tallest(width))


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
