"""Sprites of pieces and marks, drawn once per size and colour and cached.

Every sprite is a square RGBA image centred on its cell: paste it with
:func:`place`. Sizes are fractions of the hexagon radius ``R`` so a piece fills
the same share of its cell on every board size. The caches are
``functools.lru_cache``: safe across threads (at worst a sprite is drawn twice)
and never mutated once made.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageFilter

from .geometry import hexagon
from .raster import Pen, sprite
from .theme import RGB, PieceColours, mix

#: disc and stone radius, as a fraction of R (the cell's inner radius is 0.866 R)
DISC = 0.66
#: last-turn ring: radius and stroke, as fractions of R
RING = 0.74
RING_WIDTH = 0.11


def _side(extent: float) -> int:
    """An even sprite side that holds a shape reaching ``extent`` from the centre."""
    return 2 * math.ceil(extent + 2)


def place(canvas: Image.Image, image: Image.Image, x: float, y: float) -> None:
    """Paste a centred sprite so its centre lands on (x, y), blending by its alpha."""
    w, h = image.size
    canvas.paste(image, (round(x - w / 2), round(y - h / 2)), image)


def _shaded_disc(pen: Pen, x: float, y: float, r: float, c: PieceColours, edge: float) -> None:
    """A disc lit from the upper left: rim colour outside, fill colour at the highlight."""
    pen.circle(x, y, r, fill=c.edge)
    inner = r - edge
    steps = 14
    for k in range(steps):
        t = k / (steps - 1)
        rr = inner * (1 - 0.6 * t)
        # the lit spot drifts up-left as the circles shrink
        cx, cy = x - 0.22 * inner * t, y - 0.26 * inner * t
        pen.circle(cx, cy, rr, fill=mix(c.rim, c.fill, t ** 0.7))


@lru_cache(maxsize=128)
def disc(colours: PieceColours, radius: float) -> Image.Image:
    """A disc or stone of one colour for cells of radius ``radius``, with a soft shadow."""
    r = DISC * radius
    side = _side(r * 1.15)
    m = side / 2
    edge = max(1.0, 0.045 * radius)

    def paint(pen: Pen) -> None:
        _shaded_disc(pen, m, m, r, colours, edge)

    return _with_shadow(sprite((side, side), paint), radius)


@lru_cache(maxsize=32)
def stack(bottom: PieceColours, top: PieceColours, radius: float) -> Image.Image:
    """The neutral disc: half one colour, half the other, split by a red band, in a red rim.

    Neither player's disc has two colours or red, so at any size it reads as
    nobody's disc (it is everybody's enemy); a legend line says so too.
    """
    r = DISC * radius
    side = _side(r * 1.15)
    m = side / 2
    edge = max(1.0, 0.045 * radius)
    band = 0.16 * r
    red = (200, 30, 50)

    def paint(pen: Pen) -> None:
        pen.circle(m, m, r, fill=(60, 10, 18))
        pen.circle(m, m, r - edge, fill=red)
        inner = r - 0.2 * r
        pen.circle(m, m, inner, fill=bottom.fill)
        # the right half in the other colour: a half-disc as a polygon
        pts = [(m + inner * math.cos(a / 40 * math.pi - math.pi / 2), m + inner * math.sin(a / 40 * math.pi - math.pi / 2))
               for a in range(41)]
        pen.polygon(pts, fill=top.fill)
        pen.polygon([(m - band / 2, m - inner), (m + band / 2, m - inner), (m + band / 2, m + inner), (m - band / 2, m + inner)],
                    fill=red)

    return _with_shadow(sprite((side, side), paint), radius)


def _with_shadow(image: Image.Image, radius: float) -> Image.Image:
    """The sprite over a soft shadow cast down-right, so pieces stand off the board."""
    alpha = image.getchannel("A")
    shadow = Image.new("RGBA", image.size, (0, 0, 0, 0))
    dark = Image.new("RGBA", image.size, (20, 12, 4, 255))
    blurred = alpha.filter(ImageFilter.GaussianBlur(max(0.8, 0.05 * radius)))
    blurred = blurred.point(lambda v: v * 45 // 100)
    off = max(1, round(0.05 * radius))
    shadow.paste(dark, (off, off), blurred)
    shadow.alpha_composite(image)
    return shadow


@lru_cache(maxsize=64)
def letter(symbol: str, colours: PieceColours, radius: float) -> Image.Image:
    """A Blind Hex letter written in pencil colour: ``x`` as a cross, ``o`` as a ring."""
    side = _side(radius * 0.7)
    m = side / 2
    stroke = 0.17 * radius

    def paint(pen: Pen) -> None:
        if symbol == "x":
            a = 0.36 * radius
            for w, colour in ((stroke + 0.07 * radius, colours.edge), (stroke, colours.fill)):
                pen.line((m - a, m - a), (m + a, m + a), colour, w)
                pen.line((m - a, m + a), (m + a, m - a), colour, w)
        else:
            rx, ry = 0.36 * radius, 0.42 * radius
            pen.ellipse(m, m, rx + stroke / 2 + 0.035 * radius, ry + stroke / 2 + 0.035 * radius, fill=colours.edge)
            pen.ellipse(m, m, rx + stroke / 2, ry + stroke / 2, fill=colours.fill)
            pen.ellipse(m, m, rx - stroke / 2, ry - stroke / 2, fill=colours.edge)
            pen.ellipse(m, m, rx - stroke / 2 - 0.035 * radius, ry - stroke / 2 - 0.035 * radius, fill=(0, 0, 0, 0))

    return sprite((side, side), paint)


#: the two borders of every mark: whichever the piece or cell under it, one of them stands out
HALO_DARK = (24, 16, 8)
HALO_LIGHT = (255, 255, 255)


@lru_cache(maxsize=64)
def ring(colour: RGB, edge: RGB, radius: float, size: float = RING, width: float = RING_WIDTH) -> Image.Image:
    """A ring round a piece (the last placed disc), bordered dark outside and light inside."""
    r = size * radius
    w = width * radius
    e = max(1.0, 0.05 * radius)
    side = _side(r + w / 2 + 1.5 * e)
    m = side / 2

    def paint(pen: Pen) -> None:
        # Pillow draws an outline inwards from the radius: dark border, the colour, light border
        pen.circle(m, m, r + w / 2 + 1.5 * e, outline=edge, width=1.5 * e)
        pen.circle(m, m, r + w / 2, outline=colour, width=w)
        pen.circle(m, m, r - w / 2, outline=HALO_LIGHT, width=e)

    return sprite((side, side), paint)


@lru_cache(maxsize=64)
def dot(colour: RGB, edge: RGB, radius: float, size: float = 0.26) -> Image.Image:
    """A dot with a broad dark border on a piece's centre (Hex's last stone): seen even on a phone."""
    r = size * radius
    e = max(2.0, 0.14 * radius)
    side = _side(r + e + 2)
    m = side / 2

    def paint(pen: Pen) -> None:
        pen.circle(m, m, r + e, fill=edge)
        pen.circle(m, m, r + e / 2, fill=HALO_LIGHT)
        pen.circle(m, m, r, fill=colour)

    return sprite((side, side), paint)


@lru_cache(maxsize=64)
def cell_tint(colour: RGB, alpha: int, radius: float, inset: float = 0.06) -> Image.Image:
    """A translucent hexagon over a cell (winning chain, cells a letter may go to)."""
    side = _side(radius)
    m = side / 2

    def paint(pen: Pen) -> None:
        pen.polygon(hexagon(m, m, radius * (1 - inset)), fill=(*colour, alpha))

    return sprite((side, side), paint)


@lru_cache(maxsize=64)
def ghost(fill: RGB, edge: RGB, radius: float) -> Image.Image:
    """A dashed circle where a relocated disc was lifted from."""
    r = DISC * radius * 0.92
    w = 0.07 * radius
    side = _side(r + w)
    m = side / 2
    count = 12

    def arcs() -> list[list[tuple[float, float]]]:
        """Twelve dashes round the circle, each half of its twelfth, as short polylines."""
        out = []
        for k in range(count):
            a0 = 2 * math.pi * k / count
            step = math.pi / count / 5
            out.append([(m + r * math.cos(a0 + step * s), m + r * math.sin(a0 + step * s)) for s in range(6)])
        return out

    def paint(pen: Pen) -> None:
        # all the dark borders first, so no border covers a neighbouring dash
        for colour, width in ((edge, w + 0.04 * radius), (fill, w)):
            for arc in arcs():
                for p, q in zip(arc, arc[1:]):
                    pen.line(p, q, colour, width)

    return sprite((side, side), paint)


@lru_cache(maxsize=64)
def diamond(colour: RGB, edge: RGB, radius: float) -> Image.Image:
    """A square frame turned on its corner round a disc: a disc that must be relocated.

    Its corners stick out of the disc, so it is told from the round last-move ring by shape.
    """
    r = 0.86 * radius
    w = 0.12 * radius
    e = max(1.0, 0.05 * radius)
    side = _side(r + w + 2 * e)
    m = side / 2
    pts = [(m, m - r), (m + r, m), (m, m + r), (m - r, m)]

    def paint(pen: Pen) -> None:
        for c, width in ((HALO_DARK, w + 4 * e), (edge, w + 2 * e), (colour, w)):
            for p, q in zip(pts, pts[1:] + pts[:1]):
                pen.line(p, q, c, width)

    return sprite((side, side), paint)


@lru_cache(maxsize=64)
def cell_frame(colour: RGB, radius: float, dashed: bool, width: float = 0.17) -> Image.Image:
    """A hexagonal outline just inside a cell: solid for the winning chain, dashed for where a letter may go."""
    corners = hexagon(0, 0, radius * 0.86)
    side = _side(radius)
    m = side / 2
    w = width * radius
    pts = [(m + x, m + y) for x, y in corners]

    def paint(pen: Pen) -> None:
        for p, q in zip(pts, pts[1:] + pts[:1]):
            if not dashed:
                pen.line(p, q, colour, w)
                continue
            # each side as two dashes with a gap in the middle and at the corners
            for t0, t1 in ((0.0, 0.38), (0.62, 1.0)):
                a = (p[0] + (q[0] - p[0]) * t0, p[1] + (q[1] - p[1]) * t0)
                b = (p[0] + (q[0] - p[0]) * t1, p[1] + (q[1] - p[1]) * t1)
                pen.line(a, b, colour, w)

    return sprite((side, side), paint)
