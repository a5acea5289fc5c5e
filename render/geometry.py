"""Pixel layout of a board picture: where every cell, side band and coordinate goes.

The board is the n×n rhombus of RULES.md §1 drawn with pointy-top hexagons:
screen row ``r+1`` sits half a cell to the right of row ``r``, so the centre of
screen slot (column ``c``, row ``r``) is ``(ox + (c + r/2)·w, oy + 1.5·r·R)``
where ``R`` is the hexagon's circumradius and ``w = √3·R`` its width.

``flip`` turns the board half a turn (the view from the other side of the
table): cell (c, r) is drawn in slot (n−1−c, n−1−r). Every side keeps its owner
(top and bottom stay the first player's), so the picture stays true; only the
coordinates run the other way.

Everything here is plain arithmetic on floats; the layout of a size, width,
flip and header/footer heights is computed once and cached.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from . import display
from .fonts import MEDIUM, font

SQRT3 = math.sqrt(3.0)
#: column letters in capitals: at display size a capital is a third taller than a small letter
#: (moves are typed in either case)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the coordinates' weight: a little heavier than text, for small sizes
LABEL_WEIGHT = MEDIUM
Point = tuple[float, float]

#: side bands, as fractions of R: thickness of the band at its thinnest
BAND = 0.42
#: gap between a band and its coordinates, as a fraction of R
LABEL_GAP = 0.22
#: outward unit normals of the rhombus' sides (screen coordinates, y down)
NORMALS: dict[str, Point] = {
    "top": (0.0, -1.0),
    "right": (SQRT3 / 2, -0.5),
    "bottom": (0.0, 1.0),
    "left": (-SQRT3 / 2, 0.5),
}
SIDES = ("top", "right", "bottom", "left")


@dataclass(frozen=True, slots=True)
class Label:
    """One coordinate: its text, anchor point and Pillow text anchor."""

    text: str
    x: float
    y: float
    anchor: str


@dataclass(frozen=True, slots=True)
class Layout:
    """Where everything of one board picture goes (all lengths in pixels)."""

    n: int
    width: int
    height: int
    flip: bool
    #: hexagon circumradius
    radius: float
    #: height of the header above the board area and of the footer below it
    header: int
    footer: int
    #: centre of screen slot (0, 0)
    ox: float
    oy: float
    #: font size of the coordinates
    label_size: int
    #: the unit of text and margins around the board (1.0 at 900 px wide)
    scale: float

    # -- cells -------------------------------------------------------------------
    @property
    def cell_width(self) -> float:
        """Distance between the centres of two neighbouring cells."""
        return SQRT3 * self.radius

    @property
    def band(self) -> float:
        """Thickness of a side band at its thinnest."""
        return BAND * self.radius

    def slot(self, cell: int) -> tuple[int, int]:
        """The screen (column, row) where a cell is drawn."""
        c, r = cell % self.n, cell // self.n
        if self.flip:
            return self.n - 1 - c, self.n - 1 - r
        return c, r

    def cell_at_slot(self, sc: int, sr: int) -> int:
        """The cell drawn in screen slot (sc, sr)."""
        if self.flip:
            sc, sr = self.n - 1 - sc, self.n - 1 - sr
        return sr * self.n + sc

    def slot_centre(self, sc: float, sr: float) -> Point:
        """Pixel centre of a screen slot."""
        w = self.cell_width
        return self.ox + (sc + sr / 2) * w, self.oy + 1.5 * sr * self.radius

    def centre(self, cell: int) -> Point:
        """Pixel centre of a cell."""
        return self.slot_centre(*self.slot(cell))

    def centres(self) -> list[Point]:
        """Pixel centres of every cell, by cell index."""
        return [self.centre(i) for i in range(self.n * self.n)]

    def cell_polygon(self, cell: int, shrink: float = 1.0) -> list[Point]:
        """The six corners of a cell's hexagon (top corner first, clockwise)."""
        x, y = self.centre(cell)
        return hexagon(x, y, self.radius * shrink)

    # -- sides -------------------------------------------------------------------
    def _outer_line(self, side: str) -> tuple[Point, float]:
        """The outer edge of a side's band as (unit normal, offset): points p with normal·p = offset."""
        n = self.n
        anchor = self.slot_centre(0, 0) if side in ("top", "left") else self.slot_centre(n - 1, n - 1)
        nx, ny = NORMALS[side]
        return (nx, ny), nx * anchor[0] + ny * anchor[1] + self.radius + self.band

    def _corner(self, a: str, b: str) -> tuple[list[Point], list[Point]]:
        """The outer corner where side ``a``'s band meets the next side ``b``'s (clockwise).

        Returns the points side ``a``'s band polygon takes there, then side ``b``'s.
        The two 120° corners are plain mitres. The two 60° corners would be long
        spikes, so they are cut square; the bands split along the corner's bisector.
        """
        (na, ka), (nb, kb) = self._outer_line(a), self._outer_line(b)
        mitre = _intersect(na, ka, nb, kb)
        if na[0] * nb[0] + na[1] * nb[1] >= 0:  # normals 60° apart: an obtuse corner
            return [mitre], [mitre]
        ux, uy = na[0] + nb[0], na[1] + nb[1]
        norm = math.hypot(ux, uy)
        ux, uy = ux / norm, uy / norm
        n = self.n
        cell = self.slot_centre(0, 0) if a == "left" else self.slot_centre(n - 1, n - 1)
        reach = self.radius + 1.9 * self.band
        k = ux * cell[0] + uy * cell[1] + reach
        mid = (cell[0] + ux * reach, cell[1] + uy * reach)
        qa = _intersect(na, ka, (ux, uy), k)
        qb = _intersect(nb, kb, (ux, uy), k)
        return [mid, qa], [qb, mid]

    def side_outline(self, side: str) -> list[Point]:
        """The zigzag of cell edges along one side of the rhombus, corner to corner, clockwise."""
        n, R = self.n, self.radius
        h = self.cell_width / 2
        pts: list[Point] = []
        if side == "top":
            for c in range(n):
                x, y = self.slot_centre(c, 0)
                pts += [(x - h, y - R / 2), (x, y - R)]
            x, y = self.slot_centre(n - 1, 0)
            pts.append((x + h, y - R / 2))
        elif side == "right":
            for r in range(n):
                x, y = self.slot_centre(n - 1, r)
                pts += [(x + h, y - R / 2), (x + h, y + R / 2)]
        elif side == "bottom":
            for c in range(n - 1, -1, -1):
                x, y = self.slot_centre(c, n - 1)
                pts += [(x + h, y + R / 2), (x, y + R)]
            x, y = self.slot_centre(0, n - 1)
            pts.append((x - h, y + R / 2))
        elif side == "left":
            for r in range(n - 1, -1, -1):
                x, y = self.slot_centre(0, r)
                pts += [(x - h, y + R / 2), (x - h, y - R / 2)]
        else:
            raise ValueError(f"no side '{side}'")
        return pts

    def band_polygon(self, side: str) -> list[Point]:
        """The band along one side: the zigzag of cell edges out to a straight outer edge."""
        i = SIDES.index(side)
        before, after = SIDES[i - 1], SIDES[(i + 1) % 4]
        return self.side_outline(side) + self._corner(side, after)[0] + self._corner(before, side)[1]

    def band_rim(self, side: str) -> list[Point]:
        """The band's outline without its zigzag: from the last cell corner, round the outside, to the first.

        It runs along the seam with the next band, the outer edge and the seam
        with the band before; the zigzag is left out because the cells cover it.
        """
        poly = self.band_polygon(side)
        zigzag = len(self.side_outline(side))
        return poly[zigzag - 1 :] + [poly[0]]

    # -- coordinates -------------------------------------------------------------
    def labels(self) -> list[Label]:
        """Column letters above and below the board, row numbers left and right of it."""
        n, R = self.n, self.radius
        out = self.band + R
        gap = LABEL_GAP * R
        # horizontal distance from a row's end cell centre to the slanted band's outer edge, plus the gap,
        # plus what the band slants over half a number's height: its corner stays as clear as its middle
        side_reach = out / (SQRT3 / 2) + gap + display.CAP * self.label_size / 2 / SQRT3
        labels: list[Label] = []
        for sc in range(n):
            top = self.cell_at_slot(sc, 0)
            x, y = self.slot_centre(sc, 0)
            labels.append(Label(LETTERS[top % n], x, y - out - gap, "md"))
            bottom = self.cell_at_slot(sc, n - 1)
            x, y = self.slot_centre(sc, n - 1)
            labels.append(Label(LETTERS[bottom % n], x, y + out + gap, "ma"))
        for sr in range(n):
            left = self.cell_at_slot(0, sr)
            x, y = self.slot_centre(0, sr)
            labels.append(Label(str(left // n + 1), x - side_reach, y, "rm"))
            right = self.cell_at_slot(n - 1, sr)
            x, y = self.slot_centre(n - 1, sr)
            labels.append(Label(str(right // n + 1), x + side_reach, y, "lm"))
        return labels

    def free_left(self, top: float, bottom: float) -> float:
        """How far from the left edge the strip of rows ``top``–``bottom`` is free of the board."""
        return _free(self, top, bottom)[0]

    def free_right(self, top: float, bottom: float) -> float:
        """How far from the right edge the strip of rows ``top``–``bottom`` is free of the board."""
        return _free(self, top, bottom)[1]

    @property
    def board_box(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the board with its bands and coordinates."""
        return _extent(self.n, self.radius, self.label_size, self.ox, self.oy)


def _intersect(na: Point, ka: float, nb: Point, kb: float) -> Point:
    """The point on both lines na·p = ka and nb·p = kb."""
    det = na[0] * nb[1] - na[1] * nb[0]
    return (ka * nb[1] - na[1] * kb) / det, (na[0] * kb - ka * nb[0]) / det


@lru_cache(maxsize=64)
def _stuff(lay: Layout) -> tuple[list[Point], ...]:
    """Everything drawn of a board as polygons: the four bands and each coordinate's box (do not mutate)."""
    shapes = [lay.band_polygon(side) for side in SIDES]
    f = font(lay.label_size, LABEL_WEIGHT)
    for lab in lay.labels():
        left, top, right, bottom = f.getbbox(lab.text, anchor=lab.anchor)
        x0, y0, x1, y1 = lab.x + left, lab.y + top, lab.x + right, lab.y + bottom
        shapes.append([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    return tuple(shapes)


@lru_cache(maxsize=512)
def _free(lay: Layout, top: float, bottom: float) -> tuple[float, float]:
    """Free widths left and right of the board in a strip of rows (see :meth:`Layout.free_left`)."""
    xs = [x for shape in _stuff(lay) for x in _xs_in_strip(shape, top, bottom)]
    return min(xs, default=float(lay.width)), lay.width - max(xs, default=0.0)


def _xs_in_strip(poly: list[Point], top: float, bottom: float) -> list[float]:
    """The x of a polygon's corners inside the strip top ≤ y ≤ bottom and of its edges' crossings of the strip's borders.

    The least and greatest of them are where the polygon starts and ends in the strip.
    """
    xs = [x for x, y in poly if top <= y <= bottom]
    for (x0, y0), (x1, y1) in zip(poly, poly[1:] + poly[:1]):
        for yy in (top, bottom):
            if (y0 - yy) * (y1 - yy) < 0:
                xs.append(x0 + (x1 - x0) * (yy - y0) / (y1 - y0))
    return xs


def hexagon(x: float, y: float, r: float) -> list[Point]:
    """Corners of a pointy-top hexagon of circumradius ``r`` centred on (x, y), top first, clockwise."""
    h = SQRT3 / 2 * r
    return [(x, y - r), (x + h, y - r / 2), (x + h, y + r / 2), (x, y + r), (x - h, y + r / 2), (x - h, y - r / 2)]


def _label_size(radius: float, scale: float, n: int) -> int:
    """Coordinates: never below the display floor (see :mod:`render.display`), larger where cells allow."""
    width = round(900 * scale)
    floor = display.cap_font(display.label_floor(n), width)
    return max(floor, round(min(30 * scale, 0.62 * radius)))


def _extent(n: int, radius: float, label_size: int, ox: float = 0.0, oy: float = 0.0) -> tuple[float, float, float, float]:
    """(left, top, right, bottom) of bands, tips and coordinates of a board whose slot (0,0) is at (ox, oy)."""
    probe = Layout(n, 0, 0, False, radius, 0, 0, ox, oy, label_size, 1.0)
    xs: list[float] = []
    ys: list[float] = []
    for side in SIDES:
        for x, y in probe.band_polygon(side):
            xs.append(x)
            ys.append(y)
    f = font(label_size, LABEL_WEIGHT)
    for lab in probe.labels():
        left, top, right, bottom = f.getbbox(lab.text, anchor=lab.anchor)
        xs += [lab.x + left, lab.x + right]
        ys += [lab.y + top, lab.y + bottom]
    return min(xs), min(ys), max(xs), max(ys)


MIN_WIDTH, MAX_WIDTH = 300, 4000


def check_width(width: int) -> None:
    """ValueError unless ``width`` is a picture width we draw (300–4000 px)."""
    if not isinstance(width, int) or not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be a whole number of pixels from {MIN_WIDTH} to {MAX_WIDTH}, not {width!r}")


@lru_cache(maxsize=256)
def layout(n: int, width: int, header: int, footer: int, flip: bool = False) -> Layout:
    """The layout of an n×n board in a picture ``width`` wide, below a header and above a footer.

    A phone shows the picture at a fixed width (see :mod:`render.display`), so
    the board takes the whole width and the picture is as tall as that needs,
    from 4:3 (the desktop box's shape) up to square. The radius is the largest
    with which the board fits, found by bisection because the coordinates'
    font size depends on it.
    """
    scale = width / 900
    margin = 8 * scale
    pad = 6 * scale
    avail_w = width - 2 * margin
    lowest, tallest = display.height_for(width), display.tallest(width)
    radius = _fit(n, scale, avail_w, tallest - header - footer - 2 * pad)
    left, top, right, bottom = _extent(n, radius, _label_size(radius, scale, n))
    height = min(tallest, max(lowest, math.ceil(header + footer + 2 * pad + bottom - top)))
    avail_h = height - header - footer - 2 * pad
    radius = _fit(n, scale, avail_w, avail_h)
    label_size = _label_size(radius, scale, n)
    left, top, right, bottom = _extent(n, radius, label_size)
    ox = (width - (right - left)) / 2 - left
    oy = header + pad + (avail_h - (bottom - top)) / 2 - top
    return Layout(n, width, height, flip, radius, header, footer, ox, oy, label_size, scale)


def _fit(n: int, scale: float, avail_w: float, avail_h: float) -> float:
    """The largest radius with which an n×n board, bands and coordinates included, fits ``avail_w``×``avail_h``."""
    lo, hi = 1.0, avail_w
    for _ in range(40):
        mid = (lo + hi) / 2
        left, top, right, bottom = _extent(n, mid, _label_size(mid, scale, n))
        if right - left <= avail_w and bottom - top <= avail_h:
            lo = mid
        else:
            hi = mid
    return lo
