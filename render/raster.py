"""Antialiased drawing with Pillow: draw big, then shrink.

``ImageDraw`` has no antialiasing, so every shape is drawn at ``factor`` times
the size and reduced (Pillow's reduce averages premultiplied colours, so
transparent edges do not darken). Sprites are small and cached; only the
last-turn arrows are drawn per picture, on a patch just big enough for them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

from PIL import Image, ImageDraw

Point = tuple[float, float]
RGBA = tuple[int, int, int, int]


class Pen:
    """An ``ImageDraw`` on a magnified canvas that takes coordinates at final size."""

    def __init__(self, image: Image.Image, factor: int, origin: Point = (0.0, 0.0)) -> None:
        self.draw = ImageDraw.Draw(image)
        self.k = factor
        self.ox, self.oy = origin

    def p(self, x: float, y: float) -> Point:
        """A final-size point in magnified canvas coordinates."""
        return (x - self.ox) * self.k, (y - self.oy) * self.k

    def polygon(self, pts: Iterable[Point], fill=None, outline=None, width: float = 0.0) -> None:
        """A filled and/or outlined polygon; ``width`` at final size."""
        w = max(1, round(width * self.k)) if outline is not None else 0
        self.draw.polygon([self.p(*q) for q in pts], fill=fill, outline=outline, width=w)

    def circle(self, x: float, y: float, r: float, fill=None, outline=None, width: float = 0.0) -> None:
        """A disc and/or ring of radius ``r`` centred on (x, y)."""
        cx, cy = self.p(x, y)
        rr = r * self.k
        w = max(1, round(width * self.k)) if outline is not None else 0
        self.draw.ellipse((cx - rr, cy - rr, cx + rr, cy + rr), fill=fill, outline=outline, width=w)

    def ellipse(self, x: float, y: float, rx: float, ry: float, fill=None, outline=None, width: float = 0.0) -> None:
        """An axis-aligned ellipse centred on (x, y)."""
        cx, cy = self.p(x, y)
        w = max(1, round(width * self.k)) if outline is not None else 0
        box = (cx - rx * self.k, cy - ry * self.k, cx + rx * self.k, cy + ry * self.k)
        self.draw.ellipse(box, fill=fill, outline=outline, width=w)

    def line(self, a: Point, b: Point, fill, width: float, round_caps: bool = True) -> None:
        """A straight stroke from ``a`` to ``b``, with round ends unless told otherwise."""
        w = max(1, round(width * self.k))
        self.draw.line([self.p(*a), self.p(*b)], fill=fill, width=w)
        if round_caps:
            for x, y in (a, b):
                self.circle(x, y, width / 2, fill=fill)


def sprite(size: tuple[int, int], paint: Callable[[Pen], None], factor: int = 4) -> Image.Image:
    """An RGBA image of ``size`` painted by ``paint`` (final-size coordinates), antialiased."""
    big = Image.new("RGBA", (size[0] * factor, size[1] * factor), (0, 0, 0, 0))
    paint(Pen(big, factor))
    return big.reduce(factor)


def arrow_polygon(a: Point, b: Point, shaft: float, head_length: float, head_width: float) -> list[Point]:
    """The outline of an arrow from ``a`` to its tip ``b``: a shaft then a triangular head."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay) or 1.0
    ux, uy = (bx - ax) / length, (by - ay) / length
    nx, ny = -uy, ux
    head_length = min(head_length, length * 0.7)
    hx, hy = bx - ux * head_length, by - uy * head_length
    s, h = shaft / 2, head_width / 2
    return [
        (ax + nx * s, ay + ny * s),
        (hx + nx * s, hy + ny * s),
        (hx + nx * h, hy + ny * h),
        (bx, by),
        (hx - nx * h, hy - ny * h),
        (hx - nx * s, hy - ny * s),
        (ax - nx * s, ay - ny * s),
    ]


def dashes(a: Point, b: Point, on: float, off: float) -> list[tuple[Point, Point]]:
    """Pieces of the segment ``a``–``b``: ``on`` long, ``off`` apart, the last one ending at ``b``."""
    (ax, ay), (bx, by) = a, b
    length = math.hypot(bx - ax, by - ay)
    if length == 0:
        return []
    ux, uy = (bx - ax) / length, (by - ay) / length
    out = []
    # laid out backwards from b so the dash that meets the arrow head is whole
    end = length
    while end > 0:
        start = max(0.0, end - on)
        out.append(((ax + ux * start, ay + uy * start), (ax + ux * end, ay + uy * end)))
        end = start - off
    return out[::-1]
